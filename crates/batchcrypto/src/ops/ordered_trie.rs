//! The roots of Ethereum's ordered tries in batches (the operation
//! `ordered_trie_root`): a block's `transactionsRoot`, `receiptsRoot` and
//! `withdrawalsRoot` are the roots of Merkle-Patricia tries whose key for
//! the i-th value is `RLP(i)` and whose value is the i-th transaction,
//! receipt or withdrawal in its canonical encoding (EIP-2718: a typed one
//! `type ‖ RLP`, a legacy one the RLP list; a withdrawal RLP([index,
//! validator index, address, amount]), EIP-4895) — `debug_getRawReceipts`'
//! and `eth_getRawTransactionByBlockNumberAndIndex`'s bytes. What indexers,
//! archive checkers and light clients compute by the thousand to hold a
//! block's body, fetched from a node they do not trust, to the header they
//! do (Yellow Paper, section 4.3 and appendix D).
//!
//! The reference is alloy-trie's `root::ordered_trie_root_encoded` (reth's
//! trie crate; [`oracle`]), after the one check it lacks: a value of no
//! bytes is `empty_value` (a trie holds no empty value: writing one deletes
//! the key, and geth's `StackTrie`, which `DeriveSha` uses, refuses it,
//! where alloy-trie would store a leaf with an empty value). No values is
//! the empty trie, whose root is [`EMPTY_ROOT`] (a block without
//! transactions).
//!
//! An item is `count (4, big-endian) ‖ { length (4, big-endian) ‖ value }`
//! ([`encode`]). The checks, in order; the first that fails is the reason:
//! 1. `wrong_input_length`: the item does not read as that layout (short,
//!    or bytes left over);
//! 2. `empty_value`: a value of no bytes.
//!
//! The CPU path builds each item's trie (the keys `RLP(i)` sorted, which
//! leaves no key a prefix of another: no branch holds a value), encodes its
//! nodes with alloy-trie's node types and hashes them lowest first, every
//! node of one height of a task's tries at once through the interleaved
//! Keccak-256 routes (`build.rs`); the GPU path runs the same heights with
//! the nodes on the hashing kernel.

pub mod block;
pub(crate) mod build;
pub(crate) mod cpu;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use crate::ops::hash::Digest;
use crate::verdict::Reason;

pub use crate::ops::mpt::EMPTY_ROOT;

/// An item's root, or the reason it has none.
pub type RootResult = Result<Digest, Reason>;

/// An item's bytes (see the module's layout). `None` where a part does
/// not fit it: more than 2^32 - 1 values, a value of 4 GiB or more.
pub fn encode<V: AsRef<[u8]>>(values: &[V]) -> Option<Vec<u8>> {
    let bytes = values.iter().map(|v| 4 + v.as_ref().len()).sum::<usize>();
    let mut item = Vec::with_capacity(4 + bytes);
    item.extend_from_slice(&u32::try_from(values.len()).ok()?.to_be_bytes());
    for v in values {
        let v = v.as_ref();
        item.extend_from_slice(&u32::try_from(v.len()).ok()?.to_be_bytes());
        item.extend_from_slice(v);
    }
    Some(item)
}

/// A big-endian length of 4 bytes at the front of `bytes`, and the rest.
fn length(bytes: &[u8]) -> Result<(usize, &[u8]), Reason> {
    let (head, tail) = bytes.split_first_chunk::<4>().ok_or(Reason::WrongInputLength)?;
    Ok((u32::from_be_bytes(*head) as usize, tail))
}

/// The item's values in order, or the first check of the module's list
/// that fails.
pub fn read(item: &[u8]) -> Result<Vec<&[u8]>, Reason> {
    let values = values(item)?;
    if values.iter().any(|v| v.is_empty()) {
        return Err(Reason::EmptyValue);
    }
    Ok(values)
}

/// The item's values in order (empty ones too), or `wrong_input_length`
/// where it does not read as the module's layout.
pub fn values(item: &[u8]) -> Result<Vec<&[u8]>, Reason> {
    let (count, mut rest) = length(item)?;
    // Each value takes at least its 4 length bytes: a count past that is short.
    if count > rest.len() / 4 {
        return Err(Reason::WrongInputLength);
    }
    let mut values = Vec::with_capacity(count);
    for _ in 0..count {
        let (len, tail) = length(rest)?;
        let (value, tail) = tail.split_at_checked(len).ok_or(Reason::WrongInputLength)?;
        values.push(value);
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(Reason::WrongInputLength);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_read_back_and_refuse_bad_layouts() {
        let list: [&[u8]; 3] = [b"a", &[7; 300], &[0x80]];
        let item = encode(&list).expect("fits");
        assert_eq!(read(&item), Ok(list.to_vec()));
        assert_eq!(read(&encode::<&[u8]>(&[]).expect("fits")), Ok(vec![]));
        for cut in 0..item.len() {
            assert_eq!(read(&item[..cut]), Err(Reason::WrongInputLength), "cut at {cut}");
        }
        assert_eq!(read(&[&item[..], &[0]].concat()), Err(Reason::WrongInputLength));
        // A count far past the bytes, and one value too many.
        assert_eq!(read(&[0xff, 0xff, 0xff, 0xff]), Err(Reason::WrongInputLength));
        let mut more = item.clone();
        more[3] = 4;
        assert_eq!(read(&more), Err(Reason::WrongInputLength));
        // An empty value, after the layout reads.
        let empty = encode(&[&b"a"[..], b""]).expect("fits");
        assert_eq!(read(&empty), Err(Reason::EmptyValue));
        assert_eq!(values(&empty), Ok(vec![&b"a"[..], b""]));
        assert_eq!(read(&empty[..empty.len() - 1]), Err(Reason::WrongInputLength));
    }
}
