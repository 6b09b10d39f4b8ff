// The parent of two nodes under the Merkle rules over bytes (see
// ops/merkle.rs), shared by the level kernel (merkle.wgsl) and the proofs'
// (proof.wgsl). Composed after guard, keccak and sha256.
//
// A node is eight little-endian words of its 32 bytes. Under the bitcoin
// rule a parent is SHA-256(SHA-256(left || right)); under ssz
// SHA-256(left || right); under sorted-keccak256 keccak256 of the pair
// smaller first. The RULE_
// codes come before, rendered from the host's `Rule`.

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

// SHA-256(a || b)'s state words (big-endian words of the digest).
fn sha256_pair_state(a: array<u32, 8>, b: array<u32, 8>) -> array<u32, 8> {
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
    return st;
}

// A SHA-256 state as a node (its digest's bytes as little-endian words).
fn sha256_node(st: array<u32, 8>) -> array<u32, 8> {
    var out: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        out[k] = bswap32(st[k]);
    }
    return out;
}

// SHA-256(SHA-256(a || b)).
fn sha256d_pair(a: array<u32, 8>, b: array<u32, 8>) -> array<u32, 8> {
    let st = sha256_pair_state(a, b);
    // Once more over the 32-byte digest, padding in the same block.
    var st2 = SHA256_H0;
    var m: array<u32, 16>;
    for (var k = 0u; k < 8u; k++) {
        m[k] = st[k];
    }
    m[8] = 0x80000000u;
    m[15] = 256u;
    sha256_compress(&st2, m);
    return sha256_node(st2);
}

// The parent of `left` and `right` under `rule`.
fn pair_node(rule: u32, left: array<u32, 8>, right: array<u32, 8>) -> array<u32, 8> {
    if rule == RULE_BITCOIN {
        return sha256d_pair(left, right);
    }
    if rule == RULE_SSZ {
        return sha256_node(sha256_pair_state(left, right));
    }
    if node_less(right, left) {
        return keccak256_64(right, left);
    }
    return keccak256_64(left, right);
}
