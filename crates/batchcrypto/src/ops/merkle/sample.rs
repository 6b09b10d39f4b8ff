//! Inclusion-proof items ([`super::proof`]) for benchmarks, self-tests,
//! `sample` and tests: proofs of leaves of random trees in path form
//! ([`super::Tree::path`]), and hostile items of the kinds in [`HOSTILE`].

use ark_bn254::Fr;
use ark_ff::{BigInteger, PrimeField};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{Padding, Rule, Tree, oracle, proof};
use crate::ops::hash::Digest;
use crate::ops::{item_rng, poseidon};

/// The hostile kinds, in the order items take them (an item whose kind
/// cannot apply is given another: see `hostile`).
pub const HOSTILE: [&str; 8] = [
    "sibling_changed",
    "leaf_changed",
    "root_changed",
    "index_past_path",
    "sibling_dropped",
    "sibling_added",
    "ragged",
    "leaf_not_below_r",
];

/// Items per plain tree in [`proofs`] without a depth.
const ITEMS_PER_TREE: usize = 64;
/// Most leaves of a plain tree there.
const MOST_LEAVES: usize = 300;
/// Leaves given to the padded tree there (as many as fit under 2^depth).
const MOST_PADDED_LEAVES: usize = 1024;

/// A random node `rule` takes: any 32 bytes, or under lean-imt-poseidon
/// a random field element.
pub(crate) fn random_node(rng: &mut StdRng, rule: Rule) -> Digest {
    match rule {
        Rule::LeanImtPoseidon => poseidon::hash_bytes(&crate::ops::random_field::<Fr>(rng)),
        _ => rng.random(),
    }
}

/// `n` proof items under `rule` from `seed`, each with its kind ("valid"
/// or hostile's): with `depth`, proofs of leaves of one padded tree of that
/// depth (zero value 0) holding 1,024 random leaves (as many as fit);
/// without, proofs of leaves of plain trees of 1 to 300 random leaves (a
/// tree per 64 items), so that carried and duplicated nodes come up. An
/// item is hostile with probability `invalid_share`, of the kind
/// [`HOSTILE`]`[i % 8]`.
pub fn proofs(rule: Rule, n: usize, seed: u64, invalid_share: f64, depth: Option<u32>) -> Vec<(Vec<u8>, &'static str)> {
    proofs_range(rule, 0..n, seed, invalid_share, depth)
}

/// Items `range` of [`proofs`] (each depends only on its index and the
/// seed: the trees they need are made again).
pub fn proofs_range(
    rule: Rule,
    range: std::ops::Range<usize>,
    seed: u64,
    invalid_share: f64,
    depth: Option<u32>,
) -> Vec<(Vec<u8>, &'static str)> {
    if range.is_empty() {
        return Vec::new();
    }
    // The trees of the range's items, by number from `first`.
    let (first, trees): (usize, Vec<Tree>) = match depth {
        Some(depth) => {
            let mut rng = StdRng::seed_from_u64(seed);
            let fit = 1usize.checked_shl(depth).unwrap_or(usize::MAX);
            let leaves: Vec<Digest> = (0..MOST_PADDED_LEAVES.min(fit))
                .map(|_| random_node(&mut rng, rule))
                .collect();
            let padding = Padding { depth, zero: [0; 32] };
            (0, oracle::padded_tree(rule, &leaves, &padding).into_iter().collect())
        }
        None => {
            let first = range.start / ITEMS_PER_TREE;
            let trees = (first..range.end.div_ceil(ITEMS_PER_TREE))
                .into_par_iter()
                .filter_map(|t| {
                    let mut rng = item_rng(seed ^ 0x7472_6565, t);
                    let count = rng.random_range(1..=MOST_LEAVES);
                    let leaves: Vec<Digest> = (0..count).map(|_| random_node(&mut rng, rule)).collect();
                    oracle::tree(rule, &leaves)
                })
                .collect();
            (first, trees)
        }
    };
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let t = if depth.is_some() { 0 } else { i / ITEMS_PER_TREE - first };
            // Every tree above has leaves (the rules hash any random node).
            let Some(tree) = trees.get(t) else {
                return (Vec::new(), "ragged");
            };
            let at = if depth.is_some() {
                i % tree.leaves()
            } else {
                rng.random_range(0..tree.leaves())
            };
            let leaf = tree.levels()[0][at];
            let (index, siblings) = tree.path(at).unwrap_or_default();
            let item = proof::encode(&tree.root(), &leaf, index, &siblings);
            if !rng.random_bool(invalid_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            hostile(rule, HOSTILE[i % HOSTILE.len()], item, &mut rng)
        })
        .collect()
}

/// `item` made hostile of `kind`, and the kind it was made: where `kind`
/// cannot apply (no sibling to change or drop, 64 siblings already, a
/// rule over bytes takes any leaf) the sibling's or leaf's change becomes
/// the leaf's, and the others the root's.
fn hostile(rule: Rule, kind: &'static str, mut item: Vec<u8>, rng: &mut StdRng) -> (Vec<u8>, &'static str) {
    let siblings = (item.len() - proof::HEAD_LEN) / 32;
    // The last bit of a node: under lean-imt-poseidon still below r but
    // for r - 1 (even), which the random nodes never are.
    let flip = |item: &mut Vec<u8>, node_at: usize| item[node_at + 31] ^= 1;
    let made = match kind {
        "sibling_changed" if siblings > 0 => {
            let k = rng.random_range(0..siblings);
            flip(&mut item, proof::HEAD_LEN + 32 * k);
            kind
        }
        "sibling_changed" | "leaf_changed" => {
            flip(&mut item, 32);
            "leaf_changed"
        }
        "index_past_path" if siblings < proof::MAX_SIBLINGS => {
            let index = u64::from_be_bytes(item[64..72].try_into().unwrap_or_default()) | 1 << siblings;
            item[64..72].copy_from_slice(&index.to_be_bytes());
            kind
        }
        "sibling_dropped" if siblings > 0 => {
            item.truncate(item.len() - 32);
            kind
        }
        "sibling_added" if siblings < proof::MAX_SIBLINGS => {
            item.extend(random_node(rng, rule));
            kind
        }
        "ragged" => {
            let cut = rng.random_range(1..32);
            item.truncate(item.len() - cut);
            kind
        }
        "leaf_not_below_r" if rule == Rule::LeanImtPoseidon => {
            let mut v = Fr::MODULUS;
            v.add_with_carry(&(rng.random_range(0..1000u64).into()));
            item[32..64].copy_from_slice(&v.to_bytes_be());
            kind
        }
        _ => {
            flip(&mut item, 0);
            "root_changed"
        }
    };
    (item, made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::{Reason, Verdict};

    /// Every kind gives the verdict it is made for, on the oracle, with
    /// and without a depth.
    #[test]
    fn kinds_give_their_verdicts() {
        for rule in Rule::ALL {
            for depth in [None, Some(6)] {
                // Ranges give the items of the whole.
                let whole = proofs(rule, 150, 4, 0.5, depth);
                let parts = [
                    proofs_range(rule, 0..70, 4, 0.5, depth),
                    proofs_range(rule, 70..150, 4, 0.5, depth),
                ];
                assert_eq!(whole, parts.concat(), "{rule} {depth:?}");
                let made = proofs(rule, 160, 9, 0.5, depth);
                assert_eq!(made.len(), 160);
                let mut seen = std::collections::HashSet::new();
                for (i, (item, kind)) in made.iter().enumerate() {
                    let got = oracle::verify_proof(rule, depth, item);
                    let want = match *kind {
                        "valid" => Verdict::Valid,
                        "ragged" => Verdict::Invalid(Reason::WrongInputLength),
                        "leaf_not_below_r" if rule == Rule::LeanImtPoseidon => {
                            Verdict::Invalid(Reason::NonCanonicalElement)
                        }
                        "sibling_dropped" | "sibling_added" if depth.is_some() => {
                            Verdict::Invalid(Reason::WrongProofLength)
                        }
                        "index_past_path" => Verdict::Invalid(Reason::LeafIndexOutOfRange),
                        // Without its last sibling the index's top bit may
                        // be past the path.
                        "sibling_dropped" if got == Verdict::Invalid(Reason::LeafIndexOutOfRange) => got,
                        _ => Verdict::Invalid(Reason::RootMismatch),
                    };
                    assert_eq!(got, want, "{rule} depth {depth:?} item {i} ({kind})");
                    seen.insert(*kind);
                }
                assert!(seen.len() >= 8, "{rule} {depth:?}: {seen:?}");
            }
        }
    }
}
