//! The reference: alloy-eips's `SignedAuthorization` decoder and
//! `signature_hash` ([`super::signing`]), then libsecp256k1's recovery
//! with EIP-7702's low s ([`crate::ops::tx_sender::oracle::signer`]); the
//! reasons of the checks it fails in the module's order (see [`super`]).

use super::{AuthorityResult, signing};
use crate::ops::tx_sender::oracle::signer;

/// The authority of one authorization (see [`super`]).
pub fn authority(auth: &[u8]) -> AuthorityResult {
    signer(&signing(auth)?)
}
