// Merkle level reduction: one dispatch per level, one thread per parent
// node, every level in one submission (no readback between levels).
// Composed after guard, keccak and sha256.
//
// `nodes` holds the whole tree, level after level (leaves first), a node as
// eight little-endian words of its 32 bytes. A level reads n_in nodes at
// in_off and writes ceil(n_in / 2) nodes at out_off. Under the bitcoin rule
// a parent is SHA-256(SHA-256(left || right)) and an odd last node is
// hashed with itself; under sorted-keccak256 it is keccak256 of the pair
// smaller first, and an odd last node is carried up.
//
// status[0]: LOOPS_CUT_FLAG if a driver cut any loop short; status[1]: one
// count per level that ran; status[2..10]: the root, written by the last level.

const RULE_SORTED_KECCAK256: u32 = 0u;
const RULE_BITCOIN: u32 = 1u;

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
@group(0) @binding(1) var<storage, read_write> nodes: array<u32>;
@group(0) @binding(2) var<storage, read_write> status: array<atomic<u32>>;

fn load_node(j: u32) -> array<u32, 8> {
    var w: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        w[k] = nodes[j * 8u + k];
    }
    return w;
}

// Whether node a sorts before node b as 32 bytes.
fn node_less(a: array<u32, 8>, b: array<u32, 8>) -> bool {
    for (var k = 0u; k < 8u; k++) {
        let x = bswap32(a[k]);
        let y = bswap32(b[k]);
        if x != y {
            return x < y;
        }
    }
    return false;
}

// SHA-256(SHA-256(a || b)).
fn sha256d_pair(a: array<u32, 8>, b: array<u32, 8>) -> array<u32, 8> {
    var st = SHA256_H0;
    var m: array<u32, 16>;
    for (var k = 0u; k < 8u; k++) {
        m[k] = bswap32(a[k]);
        m[8u + k] = bswap32(b[k]);
    }
    sha256_compress(&st, m);
    // The padding block of a 64-byte message.
    for (var k = 0u; k < 16u; k++) {
        m[k] = 0u;
    }
    m[0] = 0x80000000u;
    m[15] = 512u;
    sha256_compress(&st, m);
    // Once more over the 32-byte digest, padding in the same block.
    var st2 = SHA256_H0;
    for (var k = 0u; k < 8u; k++) {
        m[k] = st[k];
        m[8u + k] = 0u;
    }
    m[8] = 0x80000000u;
    m[15] = 256u;
    sha256_compress(&st2, m);
    var out: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        out[k] = bswap32(st2[k]);
    }
    return out;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn merkle_level(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= (level.n_in + 1u) / 2u {
        return;
    }
    let left = load_node(level.in_off + 2u * i);
    var out = left;
    if 2u * i + 1u < level.n_in {
        let right = load_node(level.in_off + 2u * i + 1u);
        if level.rule == RULE_BITCOIN {
            out = sha256d_pair(left, right);
        } else if node_less(right, left) {
            out = keccak256_64(right, left);
        } else {
            out = keccak256_64(left, right);
        }
    } else if level.rule == RULE_BITCOIN {
        out = sha256d_pair(left, left);
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
            for (var k = 0u; k < 8u; k++) {
                atomicStore(&status[2u + k], out[k]);
            }
        }
    }
}
