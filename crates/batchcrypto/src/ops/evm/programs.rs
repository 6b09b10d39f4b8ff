//! EIP-197's pairing check (BN254) as tower-machine programs
//! (gpu/tower_vm.rs, shared parts in gpu/pairing_vm.rs):
//!
//! - [`pairs`]: per pair, G2's subgroup check ([6 x^2] Q = psi(Q), psi the
//!   untwist-Frobenius-twist endomorphism: arkworks' check, eprint
//!   2022/352 section 4.3) and the optimal-ate Miller loop f_{6x+2,Q}(P)
//!   times the lines through pi(Q) and -pi^2(Q), arkworks' (ark-ec's bn
//!   model) step for step, so that its value is arkworks' exactly. G2
//!   lives on the D-twist y^2 = x^3 + 3 / xi, xi = 9 + u. The host has
//!   checked the points' coordinates and curves (the CPU path's checks).
//! - [`product`]: per range, the product of its Miller values and, with
//!   the check, the final exponentiation (gpu/fp12_program.rs, arkworks'
//!   hard part) compared with one.
//!
//! Inputs are arkworks' own limbs (Montgomery form, R = 2^256).

use std::sync::OnceLock;

use ark_ec::bn::BnConfig;
use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ff::PrimeField;

use crate::gpu::bigint::{Limbs, from_ark};
use crate::gpu::fp12_program::BN254_X;
use crate::gpu::pairing_vm::{equals_affine, miller_add, miller_dbl, proj_new, times};
use crate::gpu::tower_vm::{Asm, Fe, Fe2, Fe12, Program};

type A = Asm<8>;

fn p() -> Limbs<8> {
    from_ark(ark_bn254::Fq::MODULUS)
}

/// An arkworks F_p2 constant as plain residues.
fn fp2(x: ark_bn254::Fq2) -> [Limbs<8>; 2] {
    [from_ark(x.c0.into_bigint()), from_ark(x.c1.into_bigint())]
}

/// f <- f times the line evaluated at P = (px, py) on the D-twist
/// (arkworks' mul_by_034 shape): c2 py + c1 px w + c0 v w.
fn mul_line(a: &mut A, f: Fe12, line: [Fe2; 3], px: Fe, py: Fe) {
    let m = a.mark();
    let (l1, l2) = (a.reg2(), a.reg2());
    a.mul2_fp(l1, line[1], px);
    a.mul2_fp(l2, line[2], py);
    a.mul12_by_034(f, l2, l1, line[0]);
    a.release(m);
}

/// d = pi(x, y) on the twist: (conj(x) QX, conj(y) QY) (arkworks'
/// mul_by_char), for registers d apart from x and y.
fn frobenius(a: &mut A, d: [Fe2; 2], x: Fe2, y: Fe2) {
    let qx = a.konst2(fp2(ark_bn254::Config::TWIST_MUL_BY_Q_X));
    let qy = a.konst2(fp2(ark_bn254::Config::TWIST_MUL_BY_Q_Y));
    a.conj2(d[0], x);
    a.mul2(d[0], d[0], qx);
    a.conj2(d[1], y);
    a.mul2(d[1], d[1], qy);
}

fn build_pairs() -> Program {
    let mut a = A::new(p(), 9);
    let [px, py, x0, x1, y0, y1] = std::array::from_fn(|_| {
        let r = a.reg();
        a.load(r);
        r
    });
    let (qx, qy) = ([x0, x1], [y0, y1]);
    let one = a.one();
    let zero = a.zero();
    let b = ark_bn254::g2::Config::COEFF_B;
    let b3 = a.konst2(fp2(b + b + b));
    // G2: [6 x^2] Q = psi(Q).
    let flag = a.reg();
    {
        let m = a.mark();
        let t = proj_new(&mut a);
        times(&mut a, t, [qx, qy, [one, zero]], 6 * u128::from(BN254_X).pow(2), b3);
        let psi = [a.reg2(), a.reg2()];
        frobenius(&mut a, psi, qx, qy);
        equals_affine(&mut a, flag, psi, t, false);
        a.release(m);
    }
    a.output(flag);
    // The Miller loop.
    let q1 = [a.reg2(), a.reg2()];
    frobenius(&mut a, q1, qx, qy);
    let q2 = [a.reg2(), a.reg2()];
    frobenius(&mut a, q2, q1[0], q1[1]);
    a.neg2(q2[1], q2[1]);
    let neg_qy = a.reg2();
    a.neg2(neg_qy, qy);
    let r = proj_new(&mut a);
    a.copy2(r[0], qx);
    a.copy2(r[1], qy);
    a.copy2(r[2], [one, zero]);
    let f = a.one12();
    let line = [a.reg2(), a.reg2(), a.reg2()];
    let digits = ark_bn254::Config::ATE_LOOP_COUNT;
    for digit in digits[..digits.len() - 1].iter().rev() {
        a.sq12(f, f);
        miller_dbl(&mut a, &p(), r, line, b3);
        mul_line(&mut a, f, line, px, py);
        if *digit != 0 {
            miller_add(&mut a, r, qx, if *digit > 0 { qy } else { neg_qy }, line);
            mul_line(&mut a, f, line, px, py);
        }
    }
    for q in [q1, q2] {
        miller_add(&mut a, r, q[0], q[1], line);
        mul_line(&mut a, f, line, px, py);
    }
    a.output12(f);
    a.finish()
}

/// Per pair (inputs P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0, Q.y.c1, arkworks'
/// limbs): 1 when Q is in G2 (else 0), then the Miller value (twelve
/// elements, arkworks' coefficient order, Montgomery form).
pub(crate) fn pairs() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(build_pairs)
}

#[cfg(test)]
pub(crate) mod tests {
    //! The programs on the host machine (gpu/tower_vm.rs `host`) against
    //! arkworks, value for value; the device in ops/evm/gpu.rs.

    use ark_bn254::{Bn254, Fq, Fq12, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::pairing::{MillerLoopOutput, Pairing};
    use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
    use ark_ff::Field;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::pairing_vm::{self, RANGE};
    use crate::gpu::shaders::Tower;
    use crate::gpu::tower_vm::host;

    pub(crate) fn fq_words(x: &Fq) -> Vec<u32> {
        x.0.0.iter().flat_map(|l| [*l as u32, (l >> 32) as u32]).collect()
    }

    pub(crate) fn fq12_words(f: &Fq12) -> Vec<u32> {
        f.to_base_prime_field_elements().flat_map(|c| fq_words(&c)).collect()
    }

    /// A point on the twist outside G2 (x from `seed` up).
    pub(crate) fn g2_outside(seed: u64) -> G2Affine {
        let mut x = ark_bn254::Fq2::from(seed);
        loop {
            match G2Affine::get_point_from_x_unchecked(x, false) {
                Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => return q,
                _ => x += ark_bn254::Fq2::from(1u64),
            }
        }
    }

    #[test]
    fn programs_are_arkworks() {
        let mut rng = StdRng::seed_from_u64(197);
        let fr = |rng: &mut StdRng| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
        let mut pairs: Vec<(G1Affine, G2Affine)> = (0..4)
            .map(|_| {
                (
                    (G1Projective::generator() * fr(&mut rng)).into_affine(),
                    (G2Projective::generator() * fr(&mut rng)).into_affine(),
                )
            })
            .collect();
        pairs.push((pairs[0].0, g2_outside(3)));
        pairs.push((pairs[1].0, g2_outside(11)));
        let mut millers = Vec::new();
        for (n, (p, q)) in pairs.iter().enumerate() {
            let input: Vec<u32> = [p.x, p.y, q.x.c0, q.x.c1, q.y.c0, q.y.c1]
                .iter()
                .flat_map(fq_words)
                .collect();
            let got = host::run::<Fq>(super::pairs(), 8, &input);
            let inside = q.is_in_correct_subgroup_assuming_on_curve();
            assert_eq!(got[0], u32::from(inside), "pair {n}: subgroup");
            assert!(got[1..8].iter().all(|w| *w == 0));
            let miller = Bn254::multi_miller_loop([*p], [*q]).0;
            assert_eq!(got[8..], fq12_words(&miller)[..], "pair {n}: Miller value");
            millers.push(miller);
        }
        assert!(!pairs[0].0.is_zero());
        // e(P, Q) e(-P, Q) = 1.
        let cancel = Bn254::multi_miller_loop([-pairs[0].0], [pairs[0].1]).0;
        for (values, check) in [
            (vec![millers[0], cancel], true),
            (vec![millers[1]], true),
            (millers[..4].to_vec(), true),
            (millers[..4].to_vec(), false),
        ] {
            let mut input: Vec<u32> = values.iter().flat_map(fq12_words).collect();
            for _ in values.len()..RANGE {
                input.extend(fq12_words(&Fq12::ONE));
            }
            let got = host::run::<Fq>(pairing_vm::product_program(Tower::Bn254, check), 8, &input);
            let product: Fq12 = values.iter().product();
            let want = if check {
                Bn254::final_exponentiation(MillerLoopOutput(product))
                    .expect("nonzero")
                    .0
            } else {
                product
            };
            assert_eq!(got[0], u32::from(check && want == Fq12::ONE));
            assert_eq!(got[8..], fq12_words(&want)[..]);
        }
    }
}
