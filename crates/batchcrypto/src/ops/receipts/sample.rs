//! Receipts items ([`super`]: a block's receipts) for benchmarks,
//! self-tests, `sample` and tests, and hostile items of the kinds in
//! [`HOSTILE`]:
//!
//! - the bench: blocks of [`BENCH_RECEIPTS`] EIP-1559 receipts with 0 to 4
//!   logs each (two on average: transfers and swaps), three topics, 32 to
//!   96 bytes of data, from a few dozen contracts (a mainnet block holds
//!   one to three hundred receipts and a few hundred logs);
//! - varied: 0, 1, a few, 127 to 130 (where the keys pass from one byte to
//!   `0x81 xx`) or up to 300 receipts of every type (post-state roots among
//!   the legacy ones), 0 to 12 logs of 0 to 4 topics and 0 to 200 bytes.

use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::{Log, Receipt, Status, bloom, encode as encode_receipt};
use crate::ops::item_rng;
use crate::ops::ordered_trie::encode;
use crate::ops::ordered_trie::sample::random_bytes;

/// The hostile kinds, in the order items take them: a bit of one
/// receipt's stated bloom flipped, a log added under its receipt's stated
/// bloom, one receipt cut short, one with a byte over, one of type 5, one
/// of no bytes, the item cut short.
pub const HOSTILE: [&str; 7] = [
    "bloom_bit",
    "log_added",
    "receipt_short",
    "receipt_byte_over",
    "type_5",
    "empty_receipt",
    "short",
];

/// Receipts in a bench item (a block's).
pub const BENCH_RECEIPTS: usize = 128;

/// Distinct bench items made; larger benches repeat them.
const BENCH_DISTINCT: usize = 1024;

/// A random receipt, `bench` shaped or varied (see the module);
/// `cumulative` the block's gas so far.
fn random_receipt(rng: &mut StdRng, cumulative: &mut u64, bench: bool) -> Receipt {
    *cumulative += rng.random_range(21_000..=500_000);
    let tx_type = if bench { 2 } else { rng.random_range(0..=4u8) };
    let status = if tx_type == 0 && rng.random_bool(0.2) {
        Status::PostState(rng.random())
    } else {
        Status::Eip658(rng.random_bool(0.9))
    };
    let logs = if bench {
        rng.random_range(0..=4)
    } else {
        [0, 0, 1, 2, rng.random_range(0..=12)][rng.random_range(0..5)]
    };
    let contracts = if bench { 40 } else { 6 };
    let logs = (0..logs)
        .map(|_| Log {
            address: [rng.random_range(1..=contracts); 20],
            topics: (0..if bench { 3 } else { rng.random_range(0..=4) })
                .map(|_| {
                    // Event signatures repeat; indexed values mostly do not.
                    if rng.random_bool(0.4) {
                        [rng.random_range(0..=3u8); 32]
                    } else {
                        rng.random()
                    }
                })
                .collect(),
            data: if bench {
                random_bytes(rng, 32, 96)
            } else {
                random_bytes(rng, 0, 200)
            },
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

/// `n` items from `seed` (see the module's shapes; `varied` false: the
/// bench's, 1,024 distinct blocks repeated), each hostile with
/// probability `invalid_share`, of the kind [`HOSTILE`]`[i % 7]`, paired
/// with its kind ("valid" or hostile's).
pub fn blocks(n: usize, seed: u64, invalid_share: f64, varied: bool) -> Vec<(Vec<u8>, &'static str)> {
    if varied {
        return blocks_range(0..n, seed, invalid_share);
    }
    let made: Vec<(Vec<u8>, &'static str)> = (0..n.min(BENCH_DISTINCT))
        .into_par_iter()
        .map(|i| block(i, seed, invalid_share, false))
        .collect();
    made.iter().cycle().take(n).cloned().collect()
}

/// Items `range` of [`blocks`] with `varied` (each depends only on its
/// index and the seed).
pub fn blocks_range(range: std::ops::Range<usize>, seed: u64, invalid_share: f64) -> Vec<(Vec<u8>, &'static str)> {
    range
        .into_par_iter()
        .map(|i| block(i, seed, invalid_share, true))
        .collect()
}

/// Item i (see [`blocks`]).
fn block(i: usize, seed: u64, invalid_share: f64, varied: bool) -> (Vec<u8>, &'static str) {
    let mut rng = item_rng(seed, i);
    let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
    let count = match i % 6 {
        _ if !varied => BENCH_RECEIPTS,
        0 if !hostile => 0,
        0 | 1 => 1,
        2 => rng.random_range(2..=20),
        3 => rng.random_range(127..=130),
        _ => rng.random_range(1..=300),
    };
    let mut cumulative = 0;
    let mut receipts: Vec<Receipt> = (0..count)
        .map(|_| random_receipt(&mut rng, &mut cumulative, !varied))
        .collect();
    let kind = if hostile { HOSTILE[i % HOSTILE.len()] } else { "valid" };
    let at = rng.random_range(0..count.max(1));
    if let (Some(r), "bloom_bit" | "log_added") = (receipts.get_mut(at), kind) {
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
    let mut values: Vec<Vec<u8>> = receipts.iter().map(encode_receipt).collect();
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
    // Sample blocks are far under the layout's 4 GiB.
    let mut item = encode(&values).unwrap_or_default();
    if kind == "short" {
        item.pop();
    }
    (item, kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::receipts::oracle;
    use crate::verdict::Reason;

    #[test]
    fn every_kind_answers_as_meant() {
        let items = blocks(300, 5, 0.6, true);
        for (i, (item, kind)) in items.iter().enumerate() {
            let want = match *kind {
                "valid" => None,
                "bloom_bit" | "log_added" => Some(Reason::BloomMismatch),
                "receipt_short" | "receipt_byte_over" => Some(Reason::MalformedReceipt),
                "type_5" => Some(Reason::UnsupportedTxType),
                "empty_receipt" => Some(Reason::EmptyValue),
                _ => Some(Reason::WrongInputLength),
            };
            assert_eq!(oracle::check(item).err().map(|e| e.1), want, "item {i} ({kind})");
        }
        for kind in HOSTILE.iter().chain(&["valid"]) {
            assert!(items.iter().any(|(_, k)| k == kind), "no {kind} item");
        }
        // The bench's: valid blocks of BENCH_RECEIPTS receipts, repeated.
        let bench = blocks(BENCH_DISTINCT + 2, 1, 0.0, false);
        assert_eq!(bench[BENCH_DISTINCT].0, bench[0].0);
        for (item, kind) in &bench[..2] {
            assert_eq!(*kind, "valid");
            assert!(oracle::check(item).is_ok());
            assert_eq!(
                crate::ops::ordered_trie::read(item).map(|v| v.len()),
                Ok(BENCH_RECEIPTS)
            );
        }
    }
}
