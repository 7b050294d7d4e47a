//! The network's inner loops over i16 vectors: accumulator row updates and the SCReLU dot
//! product of the output layer.
//!
//! Each kernel is written once as a plain loop that the compiler vectorises. On x86-64 the
//! same loop is also compiled with AVX2 enabled (`#[target_feature]`), and the kernels pick
//! that copy at run time when the CPU has AVX2 (`is_x86_feature_detected!`), so one binary
//! runs on every x86-64 CPU and uses 256-bit vectors where they exist. Both copies compute
//! the same integers (wrapping i16 and i32 arithmetic, and `clamp(v, 0, QA) * w` fits an i16
//! for a validated network), so the choice never changes a score.
//!
//! [`allow_avx2`] turns the AVX2 copies off, for tests and the speed comparison.

use std::sync::atomic::{AtomicBool, Ordering};

static AVX2_ALLOWED: AtomicBool = AtomicBool::new(true);

/// Allows or forbids the AVX2 copies (allowed by default; without AVX2 they are never used).
pub fn allow_avx2(allowed: bool) {
    AVX2_ALLOWED.store(allowed, Ordering::Relaxed);
}

/// Whether the kernels use the AVX2 copies now.
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
    #[inline(always)]
    pub fn add_sub(out: &mut [i16], parent: &[i16], add: &[i16], sub: &[i16]) {
        for (((o, &p), &a), &s) in out.iter_mut().zip(parent).zip(add).zip(sub) {
            *o = p.wrapping_add(a).wrapping_sub(s);
        }
    }

    #[inline(always)]
    pub fn add_assign(out: &mut [i16], row: &[i16]) {
        for (o, &r) in out.iter_mut().zip(row) {
            *o = o.wrapping_add(r);
        }
    }

    #[inline(always)]
    pub fn sub_assign(out: &mut [i16], row: &[i16]) {
        for (o, &r) in out.iter_mut().zip(row) {
            *o = o.wrapping_sub(r);
        }
    }

    #[inline(always)]
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
        let mut sum = 0i32;
        for (&v, &w) in values.iter().zip(weights) {
            let c = v.clamp(0, qa);
            // c * w fits an i16 for a validated network; the i32 product of that with c is
            // what `vpmaddwd` computes.
            let cw = i32::from(c.wrapping_mul(w));
            sum = sum.wrapping_add(cw * i32::from(c));
        }
        sum
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    #[target_feature(enable = "avx2")]
    pub fn add_sub(out: &mut [i16], parent: &[i16], add: &[i16], sub: &[i16]) {
        super::plain::add_sub(out, parent, add, sub);
    }

    #[target_feature(enable = "avx2")]
    pub fn add_assign(out: &mut [i16], row: &[i16]) {
        super::plain::add_assign(out, row);
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_assign(out: &mut [i16], row: &[i16]) {
        super::plain::sub_assign(out, row);
    }

    #[target_feature(enable = "avx2")]
    pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
        super::plain::screlu_dot(values, weights, qa)
    }
}

/// Calls the AVX2 copy of a kernel when allowed and supported, else the plain one.
macro_rules! dispatch {
    ($name:ident($($arg:expr),*)) => {{
        #[cfg(target_arch = "x86_64")]
        {
            if uses_avx2() {
                // SAFETY: the AVX2 copy's only requirement is a CPU with AVX2, which
                // `uses_avx2` has just checked with `is_x86_feature_detected!`.
                return unsafe { avx2::$name($($arg),*) };
            }
        }
        plain::$name($($arg),*)
    }};
}

/// `out = parent + add - sub`, element by element (wrapping).
pub fn add_sub(out: &mut [i16], parent: &[i16], add: &[i16], sub: &[i16]) {
    dispatch!(add_sub(out, parent, add, sub))
}

/// `out += row` (wrapping).
pub fn add_assign(out: &mut [i16], row: &[i16]) {
    dispatch!(add_assign(out, row))
}

/// `out -= row` (wrapping).
pub fn sub_assign(out: &mut [i16], row: &[i16]) {
    dispatch!(sub_assign(out, row))
}

/// `Σ clamp(v, 0, qa)² w` in wrapping i32 arithmetic.
pub fn screlu_dot(values: &[i16], weights: &[i16], qa: i16) -> i32 {
    dispatch!(screlu_dot(values, weights, qa))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both copies of every kernel give the same numbers, including at the clamp's edges and
    /// with wrapping sums.
    #[test]
    fn avx2_and_plain_kernels_agree() {
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = |range: i32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ((state >> 16) % (2 * range as u64 + 1)) as i32 - range
        };
        for len in [16, 32, 48, 256] {
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
