// u1 G + u2 Q for curves without an endomorphism (P-256): u2 Q by double
// and add over the 256 bits of u2 (256 doublings, on average 128
// additions), then u1 G as the sum of 32 points of the fixed-base table
// (j 2^(8w) G for the bytes j of u1; g_table_point comes from the kernel).
// One call site for each formula. Composed after weierstrass.wgsl and the
// shape's formulas.

fn double_mul(c: Curve, u1: U256, u2: U256, q: Proj) -> Proj {
    var e1 = u1;
    var e2 = u2;
    var acc = proj_infinity(c);
    for (var k = 0u; k < 288u; k++) {
        var rhs = q;
        if k < 256u {
            acc = proj_dbl(c, acc);
            if u256_bit(&e2, 255u - k) == 0u {
                continue;
            }
        } else {
            let w = k - 256u;
            let j = (e1[w >> 2u] >> ((w & 3u) * 8u)) & 0xffu;
            if j == 0u {
                continue;
            }
            rhs = g_table_point(c, w, j);
        }
        acc = proj_add(c, acc, rhs);
    }
    return acc;
}
