// Merkle level reduction under the rules over bytes (level.wgsl: a
// dispatch per level, a thread per parent; pair.wgsl: the parent of two
// nodes). Composed after guard, keccak, sha256, pair.wgsl and level.wgsl.
//
// An odd last node is hashed with itself under the bitcoin rule and
// carried up under sorted-keccak256; in a padded tree it is paired with
// the level's zero under either rule.

@compute @workgroup_size(WORKGROUP_SIZE)
fn merkle_level(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= (level.n_in + 1u) / 2u {
        return;
    }
    let left = load_node(level.in_off + 2u * i);
    var out = left;
    if has_right(i) {
        out = pair_node(level.rule, left, right_node(i));
    } else if level.rule == RULE_BITCOIN {
        out = pair_node(level.rule, left, left);
    }
    level_finish(i, out, out);
}
