// Hash to G2 on the device (issue 15), its hashing part, one thread per
// message: RFC 9380's hash_to_field for the suite
// BLS12381G2_XMD:SHA-256_SSWU_RO_ with the consensus DST (section 8.8.2),
// as blst's hash_to_g2 computes it:
//
// 1. expand_message_xmd with SHA-256 (section 5.3.1) to 256 bytes;
// 2. hash_to_field: u0, u1 in F_p2, each coordinate 64 bytes read
//    big-endian and reduced mod p (section 5.2).
//
// The map to the curve (simplified SWU on the 3-isogenous curve, the
// isogeny, cofactor clearing) is a tower-machine program
// (ops/bls/gpu/programs.rs `map_to_g2`), which reads this kernel's u0 and
// u1 in Montgomery form. The host appends expand_message's tail
// I2OSP(256, 2) || 0x00 || DST_prime to each message (ops/bls/gpu/
// signatures.rs); the device prepends Z_pad (64 zero bytes) by starting
// b_0's stream with them. Every SHA-256 block of the nine hashes goes
// through one compression site. Composed after the guard, SHA-256,
// flat_msgs, the BLS12-381 field layer (fp.wgsl) and BLS_R3 (gpu/curve.rs
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
// Per message: u0.c0, u0.c1, u1.c0, u1.c1 (twelve little-endian words
// each, Montgomery form), the completion flag.
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
    return fp_add(fp_mul(lo, FP_R2), fp_mul(hi, BLS_R3));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_hash(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let off = msg_offsets[i];
    var u = expand_message(off, msg_offsets[i + 1u] - off);
    let out = i * HASH_OUT;
    for (var j = 0u; j < 4u; j++) {
        let e = xmd_field(&u, j);
        for (var k = 0u; k < 12u; k++) {
            hash_out[out + 12u * j + k] = e[k];
        }
    }
    hash_out[out + HASH_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
