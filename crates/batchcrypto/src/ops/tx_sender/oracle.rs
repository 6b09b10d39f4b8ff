//! The reference: alloy-consensus's decoder and signing hash
//! ([`super::signing`]), then libsecp256k1's recovery as the `ecrecover`
//! op's oracle makes it, with [EIP-2]'s low s; the reasons of the checks
//! it fails in the module's order (see [`super`]).
//!
//! [EIP-2]: https://eips.ethereum.org/EIPS/eip-2

use super::{SenderResult, signing};
use crate::ops::ecdsa::{self, RecoverItem, k1_scalar_checks};
use crate::verdict::Reason;

/// The sender of one transaction (see [`super`]).
pub fn sender(tx: &[u8]) -> SenderResult {
    signer(&signing(tx)?)
}

/// The signer's address of an `ecrecover` item under EIP-2's low s: the
/// checks' reasons in the `ecrecover` op's order, then libsecp256k1's
/// recovery (also `eip7702_authority`'s oracle).
pub fn signer(item: &RecoverItem) -> SenderResult {
    k1_scalar_checks(&item.sig, true)?;
    ecdsa::oracle::ecrecover(item, true)
        .map(|r| r.address)
        .ok_or(Reason::RecoveryFailed)
}
