// Short-Weierstrass curves y^2 = x^3 + a x + b over a 256-bit prime field,
// the curve a parameter: projective coordinates (x = X/Z, y = Y/Z, infinity
// (0 : 1 : 0)), every value in Montgomery form mod p, and the complete
// addition law of Renes, Costello and Batina (eprint 2015/1060, Algorithm
// 1), which also doubles and needs no special cases on prime-order curves.
// Drivers inline every call, so the scalar multiplication calls the
// addition from one site in one loop. Composed after u256 and mont_mul.

struct Curve {
    p: U256,
    pinv: u32,
    n: U256,
    ninv: u32,
    // Montgomery forms mod p.
    a: U256,
    b: U256,
    b3: U256,
    one: U256,
    // Montgomery one mod n.
    n_one: U256,
}

struct Proj {
    x: U256,
    y: U256,
    z: U256,
}

fn fmul(c: Curve, x: U256, y: U256) -> U256 {
    return mont_mul(x, y, c.p, c.pinv);
}

fn fadd(c: Curve, x: U256, y: U256) -> U256 {
    return mont_add(x, y, c.p);
}

fn fsub(c: Curve, x: U256, y: U256) -> U256 {
    return mont_sub(x, y, c.p);
}

fn proj_infinity(c: Curve) -> Proj {
    var zero: U256;
    return Proj(zero, c.one, zero);
}

// P + Q for any P, Q (P = Q, P = -Q and infinities included): 12 M + 3 m_a + 2 m_3b.
fn proj_add(c: Curve, p: Proj, q: Proj) -> Proj {
    var t0 = fmul(c, p.x, q.x);
    var t1 = fmul(c, p.y, q.y);
    var t2 = fmul(c, p.z, q.z);
    var t3 = fmul(c, fadd(c, p.x, p.y), fadd(c, q.x, q.y));
    var t4 = fadd(c, t0, t1);
    t3 = fsub(c, t3, t4);
    t4 = fmul(c, fadd(c, p.x, p.z), fadd(c, q.x, q.z));
    var t5 = fadd(c, t0, t2);
    t4 = fsub(c, t4, t5);
    t5 = fmul(c, fadd(c, p.y, p.z), fadd(c, q.y, q.z));
    var x3 = fadd(c, t1, t2);
    t5 = fsub(c, t5, x3);
    var z3 = fmul(c, c.a, t4);
    x3 = fmul(c, c.b3, t2);
    z3 = fadd(c, x3, z3);
    x3 = fsub(c, t1, z3);
    z3 = fadd(c, t1, z3);
    var y3 = fmul(c, x3, z3);
    t1 = fadd(c, fadd(c, t0, t0), t0);
    t2 = fmul(c, c.a, t2);
    t4 = fmul(c, c.b3, t4);
    t1 = fadd(c, t1, t2);
    t2 = fmul(c, c.a, fsub(c, t0, t2));
    t4 = fadd(c, t4, t2);
    t0 = fmul(c, t1, t4);
    y3 = fadd(c, y3, t0);
    t0 = fmul(c, t5, t4);
    x3 = fsub(c, fmul(c, t3, x3), t0);
    t0 = fmul(c, t3, t1);
    z3 = fadd(c, fmul(c, t5, z3), t0);
    return Proj(x3, y3, z3);
}

// base^exp mod m (Montgomery form in and out), square and multiply.
fn mont_pow(base: U256, exp: U256, one: U256, m: U256, inv: u32) -> U256 {
    var r = one;
    for (var i = 255i; i >= 0i; i--) {
        r = mont_mul(r, r, m, inv);
        if u256_bit(exp, u32(i)) == 1u {
            r = mont_mul(r, base, m, inv);
        }
    }
    return r;
}

// x^3 + a x + b (Montgomery form).
fn curve_rhs(c: Curve, x: U256) -> U256 {
    return fadd(c, fmul(c, fadd(c, fmul(c, x, x), c.a), x), c.b);
}

// u1 G + u2 Q (plain scalars) by Shamir's trick: step 0 forms G + Q, then
// per bit from the top a doubling and, where a bit is set, one addition —
// every step the same call of proj_add.
fn double_mul(c: Curve, u1: U256, g: Proj, u2: U256, q: Proj) -> Proj {
    var acc = proj_infinity(c);
    var gq = proj_infinity(c);
    for (var k = 0u; k < 513u; k++) {
        var lhs = g;
        var rhs = q;
        if k > 0u {
            let i = 255u - (k - 1u) / 2u;
            lhs = acc;
            rhs = acc;
            if ((k - 1u) & 1u) == 1u {
                let sel = u256_bit(u1, i) | (u256_bit(u2, i) << 1u);
                if sel == 0u {
                    continue;
                }
                rhs = gq;
                if sel == 1u {
                    rhs = g;
                } else if sel == 2u {
                    rhs = q;
                }
            }
        }
        let sum = proj_add(c, lhs, rhs);
        if k == 0u {
            gq = sum;
        } else {
            acc = sum;
        }
    }
    return acc;
}
