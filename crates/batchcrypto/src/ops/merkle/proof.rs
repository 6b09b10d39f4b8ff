//! Inclusion proofs checked in batches (the operations
//! `merkle_proof_keccak256`, `merkle_proof_sha256`, `merkle_proof_poseidon`):
//! each item claims that `leaf` is a leaf of the tree whose root is `root`,
//! under one [`Rule`] per call, by the siblings of the leaf's path, bottom
//! up. The path's sides are the bits of `index`, least significant first: a
//! 0 bit puts the node on the left of its sibling. That is how the users'
//! verifiers fold a proof, and how the producers hand it over:
//!
//! - OpenZeppelin's `MerkleProof.verify(proof, root, leaf)` (sorted pairs:
//!   the index does not enter, give 0);
//! - Bitcoin Core's `ComputeMerkleRootFromBranch` and Electrum's
//!   `blockchain.transaction.get_merkle` branches (SPV proofs: the leaf's
//!   position in the block, a duplicated last node in the branch as itself);
//! - zk-kit's `LeanIMT.verifyProof` (its proofs' `index` holds only the
//!   bits of the levels where the node had a sibling: the path, not the
//!   leaf's position, where a level carried the node up);
//! - the fixed-depth trees of [`super::Padding`] (zk-kit's
//!   `IncrementalMerkleTree`, Semaphore v1-v3, Tornado-style pools): the
//!   leaf's position, as many siblings as the depth.
//!
//! An item is `root (32) ‖ leaf (32) ‖ index (8 bytes, big-endian) ‖
//! siblings (32 bytes each, bottom up, at most` [`MAX_SIBLINGS`]`)`.
//! A call may fix the number of siblings (`depth`: a padded tree's depth),
//! so that no shorter proof passes an inner node off as a leaf.
//!
//! The checks, in order; the first that fails is the reason:
//! 1. `wrong_input_length`: the item is not the 72-byte head and whole
//!    siblings, or has more than [`MAX_SIBLINGS`];
//! 2. `wrong_proof_length`: the call fixed a depth and the item has
//!    another number of siblings;
//! 3. `leaf_index_out_of_range`: `index` is not below 2^siblings (a path of
//!    k levels has k bits; Bitcoin Core and Electrum ignore the rest, this
//!    engine refuses them rather than report a position no tree has);
//! 4. `non_canonical_element` (lean-imt-poseidon): the leaf or a sibling is
//!    not below BN254's r;
//! 5. `root_mismatch`: the path's root is not `root`.

use super::{Rule, check_leaves};
use crate::ops::hash::Digest;
use crate::verdict::{Reason, Verdict};

/// Bytes before the siblings: root, leaf, index.
pub const HEAD_LEN: usize = 72;

/// The most siblings of a proof (the index's bits; [`super::MAX_DEPTH`]).
pub const MAX_SIBLINGS: usize = super::MAX_DEPTH as usize;

/// An item read: its parts, checked (see the module's list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proof<'a> {
    /// The root the item claims.
    pub root: &'a Digest,
    /// The leaf.
    pub leaf: &'a Digest,
    /// The path's sides, bit l for level l (0: the node is on the left).
    pub index: u64,
    /// The siblings, bottom up.
    pub siblings: &'a [Digest],
}

impl Proof<'_> {
    /// Whether the node at level `l` of the path is the right one of its pair.
    pub fn right_at(&self, l: usize) -> bool {
        (self.index >> l) & 1 == 1
    }
}

/// An item's bytes: `root ‖ leaf ‖ index ‖ siblings` (see the module's docs).
pub fn encode(root: &Digest, leaf: &Digest, index: u64, siblings: &[Digest]) -> Vec<u8> {
    let mut item = Vec::with_capacity(HEAD_LEN + 32 * siblings.len());
    item.extend_from_slice(root);
    item.extend_from_slice(leaf);
    item.extend_from_slice(&index.to_be_bytes());
    item.extend_from_slice(siblings.as_flattened());
    item
}

/// Why a call's `depth` cannot be used, if it cannot: 1 to [`MAX_SIBLINGS`].
pub fn depth_refusal(depth: Option<u32>) -> Option<String> {
    match depth {
        Some(d) if !(1..=super::MAX_DEPTH).contains(&d) => Some(format!("depth {d} is not 1 to {}", super::MAX_DEPTH)),
        _ => None,
    }
}

/// The item's parts, or the reason of the first of checks 1 to 4 that it
/// fails (see the module's list); `depth`, when given, fixes the number of
/// siblings.
pub fn read(rule: Rule, depth: Option<u32>, item: &[u8]) -> Result<Proof<'_>, Reason> {
    let (head, rest) = item.split_at_checked(HEAD_LEN).ok_or(Reason::WrongInputLength)?;
    let (siblings, tail) = rest.as_chunks::<32>();
    if !tail.is_empty() || siblings.len() > MAX_SIBLINGS {
        return Err(Reason::WrongInputLength);
    }
    if depth.is_some_and(|d| d as usize != siblings.len()) {
        return Err(Reason::WrongProofLength);
    }
    let (root, rest) = head.split_first_chunk::<32>().ok_or(Reason::WrongInputLength)?;
    let (leaf, index) = rest.split_first_chunk::<32>().ok_or(Reason::WrongInputLength)?;
    let index = u64::from_be_bytes(index.try_into().map_err(|_| Reason::WrongInputLength)?);
    if siblings.len() < MAX_SIBLINGS && index >> siblings.len() != 0 {
        return Err(Reason::LeafIndexOutOfRange);
    }
    check_leaves(rule, std::slice::from_ref(leaf)).map_err(|(_, r)| r)?;
    check_leaves(rule, siblings).map_err(|(_, r)| r)?;
    Ok(Proof {
        root,
        leaf,
        index,
        siblings,
    })
}

/// The verdict on a read item: valid when its path's top is its root.
pub(crate) fn verdict(top_is_root: bool) -> Verdict {
    if top_is_root {
        Verdict::Valid
    } else {
        Verdict::Invalid(Reason::RootMismatch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(siblings: usize, index: u64) -> Vec<u8> {
        encode(&[1; 32], &[2; 32], index, &vec![[3u8; 32]; siblings])
    }

    #[test]
    fn checks_come_in_order() {
        let rule = Rule::SortedKeccak256;
        assert_eq!(read(rule, None, &item(3, 7)[..71]), Err(Reason::WrongInputLength));
        assert_eq!(read(rule, None, &item(3, 7)[..100]), Err(Reason::WrongInputLength));
        assert_eq!(read(rule, None, &item(65, 0)), Err(Reason::WrongInputLength));
        assert_eq!(read(rule, Some(4), &item(3, 99)), Err(Reason::WrongProofLength));
        assert_eq!(read(rule, None, &item(3, 8)), Err(Reason::LeafIndexOutOfRange));
        assert_eq!(read(rule, None, &item(0, 1)), Err(Reason::LeafIndexOutOfRange));
        let bytes = item(3, 7);
        let p = read(rule, Some(3), &bytes).expect("reads");
        assert_eq!((p.index, p.siblings.len(), p.root, p.leaf), (7, 3, &[1; 32], &[2; 32]));
        assert!(p.right_at(2) && !p.right_at(3));
        // 64 siblings take any index.
        assert!(read(rule, None, &item(64, u64::MAX)).is_ok());
        // Poseidon's elements: leaf, then siblings, below r.
        let big = encode(&[0; 32], &[0xff; 32], 0, &[]);
        assert_eq!(
            read(Rule::LeanImtPoseidon, None, &big),
            Err(Reason::NonCanonicalElement)
        );
        let big = encode(&[0; 32], &[0; 32], 0, &[[0xff; 32]]);
        assert_eq!(
            read(Rule::LeanImtPoseidon, None, &big),
            Err(Reason::NonCanonicalElement)
        );
        assert!(read(Rule::Bitcoin, None, &big).is_ok());
        assert_eq!(depth_refusal(Some(0)).is_some(), depth_refusal(Some(65)).is_some());
        assert_eq!(depth_refusal(Some(64)), None);
    }
}
