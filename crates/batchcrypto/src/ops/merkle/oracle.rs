//! The reference: each level built from the one below, one node at a time,
//! with the oracle hash crates (through [`Rule::node`]: `sha2`, `sha3`,
//! `light-poseidon`).

use super::{Rule, Tree, check_leaves, parent_level};
use crate::ops::hash::Digest;

/// The whole tree of `leaves` under `rule`; `None` for no leaves or a
/// leaf the rule cannot hash (lean-imt-poseidon: one not below r).
pub fn tree(rule: Rule, leaves: &[Digest]) -> Option<Tree> {
    if leaves.is_empty() || check_leaves(rule, leaves).is_err() {
        return None;
    }
    let mut levels = vec![leaves.to_vec()];
    while let Some(level) = levels.last().filter(|l| l.len() > 1) {
        let up = parent_level(rule, level)?;
        levels.push(up);
    }
    Some(Tree::from_levels(rule, levels))
}

/// The root of `leaves` under `rule`; `None` as [`tree`].
pub fn root(rule: Rule, leaves: &[Digest]) -> Option<Digest> {
    tree(rule, leaves).map(|t| t.root())
}
