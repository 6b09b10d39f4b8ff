//! The oracles: the vetted crates' own single-item verification, called
//! exactly as their documentation says. Every backend is compared with these
//! in the tests, and the bench uses them as the single-thread baseline.

use super::{KeyState, PK_LEN, Policy, SIG_LEN, classify};
use crate::verdict::Verdict;

/// ed25519-dalek `VerifyingKey::from_bytes(pk)?.verify_strict(msg, sig)`.
pub fn verify_strict(pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    let sig = ed25519_dalek::Signature::from_bytes(sig);
    ed25519_dalek::VerifyingKey::from_bytes(pk).is_ok_and(|key| key.verify_strict(msg, &sig).is_ok())
}

/// ed25519-zebra `VerificationKey::try_from(pk)?.verify(sig, msg)` (ZIP-215).
pub fn verify_zip215(pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    let sig = ed25519_zebra::Signature::from_bytes(sig);
    ed25519_zebra::VerificationKey::try_from(*pk).is_ok_and(|key| key.verify(&sig, msg).is_ok())
}

/// The oracle of `policy`.
pub fn verify(policy: Policy, pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    match policy {
        Policy::Strict => verify_strict(pk, sig, msg),
        Policy::Zip215 => verify_zip215(pk, sig, msg),
    }
}

/// The oracle of `policy` with the reason of a rejected item: the first
/// failing check of the module's list, the key decoded as the CPU path's
/// key cache decodes it (dalek's decoder and small-order test for the
/// strict policy, zebra's decoder for ZIP-215, which asks no order).
pub fn verdict(policy: Policy, pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> Verdict {
    if verify(policy, pk, sig, msg) {
        return Verdict::Valid;
    }
    let key = match policy {
        Policy::Strict => ed25519_dalek::VerifyingKey::from_bytes(pk).ok().map(|k| k.is_weak()),
        Policy::Zip215 => ed25519_zebra::VerificationKey::try_from(*pk).ok().map(|_| false),
    };
    let key = key.map_or(KeyState::Malformed, |small_order| KeyState::Decoded { small_order });
    Verdict::Invalid(classify(policy, key, sig))
}
