//! AVX-512 kernels: the matrix products in bf16 (`vdpbf16ps`) and f32 (`vfmadd`), and the
//! element-wise maths compiled with 512-bit registers.
//!
//! Why `unsafe` here, and only here: stable Rust reaches these instructions only through
//! `std::arch` intrinsics inside `#[target_feature]` functions, which are `unsafe` to call, and
//! the micro-kernels read the packed operands through raw pointers to keep 24 accumulators in
//! registers without bounds checks in the inner loop. The safe entry points below check every
//! length once and are only called after [`has_avx512`]/[`has_bf16`] said yes (the backend is
//! chosen from those at load), which is what makes each `unsafe` block sound.
#![allow(unsafe_code)]
// On other architectures only the entry points remain (they assert that the backend is not
// available), so their arguments and the x86 helpers go unused there.
#![cfg_attr(
    not(target_arch = "x86_64"),
    allow(unused_variables, unused_imports, unused_macros, dead_code)
)]

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::{math, PANEL};

/// Rows per micro-tile and panels (of 16 columns) per micro-tile: 6 x 4 accumulators of 16 f32
/// plus 4 loaded panels and a broadcast fill 29 of the 32 vector registers.
const MR: usize = 6;
const NP: usize = 4;
/// Rows of `a` per pass over all of `b`'s panels in the bf16 product: 264 rows of up to 1536
/// bf16 values (~800 KiB) stay in the 1 MiB L2 while every panel group streams past them.
const M_BLOCK: usize = 264;

pub(super) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

pub(super) fn has_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx512() && std::arch::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn last_mask(n: usize, panel: usize) -> u16 {
    let cols = n - panel * PANEL;
    if cols >= PANEL {
        0xFFFF
    } else {
        (1u16 << cols) - 1
    }
}

/// `c = a * b (+ bias)` with `a` as bf16 rows of `2 * pairs` values (zero-padded), `b` packed
/// `[panel][pairs][16][2]`, `bias` padded to whole panels.
#[allow(clippy::too_many_arguments)]
pub(super) fn gemm_bf16(
    a: &[u16],
    m: usize,
    pairs: usize,
    b: &[u16],
    n: usize,
    bias: Option<&[f32]>,
    c: &mut [f32],
    ldc: usize,
) {
    let panels = n.div_ceil(PANEL);
    assert!(has_bf16(), "gemm_bf16 needs AVX-512 BF16");
    assert!(a.len() >= m * pairs * 2);
    assert!(b.len() >= panels * pairs * 2 * PANEL);
    assert!(bias.is_none_or(|bias| bias.len() >= panels * PANEL));
    assert!(m == 0 || (c.len() >= (m - 1) * ldc + n && ldc >= n));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX-512F and BF16 (asserted above), and every pointer offset the
    // tiles compute stays within the lengths asserted above: rows < m, pairs < `pairs`,
    // panels < `panels`, stores masked to columns < n.
    unsafe {
        let bias_ptr = bias.map_or(std::ptr::null(), <[f32]>::as_ptr);
        for m0 in (0..m).step_by(M_BLOCK) {
            let m_end = (m0 + M_BLOCK).min(m);
            let mut p0 = 0;
            while p0 < panels {
                let np = NP.min(panels - p0);
                let mask = last_mask(n, p0 + np - 1);
                let b_tile = b.as_ptr().add(p0 * pairs * 2 * PANEL);
                let bias_tile = if bias_ptr.is_null() {
                    bias_ptr
                } else {
                    bias_ptr.add(p0 * PANEL)
                };
                let mut i0 = m0;
                while i0 < m_end {
                    let mr = MR.min(m_end - i0);
                    let a_tile = a.as_ptr().add(i0 * pairs * 2);
                    let c_tile = c.as_mut_ptr().add(i0 * ldc + p0 * PANEL);
                    macro_rules! tile {
                        ($mr:literal, $np:literal) => {
                            tile_bf16::<$mr, $np>(
                                a_tile, pairs, b_tile, bias_tile, c_tile, ldc, mask,
                            )
                        };
                    }
                    match (mr, np) {
                        (6, 4) => tile!(6, 4),
                        (6, 3) => tile!(6, 3),
                        (6, 2) => tile!(6, 2),
                        (6, 1) => tile!(6, 1),
                        (5, 4) => tile!(5, 4),
                        (5, 3) => tile!(5, 3),
                        (5, 2) => tile!(5, 2),
                        (5, 1) => tile!(5, 1),
                        (4, 4) => tile!(4, 4),
                        (4, 3) => tile!(4, 3),
                        (4, 2) => tile!(4, 2),
                        (4, 1) => tile!(4, 1),
                        (3, 4) => tile!(3, 4),
                        (3, 3) => tile!(3, 3),
                        (3, 2) => tile!(3, 2),
                        (3, 1) => tile!(3, 1),
                        (2, 4) => tile!(2, 4),
                        (2, 3) => tile!(2, 3),
                        (2, 2) => tile!(2, 2),
                        (2, 1) => tile!(2, 1),
                        (1, 4) => tile!(1, 4),
                        (1, 3) => tile!(1, 3),
                        (1, 2) => tile!(1, 2),
                        _ => tile!(1, 1),
                    }
                    i0 += mr;
                }
                p0 += np;
            }
        }
    }
}

/// Stores an `R x P` tile of accumulators (plus bias) to `c`, the last panel masked. A macro
/// rather than a function so that the accumulators never leave registers.
macro_rules! store_tile {
    ($acc:expr, $bias:expr, $c:expr, $ldc:expr, $mask:expr, $p:expr) => {
        for (r, acc_r) in $acc.iter().enumerate() {
            for (j, x) in acc_r.iter().enumerate() {
                let mut v = *x;
                if !$bias.is_null() {
                    v = _mm512_add_ps(v, _mm512_loadu_ps($bias.add(j * PANEL)));
                }
                let m = if j + 1 == $p { $mask } else { 0xFFFF };
                _mm512_mask_storeu_ps($c.add(r * $ldc + j * PANEL), m, v);
            }
        }
    };
}

/// One `R x (16 * P)` tile over the whole depth. `mask` limits the stores of the last panel.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bf16")]
unsafe fn tile_bf16<const R: usize, const P: usize>(
    a: *const u16,
    pairs: usize,
    b: *const u16,
    bias: *const f32,
    c: *mut f32,
    ldc: usize,
    mask: u16,
) {
    let panel_stride = pairs * 2 * PANEL;
    let mut acc = [[_mm512_setzero_ps(); P]; R];
    for l in 0..pairs {
        let mut bv = [_mm512_setzero_si512(); P];
        for (j, v) in bv.iter_mut().enumerate() {
            *v = _mm512_loadu_si512(b.add(j * panel_stride + l * 2 * PANEL).cast());
        }
        for (r, acc_r) in acc.iter_mut().enumerate() {
            let pair = a.add(r * pairs * 2 + l * 2).cast::<i32>().read_unaligned();
            let av: __m512bh = std::mem::transmute(_mm512_set1_epi32(pair));
            for (x, v) in acc_r.iter_mut().zip(bv.iter()) {
                *x = _mm512_dpbf16_ps(*x, av, std::mem::transmute::<__m512i, __m512bh>(*v));
            }
        }
    }
    store_tile!(acc, bias, c, ldc, mask, P);
}

/// `c = a * b (+ bias)` in f32 with `b` packed `[panel][k][16]`.
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
    assert!(has_avx512(), "gemm_f32 needs AVX-512F");
    assert!(m == 0 || (a.len() >= (m - 1) * lda + k && lda >= k));
    assert!(b.len() >= panels * k * PANEL);
    assert!(bias.is_none_or(|bias| bias.len() >= panels * PANEL));
    assert!(m == 0 || (c.len() >= (m - 1) * ldc + n && ldc >= n));
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `gemm_bf16`: the CPU has AVX-512F and all offsets are within the asserted
    // lengths.
    unsafe {
        let bias_ptr = bias.map_or(std::ptr::null(), <[f32]>::as_ptr);
        let mut p0 = 0;
        while p0 < panels {
            let np = NP.min(panels - p0);
            let mask = last_mask(n, p0 + np - 1);
            let b_tile = b.as_ptr().add(p0 * k * PANEL);
            let bias_tile = if bias_ptr.is_null() {
                bias_ptr
            } else {
                bias_ptr.add(p0 * PANEL)
            };
            let mut i0 = 0;
            while i0 < m {
                let mr = MR.min(m - i0);
                let a_tile = a.as_ptr().add(i0 * lda);
                let c_tile = c.as_mut_ptr().add(i0 * ldc + p0 * PANEL);
                macro_rules! tile {
                    ($mr:literal, $np:literal) => {
                        tile_f32::<$mr, $np>(a_tile, lda, k, b_tile, bias_tile, c_tile, ldc, mask)
                    };
                }
                match (mr, np) {
                    (6, 4) => tile!(6, 4),
                    (6, 3) => tile!(6, 3),
                    (6, 2) => tile!(6, 2),
                    (6, 1) => tile!(6, 1),
                    (5, 4) => tile!(5, 4),
                    (5, 3) => tile!(5, 3),
                    (5, 2) => tile!(5, 2),
                    (5, 1) => tile!(5, 1),
                    (4, 4) => tile!(4, 4),
                    (4, 3) => tile!(4, 3),
                    (4, 2) => tile!(4, 2),
                    (4, 1) => tile!(4, 1),
                    (3, 4) => tile!(3, 4),
                    (3, 3) => tile!(3, 3),
                    (3, 2) => tile!(3, 2),
                    (3, 1) => tile!(3, 1),
                    (2, 4) => tile!(2, 4),
                    (2, 3) => tile!(2, 3),
                    (2, 2) => tile!(2, 2),
                    (2, 1) => tile!(2, 1),
                    (1, 4) => tile!(1, 4),
                    (1, 3) => tile!(1, 3),
                    (1, 2) => tile!(1, 2),
                    _ => tile!(1, 1),
                }
                i0 += mr;
            }
            p0 += np;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)]
unsafe fn tile_f32<const R: usize, const P: usize>(
    a: *const f32,
    lda: usize,
    k: usize,
    b: *const f32,
    bias: *const f32,
    c: *mut f32,
    ldc: usize,
    mask: u16,
) {
    let panel_stride = k * PANEL;
    let mut acc = [[_mm512_setzero_ps(); P]; R];
    for l in 0..k {
        let mut bv = [_mm512_setzero_ps(); P];
        for (j, v) in bv.iter_mut().enumerate() {
            *v = _mm512_loadu_ps(b.add(j * panel_stride + l * PANEL));
        }
        for (r, acc_r) in acc.iter_mut().enumerate() {
            let av = _mm512_set1_ps(*a.add(r * lda + l));
            for (x, v) in acc_r.iter_mut().zip(bv.iter()) {
                *x = _mm512_fmadd_ps(av, *v, *x);
            }
        }
    }
    store_tile!(acc, bias, c, ldc, mask, P);
}

pub(super) fn gelu(x: &mut [f32]) {
    assert!(has_avx512());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the CPU has AVX-512F (asserted); the function is plain safe Rust otherwise.
    unsafe {
        gelu_avx512(x)
    }
}

pub(super) fn layer_norm(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    assert!(has_avx512());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `gelu`.
    unsafe {
        layer_norm_avx512(x, width, gamma, beta)
    }
}

pub(super) fn softmax_rows(x: &mut [f32], stride: usize, n: usize) {
    assert!(has_avx512());
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `gelu`.
    unsafe {
        softmax_avx512(x, stride, n)
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,fma")]
fn layer_norm_avx512(x: &mut [f32], width: usize, gamma: &[f32], beta: &[f32]) {
    math::layer_norm(x, width, gamma, beta)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,fma")]
fn gelu_avx512(x: &mut [f32]) {
    math::gelu(x)
}

/// Row-wise softmax with explicit vectors: the compiler does not vectorise the max and sum
/// reductions of the portable version (it may not reorder f32 additions), and attention has
/// 4.7 million exponentials per 256-token passage.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn softmax_avx512(x: &mut [f32], stride: usize, n: usize) {
    let full = n / PANEL;
    let tail: u16 = (1u16 << (n % PANEL)).wrapping_sub(1);
    for row in x.chunks_mut(stride) {
        let row = &mut row[..n];
        let p = row.as_mut_ptr();
        // SAFETY: full chunks cover `full * 16 <= n` entries; the tail is masked to the rest.
        unsafe {
            let mut max = _mm512_set1_ps(f32::NEG_INFINITY);
            for c in 0..full {
                max = _mm512_max_ps(max, _mm512_loadu_ps(p.add(c * PANEL)));
            }
            if tail != 0 {
                let v = _mm512_mask_loadu_ps(max, tail, p.add(full * PANEL));
                max = _mm512_max_ps(max, v);
            }
            let max = _mm512_set1_ps(_mm512_reduce_max_ps(max));
            let mut sum = _mm512_setzero_ps();
            for c in 0..full {
                let e = exp_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(p.add(c * PANEL)), max));
                _mm512_storeu_ps(p.add(c * PANEL), e);
                sum = _mm512_add_ps(sum, e);
            }
            if tail != 0 {
                let v = _mm512_maskz_loadu_ps(tail, p.add(full * PANEL));
                let e = _mm512_maskz_mov_ps(tail, exp_nonpositive(_mm512_sub_ps(v, max)));
                _mm512_mask_storeu_ps(p.add(full * PANEL), tail, e);
                sum = _mm512_add_ps(sum, e);
            }
            let inv = _mm512_set1_ps(1.0 / _mm512_reduce_add_ps(sum));
            for c in 0..full {
                let v = _mm512_mul_ps(_mm512_loadu_ps(p.add(c * PANEL)), inv);
                _mm512_storeu_ps(p.add(c * PANEL), v);
            }
            if tail != 0 {
                let v = _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, p.add(full * PANEL)), inv);
                _mm512_mask_storeu_ps(p.add(full * PANEL), tail, v);
            }
        }
    }
}

/// `math::exp_nonpositive`, sixteen lanes at a time (`vscalefps` applies the power of two).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn exp_nonpositive(x: __m512) -> __m512 {
    let x = _mm512_max_ps(x, _mm512_set1_ps(-87.0));
    let n = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
        _mm512_mul_ps(x, _mm512_set1_ps(std::f32::consts::LOG2_E)),
    );
    let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693_359_4), x);
    let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.121_944_4e-4), r);
    let mut p = _mm512_set1_ps(1.987_569_1e-4);
    for c in [
        1.398_199_9e-3,
        8.333_452e-3,
        4.166_579_6e-2,
        1.666_666_5e-1,
        0.5,
    ] {
        p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(c));
    }
    let y = _mm512_fmadd_ps(
        _mm512_mul_ps(p, r),
        r,
        _mm512_add_ps(r, _mm512_set1_ps(1.0)),
    );
    _mm512_scalef_ps(y, n)
}

/// FLOP/s of a register-only loop of the product's instruction (`vdpbf16ps` for bf16,
/// `vfmadd231ps` for f32) on one thread: the core's peak for that precision, to which the
/// benchmark compares the forward pass.
pub(super) fn peak_gflops(bf16: bool) -> f64 {
    if !has_avx512() || (bf16 && !has_bf16()) {
        return f64::NAN;
    }
    // The best of several short runs: on a shared machine a single long run measures the
    // neighbours as much as the core.
    const ITERS: usize = 4_000_000;
    #[cfg(target_arch = "x86_64")]
    {
        let mut best = 0.0f64;
        for _ in 0..7 {
            let started = Clock::now();
            // SAFETY: the features each probe enables were detected just above.
            let sink = unsafe {
                if bf16 {
                    probe_bf16(ITERS)
                } else {
                    probe_f32(ITERS)
                }
            };
            let secs = started.elapsed();
            std::hint::black_box(sink);
            // 24 instructions per iteration; 16 lanes x 2 FLOP (f32) or 16 x 2 pairs x 2 (bf16).
            let per_instruction = if bf16 { 64.0 } else { 32.0 };
            best = best.max(ITERS as f64 * 24.0 * per_instruction / secs / 1e9);
        }
        best
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        f64::NAN
    }
}

/// This thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), else wall time: the probe should measure
/// the core, not the share of it that the neighbours left.
///
/// Not `/proc/thread-self/schedstat`, which this read before: the kernel adds the running
/// thread's time to that sum only at scheduler events (the tick, 4 ms at HZ=250), so a probe of a
/// few milliseconds read it up to a tick short, and the best of several runs kept the shortest
/// reading (the AVX2 probe reported 194-230 GFLOP/s on a core whose bound is ~118).
pub(super) struct Clock {
    cpu: Option<std::time::Duration>,
    wall: std::time::Instant,
}

impl Clock {
    /// The clock the probes read.
    #[cfg(unix)]
    const CPU_CLOCK: libc::clockid_t = libc::CLOCK_THREAD_CPUTIME_ID;

    /// Calls `query` with a zeroed `timespec` for it to fill, and reads the result.
    #[cfg(unix)]
    fn read(query: impl FnOnce(&mut libc::timespec) -> libc::c_int) -> Option<std::time::Duration> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        let rc = query(&mut ts);
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u32::try_from(ts.tv_nsec).ok()?;
        (rc == 0).then(|| std::time::Duration::new(secs, nanos))
    }

    #[cfg(unix)]
    fn cpu() -> Option<std::time::Duration> {
        // SAFETY: `ts` is a live, writable `timespec` for the whole call, and the clock id is a
        // constant of the platform; the call writes nothing else.
        Self::read(|ts| unsafe { libc::clock_gettime(Self::CPU_CLOCK, ts) })
    }

    #[cfg(not(unix))]
    fn cpu() -> Option<std::time::Duration> {
        None
    }

    /// The resolution of the CPU clock the probes read, as the kernel reports it.
    #[cfg(all(unix, test))]
    pub(super) fn resolution() -> Option<std::time::Duration> {
        // SAFETY: as in `cpu`: a live, writable `timespec` and a constant clock id.
        Self::read(|ts| unsafe { libc::clock_getres(Self::CPU_CLOCK, ts) })
    }

    pub(super) fn now() -> Self {
        Self {
            cpu: Self::cpu(),
            wall: std::time::Instant::now(),
        }
    }

    pub(super) fn elapsed(&self) -> f64 {
        match (self.cpu, Self::cpu()) {
            (Some(a), Some(b)) if b > a => (b - a).as_secs_f64(),
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bf16")]
fn probe_bf16(iters: usize) -> f32 {
    let a: __m512bh = unsafe { std::mem::transmute(_mm512_set1_epi32(0x3F80_3F80)) };
    let b = std::hint::black_box(a);
    // Distinct starting values: from identical ones the compiler merged accumulators and spilled
    // the rest to the stack, which put loads and stores in the chains (95 instead of ~118
    // GFLOP/s for f32 on Zen 4, below the kernel's own rate).
    let mut acc = [_mm512_setzero_ps(); 24];
    for (i, x) in acc.iter_mut().enumerate() {
        *x = _mm512_set1_ps(i as f32);
    }
    for _ in 0..iters {
        for x in acc.iter_mut() {
            *x = _mm512_dpbf16_ps(*x, a, b);
        }
    }
    acc.iter().map(|x| _mm512_reduce_add_ps(*x)).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn probe_f32(iters: usize) -> f32 {
    let a = std::hint::black_box(_mm512_set1_ps(1.0));
    let b = std::hint::black_box(_mm512_set1_ps(1e-9));
    // Distinct starting values: from identical ones the compiler merged accumulators and spilled
    // the rest to the stack, which put loads and stores in the chains (95 instead of ~118
    // GFLOP/s for f32 on Zen 4, below the kernel's own rate).
    let mut acc = [_mm512_setzero_ps(); 24];
    for (i, x) in acc.iter_mut().enumerate() {
        *x = _mm512_set1_ps(i as f32);
    }
    for _ in 0..iters {
        for x in acc.iter_mut() {
            *x = _mm512_fmadd_ps(a, b, *x);
        }
    }
    acc.iter().map(|x| _mm512_reduce_add_ps(*x)).sum()
}
