//! The CPU path on every core (runs of items per rayon task), with each
//! rejected item's reason found by the documented checks. secp256k1 runs the
//! oracle (libsecp256k1); its keys repeat in real batches, so each distinct
//! key is parsed once. P-256 runs AWS-LC through `aws-lc-rs`, which verifies
//! the 32-byte digest as given (`verify_digest` of an imported digest, as
//! RIP-7212 asks), 2.7-4.7x the `p256` oracle per verification on the
//! 2-core test VMs (Xeon, EPYC); the tests hold its verdicts to the
//! oracle's.

use std::collections::HashMap;

use aws_lc_rs::{digest, signature};
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId, Signature};
use secp256k1::{Message, PublicKey};

use super::{
    K1Key, K1VerifyItem, P256_N, P256Item, RecoverItem, Recovered, in_range, k1_scalar_checks, oracle, recovery_id,
};
use crate::cores;
use crate::verdict::{Reason, Verdict};

/// Fewest items per rayon task (a verification takes 30 to 400 µs).
const RUN: usize = 8;

fn verdict(r: Result<(), Reason>) -> Verdict {
    match r {
        Ok(()) => Verdict::Valid,
        Err(reason) => Verdict::Invalid(reason),
    }
}

/// One verdict per `secp256k1_verify` item.
pub(crate) fn secp256k1_verify(items: &[K1VerifyItem], low_s: bool) -> Vec<Verdict> {
    let mut distinct: Vec<K1Key> = items.iter().map(|i| i.pk).collect();
    distinct.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    distinct.dedup();
    let keys: HashMap<K1Key, Option<PublicKey>> =
        cores::map(&distinct, 1, |k| (*k, PublicKey::from_slice(k.as_bytes()).ok()))
            .into_iter()
            .collect();
    cores::map(items, RUN, |item| {
        verdict((|| {
            let pk = keys.get(&item.pk).copied().flatten().ok_or(Reason::MalformedKey)?;
            k1_scalar_checks(&item.sig, low_s)?;
            let mut sig = Signature::from_compact(&item.sig).map_err(|_| Reason::SOutOfRange)?;
            sig.normalize_s();
            secp256k1::ecdsa::verify(&sig, Message::from_digest(item.hash), &pk).map_err(|_| Reason::Equation)
        })())
    })
}

/// One result per `ecrecover` item.
pub(crate) fn ecrecover(items: &[RecoverItem], low_s: bool) -> Vec<Result<Recovered, Reason>> {
    cores::map(items, RUN, |item| recover(item, low_s))
}

/// One `ecrecover` item on the calling thread: the documented checks, then
/// libsecp256k1's recovery (also the `tx_sender` op's CPU path).
pub(crate) fn recover(item: &RecoverItem, low_s: bool) -> Result<Recovered, Reason> {
    let id = recovery_id(item.sig[64]).ok_or(Reason::BadV)?;
    k1_scalar_checks(&item.sig, low_s)?;
    let id = RecoveryId::try_from(i32::from(id)).map_err(|_| Reason::BadV)?;
    let sig = RecoverableSignature::from_compact(&item.sig[..64], id).map_err(|_| Reason::SOutOfRange)?;
    let pk = sig
        .recover(Message::from_digest(item.hash))
        .map_err(|_| Reason::RecoveryFailed)?;
    Ok(oracle::recovered(&pk.serialize_uncompressed()))
}

/// One verdict per `p256_verify` item.
pub(crate) fn p256_verify(items: &[P256Item]) -> Vec<Verdict> {
    cores::map(items, RUN, |item| verdict(p256_one(item)))
}

/// Every item on the calling thread, verdicts discarded: the bench's
/// `alt_1t` column (AWS-LC alone, what a user would otherwise write).
pub(crate) fn p256_each(items: &[P256Item]) {
    for item in items {
        std::hint::black_box(p256_one(item).is_ok());
    }
}

/// One item: the scalars' ranges, the key, then AWS-LC's verification.
fn p256_one(item: &P256Item) -> Result<(), Reason> {
    if !in_range(&item.r, &P256_N) {
        return Err(Reason::ROutOfRange);
    }
    if !in_range(&item.s, &P256_N) {
        return Err(Reason::SOutOfRange);
    }
    let mut sec1 = [0u8; 65];
    sec1[0] = 4;
    sec1[1..33].copy_from_slice(&item.x);
    sec1[33..].copy_from_slice(&item.y);
    let key = signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, &sec1)
        .parse()
        .map_err(|_| Reason::NotOnCurve)?;
    // The digest is the item's, not one computed here: SHA-256 only names
    // its length (32 bytes, P-256's scalar width).
    let digest = digest::Digest::import_less_safe(&item.hash, &digest::SHA256).map_err(|_| Reason::Equation)?;
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(&item.r);
    sig[32..].copy_from_slice(&item.s);
    key.verify_digest_sig(&digest, &sig).map_err(|_| Reason::Equation)
}
