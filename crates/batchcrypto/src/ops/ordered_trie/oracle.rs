//! The reference: alloy-trie's `root::ordered_trie_root_encoded` over the
//! item's values, after the one check it lacks (a value of no bytes is
//! `empty_value`, see [`super`]).

use super::{RootResult, read};
use crate::verdict::Reason;

/// The root of one item (see [`super`]).
pub fn root(item: &[u8]) -> RootResult {
    Ok(alloy_trie::root::ordered_trie_root_encoded(&read(item)?).0)
}

/// A block's receipts checked (see [`super::receipts`]): read by
/// alloy-consensus, each bloom made again by alloy-primitives'
/// `logs_bloom` and held to the stated one, the root alloy-trie's.
pub fn receipts(item: &[u8]) -> super::receipts::ReceiptsResult {
    use alloy_consensus::TxReceipt;
    let receipts = super::receipts::read_all(item)?;
    let mut union = alloy_primitives::Bloom::ZERO;
    for (j, r) in receipts.iter().enumerate() {
        let bloom = alloy_primitives::logs_bloom(r.logs());
        if r.bloom() != bloom {
            return Err((Some(j), Reason::BloomMismatch));
        }
        union |= bloom;
    }
    let root = root(item).map_err(|r| (None, r))?;
    Ok(super::receipts::Receipts {
        root,
        logs_bloom: union.0.0,
    })
}
