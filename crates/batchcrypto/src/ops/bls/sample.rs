//! Deterministic BLS items for tests, `bench` and `selftest`: honest
//! signatures by a set of signers (keys repeat, as in a validator set) and,
//! at the requested share, hostile ones — a wrong message, another signer's
//! key, a flipped signature bit, the identity key, the infinity signature,
//! and a key and a signature that are on their curves but outside the
//! prime-order subgroup.

use blst::min_pk::SecretKey;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::ops::item_rng;

use super::{DST, PK_LEN, SIG_LEN};

/// A compressed G1 point on the curve but not in the subgroup (the x
/// coordinate 0x0123456789abcdef repeated, as in the consensus test vectors).
pub const KEY_NOT_IN_SUBGROUP: [u8; PK_LEN] = pattern();
/// A compressed G2 point on the curve but not in the subgroup (same pattern).
pub const SIG_NOT_IN_SUBGROUP: [u8; SIG_LEN] = pattern();
/// The compressed point at infinity of G1.
pub const IDENTITY_KEY: [u8; PK_LEN] = infinity();
/// The compressed point at infinity of G2.
pub const INFINITY_SIG: [u8; SIG_LEN] = infinity();

const fn pattern<const N: usize>() -> [u8; N] {
    let p = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef];
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = p[i % 8];
        i += 1;
    }
    out[0] |= 0x80;
    out
}

const fn infinity<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    out[0] = 0xc0;
    out
}

/// One generated item.
pub type Item = crate::ops::SignedItem<PK_LEN, SIG_LEN>;

/// `count` secret keys from `seed`.
pub fn secret_keys(count: usize, seed: u64) -> Vec<SecretKey> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let ikm: [u8; 32] = rng.random();
            SecretKey::key_gen(&ikm, &[]).expect("32 bytes of key material are enough")
        })
        .collect()
}

/// `count` G2 points (blst's uncompressed form): public keys of the
/// min_sig variant, which live in G2.
pub fn g2_points(count: usize, seed: u64) -> Vec<[u8; 192]> {
    secret_keys(count, seed)
        .iter()
        .filter_map(|k| blst::min_sig::SecretKey::from_bytes(&k.to_bytes()).ok())
        .map(|k| k.sk_to_pk().serialize())
        .collect()
}

/// The hostile kinds, in the order they are used.
const HOSTILE: [&str; 7] = [
    "wrong_message",
    "wrong_key",
    "flipped_sig_bit",
    "identity_key",
    "infinity_signature",
    "key_not_in_subgroup",
    "signature_not_in_subgroup",
];

/// `count` items by `signers` signers, about `hostile_share` of them hostile,
/// messages of 32 bytes; the same for the same arguments. Signing runs on
/// the current rayon pool.
pub fn generate(count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    generate_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`generate`] (each item depends only on its index).
pub fn generate_range(range: std::ops::Range<usize>, signers: usize, hostile_share: f64, seed: u64) -> Vec<Item> {
    let keys = secret_keys(signers.max(2), seed);
    let pks: Vec<[u8; PK_LEN]> = keys.iter().map(|k| k.sk_to_pk().compress()).collect();
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let signer = rng.random_range(0..keys.len());
            let msg: [u8; 32] = rng.random();
            let sig = keys[signer].sign(&msg, DST, &[]).compress();
            let mut item = Item {
                pk: pks[signer],
                sig,
                msg: msg.to_vec(),
                kind: "valid",
            };
            if rng.random::<f64>() < hostile_share {
                item.kind = HOSTILE[rng.random_range(0..HOSTILE.len())];
                match item.kind {
                    "wrong_message" => item.msg[0] ^= 1,
                    "wrong_key" => item.pk = pks[(signer + 1) % pks.len()],
                    "flipped_sig_bit" => {
                        let bit = rng.random_range(0..SIG_LEN * 8);
                        item.sig[bit / 8] ^= 1 << (bit % 8);
                    }
                    "identity_key" => item.pk = IDENTITY_KEY,
                    "infinity_signature" => item.sig = INFINITY_SIG,
                    "key_not_in_subgroup" => item.pk = KEY_NOT_IN_SUBGROUP,
                    _ => item.sig = SIG_NOT_IN_SUBGROUP,
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
