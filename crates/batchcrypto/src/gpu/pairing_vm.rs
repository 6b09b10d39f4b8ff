//! What the pairing programs of the tower machine (gpu/tower_vm.rs) share:
//! BLS12-381's (ops/bls/gpu/programs.rs) and BN254's (ops/evm/programs.rs).
//!
//! - Group arithmetic over F_p or F_p2 ([`Coord`]) in homogeneous
//!   projective coordinates with the complete formulas of Renes, Costello
//!   and Batina for a = 0 (eprint 2015/1060, algorithms 7 and 9): complete
//!   on both curves' groups (no points of order two), so hostile points
//!   need no special case; multiplication by a public constant; equality
//!   with an affine point as a flag.
//! - The Miller loop's doubling and addition steps with their lines,
//!   arkworks' (ark-ec's G2HomProjective, the same in its bls12 and bn
//!   models), so that Miller values are arkworks' exactly.
//! - The second stage of a pairing check ([`product`]): the product of
//!   [`RANGE`] F_p12 values and, with the check, the final exponentiation
//!   (gpu/fp12_program.rs) compared with one.

use std::sync::OnceLock;

use super::bigint::{Limbs, add_small, div_small, small};
use super::fp12_program;
use super::shaders::Tower;
use super::tower_vm::{Asm, Fe, Fe2, Fe12, Program};

/// Values multiplied by one thread of [`product`] (the host pads a range
/// with ones and reduces longer ones over several rounds).
pub(crate) const RANGE: usize = 4;

/// The coordinates' field of a group (F_p for G1, F_p2 for G2) in the
/// machine's operations.
pub(crate) trait Coord<const N: usize>: Copy {
    fn new(a: &mut Asm<N>) -> Self;
    fn zero(a: &mut Asm<N>) -> Self;
    fn copy(a: &mut Asm<N>, d: Self, x: Self);
    fn add(a: &mut Asm<N>, d: Self, x: Self, y: Self);
    fn sub(a: &mut Asm<N>, d: Self, x: Self, y: Self);
    fn mul(a: &mut Asm<N>, d: Self, x: Self, y: Self);
    /// d = 1 if x = y else 0.
    fn eq(a: &mut Asm<N>, d: Fe, x: Self, y: Self);
    fn one(a: &mut Asm<N>) -> Self;
    /// A new value from the thread's next inputs, canonical.
    fn input(a: &mut Asm<N>) -> Self;
    /// A new value from the thread's next inputs, in Montgomery form.
    fn load(a: &mut Asm<N>) -> Self;
    /// Appends x (as it is) to the outputs.
    fn output(a: &mut Asm<N>, x: Self);
    /// d = x out of Montgomery form.
    fn canonical(a: &mut Asm<N>, d: Self, x: Self);
    /// d = 1/x (0 for 0).
    fn inv(a: &mut Asm<N>, d: Self, x: Self);
    fn cmov(a: &mut Asm<N>, d: Self, x: Self, flag: Fe);
}

impl<const N: usize> Coord<N> for Fe {
    fn new(a: &mut Asm<N>) -> Self {
        a.reg()
    }
    fn zero(a: &mut Asm<N>) -> Self {
        a.zero()
    }
    fn copy(a: &mut Asm<N>, d: Self, x: Self) {
        a.copy(d, x);
    }
    fn add(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.add(d, x, y);
    }
    fn sub(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.sub(d, x, y);
    }
    fn mul(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.mul(d, x, y);
    }
    fn eq(a: &mut Asm<N>, d: Fe, x: Self, y: Self) {
        a.eq(d, x, y);
    }
    fn one(a: &mut Asm<N>) -> Self {
        a.one()
    }
    fn input(a: &mut Asm<N>) -> Self {
        a.input()
    }
    fn load(a: &mut Asm<N>) -> Self {
        let r = a.reg();
        a.load(r);
        r
    }
    fn output(a: &mut Asm<N>, x: Self) {
        a.output(x);
    }
    fn canonical(a: &mut Asm<N>, d: Self, x: Self) {
        a.canonical(d, x);
    }
    fn inv(a: &mut Asm<N>, d: Self, x: Self) {
        a.inv(d, x);
    }
    fn cmov(a: &mut Asm<N>, d: Self, x: Self, flag: Fe) {
        a.cmov(d, x, flag);
    }
}

impl<const N: usize> Coord<N> for Fe2 {
    fn new(a: &mut Asm<N>) -> Self {
        a.reg2()
    }
    fn zero(a: &mut Asm<N>) -> Self {
        let z = a.zero();
        [z, z]
    }
    fn copy(a: &mut Asm<N>, d: Self, x: Self) {
        a.copy2(d, x);
    }
    fn add(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.add2(d, x, y);
    }
    fn sub(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.sub2(d, x, y);
    }
    fn mul(a: &mut Asm<N>, d: Self, x: Self, y: Self) {
        a.mul2(d, x, y);
    }
    fn eq(a: &mut Asm<N>, d: Fe, x: Self, y: Self) {
        a.eq2(d, x, y);
    }
    fn one(a: &mut Asm<N>) -> Self {
        [a.one(), a.zero()]
    }
    fn input(a: &mut Asm<N>) -> Self {
        [a.input(), a.input()]
    }
    fn load(a: &mut Asm<N>) -> Self {
        [<Fe as Coord<N>>::load(a), <Fe as Coord<N>>::load(a)]
    }
    fn output(a: &mut Asm<N>, x: Self) {
        a.output(x[0]);
        a.output(x[1]);
    }
    fn canonical(a: &mut Asm<N>, d: Self, x: Self) {
        a.canonical(d[0], x[0]);
        a.canonical(d[1], x[1]);
    }
    fn inv(a: &mut Asm<N>, d: Self, x: Self) {
        a.inv2(d, x);
    }
    fn cmov(a: &mut Asm<N>, d: Self, x: Self, flag: Fe) {
        a.cmov2(d, x, flag);
    }
}

/// Projective (X : Y : Z).
pub(crate) type Proj<F> = [F; 3];

pub(crate) fn proj_new<const N: usize, F: Coord<N>>(a: &mut Asm<N>) -> Proj<F> {
    [F::new(a), F::new(a), F::new(a)]
}

pub(crate) fn proj_copy<const N: usize, F: Coord<N>>(a: &mut Asm<N>, d: Proj<F>, p: Proj<F>) {
    for k in 0..3 {
        F::copy(a, d[k], p[k]);
    }
}

/// d = p + q on y^2 = x^3 + b, `b3` = 3 b (Algorithm 7). Every operand is
/// read before d is written.
pub(crate) fn proj_add<const N: usize, F: Coord<N>>(a: &mut Asm<N>, d: Proj<F>, p: Proj<F>, q: Proj<F>, b3: F) {
    let m = a.mark();
    let [t0, t1, t2, t3, t4, t5, s, x3, y3, z3] = std::array::from_fn(|_| F::new(a));
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
pub(crate) fn proj_dbl<const N: usize, F: Coord<N>>(a: &mut Asm<N>, d: Proj<F>, p: Proj<F>, b3: F) {
    let m = a.mark();
    let [t0, t1, t2, x3, y3, z3] = std::array::from_fn(|_| F::new(a));
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

/// d = [k] p for a public k > 0, by double and add from its top bit.
pub(crate) fn times<const N: usize, F: Coord<N>>(a: &mut Asm<N>, d: Proj<F>, p: Proj<F>, k: u128, b3: F) {
    let m = a.mark();
    let r = proj_new::<N, F>(a);
    proj_copy(a, r, p);
    for bit in (0..127 - k.leading_zeros()).rev() {
        proj_dbl(a, r, r, b3);
        if (k >> bit) & 1 == 1 {
            proj_add(a, r, r, p, b3);
        }
    }
    proj_copy(a, d, r);
    a.release(m);
}

/// flags += 2^shift when `flag` (an EQ result, overwritten) is 1.
pub(crate) fn add_flag<const N: usize>(a: &mut Asm<N>, flags: Fe, flag: Fe, shift: u32) {
    for _ in 0..shift {
        a.add(flag, flag, flag);
    }
    a.add(flags, flags, flag);
}

/// d = 1 when the affine point s equals t (or -t with `negated`) for a
/// projective t: X_s Z_t = X_t, Y_s Z_t = +-Y_t and t finite; else 0.
pub(crate) fn equals_affine<const N: usize, F: Coord<N>>(a: &mut Asm<N>, d: Fe, s: [F; 2], t: Proj<F>, negated: bool) {
    let m = a.mark();
    let (u, v, e) = (F::new(a), F::new(a), a.reg());
    let zero = F::zero(a);
    F::mul(a, u, s[0], t[2]);
    F::eq(a, d, u, t[0]);
    F::mul(a, u, s[1], t[2]);
    if negated {
        F::sub(a, v, zero, t[1]);
    } else {
        F::copy(a, v, t[1]);
    }
    F::eq(a, e, u, v);
    a.add(d, d, e);
    // Z_t != 0: 1 - (Z_t = 0).
    F::eq(a, e, t[2], zero);
    let (one, three) = (a.raw(small(1)), a.raw(small(3)));
    a.sub(e, one, e);
    a.add(d, d, e);
    a.eq(d, d, three);
    a.release(m);
}

/// R <- 2 R and the tangent's coefficients (arkworks
/// G2HomProjective::double_in_place) in `line`, on the twist whose
/// 3 b' is `b3`.
pub(crate) fn miller_dbl<const N: usize>(a: &mut Asm<N>, p: &Limbs<N>, r: Proj<Fe2>, line: [Fe2; 3], b3: Fe2) {
    let m = a.mark();
    let two_inv = a.konst(&div_small(&add_small(p, 1), 2).0);
    let [x, y, z] = r;
    let [ta, tb, tc, te, tf, tg, th, tj, t] = std::array::from_fn(|_| a.reg2());
    a.mul2(ta, x, y);
    a.mul2_fp(ta, ta, two_inv);
    a.sq2(tb, y);
    a.sq2(tc, z);
    a.mul2(te, tc, b3);
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
pub(crate) fn miller_add<const N: usize>(a: &mut Asm<N>, r: Proj<Fe2>, qx: Fe2, qy: Fe2, line: [Fe2; 3]) {
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

/// A tower's constants for [`product`]: its prime, xi = `xi0` + u, its
/// final exponentiation and Frobenius constants (gpu/curve.rs
/// `fp12_frobenius`).
pub(crate) struct TowerDef<const N: usize> {
    pub(crate) p: Limbs<N>,
    pub(crate) xi0: u32,
    pub(crate) final_exp: fp12_program::Program,
    pub(crate) frob: [[[Limbs<N>; 2]; 6]; 2],
}

/// Per thread, [`RANGE`] F_p12 values in (Montgomery form, arkworks'
/// coefficient order): the flag (with `check`: 1 when the final
/// exponentiation of their product is one; else 0), then the product or,
/// with `check`, its final exponentiation.
pub(crate) fn product<const N: usize>(tower: &TowerDef<N>, check: bool) -> Program {
    let mut a = Asm::new(tower.p, tower.xi0);
    let regs: Vec<Fe12> = (0..tower.final_exp.registers()).map(|_| a.reg12()).collect();
    let load = |a: &mut Asm<N>, d: Fe12| {
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
        a.fp12_program(&tower.final_exp, &regs, &tower.frob);
        a.is_one12(flag, regs[0]);
    } else {
        let z = a.raw([0; N]);
        a.copy(flag, z);
    }
    a.output(flag);
    a.output12(regs[0]);
    a.finish()
}

/// [`product`] over `tower` (BLS12-381 or BN254), built once.
pub(crate) fn product_program(tower: Tower, check: bool) -> &'static Program {
    static P: [[OnceLock<Program>; 2]; 2] = [[OnceLock::new(), OnceLock::new()], [OnceLock::new(), OnceLock::new()]];
    P[tower as usize][usize::from(check)].get_or_init(|| match tower {
        Tower::Bls12381 => {
            let def = TowerDef {
                p: super::bigint::from_hex::<12>(super::curve::BLS12_381_P),
                xi0: 1,
                final_exp: fp12_program::final_exponentiation(),
                frob: super::curve::fp12_frobenius::<ark_bls12_381::Fq12Config, 12>(),
            };
            product(&def, check)
        }
        Tower::Bn254 => {
            use ark_ff::PrimeField;
            let def = TowerDef {
                p: super::bigint::from_ark::<8>(ark_bn254::Fq::MODULUS),
                xi0: 9,
                final_exp: fp12_program::bn254_final_exponentiation(),
                frob: super::curve::fp12_frobenius::<ark_bn254::Fq12Config, 8>(),
            };
            product(&def, check)
        }
    })
}

/// Points summed by one thread of [`sum`] (the host pads a range with
/// infinity and reduces longer ones over several rounds).
pub(crate) const SUM_RANGE: usize = 16;

/// Per thread: [s] P for an affine P (canonical coordinates) and a scalar
/// s of at most `bits` bits (an input element holding s as a plain integer,
/// least significant word first), out in projective Montgomery form.
/// Double and add over every bit with a conditional move, so that every
/// thread runs the same instructions; `b3` = 3 b of the curve.
pub(crate) fn scale<const N: usize, F: Coord<N>>(
    p: Limbs<N>,
    xi0: u32,
    b3: fn(&mut Asm<N>) -> F,
    bits: u32,
) -> Program {
    let mut a = Asm::new(p, xi0);
    let (x, y) = (F::input(&mut a), F::input(&mut a));
    let s = <Fe as Coord<N>>::load(&mut a);
    let b3 = b3(&mut a);
    let (one, zero) = (F::one(&mut a), F::zero(&mut a));
    let r = proj_new::<N, F>(&mut a);
    proj_copy(&mut a, r, [zero, one, zero]);
    let t = proj_new::<N, F>(&mut a);
    let bit = a.reg();
    for k in (0..bits).rev() {
        proj_dbl(&mut a, r, r, b3);
        proj_add(&mut a, t, r, [x, y, one], b3);
        a.bit(bit, s, k);
        for c in 0..3 {
            F::cmov(&mut a, r[c], t[c], bit);
        }
    }
    for c in r {
        F::output(&mut a, c);
    }
    a.finish()
}

/// Per thread: the sum of [`SUM_RANGE`] projective points (Montgomery
/// form), out the same way.
pub(crate) fn sum<const N: usize, F: Coord<N>>(p: Limbs<N>, xi0: u32, b3: fn(&mut Asm<N>) -> F) -> Program {
    let mut a = Asm::new(p, xi0);
    let points: Vec<Proj<F>> = (0..SUM_RANGE)
        .map(|_| [F::load(&mut a), F::load(&mut a), F::load(&mut a)])
        .collect();
    let b3 = b3(&mut a);
    let acc = points[0];
    for q in &points[1..] {
        proj_add(&mut a, acc, acc, *q, b3);
    }
    for c in acc {
        F::output(&mut a, c);
    }
    a.finish()
}

/// Per thread: a projective point (Montgomery form) as 1 when finite (else
/// 0) and its affine coordinates, canonical.
pub(crate) fn affine<const N: usize, F: Coord<N>>(p: Limbs<N>, xi0: u32) -> Program {
    let mut a = Asm::new(p, xi0);
    let q = [F::load(&mut a), F::load(&mut a), F::load(&mut a)];
    let (zi, finite) = (F::new(&mut a), a.reg());
    let zero = F::zero(&mut a);
    F::eq(&mut a, finite, q[2], zero);
    a.not(finite, finite);
    F::inv(&mut a, zi, q[2]);
    a.output(finite);
    for c in [q[0], q[1]] {
        F::mul(&mut a, c, c, zi);
        F::canonical(&mut a, c, c);
        F::output(&mut a, c);
    }
    a.finish()
}
