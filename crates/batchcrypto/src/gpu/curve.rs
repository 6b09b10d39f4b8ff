//! Host-side constants of short-Weierstrass curves y^2 = x^3 + a x + b over
//! F_p with a prime-order group of order n, for any limb count `N`
//! (secp256k1 and P-256: N = 8; BLS12-381 G1: N = 12), derived here from
//! the published parameters so that no derived constant is typed by hand.
//! The names are those the WGSL curve code reads (`wgsl/weierstrass.wgsl`
//! and the kernels built on it).

use super::bigint::{Limbs, add_mod, mont_form, neg_inv32, r_squared, small, sub, wgsl_const};

/// (p + 1) / 4, the square-root exponent when p = 3 mod 4 (all the curves
/// above).
pub(crate) fn sqrt_exponent<const N: usize>(p: &Limbs<N>) -> Limbs<N> {
    let p1 = super::bigint::add_small(p, 1);
    std::array::from_fn(|k| (p1[k] >> 2) | if k + 1 < N { p1[k + 1] << 30 } else { 0 })
}

/// The field and group constants as WGSL `const`s: moduli with their CIOS
/// constants and R^2, one in Montgomery form for both, a, b and 3b in
/// Montgomery form, the inversion exponents p - 2 and n - 2, and the
/// square-root exponent.
pub(crate) fn weierstrass_wgsl<const N: usize>(p: &Limbs<N>, n: &Limbs<N>, a: &Limbs<N>, b: &Limbs<N>) -> String {
    let mont_p = |x: &Limbs<N>| mont_form(x, p);
    let b3 = add_mod(&add_mod(b, b, p), b, p);
    let (one, two) = (small::<N>(1), small::<N>(2));
    [
        wgsl_const("CURVE_P", p),
        format!("const CURVE_PINV: u32 = {:#010x}u;\n", neg_inv32(p[0])),
        wgsl_const("CURVE_N", n),
        format!("const CURVE_NINV: u32 = {:#010x}u;\n", neg_inv32(n[0])),
        wgsl_const("CURVE_P_R2", &r_squared(p)),
        wgsl_const("CURVE_N_R2", &r_squared(n)),
        wgsl_const("CURVE_ONE", &mont_p(&one)),
        wgsl_const("CURVE_N_ONE", &mont_form(&one, n)),
        wgsl_const("CURVE_A", &mont_p(a)),
        wgsl_const("CURVE_B", &mont_p(b)),
        wgsl_const("CURVE_B3", &mont_p(&b3)),
        wgsl_const("CURVE_P_MINUS_2", &sub(p, &two).0),
        wgsl_const("CURVE_N_MINUS_2", &sub(n, &two).0),
        wgsl_const("CURVE_SQRT_EXP", &sqrt_exponent(p)),
    ]
    .concat()
}

/// BLS12-381's base field prime p, big-endian hex.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the BLS12-381 kernels (issue 15) build on it; the probe tests use it now"
    )
)]
pub(crate) const BLS12_381_P: &str =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

/// The constants of `wgsl/fp381.wgsl`: p with its CIOS constant, R^2 and
/// one in Montgomery form, and the exponents p - 2 (inversion) and
/// (p + 1) / 4 (square roots).
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "the BLS12-381 kernels (issue 15) build on it; the probe tests use it now"
    )
)]
pub(crate) fn fp381_wgsl() -> String {
    let p: Limbs<12> = super::bigint::from_hex(BLS12_381_P);
    [
        wgsl_const("BLS_P", &p),
        format!("const BLS_PINV: u32 = {:#010x}u;\n", neg_inv32(p[0])),
        wgsl_const("BLS_R2", &r_squared(&p)),
        wgsl_const("BLS_ONE", &mont_form(&small(1), &p)),
        wgsl_const("BLS_P_MINUS_2", &sub(&p, &small(2)).0),
        wgsl_const("BLS_SQRT_EXP", &sqrt_exponent(&p)),
    ]
    .concat()
}

#[cfg(test)]
mod tests {
    use super::super::bigint::from_hex;
    use super::*;

    /// BLS12-381's G1 (384-bit, 12 limbs): the constants are consistent
    /// and valid WGSL.
    #[test]
    fn bls12_381_constants_at_twelve_limbs() {
        let p: Limbs<12> = from_hex(BLS12_381_P);
        let r: Limbs<12> = from_hex(
            "0000000000000000000000000000000073eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
        );
        let e = sqrt_exponent(&p);
        // 4 e = p + 1.
        let four_e = add_mod(
            &add_mod(&e, &e, &[u32::MAX; 12]),
            &add_mod(&e, &e, &[u32::MAX; 12]),
            &[u32::MAX; 12],
        );
        assert_eq!(four_e, super::super::bigint::add_small(&p, 1));
        assert_eq!(neg_inv32(p[0]).wrapping_mul(p[0]), u32::MAX);
        let src = weierstrass_wgsl(&p, &r, &[0; 12], &small(4));
        assert!(src.contains("const CURVE_P = array<u32, 12>(0xffffaaabu, "), "{src}");
        let module = wgpu::naga::front::wgsl::parse_str(&src).expect("valid WGSL");
        assert_eq!(module.constants.len(), 14);
    }
}
