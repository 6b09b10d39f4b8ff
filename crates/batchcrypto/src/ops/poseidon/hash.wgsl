// Poseidon hashes of items (see ops/poseidon.rs): a thread per item of
// POS_T - 1 elements. The host (ops/poseidon/gpu.rs) sends only items
// whose elements are below r, in Montgomery form; the hash is the first
// element of the permuted state (0, x_1, ..., x_n), out of Montgomery
// form. Composed after poseidon.wgsl.

struct PoseidonParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

// Per item: the hash (8 words, canonical), then the completion flag.
const POS_OUT_WORDS: u32 = 9u;

@group(0) @binding(0) var<uniform> params: PoseidonParams;
@group(0) @binding(2) var<storage, read> pos_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> pos_out: array<u32>;

fn pos_input(e: u32) -> U256 {
    let w = 8u * e;
    return U256(pos_in[w], pos_in[w + 1u], pos_in[w + 2u], pos_in[w + 3u], pos_in[w + 4u], pos_in[w + 5u],
        pos_in[w + 6u], pos_in[w + 7u]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn poseidon_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    // (0, x_1, ..., x_n): the domain tag 0 first.
    var s: array<U256, POS_T>;
    for (var j = 1u; j < POS_T; j++) {
        s[j] = pos_input(i * (POS_T - 1u) + j - 1u);
    }
    pos_permute(&s);
    let h = pos_mul(s[0], U256(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u));
    let out = i * POS_OUT_WORDS;
    for (var k = 0u; k < 8u; k++) {
        pos_out[out + k] = h[k];
    }
    pos_out[out + 8u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
