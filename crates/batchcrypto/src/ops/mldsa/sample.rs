//! Deterministic ML-DSA items for tests, `bench`, `selftest` and `sample`:
//! honest signatures by a pool of signers (deterministic signing, messages
//! of 0 to 100 bytes, contexts of 0 to 16 bytes) and, at the requested
//! share, hostile ones: wrong message, wrong context, another signer's key,
//! a flipped signature bit, a malformed hint encoding, z out of range,
//! truncated key or signature, a context over 255 bytes. Each item depends
//! only on the seed and its index.

use std::ops::Range;

use ml_dsa::{ExpandedSigningKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams};
use rand::RngExt;
use rayon::prelude::*;

use super::{Level, MAX_CONTEXT};
use crate::ops::item_rng;

/// One generated item and how it was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The public key's encoding.
    pub pk: Vec<u8>,
    /// The message.
    pub msg: Vec<u8>,
    /// The signature's encoding.
    pub sig: Vec<u8>,
    /// The context string.
    pub ctx: Vec<u8>,
    /// "valid" or the kind of corruption.
    pub kind: &'static str,
}

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 9] = [
    "wrong_message",
    "wrong_context",
    "wrong_key",
    "flipped_sig_bit",
    "malformed_hint",
    "z_out_of_range",
    "short_key",
    "short_signature",
    "context_too_long",
];

/// `count` items at `level` by `signers` signers (at least two), about
/// `hostile_share` hostile.
pub fn generate(level: Level, count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    generate_range(level, 0..count, signers, hostile_share, seed)
}

/// Items `range` of [`generate`].
pub fn generate_range(level: Level, range: Range<usize>, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    match level {
        Level::Mldsa44 => generate_as::<MlDsa44>(level, range, signers, hostile_share, seed),
        Level::Mldsa65 => generate_as::<MlDsa65>(level, range, signers, hostile_share, seed),
        Level::Mldsa87 => generate_as::<MlDsa87>(level, range, signers, hostile_share, seed),
    }
}

fn generate_as<P: MlDsaParams>(
    level: Level,
    range: Range<usize>,
    signers: usize,
    hostile_share: f64,
    seed: u64,
) -> Vec<Item> {
    let keys: Vec<ExpandedSigningKey<P>> = (0..signers.max(2))
        .map(|s| {
            let mut rng = item_rng(seed ^ 0x0f1b_5204, s);
            ExpandedSigningKey::from_seed(&rng.random::<[u8; 32]>().into())
        })
        .collect();
    let pks: Vec<Vec<u8>> = keys.iter().map(|k| k.verifying_key().encode().to_vec()).collect();
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x0f1b_5204_0000, i);
            let signer = rng.random_range(0..keys.len());
            let mut msg = vec![0u8; rng.random_range(0..=100)];
            rng.fill(&mut msg[..]);
            let mut ctx = vec![0u8; rng.random_range(0..=16)];
            rng.fill(&mut ctx[..]);
            let sig = keys[signer]
                .sign_deterministic(&msg, &ctx)
                .map(|s| s.encode().to_vec())
                .unwrap_or_default();
            let mut item = Item {
                pk: pks[signer].clone(),
                msg,
                sig,
                ctx,
                kind: "valid",
            };
            if rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                let kind = HOSTILE[rng.random_range(0..HOSTILE.len())];
                corrupt(level, &mut item, kind, &pks[(signer + 1) % pks.len()], &mut rng);
                item.kind = kind;
            }
            item
        })
        .collect()
}

/// Makes `item` hostile in the way `kind` names.
fn corrupt(level: Level, item: &mut Item, kind: &str, other_pk: &[u8], rng: &mut impl RngExt) {
    let p = level.params();
    let hint_at = p.sig_len - p.omega - p.k;
    match kind {
        "wrong_message" => item.msg.push(1),
        "wrong_context" => item.ctx.push(1),
        "wrong_key" => item.pk = other_pk.to_vec(),
        "flipped_sig_bit" => {
            let bit = rng.random_range(0..item.sig.len() * 8);
            item.sig[bit / 8] ^= 1 << (bit % 8);
        }
        // The last polynomial's hint count past omega.
        "malformed_hint" => item.sig[p.sig_len - 1] = p.omega as u8 + 1,
        // z's first coefficient stored as 0: z = gamma1.
        "z_out_of_range" => item.sig[p.c_len..p.c_len + 3].fill(0),
        "short_key" => {
            item.pk.pop();
        }
        "short_signature" => {
            item.sig.truncate(hint_at);
        }
        _ => item.ctx = vec![7; MAX_CONTEXT + 1],
    }
}
