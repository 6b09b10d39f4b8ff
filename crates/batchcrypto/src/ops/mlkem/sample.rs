//! Deterministic ML-KEM items for tests, `bench`, `selftest` and `sample`,
//! each depending only on the seed and its index. Key generation: random
//! seeds, and at the requested share seeds of the wrong length.
//! Encapsulation: the keys of a pool of `keys` key pairs with a random m,
//! and hostile items: a key failing the modulus check, a key or m of the
//! wrong length. Decapsulation: honest ciphertexts under the pool's keys,
//! and hostile items: a flipped ciphertext bit or another key's ciphertext
//! (both answered by implicit rejection), a ciphertext of the wrong length,
//! a key failing the hash check or the modulus check, a key of the wrong
//! length.

use std::ops::Range;

use rand::RngExt;
use rayon::prelude::*;

use super::{DecapsItem, EncapsItem, KeyPair, KeygenItem, SEED_LEN, Set, oracle};
use crate::ops::item_rng;

/// Hostile key-generation kinds.
pub const KEYGEN_HOSTILE: [&str; 2] = ["short_d", "long_z"];
/// Hostile encapsulation kinds.
pub const ENCAPS_HOSTILE: [&str; 4] = ["key_not_reduced", "short_key", "long_key", "short_m"];
/// Hostile decapsulation kinds.
pub const DECAPS_HOSTILE: [&str; 7] = [
    "flipped_ct_bit",
    "other_keys_ct",
    "short_ct",
    "long_ct",
    "key_hash_mismatch",
    "key_not_reduced",
    "short_key",
];

/// Salts of the samples' generators (the three item kinds and the key pool).
const KEYGEN_SALT: u64 = 0x4b45_4d00;
const ENCAPS_SALT: u64 = 0x4b45_4d01;
const DECAPS_SALT: u64 = 0x4b45_4d02;
const POOL_SALT: u64 = 0x4b45_4d10;

/// Items `range` of key generation, about `hostile_share` hostile, with
/// each item's kind ("valid" or the corruption).
pub fn keygen(range: Range<usize>, hostile_share: f64, seed: u64) -> Vec<(KeygenItem, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ KEYGEN_SALT, i);
            let mut item = KeygenItem {
                d: rng.random::<[u8; SEED_LEN]>().to_vec(),
                z: rng.random::<[u8; SEED_LEN]>().to_vec(),
            };
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = KEYGEN_HOSTILE[rng.random_range(0..KEYGEN_HOSTILE.len())];
            match kind {
                "short_d" => item.d.truncate(rng.random_range(0..SEED_LEN)),
                _ => item.z.push(rng.random()),
            }
            (item, kind)
        })
        .collect()
}

/// The pool of `keys` (at least one) key pairs of `set`.
pub fn key_pool(set: Set, keys: usize, seed: u64) -> Vec<KeyPair> {
    (0..keys.max(1))
        .into_par_iter()
        .map(|k| {
            let mut rng = item_rng(seed ^ POOL_SALT, k);
            let (d, z) = (rng.random::<[u8; SEED_LEN]>(), rng.random::<[u8; SEED_LEN]>());
            oracle::keygen(set, &d, &z).unwrap_or_else(|| unreachable!("32-byte seeds always make a key pair"))
        })
        .collect()
}

/// Sets coefficient 0 of the encoded key `ek` (at `at`) to 4095 >= q.
fn unreduce(key: &mut [u8], at: usize) {
    key[at] = 0xff;
    key[at + 1] |= 0x0f;
}

/// Items `range` of encapsulation under `pool`'s keys (each with m given).
pub fn encaps(
    set: Set,
    pool: &[KeyPair],
    range: Range<usize>,
    hostile_share: f64,
    seed: u64,
) -> Vec<(EncapsItem, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ ENCAPS_SALT, i);
            let mut item = EncapsItem {
                ek: pool[rng.random_range(0..pool.len())].ek.clone(),
                m: Some(rng.random::<[u8; SEED_LEN]>().to_vec()),
            };
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = ENCAPS_HOSTILE[rng.random_range(0..ENCAPS_HOSTILE.len())];
            match kind {
                "key_not_reduced" => unreduce(&mut item.ek, 3 * rng.random_range(0..128 * set.k())),
                "short_key" => item.ek.truncate(rng.random_range(0..set.ek_len())),
                "long_key" => item.ek.push(0),
                _ => {
                    if let Some(m) = item.m.as_mut() {
                        m.pop();
                    }
                }
            }
            (item, kind)
        })
        .collect()
}

/// Items `range` of decapsulation under `pool`'s keys.
pub fn decaps(
    set: Set,
    pool: &[KeyPair],
    range: Range<usize>,
    hostile_share: f64,
    seed: u64,
) -> Vec<(DecapsItem, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ DECAPS_SALT, i);
            let key = rng.random_range(0..pool.len());
            let m: [u8; SEED_LEN] = rng.random();
            let ct = oracle::encaps(set, &pool[key].ek, &m)
                .map(|e| e.ct)
                .unwrap_or_else(|| unreachable!("the pool's keys pass the modulus check"));
            let mut item = DecapsItem {
                dk: pool[key].dk.clone(),
                ct,
            };
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = DECAPS_HOSTILE[rng.random_range(0..DECAPS_HOSTILE.len())];
            match kind {
                "flipped_ct_bit" => {
                    let bit = rng.random_range(0..item.ct.len() * 8);
                    item.ct[bit / 8] ^= 1 << (bit % 8);
                }
                "other_keys_ct" => item.dk = pool[(key + 1) % pool.len()].dk.clone(),
                "short_ct" => item.ct.truncate(rng.random_range(0..set.ct_len())),
                "long_ct" => item.ct.push(0),
                // h = H(ek) lies before z, the last 32 bytes.
                "key_hash_mismatch" => item.dk[set.dk_len() - 64] ^= 1,
                "key_not_reduced" => unreduce(&mut item.dk, set.ek_in_dk().start),
                _ => {
                    item.dk.pop();
                }
            }
            (item, kind)
        })
        .collect()
}
