// BLS12-381's optimal ate pairing (issue 15): the Miller loop of one pair
// and an interpreter for F_p12 programs, which runs the final
// exponentiation (gpu/fp12_program.rs writes it). Both follow arkworks
// (ark-ec's bls12 model) step for step, so that the Miller loop's value
// and the pairing's are arkworks' exactly, which the probe tests compare;
// blst's Miller loop scales its lines differently, which the final
// exponentiation erases: verdicts are equal. Composed after bls_curve.wgsl,
// bls_group.wgsl (for G1 and G2) and the program's constant
// (BLS_FINAL_EXP, FP12_OP_*).

// A line through the Miller loop's point, before evaluation at P: the
// coefficients of 1, w and v w (arkworks' mul_by_014 shape, M-twist) with
// c1 still to be multiplied by P's x and c2 by P's y.
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
    let a = fp2_mul_fp(fp2_mul(x, y), BLS_TWO_INV);
    let b = fp2_sq(y);
    let c = fp2_sq(z);
    let e = fp2_times_b3(c);
    let f = fp2_add(fp2_add(e, e), e);
    let g = fp2_mul_fp(fp2_add(b, f), BLS_TWO_INV);
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

// f times the line evaluated at P = (px, py).
fn fp12_mul_line(f: Fp12, l: Line, px: Fp, py: Fp) -> Fp12 {
    var s: Fp12;
    s.c0.c0 = l.c0;
    s.c0.c1 = fp2_mul_fp(l.c1, px);
    s.c1.c1 = fp2_mul_fp(l.c2, py);
    return fp12_mul(f, s);
}

// The Miller loop f_{|x|,Q}(P), conjugated because x < 0, for affine
// P in G1 and Q in G2, neither infinity (callers skip such pairs: their
// pairing is one). The 63 doubling steps (bits 62..0 of |x|) and the 5
// addition steps (the set bits below the top) in one loop, so that each
// step is one site in the shader.
fn miller_loop(px: Fp, py: Fp, qx: Fp2, qy: Fp2) -> Fp12 {
    var r = G2Proj(qx, qy, fp2_one());
    var f = fp12_one();
    var bit = 63u;
    var add_next = false;
    for (var s = 0u; s < 68u * tower_one; s++) {
        var l: Line;
        if add_next {
            l = miller_add(&r, qx, qy);
            add_next = false;
        } else {
            bit -= 1u;
            f = fp12_sq(f);
            l = miller_dbl(&r);
            add_next = bls_x_bit(bit);
        }
        f = fp12_mul_line(f, l, px, py);
    }
    return fp12_conj(f);
}

// a^(p^power) for power 1 or 2: each F_p2 coefficient conjugated when the
// power is odd, then the coefficient of w^k multiplied by the constant
// BLS_FROB<power>_k (gpu/curve.rs).
fn fp12_frob(a: Fp12, power: u32) -> Fp12 {
    // By k: w^0 = c0.c0, w = c1.c0, w^2 = v = c0.c1, w^3 = c1.c1, ...
    var c = array<Fp2, 6>(a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2);
    var g = array<Fp2, 6>(
        Fp2(BLS_FROB1_0_C0, BLS_FROB1_0_C1), Fp2(BLS_FROB1_1_C0, BLS_FROB1_1_C1),
        Fp2(BLS_FROB1_2_C0, BLS_FROB1_2_C1), Fp2(BLS_FROB1_3_C0, BLS_FROB1_3_C1),
        Fp2(BLS_FROB1_4_C0, BLS_FROB1_4_C1), Fp2(BLS_FROB1_5_C0, BLS_FROB1_5_C1),
    );
    if power == 2u {
        g = array<Fp2, 6>(
            Fp2(BLS_FROB2_0_C0, BLS_FROB2_0_C1), Fp2(BLS_FROB2_1_C0, BLS_FROB2_1_C1),
            Fp2(BLS_FROB2_2_C0, BLS_FROB2_2_C1), Fp2(BLS_FROB2_3_C0, BLS_FROB2_3_C1),
            Fp2(BLS_FROB2_4_C0, BLS_FROB2_4_C1), Fp2(BLS_FROB2_5_C0, BLS_FROB2_5_C1),
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

// Runs instructions start..end of an F_p12 program over four registers.
// An instruction is op | dst << 8 | a << 16 | b << 24 (gpu/fp12_program.rs);
// one site per operation, however long the program.
fn fp12_run(regs: ptr<function, array<Fp12, 4>>, program: ptr<function, array<u32, FP12_PROGRAM_LEN>>, start: u32, end: u32) {
    for (var k = start; k < end; k++) {
        let ins = (*program)[k];
        let x = (*regs)[(ins >> 16u) & 3u];
        var out = x;
        switch ins & 0xffu {
            case FP12_OP_MUL: {
                out = fp12_mul(x, (*regs)[(ins >> 24u) & 3u]);
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
        (*regs)[(ins >> 8u) & 3u] = out;
    }
}
