// Poseidon with circom's parameters over BN254's r on the device (see
// ops/poseidon.rs): a thread per item of POS_T - 1 elements. The host
// (ops/poseidon/gpu.rs) sends only items whose elements are below r, in
// Montgomery form (R = 2^256: arkworks' own representation), and the
// width's constants likewise: its round constants, POS_T per round for
// 8 + POS_PARTIAL rounds, then its MDS matrix row by row. Each round adds
// its constants, applies x^5 (to every element in the 4 full rounds
// before and after the partial ones, else to the first) and multiplies
// by the matrix; the hash is the first element, out of Montgomery form.
// The width is a constant: the state and the loops have a fixed size.
// At most about 15,000 loop iterations per thread (POS_T = 13), under
// llvmpipe's limit. Composed after the guard, the 256-bit Montgomery
// layer and POS_T, POS_PARTIAL, POS_R and POS_INV (gpu/shaders.rs
// `poseidon`).

struct PoseidonParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

const POS_ROUNDS: u32 = 8u + POS_PARTIAL;
// The matrix's first element among the constants.
const POS_MDS_AT: u32 = POS_ROUNDS * POS_T;
// Per item: the hash (8 words, canonical), then the completion flag.
const POS_OUT_WORDS: u32 = 9u;

@group(0) @binding(0) var<uniform> params: PoseidonParams;
@group(0) @binding(1) var<storage, read> pos_consts: array<u32>;
@group(0) @binding(2) var<storage, read> pos_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> pos_out: array<u32>;

fn pos_const(e: u32) -> U256 {
    let w = 8u * e;
    return U256(pos_consts[w], pos_consts[w + 1u], pos_consts[w + 2u], pos_consts[w + 3u], pos_consts[w + 4u],
        pos_consts[w + 5u], pos_consts[w + 6u], pos_consts[w + 7u]);
}

fn pos_input(e: u32) -> U256 {
    let w = 8u * e;
    return U256(pos_in[w], pos_in[w + 1u], pos_in[w + 2u], pos_in[w + 3u], pos_in[w + 4u], pos_in[w + 5u],
        pos_in[w + 6u], pos_in[w + 7u]);
}

fn pos_mul(a: U256, b: U256) -> U256 {
    return mont_mul(a, b, POS_R, POS_INV);
}

fn pos_sbox(x: U256) -> U256 {
    let x2 = pos_mul(x, x);
    let x4 = pos_mul(x2, x2);
    return pos_mul(x4, x);
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
    for (var r = 0u; r < POS_ROUNDS; r++) {
        for (var j = 0u; j < POS_T; j++) {
            s[j] = mont_add(s[j], pos_const(r * POS_T + j), POS_R);
        }
        if r < 4u || r >= 4u + POS_PARTIAL {
            for (var j = 0u; j < POS_T; j++) {
                s[j] = pos_sbox(s[j]);
            }
        } else {
            s[0] = pos_sbox(s[0]);
        }
        var m: array<U256, POS_T>;
        for (var k = 0u; k < POS_T; k++) {
            var acc = U256(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
            for (var j = 0u; j < POS_T; j++) {
                acc = mont_add(acc, pos_mul(pos_const(POS_MDS_AT + k * POS_T + j), s[j]), POS_R);
            }
            m[k] = acc;
        }
        s = m;
    }
    let h = pos_mul(s[0], U256(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u));
    let out = i * POS_OUT_WORDS;
    for (var k = 0u; k < 8u; k++) {
        pos_out[out + k] = h[k];
    }
    pos_out[out + 8u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
