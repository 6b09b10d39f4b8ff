// BN254's optimal ate pairing (EIP-197's curve, issue 18) over its tower
// (fp2.wgsl and fp12.wgsl at eight limbs, xi = 9 + u): G2's subgroup check
// and the Miller loop of one pair, arkworks' (ark-ec's bn model) step for
// step, so that its value and, after the final exponentiation
// (gpu/fp12_program.rs `bn254_final_exponentiation`), the pairing's are
// arkworks' exactly, which the tests compare. G2 lives on the D-twist E':
// y^2 = x^3 + 3 / xi, in homogeneous projective coordinates (x = X/Z,
// y = Y/Z), its group layer (weierstrass_a0.wgsl and bls_group.wgsl
// rendered for it: g2_add, g2_dbl, g2_eq, g2_times_k) composed beside
// this file. The points arrive on their curves (the host checks that with
// the CPU path's checks). Composed with pairing.wgsl after the constants
// of gpu/curve.rs `bn254_pairing_wgsl`:
// BN_TWIST_B3 (3 b'), BN_Q_X and BN_Q_Y (arkworks' TWIST_MUL_BY_Q_X and
// _Y), the digits of 6x + 2 (BN_ATE_PLUS, BN_ATE_MINUS: bit i set where
// arkworks' ATE_LOOP_COUNT[i] is 1 or -1), BN_ATE_TOP (its top digit) and
// BN_MILLER_STEPS (the loop's doubling and addition steps).

struct G2Proj {
    x: Fp2,
    y: Fp2,
    z: Fp2,
}

// Bit i of the subgroup check's k = 6 x^2 (BN_K), i < 128.
fn k_bit(i: u32) -> bool {
    return ((BN_K[i / 32u] >> (i % 32u)) & 1u) == 1u;
}

// Whether Q, on the twist, is in G2 (the points of order r): [6 x^2] Q =
// psi(Q), psi the untwist-Frobenius-twist endomorphism (arkworks' check,
// eprint 2022/352 section 4.3). Infinity passes.
fn g2_in_subgroup(q: G2Proj) -> bool {
    let psi = bn_frobenius(q.x, q.y);
    return g2_eq(g2_times_k(q), G2Proj(psi[0], psi[1], fp2_conj(q.z)));
}

// 3 b' a for the twist's b' = 3 / xi.
fn fp2_times_b3(a: Fp2) -> Fp2 {
    return fp2_mul(a, Fp2(BN_TWIST_B3_C0, BN_TWIST_B3_C1));
}

// f times the line evaluated at P = (px, py) on the D-twist (arkworks'
// mul_by_034 shape): the coefficients (c2 py, c1 px, c0) of 1, w and v w.
fn fp12_mul_line(f: Fp12, l: Line, px: Fp, py: Fp) -> Fp12 {
    var s: Fp12;
    s.c0.c0 = fp2_mul_fp(l.c2, py);
    s.c1.c0 = fp2_mul_fp(l.c1, px);
    s.c1.c1 = l.c0;
    return fp12_mul(f, s);
}

// (conj(x) BN_Q_X, conj(y) BN_Q_Y): pi(Q) on the twist (arkworks'
// mul_by_char and p_power_endomorphism), for an affine Q, or the x and y
// of a projective one (whose Z is conjugated).
fn bn_frobenius(x: Fp2, y: Fp2) -> array<Fp2, 2> {
    return array<Fp2, 2>(
        fp2_mul(fp2_conj(x), Fp2(BN_Q_X_C0, BN_Q_X_C1)),
        fp2_mul(fp2_conj(y), Fp2(BN_Q_Y_C0, BN_Q_Y_C1)),
    );
}

// Digit i of 6x + 2: 1, -1 or 0.
fn bn_ate_digit(i: u32) -> i32 {
    let bit = 1u << (i % 32u);
    if (BN_ATE_PLUS[i / 32u] & bit) != 0u {
        return 1;
    }
    return -i32((BN_ATE_MINUS[i / 32u] & bit) != 0u);
}

// The Miller loop f_{6x+2,Q}(P) times the lines through pi(Q) and
// -pi^2(Q), for affine P in G1 and Q in G2, neither infinity (callers
// skip such pairs: their pairing is one). One loop over every step, each
// a doubling (digits BN_ATE_TOP - 1 down to 0, each squaring f first: the
// first squares one, as arkworks skips) or an addition (of Q or -Q after a
// nonzero digit, then the two final ones), so that each step is one site
// in the shader.
fn miller_loop(px: Fp, py: Fp, qx: Fp2, qy: Fp2) -> Fp12 {
    let q1 = bn_frobenius(qx, qy);
    let q2 = bn_frobenius(q1[0], q1[1]);
    var r = G2Proj(qx, qy, fp2_one());
    var f = fp12_one();
    var digit = BN_ATE_TOP;
    var add_next = false;
    var ax = qx;
    var ay = qy;
    var finals = 0u;
    for (var s = 0u; s < BN_MILLER_STEPS * tower_one; s++) {
        if !add_next && digit == 0u {
            // After the last doubling: pi(Q), then -pi^2(Q).
            ax = q1[0];
            ay = q1[1];
            if finals == 1u {
                ax = q2[0];
                ay = fp2_neg(q2[1]);
            }
            finals += 1u;
            add_next = true;
        }
        var l: Line;
        if add_next {
            l = miller_add(&r, ax, ay);
            add_next = false;
        } else {
            digit -= 1u;
            f = fp12_sq(f);
            l = miller_dbl(&r);
            let d = bn_ate_digit(digit);
            add_next = d != 0;
            ax = qx;
            ay = qy;
            if d < 0 {
                ay = fp2_neg(qy);
            }
        }
        f = fp12_mul_line(f, l, px, py);
    }
    return f;
}
