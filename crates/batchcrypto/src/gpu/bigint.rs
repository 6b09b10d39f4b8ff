//! Host-side multi-precision integers for the kernels' constants: `N` u32
//! limbs, least significant first (the layout the WGSL field code uses), so
//! one layer serves 256-bit curves (N = 8: secp256k1, P-256, BN254) and
//! 384-bit ones (N = 12: BLS12-381). Everything here runs once per
//! pipeline, on public constants: plain, not constant-time, and checked by
//! the tests below against `u128` arithmetic (N = 2, 4) and by every GPU
//! test end to end (N = 8).
//!
//! Montgomery form is x R mod m with R = 2^(32 N) (CIOS multiplication in
//! the kernels, see `shaders::mont_mul_generated`).

/// `N` limbs, least significant first.
pub(crate) type Limbs<const N: usize> = [u32; N];

/// The `N` limbs of an arkworks integer (a modulus, a canonical value, or
/// a Montgomery-form element's representation), zero-extended or cut to
/// `N`.
pub(crate) fn from_ark<const N: usize>(b: impl ark_ff::BigInteger) -> Limbs<N> {
    let bytes = b.to_bytes_le();
    std::array::from_fn(|k| u32::from_le_bytes(std::array::from_fn(|j| bytes.get(4 * k + j).copied().unwrap_or(0))))
}

/// The limbs of a big-endian byte string of `4 N` bytes (a shorter one is
/// zero-extended, a longer one keeps its last `4 N` bytes: never a panic).
pub(crate) fn from_be<const N: usize>(be: &[u8]) -> Limbs<N> {
    std::array::from_fn(|k| {
        (0..4).fold(0u32, |limb, j| {
            let byte = (4 * k + j)
                .checked_add(1)
                .and_then(|back| be.len().checked_sub(back))
                .map_or(0, |at| be[at]);
            limb | u32::from(byte) << (8 * j)
        })
    })
}

/// The big-endian bytes of the first `N` limbs of `l` (a slice, so that
/// kernel output words can be read in place).
pub(crate) fn to_be<const N: usize>(l: &[u32]) -> Vec<u8> {
    (0..N).rev().flat_map(|k| l[k].to_be_bytes()).collect()
}

/// The limbs of a constant written as `8 N` hex digits (big-endian). For
/// published constants in the source; a bad digit reads as 0, which the
/// tests of each constant catch.
pub(crate) fn from_hex<const N: usize>(s: &str) -> Limbs<N> {
    let be: Vec<u8> = (0..4 * N)
        .map(|i| {
            s.get(2 * i..2 * i + 2)
                .and_then(|d| u8::from_str_radix(d, 16).ok())
                .unwrap_or(0)
        })
        .collect();
    from_be(&be)
}

/// a - b (wrapping), and whether it borrowed.
pub(crate) fn sub<const N: usize>(a: &Limbs<N>, b: &Limbs<N>) -> (Limbs<N>, bool) {
    let mut r = [0u32; N];
    let mut borrow = 0u64;
    for k in 0..N {
        let d = (u64::from(a[k]) | 1 << 32) - u64::from(b[k]) - borrow;
        r[k] = d as u32;
        borrow = 1 - (d >> 32);
    }
    (r, borrow == 1)
}

/// a + v (wrapping).
pub(crate) fn add_small<const N: usize>(a: &Limbs<N>, v: u32) -> Limbs<N> {
    let mut r = *a;
    let mut carry = u64::from(v);
    for w in &mut r {
        let s = u64::from(*w) + carry;
        *w = s as u32;
        carry = s >> 32;
    }
    r
}

/// The small integer `v` as limbs.
pub(crate) fn small<const N: usize>(v: u32) -> Limbs<N> {
    add_small(&[0; N], v)
}

/// (a + b) mod m for a, b < m.
pub(crate) fn add_mod<const N: usize>(a: &Limbs<N>, b: &Limbs<N>, m: &Limbs<N>) -> Limbs<N> {
    let (s, carry) = add(a, b);
    let (d, borrow) = sub(&s, m);
    if carry || !borrow { d } else { s }
}

/// (a - b) mod m for a, b < m.
pub(crate) fn sub_mod<const N: usize>(a: &Limbs<N>, b: &Limbs<N>, m: &Limbs<N>) -> Limbs<N> {
    let (d, borrow) = sub(a, b);
    if borrow { add(&d, m).0 } else { d }
}

/// a + b (wrapping), and whether it carried.
fn add<const N: usize>(a: &Limbs<N>, b: &Limbs<N>) -> (Limbs<N>, bool) {
    let mut s = [0u32; N];
    let mut carry = 0u64;
    for k in 0..N {
        let t = u64::from(a[k]) + u64::from(b[k]) + carry;
        s[k] = t as u32;
        carry = t >> 32;
    }
    (s, carry == 1)
}

/// a / d and a mod d for a small divisor d > 0.
pub(crate) fn div_small<const N: usize>(a: &Limbs<N>, d: u32) -> (Limbs<N>, u32) {
    let mut q = [0u32; N];
    let mut rem = 0u64;
    for k in (0..N).rev() {
        let cur = (rem << 32) | u64::from(a[k]);
        q[k] = (cur / u64::from(d)) as u32;
        rem = cur % u64::from(d);
    }
    (q, rem as u32)
}

/// a b mod m by double and add (a, b < m): slow, for constants and for
/// checking kernels.
pub(crate) fn mul_mod<const N: usize>(a: &Limbs<N>, b: &Limbs<N>, m: &Limbs<N>) -> Limbs<N> {
    let mut acc = [0u32; N];
    for i in (0..32 * N).rev() {
        acc = add_mod(&acc, &acc, m);
        if (b[i / 32] >> (i % 32)) & 1 == 1 {
            acc = add_mod(&acc, a, m);
        }
    }
    acc
}

/// x 2^k mod m by k modular doublings (x < m).
pub(crate) fn times_pow2<const N: usize>(x: &Limbs<N>, m: &Limbs<N>, k: usize) -> Limbs<N> {
    let mut x = *x;
    for _ in 0..k {
        x = add_mod(&x, &x, m);
    }
    x
}

/// R^2 mod m = 2^(64 N) mod m (to enter Montgomery form with one multiplication).
pub(crate) fn r_squared<const N: usize>(m: &Limbs<N>) -> Limbs<N> {
    times_pow2(&small(1), m, 64 * N)
}

/// x R mod m: the Montgomery form of x < m.
pub(crate) fn mont_form<const N: usize>(x: &Limbs<N>, m: &Limbs<N>) -> Limbs<N> {
    times_pow2(x, m, 32 * N)
}

/// -m^-1 mod 2^32 for an odd m0, the CIOS constant.
pub(crate) fn neg_inv32(m0: u32) -> u32 {
    neg_inv64(u64::from(m0)) as u32
}

/// -m^-1 mod 2^64 for an odd m (Newton's iteration: each step doubles
/// the bits that are right, from 1).
pub(crate) fn neg_inv64(m: u64) -> u64 {
    let mut inv = 1u64;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    inv.wrapping_neg()
}

/// `const NAME = array<u32, N>(..);` in WGSL.
pub(crate) fn wgsl_const<const N: usize>(name: &str, v: &Limbs<N>) -> String {
    let limbs: Vec<String> = v.iter().map(|w| format!("{w:#010x}u")).collect();
    format!("const {name} = array<u32, {N}>({});\n", limbs.join(", "))
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    fn to_u128<const N: usize>(l: &Limbs<N>) -> u128 {
        l.iter().rev().fold(0u128, |acc, &w| (acc << 32) | u128::from(w))
    }

    fn of_u128<const N: usize>(v: u128) -> Limbs<N> {
        std::array::from_fn(|k| (v >> (32 * k)) as u32)
    }

    /// (x 2^k) mod m in u128, one doubling at a time (m < 2^127).
    fn pow2_ref(x: u128, m: u128, k: usize) -> u128 {
        (0..k).fold(x % m, |acc, _| (acc << 1) % m)
    }

    #[test]
    fn matches_u128_arithmetic() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..500 {
            let m64 = rng.random::<u64>() | 1 | 1 << 63;
            let (a, b) = (rng.random::<u64>() % m64, rng.random::<u64>() % m64);
            let (m, a2, b2) = (of_u128::<2>(m64.into()), of_u128::<2>(a.into()), of_u128::<2>(b.into()));
            assert_eq!(
                to_u128(&add_mod(&a2, &b2, &m)),
                (u128::from(a) + u128::from(b)) % u128::from(m64)
            );
            assert_eq!(to_u128(&mont_form(&a2, &m)), pow2_ref(a.into(), m64.into(), 64));
            assert_eq!(to_u128(&r_squared(&m)), pow2_ref(1, m64.into(), 128));
            assert_eq!(
                to_u128(&sub_mod(&a2, &b2, &m)),
                (u128::from(a) + u128::from(m64) - u128::from(b)) % u128::from(m64)
            );
            assert_eq!(
                to_u128(&mul_mod(&a2, &b2, &m)),
                (u128::from(a) * u128::from(b)) % u128::from(m64)
            );
            let d = rng.random::<u32>() | 1;
            let (q, r) = div_small(&a2, d);
            assert_eq!(
                (to_u128(&q), u128::from(r)),
                (u128::from(a) / u128::from(d), u128::from(a) % u128::from(d))
            );
            let (d, borrow) = sub(&a2, &b2);
            assert_eq!(borrow, a < b);
            assert_eq!(to_u128(&d) as u64, a.wrapping_sub(b));
            // Four limbs, a 126-bit modulus.
            let m4 = (rng.random::<u128>() >> 2) | 1 | 1 << 125;
            let x = rng.random::<u128>() % m4;
            assert_eq!(
                to_u128(&mont_form(&of_u128::<4>(x), &of_u128::<4>(m4))),
                pow2_ref(x, m4, 128)
            );
            assert_eq!(neg_inv32(m64 as u32).wrapping_mul(m64 as u32), u32::MAX);
        }
    }

    #[test]
    fn negated_inverses() {
        let mut rng = StdRng::seed_from_u64(2);
        for m in [1u64, 3, u64::MAX, 0xffff_ffff_0000_0001]
            .into_iter()
            .chain((0..500).map(|_| rng.random::<u64>() | 1))
        {
            assert_eq!(m.wrapping_mul(neg_inv64(m)), u64::MAX, "{m:#x}");
            assert_eq!((m as u32).wrapping_mul(neg_inv32(m as u32)), u32::MAX, "{m:#x}");
        }
    }

    #[test]
    fn bytes_and_hex_round_trip_at_every_width() {
        let hex = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809";
        let l12: Limbs<12> = from_hex(hex);
        assert_eq!(hex::encode(to_be::<12>(&l12)), hex);
        assert_eq!(l12[0], 0xd6e7_f809);
        assert_eq!(l12[11], 0x1a2b_3c4d);
        let l8: Limbs<8> = from_hex(&hex[..64]);
        assert_eq!(hex::encode(to_be::<8>(&l8)), hex[..64]);
        assert!(wgsl_const("X", &l12).starts_with("const X = array<u32, 12>(0xd6e7f809u, "));
    }
}
