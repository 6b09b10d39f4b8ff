//! The reference: solana-transaction's reader and sanitize rules
//! ([`super::read`]), then each signature, in order, by the
//! `ed25519_verify` op's oracle of the policy (ed25519-dalek's
//! `verify_strict`, ed25519-zebra's ZIP-215 `verify`), the first that
//! fails with the reason the module's list gives it (see [`super`]).

use super::{Signed, read};
use crate::ops::ed25519::{self, Policy};
use crate::verdict::Verdict;

/// The verdict on one transaction (see [`super`]).
pub fn verify(tx: &[u8], policy: Policy) -> Verdict {
    match read(tx) {
        Ok(signed) => signatures(&signed, policy),
        Err(reason) => Verdict::Invalid(reason),
    }
}

/// The verdict on a transaction read: its first signature that fails,
/// else valid.
pub fn signatures(signed: &Signed, policy: Policy) -> Verdict {
    signed
        .signatures
        .iter()
        .map(|(pk, sig)| ed25519::oracle::verdict(policy, pk, sig, &signed.message))
        .find(|v| !v.is_valid())
        .unwrap_or(Verdict::Valid)
}
