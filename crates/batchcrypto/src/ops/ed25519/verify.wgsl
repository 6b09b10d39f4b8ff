// Ed25519 verification (RFC 8032 section 5.1.7), one thread per signature,
// under the strict (ed25519-dalek verify_strict) or zip215 (ed25519-zebra)
// policy. Composed after fe25519, sha512, sc25519, ed25519_point,
// ed25519_dsm and flat_msgs.
//
// Checks, in the order that names the reason (ops/ed25519.rs):
//   1 malformed_key  A does not decode
//   3 non_canonical_s  S >= L
//   2 malformed_r    R does not decode
//   4 small_order_key, 5 small_order_r  (strict only)
//   6 equation       strict: encode([S]B - [k]A) != R bytes
//                    zip215: [8](R - ([S]B - [k]A)) != identity
// Output per item: DONE_FLAG | code (0 = valid), or LOOPS_CUT_FLAG when the
// driver cut a loop short (guard.wgsl).

const POLICY_STRICT: u32 = 0u;

struct Params {
    n: u32,
    policy: u32,
    loop_guard: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pks: array<u32>;
@group(0) @binding(2) var<storage, read> sigs: array<u32>;
@group(0) @binding(3) var<storage, read> msg_words: array<u32>;
@group(0) @binding(4) var<storage, read> msg_offsets: array<u32>;
@group(0) @binding(5) var<storage, read> base_table: array<i32>;
@group(0) @binding(6) var<storage, read_write> verdicts: array<u32>;

// Setup: decodes the encodings of 1B .. 8B into cached form with Z = 1
// (y+x, y-x, 2dxy), once per device.
@group(0) @binding(10) var<storage, read> base_encodings: array<u32>;
@group(0) @binding(11) var<storage, read_write> base_out: array<i32>;

@compute @workgroup_size(8)
fn ed25519_setup(@builtin(global_invocation_id) gid: vec3<u32>) {
    let j = gid.x;
    if j >= 8u {
        return;
    }
    var enc: array<u32, 8>;
    for (var i = 0u; i < 8u; i++) {
        enc[i] = base_encodings[j * 8u + i];
    }
    let p = p3_decode(enc).p;
    // Affine (Z = 1): x = X, y = Y straight from decoding.
    let c = p3_to_cached(p, ed_d2());
    for (var i = 0u; i < 10u; i++) {
        base_out[j * 30u + i] = c.ypx[i];
        base_out[j * 30u + 10u + i] = c.ymx[i];
        base_out[j * 30u + 20u + i] = c.t2d[i];
    }
}

// Byte `pos` of R || A || M for item `item` (message at byte offset `moff`
// of the flat message buffer).
fn ram_byte(item: u32, pos: u32, moff: u32) -> u32 {
    if pos < 32u {
        return word_byte(sigs[item * 16u + (pos >> 2u)], pos);
    }
    if pos < 64u {
        return word_byte(pks[item * 8u + ((pos - 32u) >> 2u)], pos);
    }
    return msg_byte(moff + pos - 64u);
}

// k = SHA-512(R || A || M) mod L.
fn challenge(item: u32) -> Scalar {
    let moff = msg_offsets[item];
    let len = 64u + (msg_offsets[item + 1u] - moff);
    let blocks = sha512_blocks(len);
    var state = SHA512_H0;
    for (var blk = 0u; blk < blocks; blk++) {
        var m: array<u64, 16>;
        for (var w = 0u; w < 16u; w++) {
            var word = 0lu;
            for (var i = 0u; i < 8u; i++) {
                let pos = blk * 128u + w * 8u + i;
                var byte: u32;
                if pos < len {
                    byte = ram_byte(item, pos, moff);
                } else {
                    byte = sha512_pad_byte(pos, len, blocks);
                }
                word = (word << 8u) | u64(byte);
            }
            m[w] = word;
        }
        sha512_compress(&state, m);
    }
    return sc_from_wide(sha512_digest_le(state));
}

fn verify_item(i: u32) -> u32 {
    // Decode A then R (one decoding site in the shader).
    var pts: array<Decoded, 2>;
    for (var t = 0u; t < 2u; t++) {
        var enc: array<u32, 8>;
        for (var w = 0u; w < 8u; w++) {
            enc[w] = select(sigs[i * 16u + w], pks[i * 8u + w], t == 0u);
        }
        pts[t] = p3_decode(enc);
    }
    var s_enc: array<u32, 8>;
    for (var w = 0u; w < 8u; w++) {
        s_enc[w] = sigs[i * 16u + 8u + w];
    }
    if !pts[0].ok {
        return 1u;
    }
    if !sc_is_canonical(s_enc) {
        return 3u;
    }
    if !pts[1].ok {
        return 2u;
    }
    let strict = params.policy == POLICY_STRICT;
    if strict {
        for (var t = 0u; t < 2u; t++) {
            if p3_mul8_is_identity(pts[t].p) {
                return 4u + t;
            }
        }
    }
    let k = challenge(i);
    let rp = double_scalar_mul(k, pts[0].p, sc_from_words(s_enc));
    if strict {
        let enc = p3_encode(rp);
        for (var w = 0u; w < 8u; w++) {
            if enc[w] != sigs[i * 16u + w] {
                return 6u;
            }
        }
        return 0u;
    }
    // zip215: [8](R - R') == identity.
    let diff = p1p1_to_p3(p3_add(pts[1].p, p3_to_cached(rp, ed_d2()), true));
    if p3_mul8_is_identity(diff) {
        return 0u;
    }
    return 6u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ed25519_verify(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let code = verify_item(i);
    verdicts[i] = select(LOOPS_CUT_FLAG, DONE_FLAG | code, loops_intact(params.loop_guard));
}
