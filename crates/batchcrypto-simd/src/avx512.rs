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
    __m512i, _mm_extract_epi32, _mm256_extract_epi64, _mm512_add_epi32, _mm512_extracti32x4_epi32,
    _mm512_extracti64x4_epi64, _mm512_rol_epi64, _mm512_ror_epi32, _mm512_set_epi32, _mm512_set_epi64,
    _mm512_set1_epi32, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_shuffle_i32x4, _mm512_srli_epi32,
    _mm512_ternarylogic_epi32, _mm512_ternarylogic_epi64, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64, _mm512_xor_si512,
};

/// `vpternlogq`'s table for `a ^ b ^ c`: bit `4a + 2b + c` of the
/// immediate is the function's value at (a, b, c).
const XOR3: i32 = 0x96;
/// The same for SHA-256's `Ch`, `(a & b) ^ (!a & c)`: `b` where `a`,
/// else `c`; true at (0,0,1), (0,1,1), (1,1,0), (1,1,1), bits 1, 3, 6, 7.
const CH: i32 = 0xCA;
/// The same for `Maj`, true where two or three are: bits 3, 5, 6, 7.
const MAJ: i32 = 0xE8;
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

// SHA-256 in sixteen 32-bit lanes: `vprord` rotates, `vpternlogd` takes
// Σ's three-way xor, `Ch` and `Maj` in one instruction each.

/// Sixteen words as one register (message `l` in element `l`).
#[target_feature(enable = "avx512f")]
fn gather32(w: [u32; LANES32]) -> __m512i {
    let w = w.map(|w| w as i32);
    _mm512_set_epi32(
        w[15], w[14], w[13], w[12], w[11], w[10], w[9], w[8], w[7], w[6], w[5], w[4], w[3], w[2], w[1], w[0],
    )
}

/// Word `i` of the sixteen rows into register `i`: each row loaded whole,
/// then a 16 x 16 transpose in four steps of sixteen shuffles (words
/// interleaved in pairs, pairs in fours; then the 128-bit quarters
/// exchanged twice), instead of 256 inserts.
#[target_feature(enable = "avx512f")]
fn transpose32(rows: &[[u32; 16]; LANES32]) -> [__m512i; 16] {
    let r: [__m512i; 16] = core::array::from_fn(|l| gather32(rows[l]));
    // b[g][c]: quarter k holds word 4k + c of rows 4g..4g+4.
    let b: [[__m512i; 4]; 4] = core::array::from_fn(|g| {
        let lo = _mm512_unpacklo_epi32(r[4 * g], r[4 * g + 1]);
        let hi = _mm512_unpackhi_epi32(r[4 * g], r[4 * g + 1]);
        let lo2 = _mm512_unpacklo_epi32(r[4 * g + 2], r[4 * g + 3]);
        let hi2 = _mm512_unpackhi_epi32(r[4 * g + 2], r[4 * g + 3]);
        [
            _mm512_unpacklo_epi64(lo, lo2),
            _mm512_unpackhi_epi64(lo, lo2),
            _mm512_unpacklo_epi64(hi, hi2),
            _mm512_unpackhi_epi64(hi, hi2),
        ]
    });
    let mut out = [_mm512_setzero_si512(); 16];
    for c in 0..4 {
        // Quarters 0, 1 of two registers and 2, 3 of two, then every other.
        let e0 = _mm512_shuffle_i32x4::<0x44>(b[0][c], b[1][c]);
        let e1 = _mm512_shuffle_i32x4::<0xEE>(b[0][c], b[1][c]);
        let e2 = _mm512_shuffle_i32x4::<0x44>(b[2][c], b[3][c]);
        let e3 = _mm512_shuffle_i32x4::<0xEE>(b[2][c], b[3][c]);
        out[c] = _mm512_shuffle_i32x4::<0x88>(e0, e2);
        out[4 + c] = _mm512_shuffle_i32x4::<0xDD>(e0, e2);
        out[8 + c] = _mm512_shuffle_i32x4::<0x88>(e1, e3);
        out[12 + c] = _mm512_shuffle_i32x4::<0xDD>(e1, e3);
    }
    out
}

/// The register's sixteen words.
#[target_feature(enable = "avx512f")]
fn scatter32(v: __m512i) -> [u32; LANES32] {
    let quarters = [
        _mm512_extracti32x4_epi32::<0>(v),
        _mm512_extracti32x4_epi32::<1>(v),
        _mm512_extracti32x4_epi32::<2>(v),
        _mm512_extracti32x4_epi32::<3>(v),
    ];
    let words = quarters.map(|q| {
        [
            _mm_extract_epi32::<0>(q),
            _mm_extract_epi32::<1>(q),
            _mm_extract_epi32::<2>(q),
            _mm_extract_epi32::<3>(q),
        ]
    });
    core::array::from_fn(|i| words[i / 4][i % 4] as u32)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn add32(a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi32(a, b)
}

/// Each 32-bit lane rotated right by `N` (`M`, 32 - `N`, is the AVX2
/// level's).
#[target_feature(enable = "avx512f")]
#[inline]
fn ror32<const N: i32, const M: i32>(v: __m512i) -> __m512i {
    _mm512_ror_epi32::<N>(v)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn shr32<const N: u32>(v: __m512i) -> __m512i {
    _mm512_srli_epi32::<N>(v)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(a, b, c)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn ch(e: __m512i, f: __m512i, g: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<CH>(e, f, g)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn maj(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<MAJ>(a, b, c)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn splat32(w: u32) -> __m512i {
    _mm512_set1_epi32(w as i32)
}

sha256_fns!("avx512f", __m512i, 16);
