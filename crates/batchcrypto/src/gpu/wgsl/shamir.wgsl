// u1 G + u2 Q by Shamir's trick over the full 256-bit scalars, for curves
// without an endomorphism (P-256): 256 doublings and on average 192
// additions. Composed after weierstrass.wgsl and the shape's formulas.

// u1 G + u2 Q (plain scalars): step 0 forms G + Q, then
// per bit from the top a doubling and, where a bit is set, one addition of
// G, Q or G + Q. proj_dbl and proj_add come from the curve shape's file
// (weierstrass_a0.wgsl or weierstrass_am3.wgsl); each has one call site.
fn double_mul(c: Curve, u1: U256, g: Proj, u2: U256, q: Proj) -> Proj {
    var e1 = u1;
    var e2 = u2;
    var acc = proj_infinity(c);
    var gq = proj_infinity(c);
    for (var k = 0u; k < 257u; k++) {
        var lhs = g;
        var rhs = q;
        if k > 0u {
            let i = 256u - k;
            acc = proj_dbl(c, acc);
            let sel = u256_bit(&e1, i) | (u256_bit(&e2, i) << 1u);
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
