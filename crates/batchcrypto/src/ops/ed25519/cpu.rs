//! The CPU path: every core through the engine's rayon pool, verdicts equal
//! to the oracles' by construction.
//!
//! - Keys repeat in real workloads (a validator signs many messages), so
//!   each distinct public key is decoded once per batch ([`KeyCache`]).
//! - `strict`: ed25519-dalek `verify_strict` per item with the cached key.
//!   dalek's `verify_batch` is *not* used: it is cofactorless and random
//!   linear combinations of cofactorless equations can disagree with
//!   `verify_strict` on crafted inputs (speccheck case 4).
//! - `zip215`: ed25519-zebra's batch verifier on chunks, in parallel. The
//!   ZIP-215 batch equation is cofactored, hence consistent with single
//!   verification: a batch passes iff every item passes (up to a 2^-128
//!   chance over the random coefficients). A failed chunk is bisected; small
//!   pieces are verified one by one with the oracle, so every item still
//!   gets its exact verdict. Chunk sizes follow the share of invalid items
//!   ([`crate::bisect`]): invalid items cannot make it slower than
//!   verifying one by one.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{KeyState, PK_LEN, Policy, SIG_LEN, classify, s_is_canonical};
use crate::bisect::{self, Checker, Cost};
use crate::verdict::Verdict;

use super::Batch;
use crate::cores;

/// Costs of a zebra batch check in single verifications (the oracle with
/// a cached key), measured on the 2-core development VM with 256 distinct
/// signers: 1.79 at 2 items, 8.9 at 16, 16.8 at 32, 34.1 at 64 (54.3 at
/// 128: the multiscalar multiplication gets cheaper per item, so the model
/// overestimates large chunks); rounded up.
pub(crate) const BATCH_COST: Cost = Cost {
    fixed: 0.8,
    per_item: 0.53,
    max_chunk: 128,
    leaf: 4,
};

/// Verifies every item of `batch` under `policy` ([`crate::cores`]).
pub(crate) fn verify(batch: &Batch, policy: Policy) -> Vec<Verdict> {
    match policy {
        Policy::Strict => verify_strict(batch),
        Policy::Zip215 => verify_zip215(batch),
    }
}

/// Each distinct key of a batch decoded once: `slot[i]` indexes the decoded
/// key of item `i` in `keys` (`None` when the bytes do not decode).
struct KeyCache<K> {
    keys: Vec<Option<K>>,
    slot: Vec<u32>,
}

impl<K: Send> KeyCache<K> {
    fn build(pks: &[[u8; PK_LEN]], decode: impl Fn(&[u8; PK_LEN]) -> Option<K> + Sync) -> Self {
        let mut index: HashMap<&[u8; PK_LEN], u32> = HashMap::with_capacity(pks.len().min(1 << 16));
        let mut distinct: Vec<&[u8; PK_LEN]> = Vec::new();
        let slot = pks
            .iter()
            .map(|pk| {
                *index.entry(pk).or_insert_with(|| {
                    distinct.push(pk);
                    // A batch never holds 2^32 items (offsets are u32).
                    (distinct.len() - 1) as u32
                })
            })
            .collect();
        let keys = cores::map(&distinct, 1, |pk| decode(pk));
        KeyCache { keys, slot }
    }

    fn get(&self, i: usize) -> Option<&K> {
        self.keys[self.slot[i] as usize].as_ref()
    }
}

fn verify_strict(batch: &Batch) -> Vec<Verdict> {
    let cache = KeyCache::build(batch.pks(), |pk| ed25519_dalek::VerifyingKey::from_bytes(pk).ok());
    cores::map_range(0..batch.len(), 8, |i| {
        let (sig, msg) = (batch.sig(i), batch.msg(i));
        let key = cache.get(i);
        let ok = key.is_some_and(|key| {
            key.verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
                .is_ok()
        });
        if ok {
            return Verdict::Valid;
        }
        // Only a failure's reason asks whether the key has small order
        // (three doublings: 1.6% of a verification, measured by callgrind).
        let key = key.map_or(KeyState::Malformed, |k| KeyState::Decoded {
            small_order: k.is_weak(),
        });
        verdict(false, Policy::Strict, key, sig)
    })
}

fn verify_zip215(batch: &Batch) -> Vec<Verdict> {
    let cache = KeyCache::build(batch.pks(), |pk| ed25519_zebra::VerificationKey::try_from(*pk).ok());
    // Items that fail a cheap structural check (key does not decode, S >= L)
    // are decided at once; the rest go to batch verification.
    let mut verdicts = vec![Verdict::Valid; batch.len()];
    let mut candidates = Vec::with_capacity(batch.len());
    for (i, verdict) in verdicts.iter_mut().enumerate() {
        let sig = batch.sig(i);
        let key_ok = cache.get(i).is_some();
        if key_ok && s_is_canonical(sig) {
            candidates.push(i);
        } else {
            *verdict = Verdict::Invalid(classify(Policy::Zip215, zip215_key_state(key_ok), sig));
        }
    }
    let ok = decide_zip215(batch, &cache, &candidates);
    // The reason of a failed item decodes R: in parallel.
    let decided: Vec<Verdict> = cores::map_range(0..candidates.len(), 1, |k| {
        verdict(ok[k], Policy::Zip215, zip215_key_state(true), batch.sig(candidates[k]))
    });
    for (&i, v) in candidates.iter().zip(decided) {
        verdicts[i] = v;
    }
    verdicts
}

/// Decides the `candidates` (items whose key decodes and whose S is
/// canonical) with zebra's batch verifier, chunk sizes adapted to the share
/// of invalid items ([`bisect::decide`]).
fn decide_zip215(batch: &Batch, cache: &KeyCache<ed25519_zebra::VerificationKey>, candidates: &[usize]) -> Vec<bool> {
    let check = Zip215 {
        batch,
        cache,
        items: (0..batch.len()).map(|_| OnceLock::new()).collect(),
    };
    bisect::decide(&check, candidates, BATCH_COST)
}

/// The candidates of a ZIP-215 batch, as single and batch checks.
struct Zip215<'a> {
    batch: &'a Batch,
    cache: &'a KeyCache<ed25519_zebra::VerificationKey>,
    /// Each item (by batch index) as a zebra batch item, made when it first takes part
    /// in a batch check: k = H(R || A || M) is computed there once and
    /// reused by every later check (none is made for items decided alone).
    items: Vec<OnceLock<ed25519_zebra::batch::Item>>,
}

impl Checker for Zip215<'_> {
    fn one(&self, i: usize) -> bool {
        verify_one_zip215(self.batch, self.cache, i)
    }

    /// ed25519-zebra's batch verification, with fresh random coefficients
    /// from the thread's CSPRNG.
    fn all(&self, items: &[usize]) -> bool {
        let mut verifier = ed25519_zebra::batch::Verifier::new();
        for &i in items {
            let item = self.items[i].get_or_init(|| {
                let vkb = ed25519_zebra::VerificationKeyBytes::from(*self.batch.pk(i));
                (
                    vkb,
                    ed25519_zebra::Signature::from_bytes(self.batch.sig(i)),
                    self.batch.msg(i),
                )
                    .into()
            });
            verifier.queue(item.clone());
        }
        verifier.verify(rand::rng()).is_ok()
    }
}

/// The ZIP-215 oracle on item `i` with its cached key.
fn verify_one_zip215(batch: &Batch, cache: &KeyCache<ed25519_zebra::VerificationKey>, i: usize) -> bool {
    let sig = ed25519_zebra::Signature::from_bytes(batch.sig(i));
    cache.get(i).is_some_and(|key| key.verify(&sig, batch.msg(i)).is_ok())
}

fn verdict(ok: bool, policy: Policy, key: KeyState, sig: &[u8; SIG_LEN]) -> Verdict {
    if ok {
        Verdict::Valid
    } else {
        Verdict::Invalid(classify(policy, key, sig))
    }
}

/// ZIP-215 never asks whether the key has small order.
fn zip215_key_state(decodes: bool) -> KeyState {
    if decodes {
        KeyState::Decoded { small_order: false }
    } else {
        KeyState::Malformed
    }
}
