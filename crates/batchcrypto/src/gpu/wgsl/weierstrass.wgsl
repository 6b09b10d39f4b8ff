// Short-Weierstrass curves y^2 = x^3 + a x + b over a 256-bit prime field,
// the curve a parameter: projective coordinates (x = X/Z, y = Y/Z, infinity
// (0 : 1 : 0)), every value in Montgomery form mod p. The point formulas are
// the complete ones of Renes, Costello and Batina (eprint 2015/1060) for the
// curve's shape, in a file of their own composed after this one
// (weierstrass_a0.wgsl: a = 0, secp256k1; weierstrass_am3.wgsl: a = -3,
// P-256): no special cases for P = Q, P = -Q or infinity on prime-order
// curves. The double scalar multiplication u1 G + u2 Q comes from shamir.wgsl
// or, on curves with an endomorphism, glv.wgsl. Drivers inline every call,
// so each calls each formula from one site in one loop. Composed after u256
// and mont_mul.

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
    // The endomorphism (phi(x, y) = (beta x, y) = lambda (x, y)) and the
    // scalar split constants of glv.wgsl, for curves that have one: beta
    // mod p, lambda, -b1 and -b2 mod n in Montgomery form, g1 and g2 plain.
    beta: U256,
    lambda: U256,
    minus_b1: U256,
    minus_b2: U256,
    g1: U256,
    g2: U256,
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
