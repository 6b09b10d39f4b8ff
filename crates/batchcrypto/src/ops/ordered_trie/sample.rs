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
//!   (withdrawals), 1 to 600, 100 to 400 (transactions);
//! - blocks' receipts ([`receipt_blocks`], items of
//!   [`super::receipts`]): 0 to 300 receipts of every type, hostile of
//!   the kinds in [`RECEIPTS_HOSTILE`].

use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::encode;
use super::receipts::{self, Log, Receipt, Status, bloom};
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
fn random_bytes(rng: &mut StdRng, least: usize, most: usize) -> Vec<u8> {
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

/// The hostile kinds of [`receipt_blocks`], in the order items take them:
/// a bit of one receipt's stated bloom flipped, a log's topic changed
/// under its stated bloom, one receipt cut short, one with a byte over,
/// one of type 5, one of no bytes, the item cut short.
pub const RECEIPTS_HOSTILE: [&str; 7] = [
    "bloom_bit",
    "topic_changed",
    "receipt_short",
    "receipt_byte_over",
    "type_5",
    "empty_receipt",
    "short",
];

/// A random receipt: `cumulative` the block's gas so far; its logs'
/// addresses from a few (blocks repeat their contracts and topics).
fn random_receipt(rng: &mut StdRng, cumulative: &mut u64) -> Receipt {
    *cumulative += rng.random_range(21_000..=500_000);
    let tx_type = rng.random_range(0..=4u8);
    let status = if tx_type == 0 && rng.random_bool(0.2) {
        Status::PostState(rng.random())
    } else {
        Status::Eip658(rng.random_bool(0.9))
    };
    let logs = (0..[0, 0, 1, 2, rng.random_range(0..=12)][rng.random_range(0..5)])
        .map(|_| Log {
            address: [rng.random_range(1..=6u8); 20],
            topics: (0..rng.random_range(0..=4))
                .map(|_| {
                    if rng.random_bool(0.5) {
                        [rng.random_range(0..=3u8); 32]
                    } else {
                        rng.random()
                    }
                })
                .collect(),
            data: random_bytes(rng, 0, 200),
        })
        .collect();
    Receipt {
        tx_type,
        status,
        cumulative_gas_used: *cumulative,
        logs_bloom: None,
        logs,
    }
}

/// Items `range` of blocks' receipts from `seed` (each depends only on its
/// index and the seed): 0, 1, a few, 127 to 130 or up to 300 receipts
/// ([`random_receipt`]), each hostile with probability `invalid_share`, of
/// the kind [`RECEIPTS_HOSTILE`]`[i % 7]`, paired with its kind ("valid"
/// or hostile's).
pub fn receipt_blocks(range: std::ops::Range<usize>, seed: u64, invalid_share: f64) -> Vec<(Vec<u8>, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
            let count = match i % 6 {
                0 if !hostile => 0,
                0 | 1 => 1,
                2 => rng.random_range(2..=20),
                3 => rng.random_range(127..=130),
                _ => rng.random_range(1..=300),
            };
            let mut cumulative = 0;
            let mut receipts: Vec<Receipt> = (0..count).map(|_| random_receipt(&mut rng, &mut cumulative)).collect();
            let kind = if hostile {
                RECEIPTS_HOSTILE[i % RECEIPTS_HOSTILE.len()]
            } else {
                "valid"
            };
            let at = rng.random_range(0..count.max(1));
            if let (Some(r), "bloom_bit" | "topic_changed") = (receipts.get_mut(at), kind) {
                let mut stated = bloom(&r.logs);
                if kind == "bloom_bit" {
                    stated[rng.random_range(0..256)] ^= 1 << rng.random_range(0..8);
                } else {
                    // A log whose bits its receipt's stated bloom lacks.
                    r.logs.push(Log {
                        address: [0xee; 20],
                        topics: vec![[0xee; 32]],
                        data: Vec::new(),
                    });
                }
                r.logs_bloom = Some(stated);
            }
            // Sample receipts are of types 0 to 4.
            let mut values: Vec<Vec<u8>> = receipts.iter().map(receipts::encode).collect();
            if let Some(v) = values.get_mut(at) {
                match kind {
                    "receipt_short" => {
                        v.pop();
                    }
                    "receipt_byte_over" => v.push(rng.random()),
                    "type_5" if v[0] < 0x80 => v[0] = 5,
                    "type_5" => v.insert(0, 5),
                    "empty_receipt" => v.clear(),
                    _ => {}
                }
            }
            let mut item = encode(&values).unwrap_or_default();
            if kind == "short" {
                item.pop();
            }
            (item, kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ordered_trie::oracle;
    use crate::verdict::Reason;

    #[test]
    fn every_receipts_kind_answers_as_meant() {
        let items = receipt_blocks(0..300, 5, 0.6);
        for (i, (item, kind)) in items.iter().enumerate() {
            let want = match *kind {
                "valid" => None,
                "bloom_bit" | "topic_changed" => Some(Reason::BloomMismatch),
                "receipt_short" | "receipt_byte_over" => Some(Reason::MalformedReceipt),
                "type_5" => Some(Reason::UnsupportedTxType),
                "empty_receipt" => Some(Reason::EmptyValue),
                _ => Some(Reason::WrongInputLength),
            };
            assert_eq!(oracle::receipts(item).err().map(|e| e.1), want, "item {i} ({kind})");
        }
        for kind in RECEIPTS_HOSTILE.iter().chain(&["valid"]) {
            assert!(items.iter().any(|(_, k)| k == kind), "no {kind} item");
        }
    }

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
