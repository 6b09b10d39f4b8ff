// The group-generic part of the pairing curves' groups (BLS12-381's G1
// and G2, BN254's G2), rendered once per group by gpu/shaders.rs
// `group_layer` (GPoint, grp_, Field and field_ become G1Proj, g1_, Fp,
// fp_ or G2Proj, g2_, Fp2, fp2_). Composed after the curve's file
// (bls_curve.wgsl, bn254_pairing.wgsl: the constant k of its subgroup
// checks, K_TOP and k_bit) and the rendered point formulas (grp_add,
// grp_dbl).

fn grp_infinity() -> GPoint {
    return GPoint(field_zero(), field_one(), field_zero());
}

fn grp_is_infinity(p: GPoint) -> bool {
    return field_is_zero(p.z);
}

fn grp_neg(p: GPoint) -> GPoint {
    return GPoint(p.x, field_neg(p.y), p.z);
}

// Projective equality: X1 Z2 = X2 Z1 and Y1 Z2 = Y2 Z1 (both infinity, or
// neither and the same affine point).
fn grp_eq(p: GPoint, q: GPoint) -> bool {
    let pz = array<Field, 2>(p.z, q.z);
    let c = array<Field, 4>(p.x, q.x, p.y, q.y);
    var v: array<Field, 4>;
    for (var k = 0u; k < 4u * tower_one; k++) {
        v[k] = field_mul(c[k], pz[1u - k % 2u]);
    }
    return field_eq(v[0], v[1]) && field_eq(v[2], v[3]) && grp_is_infinity(p) == grp_is_infinity(q);
}

// [k] p for the curve's public constant k (BLS12-381: |x|; BN254: 6 x^2),
// by double and add from its top bit K_TOP.
fn grp_times_k(p: GPoint) -> GPoint {
    var r = p;
    for (var j = 0u; j < K_TOP * tower_one; j++) {
        r = grp_dbl(r);
        if k_bit(K_TOP - 1u - j) {
            r = grp_add(r, p);
        }
    }
    return r;
}
