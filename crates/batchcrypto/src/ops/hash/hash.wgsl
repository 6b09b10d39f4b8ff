// Batch hashing, one thread per message of any length (flat bytes plus
// offsets). Composed after one algorithm family's file, which defines
// item_digest(alg, off, len) (sha.wgsl: Keccak-256, SHA3-256, SHA-256;
// blake.wgsl: BLAKE2b-256, BLAKE3) and after its libraries and flat_msgs
// (which reads this kernel's msg_words); the ALG_ constants are rendered
// from the host's. Output: 8 digest words per item
// (little-endian bytes of the digest), and apart (binding 4) a bitmap of
// the items that finished (bit i % 32 of word i / 32), then one word with
// LOOPS_CUT_FLAG when the driver cut a loop short. Only the digests and
// those n / 8 + 4 bytes are read back.

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

@compute @workgroup_size(WORKGROUP_SIZE)
fn hash_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let off = msg_offsets[i];
    let len = msg_offsets[i + 1u] - off;
    let d = item_digest(params.alg, off, len);
    for (var w = 0u; w < 8u; w++) {
        digests[i * 8u + w] = d[w];
    }
    if loops_intact(params.loop_guard) {
        atomicOr(&status[i / 32u], 1u << (i % 32u));
    } else {
        atomicOr(&status[(params.n + 31u) / 32u], LOOPS_CUT_FLAG);
    }
}
