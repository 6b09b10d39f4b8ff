// u1 G + u2 Q on curves with an efficient endomorphism phi(x, y) =
// (beta x, y) = lambda (x, y) (secp256k1), after Gallant, Lambert and
// Vanstone (CRYPTO 2001) as libsecp256k1 does it: u2 is split into k1 + k2
// lambda (mod n) with |k1|, |k2| < 2^128 (glv_split), so that u2 Q = k1 Q +
// k2 phi(Q) needs 128 doublings instead of 256: per bit from the top one
// doubling and, where a bit is set, one addition of Q, phi(Q) or their sum
// (on average 96). Signs are applied to the points (negating y). Then u1 G
// is added as the sum of 32 points of the fixed-base table (j 2^(8w) G for
// the bytes j of u1; g_table_point comes from the kernel). One call site
// for each formula. Composed after weierstrass.wgsl and the shape's
// formulas.

// A half of a split scalar: its magnitude (< 2^128) and sign.
struct Half {
    mag: U256,
    neg: bool,
}

struct Split {
    k1: Half,
    k2: Half,
}

// round(k g / 2^384) for k, g < 2^256 (the schoolbook product's top limbs
// plus bit 383).
fn glv_round_shift(k: U256, g: U256) -> U256 {
    // Variables, so that the computed indices below do not copy arrays.
    var kv = k;
    var gv = g;
    var t: array<u32, 16>;
    for (var i = 0u; i < 8u; i++) {
        var carry = 0lu;
        for (var j = 0u; j < 8u; j++) {
            let s = u64(t[i + j]) + u64(kv[i]) * u64(gv[j]) + carry;
            t[i + j] = u32(s);
            carry = s >> 32u;
        }
        t[i + 8u] = u32(carry);
    }
    var r: U256;
    var carry = u64(t[11] >> 31u);
    for (var i = 0u; i < 4u; i++) {
        let s = u64(t[12u + i]) + carry;
        r[i] = u32(s);
        carry = s >> 32u;
    }
    r[4] = u32(carry);
    return r;
}

// A value mod n read as signed: below 2^128 it is itself, else n minus it.
fn glv_half(c: Curve, r: U256) -> Half {
    if (r[4] | r[5] | r[6] | r[7]) == 0u {
        return Half(r, false);
    }
    return Half(u256_sub(c.n, r).v, true);
}

// k = k1 + k2 lambda (mod n) for k < n: c1 = round(k g1 / 2^384), c2 =
// round(k g2 / 2^384), k2 = c1 (-b1) + c2 (-b2), k1 = k - k2 lambda. Each
// mont_mul takes one plain and one Montgomery-form factor, so its result
// is plain.
fn glv_split(c: Curve, k: U256) -> Split {
    let c1 = glv_round_shift(k, c.g1);
    let c2 = glv_round_shift(k, c.g2);
    let k2 = mont_add(mont_mul(c1, c.minus_b1, c.n, c.ninv), mont_mul(c2, c.minus_b2, c.n, c.ninv), c.n);
    let k1 = mont_sub(k, mont_mul(k2, c.lambda, c.n, c.ninv), c.n);
    return Split(glv_half(c, k1), glv_half(c, k2));
}

fn proj_neg_if(c: Curve, p: Proj, neg: bool) -> Proj {
    if neg {
        var zero: U256;
        return Proj(p.x, fsub(c, zero, p.y), p.z);
    }
    return p;
}

// phi(P), negated when `neg`.
fn proj_phi(c: Curve, p: Proj, neg: bool) -> Proj {
    return proj_neg_if(c, Proj(fmul(c, c.beta, p.x), p.y, p.z), neg);
}

fn double_mul(c: Curve, u1: U256, u2: U256, q: Proj) -> Proj {
    let s = glv_split(c, u2);
    var m1 = s.k1.mag;
    var m2 = s.k2.mag;
    var e = u1;
    // Q with the first half's sign; phi(Q) negated where the signs differ.
    let pq = proj_neg_if(c, q, s.k1.neg);
    let flip = s.k1.neg != s.k2.neg;
    var acc = proj_infinity(c);
    var sum_q = proj_infinity(c);
    // Step 0 forms Q + phi(Q); steps 1..128 take one bit each, from the
    // top; steps 129..160 add one table point each.
    for (var k = 0u; k < 161u; k++) {
        var lhs = acc;
        var rhs: Proj;
        if k == 0u {
            lhs = pq;
            rhs = proj_phi(c, pq, flip);
        } else if k <= 128u {
            let i = 128u - k;
            acc = proj_dbl(c, acc);
            let sel = u256_bit(&m1, i) | (u256_bit(&m2, i) << 1u);
            if sel == 0u {
                continue;
            }
            lhs = acc;
            if sel == 1u {
                rhs = pq;
            } else if sel == 2u {
                rhs = proj_phi(c, pq, flip);
            } else {
                rhs = sum_q;
            }
        } else {
            let w = k - 129u;
            let j = (e[w >> 2u] >> ((w & 3u) * 8u)) & 0xffu;
            if j == 0u {
                continue;
            }
            rhs = g_table_point(c, w, j);
        }
        let sum = proj_add(c, lhs, rhs);
        if k == 0u {
            sum_q = sum;
        } else {
            acc = sum;
        }
    }
    return acc;
}
