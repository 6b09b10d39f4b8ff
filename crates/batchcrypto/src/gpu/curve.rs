//! Host-side constants of short-Weierstrass curves y^2 = x^3 + a x + b over
//! F_p with a prime-order group of order n, for any limb count `N`
//! (secp256k1 and P-256: N = 8; BLS12-381 G1: N = 12), derived here from
//! the published parameters so that no derived constant is typed by hand.
//! The names are those the WGSL curve code reads (`wgsl/weierstrass.wgsl`
//! and the kernels built on it).

use super::bigint::{
    Limbs, add_mod, div_small, from_hex, mont_form, mul_mod, neg_inv32, r_squared, small, sub, sub_mod, wgsl_const,
};

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
pub(crate) const BLS12_381_P: &str =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

/// The constants of a pairing tower's field layer (`wgsl/fp2.wgsl`) for
/// the prime `p` of `N` limbs whose sextic non-residue is xi = `xi0` + u:
/// `FP_LIMBS`, p with its CIOS constant, R^2 and one and one half in
/// Montgomery form, the exponents p - 2 (inversion), (p + 1) / 4 (square
/// roots in F_p) and (p - 3) / 4 (in F_p2), (p - 1) / 2 (the sign's bound
/// and F_p2's second square-root exponent), and `fp_times_xi0`, the
/// multiplication by `xi0` as a chain of additions.
pub(crate) fn tower_field_wgsl<const N: usize>(p: &Limbs<N>, xi0: u32) -> String {
    let mut times = String::from("fn fp_times_xi0(a: Fp) -> Fp {\n    var r = a;\n");
    for bit in (0..31 - xi0.leading_zeros()).rev() {
        times += "    r = fp_add(r, r);\n";
        if (xi0 >> bit) & 1 == 1 {
            times += "    r = fp_add(r, a);\n";
        }
    }
    times += "    return r;\n}\n";
    [
        format!("const FP_LIMBS: u32 = {N}u;\n"),
        wgsl_const("FP_P", p),
        format!("const FP_PINV: u32 = {:#010x}u;\n", neg_inv32(p[0])),
        wgsl_const("FP_R2", &r_squared(p)),
        wgsl_const("FP_ONE", &mont_form(&small(1), p)),
        wgsl_const(
            "FP_TWO_INV",
            &mont_form(&div_small(&super::bigint::add_small(p, 1), 2).0, p),
        ),
        wgsl_const("FP_P_MINUS_2", &sub(p, &small(2)).0),
        wgsl_const("FP_SQRT_EXP", &sqrt_exponent(p)),
        wgsl_const("FP_SQRT2_EXP", &div_small(&sub(p, &small(3)).0, 4).0),
        wgsl_const("FP_HALF", &div_small(p, 2).0),
        times,
    ]
    .concat()
}

/// The Frobenius constants of an arkworks F_p12 tower (F_p12 = F_p6[w] /
/// (w^2 - v), F_p6 = F_p2[v] / (v^3 - xi)) as plain residues (c0, c1),
/// for the tower machine's x -> x^(p^j) (gpu/tower_vm.rs `frob12`):
/// `[j - 1][k]` multiplies the basis element w^k = v^(k/2) w^(k%2)
/// (arkworks' coefficients: of w, FP12_C1; of v and v^2, FP6_C1 and
/// FP6_C2).
pub(crate) fn fp12_frobenius<C: ark_ff::Fp12Config, const N: usize>() -> [[[Limbs<N>; 2]; 6]; 2] {
    use ark_ff::{Field, Fp6Config, PrimeField};
    type Fp2Of<C> = <<C as ark_ff::Fp12Config>::Fp6Config as Fp6Config>::Fp2Config;
    std::array::from_fn(|j| {
        let j = j + 1;
        let w = C::FROBENIUS_COEFF_FP12_C1[j];
        let v = C::Fp6Config::FROBENIUS_COEFF_FP6_C1[j];
        let v2 = C::Fp6Config::FROBENIUS_COEFF_FP6_C2[j];
        let g = [ark_ff::Fp2::<Fp2Of<C>>::ONE, w, v, v * w, v2, v2 * w];
        std::array::from_fn(|k| {
            [
                super::bigint::from_ark::<N>(g[k].c0.into_bigint()),
                super::bigint::from_ark::<N>(g[k].c1.into_bigint()),
            ]
        })
    })
}

/// |x| for BLS12-381's curve parameter x = -0xd201000000010000 (negative):
/// the Miller loop's length and the exponent of the final exponentiation's
/// hard part and of both subgroup checks.
pub(crate) const BLS_X_ABS: u64 = 0xd201_0000_0001_0000;

/// An element c0 + c1 u of F_p2 = F_p[u] / (u^2 + 1) as plain residues
/// mod BLS12-381's p, for deriving the constants below once per pipeline
/// (slow, public values only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fp2Const([Limbs<12>; 2]);

impl Fp2Const {
    fn p() -> Limbs<12> {
        from_hex(BLS12_381_P)
    }

    fn mul(self, o: Self) -> Self {
        let (p, [a0, a1], [b0, b1]) = (Self::p(), self.0, o.0);
        let m = |x, y| mul_mod(x, y, &p);
        Self([
            sub_mod(&m(&a0, &b0), &m(&a1, &b1), &p),
            add_mod(&m(&a0, &b1), &m(&a1, &b0), &p),
        ])
    }

    fn neg(self) -> Self {
        let p = Self::p();
        Self(self.0.map(|c| sub_mod(&[0; 12], &c, &p)))
    }

    /// self^e, square and multiply from the top bit.
    fn pow(self, e: &Limbs<12>) -> Self {
        let mut r = Self([small(1), [0; 12]]);
        for i in (0..384).rev() {
            r = r.mul(r);
            if (e[i / 32] >> (i % 32)) & 1 == 1 {
                r = r.mul(self);
            }
        }
        r
    }

    /// 1/self = conj(self) / (c0^2 + c1^2), the norm inverted by Fermat.
    fn inv(self) -> Self {
        let p = Self::p();
        let [c0, c1] = self.0;
        let norm = add_mod(&mul_mod(&c0, &c0, &p), &mul_mod(&c1, &c1, &p), &p);
        let inv = Self([norm, [0; 12]]).pow(&sub(&p, &small(2)).0).0[0];
        Self([mul_mod(&c0, &inv, &p), sub_mod(&[0; 12], &mul_mod(&c1, &inv, &p), &p)])
    }

    /// c0 + c1 u from big-endian hex of up to 96 digits each.
    fn hex(c0: &str, c1: &str) -> Self {
        let pad = |s: &str| format!("{s:0>96}");
        Self([from_hex(&pad(c0)), from_hex(&pad(c1))])
    }
}

/// BLS12-381's endomorphism constants as plain residues, for the subgroup
/// checks and the cofactor clearing of the tower-machine programs
/// (ops/bls/gpu/programs.rs):
///
/// - `beta`, the cube root of unity of G1's endomorphism sigma(x, y) =
///   (beta x, y), blst's choice (-1 - sqrt(-3)) / 2 with sqrt(-3) =
///   (-3)^((p+1)/4), for which sigma^2 acts on G1 as [-x^2] (M. Scott, "A
///   note on group membership tests for G1, G2 and GT on BLS
///   pairing-friendly curves", eprint 2021/1130);
/// - `psi_x` = 1/xi^((p-1)/3) and `psi_y` = 1/xi^((p-1)/2) (xi = 1 + u),
///   the untwist-Frobenius-twist endomorphism psi(x, y) = (conj(x) psi_x,
///   conj(y) psi_y) of G2, on which it acts as [x].
pub(crate) struct BlsConstants {
    pub(crate) beta: Limbs<12>,
    pub(crate) psi_x: [Limbs<12>; 2],
    pub(crate) psi_y: [Limbs<12>; 2],
}

pub(crate) fn bls_constants() -> BlsConstants {
    let p: Limbs<12> = from_hex(BLS12_381_P);
    let two_inv = div_small(&super::bigint::add_small(&p, 1), 2).0;
    let minus3 = sub(&p, &small(3)).0;
    let sqrt_m3 = Fp2Const([minus3, [0; 12]]).pow(&sqrt_exponent(&p)).0[0];
    // beta = -(1 + sqrt(-3)) / 2.
    let beta = mul_mod(&sub_mod(&[0; 12], &add_mod(&small(1), &sqrt_m3, &p), &p), &two_inv, &p);
    let xi = Fp2Const([small(1), small(1)]);
    let gamma = xi.pow(&div_small(&sub(&p, &small(1)).0, 6).0);
    let gamma3 = gamma.mul(gamma).mul(gamma);
    BlsConstants {
        beta,
        psi_x: gamma.mul(gamma).inv().0,
        psi_y: gamma3.inv().0,
    }
}

/// The coefficients of RFC 9380's 3-isogeny from E2' to E' (appendix E.3,
/// k_(j,i) as (c0, c1) in big-endian hex), lowest degree first: x_num,
/// x_den, y_num, y_den, each padded to four (the denominators are monic).
const ISO3: [[(&str, &str); 4]; 4] = [
    [
        (
            "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6",
            "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97d6",
        ),
        (
            "0",
            "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71a",
        ),
        (
            "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71e",
            "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38d",
        ),
        (
            "171d6541fa38ccfaed6dea691f5fb614cb14b4e7f4e810aa22d6108f142b85757098e38d0f671c7188e2aaaaaaaa5ed1",
            "0",
        ),
    ],
    [
        (
            "0",
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa63",
        ),
        (
            "c",
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa9f",
        ),
        ("1", "0"),
        ("0", "0"),
    ],
    [
        (
            "1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706",
            "1530477c7ab4113b59a4c18b076d11930f7da5d4a07f649bf54439d87d27e500fc8c25ebf8c92f6812cfc71c71c6d706",
        ),
        (
            "0",
            "5c759507e8e333ebb5b7a9a47d7ed8532c52d39fd3a042a88b58423c50ae15d5c2638e343d9c71c6238aaaaaaaa97be",
        ),
        (
            "11560bf17baa99bc32126fced787c88f984f87adf7ae0c7f9a208c6b4f20a4181472aaa9cb8d555526a9ffffffffc71c",
            "8ab05f8bdd54cde190937e76bc3e447cc27c3d6fbd7063fcd104635a790520c0a395554e5c6aaaa9354ffffffffe38f",
        ),
        (
            "124c9ad43b6cf79bfbf7043de3811ad0761b0f37a1e26286b0e977c69aa274524e79097a56dc4bd9e1b371c71c718b10",
            "0",
        ),
    ],
    [
        (
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb",
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa8fb",
        ),
        (
            "0",
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffa9d3",
        ),
        (
            "12",
            "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaa99",
        ),
        ("1", "0"),
    ],
];

/// The constant of the hash to field (`ops/bls/hash.wgsl`, RFC 9380
/// section 5.2): `BLS_R3` = R^3 mod p in Montgomery form (the reduction
/// of 512-bit integers as lo R^2 + hi R^3).
pub(crate) fn bls_hash_wgsl() -> String {
    let p: Limbs<12> = from_hex(BLS12_381_P);
    wgsl_const("BLS_R3", &mont_form(&r_squared(&p), &p))
}

/// The map to G2's constants (RFC 9380 section 8.8.2) as plain residues
/// (c0, c1): E2''s A' = 240 u and B' = 1012 (1 + u), Z = -(2 + u), the
/// simplified SWU map's -B'/A' and B'/(Z A'), and the 3-isogeny's
/// coefficients ([`ISO3`], sixteen in order).
pub(crate) struct HashConstants {
    pub(crate) a: [Limbs<12>; 2],
    pub(crate) b: [Limbs<12>; 2],
    pub(crate) z: [Limbs<12>; 2],
    pub(crate) minus_b_over_a: [Limbs<12>; 2],
    pub(crate) b_over_za: [Limbs<12>; 2],
    pub(crate) iso: [[Limbs<12>; 2]; 16],
}

pub(crate) fn bls_hash_constants() -> HashConstants {
    let zero = [0u32; 12];
    let a = Fp2Const([zero, small(240)]);
    let b = Fp2Const([small(1012), small(1012)]);
    let z = Fp2Const([small(2), small(1)]).neg();
    let iso: Vec<[Limbs<12>; 2]> = ISO3.iter().flatten().map(|(c0, c1)| Fp2Const::hex(c0, c1).0).collect();
    HashConstants {
        a: a.0,
        b: b.0,
        z: z.0,
        minus_b_over_a: b.mul(a.inv()).neg().0,
        b_over_za: b.mul(z.mul(a).inv()).0,
        iso: iso.try_into().expect("sixteen coefficients"),
    }
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
