//! The network's inner loops, twice: portable scalar code, and AVX2 on x86-64 when the CPU
//! has it (chosen at run time, [`Kernel::detect`]). Both compute exactly the same integers:
//! the hidden sums wrap in 16 bits in both (the loader proves they never need to), and the
//! output is a 32-bit sum that wraps in both, in whatever order (the loader proves the
//! whole sum fits, so the wrapped sum is the exact one).
#![allow(unsafe_code)]

use super::{Lanes, LANES};

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

    /// `out = parent − removed[0] − removed[1]… + added`, lane by lane (wrapping). Every
    /// slice has the same length.
    #[inline(always)]
    pub(super) fn update(
        self,
        parent: &[Lanes],
        out: &mut [Lanes],
        removed: &[&[Lanes]],
        added: &[Lanes],
    ) {
        assert!(out.len() == parent.len() && added.len() == parent.len());
        assert!(removed.iter().all(|r| r.len() == parent.len()));
        match self {
            Kernel::Scalar => scalar::update(parent, out, removed, added),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only chosen when the CPU reports AVX2 (`detect`).
            Kernel::Avx2 => unsafe { avx2::update(parent, out, removed, added) },
        }
    }

    /// `Σ clamp(a, 0, scale) × wa + Σ clamp(b, 0, scale) × wb` over the hidden units
    /// (wrapping in 32 bits). Every slice has the same length.
    #[inline(always)]
    pub(super) fn output(
        self,
        a: &[Lanes],
        b: &[Lanes],
        wa: &[Lanes],
        wb: &[Lanes],
        scale: i16,
    ) -> i32 {
        assert!(b.len() == a.len() && wa.len() == a.len() && wb.len() == a.len());
        match self {
            Kernel::Scalar => scalar::output(a, b, wa, wb, scale),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Kernel::Avx2 => unsafe { avx2::output(a, b, wa, wb, scale) },
        }
    }
}

impl Kernel {
    /// `Σ (clamp(red, 0, scale) − clamp(black, 0, scale)) × w` over the hidden units: the
    /// output of formats 1 and 2, one product per unit. Every slice has the same length.
    #[inline(always)]
    pub(super) fn output_difference(
        self,
        red: &[Lanes],
        black: &[Lanes],
        w: &[Lanes],
        scale: i16,
    ) -> i32 {
        assert!(black.len() == red.len() && w.len() == red.len());
        match self {
            Kernel::Scalar => scalar::output_difference(red, black, w, scale),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`; the lengths are equal (asserted).
            Kernel::Avx2 => unsafe { avx2::output_difference(red, black, w, scale) },
        }
    }
}

mod scalar {
    use super::{Lanes, LANES};

    #[inline(always)]
    pub fn update(parent: &[Lanes], out: &mut [Lanes], removed: &[&[Lanes]], added: &[Lanes]) {
        for (i, (o, (p, a))) in out.iter_mut().zip(parent.iter().zip(added)).enumerate() {
            for h in 0..p.0.len() {
                let mut v = p.0[h];
                for r in removed {
                    v = v.wrapping_sub(r[i].0[h]);
                }
                o.0[h] = v.wrapping_add(a.0[h]);
            }
        }
    }

    #[inline(always)]
    pub fn output_difference(red: &[Lanes], black: &[Lanes], w: &[Lanes], scale: i16) -> i32 {
        let mut sum = 0i32;
        for i in 0..red.len() {
            for h in 0..LANES {
                let d = red[i].0[h].clamp(0, scale) - black[i].0[h].clamp(0, scale);
                sum = sum.wrapping_add(i32::from(d) * i32::from(w[i].0[h]));
            }
        }
        sum
    }

    #[inline(always)]
    pub fn output(a: &[Lanes], b: &[Lanes], wa: &[Lanes], wb: &[Lanes], scale: i16) -> i32 {
        let mut sum = 0i32;
        for i in 0..a.len() {
            for h in 0..a[i].0.len() {
                let x = i32::from(a[i].0[h].clamp(0, scale)) * i32::from(wa[i].0[h]);
                let y = i32::from(b[i].0[h].clamp(0, scale)) * i32::from(wb[i].0[h]);
                sum = sum.wrapping_add(x).wrapping_add(y);
            }
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

    use super::Lanes;

    /// Calls `$f::<N>(…)` with `N` the length `$len` for the usual sizes (64, 128 and 256
    /// units: 4, 8 and 16 chunks), so that its loops have a fixed length and unroll, and
    /// `N = 0` (the slices' length, at run time) for any other.
    macro_rules! by_length {
        ($len:expr, $f:ident($($arg:expr),*)) => {
            match $len {
                4 => $f::<4>($($arg),*),
                8 => $f::<8>($($arg),*),
                16 => $f::<16>($($arg),*),
                _ => $f::<0>($($arg),*),
            }
        };
    }

    /// A chunk of 16 lanes as a 256-bit register.
    #[inline(always)]
    unsafe fn load(chunk: &Lanes) -> __m256i {
        // SAFETY: `Lanes` is `repr(C, align(32))` and 32 bytes long.
        unsafe { _mm256_load_si256(chunk.0.as_ptr().cast::<__m256i>()) }
    }

    /// # Safety
    /// The CPU must have AVX2, and every slice must have `out`'s length.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(
        parent: &[Lanes],
        out: &mut [Lanes],
        removed: &[&[Lanes]],
        added: &[Lanes],
    ) {
        // SAFETY: as this function's own.
        unsafe { by_length!(out.len(), update_n(parent, out, removed, added)) }
    }

    /// `update` over `N` chunks (0: the slices' length).
    ///
    /// # Safety
    /// As `update`; `N`, when not 0, is the slices' length.
    #[target_feature(enable = "avx2")]
    unsafe fn update_n<const N: usize>(
        parent: &[Lanes],
        out: &mut [Lanes],
        removed: &[&[Lanes]],
        added: &[Lanes],
    ) {
        let len = if N == 0 { out.len() } else { N };
        let (p, a, o) = (parent.as_ptr(), added.as_ptr(), out.as_mut_ptr());
        for i in 0..len {
            // SAFETY: `i` is within every slice (equal lengths); aligned whole chunks.
            unsafe {
                let mut v = load(&*p.add(i));
                for r in removed {
                    v = _mm256_sub_epi16(v, load(&*r.as_ptr().add(i)));
                }
                v = _mm256_add_epi16(v, load(&*a.add(i)));
                _mm256_store_si256((*o.add(i)).0.as_mut_ptr().cast::<__m256i>(), v);
            }
        }
    }

    /// # Safety
    /// The CPU must have AVX2, and the slices the same length.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output_difference(
        red: &[Lanes],
        black: &[Lanes],
        w: &[Lanes],
        scale: i16,
    ) -> i32 {
        // SAFETY: as this function's own.
        unsafe { by_length!(red.len(), output_difference_n(red, black, w, scale)) }
    }

    /// `output_difference` over `N` chunks (0: the slices' length).
    ///
    /// # Safety
    /// As `output_difference`; `N`, when not 0, is the slices' length.
    #[target_feature(enable = "avx2")]
    unsafe fn output_difference_n<const N: usize>(
        red: &[Lanes],
        black: &[Lanes],
        w: &[Lanes],
        scale: i16,
    ) -> i32 {
        let len = if N == 0 { red.len() } else { N };
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(scale);
        let mut sum = zero;
        let (r, b, w) = (red.as_ptr(), black.as_ptr(), w.as_ptr());
        for i in 0..len {
            // SAFETY: `i` is within every slice (equal lengths); aligned whole chunks.
            let (x, y, u) = unsafe { (load(&*r.add(i)), load(&*b.add(i)), load(&*w.add(i))) };
            let x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
            let y = _mm256_min_epi16(_mm256_max_epi16(y, zero), top);
            // Pairs of 16-bit products summed into 32-bit lanes: exact (|x − y| ≤ scale).
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_sub_epi16(x, y), u));
        }
        // SAFETY: AVX2, as this function's caller guarantees.
        unsafe { horizontal_sum(sum) }
    }

    /// # Safety
    /// The CPU must have AVX2, and the slices the same length.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output(a: &[Lanes], b: &[Lanes], wa: &[Lanes], wb: &[Lanes], scale: i16) -> i32 {
        // SAFETY: as this function's own.
        unsafe { by_length!(a.len(), output_n(a, b, wa, wb, scale)) }
    }

    /// `output` over `N` chunks (0: the slices' length).
    ///
    /// # Safety
    /// As `output`; `N`, when not 0, is the slices' length.
    #[target_feature(enable = "avx2")]
    unsafe fn output_n<const N: usize>(
        a: &[Lanes],
        b: &[Lanes],
        wa: &[Lanes],
        wb: &[Lanes],
        scale: i16,
    ) -> i32 {
        let len = if N == 0 { a.len() } else { N };
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(scale);
        let mut sum = zero;
        let (pa, pb, pu, pv) = (a.as_ptr(), b.as_ptr(), wa.as_ptr(), wb.as_ptr());
        for i in 0..len {
            // SAFETY: `i` is within every slice (equal lengths); aligned whole chunks.
            let (x, y, u, v) = unsafe {
                (
                    load(&*pa.add(i)),
                    load(&*pb.add(i)),
                    load(&*pu.add(i)),
                    load(&*pv.add(i)),
                )
            };
            let x = _mm256_min_epi16(_mm256_max_epi16(x, zero), top);
            let y = _mm256_min_epi16(_mm256_max_epi16(y, zero), top);
            // Pairs of 16-bit products summed into 32-bit lanes: each pair is at most
            // 2 × 32767 × 32768 < 2³¹, so exact.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, u));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(y, v));
        }
        // SAFETY: AVX2, as this function's caller guarantees.
        unsafe { horizontal_sum(sum) }
    }

    /// The sum of a register's eight 32-bit lanes (wrapping).
    #[target_feature(enable = "avx2")]
    unsafe fn horizontal_sum(sum: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let last = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(last)
    }
}
