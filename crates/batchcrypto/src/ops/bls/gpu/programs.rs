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
//!   hard part) and whether the result is one (gpu/pairing_vm.rs, shared
//!   with BN254).
//!
//! Every thread runs the whole program: work for a point at infinity or a
//! pair without a Miller loop is done and its result ignored by the host.

use std::sync::OnceLock;

use crate::gpu::bigint::{Limbs, from_hex, small};
use crate::gpu::curve::{BLS_X_ABS, BLS12_381_P, bls_constants, bls_hash_constants};
pub(crate) use crate::gpu::pairing_vm::RANGE;
use crate::gpu::pairing_vm::{
    self, Proj, add_flag, equals_affine, miller_add, miller_dbl, proj_add, proj_copy, proj_new, times,
};
use crate::gpu::tower_vm::{Asm, Fe, Fe2, Fe12, Program};

type A = Asm<12>;

/// Output of [`pairs`]: the flags' element (G1 on its curve 1, in G1 2,
/// G2 on its curve 4, in G2 8), then the Miller value's twelve.
pub(crate) const FLAG_G1_ON_CURVE: u32 = 1;
pub(crate) const FLAG_G1_IN_GROUP: u32 = 2;
pub(crate) const FLAG_G2_ON_CURVE: u32 = 4;
pub(crate) const FLAG_G2_IN_GROUP: u32 = 8;

fn p() -> Limbs<12> {
    from_hex(BLS12_381_P)
}

/// f <- f times the line evaluated at P = (px, py): the sparse element
/// c0 + c1 px v + c2 py v w (M-twist).
fn mul_line(a: &mut A, f: Fe12, line: [Fe2; 3], px: Fe, py: Fe) {
    let m = a.mark();
    let (l1, l2) = (a.reg2(), a.reg2());
    a.mul2_fp(l1, line[1], px);
    a.mul2_fp(l2, line[2], py);
    a.mul12_by_014(f, line[0], l1, l2);
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
    let zero = a.zero();
    // 3 b: 12 on E, 12 (1 + u) on E'.
    let b3_g1 = a.small(12);
    let b3_g2 = a.konst2([small(12), small(12)]);
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
        let t = proj_new(&mut a);
        times(&mut a, t, [x1, y1, one], BLS_X_ABS.into(), b3_g1);
        times(&mut a, t, t, BLS_X_ABS.into(), b3_g1);
        let beta = a.konst(&c.beta);
        a.mul(l, x1, beta);
        a.mul(l, l, beta);
        equals_affine(&mut a, flag, [l, y1], t, true);
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
        let b = a.konst2([small(4), small(4)]);
        a.add2(r, r, b);
        a.eq2(flag, l, r);
        add_flag(&mut a, flags, flag, 2);
        let t = proj_new(&mut a);
        times(&mut a, t, [x2, y2, [one, zero]], BLS_X_ABS.into(), b3_g2);
        let (psi_x, psi_y) = (a.konst2(c.psi_x), a.konst2(c.psi_y));
        a.conj2(l, x2);
        a.mul2(l, l, psi_x);
        a.conj2(r, y2);
        a.mul2(r, r, psi_y);
        equals_affine(&mut a, flag, [l, r], t, true);
        add_flag(&mut a, flags, flag, 3);
        a.release(m);
    }
    a.output(flags);
    // The Miller loop f_{|x|,Q}(P), conjugated (x < 0).
    let r = proj_new(&mut a);
    a.copy2(r[0], x2);
    a.copy2(r[1], y2);
    a.copy2(r[2], [one, zero]);
    let f = a.one12();
    let line = [a.reg2(), a.reg2(), a.reg2()];
    for bit in (0..63).rev() {
        a.sq12(f, f);
        miller_dbl(&mut a, &p(), r, line, b3_g2);
        mul_line(&mut a, f, line, x1, y1);
        if (BLS_X_ABS >> bit) & 1 == 1 {
            miller_add(&mut a, r, x2, y2, line);
            mul_line(&mut a, f, line, x1, y1);
        }
    }
    a.conj12(f, f);
    a.output12(f);
    a.finish()
}

/// Output of [`points`]: the flags' element (a point with this x exists 1,
/// it is in the group 2), then y's canonical coordinates.
pub(crate) const FLAG_ON_CURVE: u32 = 1;
pub(crate) const FLAG_IN_GROUP: u32 = 2;

/// flags = on + 2 in_group (EQ results).
fn point_flags(a: &mut A, on: Fe, in_group: Fe) -> Fe {
    let flags = a.reg();
    a.add(flags, in_group, in_group);
    a.add(flags, flags, on);
    flags
}

/// Decompression of a G1 point (the ZCash encoding blst reads: y from
/// x^3 + 4 by the square root a^((p+1)/4), its sign from the sort flag)
/// and its subgroup check.
fn build_points_g1() -> Program {
    let mut a = A::new(p(), 1);
    let c = bls_constants();
    let x = a.input();
    let sort = a.reg();
    a.load(sort);
    let (rhs, y, t, on) = (a.reg(), a.reg(), a.reg(), a.reg());
    a.mul(rhs, x, x);
    a.mul(rhs, rhs, x);
    let b = a.small(4);
    a.add(rhs, rhs, b);
    a.pow(y, rhs, &crate::gpu::curve::sqrt_exponent(&p()));
    a.mul(t, y, y);
    a.eq(on, t, rhs);
    // y <- -y when its sign differs from the encoding's.
    a.largest(t, y);
    a.eq(t, t, sort);
    a.not(t, t);
    let ny = a.reg();
    a.neg(ny, y);
    a.cmov(y, ny, t);
    // sigma^2(P) = -[x^2] P.
    let (one, b3) = (a.one(), a.small(12));
    let q = proj_new(&mut a);
    times(&mut a, q, [x, y, one], BLS_X_ABS.into(), b3);
    times(&mut a, q, q, BLS_X_ABS.into(), b3);
    let beta = a.konst(&c.beta);
    a.mul(t, x, beta);
    a.mul(t, t, beta);
    let in_group = a.reg();
    equals_affine(&mut a, in_group, [t, y], q, true);
    let flags = point_flags(&mut a, on, in_group);
    a.output(flags);
    a.canonical(y, y);
    a.output(y);
    a.finish()
}

/// Decompression of a G2 point (y from x^3 + 4 (1 + u) by Adj and
/// Rodriguez-Henriquez's square root for p = 3 mod 4, eprint 2012/685,
/// algorithm 9; its sign as blst takes it: that of y.c1, or of y.c0 when
/// y.c1 is zero) and its subgroup check.
fn build_points_g2() -> Program {
    let mut a = A::new(p(), 1);
    let c = bls_constants();
    let x = [a.input(), a.input()];
    let sort = a.reg();
    a.load(sort);
    let (one, zero) = (a.one(), a.zero());
    let (rhs, y, t) = (a.reg2(), a.reg2(), a.reg2());
    a.sq2(rhs, x);
    a.mul2(rhs, rhs, x);
    let b = a.konst2([small(4), small(4)]);
    a.add2(rhs, rhs, b);
    let on = a.reg();
    a.sqrt2(y, on, rhs);
    // The sign: y.c1's, or y.c0's when y.c1 = 0.
    let (sign, f) = (a.reg(), a.reg());
    a.largest(sign, y[1]);
    a.largest(f, y[0]);
    a.eq(t[0], y[1], zero);
    a.cmov(sign, f, t[0]);
    a.eq(f, sign, sort);
    a.not(f, f);
    a.neg2(t, y);
    a.cmov2(y, t, f);
    // psi(Q) = -[|x|] Q.
    let b3 = a.konst2([small(12), small(12)]);
    let q = proj_new(&mut a);
    times(&mut a, q, [x, y, [one, zero]], BLS_X_ABS.into(), b3);
    let (psi_x, psi_y) = (a.konst2(c.psi_x), a.konst2(c.psi_y));
    let r = a.reg2();
    a.conj2(t, x);
    a.mul2(t, t, psi_x);
    a.conj2(r, y);
    a.mul2(r, r, psi_y);
    let in_group = a.reg();
    equals_affine(&mut a, in_group, [t, r], q, true);
    let flags = point_flags(&mut a, on, in_group);
    a.output(flags);
    a.canonical(y[0], y[0]);
    a.canonical(y[1], y[1]);
    a.output(y[0]);
    a.output(y[1]);
    a.finish()
}

/// Per compressed point (inputs: x's canonical coordinates, then the sort
/// flag as the plain integer 0 or 1): the flags (FLAG_ON_CURVE,
/// FLAG_IN_GROUP), then y's canonical coordinates (meaningful when on the
/// curve); G2 with `g2`.
pub(crate) fn points(g2: bool) -> &'static Program {
    static P: [OnceLock<Program>; 2] = [OnceLock::new(), OnceLock::new()];
    P[usize::from(g2)].get_or_init(|| if g2 { build_points_g2() } else { build_points_g1() })
}

/// RFC 9380's sgn0 for F_p2 (section 4.1): the parity of c0, or of c1
/// when c0 is zero, into d.
fn sgn0(a: &mut A, d: Fe, x: Fe2) {
    let m = a.mark();
    let (c, z, s1) = (a.reg(), a.reg(), a.reg());
    let zero = a.zero();
    a.canonical(c, x[0]);
    a.bit(d, c, 0);
    a.canonical(c, x[1]);
    a.bit(s1, c, 0);
    a.eq(z, x[0], zero);
    // d + (z and s1): z + s1 = 2.
    a.add(z, z, s1);
    let two = a.raw(small(2));
    a.eq(z, z, two);
    a.add(d, d, z);
    a.release(m);
}

/// psi on a projective point of E': (conj(X) PSI_X : conj(Y) PSI_Y :
/// conj(Z)). d apart from q.
fn psi(a: &mut A, d: Proj<Fe2>, q: Proj<Fe2>) {
    let c = bls_constants();
    let (psi_x, psi_y) = (a.konst2(c.psi_x), a.konst2(c.psi_y));
    a.conj2(d[0], q[0]);
    a.mul2(d[0], d[0], psi_x);
    a.conj2(d[1], q[1]);
    a.mul2(d[1], d[1], psi_y);
    a.conj2(d[2], q[2]);
}

/// The simplified SWU map of u onto E2': y^2 = x^3 + A' x + B' (RFC 9380
/// section 6.6.2, the straight-line form), its affine point in (x, y).
fn map_to_iso(a: &mut A, x: Fe2, y: Fe2, u: Fe2) {
    let m = a.mark();
    let h = bls_hash_constants();
    let (one, zero) = (a.one(), a.zero());
    let (zu2, tv1, x2, t, rhs, y2) = (a.reg2(), a.reg2(), a.reg2(), a.reg2(), a.reg2(), a.reg2());
    let (f, ok1, ok2) = (a.reg(), a.reg(), a.reg());
    let z = a.konst2(h.z);
    a.sq2(zu2, u);
    a.mul2(zu2, zu2, z);
    a.sq2(tv1, zu2);
    a.add2(tv1, tv1, zu2);
    // x1 = -B/A (1 + 1/tv1), or B/(Z A) when tv1 = 0.
    a.inv2(t, tv1);
    a.add2(t, t, [one, zero]);
    let mba = a.konst2(h.minus_b_over_a);
    a.mul2(x, t, mba);
    a.eq2(f, tv1, [zero, zero]);
    let bza = a.konst2(h.b_over_za);
    a.cmov2(x, bza, f);
    a.mul2(x2, zu2, x);
    // x1 when its right-hand side is a square, else x2 (whose is).
    let (ca, cb) = (a.konst2(h.a), a.konst2(h.b));
    let rhs_of = |a: &mut A, v: Fe2| {
        a.sq2(rhs, v);
        a.add2(rhs, rhs, ca);
        a.mul2(rhs, rhs, v);
        a.add2(rhs, rhs, cb);
    };
    rhs_of(a, x);
    a.sqrt2(y, ok1, rhs);
    rhs_of(a, x2);
    a.sqrt2(y2, ok2, rhs);
    a.not(f, ok1);
    a.cmov2(x, x2, f);
    a.cmov2(y, y2, f);
    // The sign of y is u's.
    let (su, sy) = (a.reg(), a.reg());
    sgn0(a, su, u);
    sgn0(a, sy, y);
    a.eq(f, su, sy);
    a.not(f, f);
    a.neg2(t, y);
    a.cmov2(y, t, f);
    a.release(m);
}

/// The 3-isogeny E2' -> E' (RFC 9380 appendix E.3) in projective form:
/// (x_num y_den : y y_num x_den : x_den y_den), infinity where a
/// denominator vanishes.
fn iso_map(a: &mut A, d: Proj<Fe2>, x: Fe2, y: Fe2) {
    let m = a.mark();
    let h = bls_hash_constants();
    let v: [Fe2; 4] = std::array::from_fn(|_| a.reg2());
    // x_num, x_den, y_num, y_den at x by Horner, highest coefficient first.
    for (j, vj) in v.iter().enumerate() {
        let top = a.konst2(h.iso[4 * j + 3]);
        a.copy2(*vj, top);
        for k in (0..3).rev() {
            a.mul2(*vj, *vj, x);
            let c = a.konst2(h.iso[4 * j + k]);
            a.add2(*vj, *vj, c);
        }
    }
    a.mul2(d[0], v[0], v[3]);
    a.mul2(d[1], y, v[2]);
    a.mul2(d[1], d[1], v[1]);
    a.mul2(d[2], v[1], v[3]);
    let (one, zero) = (a.one(), a.zero());
    let f = a.reg();
    a.eq2(f, d[2], [zero, zero]);
    a.cmov2(d[0], [zero, zero], f);
    a.cmov2(d[1], [one, zero], f);
    a.release(m);
}

/// Per message (inputs u0 and u1 of hash_to_field, F_p2 each, Montgomery
/// form, from the `bls_hash` kernel): H(m) = clear_cofactor(iso(SWU(u0)) +
/// iso(SWU(u1))), out as 1 when finite (else 0) and its affine x and y
/// (canonical), as blst's hash_to_g2 (RFC 9380's BLS12381G2_XMD:SHA-256_
/// SSWU_RO_, clear_cofactor by h_eff as appendix G.3: psi(psi(2P)) -
/// psi(P) + [x]([x]P + psi(P)) - [x]P - P with x the negative parameter).
fn build_map_to_g2() -> Program {
    let mut a = A::new(p(), 1);
    let u: [Fe2; 2] = std::array::from_fn(|_| {
        let c = [a.reg(), a.reg()];
        a.load(c[0]);
        a.load(c[1]);
        c
    });
    let b3 = a.konst2([small(12), small(12)]);
    let (x, y) = (a.reg2(), a.reg2());
    let (sum, q) = (proj_new(&mut a), proj_new(&mut a));
    for (k, uk) in u.iter().enumerate() {
        map_to_iso(&mut a, x, y, *uk);
        iso_map(&mut a, if k == 0 { sum } else { q }, x, y);
    }
    proj_add(&mut a, sum, sum, q, b3);
    // clear_cofactor: t = -[|x|] p = [x] p; a = t; t = [x](a + psi(p)).
    let (psi_p, t, ax) = (proj_new(&mut a), proj_new(&mut a), proj_new(&mut a));
    psi(&mut a, psi_p, sum);
    times(&mut a, t, sum, BLS_X_ABS.into(), b3);
    a.neg2(t[1], t[1]);
    proj_copy(&mut a, ax, t);
    proj_add(&mut a, t, ax, psi_p, b3);
    times(&mut a, t, t, BLS_X_ABS.into(), b3);
    a.neg2(t[1], t[1]);
    // acc = psi(psi(2p)) - psi(p) + t - a - p.
    let acc = proj_new(&mut a);
    proj_add(&mut a, q, sum, sum, b3);
    psi(&mut a, acc, q);
    psi(&mut a, q, acc);
    a.neg2(psi_p[1], psi_p[1]);
    a.neg2(ax[1], ax[1]);
    a.neg2(sum[1], sum[1]);
    proj_add(&mut a, q, q, psi_p, b3);
    proj_add(&mut a, q, q, t, b3);
    proj_add(&mut a, q, q, ax, b3);
    proj_add(&mut a, q, q, sum, b3);
    // Affine.
    let (zi, finite) = (a.reg2(), a.reg());
    let zero = a.zero();
    a.eq2(finite, q[2], [zero, zero]);
    a.not(finite, finite);
    a.inv2(zi, q[2]);
    a.output(finite);
    for c in [q[0], q[1]] {
        a.mul2(c, c, zi);
        a.canonical(c[0], c[0]);
        a.canonical(c[1], c[1]);
        a.output(c[0]);
        a.output(c[1]);
    }
    a.finish()
}

pub(crate) fn map_to_g2() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(build_map_to_g2)
}

/// The programs of sums of scaled points in G1 or G2 (`g2`)
/// (gpu/pairing_vm.rs): [s] P for scalars of 256 bits, of 64 bits and of
/// one bit (a point as it is), the sum of SUM_RANGE points, the affine
/// form.
pub(crate) struct SumPrograms {
    pub(crate) scale256: Program,
    pub(crate) scale64: Program,
    pub(crate) scale1: Program,
    pub(crate) sum: Program,
    pub(crate) affine: Program,
}

fn sum_programs_of<F: pairing_vm::Coord<12>>(b3: fn(&mut A) -> F) -> SumPrograms {
    SumPrograms {
        scale256: pairing_vm::scale::<12, F>(p(), 1, b3, 256),
        scale64: pairing_vm::scale::<12, F>(p(), 1, b3, 64),
        scale1: pairing_vm::scale::<12, F>(p(), 1, b3, 1),
        sum: pairing_vm::sum::<12, F>(p(), 1, b3),
        affine: pairing_vm::affine::<12, F>(p(), 1),
    }
}

pub(crate) fn sum_programs(g2: bool) -> &'static SumPrograms {
    static P: [OnceLock<SumPrograms>; 2] = [OnceLock::new(), OnceLock::new()];
    P[usize::from(g2)].get_or_init(|| {
        if g2 {
            sum_programs_of::<Fe2>(|a| a.konst2([small(12), small(12)]))
        } else {
            sum_programs_of::<Fe>(|a| a.small(12))
        }
    })
}

/// Per pair (inputs P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0, Q.y.c1, canonical):
/// the flags (FLAG_*), then the Miller value (twelve elements, arkworks'
/// coefficient order, Montgomery form).
pub(crate) fn pairs() -> &'static Program {
    static P: OnceLock<Program> = OnceLock::new();
    P.get_or_init(build_pairs)
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
    use crate::gpu::shaders::Tower;
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

    pub(crate) fn random_fr(rng: &mut StdRng) -> Fr {
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
    pub(crate) fn g1_off_subgroup(rng: &mut StdRng) -> G1Affine {
        loop {
            if let Some(p) = G1Affine::get_point_from_x_unchecked(random_fq(rng), rng.random()) {
                return p;
            }
        }
    }

    /// A point of E'(F_p2) with a random x (almost never in G2).
    pub(crate) fn g2_off_subgroup(rng: &mut StdRng) -> G2Affine {
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
            let program = pairing_vm::product_program(Tower::Bls12381, check);
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
    use crate::gpu::tower_vm::{self, Spread};

    /// The pairs and product programs on the device against arkworks, as
    /// written (one lane) and spread over lanes (what a hardware GPU runs
    /// for few items; the software rasteriser runs one lane otherwise).
    #[test]
    fn device_runs_the_pairs_and_product_programs_as_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let pairs = hostile_pairs(7, 12);
        let input: Vec<u32> = pairs.iter().flat_map(|(p, q)| pair_words(p, q)).collect();
        let product = |check| pairing_vm::product_program(Tower::Bls12381, check);
        for spread in [Spread::Narrow, Spread::Wide] {
            let t = std::time::Instant::now();
            let got =
                tower_vm::run_with(&gpu, "bls_pairs", Tower::Bls12381, super::pairs(), &input, spread).expect("pairs");
            eprintln!("pairs ({spread:?}): {}, {:?}", describe(super::pairs()), t.elapsed());
            assert_eq!(got.len(), pairs.len());
            for (n, ((p, q), got)) in pairs.iter().zip(&got).enumerate() {
                assert_eq!(*got, expected_pair(p, q), "pair {n} ({spread:?})");
            }
            for check in [false, true] {
                let cases = product_cases(11);
                let input: Vec<u32> = cases.iter().flat_map(|v| product_words(v)).collect();
                let t = std::time::Instant::now();
                let got = tower_vm::run_with(&gpu, "bls_final", Tower::Bls12381, product(check), &input, spread)
                    .expect("product");
                eprintln!(
                    "product({check}, {spread:?}): {}, {:?}",
                    describe(product(check)),
                    t.elapsed()
                );
                assert_eq!(got.len(), cases.len());
                for (k, (values, got)) in cases.iter().zip(&got).enumerate() {
                    assert_eq!(
                        *got,
                        expected_product(values, check),
                        "check {check} case {k} ({spread:?})"
                    );
                }
                if check {
                    assert_eq!(got[0][0], 1, "e(P, Q) e(-P, Q) = 1");
                }
            }
        }
    }

    fn describe(program: &tower_vm::Program) -> String {
        let wide = program.wide().map_or("no wide code".into(), |w| {
            format!("{} lanes: {} bundles, {} registers", w.lanes, w.bundles(), w.regs)
        });
        format!(
            "{} instructions, {} registers; {wide}",
            program.instructions(),
            program.narrow.regs
        )
    }
}
