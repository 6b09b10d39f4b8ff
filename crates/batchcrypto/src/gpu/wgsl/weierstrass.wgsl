// Short-Weierstrass curves y^2 = x^3 + a x + b over a 256-bit prime field,
// the curve a parameter: projective coordinates (x = X/Z, y = Y/Z, infinity
// (0 : 1 : 0)), every value in Montgomery form mod p. The point formulas are
// the complete ones of Renes, Costello and Batina (eprint 2015/1060) for the
// curve's shape, in a file of their own composed after this one
// (weierstrass_a0.wgsl: a = 0, secp256k1; weierstrass_am3.wgsl: a = -3,
// P-256): no special cases for P = Q, P = -Q or infinity on prime-order
// curves. The double scalar multiplication u1 G + u2 Q comes from
// double_add.wgsl or, on curves with an endomorphism, glv.wgsl. Drivers inline every call,
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

// base^exp mod m (Montgomery form in and out) with fixed 4-bit windows:
// table[j] = base^j (14 multiplications), then per window from the top four
// squarings and one multiplication by table[window] (by one where the
// window is zero): 256 + 64 + 14 multiplications for any exponent, against
// 256 + popcount(exp) bit by bit (p - 2 of secp256k1 has 249 bits set).
fn mont_pow(base: U256, exp: U256, one: U256, m: U256, inv: u32) -> U256 {
    var table: array<U256, 16>;
    table[0] = one;
    table[1] = base;
    for (var j = 2u; j < 16u; j++) {
        table[j] = mont_mul(table[j - 1u], base, m, inv);
    }
    var e = exp;
    var r = one;
    for (var k = 0u; k < 320u; k++) {
        let w = k / 5u;
        var other = r;
        if k % 5u == 4u {
            other = table[(e[7u - w / 8u] >> (28u - 4u * (w % 8u))) & 15u];
        }
        r = mont_mul(r, other, m, inv);
    }
    return r;
}

// x^3 + a x + b (Montgomery form).
fn curve_rhs(c: Curve, x: U256) -> U256 {
    return fadd(c, fmul(c, fadd(c, fmul(c, x, x), c.a), x), c.b);
}
