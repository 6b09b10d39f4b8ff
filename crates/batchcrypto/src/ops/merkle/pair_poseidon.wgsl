// The parent of two nodes under lean-imt-poseidon (see ops/merkle.rs),
// shared by the level kernel (poseidon.wgsl) and the proofs' (proof.wgsl).
// Composed after ops/poseidon/poseidon.wgsl with POS_T = 3.
//
// A node is its Montgomery form, eight words least significant first; the
// parent is the first element of the permuted state (0, left, right), kept
// in Montgomery form. (`rule` is for the shape the rules over bytes share.)

fn pair_node(rule: u32, left: array<u32, 8>, right: array<u32, 8>) -> array<u32, 8> {
    var s: array<U256, POS_T>;
    s[1] = left;
    s[2] = right;
    pos_permute(&s);
    return s[0];
}
