// The group-generic part of BLS12-381's groups G1 and G2 for the MSM
// kernels, rendered once per group by gpu/shaders.rs `group_layer`
// (GPoint, grp_, Field and field_ become G1Proj, g1_, Fp, fp_ or G2Proj,
// g2_, Fp2, fp2_). Composed after bls_curve.wgsl and the rendered point
// formulas (grp_add, grp_dbl).

fn grp_infinity() -> GPoint {
    return GPoint(field_zero(), field_one(), field_zero());
}

fn grp_is_infinity(p: GPoint) -> bool {
    return field_is_zero(p.z);
}

fn grp_neg(p: GPoint) -> GPoint {
    return GPoint(p.x, field_neg(p.y), p.z);
}
