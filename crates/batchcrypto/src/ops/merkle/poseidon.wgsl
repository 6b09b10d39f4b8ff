// A level of a lean-imt-poseidon Merkle tree (see ops/merkle.rs): one
// dispatch per level, one thread per parent node, every level in one
// submission, as merkle.wgsl does for the rules over bytes. Composed after
// ops/poseidon/poseidon.wgsl with POS_T = 3.
//
// `nodes` holds the whole tree, level after level (leaves first), a node
// as eight words of its Montgomery form, least significant first (the
// host checked the leaves against r). A level reads n_in nodes at in_off
// and writes ceil(n_in / 2) at out_off: a pair's parent is the first
// element of the permuted state (0, left, right), kept in Montgomery
// form; a last node without a sibling is carried up as it is.
//
// status[0]: LOOPS_CUT_FLAG if a driver cut any loop short; status[1]: one
// count per level that ran; status[2..10]: the root out of Montgomery
// form, written by the last level (the one of two nodes).

struct Level {
    n_in: u32,
    in_off: u32,
    out_off: u32,
    rule: u32,
    loop_guard: u32,
    last: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(2) var<storage, read_write> nodes: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;

fn load_element(j: u32) -> U256 {
    let w = 8u * j;
    return U256(nodes[w], nodes[w + 1u], nodes[w + 2u], nodes[w + 3u], nodes[w + 4u], nodes[w + 5u],
        nodes[w + 6u], nodes[w + 7u]);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn merkle_poseidon_level(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= (level.n_in + 1u) / 2u {
        return;
    }
    var out = load_element(level.in_off + 2u * i);
    if 2u * i + 1u < level.n_in {
        var s: array<U256, POS_T>;
        s[1] = out;
        s[2] = load_element(level.in_off + 2u * i + 1u);
        pos_permute(&s);
        out = s[0];
    }
    for (var k = 0u; k < 8u; k++) {
        nodes[(level.out_off + i) * 8u + k] = out[k];
    }
    if !loops_intact(level.loop_guard) {
        atomicOr(&status[0], LOOPS_CUT_FLAG);
    }
    if i == 0u {
        atomicAdd(&status[1], 1u);
        if level.last == 1u {
            let root = pos_mul(out, U256(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u));
            for (var k = 0u; k < 8u; k++) {
                atomicStore(&status[2u + k], root[k]);
            }
        }
    }
}
