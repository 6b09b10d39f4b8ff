// What the Merkle level kernels share (merkle.wgsl for the rules over
// bytes, poseidon.wgsl for lean-imt-poseidon): one dispatch per level,
// one thread per parent node, every level in one submission (no readback
// between levels). Composed after the guard, before either kernel.
//
// `nodes` holds the whole tree, level after level (leaves first), a node
// as eight words. A level reads n_in nodes at in_off and writes
// ceil(n_in / 2) nodes at out_off.
//
// status[0]: LOOPS_CUT_FLAG if a driver cut any loop short; status[1]: one
// count per level that ran; status[2..10]: the root, written by the last
// level.

// `padded`: 1 for a padded tree, whose odd level's last node is paired
// with `zero` (the root of an empty subtree of this level's height, as the
// kernel holds a node) rather than under the rule's odd-node case.
struct Level {
    n_in: u32,
    in_off: u32,
    out_off: u32,
    rule: u32,
    loop_guard: u32,
    last: u32,
    padded: u32,
    pad0: u32,
    zero: array<vec4<u32>, 2>,
}

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(2) var<storage, read_write> nodes: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;

fn load_node(j: u32) -> array<u32, 8> {
    var w: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        w[k] = nodes[j * 8u + k];
    }
    return w;
}

// The right node of parent i: the next node, or a padded tree's zero
// past the level's last node (then the left node itself otherwise: only
// `has_right` says whether there is one).
fn right_node(i: u32) -> array<u32, 8> {
    if 2u * i + 1u < level.n_in {
        return load_node(level.in_off + 2u * i + 1u);
    }
    let z = level.zero;
    return array<u32, 8>(z[0].x, z[0].y, z[0].z, z[0].w, z[1].x, z[1].y, z[1].z, z[1].w);
}

// Whether parent i has a right node (the next node, or a padded tree's zero).
fn has_right(i: u32) -> bool {
    return 2u * i + 1u < level.n_in || level.padded == 1u;
}

// Stores parent i of this level as `out`; thread 0 counts the level and,
// on the last level, writes `root` (what the host reads of the root) into
// the status words.
fn level_finish(i: u32, out: array<u32, 8>, root: array<u32, 8>) {
    for (var k = 0u; k < 8u; k++) {
        nodes[(level.out_off + i) * 8u + k] = out[k];
    }
    if !loops_intact(level.loop_guard) {
        atomicOr(&status[0], LOOPS_CUT_FLAG);
    }
    if i == 0u {
        atomicAdd(&status[1], 1u);
        if level.last == 1u {
            for (var k = 0u; k < 8u; k++) {
                atomicStore(&status[2u + k], root[k]);
            }
        }
    }
}
