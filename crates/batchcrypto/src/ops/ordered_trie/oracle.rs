//! The reference: alloy-trie's `root::ordered_trie_root_encoded` over the
//! item's values, after the one check it lacks (a value of no bytes is
//! `empty_value`, see [`super`]).

use super::{RootResult, read};

/// The root of one item (see [`super`]).
pub fn root(item: &[u8]) -> RootResult {
    Ok(alloy_trie::root::ordered_trie_root_encoded(&read(item)?).0)
}
