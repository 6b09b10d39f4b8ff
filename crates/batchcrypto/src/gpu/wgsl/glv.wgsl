// u1 G + u2 Q on curves with an efficient endomorphism phi(x, y) =
// (beta x, y) = lambda (x, y) (secp256k1), after Gallant, Lambert and
// Vanstone (CRYPTO 2001) as libsecp256k1 does it: each scalar k is split
// into k1 + k2 lambda (mod n) with |k1|, |k2| < 2^128 (glv_split), so that
// u1 G + u2 Q = k1 G + k2 phi(G) + k3 Q + k4 phi(Q) needs 128 doublings
// instead of 256. Per bit from the top: one doubling, then from each pair
// (G, phi(G)) and (Q, phi(Q)) one addition of the first, the second or
// their sum, where a bit is set: on average 128 doublings and 192
// additions. Signs are applied to the points (negating y). Composed after
// weierstrass.wgsl and the shape's formulas.

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

fn double_mul(c: Curve, u1: U256, g: Proj, u2: U256, q: Proj) -> Proj {
    let s1 = glv_split(c, u1);
    let s2 = glv_split(c, u2);
    // First points of the pairs with their signs; the second point of a
    // pair is phi of the first, negated where the halves' signs differ.
    let pg = proj_neg_if(c, g, s1.k1.neg);
    let pq = proj_neg_if(c, q, s2.k1.neg);
    let flip_g = s1.k1.neg != s1.k2.neg;
    let flip_q = s2.k1.neg != s2.k2.neg;
    var m1 = s1.k1.mag;
    var m2 = s1.k2.mag;
    var m3 = s2.k1.mag;
    var m4 = s2.k2.mag;
    var acc = proj_infinity(c);
    var sum_g = proj_infinity(c);
    var sum_q = proj_infinity(c);
    // Steps 0 and 1 form the pairs' sums; then two steps per bit.
    for (var k = 0u; k < 258u; k++) {
        var lhs: Proj;
        var rhs: Proj;
        if k < 2u {
            if k == 0u {
                lhs = pg;
                rhs = proj_phi(c, pg, flip_g);
            } else {
                lhs = pq;
                rhs = proj_phi(c, pq, flip_q);
            }
        } else {
            let step = k - 2u;
            let i = 127u - step / 2u;
            var sel: u32;
            var base: Proj;
            var flip: bool;
            if (step & 1u) == 0u {
                acc = proj_dbl(c, acc);
                sel = u256_bit(&m1, i) | (u256_bit(&m2, i) << 1u);
                base = pg;
                rhs = sum_g;
                flip = flip_g;
            } else {
                sel = u256_bit(&m3, i) | (u256_bit(&m4, i) << 1u);
                base = pq;
                rhs = sum_q;
                flip = flip_q;
            }
            if sel == 0u {
                continue;
            }
            if sel == 1u {
                rhs = base;
            } else if sel == 2u {
                rhs = proj_phi(c, base, flip);
            }
            lhs = acc;
        }
        let sum = proj_add(c, lhs, rhs);
        if k == 0u {
            sum_g = sum;
        } else if k == 1u {
            sum_q = sum;
        } else {
            acc = sum;
        }
    }
    return acc;
}
