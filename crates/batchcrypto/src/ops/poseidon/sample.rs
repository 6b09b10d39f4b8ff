//! Poseidon items for benchmarks, self-tests and fuzzing: random elements
//! below r (and the edges 0 and r - 1) in widths of 1 to 12 inputs, and
//! hostile items: an element at or above r, lengths that are no whole
//! number of 1 to 12 elements.

use ark_bn254::Fr;
use ark_ff::{BigInteger, PrimeField};
use rand::RngExt;
use rayon::prelude::*;

use super::{ELEMENT_LEN, MAX_INPUTS};
use crate::ops::item_rng;

/// The hostile kinds, in the order items take them.
pub const HOSTILE: [&str; 5] = ["non_canonical", "all_ones", "short", "too_many", "empty"];

/// `n` items from `seed`: item i has `inputs(i)` elements (1 to 12), and
/// is hostile with probability `invalid_share`, of the kind
/// [`HOSTILE`]`[i % 5]`. Each item is paired with its kind ("valid" or
/// hostile's).
pub fn items(
    n: usize,
    seed: u64,
    invalid_share: f64,
    inputs: impl Fn(usize) -> usize + Sync,
) -> Vec<(Vec<u8>, &'static str)> {
    items_range(0..n, seed, invalid_share, inputs)
}

/// Items `range` of [`items`] (each depends only on its index).
pub fn items_range(
    range: std::ops::Range<usize>,
    seed: u64,
    invalid_share: f64,
    inputs: impl Fn(usize) -> usize + Sync,
) -> Vec<(Vec<u8>, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let count = inputs(i).clamp(1, MAX_INPUTS);
            let mut item: Vec<u8> = (0..count)
                .flat_map(|k| match (i + k) % 17 {
                    0 => [0u8; ELEMENT_LEN],
                    1 => be(&-Fr::from(1u64)),
                    _ => be(&Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())),
                })
                .collect();
            if !rng.random_bool(invalid_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = HOSTILE[i % HOSTILE.len()];
            let at = ELEMENT_LEN * rng.random_range(0..count);
            match kind {
                // r plus a small amount: the smallest values a reduction
                // would take for small ones.
                "non_canonical" => {
                    let mut v = Fr::MODULUS;
                    v.add_with_carry(&(rng.random_range(0..1000u64).into()));
                    item[at..at + ELEMENT_LEN].copy_from_slice(&v.to_bytes_be());
                }
                "all_ones" => item[at..at + ELEMENT_LEN].fill(0xff),
                "short" => {
                    item.pop();
                }
                "too_many" => item.resize(ELEMENT_LEN * (MAX_INPUTS + 1), 1),
                _ => item.clear(),
            }
            (item, kind)
        })
        .collect()
}

/// An element's 32 big-endian bytes.
fn be(x: &Fr) -> [u8; ELEMENT_LEN] {
    super::hash_bytes(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Reason;

    #[test]
    fn kinds_get_their_reasons_from_the_oracle() {
        let made = items(400, 9, 0.5, |i| 1 + i % MAX_INPUTS);
        let mut seen = std::collections::HashSet::new();
        for (item, kind) in &made {
            let want = match *kind {
                "valid" => None,
                "non_canonical" | "all_ones" => Some(Reason::NonCanonicalElement),
                _ => Some(Reason::WrongInputLength),
            };
            assert_eq!(super::super::oracle::hash(item).err(), want, "{kind}");
            seen.insert(*kind);
        }
        assert_eq!(seen.len(), 1 + HOSTILE.len(), "every kind made");
    }
}
