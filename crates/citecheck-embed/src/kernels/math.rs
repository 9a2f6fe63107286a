//! Element-wise maths written branch-free so that the compiler vectorises it (the AVX-512 backend
//! compiles these same functions with 512-bit registers enabled).

// Coefficients and tabulated values are written as published, not rounded to f32.
#![allow(clippy::excessive_precision)]

/// f32 -> bf16, rounding to nearest even (as `vcvtneps2bf16` and torch do).
#[inline(always)]
pub(crate) fn to_bf16(x: f32) -> u16 {
    let bits = x.to_bits();
    let rounding = ((bits >> 16) & 1) + 0x7FFF;
    (bits.wrapping_add(rounding) >> 16) as u16
}

#[inline(always)]
pub(crate) fn to_bf16_slice(x: &[f32], out: &mut [u16]) {
    for (o, v) in out.iter_mut().zip(x) {
        *o = to_bf16(*v);
    }
}

/// erf for f32 (rational approximation on [-4, 4], Eigen's `generic_fast_erf_float`; erf is
/// within 1e-7 of +-1 beyond).
#[inline(always)]
pub(crate) fn erf(x: f32) -> f32 {
    let x = x.clamp(-4.0, 4.0);
    let x2 = x * x;
    let mut p = -2.726_142_3e-10_f32;
    p = p * x2 + 2.770_681_4e-8;
    p = p * x2 + -2.101_024e-6;
    p = p * x2 + -5.692_506_4e-5;
    p = p * x2 + -7.349_906_3e-4;
    p = p * x2 + -2.954_600e-3;
    p = p * x2 + -1.609_603_3e-2;
    let mut q = -1.456_607_2e-5_f32;
    q = q * x2 + -2.133_740_6e-4;
    q = q * x2 + -1.682_827e-3;
    q = q * x2 + -7.373_329_3e-3;
    q = q * x2 + -1.426_474e-2;
    x * p / q
}

#[inline(always)]
pub(crate) fn gelu(x: &mut [f32]) {
    for v in x.iter_mut() {
        *v = 0.5 * *v * (1.0 + erf(*v * std::f32::consts::FRAC_1_SQRT_2));
    }
}

/// e^x for x <= 0 (Cephes' expf: range reduction to [-ln2/2, ln2/2], degree-6 polynomial,
/// relative error ~1e-7); inputs below -87 give ~e^-87 instead of denormals.
#[inline(always)]
pub(crate) fn exp_nonpositive(x: f32) -> f32 {
    let x = x.max(-87.0);
    let n = (x * std::f32::consts::LOG2_E).round();
    let r = x - n * 0.693_359_4 - n * -2.121_944_4e-4;
    let mut p = 1.987_569_1e-4_f32;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 5.000_000_1e-1;
    let y = p * r * r + r + 1.0;
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    y * scale
}

#[inline(always)]
pub(crate) fn softmax_rows(x: &mut [f32], stride: usize, n: usize) {
    for row in x.chunks_mut(stride) {
        let row = &mut row[..n];
        let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0f32;
        for v in row.iter_mut() {
            *v = exp_nonpositive(*v - max);
            sum += *v;
        }
        let inv = 1.0 / sum;
        for v in row.iter_mut() {
            *v *= inv;
        }
    }
}

/// Sum of a slice in 16 independent lanes, so that the compiler can vectorise it (it may not
/// reorder a single f32 accumulator).
#[inline(always)]
fn lane_sum(x: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut lanes = [0f32; 16];
    let chunks = x.chunks_exact(16);
    let rest: f32 = chunks.remainder().iter().map(|v| f(*v)).sum();
    for chunk in chunks {
        for (l, v) in lanes.iter_mut().zip(chunk) {
            *l += f(*v);
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// In-place LayerNorm of each `width`-long row (BERT's eps 1e-12).
#[inline(always)]
pub(crate) fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    for row in x.chunks_mut(width) {
        let mean = lane_sum(row, |v| v) / width as f32;
        let var = lane_sum(row, |v| (v - mean) * (v - mean)) / width as f32;
        let inv = 1.0 / (var + 1e-12).sqrt();
        for ((v, g), b) in row.iter_mut().zip(gamma).zip(beta) {
            *v = (*v - mean) * inv * g + b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_tabulated_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.1, 0.112_462_916),
            (0.5, 0.520_499_88),
            (1.0, 0.842_700_79),
            (-1.5, -0.966_105_15),
            (2.0, 0.995_322_27),
            (3.0, 0.999_977_9),
            (6.0, 1.0),
        ] {
            assert!(
                (erf(x) - want).abs() < 2e-7,
                "erf({x}) = {} not {want}",
                erf(x)
            );
        }
    }

    #[test]
    fn exp_matches_std_within_a_few_ulps() {
        for i in 0..1740 {
            let x = -(i as f32) * 0.05;
            let (got, want) = (exp_nonpositive(x), x.exp());
            assert!(
                (got - want).abs() <= want * 3e-7 + 1e-38,
                "exp({x}) = {got} not {want}"
            );
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even() {
        assert_eq!(to_bf16(1.0), 0x3F80);
        assert_eq!(to_bf16(f32::from_bits(0x3F80_8000)), 0x3F80); // tie, even stays
        assert_eq!(to_bf16(f32::from_bits(0x3F81_8000)), 0x3F82); // tie, odd rounds up
        assert_eq!(to_bf16(f32::from_bits(0x3F80_8001)), 0x3F81);
    }

    #[test]
    fn softmax_rows_sum_to_one_and_ignore_the_padding() {
        let mut x = vec![1.0, 2.0, 3.0, 99.0, -1.0, -1.0, -1.0, 99.0];
        softmax_rows(&mut x, 4, 3);
        assert!((x[..3].iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert!(x[2] > x[1] && x[1] > x[0]);
        assert_eq!(x[3], 99.0);
        assert!((x[4] - 1.0 / 3.0).abs() < 1e-6);
    }
}
