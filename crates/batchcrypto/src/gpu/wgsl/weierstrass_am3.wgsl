// Point formulas for curves with a = -3 (P-256): Renes, Costello and
// Batina, eprint 2015/1060, Algorithm 4 (complete addition, 12 M + 2 m_b)
// and Algorithm 6 (doubling, 8 M + 3 S + 2 m_b), step for step. Composed
// after weierstrass.wgsl.

fn proj_add(c: Curve, p: Proj, q: Proj) -> Proj {
    var t0 = fmul(c, p.x, q.x);
    var t1 = fmul(c, p.y, q.y);
    var t2 = fmul(c, p.z, q.z);
    let t3 = fsub(c, fmul(c, fadd(c, p.x, p.y), fadd(c, q.x, q.y)), fadd(c, t0, t1));
    let t4 = fsub(c, fmul(c, fadd(c, p.y, p.z), fadd(c, q.y, q.z)), fadd(c, t1, t2));
    var y3 = fsub(c, fmul(c, fadd(c, p.x, p.z), fadd(c, q.x, q.z)), fadd(c, t0, t2));
    var z3 = fmul(c, c.b, t2);
    var x3 = fsub(c, y3, z3);
    x3 = fadd(c, fadd(c, x3, x3), x3);
    z3 = fsub(c, t1, x3);
    x3 = fadd(c, t1, x3);
    y3 = fmul(c, c.b, y3);
    t2 = fadd(c, fadd(c, t2, t2), t2);
    y3 = fsub(c, fsub(c, y3, t2), t0);
    y3 = fadd(c, fadd(c, y3, y3), y3);
    t0 = fsub(c, fadd(c, fadd(c, t0, t0), t0), t2);
    let x3_out = fsub(c, fmul(c, t3, x3), fmul(c, t4, y3));
    let y3_out = fadd(c, fmul(c, x3, z3), fmul(c, t0, y3));
    let z3_out = fadd(c, fmul(c, t4, z3), fmul(c, t3, t0));
    return Proj(x3_out, y3_out, z3_out);
}

fn proj_dbl(c: Curve, p: Proj) -> Proj {
    var t0 = fmul(c, p.x, p.x);
    let t1 = fmul(c, p.y, p.y);
    var t2 = fmul(c, p.z, p.z);
    var t3 = fmul(c, p.x, p.y);
    t3 = fadd(c, t3, t3);
    var z3 = fmul(c, p.x, p.z);
    z3 = fadd(c, z3, z3);
    var y3 = fsub(c, fmul(c, c.b, t2), z3);
    y3 = fadd(c, fadd(c, y3, y3), y3);
    var x3 = fsub(c, t1, y3);
    y3 = fmul(c, x3, fadd(c, t1, y3));
    x3 = fmul(c, x3, t3);
    t2 = fadd(c, fadd(c, t2, t2), t2);
    z3 = fsub(c, fsub(c, fmul(c, c.b, z3), t2), t0);
    z3 = fadd(c, fadd(c, z3, z3), z3);
    t0 = fsub(c, fadd(c, fadd(c, t0, t0), t0), t2);
    y3 = fadd(c, y3, fmul(c, t0, z3));
    t0 = fmul(c, p.y, p.z);
    t0 = fadd(c, t0, t0);
    x3 = fsub(c, x3, fmul(c, t0, z3));
    z3 = fmul(c, t0, t1);
    z3 = fadd(c, z3, z3);
    return Proj(x3, y3, fadd(c, z3, z3));
}
