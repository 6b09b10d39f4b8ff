// BLS12-381's groups for the signature kernels (issue 15): G1 on
// E: y^2 = x^3 + 4 over F_p and G2 on the twist E': y^2 = x^3 + 4 (1 + u)
// over F_p2, in homogeneous projective coordinates (x = X/Z, y = Y/Z,
// infinity (0 : 1 : 0)). The point formulas are the complete ones of
// Renes, Costello and Batina for a = 0 (wgsl/weierstrass_a0.wgsl, the
// secp256k1 kernels' file, rendered here once per group by gpu/shaders.rs):
// they are complete on curves without points of order two, which holds for
// both (the orders of E(F_p) and E'(F_p2) are odd), so hostile inputs of
// small order need no special cases, and every thread runs the same code.
// Composed after fp2.wgsl and the constants of gpu/curve.rs
// `bls_curve_wgsl`; the group-generic code (wgsl/bls_group.wgsl) follows.

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

// Bit i of |x| (BLS_X_HI, BLS_X_LO), i < 64.
fn bls_x_bit(i: u32) -> bool {
    let word = select(BLS_X_LO, BLS_X_HI, i >= 32u);
    return ((word >> (i % 32u)) & 1u) == 1u;
}

// The subgroup checks' constant k = |x| for bls_group.wgsl's grp_times_k:
// its top bit and its bits.
const K_TOP: u32 = 63u;

fn k_bit(i: u32) -> bool {
    return bls_x_bit(i);
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

// G1's endomorphism sigma(x, y) = (beta x, y) applied twice: sigma^2 acts on
// G1 as [-x^2] (see gpu/curve.rs for beta).
fn g1_sigma2(p: G1Proj) -> G1Proj {
    return G1Proj(fp_mul(fp_mul(p.x, BLS_BETA), BLS_BETA), p.y, p.z);
}

// G2's psi(x, y) = (conj(x) PSI_X, conj(y) PSI_Y); projectively Z is
// conjugated too. psi acts on G2 as [x].
fn g2_psi(p: G2Proj) -> G2Proj {
    return G2Proj(
        fp2_mul(fp2_conj(p.x), Fp2(BLS_PSI_X_C0, BLS_PSI_X_C1)),
        fp2_mul(fp2_conj(p.y), Fp2(BLS_PSI_Y_C0, BLS_PSI_Y_C1)),
        fp2_conj(p.z),
    );
}

// Membership tests of Scott (eprint 2021/1130), as blst makes them, for
// points already known to be on their curve: P in G1 iff
// sigma^2(P) = -[x^2] P = -[|x|]([|x|] P); Q in G2 iff psi(Q) = [x] Q =
// -[|x|] Q (x < 0). Infinity passes both.
fn g1_in_subgroup(p: G1Proj) -> bool {
    var t = p;
    for (var k = 0u; k < 2u * tower_one; k++) {
        t = g1_times_k(t);
    }
    return g1_eq(g1_sigma2(p), g1_neg(t));
}

fn g2_in_subgroup(q: G2Proj) -> bool {
    return g2_eq(g2_psi(q), g2_neg(g2_times_k(q)));
}

// x^3 + b on E and on E' (Montgomery form).
fn g1_rhs(x: Fp) -> Fp {
    return fp_add(fp_mul(fp_sq(x), x), BLS_B);
}

fn g2_rhs(x: Fp2) -> Fp2 {
    return fp2_add(fp2_mul(fp2_sq(x), x), Fp2(BLS_B, BLS_B));
}

// Whether the affine (x, y) (Montgomery form) is on E or E'.
fn g1_on_curve(x: Fp, y: Fp) -> bool {
    return fp_eq(fp_sq(y), g1_rhs(x));
}

fn g2_on_curve(x: Fp2, y: Fp2) -> bool {
    return fp2_eq(fp2_sq(y), g2_rhs(x));
}

// Decompression (the ZCash encoding blst reads): the y of the point with
// this x whose sign (fp_is_largest, fp2_is_largest) is `largest`; ok when
// x^3 + b is a square, i.e. such a point exists. Flags and x < p are the
// host's to check.
struct G1Affine {
    ok: bool,
    x: Fp,
    y: Fp,
}

struct G2Affine {
    ok: bool,
    x: Fp2,
    y: Fp2,
}

fn g1_decompress(x: Fp, largest: bool) -> G1Affine {
    let root = fp_sqrt(g1_rhs(x));
    var y = root.r;
    if fp_is_largest(y) != largest {
        y = fp_neg(y);
    }
    return G1Affine(root.ok, x, y);
}

fn g2_decompress(x: Fp2, largest: bool) -> G2Affine {
    let root = fp2_sqrt(g2_rhs(x));
    var y = root.r;
    if fp2_is_largest(y) != largest {
        y = fp2_neg(y);
    }
    return G2Affine(root.ok, x, y);
}
