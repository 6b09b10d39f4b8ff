//! SHA-256 (FIPS 180-4) of several messages at once with the SHA
//! extensions (SHA-NI): each `sha256rnds2` does two rounds of one message
//! but takes several cycles to deliver, so one message leaves the unit
//! mostly idle; independent messages interleaved in one instruction
//! stream fill it. The constants are computed from their definitions
//! (§4.2.2, §5.3.3) rather than copied.

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

/// Block `b` of `msg` padded, as big-endian words.
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

/// The digest from the final state.
pub(crate) fn digest(state: [u32; 8]) -> [u8; DIGEST] {
    let mut out = [0u8; DIGEST];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
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
