// BN254's G1 (y^2 = x^3 + 3 over F_q, q a 254-bit prime; the group has
// prime order, cofactor one) for the group-generic kernels (the MSM of
// ops/msm/pippenger.wgsl), under the names the BLS12-381 layer gives its
// groups: the field Fq with fq_ functions, points BnProj with bn_ ones. F_q
// lives on the 256-bit Montgomery layer (u256.wgsl and the generated
// mont_mul, R = 2^256: the limbs are arkworks' own `Fq` representation).
// The point formulas are the complete a = 0 ones of weierstrass_a0.wgsl,
// rendered after this file by gpu/shaders.rs (no point of order two: the
// group's order is odd). CURVE_P, CURVE_PINV, CURVE_ONE and CURVE_B3 are
// rendered before it from gpu/curve.rs `weierstrass_wgsl`.

alias Fq = U256;

struct BnProj {
    x: Fq,
    y: Fq,
    z: Fq,
}

fn fq_zero() -> Fq {
    var z: Fq;
    return z;
}

fn fq_one() -> Fq {
    return CURVE_ONE;
}

fn fq_add(a: Fq, b: Fq) -> Fq {
    return mont_add(a, b, CURVE_P);
}

fn fq_sub(a: Fq, b: Fq) -> Fq {
    return mont_sub(a, b, CURVE_P);
}

fn fq_mul(a: Fq, b: Fq) -> Fq {
    return mont_mul(a, b, CURVE_P, CURVE_PINV);
}

fn fq_neg(a: Fq) -> Fq {
    return fq_sub(fq_zero(), a);
}

fn fq_times_b3(a: Fq) -> Fq {
    return fq_mul(a, CURVE_B3);
}

// The element as the parts the BLS12-381 layer's F_p2 has (one here), for
// code rendered for every group.
fn fq_parts(a: Fq) -> array<Fq, 2> {
    return array<Fq, 2>(a, fq_zero());
}

fn fq_from_parts(c: array<Fq, 2>) -> Fq {
    return c[0];
}

// F_q has no tower whose loops need the loop-guard parameter (see
// fp2.wgsl `tower_one`): nothing to set up.
fn tower_init(bound: u32) {}

fn bn_infinity() -> BnProj {
    return BnProj(fq_zero(), fq_one(), fq_zero());
}
