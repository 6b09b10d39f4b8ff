//! The constants of Keccak-f\[1600\], computed from their definitions in
//! FIPS 202 §3.2 rather than copied as tables: the round constants from the
//! LFSR `rc(t)` (Algorithm 5), the ρ offsets from the walk of Algorithm 2,
//! and π's lane moves. The tests compare the permutations built on them
//! with the `keccak` crate's.

/// Rounds of Keccak-f\[1600\].
pub(crate) const ROUNDS: usize = 24;

/// ι's constant of each round: bit `2^j - 1` of round `ir` is
/// `rc(j + 7 ir)` for `j = 0..=6` (Algorithm 6).
pub(crate) const RC: [u64; ROUNDS] = {
    let mut rc = [0u64; ROUNDS];
    let mut ir = 0;
    while ir < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            rc[ir] |= lfsr_bit(j + 7 * ir) << ((1u32 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    rc
};

/// `rc(t)`: the output bit of the LFSR over GF(2)[x]/(x^8 + x^6 + x^5 + x^4 + 1)
/// after `t mod 255` steps from `R = 10000000` (bit `R[i]` is bit `i` here).
const fn lfsr_bit(t: usize) -> u64 {
    let mut r: u16 = 1;
    let mut i = 0;
    while i < t % 255 {
        r <<= 1;
        if r & 0x100 != 0 {
            // R[0], R[4], R[5], R[6] ^= R[8], then R[8] dropped.
            r ^= 0x171;
        }
        i += 1;
    }
    (r & 1) as u64
}

/// ρ's rotation of the lane at index `x + 5y` (Algorithm 2: starting from
/// (1, 0), step `t` rotates by `(t + 1)(t + 2)/2` and moves to
/// `(y, 2x + 3y)`; lane (0, 0) is not rotated).
pub(crate) const RHO: [u32; 25] = {
    let mut rho = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        rho[x + 5 * y] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let next = (2 * x + 3 * y) % 5;
        x = y;
        y = next;
        t += 1;
    }
    rho
};

/// π's destination of the lane at index `x + 5y`: `A'[y, 2x + 3y] = A[x, y]`
/// (FIPS 202's `A'[x, y] = A[(x + 3y) mod 5, x]`, read from the source side).
pub(crate) const PI_TO: [usize; 25] = {
    let mut to = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        to[i] = y + 5 * ((2 * x + 3 * y) % 5);
        i += 1;
    }
    to
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constants_are_the_published_ones() {
        // Spot checks against FIPS 202's tables (and the Keccak reference):
        // the first, a middle and the last round constant, and the offsets
        // of lanes (1,0), (2,0), (4,4).
        assert_eq!(RC[0], 0x0000_0000_0000_0001);
        assert_eq!(RC[3], 0x8000_0000_8000_8000);
        assert_eq!(RC[23], 0x8000_0000_8000_8008);
        assert_eq!((RHO[0], RHO[1], RHO[2], RHO[24]), (0, 1, 62, 14));
        // π moves every lane to a different place.
        let mut seen = [false; 25];
        for to in PI_TO {
            assert!(!seen[to], "π sends two lanes to {to}");
            seen[to] = true;
        }
    }
}
