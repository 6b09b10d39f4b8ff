// Batch hashing, one thread per message of any length (flat bytes plus
// offsets): Keccak-256 (pad 0x01), SHA3-256 (pad 0x06) and SHA-256.
// Composed after guard, keccak, sha256 and flat_msgs (which reads this
// kernel's msg_words). Output: 8 digest words per item
// (little-endian bytes of the digest), and apart (binding 4) a bitmap of
// the items that finished (bit i % 32 of word i / 32), then one word with
// LOOPS_CUT_FLAG when the driver cut a loop short. Only the digests and
// those n / 8 + 4 bytes are read back.

const ALG_KECCAK256: u32 = 0u;
const ALG_SHA3_256: u32 = 1u;
const KECCAK_RATE: u32 = 136u;

struct Params {
    n: u32,
    alg: u32,
    loop_guard: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> msg_words: array<u32>;
@group(0) @binding(2) var<storage, read> msg_offsets: array<u32>;
@group(0) @binding(3) var<storage, read_write> digests: array<u32>;
@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;

fn keccak_item(off: u32, len: u32, pad: u32) -> array<u32, 8> {
    var a = keccak_zero();
    let blocks = len / KECCAK_RATE + 1u;
    for (var blk = 0u; blk < blocks; blk++) {
        var block: array<Lane, 17>;
        for (var lane_i = 0u; lane_i < KECCAK_RATE / 8u; lane_i++) {
            let at = blk * KECCAK_RATE + lane_i * 8u;
            if at + 8u <= len {
                // A whole lane of message bytes.
                block[lane_i] = lane(msg_word_at(off + at), msg_word_at(off + at + 4u));
            } else if at <= len || at + 8u == blocks * KECCAK_RATE {
                // The lane with the message's end, the padding or the final 0x80.
                var w: array<u32, 2>;
                for (var j = 0u; j < 8u; j++) {
                    let pos = at + j;
                    var byte = 0u;
                    if pos < len {
                        byte = msg_byte(off + pos);
                    }
                    if pos == len {
                        byte ^= pad;
                    }
                    if pos == blocks * KECCAK_RATE - 1u {
                        byte ^= 0x80u;
                    }
                    w[j / 4u] |= byte << (8u * (j % 4u));
                }
                block[lane_i] = lane(w[0], w[1]);
            }
        }
        keccak_absorb(&a, &block);
        keccak_f1600(&a);
    }
    return keccak_digest_words(&a);
}

fn sha256_item(off: u32, len: u32) -> array<u32, 8> {
    let state = sha256_flat(SHA256_H0, off, len, 0u);
    // Big-endian state words -> little-endian words of the digest bytes.
    var out: array<u32, 8>;
    for (var i = 0u; i < 8u; i++) {
        out[i] = bswap32(state[i]);
    }
    return out;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn hash_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let off = msg_offsets[i];
    let len = msg_offsets[i + 1u] - off;
    var d: array<u32, 8>;
    if params.alg == ALG_KECCAK256 {
        d = keccak_item(off, len, 0x01u);
    } else if params.alg == ALG_SHA3_256 {
        d = keccak_item(off, len, 0x06u);
    } else {
        d = sha256_item(off, len);
    }
    for (var w = 0u; w < 8u; w++) {
        digests[i * 8u + w] = d[w];
    }
    if loops_intact(params.loop_guard) {
        atomicOr(&status[i / 32u], 1u << (i % 32u));
    } else {
        atomicOr(&status[(params.n + 31u) / 32u], LOOPS_CUT_FLAG);
    }
}
