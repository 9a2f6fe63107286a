//! The f32 matrix product for CPUs without AVX2 + FMA (and for aarch64): `B` row-major, the
//! product delegated to `matrixmultiply::sgemm`, which picks its own kernel at run time (AVX,
//! SSE2, NEON, or plain Rust) and so builds and runs on every target.
//!
//! Why not a loop of our own: the safe-Rust kernel this replaced reached 5 GFLOP/s where
//! `matrixmultiply` reaches 92-96 on the same core (BENCHMARKS.md, "Hand-written kernels against
//! `matrixmultiply`"). Its entry point takes raw pointers, so `sgemm` below is the one place here
//! that is `unsafe`: it checks every dimension, stride and slice length before the call.

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
    sgemm(a, lda, m, k, b, n, c, ldc);
    if let (Some(bias), true) = (bias, m > 0 && n > 0) {
        for row in c.chunks_mut(ldc).take(m) {
            for (o, b) in row[..n].iter_mut().zip(bias) {
                *o += b;
            }
        }
    }
}

/// The last index + 1 that a `rows x width` matrix with row stride `stride` touches, or `None`
/// on overflow.
fn extent(rows: usize, stride: usize, width: usize) -> Option<usize> {
    (rows - 1).checked_mul(stride)?.checked_add(width)
}

/// `c[i * ldc + j] = sum_l a[i * lda + l] * b[l * n + j]` for `i < m`, `j < n`, `l < k`
/// (`b` row-major `k x n`); the other entries of `c` are left as they were.
///
/// Panics when a slice is too short for its dimensions or a stride is smaller than its row:
/// callers pass matrices whose shapes the model fixes, so that is a bug, not bad input.
#[allow(unsafe_code, clippy::too_many_arguments)]
fn sgemm(
    a: &[f32],
    lda: usize,
    m: usize,
    k: usize,
    b: &[f32],
    n: usize,
    c: &mut [f32],
    ldc: usize,
) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(
        lda >= k && ldc >= n,
        "sgemm: a stride is shorter than its row"
    );
    assert!(
        extent(m, ldc, n).is_some_and(|end| end <= c.len()),
        "sgemm: c too short"
    );
    if k == 0 {
        // An empty sum; handled here so that no pointer below is one into an empty slice.
        for row in c.chunks_mut(ldc).take(m) {
            row[..n].fill(0.0);
        }
        return;
    }
    assert!(
        extent(m, lda, k).is_some_and(|end| end <= a.len()),
        "sgemm: a too short"
    );
    assert!(
        k.checked_mul(n).is_some_and(|len| len <= b.len()),
        "sgemm: b too short"
    );
    let stride = |s: usize| isize::try_from(s).expect("sgemm: stride above isize::MAX");
    let (rsa, rsb, rsc) = (stride(lda), stride(n), stride(ldc));
    // SAFETY: `matrixmultiply::sgemm` reads A at `a + i*rsa + l` for i < m, l < k, B at
    // `b + l*rsb + j` for l < k, j < n, and writes C at `c + i*rsc + j` for i < m, j < n.
    // - Every read of A is below (m-1)*lda + k <= a.len(), every read of B below k*n <= b.len(),
    //   every write of C below (m-1)*ldc + n <= c.len() (all asserted above, without overflow),
    //   so every address is inside its slice.
    // - No two C elements alias: csc = 1 and rsc = ldc >= n, so (i, j) -> i*ldc + j is one-to-one
    //   on i < m, j < n; the crate's documented requirement for C's strides.
    // - C does not overlap A or B: `c` is a `&mut` borrow and `a`, `b` shared ones.
    // - beta = 0, so C's previous contents (possibly NaN) are never read (documented by the
    //   crate: "If beta is zero, then C does not need to be initialized").
    // - m, k, n > 0 here, so no pointer is derived from an empty slice.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa,
            1,
            b.as_ptr(),
            rsb,
            1,
            0.0,
            c.as_mut_ptr(),
            rsc,
            1,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "a too short")]
    fn a_shorter_than_its_shape_is_refused_before_the_call() {
        let mut c = vec![0.0; 4];
        sgemm(&[1.0; 3], 2, 2, 2, &[1.0; 4], 2, &mut c, 2);
    }

    #[test]
    #[should_panic(expected = "c too short")]
    fn c_shorter_than_its_shape_is_refused_before_the_call() {
        let mut c = vec![0.0; 4];
        sgemm(&[1.0; 4], 2, 2, 2, &[1.0; 4], 2, &mut c, 3);
    }

    #[test]
    fn strided_rows_are_multiplied_and_the_gaps_left_alone() {
        // a = [[1, 2], [3, 4]] with row stride 3, b = [[5, 6], [7, 8]], c with row stride 3.
        let a = [1.0, 2.0, -1.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        let mut c = [f32::NAN; 5];
        sgemm(&a, 3, 2, 2, &b, 2, &mut c, 3);
        assert_eq!(&c[..2], &[19.0, 22.0]);
        assert!(c[2].is_nan());
        assert_eq!(&c[3..], &[43.0, 50.0]);
    }

    #[test]
    fn an_empty_inner_dimension_gives_zeros() {
        let mut c = [f32::NAN; 4];
        sgemm(&[], 0, 2, 0, &[], 2, &mut c, 2);
        assert_eq!(c, [0.0; 4]);
    }
}
