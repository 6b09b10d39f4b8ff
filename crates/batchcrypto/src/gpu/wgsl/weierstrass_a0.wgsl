// Point formulas for curves with a = 0 (secp256k1): Renes, Costello and
// Batina, eprint 2015/1060, Algorithm 7 (complete addition, 12 M + 2 m_3b),
// Algorithm 8 (mixed addition of an affine point, 11 M + 2 m_3b) and
// Algorithm 9 (doubling, 6 M + 2 S + 1 m_3b), step for step. Composed
// after weierstrass.wgsl.

fn proj_add(c: Curve, p: Proj, q: Proj) -> Proj {
    var t0 = fmul(c, p.x, q.x);
    var t1 = fmul(c, p.y, q.y);
    var t2 = fmul(c, p.z, q.z);
    var t3 = fsub(c, fmul(c, fadd(c, p.x, p.y), fadd(c, q.x, q.y)), fadd(c, t0, t1));
    var t4 = fsub(c, fmul(c, fadd(c, p.y, p.z), fadd(c, q.y, q.z)), fadd(c, t1, t2));
    var y3 = fsub(c, fmul(c, fadd(c, p.x, p.z), fadd(c, q.x, q.z)), fadd(c, t0, t2));
    t0 = fadd(c, fadd(c, t0, t0), t0);
    t2 = fmul(c, c.b3, t2);
    var z3 = fadd(c, t1, t2);
    t1 = fsub(c, t1, t2);
    y3 = fmul(c, c.b3, y3);
    var x3 = fsub(c, fmul(c, t3, t1), fmul(c, t4, y3));
    y3 = fadd(c, fmul(c, t1, z3), fmul(c, y3, t0));
    z3 = fadd(c, fmul(c, z3, t4), fmul(c, t0, t3));
    return Proj(x3, y3, z3);
}

// p + q for q = (x, y, 1), an affine point that is not the identity
// (Algorithm 7 with Z2 = 1: q.z is not read); complete for every p.
fn proj_add_affine(c: Curve, p: Proj, q: Proj) -> Proj {
    var t0 = fmul(c, p.x, q.x);
    var t1 = fmul(c, p.y, q.y);
    var t3 = fsub(c, fmul(c, fadd(c, q.x, q.y), fadd(c, p.x, p.y)), fadd(c, t0, t1));
    let t4 = fadd(c, fmul(c, q.y, p.z), p.y);
    var y3 = fadd(c, fmul(c, q.x, p.z), p.x);
    t0 = fadd(c, fadd(c, t0, t0), t0);
    let t2 = fmul(c, c.b3, p.z);
    var z3 = fadd(c, t1, t2);
    t1 = fsub(c, t1, t2);
    y3 = fmul(c, c.b3, y3);
    var x3 = fsub(c, fmul(c, t3, t1), fmul(c, t4, y3));
    y3 = fadd(c, fmul(c, t1, z3), fmul(c, y3, t0));
    z3 = fadd(c, fmul(c, z3, t4), fmul(c, t0, t3));
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
