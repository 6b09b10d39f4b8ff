//! The AVX-512 level: eight Keccak-f\[1600\] states in the eight 64-bit
//! lanes of 25 `__m512i` registers (lane `l` of register `i` is lane `i` of
//! state `l`), the rounds and the sponge from `level_fns!` (`rounds.rs`).
//! Besides twice the lanes of AVX2, AVX-512F rotates a 64-bit lane in one
//! instruction (`vprolq`) and computes any function of three registers in
//! one (`vpternlogq`): χ's `a ^ (!b & c)` and θ's three-way parities.
//! Every function here is `#[target_feature(enable = "avx512f")]`: the
//! intrinsics are safe inside them, and none takes a pointer (words go in
//! by `set`, out by `extract`). The caller in `lib.rs` checks the feature.

use core::arch::x86_64::{
    __m512i, _mm256_extract_epi64, _mm512_extracti64x4_epi64, _mm512_rol_epi64, _mm512_set_epi64, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_ternarylogic_epi64, _mm512_xor_si512,
};

/// `vpternlogq`'s table for `a ^ b ^ c`: bit `4a + 2b + c` of the
/// immediate is the function's value at (a, b, c).
const XOR3: i32 = 0x96;
/// The same for `a ^ (!b & c)`: true at (a, b, c) = (0,0,1), (1,0,0),
/// (1,1,0), (1,1,1), bits 1, 4, 6, 7.
const CHI: i32 = 0xD2;

/// Eight lanes as one register (lane `l` in element `l`).
#[target_feature(enable = "avx512f")]
fn gather(w: [u64; LANES]) -> __m512i {
    let w = w.map(|w| w as i64);
    _mm512_set_epi64(w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0])
}

/// The register's eight lanes.
#[target_feature(enable = "avx512f")]
fn scatter(v: __m512i) -> [u64; LANES] {
    let (lo, hi) = (_mm512_extracti64x4_epi64::<0>(v), _mm512_extracti64x4_epi64::<1>(v));
    [
        _mm256_extract_epi64::<0>(lo) as u64,
        _mm256_extract_epi64::<1>(lo) as u64,
        _mm256_extract_epi64::<2>(lo) as u64,
        _mm256_extract_epi64::<3>(lo) as u64,
        _mm256_extract_epi64::<0>(hi) as u64,
        _mm256_extract_epi64::<1>(hi) as u64,
        _mm256_extract_epi64::<2>(hi) as u64,
        _mm256_extract_epi64::<3>(hi) as u64,
    ]
}

#[target_feature(enable = "avx512f")]
#[inline]
fn xor(a: __m512i, b: __m512i) -> __m512i {
    _mm512_xor_si512(a, b)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn xor5(a: __m512i, b: __m512i, c: __m512i, d: __m512i, e: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<XOR3>(_mm512_ternarylogic_epi64::<XOR3>(a, b, c), d, e)
}

/// `a ^ (!b & c)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn chi(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<CHI>(a, b, c)
}

/// Each lane rotated left by `L` bits (`R`, 64 - `L`, is the AVX2
/// level's; one instruction here).
#[target_feature(enable = "avx512f")]
#[inline]
fn rol<const L: i32, const R: i32>(v: __m512i) -> __m512i {
    _mm512_rol_epi64::<L>(v)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn splat(w: u64) -> __m512i {
    _mm512_set1_epi64(w as i64)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn zero() -> __m512i {
    _mm512_setzero_si512()
}

level_fns!("avx512f", __m512i, 8);
