// A level of a lean-imt-poseidon Merkle tree (see ops/merkle.rs;
// level.wgsl: a dispatch per level, a thread per parent). Composed after
// ops/poseidon/poseidon.wgsl with POS_T = 3, pair_poseidon.wgsl and
// level.wgsl.
//
// Nodes are in Montgomery form (the host checked the leaves against r). A
// last node without a sibling is carried up as it is (in a padded tree it
// is paired with the level's zero); the root goes to the status words out
// of Montgomery form.

@compute @workgroup_size(WORKGROUP_SIZE)
fn merkle_poseidon_level(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= (level.n_in + 1u) / 2u {
        return;
    }
    var out = load_node(level.in_off + 2u * i);
    if has_right(i) {
        out = pair_node(level.rule, out, right_node(i));
    }
    var root = out;
    if i == 0u && level.last == 1u {
        root = pos_mul(out, U256(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u));
    }
    level_finish(i, out, root);
}
