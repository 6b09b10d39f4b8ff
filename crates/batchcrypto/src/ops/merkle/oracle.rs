//! The reference: each level built from the one below, one node at a time,
//! with the oracle hash crates (through [`Rule::node`]: `sha2`, `sha3`,
//! `light-poseidon`).

use super::{Padding, Rule, Tree, check_leaves, parent_level, proof};
use crate::ops::hash::Digest;
use crate::verdict::{Reason, Verdict};

/// The whole tree of `leaves` under `rule` (under ssz the padded tree of
/// the least depth that holds them, [`Rule::padding`]); `None` for no
/// leaves or a leaf the rule cannot hash (lean-imt-poseidon: one not
/// below r).
pub fn tree(rule: Rule, leaves: &[Digest]) -> Option<Tree> {
    if leaves.is_empty() || check_leaves(rule, leaves).is_err() {
        return None;
    }
    // ssz: the padded tree of the least depth that holds the leaves.
    if let Some(padding) = rule.padding(leaves.len()) {
        return padded_tree(rule, leaves, &padding);
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

/// The padded tree of `leaves` under `rule` ([`Padding`]), level by level:
/// each odd level's last node paired with the empty subtree's root of its
/// height; `None` where the tree cannot be built (too many leaves, a depth
/// over the most, a leaf or zero the rule cannot hash).
pub fn padded_tree(rule: Rule, leaves: &[Digest], padding: &Padding) -> Option<Tree> {
    if padding.refusal(rule, leaves.len()).is_some() || check_leaves(rule, leaves).is_err() {
        return None;
    }
    let zeros = padding.zeros(rule)?;
    let mut levels = vec![leaves.to_vec()];
    for zero in &zeros[..zeros.len() - 1] {
        let mut level = levels[levels.len() - 1].clone();
        if level.len() % 2 == 1 {
            level.push(*zero);
        }
        levels.push(parent_level(rule, &level)?);
    }
    if let Some(top) = levels.last_mut().filter(|l| l.is_empty()) {
        top.push(zeros[zeros.len() - 1]);
    }
    Some(Tree::padded(rule, levels, zeros))
}

/// The root of the padded tree of `leaves`; `None` as [`padded_tree`].
pub fn padded_root(rule: Rule, leaves: &[Digest], padding: &Padding) -> Option<Digest> {
    padded_tree(rule, leaves, padding).map(|t| t.root())
}

/// The verdict on an inclusion proof ([`super::proof`]): the item read
/// with its checks, then its path folded one node at a time from the leaf
/// (the node on the side its index bit says) and the top compared with
/// the root; `depth`, when given, fixes the number of siblings.
pub fn verify_proof(rule: Rule, depth: Option<u32>, item: &[u8]) -> Verdict {
    let proof = match proof::read(rule, depth, item) {
        Ok(p) => p,
        Err(reason) => return Verdict::Invalid(reason),
    };
    let mut node = *proof.leaf;
    for (l, s) in proof.siblings.iter().enumerate() {
        let up = if proof.right_at(l) {
            rule.node(s, &node)
        } else {
            rule.node(&node, s)
        };
        // `read` checked every element the rule hashes.
        let Some(up) = up else {
            return Verdict::Invalid(Reason::NonCanonicalElement);
        };
        node = up;
    }
    proof::verdict(&node == proof.root)
}
