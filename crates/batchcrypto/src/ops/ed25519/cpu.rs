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

use super::{KeyState, PK_LEN, Policy, SIG_LEN, classify, s_is_canonical};
use crate::verdict::Verdict;

use super::Batch;

/// Largest chunk given to one zebra batch verification. Bigger chunks make
/// the multiscalar multiplication cheaper per item but cost more to bisect
/// when an item fails.
const MAX_CHUNK: usize = 128;
/// Chunks smaller than this are not batched: items are verified one by one.
const MIN_BATCH: usize = 8;
/// Below this many items a failed chunk is verified item by item.
const BISECT_LEAF: usize = 4;
/// Chunk size aims at one invalid item per this many chunks.
const TARGET_CHUNKS_PER_BAD: f64 = 4.0;
/// Fewest items per round of [`decide_zip215`].
const ROUND_MIN: usize = 128;

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
            let (sig, msg) = (batch.sig(i), batch.msg(i));
            let key = cache.get(i);
            let ok = key.is_some_and(|key| {
                key.verify_strict(msg, &ed25519_dalek::Signature::from_bytes(sig))
                    .is_ok()
            });
            let key = key.map_or(KeyState::Malformed, |k| KeyState::Decoded {
                small_order: k.is_weak(),
            });
            verdict(ok, Policy::Strict, key, sig)
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
        let sig = batch.sig(i);
        let key_ok = cache.get(i).is_some();
        if key_ok && s_is_canonical(sig) {
            candidates.push(i);
        } else {
            *verdict = Verdict::Invalid(classify(Policy::Zip215, zip215_key_state(key_ok), sig));
        }
    }
    let ok = decide_zip215(batch, &cache, &candidates);
    for (&i, ok) in candidates.iter().zip(ok) {
        let key_ok = cache.get(i).is_some();
        verdicts[i] = verdict(ok, Policy::Zip215, zip215_key_state(key_ok), batch.sig(i));
    }
    verdicts
}

/// Decides the `candidates` (items whose key decodes and whose S is
/// canonical) in rounds. Each round's chunk size follows the share of
/// invalid items seen so far: about one invalid item per [`TARGET_CHUNKS_PER_BAD`]
/// chunks, at most [`MAX_CHUNK`] items; when that size falls below
/// [`MIN_BATCH`] batching no longer pays and items are verified one by one.
fn decide_zip215(batch: &Batch, cache: &KeyCache<ed25519_zebra::VerificationKey>, candidates: &[usize]) -> Vec<bool> {
    let threads = rayon::current_num_threads().max(1);
    let mut ok = vec![false; candidates.len()];
    let (mut done, mut bad) = (0usize, 0usize);
    while done < candidates.len() {
        // Prior: half an invalid item in 64 seen, so the first round uses
        // chunks of 32 and clean rounds grow them quickly to MAX_CHUNK.
        let rate = (bad as f64 + 0.5) / (done as f64 + 64.0);
        let chunk = ((1.0 / (TARGET_CHUNKS_PER_BAD * rate)) as usize).clamp(1, MAX_CHUNK);
        let left = candidates.len() - done;
        // Enough chunks per round to keep every thread busy (and to learn
        // the rate quickly), never fewer than two per thread.
        let chunk = chunk.min(left.div_ceil(threads * 2)).max(1);
        let round = (chunk * threads * 4).max(ROUND_MIN).min(left);
        let idx = &candidates[done..done + round];
        let out = &mut ok[done..done + round];
        out.par_chunks_mut(chunk)
            .zip(idx.par_chunks(chunk))
            .for_each(|(out, idx)| {
                if idx.len() < MIN_BATCH {
                    for (o, &i) in out.iter_mut().zip(idx) {
                        *o = verify_one_zip215(batch, cache, i);
                    }
                } else {
                    // k = H(R || A || M) is computed once per item (in `Item::from`)
                    // and reused by every batch the item takes part in.
                    let items: Vec<ed25519_zebra::batch::Item> = idx
                        .iter()
                        .map(|&i| {
                            let vkb = ed25519_zebra::VerificationKeyBytes::from(*batch.pk(i));
                            (vkb, ed25519_zebra::Signature::from_bytes(batch.sig(i)), batch.msg(i)).into()
                        })
                        .collect();
                    bisect(&items, idx, out, false, batch, cache);
                }
            });
        bad += out.iter().filter(|&&o| !o).count();
        done += round;
    }
    ok
}

/// Decides `items` (whose batch indices are `idx`) into `ok`: one zebra batch
/// verification (skipped when the items are `known_bad`: their union failed
/// and the sibling passed); on failure, the two halves; at [`BISECT_LEAF`]
/// items or fewer, the single-item oracle with the cached key.
fn bisect(
    items: &[ed25519_zebra::batch::Item],
    idx: &[usize],
    ok: &mut [bool],
    known_bad: bool,
    batch: &Batch,
    cache: &KeyCache<ed25519_zebra::VerificationKey>,
) {
    if items.len() <= BISECT_LEAF {
        for (o, &i) in ok.iter_mut().zip(idx) {
            *o = verify_one_zip215(batch, cache, i);
        }
        return;
    }
    if !known_bad && batch_verifies(items) {
        ok.fill(true);
        return;
    }
    let half = items.len() / 2;
    let (ok_lo, ok_hi) = ok.split_at_mut(half);
    let lo_passes = batch_verifies(&items[..half]);
    if lo_passes {
        ok_lo.fill(true);
        // The union failed and the lower half passed: the upper half fails.
        bisect(&items[half..], &idx[half..], ok_hi, true, batch, cache);
    } else {
        bisect(&items[..half], &idx[..half], ok_lo, true, batch, cache);
        bisect(&items[half..], &idx[half..], ok_hi, false, batch, cache);
    }
}

/// ed25519-zebra's batch verification of `items`, with fresh random
/// coefficients from the thread's CSPRNG.
fn batch_verifies(items: &[ed25519_zebra::batch::Item]) -> bool {
    if items.len() <= BISECT_LEAF {
        // Too small to batch: the caller treats "fails" as "look closer".
        return false;
    }
    let mut verifier = ed25519_zebra::batch::Verifier::new();
    for item in items {
        verifier.queue(item.clone());
    }
    verifier.verify(rand::rng()).is_ok()
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
