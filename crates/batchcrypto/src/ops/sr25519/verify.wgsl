// sr25519 verification (schnorrkel 0.11's PublicKey::verify_simple: the
// transcript signing_context(ctx).bytes(msg)), one thread per signature.
// Composed after the edwards25519 layers (fe25519, sc25519, ed25519_point,
// ed25519_dsm, flat_msgs), ristretto, the Keccak layer on u64 lanes and
// strobe with this kernel's transcript program (ops/sr25519/gpu.rs), whose
// item sources SR25519_SRC_* are rendered with it.
//
// Checks, in the order that names the reason (ops/sr25519.rs):
//   1 malformed_key        A is not a canonical Ristretto encoding
//   2 malformed_signature  the marker bit (bit 7 of byte 63) is clear, or s >= l
//   3 equation             encode([s]B - [k]A) != R bytes, k the transcript's challenge
// Output per item: DONE_FLAG | code (0 = valid), or LOOPS_CUT_FLAG when the
// driver cut a loop short (guard.wgsl).

struct Params {
    n: u32,
    ctx_len: u32,
    loop_guard: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> pks: array<u32>;
@group(0) @binding(2) var<storage, read> sigs: array<u32>;
@group(0) @binding(3) var<storage, read> msg_words: array<u32>;
@group(0) @binding(4) var<storage, read> msg_offsets: array<u32>;
@group(0) @binding(5) var<storage, read> ctx_words: array<u32>;
@group(0) @binding(6) var<storage, read> base_table: array<i32>;
@group(0) @binding(7) var<storage, read_write> verdicts: array<u32>;

// The transcript's per-item bytes (strobe.wgsl): the signing context, the
// message, the key and R.
fn transcript_item_len(src: u32, item: u32) -> u32 {
    if src == SR25519_SRC_CTX {
        return params.ctx_len;
    }
    if src == SR25519_SRC_MSG {
        return msg_offsets[item + 1u] - msg_offsets[item];
    }
    return 32u;
}

fn transcript_item_byte(src: u32, item: u32, k: u32) -> u32 {
    if src == SR25519_SRC_CTX {
        return word_byte(ctx_words[k >> 2u], k);
    }
    if src == SR25519_SRC_MSG {
        return msg_byte(msg_offsets[item] + k);
    }
    if src == SR25519_SRC_PK {
        return word_byte(pks[item * 8u + (k >> 2u)], k);
    }
    return word_byte(sigs[item * 16u + (k >> 2u)], k);
}

fn verify_item(i: u32) -> u32 {
    var pk: array<u32, 8>;
    var s_enc: array<u32, 8>;
    for (var w = 0u; w < 8u; w++) {
        pk[w] = pks[i * 8u + w];
        s_enc[w] = sigs[i * 16u + 8u + w];
    }
    let a = ristretto_decode(pk);
    if !a.ok {
        return 1u;
    }
    if (s_enc[7] & 0x80000000u) == 0u {
        return 2u;
    }
    s_enc[7] &= 0x7fffffffu;
    if !sc_is_canonical(s_enc) {
        return 2u;
    }
    // The challenge: 64 bytes squeezed from the transcript, reduced mod l.
    let st = strobe_transcript(i);
    let k = sc_from_wide(array<u64, 8>(st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7]));
    let enc = ristretto_encode(double_scalar_mul(k, a.p, sc_from_words(s_enc)));
    for (var w = 0u; w < 8u; w++) {
        if enc[w] != sigs[i * 16u + w] {
            return 3u;
        }
    }
    return 0u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn sr25519_verify(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let code = verify_item(i);
    verdicts[i] = select(LOOPS_CUT_FLAG, DONE_FLAG | code, loops_intact(params.loop_guard));
}
