//! The f32 matrix product in plain Rust, for CPUs without AVX-512: panels of 16 columns, four
//! rows at a time, written so that the compiler vectorises the column loop.

use super::PANEL;

const MR: usize = 4;

#[allow(clippy::too_many_arguments)]
pub(super) fn gemm_f32(
    a: &[f32],
    lda: usize,
    m: usize,
    k: usize,
    b: &[f32],
    n: usize,
    bias: Option<&[f32]>,
    c: &mut [f32],
    ldc: usize,
) {
    for p in 0..n.div_ceil(PANEL) {
        let panel = &b[p * k * PANEL..(p + 1) * k * PANEL];
        let cols = PANEL.min(n - p * PANEL);
        let mut i0 = 0;
        while i0 < m {
            let rows = MR.min(m - i0);
            let mut acc = [[0f32; PANEL]; MR];
            for (l, bl) in panel.chunks_exact(PANEL).enumerate() {
                for (r, acc_r) in acc.iter_mut().enumerate().take(rows) {
                    let av = a[(i0 + r) * lda + l];
                    for (x, bv) in acc_r.iter_mut().zip(bl) {
                        *x += av * bv;
                    }
                }
            }
            for (r, acc_r) in acc.iter().enumerate().take(rows) {
                let out = &mut c[(i0 + r) * ldc + p * PANEL..(i0 + r) * ldc + p * PANEL + cols];
                for (j, o) in out.iter_mut().enumerate() {
                    *o = acc_r[j] + bias.map_or(0.0, |b| b[p * PANEL + j]);
                }
            }
            i0 += rows;
        }
    }
}
