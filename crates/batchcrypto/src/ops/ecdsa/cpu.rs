//! The CPU path: the oracle calls on every core (runs of items per rayon
//! task), with each rejected item's reason found by the documented checks.
//! secp256k1 keys repeat in real batches; each distinct key is parsed once.

use std::collections::HashMap;

use p256::ecdsa::signature::hazmat::PrehashVerifier;
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
    cores::map(items, RUN, |item| {
        let id = recovery_id(item.sig[64]).ok_or(Reason::BadV)?;
        k1_scalar_checks(&item.sig, low_s)?;
        let id = RecoveryId::try_from(i32::from(id)).map_err(|_| Reason::BadV)?;
        let sig = RecoverableSignature::from_compact(&item.sig[..64], id).map_err(|_| Reason::SOutOfRange)?;
        let pk = sig
            .recover(Message::from_digest(item.hash))
            .map_err(|_| Reason::RecoveryFailed)?;
        Ok(oracle::recovered(&pk.serialize_uncompressed()))
    })
}

/// One verdict per `p256_verify` item.
pub(crate) fn p256_verify(items: &[P256Item]) -> Vec<Verdict> {
    cores::map(items, RUN, |item| {
        verdict((|| {
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
            let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).map_err(|_| Reason::NotOnCurve)?;
            let sig = p256::ecdsa::Signature::from_scalars(item.r, item.s).map_err(|_| Reason::SOutOfRange)?;
            key.verify_prehash(&item.hash, &sig).map_err(|_| Reason::Equation)
        })())
    })
}
