// Short-Weierstrass curves y^2 = x^3 + a x + b over a 256-bit prime field,
// the curve a parameter: projective coordinates (x = X/Z, y = Y/Z, infinity
// (0 : 1 : 0)), every value in Montgomery form mod p. The point formulas are
// the complete ones of Renes, Costello and Batina (eprint 2015/1060) for the
// curve's shape, in a file of their own composed after this one
// (weierstrass_a0.wgsl: a = 0, secp256k1; weierstrass_am3.wgsl: a = -3,
// P-256): no special cases for P = Q, P = -Q or infinity on prime-order
// curves. Drivers inline every call, so the scalar multiplication calls
// each formula from one site in one loop. Composed after u256 and mont_mul.

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
// per bit from the top a doubling and, where a bit is set, one addition of
// G, Q or G + Q. proj_dbl and proj_add come from the curve shape's file
// (weierstrass_a0.wgsl or weierstrass_am3.wgsl); each has one call site.
fn double_mul(c: Curve, u1: U256, g: Proj, u2: U256, q: Proj) -> Proj {
    var acc = proj_infinity(c);
    var gq = proj_infinity(c);
    for (var k = 0u; k < 257u; k++) {
        var lhs = g;
        var rhs = q;
        if k > 0u {
            let i = 256u - k;
            acc = proj_dbl(c, acc);
            let sel = u256_bit(u1, i) | (u256_bit(u2, i) << 1u);
            if sel == 0u {
                continue;
            }
            lhs = acc;
            rhs = gq;
            if sel == 1u {
                rhs = g;
            } else if sel == 2u {
                rhs = q;
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
