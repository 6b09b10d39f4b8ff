//! SHA-256 (FIPS 180-4) of several messages at once, the parts the two
//! ways share: the constants, computed from their definitions (§4.2.2,
//! §5.3.3) rather than copied; the padded message words (§5.1.1); and
//! [`sha256_fns!`], the rounds (§6.2.2) written once over a vector level's
//! operations, one message per 32-bit lane (`avx2.rs`, `avx512.rs`).
//! Messages of one length whose last block is padding alone (64 bytes:
//! a block of data, then 0x80, zeros and the length) share that block's
//! schedule: [`padding_schedule`] computes it once, and the lanes run
//! that block's rounds alone (on the AVX-512 Xeon, 64-byte messages went
//! from about 70 to 60 ns each on one thread).
//! The other way, `shani.rs`, interleaves two messages on the SHA
//! extensions: each `sha256rnds2` does two rounds of one message but takes
//! several cycles to deliver, so one message leaves the unit mostly idle.

use crate::DIGEST;

/// Bytes per block.
pub(crate) const BLOCK: usize = 64;

/// Blocks a message of `len` bytes takes once padded (0x80, zeros, the
/// 64-bit bit length).
pub fn blocks(len: usize) -> usize {
    (len + 9).div_ceil(BLOCK)
}

/// `floor(x^(1/k))` for k = 2 or 3, by bisection (const, exact).
const fn iroot(x: u128, k: u32) -> u128 {
    let (mut lo, mut hi) = (0u128, 1u128 << (128 / k + 1));
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        let mut p = 1u128;
        let mut i = 0;
        let mut over = false;
        while i < k {
            match p.checked_mul(mid) {
                Some(q) => p = q,
                None => over = true,
            }
            i += 1;
        }
        if !over && p <= x { lo = mid } else { hi = mid }
    }
    lo
}

/// The first `N` primes.
const fn primes<const N: usize>() -> [u128; N] {
    let mut out = [0u128; N];
    let (mut found, mut c) = (0, 2u128);
    while found < N {
        let mut d = 2;
        let mut prime = true;
        while d * d <= c {
            if c % d == 0 {
                prime = false;
            }
            d += 1;
        }
        if prime {
            out[found] = c;
            found += 1;
        }
        c += 1;
    }
    out
}

/// §4.2.2: the first 32 bits of the fractional parts of the cube roots of
/// the first 64 primes: `floor(cbrt(p * 2^96)) mod 2^32`.
pub(crate) const K: [u32; 64] = {
    let p = primes::<64>();
    let mut k = [0u32; 64];
    let mut i = 0;
    while i < 64 {
        k[i] = iroot(p[i] << 96, 3) as u32;
        i += 1;
    }
    k
};

/// §5.3.3: the first 32 bits of the fractional parts of the square roots
/// of the first 8 primes.
pub(crate) const IV: [u32; 8] = {
    let p = primes::<8>();
    let mut h = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        h[i] = iroot(p[i] << 64, 2) as u32;
        i += 1;
    }
    h
};

/// The big-endian word at byte `off` of `msg` padded: message bytes, then
/// `0x80` at offset `msg.len()`, then zeros (the last block's bit length
/// is the caller's). One 4-byte load where the message covers the word:
/// the multi-buffer levels gather only the words some message reaches.
#[inline(always)]
pub(crate) fn word(msg: &[u8], off: usize) -> u32 {
    if let Some(Ok(bytes)) = msg.get(off..off + 4).map(<[u8; 4]>::try_from) {
        return u32::from_be_bytes(bytes);
    }
    match msg.get(off..) {
        Some(tail) => {
            let partial = tail.iter().fold(0u32, |w, &byte| (w << 8) | u32::from(byte));
            ((partial << 8) | 0x80) << (8 * (3 - tail.len()))
        }
        None => 0,
    }
}

/// The first `used` [`word`]s of the block at byte `start` of `msg` (the
/// rest zero), by whole-block conversion where the message covers the
/// block.
#[inline(always)]
pub(crate) fn words(msg: &[u8], start: usize, used: usize) -> [u32; 16] {
    let mut out = [0u32; 16];
    if let Some(Ok(block)) = msg.get(start..start + BLOCK).map(<&[u8; BLOCK]>::try_from) {
        for (w, chunk) in out.iter_mut().zip(block.chunks_exact(4)) {
            *w = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        }
    } else {
        for (i, w) in out.iter_mut().enumerate().take(used) {
            *w = word(msg, start + 4 * i);
        }
    }
    out
}

/// Block `b` of `msg` padded, as big-endian words (the SHA-NI level's:
/// a copy of the block was faster there than [`word`] by word).
// Only the SHA-NI pairs (x86-64) read whole blocks.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn block(msg: &[u8], b: usize) -> [u32; 16] {
    let n = blocks(msg.len());
    let start = (b * BLOCK).min(msg.len());
    let end = (start + BLOCK).min(msg.len());
    let mut bytes = [0u8; BLOCK];
    bytes[..end - start].copy_from_slice(&msg[start..end]);
    if b * BLOCK + BLOCK > msg.len() && b * BLOCK <= msg.len() {
        bytes[msg.len() - b * BLOCK] = 0x80;
    }
    if b + 1 == n {
        bytes[BLOCK - 8..].copy_from_slice(&((msg.len() as u64) * 8).to_be_bytes());
    }
    let mut words = [0u32; 16];
    for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(4)) {
        *w = u32::from_be_bytes(chunk.try_into().unwrap_or_default());
    }
    words
}

/// `W_t + K_t` for t = 0..64 (§6.2.2 steps 1 and 3) of the last block of
/// every message of `len` bytes when that block holds no message byte
/// (`len` a multiple of 64, or 56..63 past one): the same in every lane,
/// so the multi-buffer levels splat it instead of running the schedule in
/// each lane. Computed once per length and thread (one-entry cache: a
/// batch's messages mostly share their length).
pub(crate) fn padding_schedule(len: usize) -> [u32; 64] {
    use std::cell::Cell;
    thread_local! {
        static LAST: Cell<Option<(usize, [u32; 64])>> = const { Cell::new(None) };
    }
    if let Some((cached, wk)) = LAST.get()
        && cached == len
    {
        return wk;
    }
    let mut w = [0u32; 64];
    if len.is_multiple_of(BLOCK) {
        w[0] = 0x8000_0000;
    }
    let bits = (len as u64).wrapping_mul(8);
    (w[14], w[15]) = ((bits >> 32) as u32, bits as u32);
    for t in 16..64 {
        let s0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let s1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16].wrapping_add(s0).wrapping_add(w[t - 7]).wrapping_add(s1);
    }
    let wk = core::array::from_fn(|t| w[t].wrapping_add(K[t]));
    LAST.set(Some((len, wk)));
    wk
}

/// The length every message of `msgs` has, if they share one and the last
/// of their `blocks` blocks holds none of their bytes: that block is then
/// the same in every lane ([`padding_schedule`]).
pub(crate) fn padding_only(msgs: &[&[u8]], blocks: usize) -> Option<usize> {
    let len = msgs.first()?.len();
    (len <= blocks.saturating_sub(1) * BLOCK && msgs.iter().all(|m| m.len() == len)).then_some(len)
}

/// The digest from the final state.
pub(crate) fn digest(state: [u32; 8]) -> [u8; DIGEST] {
    let mut out = [0u8; DIGEST];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// One round (§6.2.2 step 3) on the eight working variables, each a
/// register of lanes, with `$wk` = K_t + W_t; the variables' shift is
/// renaming.
macro_rules! sha256_round {
    ($wk:expr; $a:ident $b:ident $c:ident $d:ident $e:ident $f:ident $g:ident $h:ident) => {
        let big_s1 = xor3(ror32::<6, 26>($e), ror32::<11, 21>($e), ror32::<25, 7>($e));
        let t1 = add32(add32($h, big_s1), add32(ch($e, $f, $g), $wk));
        let big_s0 = xor3(ror32::<2, 30>($a), ror32::<13, 19>($a), ror32::<22, 10>($a));
        let t2 = add32(big_s0, maj($a, $b, $c));
        $h = $g;
        $g = $f;
        $f = $e;
        $e = add32($d, t1);
        $d = $c;
        $c = $b;
        $b = $a;
        $a = add32(t1, t2);
    };
}

/// A level's multi-buffer SHA-256 over registers of type `$vec` holding
/// `$lanes` 32-bit lanes, one message's state word in each (FIPS 180-4
/// §6.2.2 in every lane at once, as Intel's multi-buffer `sha256_mb`
/// does): `sha256(msgs, blocks)` under `#[target_feature(enable =
/// $feature)]`. Unlike SHA-NI, the rounds run on the vector ALUs, so they
/// are not limited by the one SHA unit a core (and its hyperthread)
/// shares. The level's module supplies, as `#[target_feature]` functions
/// in scope: `gather32(words)` (one word per message into a register),
/// `transpose32(rows)` (sixteen such: word `i` of every row into register
/// `i`), `scatter32(v)`, `add32(a, b)`, `ror32::<N, M>(v)` (each lane
/// right by `N`, `M` = 32 - `N`), `shr32::<N>(v)`, `xor3(a, b, c)`,
/// `ch(e, f, g)` = `(e & f) ^ (!e & g)`, `maj(a, b, c)` and `splat32(w)`.
macro_rules! sha256_fns {
    ($feature:literal, $vec:ty, $lanes:literal) => {
        /// Messages per register.
        const LANES32: usize = $lanes;

        /// The digests of `LANES32` messages of `blocks` blocks each
        /// ([`crate::sha256_lanes`] on this level).
        #[target_feature(enable = $feature)]
        pub(crate) fn sha256(msgs: [&[u8]; LANES32], blocks: usize) -> [[u8; $crate::DIGEST]; LANES32] {
            use $crate::sha256::{BLOCK, IV, K, digest, padding_only, padding_schedule, words};
            // The last block's final two words: each message's length in bits.
            let (mut high, mut low) = ([0u32; LANES32], [0u32; LANES32]);
            for ((high, low), m) in high.iter_mut().zip(&mut low).zip(&msgs) {
                let bits = (m.len() as u64).wrapping_mul(8);
                (*high, *low) = ((bits >> 32) as u32, bits as u32);
            }
            let longest = msgs.iter().map(|m| m.len()).max().unwrap_or(0);
            let mut state: [$vec; 8] = core::array::from_fn(|i| splat32(IV[i]));
            // A last block of padding alone, the same in every lane: its
            // schedule is computed once, in scalar, and splatted.
            let padding = padding_only(&msgs, blocks).map(padding_schedule);
            for b in 0..blocks {
                let [mut a, mut bb, mut c, mut d, mut e, mut f, mut g, mut h] = state;
                match padding {
                    Some(wk) if b + 1 == blocks => {
                        unrolled!(T in 0..64 {
                            sha256_round!(splat32(wk[T]); a bb c d e f g h);
                        });
                    }
                    _ => {
                        // w[t % 16] is W_t (§6.2.2 step 1), computed in
                        // place from the sixteen before it. Words past
                        // every message and its 0x80 are zero: not
                        // gathered.
                        let start = b * BLOCK;
                        let used = (longest.saturating_sub(start) / 4 + 1).min(16);
                        let mut rows = [[0u32; 16]; LANES32];
                        for (row, m) in rows.iter_mut().zip(&msgs) {
                            *row = words(m, start, used);
                        }
                        let mut w = transpose32(&rows);
                        if b + 1 == blocks {
                            // The padding never reaches them (blocks()).
                            (w[14], w[15]) = (gather32(high), gather32(low));
                        }
                        unrolled!(T in 0..64 {
                            if T >= 16 {
                                let (w15, w2) = (w[(T + 1) % 16], w[(T + 14) % 16]);
                                let s0 = xor3(ror32::<7, 25>(w15), ror32::<18, 14>(w15), shr32::<3>(w15));
                                let s1 = xor3(ror32::<17, 15>(w2), ror32::<19, 13>(w2), shr32::<10>(w2));
                                w[T % 16] = add32(add32(w[T % 16], s0), add32(w[(T + 9) % 16], s1));
                            }
                            sha256_round!(add32(splat32(K[T]), w[T % 16]); a bb c d e f g h);
                        });
                    }
                }
                let next = [a, bb, c, d, e, f, g, h];
                state = core::array::from_fn(|i| add32(state[i], next[i]));
            }
            let mut words = [[0u32; LANES32]; 8];
            for (words, v) in words.iter_mut().zip(state) {
                *words = scatter32(v);
            }
            let mut out = [[0u8; $crate::DIGEST]; LANES32];
            for (l, out) in out.iter_mut().enumerate() {
                *out = digest(core::array::from_fn(|i| words[i][l]));
            }
            out
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_the_published_ones() {
        assert_eq!((K[0], K[1], K[63]), (0x428a_2f98, 0x7137_4491, 0xc671_78f2));
        assert_eq!((IV[0], IV[7]), (0x6a09_e667, 0x5be0_cd19));
    }
}
