//! Matrix products and element-wise maths for the forward pass, on the fastest path the CPU has.
//!
//! A matrix `B` (weights, or keys/values of one attention head) is packed once into panels of 16
//! columns for the hand-written x86 kernels, or row-major for the portable one; `A` (activations) stays row-major f32 and is converted on the fly when the product
//! runs in bf16. Two precisions:
//! - [`Precision::Bf16`]: bf16 inputs, f32 accumulation (AVX-512 BF16 `vdpbf16ps`), twice the
//!   multiply rate of f32 on CPUs that have it; everything outside the products stays f32.
//! - [`Precision::Int8`]: the dense layers' products in 8-bit integers with exact 32-bit sums
//!   (AVX-VNNI `vpdpbusd`, else AVX2 `vpmaddubsw` with 6-bit weights), for CPUs with AVX2 but
//!   no AVX-512;
//!   attention's products and everything else stay f32.
//! - [`Precision::F32`]: f32 throughout (AVX-512F, else AVX2 + FMA, else `matrixmultiply`).
//!
//! The [`Backend`] is chosen once at load from what the CPU reports at run time, or forced by
//! name with `CITECHECK_EMBED_BACKEND` (see [`Backend::from_env`]).

mod avx2;
mod avx512;
mod int8;
mod portable;

pub(crate) mod math;

use crate::error::EmbedError;

/// The arithmetic the matrix products run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    /// Reduced precision: bf16 multiplies with f32 accumulation where the CPU has AVX-512 BF16,
    /// else f32 on AVX-512F, else 8-bit products on AVX2 (the fastest each CPU has).
    Bf16,
    /// 8-bit integer products of the dense layers (AVX2), f32 elsewhere.
    Int8,
    F32,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Bf16 => "bf16",
            Self::Int8 => "int8",
            Self::F32 => "f32",
        })
    }
}

/// The core's measured peak GFLOP/s of one thread on `backend` (NaN for the portable kernels,
/// whose instructions depend on the compiler).
pub fn peak_gflops(backend: Backend) -> f64 {
    match backend {
        Backend::Avx512Bf16 => avx512::peak_gflops(true),
        Backend::Avx512 => avx512::peak_gflops(false),
        Backend::Avx2 => avx2::peak_gflops(),
        Backend::AvxVnniInt8 | Backend::Avx2Int8 | Backend::Portable => f64::NAN,
    }
}

/// Columns per packed panel: one 512-bit register (two 256-bit ones) of f32 results.
pub(crate) const PANEL: usize = 16;

/// The environment variable that forces a backend by name (`portable`, `avx2`, `avx512`,
/// `avx512-bf16`, `avx2-int8`, `avx-vnni-int8`); unset or empty means the fastest the CPU has.
pub const BACKEND_ENV: &str = "CITECHECK_EMBED_BACKEND";

/// The instruction set the matrix products and element-wise maths run on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// AVX-512 BF16 products (bf16 inputs, f32 sums), AVX-512F elsewhere.
    Avx512Bf16,
    /// AVX-512F, f32 throughout.
    Avx512,
    /// The dense layers' products in 8-bit integers with AVX-VNNI (`vpdpbusd` on 256-bit
    /// registers), f32 with AVX2 + FMA elsewhere.
    AvxVnniInt8,
    /// The same products with AVX2's `vpmaddubsw` + `vpmaddwd`, the weights in 6 bits so that
    /// two depth groups sum in 16 bits (vectors within cosine 0.97 of `AvxVnniInt8`'s, 0.98 on
    /// sentences).
    Avx2Int8,
    /// AVX2 + FMA, f32 throughout.
    Avx2,
    /// Any CPU: products through `matrixmultiply` (which picks AVX, SSE2 or NEON at run time),
    /// the element-wise maths in safe Rust the compiler vectorises; f32 throughout.
    Portable,
}

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 6] = [
        Backend::Avx512Bf16,
        Backend::Avx512,
        Backend::AvxVnniInt8,
        Backend::Avx2Int8,
        Backend::Avx2,
        Backend::Portable,
    ];

    /// The fastest backend this CPU runs for `wanted`: any precision for [`Precision::Bf16`]
    /// (reduced precision allowed), only f32 for [`Precision::F32`], and for
    /// [`Precision::Int8`] the 8-bit products where AVX2 exists, else the fastest f32.
    pub fn best(wanted: Precision) -> Self {
        let supported = || Self::ALL.into_iter().filter(|b| b.is_supported());
        let with = |p: Precision| supported().find(|b| b.precision() == p);
        let found = match wanted {
            Precision::Bf16 => supported().next(),
            Precision::Int8 => with(Precision::Int8).or_else(|| with(Precision::F32)),
            Precision::F32 => with(Precision::F32),
        };
        found.unwrap_or(Self::Portable)
    }

    /// Whether this CPU has the instructions the backend needs.
    pub fn is_supported(self) -> bool {
        match self {
            Self::Avx512Bf16 => avx512::has_bf16(),
            Self::Avx512 => avx512::has_avx512(),
            Self::AvxVnniInt8 => avx2::available() && int8::has_vnni(),
            Self::Avx2Int8 | Self::Avx2 => avx2::available(),
            Self::Portable => true,
        }
    }

    /// The name used by `CITECHECK_EMBED_BACKEND`, logs and `/health`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Avx512Bf16 => "avx512-bf16",
            Self::Avx512 => "avx512",
            Self::AvxVnniInt8 => "avx-vnni-int8",
            Self::Avx2Int8 => "avx2-int8",
            Self::Avx2 => "avx2",
            Self::Portable => "portable",
        }
    }

    /// The backend called `name` (as [`Backend::name`] spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|b| b.name() == name.trim())
    }

    /// The backend forced by `CITECHECK_EMBED_BACKEND`, if set: an unknown name, or a backend
    /// this CPU lacks, is an error naming it (never a silent fallback).
    pub fn from_env() -> Result<Option<Self>, EmbedError> {
        match std::env::var(BACKEND_ENV) {
            Ok(value) if !value.trim().is_empty() => Self::parse_supported(&value).map(Some),
            _ => Ok(None),
        }
    }

    /// [`Backend::from_name`], with errors for unknown names and unsupported backends.
    pub fn parse_supported(value: &str) -> Result<Self, EmbedError> {
        let backend = Self::from_name(value).ok_or_else(|| EmbedError::UnknownBackend {
            name: value.trim().to_string(),
        })?;
        if !backend.is_supported() {
            return Err(EmbedError::BackendUnsupported {
                name: backend.name(),
            });
        }
        Ok(backend)
    }

    /// The precision the products really compute in.
    pub fn precision(self) -> Precision {
        match self {
            Self::Avx512Bf16 => Precision::Bf16,
            Self::AvxVnniInt8 | Self::Avx2Int8 => Precision::Int8,
            Self::Avx512 | Self::Avx2 | Self::Portable => Precision::F32,
        }
    }

    /// Names the arithmetic whose vectors this backend gives, for cache keys: the f32 backends
    /// agree to within rounding and share a name; the two 8-bit ones do not, since their
    /// weights differ in width (8 bits with AVX-VNNI, 6 without).
    pub fn numerics(self) -> &'static str {
        match self {
            Self::Avx512Bf16 => "bf16",
            Self::AvxVnniInt8 => "int8",
            Self::Avx2Int8 => "int8-w6",
            Self::Avx512 | Self::Avx2 | Self::Portable => "f32",
        }
    }

    /// Packs the `k x n` matrix whose element `(i, j)` is `src[i * row_stride + j * col_stride]`
    /// (one of the strides is 1: a row-major matrix, or the transpose of one).
    pub(crate) fn pack(
        self,
        src: &[f32],
        row_stride: usize,
        col_stride: usize,
        k: usize,
        n: usize,
    ) -> Packed {
        check_source(src, row_stride, col_stride, k, n);
        let panels = n.div_ceil(PANEL);
        let data = match self.precision() {
            Precision::Bf16 => {
                let pairs = k.div_ceil(2);
                let mut data = vec![0u16; panels * pairs * 2 * PANEL];
                for (p, panel) in data.chunks_exact_mut(pairs * 2 * PANEL).enumerate() {
                    let cols = PANEL.min(n - p * PANEL);
                    let col0 = p * PANEL * col_stride;
                    if col_stride == 1 {
                        // Rows are contiguous: interleave two rows per 32-value group.
                        for (l, group) in panel.chunks_exact_mut(2 * PANEL).enumerate() {
                            for half in 0..2 {
                                let i = 2 * l + half;
                                if i >= k {
                                    break;
                                }
                                let row = &src[i * row_stride + col0..][..cols];
                                for (j, v) in row.iter().enumerate() {
                                    group[2 * j + half] = math::to_bf16(*v);
                                }
                            }
                        }
                    } else {
                        // Columns are contiguous: one column gives one lane of every group.
                        for j in 0..cols {
                            let column = &src[col0 + j * col_stride..][..k];
                            for (i, v) in column.iter().enumerate() {
                                panel[(i / 2) * 2 * PANEL + 2 * j + i % 2] = math::to_bf16(*v);
                            }
                        }
                    }
                }
                PackedData::Bf16(data)
            }
            Precision::F32 if self == Self::Portable => {
                let mut data = vec![0f32; k * n];
                for (i, out) in data.chunks_exact_mut(n.max(1)).take(k).enumerate() {
                    for (j, o) in out.iter_mut().enumerate() {
                        *o = src[i * row_stride + j * col_stride];
                    }
                }
                PackedData::RowMajor(data)
            }
            // Attention's products (keys, values) stay f32 under 8-bit weights.
            Precision::F32 | Precision::Int8 => {
                let mut data = vec![0f32; panels * k * PANEL];
                for (p, panel) in data.chunks_exact_mut(k * PANEL).enumerate() {
                    let cols = PANEL.min(n - p * PANEL);
                    for (i, out) in panel.chunks_exact_mut(PANEL).enumerate() {
                        for (j, o) in out[..cols].iter_mut().enumerate() {
                            *o = src[i * row_stride + (p * PANEL + j) * col_stride];
                        }
                    }
                }
                PackedData::F32(data)
            }
        };
        Packed { k, n, data }
    }

    /// [`Backend::pack`] for a layer's weights: the same, except that 8-bit backends quantise
    /// them (per column) once here.
    pub(crate) fn pack_weights(
        self,
        src: &[f32],
        row_stride: usize,
        col_stride: usize,
        k: usize,
        n: usize,
    ) -> Packed {
        if self.precision() != Precision::Int8 {
            return self.pack(src, row_stride, col_stride, k, n);
        }
        check_source(src, row_stride, col_stride, k, n);
        let width = int8::WeightWidth::of_kernel(self == Self::AvxVnniInt8);
        let data = PackedData::Int8(int8::pack(src, row_stride, col_stride, k, n, width));
        Packed { k, n, data }
    }

    /// `c[i][j] = sum_l a[i][l] * b[l][j] + bias[j]` for `i < m`, `j < b.n`, with row strides
    /// `lda` and `ldc`. `bias`, when given, has at least `b.n` entries. `scratch` holds the
    /// bf16 or 8-bit copy of `a` between calls.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn matmul(
        self,
        a: &[f32],
        lda: usize,
        m: usize,
        b: &Packed,
        bias: Option<&[f32]>,
        c: &mut [f32],
        ldc: usize,
        scratch: &mut Operand,
    ) {
        if m == 0 || b.n == 0 {
            return;
        }
        assert!(
            a.len() >= (m - 1) * lda + b.k && lda >= b.k,
            "matmul: a too short"
        );
        assert!(
            c.len() >= (m - 1) * ldc + b.n && ldc >= b.n,
            "matmul: c too short"
        );
        // The kernels read the bias a whole panel at a time. A bias that already covers the
        // last panel (every layer of the model: 384, 1152 and 1536 outputs are whole panels)
        // is read where it is; only a shorter one is copied and padded with zeros.
        let padded_bias;
        let panels = b.n.div_ceil(PANEL) * PANEL;
        let bias = match bias {
            Some(bias) if bias.len() >= panels && panels == b.n => Some(&bias[..panels]),
            Some(bias) => {
                assert!(bias.len() >= b.n, "matmul: bias too short");
                let mut v = bias[..b.n].to_vec();
                v.resize(panels, 0.0);
                padded_bias = v;
                Some(padded_bias.as_slice())
            }
            None => None,
        };
        match (&b.data, self) {
            (PackedData::Bf16(data), Self::Avx512Bf16) => {
                let pairs = b.k.div_ceil(2);
                // Every entry used is written below (the odd-depth pad explicitly): grow the
                // buffer when needed but never shrink it, so that alternating shapes do not
                // re-zero it on every call.
                let needed = m * pairs * 2;
                let scratch = &mut scratch.bf16;
                if scratch.len() < needed {
                    scratch.resize(needed, 0);
                }
                for i in 0..m {
                    let row = &a[i * lda..i * lda + b.k];
                    let out = &mut scratch[i * pairs * 2..(i + 1) * pairs * 2];
                    math::to_bf16_slice(row, &mut out[..b.k]);
                    if b.k % 2 == 1 {
                        out[b.k] = 0;
                    }
                }
                avx512::gemm_bf16(&scratch[..needed], m, pairs, data, b.n, bias, c, ldc);
            }
            (PackedData::F32(data), Self::Avx512) => {
                avx512::gemm_f32(a, lda, m, b.k, data, b.n, bias, c, ldc);
            }
            (PackedData::F32(data), Self::Avx2 | Self::Avx2Int8 | Self::AvxVnniInt8) => {
                avx2::gemm_f32(a, lda, m, b.k, data, b.n, bias, c, ldc);
            }
            (PackedData::Int8(data), Self::Avx2Int8 | Self::AvxVnniInt8) => {
                let vnni = self == Self::AvxVnniInt8;
                scratch.int8.fill(a, lda, m, b.k);
                int8::gemm(&scratch.int8, m, data, b.n, bias, c, ldc, vnni);
            }
            (PackedData::RowMajor(data), Self::Portable) => {
                portable::gemm_f32(a, lda, m, b.k, data, b.n, bias, c, ldc);
            }
            _ => unreachable!("a matrix packed for one backend is only used by that backend"),
        }
    }

    /// `x <- gelu(x)` (the exact, erf-based GELU of BERT).
    pub(crate) fn gelu(self, x: &mut [f32]) {
        match self {
            Self::Avx512Bf16 | Self::Avx512 => avx512::gelu(x),
            Self::Avx2 | Self::Avx2Int8 | Self::AvxVnniInt8 => avx2::gelu(x),
            Self::Portable => math::gelu(x),
        }
    }

    /// In-place LayerNorm of each `width`-long row.
    pub(crate) fn layer_norm(self, x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
        match self {
            Self::Avx512Bf16 | Self::Avx512 => avx512::layer_norm(x, width, gamma, beta),
            Self::Avx2 | Self::Avx2Int8 | Self::AvxVnniInt8 => {
                avx2::layer_norm(x, width, gamma, beta)
            }
            Self::Portable => math::layer_norm(x, width, gamma, beta),
        }
    }

    /// Row-wise softmax of the first `n` entries of each `stride`-long row of `x`.
    pub(crate) fn softmax_rows(self, x: &mut [f32], stride: usize, n: usize) {
        match self {
            Self::Avx512Bf16 | Self::Avx512 => avx512::softmax_rows(x, stride, n),
            Self::Avx2 | Self::Avx2Int8 | Self::AvxVnniInt8 => avx2::softmax_rows(x, stride, n),
            Self::Portable => math::softmax_rows(x, stride, n),
        }
    }
}

/// The strides and length a packing reads `src` with: one stride 1 (a row-major matrix or the
/// transpose of one), and every element within `src`.
fn check_source(src: &[f32], row_stride: usize, col_stride: usize, k: usize, n: usize) {
    assert!(
        row_stride == 1 || col_stride == 1,
        "pack: one stride must be 1"
    );
    assert!(
        k == 0 || n == 0 || src.len() > (k - 1) * row_stride + (n - 1) * col_stride,
        "pack: source too short"
    );
}

/// A `k x n` matrix in panels, ready to be the right-hand side of [`Backend::matmul`].
pub(crate) struct Packed {
    k: usize,
    n: usize,
    data: PackedData,
}

enum PackedData {
    /// `[panel][k / 2][16 columns][2]`: the pair layout `vdpbf16ps` consumes.
    Bf16(Vec<u16>),
    /// `[panel][k][16 columns]`.
    F32(Vec<f32>),
    /// `[k][n]`: the portable backend's `matrixmultiply` takes any strides.
    RowMajor(Vec<f32>),
    /// `[panel][k / 4][16 columns][4]` signed bytes with per-column scales.
    Int8(int8::PackedInt8),
}

/// The left-hand side of a product converted for the kernel, kept between products so that its
/// buffers are allocated once per thread.
#[derive(Debug, Default)]
pub(crate) struct Operand {
    bf16: Vec<u16>,
    int8: int8::QuantisedRows,
}

impl Packed {
    pub(crate) fn bytes(&self) -> usize {
        match &self.data {
            PackedData::Bf16(d) => d.len() * 2,
            PackedData::F32(d) | PackedData::RowMajor(d) => d.len() * 4,
            PackedData::Int8(p) => p.data.len() + (p.scales.len() + p.sums.len()) * 4,
        }
    }
}

/// GFLOP/s of one thread running `backend`'s product of an `m x k` by a packed `k x n` matrix
/// (the best of `repeats`, wall clock), for comparing the kernels with GEMM crates.
pub fn gemm_gflops(backend: Backend, m: usize, k: usize, n: usize, repeats: usize) -> f64 {
    let values = |len: usize| -> Vec<f32> {
        (0..len)
            .map(|i| ((i * 7919) % 2001) as f32 / 1000.0 - 1.0)
            .collect()
    };
    let b = backend.pack_weights(&values(k * n), n, 1, k, n);
    let a = values(m * k);
    let mut c = vec![0f32; m * n];
    let mut scratch = Operand::default();
    let mut best = 0.0f64;
    for _ in 0..repeats.max(1) {
        let started = std::time::Instant::now();
        backend.matmul(&a, k, m, &b, None, &mut c, n, &mut scratch);
        let secs = started.elapsed().as_secs_f64();
        best = best.max(2.0 * (m * k * n) as f64 / secs / 1e9);
    }
    std::hint::black_box(&c);
    best
}

/// A fixed amount of the backend's matrix product (8 products of 256 x 384 by 384 x 384, ~0.6
/// GFLOP), for measuring how threads scale on this machine.
pub(crate) struct ThroughputProbe {
    backend: Backend,
    a: Vec<f32>,
    b: Packed,
}

impl ThroughputProbe {
    // A passage's rows (256 tokens) by the model's width: at fewer rows the portable backend's
    // per-call packing dominates and two threads measured 1.25x one, where two threads running
    // the model's real products measured 2x.
    const M: usize = 256;
    const K: usize = 384;
    const ROUNDS: usize = 8;

    pub(crate) fn new(backend: Backend) -> Self {
        let values = |len: usize| -> Vec<f32> {
            (0..len)
                .map(|i| ((i * 7919) % 2001) as f32 / 1000.0 - 1.0)
                .collect()
        };
        let b = backend.pack_weights(&values(Self::K * Self::K), Self::K, 1, Self::K, Self::K);
        Self {
            backend,
            a: values(Self::M * Self::K),
            b,
        }
    }

    pub(crate) fn run(&self) {
        let mut c = vec![0f32; Self::M * Self::K];
        let mut scratch = Operand::default();
        for _ in 0..Self::ROUNDS {
            self.backend.matmul(
                &self.a,
                Self::K,
                Self::M,
                &self.b,
                None,
                &mut c,
                Self::K,
                &mut scratch,
            );
        }
        std::hint::black_box(&c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(a: &[f32], m: usize, k: usize, b: &[f32], n: usize, bias: &[f32]) -> Vec<f32> {
        let mut c = vec![0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                let s: f64 = (0..k)
                    .map(|l| a[i * k + l] as f64 * b[l * n + j] as f64)
                    .sum();
                c[i * n + j] = s as f32 + bias[j];
            }
        }
        c
    }

    fn values(len: usize, seed: u32) -> Vec<f32> {
        let mut state = seed.wrapping_mul(2654435761).wrapping_add(1);
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state % 2001) as f32 / 1000.0 - 1.0
            })
            .collect()
    }

    /// Regression (issue 10): the AVX2 probe read `/proc/thread-self/schedstat`, which moves
    /// only at scheduler ticks (4 ms), and reported 194 GFLOP/s on a core whose 256-bit FMA
    /// bound is ~118. The probes now read the thread's CPU clock, which must be far finer than
    /// a tick. (This test used to compare the AVX2 and AVX-512 probes' figures; that is a timed
    /// assertion, and it failed on a loaded 2-vCPU VM, where time the host steals counts as
    /// the thread's. The figures are a benchmark's: `embed-bench` prints them.)
    #[cfg(all(unix, target_arch = "x86_64"))]
    #[test]
    fn the_peak_probes_read_a_clock_far_finer_than_a_scheduler_tick() {
        let resolution = avx512::Clock::resolution().expect("the thread CPU clock exists");
        assert!(
            resolution <= std::time::Duration::from_micros(1),
            "{resolution:?}"
        );
        for backend in [Backend::Avx2, Backend::Avx512, Backend::Avx512Bf16] {
            if backend.is_supported() {
                let peak = peak_gflops(backend);
                assert!(peak.is_finite() && peak > 0.0, "{backend}: {peak}");
            }
        }
    }

    /// What each wanted precision picks on this CPU: reduced precision allowed takes the first
    /// backend it runs (an 8-bit one only on a CPU without AVX-512), f32 never an 8-bit or bf16
    /// one, and 8 bits the 8-bit backend wherever AVX2 exists.
    #[test]
    fn each_wanted_precision_picks_the_backends_it_allows() {
        let runs: Vec<Backend> = Backend::ALL
            .into_iter()
            .filter(|b| b.is_supported())
            .collect();
        assert_eq!(Backend::best(Precision::Bf16), runs[0]);
        assert_eq!(Backend::best(Precision::F32).precision(), Precision::F32);
        let int8 = Backend::best(Precision::Int8);
        if avx2::available() {
            assert_eq!(int8.precision(), Precision::Int8);
            let vnni = int8::has_vnni();
            assert_eq!(int8 == Backend::AvxVnniInt8, vnni, "{int8}");
        } else {
            assert_eq!(int8, Backend::best(Precision::F32));
        }
        if avx512::has_avx512() {
            assert_ne!(Backend::best(Precision::Bf16).precision(), Precision::Int8);
        } else if avx2::available() {
            assert_eq!(Backend::best(Precision::Bf16), int8);
        }
    }

    #[test]
    fn every_backend_multiplies_odd_shapes_like_the_reference() {
        for backend in Backend::ALL {
            if !backend.is_supported() {
                eprintln!("skipped: backend {backend} (this CPU lacks it)");
                continue;
            }
            for (m, k, n) in [
                (1, 1, 1),
                (7, 5, 17),
                (13, 64, 70),
                (6, 384, 64),
                (25, 33, 100),
            ] {
                let a = values(m * k, 1);
                let b = values(k * n, 2);
                let bias = values(n, 3);
                let packed = backend.pack_weights(&b, n, 1, k, n);
                let transposed: Vec<f32> = (0..n * k).map(|x| b[(x % k) * n + x / k]).collect();
                let packed_t = backend.pack_weights(&transposed, 1, k, k, n);
                let attention = backend.pack(&b, n, 1, k, n);
                for (packed, weights) in [(&packed, true), (&packed_t, true), (&attention, false)] {
                    let ldc = n + 3;
                    let mut c = vec![f32::NAN; m * ldc];
                    let mut scratch = Operand::default();
                    backend.matmul(&a, k, m, packed, Some(&bias), &mut c, ldc, &mut scratch);
                    let want = reference(&a, m, k, &b, n, &bias);
                    let int8 = weights && backend.precision() == Precision::Int8;
                    // bf16 keeps 8 significant bits of each input: allow ~1% of the row's scale;
                    // 8-bit codes are within half a step (1/254 of the largest) of each input.
                    let tol = if backend.precision() == Precision::Bf16 {
                        0.02 * (k as f32).sqrt()
                    } else if int8 {
                        0.01 * k as f32
                    } else {
                        1e-4 * k as f32
                    };
                    if int8 {
                        let width = int8::WeightWidth::of_kernel(backend == Backend::AvxVnniInt8);
                        let exact = int8::gemm_reference(&a, m, k, &b, n, &bias, width);
                        for i in 0..m {
                            assert_eq!(
                                c[i * ldc..i * ldc + n],
                                exact[i * n..(i + 1) * n],
                                "{backend:?} {m}x{k}x{n}: row {i} differs from the 8-bit reference"
                            );
                        }
                    }
                    for i in 0..m {
                        for j in 0..n {
                            let got = c[i * ldc + j];
                            assert!(
                                (got - want[i * n + j]).abs() <= tol,
                                "{backend:?} {m}x{k}x{n} at ({i},{j}): {got} vs {}",
                                want[i * n + j]
                            );
                        }
                        assert!(
                            c[i * ldc + n..(i + 1) * ldc].iter().all(|v| v.is_nan()),
                            "{backend:?} wrote past n"
                        );
                    }
                }
            }
        }
    }
}
