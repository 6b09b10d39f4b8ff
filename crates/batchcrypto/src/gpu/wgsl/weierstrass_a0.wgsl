// Point formulas for curves with a = 0 (secp256k1): Renes, Costello and
// Batina, eprint 2015/1060, Algorithm 7 (complete addition, 12 M + 2 m_3b),
// Algorithm 8 (mixed addition of an affine point, 11 M + 2 m_3b) and
// Algorithm 9 (doubling, 6 M + 2 S + 1 m_3b), step for step. Composed
// after weierstrass.wgsl.

fn proj_add(c: Curve, p: Proj, q: Proj) -> Proj {
    let t0 = fmul(c, p.x, q.x);
    let t1 = fmul(c, p.y, q.y);
    let t2 = fmul(c, p.z, q.z);
    let t3 = fsub(c, fmul(c, fadd(c, p.x, p.y), fadd(c, q.x, q.y)), fadd(c, t0, t1));
    let t4 = fsub(c, fmul(c, fadd(c, p.y, p.z), fadd(c, q.y, q.z)), fadd(c, t1, t2));
    let y3 = fsub(c, fmul(c, fadd(c, p.x, p.z), fadd(c, q.x, q.z)), fadd(c, t0, t2));
    return proj_add_end(c, Proj(t0, t1, t2), Proj(t3, t4, y3));
}

// p + q for q = (x, y, 1), an affine point that is not the identity
// (Algorithm 8: Algorithm 7 with Z2 = 1; q.z is not read); complete for
// every p.
fn proj_add_affine(c: Curve, p: Proj, q: Proj) -> Proj {
    let t0 = fmul(c, p.x, q.x);
    let t1 = fmul(c, p.y, q.y);
    let t3 = fsub(c, fmul(c, fadd(c, q.x, q.y), fadd(c, p.x, p.y)), fadd(c, t0, t1));
    let t4 = fadd(c, fmul(c, q.y, p.z), p.y);
    let y3 = fadd(c, fmul(c, q.x, p.z), p.x);
    return proj_add_end(c, Proj(t0, t1, p.z), Proj(t3, t4, y3));
}

// The steps both additions end with, from the products (t0, t1, t2) =
// (X1 X2, Y1 Y2, Z1 Z2) and the cross terms (t3, t4, y3) = (X1 Y2 + X2 Y1,
// Y1 Z2 + Y2 Z1, X1 Z2 + X2 Z1), each three packed as a point.
fn proj_add_end(c: Curve, products: Proj, cross: Proj) -> Proj {
    let t0 = fadd(c, fadd(c, products.x, products.x), products.x);
    let t2 = fmul(c, c.b3, products.z);
    var z3 = fadd(c, products.y, t2);
    let t1 = fsub(c, products.y, t2);
    var y3 = fmul(c, c.b3, cross.z);
    let x3 = fsub(c, fmul(c, cross.x, t1), fmul(c, cross.y, y3));
    y3 = fadd(c, fmul(c, t1, z3), fmul(c, y3, t0));
    z3 = fadd(c, fmul(c, z3, cross.y), fmul(c, t0, cross.x));
    return Proj(x3, y3, z3);
}

fn proj_dbl(c: Curve, p: Proj) -> Proj {
    var t0 = fmul(c, p.y, p.y);
    var z3 = fadd(c, t0, t0);
    z3 = fadd(c, z3, z3);
    z3 = fadd(c, z3, z3);
    var t1 = fmul(c, p.y, p.z);
    var t2 = fmul(c, c.b3, fmul(c, p.z, p.z));
    let x3 = fmul(c, t2, z3);
    var y3 = fadd(c, t0, t2);
    z3 = fmul(c, t1, z3);
    t2 = fadd(c, fadd(c, t2, t2), t2);
    t0 = fsub(c, t0, t2);
    y3 = fadd(c, x3, fmul(c, t0, y3));
    t1 = fmul(c, p.x, p.y);
    let x = fmul(c, t0, t1);
    return Proj(fadd(c, x, x), y3, z3);
}
