//! The loops the simplex spends its time in, over rows of the dense inverse: written so
//! that they vectorise, and compiled a second time for AVX2 and FMA, which are taken when the
//! processor has them (checked once at run time), so the binary still runs anywhere.

/// `row -= f * pivot`, element by element.
pub(super) fn subtract_multiple(row: &mut [f64], pivot: &[f64], f: f64) {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the processor has AVX2 and FMA, checked by `wide`.
        return unsafe { subtract_multiple_avx2(row, pivot, f) };
    }
    subtract_multiple_plain(row, pivot, f)
}

/// `row -= f * pivot`, returning `Σ row²` after the update (one pass over both).
pub(super) fn subtract_multiple_norm(row: &mut [f64], pivot: &[f64], f: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the processor has AVX2 and FMA, checked by `wide`.
        return unsafe { subtract_multiple_norm_avx2(row, pivot, f) };
    }
    subtract_multiple_norm_plain(row, pivot, f)
}

/// `Σ v²`.
pub(super) fn squared_norm(values: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the processor has AVX2 and FMA, checked by `wide`.
        return unsafe { squared_norm_avx2(values) };
    }
    squared_norm_plain(values)
}

#[cfg(target_arch = "x86_64")]
fn wide() -> bool {
    use std::sync::OnceLock;
    static WIDE: OnceLock<bool> = OnceLock::new();
    *WIDE.get_or_init(|| is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"))
}

#[inline(always)]
fn subtract_multiple_plain(row: &mut [f64], pivot: &[f64], f: f64) {
    for (o, &p) in row.iter_mut().zip(pivot) {
        *o -= f * p;
    }
}

/// Eight lanes for the sum, as in [`squared_norm_plain`].
#[inline(always)]
fn subtract_multiple_norm_plain(row: &mut [f64], pivot: &[f64], f: f64) -> f64 {
    let mut lanes = [0.0f64; 8];
    let mut rows = row.chunks_exact_mut(8);
    let mut pivots = pivot.chunks_exact(8);
    for (chunk, pchunk) in (&mut rows).zip(&mut pivots) {
        for ((lane, o), &p) in lanes.iter_mut().zip(chunk.iter_mut()).zip(pchunk) {
            *o -= f * p;
            *lane += *o * *o;
        }
    }
    let mut tail = 0.0;
    for (o, &p) in rows.into_remainder().iter_mut().zip(pivots.remainder()) {
        *o -= f * p;
        tail += *o * *o;
    }
    lanes.iter().sum::<f64>() + tail
}

/// Eight lanes, so the sum need not be taken in order and can vectorise.
#[inline(always)]
fn squared_norm_plain(values: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let chunks = values.chunks_exact(8);
    let tail: f64 = chunks.remainder().iter().map(|v| v * v).sum();
    for chunk in chunks {
        for (lane, v) in lanes.iter_mut().zip(chunk) {
            *lane += v * v;
        }
    }
    lanes.iter().sum::<f64>() + tail
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn subtract_multiple_avx2(row: &mut [f64], pivot: &[f64], f: f64) {
    subtract_multiple_plain(row, pivot, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn subtract_multiple_norm_avx2(row: &mut [f64], pivot: &[f64], f: f64) -> f64 {
    subtract_multiple_norm_plain(row, pivot, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn squared_norm_avx2(values: &[f64]) -> f64 {
    squared_norm_plain(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kernels_agree_with_the_plain_loops() {
        let pivot: Vec<f64> = (0..37).map(|i| i as f64 * 0.5 - 3.0).collect();
        let mut row: Vec<f64> = (0..37).map(|i| (i * i) as f64).collect();
        let expected: Vec<f64> = row.iter().zip(&pivot).map(|(r, p)| r - 2.0 * p).collect();
        subtract_multiple(&mut row, &pivot, 2.0);
        assert_eq!(row, expected);
        let norm: f64 = pivot.iter().map(|v| v * v).sum();
        assert!((squared_norm(&pivot) - norm).abs() < 1e-9);
        let twice: Vec<f64> = row.iter().zip(&pivot).map(|(r, p)| r - 2.0 * p).collect();
        let after = subtract_multiple_norm(&mut row, &pivot, 2.0);
        assert_eq!(row, twice);
        assert!((after - twice.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-6 * after);
    }
}
