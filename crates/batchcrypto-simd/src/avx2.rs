//! The AVX2 level: four Keccak-f\[1600\] states in the four 64-bit lanes of
//! 25 `__m256i` registers (lane `l` of register `i` is lane `i` of state
//! `l`), the rounds and the sponge from `level_fns!` (`rounds.rs`).
//! Every function here is `#[target_feature(enable = "avx2")]`: the
//! intrinsics are safe inside them, and none takes a pointer (words go in
//! by `set`, out by `extract`). The caller in `lib.rs` checks the feature.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_extract_epi32, _mm256_extract_epi64,
    _mm256_or_si256, _mm256_set_epi32, _mm256_set_epi64x, _mm256_set1_epi32, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_slli_epi32, _mm256_slli_epi64, _mm256_srli_epi32, _mm256_srli_epi64, _mm256_xor_si256,
};

/// Four lanes as one register (lane `l` in element `l`).
#[target_feature(enable = "avx2")]
fn gather(w: [u64; LANES]) -> __m256i {
    _mm256_set_epi64x(w[3] as i64, w[2] as i64, w[1] as i64, w[0] as i64)
}

/// The register's four lanes.
#[target_feature(enable = "avx2")]
fn scatter(v: __m256i) -> [u64; LANES] {
    [
        _mm256_extract_epi64::<0>(v) as u64,
        _mm256_extract_epi64::<1>(v) as u64,
        _mm256_extract_epi64::<2>(v) as u64,
        _mm256_extract_epi64::<3>(v) as u64,
    ]
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
    xor(xor(xor(a, b), xor(c, d)), e)
}

/// `a ^ (!b & c)` (`andnot` is `!first & second`).
#[target_feature(enable = "avx2")]
#[inline]
fn chi(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    xor(a, _mm256_andnot_si256(b, c))
}

/// Each lane rotated left by `L` bits (`R` = 64 - `L`, spelled out because
/// a const argument cannot be computed from another): AVX2 has no 64-bit
/// rotate, so two shifts and an or (a shift by 64 gives zero).
#[target_feature(enable = "avx2")]
#[inline]
fn rol<const L: i32, const R: i32>(v: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<L>(v), _mm256_srli_epi64::<R>(v))
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat(w: u64) -> __m256i {
    _mm256_set1_epi64x(w as i64)
}

#[target_feature(enable = "avx2")]
#[inline]
fn zero() -> __m256i {
    _mm256_setzero_si256()
}

level_fns!("avx2", __m256i, 4);

// SHA-256 in eight 32-bit lanes.

/// Eight words as one register (message `l` in element `l`).
#[target_feature(enable = "avx2")]
fn gather32(w: [u32; LANES32]) -> __m256i {
    let w = w.map(|w| w as i32);
    _mm256_set_epi32(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0])
}

/// Word `i` of the eight rows into register `i`.
#[target_feature(enable = "avx2")]
fn transpose32(rows: &[[u32; 16]; LANES32]) -> [__m256i; 16] {
    let mut out = [_mm256_setzero_si256(); 16];
    for (i, out) in out.iter_mut().enumerate() {
        let mut lanes = [0u32; LANES32];
        for (lane, row) in lanes.iter_mut().zip(rows) {
            *lane = row[i];
        }
        *out = gather32(lanes);
    }
    out
}

/// The register's eight words.
#[target_feature(enable = "avx2")]
fn scatter32(v: __m256i) -> [u32; LANES32] {
    [
        _mm256_extract_epi32::<0>(v),
        _mm256_extract_epi32::<1>(v),
        _mm256_extract_epi32::<2>(v),
        _mm256_extract_epi32::<3>(v),
        _mm256_extract_epi32::<4>(v),
        _mm256_extract_epi32::<5>(v),
        _mm256_extract_epi32::<6>(v),
        _mm256_extract_epi32::<7>(v),
    ]
    .map(|w| w as u32)
}

#[target_feature(enable = "avx2")]
#[inline]
fn add32(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi32(a, b)
}

/// Each 32-bit lane rotated right by `N` (`M` = 32 - `N`): two shifts and
/// an or.
#[target_feature(enable = "avx2")]
#[inline]
fn ror32<const N: i32, const M: i32>(v: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<N>(v), _mm256_slli_epi32::<M>(v))
}

#[target_feature(enable = "avx2")]
#[inline]
fn shr32<const N: i32>(v: __m256i) -> __m256i {
    _mm256_srli_epi32::<N>(v)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    xor(xor(a, b), c)
}

/// `(e & f) ^ (!e & g)`.
#[target_feature(enable = "avx2")]
#[inline]
fn ch(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
    xor(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g))
}

/// `(a & b) | (c & (a | b))`: the majority.
#[target_feature(enable = "avx2")]
#[inline]
fn maj(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_or_si256(a, b)))
}

#[target_feature(enable = "avx2")]
#[inline]
fn splat32(w: u32) -> __m256i {
    _mm256_set1_epi32(w as i32)
}

sha256_fns!("avx2", __m256i, 8);
