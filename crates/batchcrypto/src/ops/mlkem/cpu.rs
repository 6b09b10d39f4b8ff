//! The CPU path: the oracle crate on every core, each distinct key decoded
//! once per run of [`KEYS_AT_ONCE`] items (decoding ek runs the modulus
//! check and hashes it; decoding dk adds the hash check, and a server
//! decapsulates many ciphertexts under one key), each refused item's
//! reason found by the documented checks ([`super`]). Outputs are the
//! oracle's by construction (the same library calls per item).

#![allow(deprecated)]

use ml_kem::{
    B32, Ciphertext, Decapsulate, DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey, ExpandedKeyEncoding,
    Key,
};
use rand::TryRng;
use rand::rngs::SysRng;

use super::oracle::{self, with_set};
use super::{
    DecapsItem, EncapsItem, Encapsulated, KeyPair, KeygenItem, Set, SharedSecret, decaps_length_reason, dk_reason,
    encaps_length_reason, keygen_reason,
};
use crate::cores;
use crate::ops::decode_distinct;
use crate::verdict::Reason;

/// Items per key cache (a batch of distinct keys must not hold them all).
pub(crate) const KEYS_AT_ONCE: usize = 1024;

/// One key pair (or reason) per item.
pub(crate) fn keygen(set: Set, items: &[KeygenItem]) -> Vec<Result<KeyPair, Reason>> {
    cores::map(items, 1, |it| match keygen_reason(it) {
        Some(reason) => Err(reason),
        None => oracle::keygen(set, &it.d, &it.z).ok_or(Reason::MalformedSeed),
    })
}

/// One encapsulation (or reason) per item; items without m draw it from
/// the operating system's generator.
pub(crate) fn encaps(set: Set, items: &[EncapsItem]) -> Vec<Result<Encapsulated, Reason>> {
    with_set!(set, P => {
        let mut out = Vec::with_capacity(items.len());
        for chunk in items.chunks(KEYS_AT_ONCE) {
            let keys = decode_distinct(chunk.iter().map(|it| it.ek.as_slice()), |ek| {
                EncapsulationKey::<P>::new(&Key::<EncapsulationKey<P>>::try_from(ek).ok()?).ok()
            });
            out.extend(cores::map(chunk, 1, |it| {
                if let Some(reason) = encaps_length_reason(set, it) {
                    return Err(reason);
                }
                let key = keys.get(it.ek.as_slice()).and_then(Option::as_ref).ok_or(Reason::KeyNotReduced)?;
                let m = match &it.m {
                    Some(m) => B32::try_from(m.as_slice()).map_err(|_| Reason::MalformedRandomness)?,
                    None => {
                        let mut m = B32::default();
                        SysRng.try_fill_bytes(&mut m).map_err(|_| Reason::RandomnessUnavailable)?;
                        m
                    }
                };
                let (ct, ss) = key.encapsulate_deterministic(&m);
                Ok(Encapsulated { ct: ct.to_vec(), ss: ss.into() })
            }));
        }
        out
    })
}

/// One shared secret (or reason) per item.
pub(crate) fn decaps(set: Set, items: &[DecapsItem]) -> Vec<Result<SharedSecret, Reason>> {
    with_set!(set, P => {
        let mut out = Vec::with_capacity(items.len());
        for chunk in items.chunks(KEYS_AT_ONCE) {
            let keys = decode_distinct(chunk.iter().map(|it| it.dk.as_slice()), |dk| {
                let enc = ExpandedDecapsulationKey::<P>::try_from(dk).ok()?;
                DecapsulationKey::<P>::from_expanded_bytes(&enc).ok()
            });
            out.extend(cores::map(chunk, 1, |it| {
                if let Some(reason) = decaps_length_reason(set, it) {
                    return Err(reason);
                }
                let key = keys
                    .get(it.dk.as_slice())
                    .and_then(Option::as_ref)
                    .ok_or_else(|| dk_reason(set, &it.dk))?;
                let ct = Ciphertext::<P>::try_from(it.ct.as_slice()).map_err(|_| Reason::MalformedCiphertext)?;
                Ok(key.decapsulate(&ct).into())
            }));
        }
        out
    })
}
