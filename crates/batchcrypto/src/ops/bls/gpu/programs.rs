//! BLS12-381's pairing checks as tower-machine programs (gpu/tower_vm.rs):
//!
//! - [`pairs`]: per (G1, G2) pair, both points' curve and subgroup checks
//!   (Scott's endomorphism tests, eprint 2021/1130, as blst makes them:
//!   sigma^2(P) = -[x^2] P, psi(Q) = -[|x|] Q, on the complete formulas of
//!   Renes, Costello and Batina for a = 0) and the optimal-ate Miller loop,
//!   arkworks' step for step (ark-ec's bls12 model and G2HomProjective),
//!   so that its value is arkworks' exactly;
//! - [`product`]: per range, the product of [`RANGE`] F_p12 values, and
//!   with the check the final exponentiation (gpu/fp12_program.rs, arkworks'
//!   hard part) and whether the result is one.
//!
//! Every thread runs the whole program: work for a point at infinity or a
//! pair without a Miller loop is done and its result ignored by the host.

use std::sync::OnceLock;

use crate::gpu::bigint::{Limbs, from_hex, small};
use crate::gpu::curve::{BLS_X_ABS, BLS12_381_P, bls_constants, fp12_frobenius};
use crate::gpu::fp12_program;
use crate::gpu::tower_vm::{Asm, Fe, Fe2, Fe12, Program};

type A = Asm<12>;

/// Values multiplied by one thread of [`product`] (the host pads a range
/// with ones and reduces longer ones over several rounds).
pub(crate) const RANGE: usize = 4;

/// Output of [`pairs`]: the flags' element (G1 on its curve 1, in G1 2,
/// G2 on its curve 4, in G2 8), then the Miller value's twelve.
pub(crate) const FLAG_G1_ON_CURVE: u32 = 1;
pub(crate) const FLAG_G1_IN_GROUP: u32 = 2;
pub(crate) const FLAG_G2_ON_CURVE: u32 = 4;
pub(crate) const FLAG_G2_IN_GROUP: u32 = 8;

fn p() -> Limbs<12> {
    from_hex(BLS12_381_P)
}

/// The coordinates' field of a group (F_p for G1, F_p2 for G2) in the
/// machine's operations.
trait Coord: Copy {
    fn new(a: &mut A) -> Self;
    fn zero(a: &mut A) -> Self;
    fn copy(a: &mut A, d: Self, x: Self);
    fn add(a: &mut A, d: Self, x: Self, y: Self);
    fn sub(a: &mut A, d: Self, x: Self, y: Self);
    fn mul(a: &mut A, d: Self, x: Self, y: Self);
    /// 3 b of the group's curve (12 and 12 (1 + u)).
    fn b3(a: &mut A) -> Self;
}

impl Coord for Fe {
    fn new(a: &mut A) -> Self {
        a.reg()
    }
    fn zero(a: &mut A) -> Self {
        a.zero()
    }
    fn copy(a: &mut A, d: Self, x: Self) {
        a.copy(d, x);
    }
    fn add(a: &mut A, d: Self, x: Self, y: Self) {
        a.add(d, x, y);
    }
    fn sub(a: &mut A, d: Self, x: Self, y: Self) {
        a.sub(d, x, y);
    }
    fn mul(a: &mut A, d: Self, x: Self, y: Self) {
        a.mul(d, x, y);
    }
    fn b3(a: &mut A) -> Self {
        a.small(12)
    }
}

impl Coord for Fe2 {
    fn new(a: &mut A) -> Self {
        a.reg2()
    }
    fn zero(a: &mut A) -> Self {
        let z = a.zero();
        [z, z]
    }
    fn copy(a: &mut A, d: Self, x: Self) {
        a.copy2(d, x);
    }
    fn add(a: &mut A, d: Self, x: Self, y: Self) {
        a.add2(d, x, y);
    }
    fn sub(a: &mut A, d: Self, x: Self, y: Self) {
        a.sub2(d, x, y);
    }
    fn mul(a: &mut A, d: Self, x: Self, y: Self) {
        a.mul2(d, x, y);
    }
    fn b3(a: &mut A) -> Self {
        let twelve = small(12);
        a.konst2([twelve, twelve])
    }
}

/// Projective (X : Y : Z).
type Proj<F> = [F; 3];

fn proj_new<F: Coord>(a: &mut A) -> Proj<F> {
    [F::new(a), F::new(a), F::new(a)]
}

fn proj_copy<F: Coord>(a: &mut A, d: Proj<F>, p: Proj<F>) {
    for k in 0..3 {
        F::copy(a, d[k], p[k]);
    }
}

/// d = p + q (Renes-Costello-Batina, Algorithm 7: complete for a = 0).
fn proj_add<F: Coord>(a: &mut A, d: Proj<F>, p: Proj<F>, q: Proj<F>) {
    let m = a.mark();
    let [t0, t1, t2, t3, t4, t5, s, x3, y3, z3] = std::array::from_fn(|_| F::new(a));
    let b3 = F::b3(a);
    F::mul(a, t0, p[0], q[0]);
    F::mul(a, t1, p[1], q[1]);
    F::mul(a, t2, p[2], q[2]);
    // Cross terms: t3 = X1 Y2 + X2 Y1, t4 = Y1 Z2 + Y2 Z1, t5 = X1 Z2 + X2 Z1.
    for (dst, i, j, u, v) in [(t3, 0, 1, t0, t1), (t4, 1, 2, t1, t2), (t5, 0, 2, t0, t2)] {
        F::add(a, dst, p[i], p[j]);
        F::add(a, s, q[i], q[j]);
        F::mul(a, dst, dst, s);
        F::add(a, s, u, v);
        F::sub(a, dst, dst, s);
    }
    // t0 = 3 X1 X2, t2 = b3 Z1 Z2, z3 = Y1 Y2 + t2, t1 = Y1 Y2 - t2,
    // y3 = b3 t5; X3 = t3 t1 - t4 y3, Y3 = t1 z3 + y3 t0, Z3 = z3 t4 + t0 t3.
    F::add(a, s, t0, t0);
    F::add(a, t0, s, t0);
    F::mul(a, t2, b3, t2);
    F::add(a, z3, t1, t2);
    F::sub(a, t1, t1, t2);
    F::mul(a, y3, b3, t5);
    F::mul(a, x3, t3, t1);
    F::mul(a, s, t4, y3);
    F::sub(a, x3, x3, s);
    F::mul(a, y3, y3, t0);
    F::mul(a, s, t1, z3);
    F::add(a, y3, y3, s);
    F::mul(a, z3, z3, t4);
    F::mul(a, s, t0, t3);
    F::add(a, z3, z3, s);
    proj_copy(a, d, [x3, y3, z3]);
    a.release(m);
}

/// d = 2 p (Algorithm 9).
fn proj_dbl<F: Coord>(a: &mut A, d: Proj<F>, p: Proj<F>) {
    let m = a.mark();
    let [t0, t1, t2, x3, y3, z3] = std::array::from_fn(|_| F::new(a));
    let b3 = F::b3(a);
    F::mul(a, t0, p[1], p[1]);
    F::add(a, z3, t0, t0);
    F::add(a, z3, z3, z3);
    F::add(a, z3, z3, z3);
    F::mul(a, t1, p[1], p[2]);
    F::mul(a, t2, p[2], p[2]);
    F::mul(a, t2, b3, t2);
    F::mul(a, x3, t2, z3);
    F::add(a, y3, t0, t2);
    F::mul(a, z3, t1, z3);
    F::add(a, t1, t2, t2);
    F::add(a, t2, t1, t2);
    F::sub(a, t0, t0, t2);
    F::mul(a, y3, t0, y3);
    F::add(a, y3, x3, y3);
    F::mul(a, t1, p[0], p[1]);
    F::mul(a, x3, t0, t1);
    F::add(a, x3, x3, x3);
    proj_copy(a, d, [x3, y3, z3]);
    a.release(m);
}

/// d = [|x|] p by double and add from the top bit (the subgroup checks'
/// constant).
fn times_x<F: Coord>(a: &mut A, d: Proj<F>, p: Proj<F>) {
    let m = a.mark();
    let r = proj_new::<F>(a);
    proj_copy(a, r, p);
    for bit in (0..63).rev() {
        proj_dbl(a, r, r);
        if (BLS_X_ABS >> bit) & 1 == 1 {
            proj_add(a, r, r, p);
        }
    }
    proj_copy(a, d, r);
    a.release(m);
}

/// flags += 2^shift when `flag` (an EQ result) is 1.
fn add_flag(a: &mut A, flags: Fe, flag: Fe, shift: u32) {
    for _ in 0..shift {
        a.add(flag, flag, flag);
    }
    a.add(flags, flags, flag);
}

/// 1 when the finite affine point s (Z = 1) equals -t for projective t,
/// else 0 (X_s Z_t = X_t, Y_s Z_t = -Y_t, t finite).
fn equals_negated<F: Coord>(a: &mut A, d: Fe, s: [F; 2], t: Proj<F>, eq: fn(&mut A, Fe, F, F)) {
    let m = a.mark();
    let (u, v, e) = (F::new(a), F::new(a), a.reg());
    let zero_f = F::zero(a);
    // X_s Z_t = X_t
    F::mul(a, u, s[0], t[2]);
    eq(a, d, u, t[0]);
    // Y_s Z_t = -Y_t
    F::mul(a, u, s[1], t[2]);
    F::sub(a, v, zero_f, t[1]);
    eq(a, e, u, v);
    a.add(d, d, e);
    // Z_t != 0
    eq(a, e, t[2], zero_f);
    let (raw_one, raw_three) = (a.raw(small(1)), a.raw(small(3)));
    a.sub(e, raw_one, e);
    a.add(d, d, e);
    a.eq(d, d, raw_three);
    a.release(m);
}

/// R <- 2 R and the tangent's coefficients (arkworks
/// G2HomProjective::double_in_place), in `line`.
fn miller_dbl(a: &mut A, r: Proj<Fe2>, line: [Fe2; 3]) {
    let m = a.mark();
    let two_inv = {
        let p = p();
        a.konst(&crate::gpu::bigint::div_small(&crate::gpu::bigint::add_small(&p, 1), 2).0)
    };
    let [x, y, z] = r;
    let [ta, tb, tc, te, tf, tg, th, tj, t] = std::array::from_fn(|_| a.reg2());
    a.mul2(ta, x, y);
    a.mul2_fp(ta, ta, two_inv);
    a.sq2(tb, y);
    a.sq2(tc, z);
    // e = 3 b' c, b' = 4 (1 + u)
    a.mul_by_xi(te, tc);
    let twelve = a.small(12);
    a.mul2_fp(te, te, twelve);
    a.add2(tf, te, te);
    a.add2(tf, tf, te);
    a.add2(tg, tb, tf);
    a.mul2_fp(tg, tg, two_inv);
    a.add2(th, y, z);
    a.sq2(th, th);
    a.add2(t, tb, tc);
    a.sub2(th, th, t);
    // The line: (e - b, 3 x^2, -h).
    a.sub2(line[0], te, tb);
    a.sq2(tj, x);
    a.add2(line[1], tj, tj);
    a.add2(line[1], line[1], tj);
    a.neg2(line[2], th);
    // X = a (b - f), Y = g^2 - 3 e^2, Z = b h.
    a.sub2(t, tb, tf);
    a.mul2(x, ta, t);
    a.sq2(te, te);
    a.add2(t, te, te);
    a.add2(t, t, te);
    a.sq2(tg, tg);
    a.sub2(y, tg, t);
    a.mul2(z, tb, th);
    a.release(m);
}

/// R <- R + Q for affine Q and the line's coefficients (arkworks
/// add_in_place).
fn miller_add(a: &mut A, r: Proj<Fe2>, qx: Fe2, qy: Fe2, line: [Fe2; 3]) {
    let m = a.mark();
    let [x, y, z] = r;
    let [theta, lambda, c, d, e, f, g, h, t] = std::array::from_fn(|_| a.reg2());
    a.mul2(t, qy, z);
    a.sub2(theta, y, t);
    a.mul2(t, qx, z);
    a.sub2(lambda, x, t);
    a.sq2(c, theta);
    a.sq2(d, lambda);
    a.mul2(e, lambda, d);
    a.mul2(f, z, c);
    a.mul2(g, x, d);
    a.add2(h, e, f);
    a.sub2(h, h, g);
    a.sub2(h, h, g);
    // The line: (theta qx - lambda qy, -theta, lambda).
    a.mul2(line[0], theta, qx);
    a.mul2(t, lambda, qy);
    a.sub2(line[0], line[0], t);
    a.neg2(line[1], theta);
    a.copy2(line[2], lambda);
    // X = lambda h, Y = theta (g - h) - e Y, Z = Z e.
    a.mul2(x, lambda, h);
    a.sub2(g, g, h);
    a.mul2(g, theta, g);
    a.mul2(t, e, y);
    a.sub2(y, g, t);
    a.mul2(z, z, e);
    a.release(m);
}

/// f <- f times the line evaluated at P = (px, py): the sparse element
/// c0 + c1 px v + c2 py v w (M-twist).
fn mul_line(a: &mut A, f: Fe12, line: [Fe2; 3], px: Fe, py: Fe) {
    let m = a.mark();
    let (l1, l2) = (a.reg2(), a.reg2());
    a.mul2_fp(l1, line[1], px);
    a.mul2_fp(l2, line[2], py);
    let z = a.zero();
    let zero = [z, z];
    let s: Fe12 = [[line[0], l1, zero], [zero, l2, zero]];
    a.mul12(f, f, s);
    a.release(m);
}

fn build_pairs() -> Program {
    let mut a = A::new(p(), 1);
    let c = bls_constants();
    let (x1, y1) = (a.input(), a.input());
    let x2 = [a.input(), a.input()];
    let y2 = [a.input(), a.input()];
    let flags = a.reg();
    let raw_zero = a.raw([0; 12]);
    a.copy(flags, raw_zero);
    let flag = a.reg();
    let one = a.one();
    {
        // G1: on E, and sigma^2(P) = -[x^2] P.
        let m = a.mark();
        let (l, r) = (a.reg(), a.reg());
        a.mul(l, y1, y1);
        a.mul(r, x1, x1);
        a.mul(r, r, x1);
        let b = a.small(4);
        a.add(r, r, b);
        a.eq(flag, l, r);
        add_flag(&mut a, flags, flag, 0);
        let t = proj_new::<Fe>(&mut a);
        times_x(&mut a, t, [x1, y1, one]);
        times_x(&mut a, t, t);
        let beta = a.konst(&c.beta);
        a.mul(l, x1, beta);
        a.mul(l, l, beta);
        equals_negated(&mut a, flag, [l, y1], t, A::eq);
        add_flag(&mut a, flags, flag, 1);
        a.release(m);
    }
    {
        // G2: on E', and psi(Q) = -[|x|] Q.
        let m = a.mark();
        let (l, r) = (a.reg2(), a.reg2());
        a.sq2(l, y2);
        a.sq2(r, x2);
        a.mul2(r, r, x2);
        let four = small(4);
        let b = a.konst2([four, four]);
        a.add2(r, r, b);
        a.eq2(flag, l, r);
        add_flag(&mut a, flags, flag, 2);
        let one2 = [one, a.zero()];
        let t = proj_new::<Fe2>(&mut a);
        times_x(&mut a, t, [x2, y2, one2]);
        let (psi_x, psi_y) = (a.konst2(c.psi_x), a.konst2(c.psi_y));
        a.conj2(l, x2);
        a.mul2(l, l, psi_x);
        a.conj2(r, y2);
        a.mul2(r, r, psi_y);
        equals_negated(&mut a, flag, [l, r], t, A::eq2);
        add_flag(&mut a, flags, flag, 3);
        a.release(m);
    }
    a.output(flags);
    // The Miller loop f_{|x|,Q}(P), conjugated (x < 0).
    let r = proj_new::<Fe2>(&mut a);
    let zero = a.zero();
    a.copy2(r[0], x2);
    a.copy2(r[1], y2);
    a.copy2(r[2], [one, zero]);
    let f = a.one12();
    let line = [a.reg2(), a.reg2(), a.reg2()];
    for bit in (0..63).rev() {
        a.sq12(f, f);
        miller_dbl(&mut a, r, line);
        mul_line(&mut a, f, line, x1, y1);
        if (BLS_X_ABS >> bit) & 1 == 1 {
            miller_add(&mut a, r, x2, y2, line);
            mul_line(&mut a, f, line, x1, y1);
        }
    }
    a.conj12(f, f);
    for c in f.iter().flatten().flatten() {
        a.output(*c);
    }
    a.finish()
}

fn build_product(check: bool) -> Program {
    let mut a = A::new(p(), 1);
    let exp = fp12_program::final_exponentiation();
    let regs: Vec<Fe12> = (0..exp.registers()).map(|_| a.reg12()).collect();
    let load = |a: &mut A, d: Fe12| {
        for c in d.iter().flatten().flatten() {
            a.load(*c);
        }
    };
    load(&mut a, regs[0]);
    for _ in 1..RANGE {
        let m = a.mark();
        let v = a.reg12();
        load(&mut a, v);
        a.mul12(regs[0], regs[0], v);
        a.release(m);
    }
    let flag = a.reg();
    if check {
        let frob = fp12_frobenius::<ark_bls12_381::Fq12Config, 12>();
        a.fp12_program(&exp, &regs, &frob);
        a.is_one12(flag, regs[0]);
    } else {
        let z = a.raw([0; 12]);
        a.copy(flag, z);
    }
    a.output(flag);
    for c in regs[0].iter().flatten().flatten() {
        a.output(*c);
    }
    a.finish()
}

/// Per pair (inputs P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0, Q.y.c1, canonical):
/// the flags (FLAG_*), then the Miller value (twelve elements, arkworks'
/// coefficient order, Montgomery form).
pub(crate) fn pairs() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(build_pairs)
}

/// Per range ([`RANGE`] F_p12 values in, Montgomery form): the flag
/// (with `check`: 1 when the product's final exponentiation is one), then
/// the product or, with `check`, its final exponentiation.
pub(crate) fn product(check: bool) -> &'static Program {
    static P: [OnceLock<Program>; 2] = [OnceLock::new(), OnceLock::new()];
    P[usize::from(check)].get_or_init(|| build_product(check))
}

#[cfg(test)]
pub(crate) mod tests {
    //! The programs on the host machine (gpu/tower_vm.rs `host`) against
    //! arkworks, value for value; the device against the host machine in
    //! ops/bls/gpu.rs.

    use ark_bls12_381::{Bls12_381, Fq, Fq2, Fq6, Fq12, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::pairing::{MillerLoopOutput, Pairing};
    use ark_ec::{CurveGroup, PrimeGroup};
    use ark_ff::{BigInteger, Field, PrimeField};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::tower_vm::host;

    pub(crate) fn words(x: Fq) -> Vec<u32> {
        x.into_bigint()
            .to_bytes_le()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    /// The Montgomery form the machine computes in.
    pub(crate) fn mont(x: Fq) -> Vec<u32> {
        let limbs: [u32; 12] = words(x).try_into().expect("12 words");
        crate::gpu::bigint::mont_form(&limbs, &p()).to_vec()
    }

    pub(crate) fn fq12_mont(f: &Fq12) -> Vec<u32> {
        [f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2]
            .iter()
            .flat_map(|c| [c.c0, c.c1])
            .flat_map(mont)
            .collect()
    }

    pub(crate) fn random_fq(rng: &mut StdRng) -> Fq {
        let bytes: [u8; 64] = rng.random();
        Fq::from_le_bytes_mod_order(&bytes)
    }

    fn random_fr(rng: &mut StdRng) -> Fr {
        let bytes: [u8; 64] = rng.random();
        Fr::from_le_bytes_mod_order(&bytes)
    }

    pub(crate) fn random_fq12(rng: &mut StdRng) -> Fq12 {
        let c: Vec<Fq> = (0..12).map(|_| random_fq(rng)).collect();
        Fq12::new(
            Fq6::new(Fq2::new(c[0], c[1]), Fq2::new(c[2], c[3]), Fq2::new(c[4], c[5])),
            Fq6::new(Fq2::new(c[6], c[7]), Fq2::new(c[8], c[9]), Fq2::new(c[10], c[11])),
        )
    }

    /// A point of E(F_p) with a random x (almost never in G1).
    fn g1_off_subgroup(rng: &mut StdRng) -> G1Affine {
        loop {
            if let Some(p) = G1Affine::get_point_from_x_unchecked(random_fq(rng), rng.random()) {
                return p;
            }
        }
    }

    /// A point of E'(F_p2) with a random x (almost never in G2).
    fn g2_off_subgroup(rng: &mut StdRng) -> G2Affine {
        loop {
            let x = Fq2::new(random_fq(rng), random_fq(rng));
            if let Some(q) = G2Affine::get_point_from_x_unchecked(x, rng.random()) {
                return q;
            }
        }
    }

    /// Pairs covering every flag: in the groups, on the curves outside
    /// them (of order 3 among them), off the curves.
    pub(crate) fn hostile_pairs(seed: u64, count: usize) -> Vec<(G1Affine, G2Affine)> {
        let mut rng = StdRng::seed_from_u64(seed);
        let order3 = G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64));
        (0..count)
            .map(|n| {
                let (p, q) = (
                    (G1Projective::generator() * random_fr(&mut rng)).into_affine(),
                    (G2Projective::generator() * random_fr(&mut rng)).into_affine(),
                );
                let (o1, o2) = (g1_off_subgroup(&mut rng), g2_off_subgroup(&mut rng));
                match n % 6 {
                    0 | 1 => (p, q),
                    2 => (o1, o2),
                    3 => (if n % 2 == 0 { order3 } else { -order3 }, q),
                    4 => ((p + order3).into_affine(), (q + o2).into_affine()),
                    _ => (
                        G1Affine::new_unchecked(p.x, p.y + Fq::from(1u64)),
                        G2Affine::new_unchecked(q.x, q.y + Fq2::from(1u64)),
                    ),
                }
            })
            .collect()
    }

    pub(crate) fn pair_words(p: &G1Affine, q: &G2Affine) -> Vec<u32> {
        [p.x, p.y, q.x.c0, q.x.c1, q.y.c0, q.y.c1]
            .into_iter()
            .flat_map(words)
            .collect()
    }

    /// What [`pairs`] must answer for (p, q): flags, Miller value.
    pub(crate) fn expected_pair(p: &G1Affine, q: &G2Affine) -> Vec<u32> {
        let flag = |set: bool, bit: u32| if set { bit } else { 0 };
        let flags = flag(p.is_on_curve(), FLAG_G1_ON_CURVE)
            | flag(p.is_in_correct_subgroup_assuming_on_curve(), FLAG_G1_IN_GROUP)
            | flag(q.is_on_curve(), FLAG_G2_ON_CURVE)
            | flag(q.is_in_correct_subgroup_assuming_on_curve(), FLAG_G2_IN_GROUP);
        let mut want = vec![0u32; 12];
        want[0] = flags;
        want.extend(fq12_mont(&Bls12_381::multi_miller_loop([*p], [*q]).0));
        want
    }

    #[test]
    fn pairs_program_is_arkworks() {
        let program = pairs();
        assert_eq!((program.inputs, program.outputs), (6, 13));
        let pairs = hostile_pairs(20_211_130, 12);
        for (n, (p, q)) in pairs.iter().enumerate() {
            let got = host::run::<Fq>(program, 12, &pair_words(p, q));
            let want = expected_pair(p, q);
            assert_eq!(got[..12], want[..12], "pair {n}: flags");
            // Off their curves the Miller loop's value is arkworks' too:
            // the same formulas.
            assert_eq!(got[12..], want[12..], "pair {n}: Miller value");
        }
        let flags: Vec<u32> = pairs.iter().map(|(p, q)| expected_pair(p, q)[0]).collect();
        for bit in [FLAG_G1_ON_CURVE, FLAG_G1_IN_GROUP, FLAG_G2_ON_CURVE, FLAG_G2_IN_GROUP] {
            assert!(
                flags.iter().any(|f| f & bit != 0) && flags.iter().any(|f| f & bit == 0),
                "flag {bit} both ways"
            );
        }
    }

    /// RANGE values: the Miller values of e(P, Q) and e(-P, Q), then
    /// random ones; ranges padded with one.
    pub(crate) fn product_cases(seed: u64) -> Vec<Vec<Fq12>> {
        let mut rng = StdRng::seed_from_u64(seed);
        let (p, q) = (
            (G1Projective::generator() * random_fr(&mut rng)).into_affine(),
            (G2Projective::generator() * random_fr(&mut rng)).into_affine(),
        );
        let ml = |p: G1Affine| Bls12_381::multi_miller_loop([p], [q]).0;
        vec![
            vec![ml(p), ml(-p)],
            vec![ml(p)],
            (0..RANGE).map(|_| random_fq12(&mut rng)).collect(),
            vec![random_fq12(&mut rng), Fq12::ONE],
        ]
    }

    pub(crate) fn product_words(values: &[Fq12]) -> Vec<u32> {
        let mut words: Vec<u32> = values.iter().flat_map(fq12_mont).collect();
        for _ in values.len()..RANGE {
            words.extend(fq12_mont(&Fq12::ONE));
        }
        words
    }

    pub(crate) fn expected_product(values: &[Fq12], check: bool) -> Vec<u32> {
        let product: Fq12 = values.iter().product();
        let value = if check {
            Bls12_381::final_exponentiation(MillerLoopOutput(product))
                .expect("nonzero")
                .0
        } else {
            product
        };
        let mut want = vec![0u32; 12];
        want[0] = u32::from(check && value == Fq12::ONE);
        want.extend(fq12_mont(&value));
        want
    }

    #[test]
    fn product_programs_are_arkworks() {
        for check in [false, true] {
            let program = product(check);
            assert_eq!((program.inputs, program.outputs), (12 * RANGE, 13));
            for (k, values) in product_cases(2_020_875).iter().enumerate() {
                let got = host::run::<Fq>(program, 12, &product_words(values));
                assert_eq!(got, expected_product(values, check), "check {check}, case {k}");
            }
        }
    }
}

#[cfg(test)]
mod device_tests {
    //! The programs on the device's tower machine against arkworks.

    use super::tests::*;
    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::gpu::shaders::Tower;
    use crate::gpu::tower_vm;

    #[test]
    fn device_runs_the_pairs_and_product_programs_as_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let pairs = hostile_pairs(7, 12);
        let input: Vec<u32> = pairs.iter().flat_map(|(p, q)| pair_words(p, q)).collect();
        let t = std::time::Instant::now();
        let got = tower_vm::run(&gpu, "bls_pairs", Tower::Bls12381, super::pairs(), &input).expect("pairs");
        eprintln!(
            "pairs: {} instructions, {} registers, {:?}",
            super::pairs().code.len(),
            super::pairs().regs,
            t.elapsed()
        );
        assert_eq!(got.len(), pairs.len());
        for (n, ((p, q), got)) in pairs.iter().zip(&got).enumerate() {
            assert_eq!(*got, expected_pair(p, q), "pair {n}");
        }
        for check in [false, true] {
            let cases = product_cases(11);
            let input: Vec<u32> = cases.iter().flat_map(|v| product_words(v)).collect();
            let t = std::time::Instant::now();
            let got = tower_vm::run(&gpu, "bls_final", Tower::Bls12381, product(check), &input).expect("product");
            eprintln!(
                "product({check}): {} instructions, {} registers, {:?}",
                product(check).code.len(),
                product(check).regs,
                t.elapsed()
            );
            assert_eq!(got.len(), cases.len());
            for (k, (values, got)) in cases.iter().zip(&got).enumerate() {
                assert_eq!(*got, expected_product(values, check), "check {check} case {k}");
            }
            if check {
                assert_eq!(got[0][0], 1, "e(P, Q) e(-P, Q) = 1");
            }
        }
    }
}
