//! The model's four dense products at 256 tokens (and one attention product), one thread, in
//! GFLOP/s (best of 20): citecheck-embed's backends against `gemm` (its own run-time dispatch,
//! f32) and `matrixmultiply` (run-time dispatch between its AVX2+FMA and SSE kernels). Run with
//! `cargo run --release` in this directory.

use std::time::Instant;

use citecheck_embed::bench_support::gemm_gflops;
use citecheck_embed::Backend;

const SHAPES: [(usize, usize, usize, &str); 5] = [
    (256, 384, 1152, "qkv"),
    (256, 384, 384, "attention out"),
    (256, 384, 1536, "ffn in"),
    (256, 1536, 384, "ffn out"),
    (256, 32, 256, "scores (one head)"),
];

fn values(len: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7919) % 2001) as f32 / 1000.0 - 1.0)
        .collect()
}

fn best_of(repeats: usize, flop: f64, mut f: impl FnMut()) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..repeats {
        let t = Instant::now();
        f();
        best = best.max(flop / t.elapsed().as_secs_f64() / 1e9);
    }
    best
}

fn main() {
    let gemm_column = if cfg!(feature = "gemm-v4") {
        " gemm 0.19 (x86-v4) |"
    } else if cfg!(feature = "gemm") {
        " gemm 0.19 |"
    } else {
        ""
    };
    println!("| shape (m x k x n) | product | {} |{gemm_column} matrixmultiply 0.3 |", {
        Backend::ALL
            .iter()
            .filter(|b| b.is_supported())
            .map(|b| b.name().to_string())
            .collect::<Vec<_>>()
            .join(" | ")
    });
    for (m, k, n, what) in SHAPES {
        let flop = 2.0 * (m * k * n) as f64;
        let ours: Vec<String> = Backend::ALL
            .iter()
            .filter(|b| b.is_supported())
            .map(|&b| format!("{:.1}", gemm_gflops(b, m, k, n, 20)))
            .collect();
        let a = values(m * k);
        let b = values(k * n);
        let mut c = vec![0f32; m * n];
        #[cfg(feature = "gemm")]
        let g = best_of(20, flop, || unsafe {
            gemm::gemm(
                m,
                n,
                k,
                c.as_mut_ptr(),
                1,
                n as isize,
                false,
                a.as_ptr(),
                1,
                k as isize,
                b.as_ptr(),
                1,
                n as isize,
                0.0f32,
                1.0f32,
                false,
                false,
                false,
                gemm::Parallelism::None,
            )
        });
        let mm = best_of(20, flop, || unsafe {
            matrixmultiply::sgemm(
                m,
                k,
                n,
                1.0,
                a.as_ptr(),
                k as isize,
                1,
                b.as_ptr(),
                n as isize,
                1,
                0.0,
                c.as_mut_ptr(),
                n as isize,
                1,
            )
        });
        std::hint::black_box(&c);
        #[cfg(feature = "gemm")]
        let ours = [ours, vec![format!("{g:.1}")]].concat();
        println!("| {m} x {k} x {n} | {what} | {} | {mm:.1} |", ours.join(" | "));
    }
}
