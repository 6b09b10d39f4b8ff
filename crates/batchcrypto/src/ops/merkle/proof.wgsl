// Inclusion proofs (see ops/merkle/proof.rs): a thread per proof folds its
// path from the leaf, the node on the side its index bit says at each
// level, and compares the top with the root. Composed after the rule's
// pair_node (pair.wgsl, or pair_poseidon.wgsl over Poseidon's permutation).
//
// The host sends only proofs that passed its checks, their nodes as the
// rule's pair_node takes them (bytes as little-endian words; Montgomery
// form under lean-imt-poseidon, where equal elements have equal forms).
// Per proof, `heads` holds the root and the leaf (eight words each), the
// index's low and high words, the number of siblings and where its first
// is in `siblings`.

struct ProofParams {
    n: u32,
    loop_guard: u32,
    rule: u32,
    pad0: u32,
}

const PROOF_HEAD_WORDS: u32 = 20u;
// Per proof: 1 where the path's top is the root, then the completion flag.
const PROOF_OUT_WORDS: u32 = 2u;

@group(0) @binding(0) var<uniform> params: ProofParams;
@group(0) @binding(2) var<storage, read> heads: array<u32>;
@group(0) @binding(3) var<storage, read_write> proof_out: array<u32>;
@group(0) @binding(4) var<storage, read> siblings: array<u32>;

fn head_node(w: u32) -> array<u32, 8> {
    return array<u32, 8>(heads[w], heads[w + 1u], heads[w + 2u], heads[w + 3u], heads[w + 4u], heads[w + 5u],
        heads[w + 6u], heads[w + 7u]);
}

fn sibling(j: u32) -> array<u32, 8> {
    let w = 8u * j;
    return array<u32, 8>(siblings[w], siblings[w + 1u], siblings[w + 2u], siblings[w + 3u], siblings[w + 4u],
        siblings[w + 5u], siblings[w + 6u], siblings[w + 7u]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn merkle_proof(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let h = i * PROOF_HEAD_WORDS;
    var node = head_node(h + 8u);
    let count = heads[h + 18u];
    let first = heads[h + 19u];
    for (var l = 0u; l < count; l++) {
        let s = sibling(first + l);
        var bits = heads[h + 16u];
        var at = l;
        if l >= 32u {
            bits = heads[h + 17u];
            at = l - 32u;
        }
        if ((bits >> at) & 1u) == 1u {
            node = pair_node(params.rule, s, node);
        } else {
            node = pair_node(params.rule, node, s);
        }
    }
    let root = head_node(h);
    var same = 1u;
    for (var k = 0u; k < 8u; k++) {
        if node[k] != root[k] {
            same = 0u;
        }
    }
    proof_out[i * PROOF_OUT_WORDS] = same;
    proof_out[i * PROOF_OUT_WORDS + 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
