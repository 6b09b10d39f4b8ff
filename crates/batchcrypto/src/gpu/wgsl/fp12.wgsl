// The rest of a pairing tower (BLS12-381's, BN254's): F_p6 = F_p2[v] /
// (v^3 - xi) with xi = x0 + u (fp2_mul_by_xi), and F_p12 = F_p6[w] /
// (w^2 - v), the field of the pairing's values (the representation of
// arkworks and blst: c0 + c1 v + c2 v^2, c0 + c1 w). Multiplications by
// Karatsuba (Devegili, O hEigeartaigh, Scott and Dahab, "Multiplication
// and squaring on pairing-friendly fields", 2006), their products made in
// loops (bounded through tower_one, fp2.wgsl) so that each level holds one
// multiplication of the level below. Composed after fp2.wgsl.

struct Fp6 {
    c0: Fp2,
    c1: Fp2,
    c2: Fp2,
}

struct Fp12 {
    c0: Fp6,
    c1: Fp6,
}

fn fp6_add(a: Fp6, b: Fp6) -> Fp6 {
    return Fp6(fp2_add(a.c0, b.c0), fp2_add(a.c1, b.c1), fp2_add(a.c2, b.c2));
}

fn fp6_sub(a: Fp6, b: Fp6) -> Fp6 {
    return Fp6(fp2_sub(a.c0, b.c0), fp2_sub(a.c1, b.c1), fp2_sub(a.c2, b.c2));
}

fn fp6_neg(a: Fp6) -> Fp6 {
    return Fp6(fp2_neg(a.c0), fp2_neg(a.c1), fp2_neg(a.c2));
}

fn fp6_is_zero(a: Fp6) -> bool {
    return fp2_is_zero(a.c0) && fp2_is_zero(a.c1) && fp2_is_zero(a.c2);
}

// a v = xi a2 + a0 v + a1 v^2.
fn fp6_mul_by_v(a: Fp6) -> Fp6 {
    return Fp6(fp2_mul_by_xi(a.c2), a.c0, a.c1);
}

// Six F_p2 multiplications: v0 = a0 b0, v1 = a1 b1, v2 = a2 b2 and three
// cross products of sums.
fn fp6_mul(a: Fp6, b: Fp6) -> Fp6 {
    let l = array<Fp2, 6>(a.c0, a.c1, a.c2, fp2_add(a.c1, a.c2), fp2_add(a.c0, a.c1), fp2_add(a.c0, a.c2));
    let r = array<Fp2, 6>(b.c0, b.c1, b.c2, fp2_add(b.c1, b.c2), fp2_add(b.c0, b.c1), fp2_add(b.c0, b.c2));
    var v: array<Fp2, 6>;
    for (var k = 0u; k < 6u * tower_one; k++) {
        v[k] = fp2_mul(l[k], r[k]);
    }
    // c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2)
    // c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
    // c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1
    let c0 = fp2_add(v[0], fp2_mul_by_xi(fp2_sub(fp2_sub(v[3], v[1]), v[2])));
    let c1 = fp2_add(fp2_sub(fp2_sub(v[4], v[0]), v[1]), fp2_mul_by_xi(v[2]));
    let c2 = fp2_add(fp2_sub(fp2_sub(v[5], v[0]), v[2]), v[1]);
    return Fp6(c0, c1, c2);
}

// 1/a (0 for 0): with t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1,
// t2 = a1^2 - a0 a2, the norm d = a0 t0 + xi (a2 t1 + a1 t2) lies in F_p2
// and 1/a = (t0, t1, t2) / d. Products in three loops (one F_p2
// multiplication in the code).
fn fp6_inv(a: Fp6) -> Fp6 {
    let x = array<Fp2, 3>(a.c0, a.c1, a.c2);
    // Squares and cross products: a0^2, a1 a2, a2^2, a0 a1, a1^2, a0 a2.
    let li = array<u32, 6>(0u, 1u, 2u, 0u, 1u, 0u);
    let ri = array<u32, 6>(0u, 2u, 2u, 1u, 1u, 2u);
    var p: array<Fp2, 6>;
    for (var k = 0u; k < 6u * tower_one; k++) {
        p[k] = fp2_mul(x[li[k]], x[ri[k]]);
    }
    var t = array<Fp2, 3>(
        fp2_sub(p[0], fp2_mul_by_xi(p[1])),
        fp2_sub(fp2_mul_by_xi(p[2]), p[3]),
        fp2_sub(p[4], p[5]),
    );
    // a0 t0, a2 t1, a1 t2.
    let ni = array<u32, 3>(0u, 2u, 1u);
    var n: array<Fp2, 3>;
    for (var k = 0u; k < 3u * tower_one; k++) {
        n[k] = fp2_mul(x[ni[k]], t[k]);
    }
    let e = fp2_inv(fp2_add(n[0], fp2_mul_by_xi(fp2_add(n[1], n[2]))));
    for (var k = 0u; k < 3u * tower_one; k++) {
        t[k] = fp2_mul(t[k], e);
    }
    return Fp6(t[0], t[1], t[2]);
}

fn fp12_one() -> Fp12 {
    var r: Fp12;
    r.c0.c0.c0 = FP_ONE;
    return r;
}

fn fp12_eq(a: Fp12, b: Fp12) -> bool {
    return fp6_is_zero(fp6_sub(a.c0, b.c0)) && fp6_is_zero(fp6_sub(a.c1, b.c1));
}

// The conjugate a0 - a1 w: a^(p^6), the inverse on the cyclotomic subgroup.
fn fp12_conj(a: Fp12) -> Fp12 {
    return Fp12(a.c0, fp6_neg(a.c1));
}

// Three F_p6 multiplications: v0 = a0 b0, v1 = a1 b1,
// (a0 + a1)(b0 + b1); c0 = v0 + v1 v, c1 = the cross term.
fn fp12_mul(a: Fp12, b: Fp12) -> Fp12 {
    let l = array<Fp6, 3>(a.c0, a.c1, fp6_add(a.c0, a.c1));
    let r = array<Fp6, 3>(b.c0, b.c1, fp6_add(b.c0, b.c1));
    var v: array<Fp6, 3>;
    for (var k = 0u; k < 3u * tower_one; k++) {
        v[k] = fp6_mul(l[k], r[k]);
    }
    return Fp12(fp6_add(v[0], fp6_mul_by_v(v[1])), fp6_sub(fp6_sub(v[2], v[0]), v[1]));
}

// Two F_p6 multiplications ("complex squaring"): with m = a0 a1,
// c0 = (a0 + a1)(a0 + a1 v) - m - m v, c1 = 2 m.
fn fp12_sq(a: Fp12) -> Fp12 {
    let l = array<Fp6, 2>(a.c0, fp6_add(a.c0, a.c1));
    let r = array<Fp6, 2>(a.c1, fp6_add(a.c0, fp6_mul_by_v(a.c1)));
    var v: array<Fp6, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp6_mul(l[k], r[k]);
    }
    let m = v[0];
    return Fp12(fp6_sub(fp6_sub(v[1], m), fp6_mul_by_v(m)), fp6_add(m, m));
}

// 1/a = (a0 - a1 w) / (a0^2 - a1^2 v) (0 for 0); products in loops.
fn fp12_inv(a: Fp12) -> Fp12 {
    let x = array<Fp6, 2>(a.c0, a.c1);
    var v: array<Fp6, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp6_mul(x[k], x[k]);
    }
    let t = fp6_inv(fp6_sub(v[0], fp6_mul_by_v(v[1])));
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp6_mul(x[k], t);
    }
    return Fp12(v[0], fp6_neg(v[1]));
}
