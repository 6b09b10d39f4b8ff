//! The walk of a read item's nodes (checks 2 to 4 of [`super`]'s list),
//! alloy-trie's `verify_proof` step by step with the nodes' references
//! given: the CPU and GPU paths compute every node's Keccak-256 first, all
//! of a batch's at once (interleaved lanes, or the GPU's hash kernel), and
//! then walk. Branch nodes, most of a path, are read in place ([`read`]:
//! the seventeen items by alloy-rlp's `Header`, with the checks
//! alloy-trie's `TrieNode::decode` makes of a branch, the child at the
//! key's nibble taken without copying the others); every other node is
//! decoded by alloy-trie's `TrieNode` (the oracle's decoder). A walk whose path
//! would pass 64 nibbles stops ([`Stop::TooLong`]) where alloy-trie's
//! `Nibbles` would panic; the oracle asks this walk, without references,
//! whether an item gets there ([`too_long`]).

use alloy_rlp::{Decodable, EMPTY_STRING_CODE, Header};
use alloy_trie::Nibbles;
use alloy_trie::nodes::{RlpNode, TrieNode};

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
        next = follow(read(node)?, &mut path, &key)?;
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

/// A node as the walk reads it.
enum Node<'a> {
    /// A branch: its sixteen children's items (`0x80` where none).
    Branch([&'a [u8]; 16]),
    /// Any other node, by alloy-trie's decoder.
    Other(TrieNode),
}

/// The items of a branch node (a list of 17 items).
const BRANCH_ITEMS: usize = 17;

/// Reads `node`: a branch in place, as alloy-trie's `TrieNode::decode`
/// checks one (every item's header canonical, seventeen items, no child
/// item over 33 bytes, the value item `0x80`; bytes after the list
/// ignored), anything else by that decoder. Either fails alike
/// (`malformed_proof`) where the other does.
fn read(node: &[u8]) -> Result<Node<'_>, Stop> {
    let malformed = Stop::Failed(Reason::MalformedProof);
    let mut rest = node;
    let header = Header::decode(&mut rest)?;
    if header.list {
        let mut payload = rest.get(..header.payload_length).ok_or(malformed)?;
        let mut items = [&[][..]; BRANCH_ITEMS];
        let mut count = 0;
        while !payload.is_empty() && count <= BRANCH_ITEMS {
            let start = payload;
            let item = Header::decode(&mut payload)?;
            payload = payload.get(item.payload_length..).ok_or(malformed)?;
            if let Some(slot) = items.get_mut(count) {
                *slot = &start[..start.len() - payload.len()];
            }
            count += 1;
        }
        if count == BRANCH_ITEMS && payload.is_empty() {
            let (children, value) = items.split_at(16);
            if value[0] != [EMPTY_STRING_CODE] || children.iter().any(|c| c.len() > 33) {
                return Err(malformed);
            }
            let mut out = [&[][..]; 16];
            out.copy_from_slice(children);
            return Ok(Node::Branch(out));
        }
    }
    // Two items (an extension or a leaf), a string, or a list alloy-trie refuses.
    Ok(Node::Other(TrieNode::decode(&mut &node[..])?))
}

/// Where a read node leads on `key`, `path` extended by its nibbles.
fn follow(node: Node<'_>, path: &mut Path, key: &Nibbles) -> Result<Option<Next>, Stop> {
    let node = match node {
        Node::Branch(children) => return branch_child(&children, path, key),
        Node::Other(node) => node,
    };
    match node {
        // The empty node within a path is malformed; no branch comes back
        // from the decoder (`read` reads every list of seventeen items).
        TrieNode::Branch(_) | TrieNode::EmptyRoot => Err(Stop::Failed(Reason::MalformedProof)),
        TrieNode::Extension(ext) => {
            path.extend(&ext.key)?;
            if ext.child.is_hash() {
                Ok(Some(Next::Node(ext.child)))
            } else {
                follow(read(&ext.child)?, path, key)
            }
        }
        TrieNode::Leaf(leaf) => {
            path.extend(&leaf.key)?;
            Ok(Some(Next::Value(leaf.value)))
        }
    }
}

/// The child of a branch at the key's next nibble: a hashed child's
/// reference, or an embedded child followed in place (an embedded branch,
/// an embedded extension over an embedded branch, an embedded leaf); none
/// where the branch has no child there or the key has no nibble left.
fn branch_child(children: &[&[u8]; 16], path: &mut Path, key: &Nibbles) -> Result<Option<Next>, Stop> {
    let Some(nibble) = key.get(path.0.len()) else {
        return Ok(None);
    };
    let child = children[usize::from(nibble)];
    if child == [EMPTY_STRING_CODE] {
        return Ok(None);
    }
    path.0.push(nibble);
    if child.len() == 33 {
        // At most 33 bytes ([`read`]): it fits.
        let reference = RlpNode::from_raw(child).ok_or(Stop::Failed(Reason::MalformedProof))?;
        return Ok(Some(Next::Node(reference)));
    }
    let malformed = Err(Stop::Failed(Reason::MalformedProof));
    match read(child)? {
        Node::Branch(inner) => branch_child(&inner, path, key),
        Node::Other(TrieNode::Extension(ext)) => {
            path.extend(&ext.key)?;
            match read(&ext.child)? {
                Node::Branch(inner) => branch_child(&inner, path, key),
                Node::Other(_) => malformed,
            }
        }
        Node::Other(TrieNode::Leaf(leaf)) => {
            path.extend(&leaf.key)?;
            Ok(Some(Next::Value(leaf.value)))
        }
        Node::Other(TrieNode::Branch(_) | TrieNode::EmptyRoot) => malformed,
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::ops::mpt::sample;

    /// `read` agrees with alloy-trie's `TrieNode::decode` on the nodes of
    /// real proofs (branches, extensions, leaves, some embedded) and on
    /// 60,000 of them changed (bytes flipped, set, cut, inserted): both
    /// refuse or neither, and a branch's children are the items alloy-trie
    /// keeps, nibble by nibble.
    #[test]
    fn reading_in_place_agrees_with_alloy_trie() {
        let made = sample::proofs(192, 5, 0.0, true);
        let nodes: Vec<Vec<u8>> = made
            .iter()
            .flat_map(|(item, _)| {
                super::super::read(item).map(|p| p.nodes.iter().map(|n| n.to_vec()).collect::<Vec<_>>())
            })
            .flatten()
            .collect();
        assert!(nodes.len() > 500);
        let mut rng = StdRng::seed_from_u64(77);
        let mut branches = 0;
        for round in 0..60_000 + nodes.len() {
            let mut node = nodes[round % nodes.len()].clone();
            if round >= nodes.len() {
                let at = rng.random_range(0..node.len());
                match rng.random_range(0..4) {
                    0 => node[at] ^= 1 << rng.random_range(0..8),
                    1 => node[at] = rng.random(),
                    2 => node.truncate(at),
                    _ => node.insert(at, rng.random()),
                }
            }
            let ours = read(&node);
            let theirs = TrieNode::decode(&mut &node[..]);
            match (ours, theirs) {
                (Ok(Node::Branch(children)), Ok(TrieNode::Branch(b))) => {
                    branches += 1;
                    let mut stack = b.stack.iter();
                    for (nibble, child) in children.iter().enumerate() {
                        if b.state_mask.is_bit_set(nibble as u8) {
                            assert_eq!(Some(*child), stack.next().map(|c| &c[..]), "round {round}");
                        } else {
                            assert_eq!(*child, [EMPTY_STRING_CODE], "round {round}");
                        }
                    }
                }
                (Ok(Node::Other(ours)), Ok(theirs)) => assert_eq!(ours, theirs, "round {round}"),
                (Err(_), Err(_)) => {}
                (ours, theirs) => panic!("round {round}: ours {:?}, alloy-trie's {theirs:?}", ours.is_ok()),
            }
        }
        assert!(branches > 500, "{branches}");
    }
}
