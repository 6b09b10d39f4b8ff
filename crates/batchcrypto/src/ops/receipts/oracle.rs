//! The reference: reth's path. The receipts read by alloy-consensus's
//! `ReceiptEnvelope::decode_2718` (as the CPU and GPU paths), each bloom made again
//! by alloy-primitives' `logs_bloom` and held to the stated one, the root
//! alloy-trie's `ordered_trie_root_encoded` ([`crate::ops::ordered_trie::oracle`]).

use alloy_consensus::TxReceipt;

use super::{Receipts, ReceiptsResult, read_all};
use crate::ops::ordered_trie::oracle::root;
use crate::verdict::Reason;

/// A block's receipts checked (see [`super`]).
pub fn check(item: &[u8]) -> ReceiptsResult {
    let receipts = read_all(item)?;
    let mut union = alloy_primitives::Bloom::ZERO;
    for (j, r) in receipts.iter().enumerate() {
        let bloom = alloy_primitives::logs_bloom(r.logs());
        if r.bloom() != bloom {
            return Err((Some(j), Reason::BloomMismatch));
        }
        union |= bloom;
    }
    Ok(Receipts {
        root: root(item).map_err(|r| (None, r))?,
        logs_bloom: union.0.0,
    })
}
