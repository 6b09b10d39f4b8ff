//! The SHA-NI level of [`crate::sha256_x`]: `N` messages' states in
//! 128-bit registers (ABEF and CDGH as the instructions want them), their
//! rounds interleaved in one instruction stream. Every function here is
//! `#[target_feature(enable = "sha,ssse3,sse4.1")]`; the caller in
//! `lib.rs` checks the features. No intrinsic here takes a pointer.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_extract_epi32, _mm_set_epi32, _mm_sha256msg1_epu32,
    _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi32,
};

use crate::DIGEST;
use crate::sha256::{IV, K, block, digest, padding_only, padding_schedule};

/// Four words as a register, the first in the lowest lane.
#[target_feature(enable = "sha,ssse3,sse4.1")]
fn lanes(w: [u32; 4]) -> __m128i {
    _mm_set_epi32(w[3] as i32, w[2] as i32, w[1] as i32, w[0] as i32)
}

/// Four rounds on one message's state with `wk` = W_t + K_t for those
/// rounds: two give the new (A, B, E, F), the old one becoming
/// (C, D, G, H); then two more with the upper two words.
#[target_feature(enable = "sha,ssse3,sse4.1")]
#[inline]
fn four_rounds(abef: &mut __m128i, cdgh: &mut __m128i, wk: __m128i) {
    *cdgh = _mm_sha256rnds2_epu32(*cdgh, *abef, wk);
    *abef = _mm_sha256rnds2_epu32(*abef, *cdgh, _mm_shuffle_epi32::<0x0E>(wk));
}

/// The digests of `N` messages of `blocks` blocks each.
// `G >= 4` with G = 0 is the point of the unrolling, not a mistake.
#[allow(clippy::absurd_extreme_comparisons)]
#[target_feature(enable = "sha,ssse3,sse4.1")]
pub(crate) fn sha256_x<const N: usize>(msgs: [&[u8]; N], blocks: usize) -> [[u8; DIGEST]; N] {
    // (A, B, E, F) and (C, D, G, H), highest lane first.
    let mut abef = [lanes([IV[5], IV[4], IV[1], IV[0]]); N];
    let mut cdgh = [lanes([IV[7], IV[6], IV[3], IV[2]]); N];
    // A last block of padding alone, the same for every message: its
    // W_t + K_t computed once, no schedule instructions per message.
    let padding = padding_only(&msgs, blocks).map(padding_schedule);
    for b in 0..blocks {
        let (abef0, cdgh0) = (abef, cdgh);
        match padding {
            Some(wk) if b + 1 == blocks => {
                unrolled!(G in 0..16 {
                    let wk = lanes([wk[4 * G], wk[4 * G + 1], wk[4 * G + 2], wk[4 * G + 3]]);
                    for l in 0..N {
                        four_rounds(&mut abef[l], &mut cdgh[l], wk);
                    }
                });
            }
            _ => {
                let words: [[u32; 16]; N] = msgs.map(|m| block(m, b));
                // w[l][G % 4]: message words 4G..4G+4 of lane l, computed
                // in place from the four groups before (§6.2.2 step 1:
                // sha256msg1 adds σ0, sha256msg2 adds σ1).
                let mut w: [[__m128i; 4]; N] = core::array::from_fn(|l| {
                    core::array::from_fn(|g| lanes([0, 1, 2, 3].map(|i| words[l][4 * g + i])))
                });
                unrolled!(G in 0..16 {
                    for l in 0..N {
                        if G >= 4 {
                            let x = _mm_sha256msg1_epu32(w[l][G % 4], w[l][(G + 1) % 4]);
                            let x = _mm_add_epi32(x, _mm_alignr_epi8::<4>(w[l][(G + 3) % 4], w[l][(G + 2) % 4]));
                            w[l][G % 4] = _mm_sha256msg2_epu32(x, w[l][(G + 3) % 4]);
                        }
                        let wk = _mm_add_epi32(w[l][G % 4], lanes([K[4 * G], K[4 * G + 1], K[4 * G + 2], K[4 * G + 3]]));
                        four_rounds(&mut abef[l], &mut cdgh[l], wk);
                    }
                });
            }
        }
        for l in 0..N {
            abef[l] = _mm_add_epi32(abef[l], abef0[l]);
            cdgh[l] = _mm_add_epi32(cdgh[l], cdgh0[l]);
        }
    }
    core::array::from_fn(|l| {
        let (x, y) = (abef[l], cdgh[l]);
        let word = |v: i32| v as u32;
        digest([
            word(_mm_extract_epi32::<3>(x)),
            word(_mm_extract_epi32::<2>(x)),
            word(_mm_extract_epi32::<3>(y)),
            word(_mm_extract_epi32::<2>(y)),
            word(_mm_extract_epi32::<1>(x)),
            word(_mm_extract_epi32::<0>(x)),
            word(_mm_extract_epi32::<1>(y)),
            word(_mm_extract_epi32::<0>(y)),
        ])
    })
}
