//! Deterministic sr25519 items for tests, `bench`, `selftest` and `sample`:
//! honest signatures under the context `substrate` by a pool of signers
//! (schnorrkel signing with a seeded generator for its nonce witness,
//! messages of 0 to 100 bytes) and, at the requested share, hostile ones:
//! wrong message, another context, flipped signature bit, marker bit
//! cleared, s = l + k, a non-canonical key encoding, a flipped key bit,
//! another signer's key. Each item depends only on the seed and its index.

use std::ops::Range;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use schnorrkel::{ExpansionMode, Keypair, MiniSecretKey};

use super::{DEFAULT_CONTEXT, PK_LEN, Rng06, SIG_LEN};
use crate::ops::item_rng;

/// One generated item.
pub type Item = crate::ops::SignedItem<PK_LEN, SIG_LEN>;

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 8] = [
    "wrong_message",
    "wrong_context",
    "flipped_sig_bit",
    "marker_cleared",
    "s_not_canonical",
    "key_not_canonical",
    "flipped_key_bit",
    "wrong_key",
];

/// The group order l = 2^252 + 27742317777372353535851937790883648493,
/// little-endian (as schnorrkel encodes s).
const L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// schnorrkel's signature of `msg` under `ctx`, its nonce witness drawn
/// from `seed`.
pub fn sign(key: &Keypair, ctx: &[u8], msg: &[u8], seed: u64) -> [u8; SIG_LEN] {
    let t = schnorrkel::signing_context(ctx).bytes(msg);
    key.sign(schnorrkel::context::attach_rng(t, Rng06(StdRng::seed_from_u64(seed))))
        .to_bytes()
}

/// The key pair a 32-byte mini secret key expands to (Ed25519 mode, as
/// Substrate's).
pub fn keypair(secret: [u8; 32]) -> Keypair {
    // Any 32 bytes are a mini secret key.
    MiniSecretKey::from_bytes(&secret)
        .map(|k| k.expand_to_keypair(ExpansionMode::Ed25519))
        .unwrap_or_else(|_| unreachable!("32 bytes"))
}

/// `count` items by `signers` signers (at least two), about `hostile_share` hostile.
pub fn generate(count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    generate_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`generate`].
pub fn generate_range(range: Range<usize>, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    let mut krng = StdRng::seed_from_u64(seed ^ 0x5252_5519);
    let keys: Vec<Keypair> = (0..signers.max(2)).map(|_| keypair(krng.random())).collect();
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x5252_0000, i);
            let signer = rng.random_range(0..keys.len());
            let key = &keys[signer];
            let len = rng.random_range(0..=100);
            let mut msg = vec![0u8; len];
            rng.fill(&mut msg[..]);
            let hostile = rng.random::<f64>() < hostile_share;
            let kind = if hostile {
                HOSTILE[rng.random_range(0..HOSTILE.len())]
            } else {
                "valid"
            };
            let ctx: &[u8] = if kind == "wrong_context" {
                b"polkadot"
            } else {
                DEFAULT_CONTEXT
            };
            let mut item = Item {
                pk: key.public.to_bytes(),
                sig: sign(key, ctx, &msg, rng.random()),
                msg,
                kind,
            };
            match kind {
                "wrong_message" => item.msg.push(0),
                "flipped_sig_bit" => {
                    let bit = rng.random_range(0..SIG_LEN * 8);
                    item.sig[bit / 8] ^= 1 << (bit % 8);
                }
                "marker_cleared" => item.sig[63] &= 0x7f,
                "s_not_canonical" => {
                    let mut s = L;
                    s[0] += rng.random_range(0..3u8);
                    item.sig[32..].copy_from_slice(&s);
                    item.sig[63] |= 0x80;
                }
                // A negative field element (odd encoding) is never canonical.
                "key_not_canonical" => item.pk[0] |= 1,
                "flipped_key_bit" => {
                    let bit = rng.random_range(0..PK_LEN * 8);
                    item.pk[bit / 8] ^= 1 << (bit % 8);
                }
                "wrong_key" => {
                    let other = &keys[(signer + 1 + rng.random_range(0..keys.len() - 1)) % keys.len()];
                    item.pk = other.public.to_bytes();
                }
                _ => {}
            }
            item
        })
        .collect()
}

/// The items as a batch.
pub fn batch(items: &[Item]) -> super::Batch {
    crate::ops::signed_batch(items)
}
