// Poseidon's permutation with circom's parameters over BN254's r on the
// device (see ops/poseidon.rs), for the kernels that hash with it
// (hash.wgsl: a thread per item; ops/merkle/poseidon.wgsl: a thread per
// node of a Merkle level). Elements are in Montgomery form (R = 2^256:
// arkworks' own representation), and the width's constants likewise, in
// the schedule of ops/poseidon/schedule.rs (the same permutation): 4 full
// rounds (constants, x^5 on every element, the matrix; the fourth's
// matrix the one the schedule made), POS_PARTIAL partial rounds (one
// constant, x^5 on the first element, a sparse matrix: 2 POS_T - 1
// multiplications), 4 full rounds. The width is a constant: the state and
// the loops have a fixed size. At most about 3,500 loop iterations per
// permutation (POS_T = 13), under llvmpipe's limit. Composed after the
// guard, the 256-bit Montgomery layer and POS_T, POS_PARTIAL, POS_R and
// POS_INV (gpu/shaders.rs `poseidon`); the width's constants at binding 1.

// Where each part of the schedule starts among the constants, in
// elements: the full rounds' constants (POS_T each), the partial rounds'
// (one each), the full rounds' matrix, the fourth full round's, the
// sparse matrices (2 POS_T - 1 each: the corner, the first row's others,
// the first column's others).
const POS_FULL_AT: u32 = 0u;
const POS_PARTIAL_AT: u32 = 8u * POS_T;
const POS_MDS_AT: u32 = POS_PARTIAL_AT + POS_PARTIAL;
const POS_PRE_AT: u32 = POS_MDS_AT + POS_T * POS_T;
const POS_SPARSE_AT: u32 = POS_PRE_AT + POS_T * POS_T;

@group(0) @binding(1) var<storage, read> pos_consts: array<u32>;

fn pos_const(e: u32) -> U256 {
    let w = 8u * e;
    return U256(pos_consts[w], pos_consts[w + 1u], pos_consts[w + 2u], pos_consts[w + 3u], pos_consts[w + 4u],
        pos_consts[w + 5u], pos_consts[w + 6u], pos_consts[w + 7u]);
}

fn pos_mul(a: U256, b: U256) -> U256 {
    return mont_mul(a, b, POS_R, POS_INV);
}

fn pos_sbox(x: U256) -> U256 {
    let x2 = pos_mul(x, x);
    let x4 = pos_mul(x2, x2);
    return pos_mul(x4, x);
}

// Full round r: its constants, x^5 on every element, the matrix at
// `matrix` among the constants.
fn pos_full(s: ptr<function, array<U256, POS_T>>, r: u32, matrix: u32) {
    for (var j = 0u; j < POS_T; j++) {
        (*s)[j] = pos_sbox(mont_add((*s)[j], pos_const(POS_FULL_AT + r * POS_T + j), POS_R));
    }
    var m: array<U256, POS_T>;
    for (var k = 0u; k < POS_T; k++) {
        var acc = U256(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
        for (var j = 0u; j < POS_T; j++) {
            acc = mont_add(acc, pos_mul(pos_const(matrix + k * POS_T + j), (*s)[j]), POS_R);
        }
        m[k] = acc;
    }
    *s = m;
}

// The permutation of the state s, in place (s[0] the domain tag, the
// inputs after it); the hash is s[0] afterwards.
fn pos_permute(s: ptr<function, array<U256, POS_T>>) {
    for (var r = 0u; r < 4u; r++) {
        pos_full(s, r, select(POS_MDS_AT, POS_PRE_AT, r == 3u));
    }
    for (var k = 0u; k < POS_PARTIAL; k++) {
        let x = pos_sbox(mont_add((*s)[0], pos_const(POS_PARTIAL_AT + k), POS_R));
        let at = POS_SPARSE_AT + k * (2u * POS_T - 1u);
        var first = pos_mul(pos_const(at), x);
        for (var j = 1u; j < POS_T; j++) {
            first = mont_add(first, pos_mul(pos_const(at + j), (*s)[j]), POS_R);
            (*s)[j] = mont_add((*s)[j], pos_mul(pos_const(at + POS_T - 1u + j), x), POS_R);
        }
        (*s)[0] = first;
    }
    for (var r = 4u; r < 8u; r++) {
        pos_full(s, r, POS_MDS_AT);
    }
}
