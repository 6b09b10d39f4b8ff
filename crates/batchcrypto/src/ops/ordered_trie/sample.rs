//! Ordered-trie items ([`super`]) for benchmarks, self-tests, `sample` and
//! tests: lists of random values shaped as a block's bodies are, and
//! hostile items of the kinds in [`HOSTILE`].
//!
//! - the bench: blocks of [`BENCH_VALUES`] transactions of 64 to 256 bytes
//!   (a mainnet block holds one to three hundred, most of 100 to 300
//!   bytes);
//! - varied: 0, 1, a few, 127 to 130 (where the keys pass from one byte to
//!   `0x81 xx`) or up to 400 values, their lengths in one of five styles:
//!   1 to 31 bytes (leaves embedded in their branch), one byte, 40 to 50
//!   (withdrawals), 1 to 600, 100 to 400 (transactions).

use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::encode;
use crate::ops::item_rng;

/// The hostile kinds, in the order items take them.
pub const HOSTILE: [&str; 5] = ["empty_value", "short", "byte_over", "count_over", "empty_item"];

/// Values in a bench item (a block's transactions).
pub const BENCH_VALUES: usize = 128;

/// Distinct bench items made; larger benches repeat them (the bench's
/// blocks are many kilobytes each).
const BENCH_DISTINCT: usize = 1024;

/// `n` items from `seed` (see the module's shapes; `varied` false: the
/// bench's), each hostile with probability `invalid_share`, of the kind
/// [`HOSTILE`]`[i % 5]`, paired with its kind ("valid" or hostile's).
pub fn lists(n: usize, seed: u64, invalid_share: f64, varied: bool) -> Vec<(Vec<u8>, &'static str)> {
    if varied {
        return lists_range(0..n, seed, invalid_share);
    }
    let made: Vec<(Vec<u8>, &'static str)> = (0..n.min(BENCH_DISTINCT))
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let values = (0..BENCH_VALUES).map(|_| random_bytes(&mut rng, 64, 256)).collect();
            finish(values, &mut rng, i, invalid_share)
        })
        .collect();
    made.iter().cycle().take(n).cloned().collect()
}

/// Items `range` of [`lists`] with `varied` (each depends only on its
/// index and the seed).
pub fn lists_range(range: std::ops::Range<usize>, seed: u64, invalid_share: f64) -> Vec<(Vec<u8>, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let count = match i % 8 {
                0 => 0,
                1 => 1,
                2 => rng.random_range(2..=20),
                3 => rng.random_range(127..=130),
                _ => rng.random_range(1..=400),
            };
            let (least, most) = [(1, 31), (1, 1), (40, 50), (1, 600), (100, 400)][(i / 8) % 5];
            let values = (0..count).map(|_| random_bytes(&mut rng, least, most)).collect();
            finish(values, &mut rng, i, invalid_share)
        })
        .collect()
}

/// Random bytes, `least` to `most` of them.
pub(crate) fn random_bytes(rng: &mut StdRng, least: usize, most: usize) -> Vec<u8> {
    let len = rng.random_range(least..=most);
    (0..len).map(|_| rng.random()).collect()
}

/// Item i of `values`, made hostile with probability `invalid_share`.
fn finish(mut values: Vec<Vec<u8>>, rng: &mut StdRng, i: usize, invalid_share: f64) -> (Vec<u8>, &'static str) {
    let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
    let kind = if hostile { HOSTILE[i % HOSTILE.len()] } else { "valid" };
    if kind == "empty_value" {
        match values.len() {
            0 => values.push(Vec::new()),
            n => values[rng.random_range(0..n)].clear(),
        }
    }
    // Sample values are far under the layout's 4 GiB.
    let mut item = encode(&values).unwrap_or_default();
    match kind {
        "short" => {
            item.pop();
        }
        "byte_over" => item.push(rng.random()),
        "count_over" => {
            let count = u32::from_be_bytes([item[0], item[1], item[2], item[3]]) + 1;
            item[..4].copy_from_slice(&count.to_be_bytes());
        }
        "empty_item" => item.clear(),
        _ => {}
    }
    (item, kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ordered_trie::oracle;
    use crate::verdict::Reason;

    #[test]
    fn every_kind_answers_as_meant() {
        let items = lists(400, 7, 0.5, true);
        for (i, (item, kind)) in items.iter().enumerate() {
            let want = match *kind {
                "valid" => None,
                "empty_value" => Some(Reason::EmptyValue),
                _ => Some(Reason::WrongInputLength),
            };
            assert_eq!(oracle::root(item).err(), want, "item {i} ({kind})");
        }
        for kind in HOSTILE.iter().chain(&["valid"]) {
            assert!(items.iter().any(|(_, k)| k == kind), "no {kind} item");
        }
        // The bench's: valid blocks of BENCH_VALUES values, repeated past BENCH_DISTINCT.
        let bench = lists(BENCH_DISTINCT + 3, 1, 0.0, false);
        assert_eq!(bench.len(), BENCH_DISTINCT + 3);
        assert_eq!(bench[BENCH_DISTINCT].0, bench[0].0);
        assert!(
            bench[..3]
                .iter()
                .all(|(item, k)| { *k == "valid" && super::super::read(item).map(|v| v.len()) == Ok(BENCH_VALUES) })
        );
    }
}
