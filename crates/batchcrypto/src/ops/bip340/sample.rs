//! Deterministic BIP-340 items for tests, `bench`, `selftest` and `sample`:
//! honest signatures by a pool of signers (libsecp256k1 signing with fixed
//! auxiliary randomness, messages of 0 to 100 bytes) and, at the requested
//! share, hostile ones: wrong message, flipped signature bit, r = p + k,
//! s = n + k, an x with no curve point, an x not below p, another signer's
//! key. Each item depends only on the seed and its index.

use std::ops::Range;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use secp256k1::Keypair;

use super::{PK_LEN, SECP256K1_P, SIG_LEN};
use crate::ops::ecdsa::SECP256K1_N;
use crate::ops::ecdsa::sample::add_small;
use crate::ops::item_rng;

/// One generated item.
pub type Item = crate::ops::SignedItem<PK_LEN, SIG_LEN>;

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 7] = [
    "wrong_message",
    "flipped_sig_bit",
    "r_not_below_p",
    "s_not_below_n",
    "key_off_curve",
    "key_not_below_p",
    "wrong_key",
];

/// `count` items by `signers` signers (at least two), about `hostile_share` hostile.
pub fn generate(count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    generate_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`generate`].
pub fn generate_range(range: Range<usize>, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    let mut krng = StdRng::seed_from_u64(seed);
    let keys: Vec<Keypair> = (0..signers.max(2))
        .map(|_| {
            loop {
                if let Ok(k) = Keypair::from_secret_bytes(krng.random()) {
                    break k;
                }
            }
        })
        .collect();
    range
        .into_par_iter()
        .map(|i| {
            // Its own stream: the same seed gives other items than the ECDSA samples.
            let mut rng = item_rng(seed ^ 0xb1b3_4000, i);
            let signer = rng.random_range(0..keys.len());
            let key = &keys[signer];
            let len = rng.random_range(0..=100);
            let mut msg = vec![0u8; len];
            rng.fill(&mut msg[..]);
            let aux: [u8; 32] = rng.random();
            let sig = secp256k1::schnorr::sign_with_aux_rand(&msg, key, &aux).to_byte_array();
            let mut item = Item {
                pk: key.x_only_public_key().0.to_byte_array(),
                sig,
                msg,
                kind: "valid",
            };
            if rng.random::<f64>() < hostile_share {
                item.kind = HOSTILE[rng.random_range(0..HOSTILE.len())];
                match item.kind {
                    "wrong_message" => item.msg.push(0),
                    "flipped_sig_bit" => {
                        let bit = rng.random_range(0..SIG_LEN * 8);
                        item.sig[bit / 8] ^= 1 << (bit % 8);
                    }
                    "r_not_below_p" => item.sig[..32].copy_from_slice(&add_small(&SECP256K1_P, rng.random_range(0..3))),
                    "s_not_below_n" => item.sig[32..].copy_from_slice(&add_small(&SECP256K1_N, rng.random_range(0..3))),
                    // x = 5 has no point: 5^3 + 7 = 132 is not a square mod p.
                    "key_off_curve" => item.pk = add_small(&[0; 32], 5),
                    "key_not_below_p" => item.pk = add_small(&SECP256K1_P, rng.random_range(0..3)),
                    _ => {
                        // Any signer but this one (there are at least two).
                        let other = &keys[(signer + 1 + rng.random_range(0..keys.len() - 1)) % keys.len()];
                        item.pk = other.x_only_public_key().0.to_byte_array();
                    }
                }
            }
            item
        })
        .collect()
}

/// The items as a batch.
pub fn batch(items: &[Item]) -> super::Batch {
    crate::ops::signed_batch(items)
}
