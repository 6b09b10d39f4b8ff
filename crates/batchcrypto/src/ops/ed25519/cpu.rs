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
//!   gets its exact verdict.

use std::collections::HashMap;

use rayon::prelude::*;

use super::{PK_LEN, Policy, SIG_LEN, classify, s_is_canonical};
use crate::verdict::Verdict;

use super::Batch;

/// Largest chunk given to one zebra batch verification. Bigger chunks make
/// the multiscalar multiplication cheaper per item but cost more to bisect
/// when an item fails.
const MAX_CHUNK: usize = 128;
/// Below this many items a failed chunk is verified item by item.
const BISECT_LEAF: usize = 4;

/// Verifies every item of `batch` under `policy` on the current rayon pool.
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
        let keys = distinct.par_iter().map(|pk| decode(pk)).collect();
        KeyCache { keys, slot }
    }

    fn get(&self, i: usize) -> Option<&K> {
        self.keys[self.slot[i] as usize].as_ref()
    }
}

fn verify_strict(batch: &Batch) -> Vec<Verdict> {
    let cache = KeyCache::build(batch.pks(), |pk| ed25519_dalek::VerifyingKey::from_bytes(pk).ok());
    (0..batch.len())
        .into_par_iter()
        .with_min_len(8)
        .map(|i| {
            let (pk, sig, msg) = (batch.pk(i), batch.sig(i), batch.msg(i));
            let key = cache.get(i);
            let ok = key.is_some_and(|key| {
                key.verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
                    .is_ok()
            });
            verdict(ok, Policy::Strict, key.is_some(), pk, sig)
        })
        .collect()
}

fn verify_zip215(batch: &Batch) -> Vec<Verdict> {
    let cache = KeyCache::build(batch.pks(), |pk| ed25519_zebra::VerificationKey::try_from(*pk).ok());
    // Items that fail a cheap structural check (key does not decode, S >= L)
    // are decided at once; the rest go to batch verification.
    let mut verdicts = vec![Verdict::Valid; batch.len()];
    let mut candidates = Vec::with_capacity(batch.len());
    for (i, verdict) in verdicts.iter_mut().enumerate() {
        let (pk, sig) = (batch.pk(i), batch.sig(i));
        let key_ok = cache.get(i).is_some();
        if key_ok && s_is_canonical(sig) {
            candidates.push(i);
        } else {
            *verdict = Verdict::Invalid(classify(Policy::Zip215, key_ok, pk, sig));
        }
    }
    // k = H(R || A || M) is computed once per item (inside `Item::from`) and
    // reused by every batch the item takes part in during bisection.
    let items: Vec<ed25519_zebra::batch::Item> = candidates
        .par_iter()
        .with_min_len(8)
        .map(|&i| {
            let vkb = ed25519_zebra::VerificationKeyBytes::from(*batch.pk(i));
            (vkb, ed25519_zebra::Signature::from_bytes(batch.sig(i)), batch.msg(i)).into()
        })
        .collect();
    let chunk = chunk_size(candidates.len());
    let decided: Vec<Vec<bool>> = items
        .par_chunks(chunk)
        .zip(candidates.par_chunks(chunk))
        .map(|(items, idx)| {
            let mut ok = vec![false; items.len()];
            bisect(items, idx, &mut ok, batch, &cache);
            ok
        })
        .collect();
    for (&i, ok) in candidates.iter().zip(decided.iter().flatten()) {
        let key_ok = cache.get(i).is_some();
        verdicts[i] = verdict(*ok, Policy::Zip215, key_ok, batch.pk(i), batch.sig(i));
    }
    verdicts
}

/// Chunk size for `n` candidates: enough chunks to keep every thread busy,
/// none larger than [`MAX_CHUNK`].
fn chunk_size(n: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    n.div_ceil(threads * 2).clamp(1, MAX_CHUNK)
}

/// Decides `items` (whose batch indices are `idx`) into `ok`:
/// one zebra batch verification; on failure, two halves; at
/// [`BISECT_LEAF`] items or fewer, the single-item oracle with the cached key.
fn bisect(
    items: &[ed25519_zebra::batch::Item],
    idx: &[usize],
    ok: &mut [bool],
    batch: &Batch,
    cache: &KeyCache<ed25519_zebra::VerificationKey>,
) {
    if items.len() <= BISECT_LEAF {
        for (j, &i) in idx.iter().enumerate() {
            let sig = ed25519_zebra::Signature::from_bytes(batch.sig(i));
            ok[j] = cache.get(i).is_some_and(|key| key.verify(&sig, batch.msg(i)).is_ok());
        }
        return;
    }
    let mut verifier = ed25519_zebra::batch::Verifier::new();
    for item in items {
        verifier.queue(item.clone());
    }
    if verifier.verify(rand::rng()).is_ok() {
        ok.fill(true);
        return;
    }
    let half = items.len() / 2;
    let (ok_lo, ok_hi) = ok.split_at_mut(half);
    bisect(&items[..half], &idx[..half], ok_lo, batch, cache);
    bisect(&items[half..], &idx[half..], ok_hi, batch, cache);
}

fn verdict(ok: bool, policy: Policy, key_ok: bool, pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN]) -> Verdict {
    if ok {
        Verdict::Valid
    } else {
        Verdict::Invalid(classify(policy, key_ok, pk, sig))
    }
}
