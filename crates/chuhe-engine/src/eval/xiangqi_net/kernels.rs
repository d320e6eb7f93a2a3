//! The network's inner loops, twice: portable scalar code, and AVX2 on x86-64 when the CPU
//! has it (chosen at run time, [`Kernel::detect`]). Both compute exactly the same integers:
//! the hidden sums wrap in 16 bits in both (the loader proves they never need to), and the
//! output is an exact 32-bit sum in both, in whatever order.
#![allow(unsafe_code)]

use super::{Row, HIDDEN};

/// Which code runs the inner loops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Portable Rust (the compiler may still use the baseline vector instructions).
    Scalar,
    /// 256-bit AVX2 instructions (x86-64 only, when the CPU reports AVX2).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The fastest kernel this CPU runs. (`is_x86_feature_detected!` caches its answer, and
    /// a network asks once, when it is made.)
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Scalar
    }

    /// The kernel's name: `scalar` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "avx2",
        }
    }

    /// `out = parent − removed[0] − removed[1]… + added`, lane by lane (wrapping).
    #[inline(always)]
    pub(super) fn update(self, parent: &Row, out: &mut Row, removed: &[&Row], added: &Row) {
        match self {
            Kernel::Scalar => scalar::update(parent, out, removed, added),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only chosen when the CPU reports AVX2 (`detect`).
            Kernel::Avx2 => unsafe { avx2::update(parent, out, removed, added) },
        }
    }

    /// `Σ (clamp(red, 0, scale) − clamp(black, 0, scale)) × w2` over the hidden units.
    #[inline(always)]
    pub(super) fn output(self, red: &Row, black: &Row, w2: &Row, scale: i16) -> i32 {
        match self {
            Kernel::Scalar => scalar::output(red, black, w2, scale),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Kernel::Avx2 => unsafe { avx2::output(red, black, w2, scale) },
        }
    }
}

mod scalar {
    use super::{Row, HIDDEN};

    #[inline(always)]
    pub fn update(parent: &Row, out: &mut Row, removed: &[&Row], added: &Row) {
        for h in 0..HIDDEN {
            let mut v = parent.0[h];
            for r in removed {
                v = v.wrapping_sub(r.0[h]);
            }
            out.0[h] = v.wrapping_add(added.0[h]);
        }
    }

    #[inline(always)]
    pub fn output(red: &Row, black: &Row, w2: &Row, scale: i16) -> i32 {
        let mut sum = 0i32;
        for h in 0..HIDDEN {
            let r = red.0[h].clamp(0, scale);
            let b = black.0[h].clamp(0, scale);
            sum += i32::from(r - b) * i32::from(w2.0[h]);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_load_si256, _mm256_madd_epi16, _mm256_max_epi16,
        _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256, _mm256_store_si256,
        _mm256_sub_epi16, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32,
    };

    use super::{Row, HIDDEN};

    /// 16 lanes of 16 bits in a 256-bit register.
    const CHUNKS: usize = HIDDEN / 16;

    /// The `i`-th 256-bit chunk of a row (rows are 32-byte aligned, `HIDDEN` a multiple of
    /// 16).
    #[inline(always)]
    unsafe fn load(row: &Row, i: usize) -> __m256i {
        debug_assert!(i < CHUNKS);
        // SAFETY: `Row` is `repr(C, align(32))` and holds CHUNKS whole chunks.
        unsafe { _mm256_load_si256(row.0.as_ptr().cast::<__m256i>().add(i)) }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(parent: &Row, out: &mut Row, removed: &[&Row], added: &Row) {
        for i in 0..CHUNKS {
            // SAFETY: aligned in-bounds loads and store (see `load`).
            unsafe {
                let mut v = load(parent, i);
                for r in removed {
                    v = _mm256_sub_epi16(v, load(r, i));
                }
                v = _mm256_add_epi16(v, load(added, i));
                _mm256_store_si256(out.0.as_mut_ptr().cast::<__m256i>().add(i), v);
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output(red: &Row, black: &Row, w2: &Row, scale: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(scale);
        let mut sum = zero;
        for i in 0..CHUNKS {
            // SAFETY: aligned in-bounds loads (see `load`).
            let (r, b, w) = unsafe { (load(red, i), load(black, i), load(w2, i)) };
            let r = _mm256_min_epi16(_mm256_max_epi16(r, zero), top);
            let b = _mm256_min_epi16(_mm256_max_epi16(b, zero), top);
            // Pairs of 16-bit products summed into 32-bit lanes: exact (|r − b| ≤ scale).
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_sub_epi16(r, b), w));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let last = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(last)
    }
}
