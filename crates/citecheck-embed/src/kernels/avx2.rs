//! AVX2 + FMA kernels: the f32 matrix product (`vfmadd231ps` on 256-bit registers) and the
//! element-wise maths compiled for AVX2, for the x86-64 CPUs without AVX-512 (most cloud VMs,
//! AMD before Zen 4, Intel client chips).
//!
//! Why `unsafe` here, and only here (and in `avx512`): stable Rust reaches these instructions
//! only through `std::arch` intrinsics inside `#[target_feature]` functions, which are `unsafe`
//! to call, and the micro-kernel reads the packed operands through raw pointers so that its 12
//! accumulators stay in registers without bounds checks in the inner loop. The safe entry points
//! check every length once and assert [`available`] first, which is what makes each `unsafe`
//! block sound.
#![allow(unsafe_code)]
// On other architectures only the entry points remain (they assert that the backend is not
// available), so their arguments and the x86 helpers go unused there.
#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(unused_variables, unused_imports, unused_macros, dead_code)
)]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

#[cfg(target_arch = "x86_64")]
use super::math;
use super::PANEL;

/// Rows per micro-tile: 6 rows x 16 columns (two 8-lane registers) are 12 accumulators; with
/// the two loaded halves of the panel and a broadcast, 15 of the 16 registers.
const MR: usize = 6;
/// Rows of `a` per pass over all of `b`'s panels: 96 rows of up to 1536 f32 (~576 KiB at the
/// widest) stay in a Zen 3 core's 512 KiB L2 for the narrow products and in L3 otherwise, while
/// each panel (at most 96 KiB) is reused by all of them.
const M_BLOCK: usize = 96;

/// AVX2 and FMA, both needed (FMA came separately on some early AVX2-era parts).
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `c = a * b (+ bias)` in f32 with `b` packed `[panel][k][16]` (zero-padded columns), `bias`
/// padded to whole panels.
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
    let panels = n.div_ceil(PANEL);
    assert!(available(), "avx2::gemm_f32 needs AVX2 and FMA");
    assert!(m == 0 || (a.len() >= (m - 1) * lda + k && lda >= k));
    assert!(b.len() >= panels * k * PANEL);
    assert!(bias.is_none_or(|bias| bias.len() >= panels * PANEL));
    assert!(m == 0 || (c.len() >= (m - 1) * ldc + n && ldc >= n));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX2 and FMA (asserted above); every offset stays within the asserted
    // lengths: rows < m, depth < k, panels < `panels`, and stores are cut to columns < n.
    unsafe {
        let bias_ptr = bias.map_or(std::ptr::null(), <[f32]>::as_ptr);
        for m0 in (0..m).step_by(M_BLOCK) {
            let m_end = (m0 + M_BLOCK).min(m);
            for p in 0..panels {
                let cols = PANEL.min(n - p * PANEL);
                let b_panel = b.as_ptr().add(p * k * PANEL);
                let bias_panel = if bias_ptr.is_null() {
                    bias_ptr
                } else {
                    bias_ptr.add(p * PANEL)
                };
                let mut i0 = m0;
                while i0 < m_end {
                    let mr = MR.min(m_end - i0);
                    let a_tile = a.as_ptr().add(i0 * lda);
                    let c_tile = c.as_mut_ptr().add(i0 * ldc + p * PANEL);
                    macro_rules! tile {
                        ($mr:literal) => {
                            tile_f32::<$mr>(a_tile, lda, k, b_panel, bias_panel, c_tile, ldc, cols)
                        };
                    }
                    match mr {
                        6 => tile!(6),
                        5 => tile!(5),
                        4 => tile!(4),
                        3 => tile!(3),
                        2 => tile!(2),
                        _ => tile!(1),
                    }
                    i0 += mr;
                }
            }
        }
    }
}

/// One `R x 16` tile over the whole depth; only the first `cols` columns are stored.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
unsafe fn tile_f32<const R: usize>(
    a: *const f32,
    lda: usize,
    k: usize,
    b: *const f32,
    bias: *const f32,
    c: *mut f32,
    ldc: usize,
    cols: usize,
) {
    let mut lo = [_mm256_setzero_ps(); R];
    let mut hi = [_mm256_setzero_ps(); R];
    for l in 0..k {
        let b_lo = _mm256_loadu_ps(b.add(l * PANEL));
        let b_hi = _mm256_loadu_ps(b.add(l * PANEL + 8));
        for r in 0..R {
            let av = _mm256_broadcast_ss(&*a.add(r * lda + l));
            lo[r] = _mm256_fmadd_ps(av, b_lo, lo[r]);
            hi[r] = _mm256_fmadd_ps(av, b_hi, hi[r]);
        }
    }
    if !bias.is_null() {
        let (bias_lo, bias_hi) = (_mm256_loadu_ps(bias), _mm256_loadu_ps(bias.add(8)));
        for r in 0..R {
            lo[r] = _mm256_add_ps(lo[r], bias_lo);
            hi[r] = _mm256_add_ps(hi[r], bias_hi);
        }
    }
    for r in 0..R {
        let out = c.add(r * ldc);
        if cols == PANEL {
            _mm256_storeu_ps(out, lo[r]);
            _mm256_storeu_ps(out.add(8), hi[r]);
        } else {
            let mut row = [0f32; PANEL];
            _mm256_storeu_ps(row.as_mut_ptr(), lo[r]);
            _mm256_storeu_ps(row.as_mut_ptr().add(8), hi[r]);
            std::ptr::copy_nonoverlapping(row.as_ptr(), out, cols);
        }
    }
}

pub(super) fn gelu(x: &mut [f32]) {
    assert!(available());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX2 and FMA (asserted); the function is plain safe Rust otherwise.
    unsafe {
        gelu_avx2(x)
    }
}

pub(super) fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    assert!(available());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `gelu`.
    unsafe {
        layer_norm_avx2(x, width, gamma, beta)
    }
}

pub(super) fn softmax_rows(x: &mut [f32], stride: usize, n: usize) {
    assert!(available());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `gelu`.
    unsafe {
        softmax_avx2(x, stride, n)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn gelu_avx2(x: &mut [f32]) {
    math::gelu(x)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn layer_norm_avx2(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    math::layer_norm(x, width, gamma, beta)
}

/// Horizontal max / sum of eight lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn reduce(v: __m256, max: bool) -> f32 {
    let mut lanes = [0f32; 8];
    // SAFETY: `lanes` holds exactly eight f32.
    unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) };
    if max {
        lanes.iter().copied().fold(f32::NEG_INFINITY, f32::max)
    } else {
        lanes.iter().sum()
    }
}

/// Row-wise softmax with explicit vectors (the compiler does not vectorise the reductions of the
/// portable version); the ragged end of a row goes through the scalar `math` functions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn softmax_avx2(x: &mut [f32], stride: usize, n: usize) {
    const L: usize = 8;
    let full = n / L * L;
    for row in x.chunks_mut(stride) {
        let row = &mut row[..n];
        let (body, tail) = row.split_at_mut(full);
        let mut maxv = _mm256_set1_ps(f32::NEG_INFINITY);
        for c in body.chunks_exact(L) {
            // SAFETY: `c` holds exactly eight f32.
            maxv = _mm256_max_ps(maxv, unsafe { _mm256_loadu_ps(c.as_ptr()) });
        }
        let max = tail.iter().copied().fold(reduce(maxv, true), f32::max);
        let mv = _mm256_set1_ps(max);
        let mut sumv = _mm256_setzero_ps();
        for c in body.chunks_exact_mut(L) {
            // SAFETY: `c` holds exactly eight f32.
            unsafe {
                let e = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(c.as_ptr()), mv));
                _mm256_storeu_ps(c.as_mut_ptr(), e);
                sumv = _mm256_add_ps(sumv, e);
            }
        }
        let mut sum = reduce(sumv, false);
        for v in tail.iter_mut() {
            *v = math::exp_nonpositive(*v - max);
            sum += *v;
        }
        let inv = 1.0 / sum;
        let iv = _mm256_set1_ps(inv);
        for c in body.chunks_exact_mut(L) {
            // SAFETY: `c` holds exactly eight f32.
            unsafe {
                _mm256_storeu_ps(
                    c.as_mut_ptr(),
                    _mm256_mul_ps(_mm256_loadu_ps(c.as_ptr()), iv),
                )
            };
        }
        for v in tail.iter_mut() {
            *v *= inv;
        }
    }
}

/// `math::exp_nonpositive`, eight lanes at a time (the power of two built in the exponent bits).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn exp_nonpositive(x: __m256) -> __m256 {
    let x = _mm256_max_ps(x, _mm256_set1_ps(-87.0));
    let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_ps(
        x,
        _mm256_set1_ps(std::f32::consts::LOG2_E),
    ));
    let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693_359_4), x);
    let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.121_944_4e-4), r);
    let mut p = _mm256_set1_ps(1.987_569_1e-4);
    for c in [
        1.398_199_9e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        1.666_666_5e-1,
        0.5,
    ] {
        p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(c));
    }
    let y = _mm256_fmadd_ps(
        _mm256_mul_ps(p, r),
        r,
        _mm256_add_ps(r, _mm256_set1_ps(1.0)),
    );
    let bits = _mm256_slli_epi32::<23>(_mm256_add_epi32(
        _mm256_cvtps_epi32(n),
        _mm256_set1_epi32(127),
    ));
    _mm256_mul_ps(y, _mm256_castsi256_ps(bits))
}

/// FLOP/s of a register-only loop of `vfmadd231ps` (256-bit) on one thread: the core's f32 peak,
/// to which the benchmark compares the forward pass.
pub(super) fn peak_gflops() -> f64 {
    if !available() {
        return f64::NAN;
    }
    const ITERS: usize = 4_000_000;
    #[cfg(target_arch = "x86_64")]
    {
        let mut best = 0.0f64;
        for _ in 0..7 {
            let started = super::avx512::Clock::now();
            // SAFETY: AVX2 and FMA were detected just above.
            let sink = unsafe { probe(ITERS) };
            let secs = started.elapsed();
            std::hint::black_box(sink);
            // 12 instructions per iteration of 8 lanes x 2 FLOP.
            best = best.max(ITERS as f64 * 12.0 * 16.0 / secs / 1e9);
        }
        best
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        f64::NAN
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn probe(iters: usize) -> f32 {
    let a = std::hint::black_box(_mm256_set1_ps(1.0));
    let b = std::hint::black_box(_mm256_set1_ps(1e-9));
    // Distinct starting values, so that the compiler cannot merge identical accumulators.
    let mut acc = [_mm256_setzero_ps(); 12];
    for (i, x) in acc.iter_mut().enumerate() {
        *x = _mm256_set1_ps(i as f32);
    }
    for _ in 0..iters {
        for x in acc.iter_mut() {
            *x = _mm256_fmadd_ps(a, b, *x);
        }
    }
    acc.iter().map(|x| reduce(*x, false)).sum()
}
