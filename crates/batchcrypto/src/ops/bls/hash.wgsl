// Hash to G2 on the device (issue 15), one thread per message: RFC 9380's
// hash_to_curve for the suite BLS12381G2_XMD:SHA-256_SSWU_RO_ with the
// consensus DST (section 8.8.2), as blst's hash_to_g2 computes it:
//
// 1. expand_message_xmd with SHA-256 (section 5.3.1) to 256 bytes;
// 2. hash_to_field: u0, u1 in F_p2, each coordinate 64 bytes read
//    big-endian and reduced mod p (section 5.2);
// 3. the simplified SWU map onto the 3-isogenous curve
//    E2': y^2 = x^3 + 240 u x + 1012 (1 + u) (section 6.6.2, the
//    straight-line form: one inversion, square roots of x1's and x2's
//    right-hand sides, the sign of y set by sgn0(u));
// 4. the 3-isogeny to E' (appendix E.3), the sum of both points;
// 5. clear_cofactor by h_eff (appendix G.3: Budroni and Pintore's
//    psi(psi(2P)) - psi(P) + [x]([x]P + psi(P)) - [x]P - P with x the
//    (negative) curve parameter).
//
// The answer is the affine point (canonical words), the form the pairing
// program (ops/bls/gpu/programs.rs) reads. The host appends expand_message's tail
// I2OSP(256, 2) || 0x00 || DST_prime to each message (ops/bls/gpu/
// signatures.rs); the device prepends Z_pad (64 zero bytes) by starting
// b_0's stream with them. Every SHA-256 block of the nine hashes goes
// through one compression site, every point sum through few, so that
// llvmpipe compiles one copy of each. Composed after the guard, SHA-256,
// flat_msgs, the curve layer and the hash constants (gpu/curve.rs
// `bls_hash_wgsl`).

struct HashParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: HashParams;
@group(0) @binding(1) var<storage, read> msg_words: array<u32>;
@group(0) @binding(2) var<storage, read> msg_offsets: array<u32>;
// Per message: whether H(m) is finite, x.c0, x.c1, y.c0, y.c1 (twelve
// little-endian words each, canonical), the completion flag.
@group(0) @binding(3) var<storage, read_write> hash_out: array<u32>;

// Byte `pos` of b_0's SHA-256 input after padding: Z_pad, the message with
// its tail (`len` bytes at `off`), 0x80, zeros, the bit length.
fn xmd_b0_byte(pos: u32, off: u32, len: u32, blocks: u32) -> u32 {
    let total = 64u + len;
    if pos < 64u {
        return 0u;
    }
    if pos < total {
        return msg_byte(off + pos - 64u);
    }
    if pos == total {
        return 0x80u;
    }
    let end = blocks * 64u;
    if pos >= end - 8u {
        let k = end - 1u - pos;
        let bitlen = array<u32, 2>(total << 3u, total >> 29u);
        return (bitlen[k / 4u] >> ((k % 4u) * 8u)) & 0xffu;
    }
    return 0u;
}

// Byte `pos` of b_i's SHA-256 input after padding:
// (b_0 xor b_(i-1)) || I2OSP(i, 1) || DST_prime, 0x80, zeros, the bit
// length (two blocks).
fn xmd_bi_byte(chain: ptr<function, array<u32, 8>>, i: u32, pos: u32) -> u32 {
    let len = 33u + XMD_DST_PRIME_LEN;
    if pos < 32u {
        return ((*chain)[pos / 4u] >> (24u - 8u * (pos % 4u))) & 0xffu;
    }
    if pos == 32u {
        return i;
    }
    if pos < len {
        return XMD_DST_PRIME[pos - 33u];
    }
    if pos == len {
        return 0x80u;
    }
    if pos == 126u {
        return (len * 8u) >> 8u;
    }
    if pos == 127u {
        return (len * 8u) & 0xffu;
    }
    return 0u;
}

// expand_message_xmd(msg, DST, 256): b_1 .. b_8 as 64 big-endian words.
fn expand_message(off: u32, len: u32) -> array<u32, 64> {
    let blocks0 = (64u + len + 8u) / 64u + 1u;
    var out: array<u32, 64>;
    var b0: array<u32, 8>;
    var chain: array<u32, 8>;
    var state = SHA256_H0;
    // Hash h (0 for b_0), its block blk.
    var h = 0u;
    var blk = 0u;
    for (var step = 0u; step < blocks0 + 16u; step++) {
        var m: array<u32, 16>;
        for (var w = 0u; w < 16u; w++) {
            let at = blk * 64u + w * 4u;
            if h == 0u && at >= 64u && at + 4u <= 64u + len {
                // Four message bytes at once (the loop limit counts
                // iterations: long messages stay under it).
                m[w] = bswap32(msg_word_at(off + at - 64u));
                continue;
            }
            var word = 0u;
            for (var j = 0u; j < 4u; j++) {
                var byte: u32;
                if h == 0u {
                    byte = xmd_b0_byte(at + j, off, len, blocks0);
                } else {
                    byte = xmd_bi_byte(&chain, h, at + j);
                }
                word = (word << 8u) | byte;
            }
            m[w] = word;
        }
        sha256_compress(&state, m);
        blk++;
        if blk == select(2u, blocks0, h == 0u) {
            if h == 0u {
                b0 = state;
            } else {
                for (var w = 0u; w < 8u; w++) {
                    out[8u * (h - 1u) + w] = state[w];
                }
            }
            // The next hash chains b_0 (b_1's input) or b_0 xor b_h.
            for (var w = 0u; w < 8u; w++) {
                chain[w] = b0[w] ^ select(state[w], 0u, h == 0u);
            }
            h++;
            blk = 0u;
            state = SHA256_H0;
        }
    }
    return out;
}

// The 64 big-endian bytes of words 16 j .. 16 j + 15 of `u` mod p, in
// Montgomery form: lo + hi 2^384 with lo below 2^384 and hi below 2^128,
// as mont_mul(lo, R^2) + mont_mul(hi, R^3) (mont_mul reduces any first
// factor below R = 2^384).
fn xmd_field(u: ptr<function, array<u32, 64>>, j: u32) -> Fp {
    var lo: Fp;
    var hi: Fp;
    for (var k = 0u; k < 12u; k++) {
        lo[k] = (*u)[16u * j + 15u - k];
    }
    for (var k = 0u; k < 4u; k++) {
        hi[k] = (*u)[16u * j + 3u - k];
    }
    let f = array<Fp, 2>(lo, hi);
    let r = array<Fp, 2>(FP_R2, BLS_R3);
    var v: array<Fp, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp_mul(f[k], r[k]);
    }
    return fp_add(v[0], v[1]);
}

// RFC 9380's sgn0 for F_p2 (section 4.1): the parity of c0, or of c1 when
// c0 is zero.
fn fp2_sgn0(a: Fp2) -> u32 {
    let c0 = fp_from_mont(a.c0)[0] & 1u;
    let c1 = fp_from_mont(a.c1)[0] & 1u;
    return c0 | (select(0u, 1u, fp_is_zero(a.c0)) & c1);
}

// x^3 + A' x + B' on E2'.
fn iso_rhs(x: Fp2) -> Fp2 {
    let a = Fp2(SSWU_A_C0, SSWU_A_C1);
    let b = Fp2(SSWU_B_C0, SSWU_B_C1);
    return fp2_add(fp2_mul(fp2_add(fp2_sq(x), a), x), b);
}

// The simplified SWU map of u onto E2' (affine).
fn map_to_iso(u: Fp2) -> G2Affine {
    let zu2 = fp2_mul(Fp2(SSWU_Z_C0, SSWU_Z_C1), fp2_sq(u));
    let tv1 = fp2_add(fp2_sq(zu2), zu2);
    var x1 = fp2_mul(Fp2(SSWU_MINUS_B_OVER_A_C0, SSWU_MINUS_B_OVER_A_C1), fp2_add(fp2_one(), fp2_inv(tv1)));
    if fp2_is_zero(tv1) {
        x1 = Fp2(SSWU_B_OVER_ZA_C0, SSWU_B_OVER_ZA_C1);
    }
    // x1 if its right-hand side is a square, else x2 = Z u^2 x1 (whose is).
    let xs = array<Fp2, 2>(x1, fp2_mul(zu2, x1));
    var r = G2Affine(false, xs[1], fp2_zero());
    for (var k = 0u; k < 2u * tower_one; k++) {
        let root = fp2_sqrt(iso_rhs(xs[k]));
        if root.ok && !r.ok {
            r = G2Affine(true, xs[k], root.r);
        }
    }
    if fp2_sgn0(u) != fp2_sgn0(r.y) {
        r.y = fp2_neg(r.y);
    }
    return r;
}

// The 3-isogeny E2' -> E' in projective form: (x_num y_den : y y_num x_den
// : x_den y_den), infinity where a denominator vanishes.
fn iso_map(p: G2Affine) -> G2Proj {
    var k = BLS_ISO3;
    // x_num, x_den, y_num, y_den at p.x by Horner (four coefficients each,
    // highest first), one multiplication site.
    var v: array<Fp2, 4>;
    for (var s = 0u; s < 16u * tower_one; s++) {
        let j = s / 4u;
        v[j] = fp2_add(fp2_mul(v[j], p.x), k[4u * j + 3u - s % 4u]);
    }
    let l = array<Fp2, 3>(v[0], fp2_mul(p.y, v[2]), v[1]);
    let r = array<Fp2, 3>(v[3], v[1], v[3]);
    var c: array<Fp2, 3>;
    for (var s = 0u; s < 3u * tower_one; s++) {
        c[s] = fp2_mul(l[s], r[s]);
    }
    if fp2_is_zero(c[2]) {
        return g2_infinity();
    }
    return G2Proj(c[0], c[1], c[2]);
}

// [h_eff] p = psi(psi(2p)) - psi(p) + b - a - p with a = [x] p and
// b = [x](a + psi(p)), x = -|x| (RFC 9380 appendix G.3).
fn g2_clear_cofactor(p: G2Proj) -> G2Proj {
    let psi_p = g2_psi(p);
    var t = p;
    var a = p;
    for (var k = 0u; k < 2u * tower_one; k++) {
        t = g2_neg(g2_times_k(t));
        if k == 0u {
            a = t;
            t = g2_add(a, psi_p);
        }
    }
    let terms = array<G2Proj, 5>(p, g2_neg(psi_p), t, g2_neg(a), g2_neg(p));
    // Twice p (the complete formulas double through addition), then the
    // terms after psi(psi(2p)).
    var acc = p;
    for (var k = 0u; k < 5u * tower_one; k++) {
        acc = g2_add(acc, terms[k]);
        if k == 0u {
            acc = g2_psi(g2_psi(acc));
        }
    }
    return acc;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_hash(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let off = msg_offsets[i];
    var u = expand_message(off, msg_offsets[i + 1u] - off);
    var sum = g2_infinity();
    for (var j = 0u; j < 2u * tower_one; j++) {
        let e = Fp2(xmd_field(&u, 2u * j), xmd_field(&u, 2u * j + 1u));
        sum = g2_add(sum, iso_map(map_to_iso(e)));
    }
    let q = g2_clear_cofactor(sum);
    let zi = fp2_inv(q.z);
    let c = array<Fp2, 2>(q.x, q.y);
    var a: array<Fp2, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        a[k] = fp2_mul(c[k], zi);
    }
    let out = i * HASH_OUT;
    hash_out[out] = select(1u, 0u, g2_is_infinity(q));
    let w = array<Fp, 4>(a[0].c0, a[0].c1, a[1].c0, a[1].c1);
    for (var k = 0u; k < 4u; k++) {
        let canonical = fp_from_mont(w[k]);
        for (var j = 0u; j < 12u; j++) {
            hash_out[out + 1u + 12u * k + j] = canonical[j];
        }
    }
    hash_out[out + HASH_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
