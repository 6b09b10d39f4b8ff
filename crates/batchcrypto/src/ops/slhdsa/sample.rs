//! Deterministic SLH-DSA items for tests, `bench`, `selftest` and
//! `sample`: honest signatures from a small pool and, at the requested
//! share, hostile ones: wrong message, wrong context, another signer's
//! key, a flipped bit in R, in the FORS signature, in the hypertree
//! signature (anywhere, or in its top layer), a short key, a short or
//! long signature, a context over 255 bytes. Each item depends only on the
//! seed and its index.
//!
//! Signing costs far more than verifying (the `s` sets: 0.4 to 4 seconds
//! per signature on one core of the 2-core VM, the SHAKE ones slowest;
//! every XMSS tree of the path is built), so the honest items come from a
//! pool of [`POOL`] signatures by two signers, made once per process and
//! set whatever the seed; the seed draws the items from it, and the
//! hostile ones differ from their pool entry.

use std::ops::Range;
use std::sync::{Arc, Mutex, PoisonError};

use rand::RngExt;
use rayon::prelude::*;
use slh_dsa::signature::Keypair;
use slh_dsa::{ParameterSet, SigningKey};

use super::oracle::with_params;
use super::{MAX_CONTEXT, Set};
use crate::ops::item_rng;

/// One generated item and how it was built (ML-DSA's item type: the
/// same four fields and a kind).
pub use crate::ops::mldsa::sample::Item;

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 11] = [
    "wrong_message",
    "wrong_context",
    "wrong_key",
    "flipped_r_bit",
    "flipped_fors_bit",
    "flipped_ht_bit",
    "flipped_top_layer_bit",
    "short_key",
    "short_signature",
    "long_signature",
    "context_too_long",
];

/// Honest signatures made per set, seed and signer count.
pub const POOL: usize = 4;

/// `count` items of `set`, about `hostile_share` hostile.
pub fn generate(set: Set, count: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    generate_range(set, 0..count, hostile_share, seed)
}

/// Items `range` of [`generate`].
pub fn generate_range(set: Set, range: Range<usize>, hostile_share: f64, seed: u64) -> Vec<Item> {
    let pool = pool(set);
    let p = set.params();
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x0f1b_5205_0000, i);
            let j = rng.random_range(0..pool.len());
            let mut item = pool[j].clone();
            if rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                let kind = HOSTILE[rng.random_range(0..HOSTILE.len())];
                let other_pk = &pool[(j + 1) % pool.len()].pk;
                let flip = |item: &mut Item, bits: Range<usize>, rng: &mut rand::rngs::StdRng| {
                    let bit = rng.random_range(bits);
                    item.sig[bit / 8] ^= 1 << (bit % 8);
                };
                let fors_end = (1 + p.k * (1 + p.a)) * p.n;
                let top = p.sig_len() - (p.len() + p.hp) * p.n;
                match kind {
                    "wrong_message" => item.msg.push(1),
                    "wrong_context" => item.ctx.push(1),
                    "wrong_key" => item.pk.clone_from(other_pk),
                    "flipped_r_bit" => flip(&mut item, 0..p.n * 8, &mut rng),
                    "flipped_fors_bit" => flip(&mut item, p.n * 8..fors_end * 8, &mut rng),
                    "flipped_ht_bit" => flip(&mut item, fors_end * 8..p.sig_len() * 8, &mut rng),
                    "flipped_top_layer_bit" => flip(&mut item, top * 8..p.sig_len() * 8, &mut rng),
                    "short_key" => {
                        item.pk.pop();
                    }
                    "short_signature" => item.sig.truncate(p.sig_len() - p.n),
                    "long_signature" => item.sig.push(0),
                    _ => item.ctx = vec![7; MAX_CONTEXT + 1],
                }
                item.kind = kind;
            }
            item
        })
        .collect()
}

/// The process's honest signatures of `set`, made on first use (on all
/// cores; not under the lock, which a rayon worker waiting on its own
/// signing could otherwise take again: two first callers may both sign).
fn pool(set: Set) -> Arc<Vec<Item>> {
    static POOLS: Mutex<Vec<(Set, Arc<Vec<Item>>)>> = Mutex::new(Vec::new());
    let find = |pools: &[(Set, Arc<Vec<Item>>)]| pools.iter().find(|(s, _)| *s == set).map(|(_, p)| Arc::clone(p));
    if let Some(pool) = find(&POOLS.lock().unwrap_or_else(PoisonError::into_inner)) {
        return pool;
    }
    let made: Vec<Item> = (0..POOL)
        .into_par_iter()
        .map(|j| with_params!(set, sign_as(j, set.params().n)))
        .collect();
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(pool) = find(&pools) {
        return pool;
    }
    let made = Arc::new(made);
    pools.push((set, Arc::clone(&made)));
    made
}

/// Pool entry `j` (`n`: the set's hash bytes): signer `j % 2`'s deterministic signature (FIPS 205's
/// hedged variant with opt_rand = PK.seed) of a message of 0 to 100
/// bytes under a context of 0 to 16 bytes.
fn sign_as<P: ParameterSet>(j: usize, n: usize) -> Item {
    let seed = 0x0f1b_5205;
    let mut key_rng = item_rng(seed, j % 2);
    let mut seeds = vec![0u8; 3 * n];
    key_rng.fill(&mut seeds[..]);
    let sk = SigningKey::<P>::slh_keygen_internal(&seeds[..n], &seeds[n..2 * n], &seeds[2 * n..]);
    let mut rng = item_rng(seed + 1, j);
    let mut msg = vec![0u8; rng.random_range(0..=100)];
    rng.fill(&mut msg[..]);
    let mut ctx = vec![0u8; rng.random_range(0..=16)];
    rng.fill(&mut ctx[..]);
    let sig = sk
        .try_sign_with_context(&msg, &ctx, None)
        .map(|s| s.to_vec())
        .unwrap_or_default();
    Item {
        pk: sk.verifying_key().to_vec(),
        msg,
        sig,
        ctx,
        kind: "valid",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::slhdsa::oracle;

    /// The pool's signatures verify, every hostile kind fails, and the
    /// same seed gives the same items.
    #[test]
    fn hostile_items_fail_and_honest_ones_pass() {
        for set in [Set::Shake128f, Set::Sha2_192f] {
            let items = generate(set, 120, 0.7, 11);
            assert_eq!(items, generate(set, 120, 0.7, 11), "{set}");
            let mut kinds = std::collections::HashSet::new();
            for it in &items {
                let ok = oracle::verify(set, &it.pk, &it.msg, &it.sig, &it.ctx);
                assert_eq!(ok, it.kind == "valid", "{set} {}", it.kind);
                kinds.insert(it.kind);
            }
            assert_eq!(kinds.len(), HOSTILE.len() + 1, "{set}: {kinds:?}");
        }
    }
}
