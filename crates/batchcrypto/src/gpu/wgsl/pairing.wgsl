// The pairing steps over a tower (fp2.wgsl, fp12.wgsl) for BN254's WGSL
// kernels (BLS12-381's pairings are tower-machine programs,
// ops/bls/gpu/programs.rs): the Miller loop's doubling and addition steps
// with their lines, the Frobenius maps of F_p12 and an interpreter for
// F_p12 programs (the final exponentiations, gpu/fp12_program.rs). The
// steps are arkworks' (ark-ec's G2HomProjective, the same in its bls12 and
// bn models), so that the Miller loops' values are arkworks' exactly; the
// curve's own file evaluates the lines in its twist's shape and runs its
// loop (bn254_pairing.wgsl). Composed after the curve's fp2_times_b3 (3 b' for
// the twist's b'), fp2_mul_fp, the Frobenius constants FP12_FROB* (gpu/curve.rs
// `fp12_frobenius_wgsl`) and the program's constants (FP12_REGS, FP12_OP_*).

// A line through the Miller loop's point, before evaluation at P, in
// arkworks' M-twist order (c0, c1, c2): on an M-twist the coefficients of
// 1, v and v w with c1 still to be multiplied by P's x and c2 by P's y; a
// D-twist's curve takes them in its own order (bn254_pairing.wgsl).
struct Line {
    c0: Fp2,
    c1: Fp2,
    c2: Fp2,
}

// R <- 2 R and the tangent at R (arkworks G2HomProjective::double_in_place).
fn miller_dbl(r: ptr<function, G2Proj>) -> Line {
    let x = (*r).x;
    let y = (*r).y;
    let z = (*r).z;
    let a = fp2_mul_fp(fp2_mul(x, y), FP_TWO_INV);
    let b = fp2_sq(y);
    let c = fp2_sq(z);
    let e = fp2_times_b3(c);
    let f = fp2_add(fp2_add(e, e), e);
    let g = fp2_mul_fp(fp2_add(b, f), FP_TWO_INV);
    let h = fp2_sub(fp2_sq(fp2_add(y, z)), fp2_add(b, c));
    let i = fp2_sub(e, b);
    let j = fp2_sq(x);
    let e2 = fp2_sq(e);
    (*r).x = fp2_mul(a, fp2_sub(b, f));
    (*r).y = fp2_sub(fp2_sq(g), fp2_add(fp2_add(e2, e2), e2));
    (*r).z = fp2_mul(b, h);
    return Line(i, fp2_add(fp2_add(j, j), j), fp2_neg(h));
}

// R <- R + Q and the line through them (arkworks add_in_place); Q affine.
fn miller_add(r: ptr<function, G2Proj>, qx: Fp2, qy: Fp2) -> Line {
    let x = (*r).x;
    let y = (*r).y;
    let z = (*r).z;
    let theta = fp2_sub(y, fp2_mul(qy, z));
    let lambda = fp2_sub(x, fp2_mul(qx, z));
    let c = fp2_sq(theta);
    let d = fp2_sq(lambda);
    let e = fp2_mul(lambda, d);
    let f = fp2_mul(z, c);
    let g = fp2_mul(x, d);
    let h = fp2_sub(fp2_add(e, f), fp2_add(g, g));
    (*r).x = fp2_mul(lambda, h);
    (*r).y = fp2_sub(fp2_mul(theta, fp2_sub(g, h)), fp2_mul(e, y));
    (*r).z = fp2_mul(z, e);
    let j = fp2_sub(fp2_mul(theta, qx), fp2_mul(lambda, qy));
    return Line(j, fp2_neg(theta), lambda);
}

// a^(p^power) for power 1 or 2: each F_p2 coefficient conjugated when the
// power is odd, then the coefficient of w^k multiplied by the constant
// FP12_FROB<power>_k (gpu/curve.rs).
fn fp12_frob(a: Fp12, power: u32) -> Fp12 {
    // By k: w^0 = c0.c0, w = c1.c0, w^2 = v = c0.c1, w^3 = c1.c1, ...
    var c = array<Fp2, 6>(a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2);
    var g = array<Fp2, 6>(
        Fp2(FP12_FROB1_0_C0, FP12_FROB1_0_C1), Fp2(FP12_FROB1_1_C0, FP12_FROB1_1_C1),
        Fp2(FP12_FROB1_2_C0, FP12_FROB1_2_C1), Fp2(FP12_FROB1_3_C0, FP12_FROB1_3_C1),
        Fp2(FP12_FROB1_4_C0, FP12_FROB1_4_C1), Fp2(FP12_FROB1_5_C0, FP12_FROB1_5_C1),
    );
    if power == 2u {
        g = array<Fp2, 6>(
            Fp2(FP12_FROB2_0_C0, FP12_FROB2_0_C1), Fp2(FP12_FROB2_1_C0, FP12_FROB2_1_C1),
            Fp2(FP12_FROB2_2_C0, FP12_FROB2_2_C1), Fp2(FP12_FROB2_3_C0, FP12_FROB2_3_C1),
            Fp2(FP12_FROB2_4_C0, FP12_FROB2_4_C1), Fp2(FP12_FROB2_5_C0, FP12_FROB2_5_C1),
        );
    }
    for (var k = 0u; k < 6u * tower_one; k++) {
        var x = c[k];
        if power == 1u {
            x = fp2_conj(x);
        }
        c[k] = fp2_mul(x, g[k]);
    }
    return Fp12(Fp6(c[0], c[2], c[4]), Fp6(c[1], c[3], c[5]));
}

// Runs instructions start..end of an F_p12 program over FP12_REGS registers.
// An instruction is op | dst << 8 | a << 16 | b << 24 (gpu/fp12_program.rs);
// one site per operation, however long the program.
fn fp12_run(regs: ptr<function, array<Fp12, FP12_REGS>>, program: ptr<function, array<u32, FP12_PROGRAM_LEN>>, start: u32, end: u32) {
    for (var k = start; k < end; k++) {
        let ins = (*program)[k];
        let x = (*regs)[((ins >> 16u) & 0xffu) % FP12_REGS];
        var out = x;
        switch ins & 0xffu {
            case FP12_OP_MUL: {
                out = fp12_mul(x, (*regs)[(ins >> 24u) % FP12_REGS]);
            }
            case FP12_OP_SQ: {
                out = fp12_sq(x);
            }
            case FP12_OP_CONJ: {
                out = fp12_conj(x);
            }
            case FP12_OP_FROB1, FP12_OP_FROB2: {
                out = fp12_frob(x, 1u + (ins & 0xffu) - FP12_OP_FROB1);
            }
            case FP12_OP_INV: {
                out = fp12_inv(x);
            }
            default: {}
        }
        (*regs)[((ins >> 8u) & 0xffu) % FP12_REGS] = out;
    }
}
