// BLS12-381's groups for the BLS12-381 MSM kernels (issues 15 and 18): G1
// on E: y^2 = x^3 + 4 over F_p and G2 on the twist E': y^2 = x^3 +
// 4 (1 + u) over F_p2, in homogeneous projective coordinates (x = X/Z,
// y = Y/Z, infinity (0 : 1 : 0)). The point formulas are the complete ones
// of Renes, Costello and Batina for a = 0 (wgsl/weierstrass_a0.wgsl, the
// secp256k1 kernels' file, rendered here once per group by
// gpu/shaders.rs): complete on curves without points of order two, which
// holds for both, so every thread runs the same code. (Decompression,
// subgroup checks and the pairings are tower-machine programs,
// ops/bls/gpu/programs.rs.) Composed after fp2.wgsl; the group-generic
// code (wgsl/bls_group.wgsl) follows.

struct G1Proj {
    x: Fp,
    y: Fp,
    z: Fp,
}

struct G2Proj {
    x: Fp2,
    y: Fp2,
    z: Fp2,
}

// 3 b for G1: 12 a, by additions.
fn fp_times_b3(a: Fp) -> Fp {
    let a2 = fp_add(a, a);
    let a3 = fp_add(a2, a);
    let a6 = fp_add(a3, a3);
    return fp_add(a6, a6);
}

// 3 b for G2: 12 (1 + u) a.
fn fp2_times_b3(a: Fp2) -> Fp2 {
    let t = fp2_mul_by_xi(a);
    return Fp2(fp_times_b3(t.c0), fp_times_b3(t.c1));
}
