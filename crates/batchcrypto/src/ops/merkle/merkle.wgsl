// Merkle level reduction under the rules over bytes (level.wgsl: a
// dispatch per level, a thread per parent). Composed after guard, keccak,
// sha256 and level.wgsl.
//
// A node is eight little-endian words of its 32 bytes. Under the bitcoin
// rule a parent is SHA-256(SHA-256(left || right)) and an odd last node is
// hashed with itself; under sorted-keccak256 it is keccak256 of the pair
// smaller first, and an odd last node is carried up. In a padded tree an
// odd last node is paired with the level's zero under either rule.

const RULE_SORTED_KECCAK256: u32 = 0u;
const RULE_BITCOIN: u32 = 1u;

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
    if has_right(i) {
        let right = right_node(i);
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
    level_finish(i, out, out);
}
