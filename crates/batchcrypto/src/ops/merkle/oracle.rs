//! The reference: each level built from the one below, one node at a time,
//! with the oracle hash crates (through [`Rule::node`]).

use super::{Rule, Tree, parent_level};
use crate::ops::hash::Digest;

/// The whole tree of `leaves` under `rule`; `None` for no leaves.
pub fn tree(rule: Rule, leaves: &[Digest]) -> Option<Tree> {
    if leaves.is_empty() {
        return None;
    }
    let mut levels = vec![leaves.to_vec()];
    while let Some(level) = levels.last().filter(|l| l.len() > 1) {
        let up = parent_level(rule, level);
        levels.push(up);
    }
    Some(Tree::from_levels(rule, levels))
}

/// The root of `leaves` under `rule`; `None` for no leaves.
pub fn root(rule: Rule, leaves: &[Digest]) -> Option<Digest> {
    tree(rule, leaves).map(|t| t.root())
}
