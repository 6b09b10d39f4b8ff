//! The reference: alloy-trie's `proof::verify_proof` on the item's parts,
//! its errors as reasons (`RootMismatch` as `root_mismatch`, `ValueMismatch`
//! as `path_mismatch`, a node that does not decode or the empty node within
//! a path as `malformed_proof`), after the one check it lacks: a walk that
//! would pass 64 nibbles is `path_mismatch` (see [`super`]; alloy-trie's
//! nibble buffer panics there).

use alloy_primitives::{B256, Bytes};
use alloy_trie::Nibbles;
use alloy_trie::proof::{ProofVerificationError, verify_proof};

use super::{read, walk};
use crate::verdict::{Reason, Verdict};

/// The verdict on one item (see [`super`]).
pub fn verify(item: &[u8]) -> Verdict {
    let p = match read(item) {
        Ok(p) => p,
        Err(reason) => return Verdict::Invalid(reason),
    };
    if walk::too_long(&p) {
        return Verdict::Invalid(Reason::PathMismatch);
    }
    let nodes: Vec<Bytes> = p.nodes.iter().map(|n| Bytes::copy_from_slice(n)).collect();
    let checked = verify_proof(
        B256::from(*p.root),
        Nibbles::unpack(p.key),
        p.value.map(<[u8]>::to_vec),
        &nodes,
    );
    match checked {
        Ok(()) => Verdict::Valid,
        Err(ProofVerificationError::RootMismatch { .. }) => Verdict::Invalid(Reason::RootMismatch),
        Err(ProofVerificationError::ValueMismatch { .. }) => Verdict::Invalid(Reason::PathMismatch),
        Err(ProofVerificationError::UnexpectedEmptyRoot | ProofVerificationError::Rlp(_)) => {
            Verdict::Invalid(Reason::MalformedProof)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::mpt::{encode, sample};

    /// The one check the oracle adds is needed: alloy-trie 0.9.9 panics on
    /// a walk past 64 nibbles (two hashed extensions of 40), and the
    /// oracle answers `path_mismatch` without calling it.
    #[test]
    fn a_path_past_64_nibbles_is_refused_before_alloy_trie_panics() {
        let second = sample::extension(&[0x11; 20], &[7; 32]);
        let first = sample::extension(&[0x22; 20], &alloy_primitives::keccak256(&second).0);
        let root = alloy_primitives::keccak256(&first);
        let nodes = [Bytes::from(first.clone()), Bytes::from(second.clone())];
        let panicked = std::panic::catch_unwind(|| verify_proof(root, Nibbles::unpack([0x22; 32]), None, &nodes));
        assert!(panicked.is_err(), "alloy-trie no longer panics: the check may go");
        let item = encode(&root.0, &[0x22; 32], None, &[&first, &second]).expect("fits");
        assert_eq!(verify(&item), Verdict::Invalid(Reason::PathMismatch));
        // One extension of 40 nibbles is within bounds: alloy-trie answers.
        let item = encode(&root.0, &[0x22; 32], None, &[&first]).expect("fits");
        assert_eq!(verify(&item), Verdict::Invalid(Reason::PathMismatch));
        assert!(!walk::too_long(&read(&item).expect("reads")));
    }
}
