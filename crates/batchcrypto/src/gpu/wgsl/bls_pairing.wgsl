// BLS12-381's optimal ate pairing (issue 15): the Miller loop of one pair,
// arkworks' (ark-ec's bls12 model) step for step, so that the Miller
// loop's value and the pairing's are arkworks' exactly, which the probe
// tests compare; blst's Miller loop scales its lines differently, which
// the final exponentiation erases: verdicts are equal. Composed after
// bls_curve.wgsl, bls_group.wgsl (for G1 and G2) and pairing.wgsl.

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

