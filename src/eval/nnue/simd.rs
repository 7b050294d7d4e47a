//! The network's inner loops over i16 vectors: accumulator row updates and the SCReLU dot
//! product of the output layer.
//!
//! Each kernel is a plain loop that the compiler vectorises for the baseline target (SSE2 on
//! x86-64). The dot product also has an AVX2 version written with `std::arch`, chosen at run
//! time when the CPU has AVX2 (`is_x86_feature_detected!`), so one binary runs on every
//! x86-64 CPU. Measured under load (`tests/nnue.rs`, `kernel_speed`): the AVX2 dot product
//! takes 5 ns for N = 64 and 10 ns for N = 256 against 40-90 ns for the plain loop; an
//! AVX2-compiled copy of the row updates was no faster than the plain loop (0.96-1.22x,
//! within the noise), so they have none. Both dot products compute the same integers
//! (wrapping i32 sums, and `clamp(v, 0, QA) * w` fits an i16 for a validated network), so
//! the choice never changes a score.
//!
//! [`allow_avx2`] turns the AVX2 version off, for tests and the speed comparison.

use std::sync::atomic::{AtomicBool, Ordering};

static AVX2_ALLOWED: AtomicBool = AtomicBool::new(true);

/// Allows or forbids the AVX2 version (allowed by default; never used without AVX2).
pub fn allow_avx2(allowed: bool) {
    AVX2_ALLOWED.store(allowed, Ordering::Relaxed);
}

/// Whether the dot product uses the AVX2 version now.
pub fn uses_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        AVX2_ALLOWED.load(Ordering::Relaxed) && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

mod plain {
    pub fn add_sub(out: &mut [i16], parent: &[i16], add: &[i16], sub: &[i16]) {
        for (((o, &p), &a), &s) in out.iter_mut().zip(parent).zip(add).zip(sub) {
            *o = p.wrapping_add(a).wrapping_sub(s);
        }
    }

    pub fn add_assign(out: &mut [i16], row: &[i16]) {
        for (o, &r) in out.iter_mut().zip(row) {
            *o = o.wrapping_add(r);
        }
    }

    pub fn sub_assign(out: &mut [i16], row: &[i16]) {
        for (o, &r) in out.iter_mut().zip(row) {
            *o = o.wrapping_sub(r);
        }
    }

    #[inline(always)]
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
        let mut sum = 0i32;
        for (&v, &w) in values.iter().zip(weights) {
            // c * w fits an i16 for a validated network, so this is what the AVX2 kernel's
            // 16-bit multiply and `vpmaddwd` compute.
            let c = i32::from(v.clamp(0, qa));
            sum = sum.wrapping_add(c * i32::from(w) * c);
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    /// Written with `std::arch`: 16 lanes a step, `clamp(v) * w` in 16 bits, then
    /// `vpmaddwd` multiplies by `clamp(v)` and adds neighbouring pairs into i32 lanes.
    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
        use std::arch::x86_64::*;
        let len = values.len().min(weights.len());
        let whole = len / 16 * 16;
        let low = _mm256_setzero_si256();
        let high = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        let mut i = 0;
        while i < whole {
            // SAFETY: i + 16 <= whole <= the length of both slices, so each 32-byte read is
            // inside its slice; `loadu` has no alignment requirement.
            let (v, w) = unsafe {
                (
                    _mm256_loadu_si256(values.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let c = _mm256_min_epi16(_mm256_max_epi16(v, low), high);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(c, w), c));
            i += 16;
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let total = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(total).wrapping_add(super::plain::screlu_dot(
            &values[whole..len],
            &weights[whole..len],
            qa,
        ))
    }
}

/// Calls the AVX2 version of a kernel when allowed and supported, else the plain one.
macro_rules! dispatch {
    ($name:ident($($arg:expr),*)) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if uses_avx2() {
                // SAFETY: the AVX2 version's only requirement is a CPU with AVX2, which
                // `uses_avx2` has just checked with `is_x86_feature_detected!`.
                return unsafe { avx2::$name($($arg),*) };
            }
        }
        plain::$name($($arg),*)
    }};
}

/// `out = parent + add - sub`, element by element (wrapping).
pub fn add_sub(out: &mut [i16], parent: &[i16], add: &[i16], sub: &[i16]) {
    plain::add_sub(out, parent, add, sub)
}

/// `out += row` (wrapping).
pub fn add_assign(out: &mut [i16], row: &[i16]) {
    plain::add_assign(out, row)
}

/// `out -= row` (wrapping).
pub fn sub_assign(out: &mut [i16], row: &[i16]) {
    plain::sub_assign(out, row)
}

/// `Σ clamp(v, 0, qa)² w` in wrapping i32 arithmetic.
pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
    dispatch!(screlu_dot(values, weights, qa))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both versions of the dot product give the same numbers, including at the clamp's edges and
    /// with wrapping sums.
    #[test]
    fn avx2_and_plain_dot_products_agree() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = |range: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 16) % (2 * range as u64 + 1)) as i32 - range
        };
        for len in [16, 32, 48, 256, 7, 40] {
            let values: Vec<i16> = (0..len).map(|_| next(600) as i16).collect();
            let weights: Vec<i16> = (0..len).map(|_| next(128) as i16).collect();
            let rows: Vec<Vec<i16>> = (0..3)
                .map(|_| (0..len).map(|_| next(32767) as i16).collect())
                .collect();
            let mut results = Vec::new();
            for allowed in [false, true] {
                allow_avx2(allowed);
                let dot = screlu_dot(&values, &weights, 255);
                let mut out = vec![0i16; len];
                add_sub(&mut out, &rows[0], &rows[1], &rows[2]);
                add_assign(&mut out, &rows[1]);
                sub_assign(&mut out, &rows[0]);
                results.push((dot, out));
            }
            allow_avx2(true);
            assert_eq!(results[0], results[1], "length {len}");
            let expected: i32 = values
                .iter()
                .zip(&weights)
                .map(|(&v, &w)| i32::from(v.clamp(0, 255)).pow(2) * i32::from(w))
                .sum();
            assert_eq!(results[0].0, expected);
        }
    }
}
