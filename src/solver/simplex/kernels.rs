//! The loops the simplex spends its time in, over rows of the dense inverse: written so
//! that they vectorise, and compiled a second time for AVX2 and FMA, which are taken when the
//! processor has them (checked once at run time), so the binary still runs anywhere.
//!
//! AVX-512 was tried and not kept: the same kernels with eight lanes and masked tails made a
//! cube of knight domination 18x18 on one thread (the same tree, 11,856 nodes against 11,892)
//! take 25.1 and 27.3 s against 18.2 and 18.7 s with AVX2 (alternating, two runs each), and
//! an hour later, when the machine ran slower, 28.0 to 28.3 s against 23.8 to 26.4 s (three
//! each, one binary switching between them): the wide registers slow the core down for the
//! rest of the search too.

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

/// `row · pivot` before, then `row -= f * pivot`, returning the product and `Σ row²` after
/// the update (one pass over both).
pub(super) fn dot_subtract_multiple_norm(row: &mut [f64], pivot: &[f64], f: f64) -> (f64, f64) {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the processor has AVX2 and FMA, checked by `wide`.
        return unsafe { dot_subtract_multiple_norm_avx2(row, pivot, f) };
    }
    dot_subtract_multiple_norm_plain(row, pivot, f)
}

/// `a · b`.
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if wide() {
        // SAFETY: the processor has AVX2 and FMA, checked by `wide`.
        return unsafe { dot_avx2(a, b) };
    }
    dot_plain(a, b)
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

/// Eight lanes for each sum, as in [`squared_norm_plain`].
#[inline(always)]
fn dot_subtract_multiple_norm_plain(row: &mut [f64], pivot: &[f64], f: f64) -> (f64, f64) {
    let mut dots = [0.0f64; 8];
    let mut lanes = [0.0f64; 8];
    let mut rows = row.chunks_exact_mut(8);
    let mut pivots = pivot.chunks_exact(8);
    for (chunk, pchunk) in (&mut rows).zip(&mut pivots) {
        let chunk: &mut [f64; 8] = chunk.try_into().expect("chunks of eight");
        let pchunk: &[f64; 8] = pchunk.try_into().expect("chunks of eight");
        for l in 0..8 {
            dots[l] += chunk[l] * pchunk[l];
            chunk[l] -= f * pchunk[l];
            lanes[l] += chunk[l] * chunk[l];
        }
    }
    let (mut dot_tail, mut tail) = (0.0, 0.0);
    for (o, &p) in rows.into_remainder().iter_mut().zip(pivots.remainder()) {
        dot_tail += *o * p;
        *o -= f * p;
        tail += *o * *o;
    }
    (dots.iter().sum::<f64>() + dot_tail, lanes.iter().sum::<f64>() + tail)
}

/// Eight lanes, as in [`squared_norm_plain`].
#[inline(always)]
fn dot_plain(a: &[f64], b: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca.remainder().iter().zip(cb.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ca.zip(cb) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
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

/// Written with the intrinsics: the compiler leaves the loop of three sums scalar.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn dot_subtract_multiple_norm_avx2(row: &mut [f64], pivot: &[f64], f: f64) -> (f64, f64) {
    use std::arch::x86_64::*;
    let len = row.len().min(pivot.len());
    let whole = len - len % 8;
    let fs = _mm256_set1_pd(f);
    let (mut dot_a, mut dot_b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
    let (mut norm_a, mut norm_b) = (_mm256_setzero_pd(), _mm256_setzero_pd());
    let (o, p) = (row.as_mut_ptr(), pivot.as_ptr());
    let mut i = 0;
    while i < whole {
        // SAFETY: `i + 8 <= whole <= len` of both slices.
        let (ra, rb) = (_mm256_loadu_pd(o.add(i)), _mm256_loadu_pd(o.add(i + 4)));
        let (pa, pb) = (_mm256_loadu_pd(p.add(i)), _mm256_loadu_pd(p.add(i + 4)));
        dot_a = _mm256_fmadd_pd(ra, pa, dot_a);
        dot_b = _mm256_fmadd_pd(rb, pb, dot_b);
        let (na, nb) = (_mm256_fnmadd_pd(fs, pa, ra), _mm256_fnmadd_pd(fs, pb, rb));
        _mm256_storeu_pd(o.add(i), na);
        _mm256_storeu_pd(o.add(i + 4), nb);
        norm_a = _mm256_fmadd_pd(na, na, norm_a);
        norm_b = _mm256_fmadd_pd(nb, nb, norm_b);
        i += 8;
    }
    let mut lanes = [0.0f64; 4];
    _mm256_storeu_pd(lanes.as_mut_ptr(), _mm256_add_pd(dot_a, dot_b));
    let mut dot: f64 = lanes.iter().sum();
    _mm256_storeu_pd(lanes.as_mut_ptr(), _mm256_add_pd(norm_a, norm_b));
    let mut norm: f64 = lanes.iter().sum();
    for (r, &q) in row[whole..len].iter_mut().zip(&pivot[whole..len]) {
        dot += *r * q;
        *r -= f * q;
        norm += *r * *r;
    }
    (dot, norm)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn dot_avx2(a: &[f64], b: &[f64]) -> f64 {
    dot_plain(a, b)
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
        let before_dot: f64 = row.iter().zip(&pivot).map(|(r, p)| r * p).sum();
        assert!((dot(&row, &pivot) - before_dot).abs() < 1e-9 * before_dot.abs().max(1.0));
        let thrice: Vec<f64> = row.iter().zip(&pivot).map(|(r, p)| r - 3.0 * p).collect();
        let (was, norm) = dot_subtract_multiple_norm(&mut row, &pivot, 3.0);
        assert_eq!(row, thrice);
        assert!((was - before_dot).abs() < 1e-9 * before_dot.abs().max(1.0));
        assert!((norm - thrice.iter().map(|v| v * v).sum::<f64>()).abs() < 1e-6 * norm);
    }
}
