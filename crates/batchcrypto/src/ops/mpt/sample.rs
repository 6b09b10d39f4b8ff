//! Trie-proof items ([`super`]) for benchmarks, self-tests, `sample` and
//! tests: tries built by alloy-trie's `HashBuilder` with its proof
//! retainer (what reth answers `eth_getProof` with), in three shapes,
//! their proofs of present keys and of absent ones, and hostile items of
//! the kinds in [`HOSTILE`].
//!
//! - accounts: keys `keccak256` of random addresses, values an account's
//!   RLP (nonce, balance, storage root, code hash): the state trie;
//! - slots: keys `keccak256` of random slots, values the RLP of random
//!   integers of 1 to 32 bytes: a storage trie;
//! - receipts: keys `RLP(index)` for indices 0 to m-1, values random bytes
//!   of 1 to 300 (the short ones make leaves and branches under 32 bytes,
//!   embedded in their parents): a block's transactions or receipts trie.

use alloy_primitives::keccak256;
use alloy_rlp::Encodable;
use alloy_trie::proof::ProofRetainer;
use alloy_trie::{HashBuilder, Nibbles};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::eth::Account;
use super::{encode, rlp_list};

/// The hostile kinds, in the order items take them.
pub const HOSTILE: [&str; 11] = [
    "value_changed",
    "value_denied",
    "root_changed",
    "node_changed",
    "node_dropped",
    "node_added",
    "key_changed",
    "no_nodes",
    "ragged",
    "undecodable_root",
    "path_past_64",
];

/// Items per trie in [`proofs_range`] (each trie made from the seed and
/// its number).
const ITEMS_PER_TRIE: usize = 64;

/// Accounts in the bench's state trie (about a quarter million: proofs of
/// five or six nodes; mainnet's, of some 300 million accounts, have eight).
pub const BENCH_ACCOUNTS: usize = 1 << 18;

/// A proof: the nodes on a key's path, root first.
pub type Nodes = Vec<Vec<u8>>;

/// A trie's entries, sorted by key, keys distinct, none a prefix of another.
struct Trie {
    entries: Vec<(Vec<u8>, Vec<u8>)>,
}

impl Trie {
    fn prove(&self, keys: &[Vec<u8>]) -> ([u8; 32], Vec<Nodes>) {
        // The entries were made so that `prove` takes them.
        prove(&self.entries, keys).unwrap_or_default()
    }
}

/// The root of the trie holding `entries` (sorted here; a key given twice
/// holds its first value) and the proof of each of `keys`, present or
/// absent: the nodes on its path, root first, as alloy-trie's
/// `HashBuilder` and proof retainer make them, without the nodes embedded
/// in their parents (under 32 bytes; the root is always there), as geth's
/// `Prove` and `eth_getProof` give them. `None` where the trie cannot be
/// made: a key over 32 bytes, a key a prefix of another (Ethereum's tries
/// have none; such a trie would hold values in branches), an empty value
/// (a trie holds none).
pub fn prove(entries: &[(Vec<u8>, Vec<u8>)], keys: &[Vec<u8>]) -> Option<([u8; 32], Vec<Nodes>)> {
    let fits = |k: &[u8]| k.len() <= super::MAX_KEY_LEN;
    let mut sorted: Vec<&(Vec<u8>, Vec<u8>)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted.dedup_by(|a, b| a.0 == b.0);
    // A key that is a prefix of another is one of its sorted successor's.
    let prefixed = sorted.windows(2).any(|w| w[1].0.starts_with(&w[0].0));
    if prefixed || sorted.iter().any(|(k, v)| !fits(k) || v.is_empty()) || !keys.iter().all(|k| fits(k)) {
        return None;
    }
    let targets: Vec<Nibbles> = keys.iter().map(Nibbles::unpack).collect();
    let mut builder = HashBuilder::default().with_proof_retainer(ProofRetainer::new(targets.clone()));
    for (k, v) in sorted {
        builder.add_leaf(Nibbles::unpack(k), v);
    }
    let root = builder.root();
    let nodes = builder.take_proof_nodes();
    let proofs = targets
        .iter()
        .map(|t| {
            let path = nodes.matching_nodes_sorted(t).into_iter().enumerate();
            path.filter(|(i, (_, n))| *i == 0 || n.len() >= 32)
                .map(|(_, (_, n))| n.to_vec())
                .collect()
        })
        .collect();
    Some((root.0, proofs))
}

/// A random account's RLP: `[nonce, balance, storageRoot, codeHash]`.
fn account(rng: &mut StdRng) -> Vec<u8> {
    let bits = rng.random_range(1..40);
    let mut balance = [0u8; 32];
    balance[16..].copy_from_slice(&(rng.random::<u128>() >> rng.random_range(0..128)).to_be_bytes());
    let account = Account {
        nonce: rng.random_range(0..1u64 << bits),
        balance,
        storage_root: rng.random(),
        code_hash: rng.random(),
    };
    account.rlp()
}

/// A random trie of shape `t % 3` (see the module's list) and its keys.
fn trie(rng: &mut StdRng, t: usize, size: usize) -> Trie {
    let mut entries: Vec<(Vec<u8>, Vec<u8>)> = match t % 3 {
        0 => (0..size)
            .map(|_| (keccak256(rng.random::<[u8; 20]>()).to_vec(), account(rng)))
            .collect(),
        1 => (0..size)
            .map(|_| {
                // A nonzero integer of 1 to 32 bytes, no leading zeros.
                let mut word: Vec<u8> = (0..rng.random_range(1..=32)).map(|_| rng.random()).collect();
                word[0] = word[0].max(1);
                let mut value = Vec::new();
                word.as_slice().encode(&mut value);
                (keccak256(rng.random::<[u8; 32]>()).to_vec(), value)
            })
            .collect(),
        _ => (0..size)
            .map(|i| {
                let mut key = Vec::new();
                i.encode(&mut key);
                let len = if rng.random_bool(0.5) {
                    rng.random_range(1..4)
                } else {
                    rng.random_range(1..=300)
                };
                (key, (0..len).map(|_| rng.random()).collect())
            })
            .collect(),
    };
    entries.sort();
    entries.dedup_by(|a, b| a.0 == b.0);
    Trie { entries }
}

/// `n` items from `seed`, each with its kind ("valid", "absent": a valid
/// proof of an absent key, or hostile's): with `varied`, proofs in tries of
/// the three shapes, 1 to 600 entries (16 to 600 for receipts; a trie per
/// 64 items), one in eight
/// of an absent key; without (the bench), inclusion proofs of accounts of
/// one state trie of [`BENCH_ACCOUNTS`]. An item is hostile with
/// probability `invalid_share`, of the kind [`HOSTILE`]`[i % 11]`.
pub fn proofs(n: usize, seed: u64, invalid_share: f64, varied: bool) -> Vec<(Vec<u8>, &'static str)> {
    if !varied {
        return bench(n, seed, invalid_share);
    }
    proofs_range(0..n, seed, invalid_share)
}

/// Items `range` of [`proofs`] with `varied` (each depends only on its
/// index and the seed: the tries they need are made again).
pub fn proofs_range(range: std::ops::Range<usize>, seed: u64, invalid_share: f64) -> Vec<(Vec<u8>, &'static str)> {
    if range.is_empty() {
        return Vec::new();
    }
    let tries = range.start / ITEMS_PER_TRIE..range.end.div_ceil(ITEMS_PER_TRIE);
    tries
        .into_par_iter()
        .flat_map_iter(|t| {
            let mut rng = StdRng::seed_from_u64(seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            // Receipts tries of 16 entries or more: fewer with short
            // values can make a root node under 32 bytes, which alloy-trie
            // refuses (see the `mpt` tests).
            let least = if t % 3 == 2 { 16 } else { 1 };
            let size = rng.random_range(least..=600);
            let trie = trie(&mut rng, t, size);
            let items = (t * ITEMS_PER_TRIE..(t + 1) * ITEMS_PER_TRIE).filter(|i| range.contains(i));
            let chosen: Vec<(usize, Vec<u8>, Option<Vec<u8>>)> = items
                .map(|i| {
                    if rng.random_range(0..8) == 0 {
                        // An absent key of the trie's kind.
                        let key = match t % 3 {
                            2 => {
                                let mut k = Vec::new();
                                (trie.entries.len() + rng.random_range(0..1000)).encode(&mut k);
                                k
                            }
                            _ => rng.random::<[u8; 32]>().to_vec(),
                        };
                        (i, key, None)
                    } else {
                        let (k, v) = &trie.entries[rng.random_range(0..trie.entries.len())];
                        (i, k.clone(), Some(v.clone()))
                    }
                })
                .collect();
            let keys: Vec<Vec<u8>> = chosen.iter().map(|(_, k, _)| k.clone()).collect();
            let (root, nodes) = trie.prove(&keys);
            chosen
                .into_iter()
                .zip(nodes)
                .map(|((i, key, value), nodes)| item(i, seed, invalid_share, &root, &key, value.as_deref(), nodes))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The bench's items: inclusion proofs of `n` accounts of one state trie.
fn bench(n: usize, seed: u64, invalid_share: f64) -> Vec<(Vec<u8>, &'static str)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let trie = trie(&mut rng, 0, BENCH_ACCOUNTS.max(n));
    let picks: Vec<usize> = (0..n).map(|_| rng.random_range(0..trie.entries.len())).collect();
    let keys: Vec<Vec<u8>> = picks.iter().map(|&p| trie.entries[p].0.clone()).collect();
    let (root, nodes) = trie.prove(&keys);
    picks
        .into_par_iter()
        .zip(nodes)
        .enumerate()
        .map(|(i, (p, nodes))| {
            let (key, value) = &trie.entries[p];
            item(i, seed, invalid_share, &root, key, Some(value), nodes)
        })
        .collect()
}

/// Item `i`: the proof as made, or (with probability `invalid_share`)
/// made hostile.
fn item(
    i: usize,
    seed: u64,
    invalid_share: f64,
    root: &[u8; 32],
    key: &[u8],
    value: Option<&[u8]>,
    mut nodes: Nodes,
) -> (Vec<u8>, &'static str) {
    let mut rng = crate::ops::item_rng(seed ^ 0x6d70_7400, i);
    let honest = if value.is_some() { "valid" } else { "absent" };
    let bytes = |root: &[u8; 32], key: &[u8], value: Option<&[u8]>, nodes: &[Vec<u8>]| {
        let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
        // Keys of at most 32 bytes and at most MAX_NODES nodes: they fit.
        encode(root, key, value, &nodes).unwrap_or_default()
    };
    if !rng.random_bool(invalid_share.clamp(0.0, 1.0)) {
        return (bytes(root, key, value, &nodes), honest);
    }
    let kind = HOSTILE[i % HOSTILE.len()];
    let mut root = *root;
    let mut key = key.to_vec();
    let mut value = value.map(<[u8]>::to_vec);
    match kind {
        "value_changed" => match &mut value {
            Some(v) => {
                let at = rng.random_range(0..v.len());
                v[at] ^= 1 << rng.random_range(0..8);
            }
            None => value = Some(vec![0x01]),
        },
        "value_denied" => value = if value.is_some() { None } else { Some(vec![0x80]) },
        "root_changed" => root[rng.random_range(0..32)] ^= 1 << rng.random_range(0..8),
        "node_changed" => {
            let node = rng.random_range(0..nodes.len());
            let at = rng.random_range(0..nodes[node].len());
            nodes[node][at] ^= 1 << rng.random_range(0..8);
        }
        "node_dropped" => {
            nodes.remove(rng.random_range(0..nodes.len()));
        }
        "node_added" => {
            let at = rng.random_range(0..=nodes.len());
            let copy = nodes[rng.random_range(0..nodes.len())].clone();
            nodes.insert(at, copy);
        }
        "key_changed" => {
            match key.last_mut() {
                Some(last) => *last ^= 1 << rng.random_range(0..8),
                None => key.push(0),
            }
            // Another key is absent too, likely by the same nodes: claim a value.
            value.get_or_insert_with(|| vec![0x01]);
        }
        "no_nodes" => nodes.clear(),
        "ragged" => {
            let mut b = bytes(&root, &key, value.as_deref(), &nodes);
            b.truncate(rng.random_range(0..b.len()));
            return (b, kind);
        }
        "undecodable_root" => {
            // A 40-byte "node" that is no RLP list of 2 or 17 items.
            let node: Vec<u8> = std::iter::once(0xc1).chain((0..39).map(|_| rng.random())).collect();
            root = keccak256(&node).0;
            nodes = vec![node];
        }
        _ => {
            // "path_past_64": two extension nodes of 40 nibbles each, the
            // second under the first's hash.
            let second = extension(&[0x11; 20], &rng.random::<[u8; 32]>());
            let first = extension(&[0x22; 20], &keccak256(&second).0);
            root = keccak256(&first).0;
            nodes = vec![first, second];
        }
    }
    (bytes(&root, &key, value.as_deref(), &nodes), kind)
}

/// An extension node over a hashed child: `[HP(path, even), child]`.
pub fn extension(path: &[u8], child: &[u8; 32]) -> Vec<u8> {
    let key: Vec<u8> = std::iter::once(0x00).chain(path.iter().copied()).collect();
    let mut payload = Vec::new();
    key.as_slice().encode(&mut payload);
    child.encode(&mut payload);
    rlp_list(&payload)
}
