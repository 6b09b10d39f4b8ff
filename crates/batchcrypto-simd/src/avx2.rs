//! The AVX2 level: four Keccak-f\[1600\] states in the four 64-bit lanes of
//! 25 `__m256i` registers (lane `l` of register `i` is lane `i` of state
//! `l`), the round function of FIPS 202 §3.2 written once over them.
//! Every function here is `#[target_feature(enable = "avx2")]`: the
//! intrinsics are safe inside them, and none takes a pointer (words go in
//! by `set`, out by `extract`). The caller in `lib.rs` checks the feature.

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_extract_epi64, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_xor_si256,
};

use crate::spec::{PI_TO, RC, RHO};
use crate::{DIGEST, Hash256, LANES, RATE_WORDS, State, block, squeeze};

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

/// Each lane rotated left by `L` bits (`R` = 64 - `L`, spelled out because
/// a const argument cannot be computed from another): AVX2 has no 64-bit
/// rotate, so two shifts and an or (a shift by 64 gives zero).
#[target_feature(enable = "avx2")]
#[inline]
fn rol<const L: i32, const R: i32>(v: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi64::<L>(v), _mm256_srli_epi64::<R>(v))
}

/// Runs `$body` once for each lane index 0..25 with `I` a constant, so
/// that the rotations' counts are immediates and every index is known
/// when compiling (the state then lives in registers and spill slots, not
/// in an array indexed at run time).
macro_rules! for_each_lane {
    ($body:block) => {
        for_each_lane!(@ $body 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    };
    (@ $body:block $($n:literal)*) => {
        $({
            const I: usize = $n;
            $body
        })*
    };
}

/// Keccak-f\[1600\] on four states at once: θ, ρ and π, χ, ι per round.
#[target_feature(enable = "avx2")]
#[inline]
fn permute(mut a: [__m256i; 25]) -> [__m256i; 25] {
    for rc in RC {
        // θ: each lane gets the parities of the two neighbouring columns.
        let c: [__m256i; 5] = core::array::from_fn(|x| {
            let c = _mm256_xor_si256(_mm256_xor_si256(a[x], a[x + 5]), _mm256_xor_si256(a[x + 10], a[x + 15]));
            _mm256_xor_si256(c, a[x + 20])
        });
        for x in 0..5 {
            let d = _mm256_xor_si256(c[(x + 4) % 5], rol::<1, 63>(c[(x + 1) % 5]));
            for y in 0..5 {
                a[x + 5 * y] = _mm256_xor_si256(a[x + 5 * y], d);
            }
        }
        // ρ and π: each lane rotated and moved.
        let mut b = [_mm256_setzero_si256(); 25];
        for_each_lane!({
            b[PI_TO[I]] = rol::<{ RHO[I] as i32 }, { 64 - RHO[I] as i32 }>(a[I]);
        });
        // χ: a ^= !b[x+1] & b[x+2] along each row (`andnot` is `!first & second`).
        for y in 0..5 {
            for x in 0..5 {
                let not_and = _mm256_andnot_si256(b[(x + 1) % 5 + 5 * y], b[(x + 2) % 5 + 5 * y]);
                a[x + 5 * y] = _mm256_xor_si256(b[x + 5 * y], not_and);
            }
        }
        // ι.
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x(rc as i64));
    }
    a
}

/// [`crate::f1600_x4`] on this level.
#[target_feature(enable = "avx2")]
pub(crate) fn f1600_x4(states: &mut [State; LANES]) {
    let a: [__m256i; 25] = core::array::from_fn(|i| gather(states.map(|s| s[i])));
    let a = permute(a);
    for (i, v) in a.into_iter().enumerate() {
        for (s, w) in states.iter_mut().zip(scatter(v)) {
            s[i] = w;
        }
    }
}

/// [`crate::sponge256_x4`] on this level, for four messages of `blocks`
/// blocks each.
#[target_feature(enable = "avx2")]
pub(crate) fn sponge256_x4(hash: Hash256, msgs: [&[u8]; LANES], blocks: usize) -> [[u8; DIGEST]; LANES] {
    let mut a = [_mm256_setzero_si256(); 25];
    for b in 0..blocks {
        let words: [[u64; RATE_WORDS]; LANES] = msgs.map(|m| block(hash, m, b));
        for (i, lane) in a.iter_mut().take(RATE_WORDS).enumerate() {
            *lane = _mm256_xor_si256(*lane, gather(words.map(|w| w[i])));
        }
        a = permute(a);
    }
    let out: [[u64; LANES]; DIGEST / 8] = core::array::from_fn(|i| scatter(a[i]));
    core::array::from_fn(|l| squeeze(out.map(|lanes| lanes[l])))
}
