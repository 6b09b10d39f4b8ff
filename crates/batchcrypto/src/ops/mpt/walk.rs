//! The walk of a read item's nodes (checks 2 to 4 of [`super`]'s list),
//! alloy-trie's `verify_proof` step by step with the nodes' references
//! given: the CPU and GPU paths compute every node's Keccak-256 first, all
//! of a batch's at once (interleaved lanes, or the GPU's hash kernel), and
//! then walk. Nodes are decoded by alloy-trie's own `TrieNode` (the
//! oracle's decoder, so that what decodes is the same). A walk whose path
//! would pass 64 nibbles stops ([`Stop::TooLong`]) where alloy-trie's
//! `Nibbles` would panic; the oracle asks this walk, without references,
//! whether an item gets there ([`too_long`]).

use alloy_rlp::Decodable;
use alloy_trie::Nibbles;
use alloy_trie::nodes::{BranchNode, RlpNode, TrieNode};

use super::{EMPTY_ROOT, Proof};
use crate::verdict::{Reason, Verdict};

/// Where a walk stopped short of its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// A check failed with this reason.
    Failed(Reason),
    /// The path would pass 64 nibbles.
    TooLong,
}

impl From<alloy_rlp::Error> for Stop {
    fn from(_: alloy_rlp::Error) -> Self {
        Stop::Failed(Reason::MalformedProof)
    }
}

/// What a node leads to: the next node's reference, or a value.
enum Next {
    Node(RlpNode),
    Value(Vec<u8>),
}

/// The path walked so far, bounded at 64 nibbles.
struct Path(Nibbles);

impl Path {
    fn extend(&mut self, nibbles: &Nibbles) -> Result<(), Stop> {
        if self.0.len() + nibbles.len() > 64 {
            return Err(Stop::TooLong);
        }
        self.0.extend(nibbles);
        Ok(())
    }
}

/// The verdict on `p`, `refers(i, reference)` saying whether node `i` is
/// the one `reference` (an RLP node: a hash as `0xa0 ‖ 32 bytes`, or an
/// embedded node) points to.
pub(crate) fn verdict(p: &Proof<'_>, refers: impl Fn(usize, &[u8]) -> bool) -> Verdict {
    match walk(p, refers) {
        Ok(()) => Verdict::Valid,
        Err(Stop::Failed(reason)) => Verdict::Invalid(reason),
        Err(Stop::TooLong) => Verdict::Invalid(Reason::PathMismatch),
    }
}

/// Whether `node` is what `reference` points to, `digest` its Keccak-256
/// (read only when the node has 32 bytes or more: shorter nodes are
/// embedded, their own references).
pub(crate) fn refers_by(node: &[u8], digest: Option<&[u8; 32]>, reference: &[u8]) -> bool {
    if node.len() < 32 {
        return reference == node;
    }
    digest.is_some_and(|d| {
        reference.len() == 33 && reference[0] == alloy_rlp::EMPTY_STRING_CODE + 32 && reference[1..] == d[..]
    })
}

/// Whether `p`'s walk would pass 64 nibbles before any of its nodes fails
/// to decode, every reference taken as matching: where it does, the walk
/// with references either stops there too or fails earlier on a node that
/// is not its parent's child (`path_mismatch` either way), and where it
/// does not, alloy-trie's walk (a prefix of this one) stays within 64.
pub(crate) fn too_long(p: &Proof<'_>) -> bool {
    walk(p, |_, _| true) == Err(Stop::TooLong)
}

fn walk(p: &Proof<'_>, refers: impl Fn(usize, &[u8]) -> bool) -> Result<(), Stop> {
    if p.nodes.first().is_none_or(|n| *n == [alloy_rlp::EMPTY_STRING_CODE]) {
        return match (*p.root == EMPTY_ROOT, p.value) {
            (true, None) => Ok(()),
            (true, Some(_)) => Err(Stop::Failed(Reason::PathMismatch)),
            (false, _) => Err(Stop::Failed(Reason::RootMismatch)),
        };
    }
    let key = Nibbles::unpack(p.key);
    let mut path = Path(Nibbles::new());
    let mut next = Some(Next::Node(RlpNode::word_rlp(&(*p.root).into())));
    for (i, node) in p.nodes.iter().enumerate() {
        match &next {
            Some(Next::Node(reference)) if refers(i, reference) => {}
            _ => return Err(Stop::Failed(Reason::PathMismatch)),
        }
        next = follow(TrieNode::decode(&mut &node[..])?, &mut path, &key)?;
    }
    // The path still follows the key and a node is pointed to: cut short.
    if key.starts_with(&path.0) && matches!(next, Some(Next::Node(_))) {
        return Err(Stop::Failed(Reason::PathMismatch));
    }
    let found = match next {
        Some(Next::Value(v)) if path.0 == key => Some(v),
        _ => None,
    };
    if found.as_deref() == p.value {
        Ok(())
    } else {
        Err(Stop::Failed(Reason::PathMismatch))
    }
}

/// Where a decoded node leads on `key`, `path` extended by its nibbles.
fn follow(node: TrieNode, path: &mut Path, key: &Nibbles) -> Result<Option<Next>, Stop> {
    match node {
        TrieNode::Branch(branch) => branch_child(branch, path, key),
        TrieNode::Extension(ext) => {
            path.extend(&ext.key)?;
            if ext.child.is_hash() {
                Ok(Some(Next::Node(ext.child)))
            } else {
                follow(TrieNode::decode(&mut &ext.child[..])?, path, key)
            }
        }
        TrieNode::Leaf(leaf) => {
            path.extend(&leaf.key)?;
            Ok(Some(Next::Value(leaf.value)))
        }
        TrieNode::EmptyRoot => Err(Stop::Failed(Reason::MalformedProof)),
    }
}

/// The child of `branch` at the key's next nibble: a hashed child's
/// reference, or an embedded child followed in place (an embedded branch,
/// an embedded extension over an embedded branch, an embedded leaf); none
/// where the branch has no child there or the key has no nibble left.
fn branch_child(mut branch: BranchNode, path: &mut Path, key: &Nibbles) -> Result<Option<Next>, Stop> {
    let Some(nibble) = key.get(path.0.len()) else {
        return Ok(None);
    };
    if !branch.state_mask.is_bit_set(nibble) {
        return Ok(None);
    }
    // Children are stacked in nibble order, one per set bit.
    let at = (0..nibble).filter(|&b| branch.state_mask.is_bit_set(b)).count();
    path.0.push(nibble);
    let child = branch.stack.swap_remove(at);
    if child.len() == 33 {
        return Ok(Some(Next::Node(child)));
    }
    match TrieNode::decode(&mut &child[..])? {
        TrieNode::Branch(inner) => branch_child(inner, path, key),
        TrieNode::Extension(ext) => {
            path.extend(&ext.key)?;
            match TrieNode::decode(&mut &ext.child[..])? {
                TrieNode::Branch(inner) => branch_child(inner, path, key),
                _ => Err(Stop::Failed(Reason::MalformedProof)),
            }
        }
        TrieNode::Leaf(leaf) => {
            path.extend(&leaf.key)?;
            Ok(Some(Next::Value(leaf.value)))
        }
        TrieNode::EmptyRoot => Err(Stop::Failed(Reason::MalformedProof)),
    }
}
