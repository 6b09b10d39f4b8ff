//! Ethereum blocks' receipts checked in batches: a block's receipts give
//! its header's `receiptsRoot` (the root of their ordered trie, see
//! [`super`]) and `logsBloom` (the union of their blooms) — what an
//! indexer or light client computes to hold `eth_getBlockReceipts`'
//! answer from a node it does not trust to the header it does, before it
//! believes one log of it (Yellow Paper, sections 4.3.1 and 4.4.1; EIP-658
//! for the status, EIP-2718 for typed receipts).
//!
//! An item is a block's receipts in the ordered-trie layout ([`super::encode`]),
//! each receipt in its EIP-2718 encoding (`debug_getRawReceipts`' bytes:
//! `type ‖ RLP([status, cumulativeGasUsed, logsBloom, logs])` for types 1
//! to 4, the RLP list alone for a legacy one; the status a post-state root
//! of 32 bytes before Byzantium); [`encode`] makes one from the fields of an
//! RPC receipt ([`Receipt`]). The checks, in order; the first that fails
//! is the reason, beside the index of the receipt that fails it:
//! 1. `wrong_input_length`: the item does not read as the layout (no
//!    receipt named);
//! 2. per receipt, in order: `empty_value` (no bytes); `unsupported_tx_type`
//!    (a first byte up to 0x7f other than 1 to 4); `malformed_receipt`
//!    (not one receipt as alloy-consensus's `ReceiptEnvelope::decode_2718`
//!    reads it, or bytes left over); `bloom_mismatch` (its `logsBloom` is
//!    not the bloom of its logs: the M3:2048 bits of each log's address and
//!    topics, Yellow Paper equation 29).
//!
//! The answer is the root of the receipts' trie and the union of their
//! blooms; the caller compares both with the header it trusts. The
//! reference is reth's path ([`super::oracle::receipts`]): alloy-consensus
//! reads the receipts, alloy-primitives' `logs_bloom` makes the blooms and
//! alloy-trie's `ordered_trie_root_encoded` the root. [`verify`] reads the
//! receipts with the same decoder on every core, hashes every log's
//! address and topics as one batch of Keccak-256 messages on the engine,
//! and roots every block as one batch of `ordered_trie_root` items, each
//! batch where the engine's plan puts it (the hashing kernel on the GPU).

use alloy_consensus::{Eip658Value, ReceiptEnvelope, ReceiptWithBloom};
use alloy_eips::eip2718::{Decodable2718, Encodable2718};
use alloy_primitives::{Address, B256, Bloom, Bytes, LogData};

use crate::batch::FlatBytes;
use crate::cores;
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::ops::hash::{Alg, Digest};
use crate::verdict::Reason;

/// Bytes in a bloom filter (2,048 bits).
pub const BLOOM_BYTES: usize = 256;

/// A bloom filter's bytes, as headers and receipts hold them.
pub type BloomBytes = [u8; BLOOM_BYTES];

/// One log of a receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log {
    /// The account that emitted it.
    pub address: [u8; 20],
    /// Its topics (four at most in the EVM; any number is encoded).
    pub topics: Vec<[u8; 32]>,
    /// Its data.
    pub data: Vec<u8>,
}

/// A receipt's first field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// EIP-658's status: whether the transaction succeeded.
    Eip658(bool),
    /// Before Byzantium: the state root after the transaction.
    PostState([u8; 32]),
}

/// A receipt's consensus fields, as an RPC receipt gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    /// Its transaction's type (0 legacy, 1 to 4 typed).
    pub tx_type: u8,
    /// Its status or post-state root.
    pub status: Status,
    /// The gas the block had used up to and including its transaction.
    pub cumulative_gas_used: u64,
    /// Its bloom as stated (`None`: made from its logs).
    pub logs_bloom: Option<BloomBytes>,
    /// Its logs, in order.
    pub logs: Vec<Log>,
}

/// Alloy's log of ours.
fn alloy_log(l: &Log) -> alloy_primitives::Log {
    alloy_primitives::Log {
        address: Address::from(l.address),
        data: LogData::new_unchecked(
            l.topics.iter().map(|&t| B256::from(t)).collect(),
            Bytes::copy_from_slice(&l.data),
        ),
    }
}

/// The bloom of `logs` (alloy-primitives' `logs_bloom`): what a receipt
/// states when it is made from them.
pub fn bloom(logs: &[Log]) -> BloomBytes {
    alloy_primitives::logs_bloom(&logs.iter().map(alloy_log).collect::<Vec<_>>())
        .0
        .0
}

/// A receipt's EIP-2718 encoding (the bytes its block's trie holds), its
/// bloom the stated one (checked by [`verify`]) or its logs'; or
/// `unsupported_tx_type` for a type other than 0 to 4.
pub fn encode(receipt: &Receipt) -> Result<Vec<u8>, Reason> {
    let logs = receipt.logs.iter().map(alloy_log).collect();
    let inner = alloy_consensus::Receipt {
        status: match receipt.status {
            Status::Eip658(ok) => Eip658Value::Eip658(ok),
            Status::PostState(root) => Eip658Value::PostState(B256::from(root)),
        },
        cumulative_gas_used: receipt.cumulative_gas_used,
        logs,
    };
    let with_bloom = match receipt.logs_bloom {
        Some(bloom) => ReceiptWithBloom {
            receipt: inner,
            logs_bloom: Bloom::from(bloom),
        },
        None => inner.with_bloom(),
    };
    let envelope = match receipt.tx_type {
        0 => ReceiptEnvelope::Legacy(with_bloom),
        1 => ReceiptEnvelope::Eip2930(with_bloom),
        2 => ReceiptEnvelope::Eip1559(with_bloom),
        3 => ReceiptEnvelope::Eip4844(with_bloom),
        4 => ReceiptEnvelope::Eip7702(with_bloom),
        _ => return Err(Reason::UnsupportedTxType),
    };
    Ok(envelope.encoded_2718())
}

/// A receipt as read: alloy-consensus's envelope (checks 2 of the module's
/// list but the bloom's).
pub(crate) fn read(receipt: &[u8]) -> Result<ReceiptEnvelope, Reason> {
    match receipt.first() {
        None => return Err(Reason::EmptyValue),
        Some(&kind) if kind < 0x80 && !(1..=4).contains(&kind) => return Err(Reason::UnsupportedTxType),
        _ => {}
    }
    ReceiptEnvelope::decode_2718_exact(receipt).map_err(|_| Reason::MalformedReceipt)
}

/// A block's receipts' root and the union of their blooms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipts {
    /// The root of their ordered trie: the header's `receiptsRoot`.
    pub root: Digest,
    /// The union of their blooms: the header's `logsBloom`.
    pub logs_bloom: BloomBytes,
}

/// A block's receipts checked, or the reason they are refused beside the
/// index of the receipt that fails (none for `wrong_input_length`).
pub type ReceiptsResult = Result<Receipts, (Option<usize>, Reason)>;

/// An item's receipts read (checks 1 and 2 but the blooms'), each with
/// its stated bloom.
pub(crate) fn read_all(item: &[u8]) -> Result<Vec<ReceiptEnvelope>, (Option<usize>, Reason)> {
    let values = super::values(item).map_err(|r| (None, r))?;
    values
        .iter()
        .enumerate()
        .map(|(j, v)| read(v).map_err(|r| (Some(j), r)))
        .collect()
}

/// The messages a receipt's bloom is made of: each log's address, then
/// its topics.
fn bloom_inputs(receipt: &ReceiptEnvelope) -> impl Iterator<Item = &[u8]> {
    receipt
        .logs()
        .iter()
        .flat_map(|l| std::iter::once(l.address.as_slice()).chain(l.topics().iter().map(|t| t.as_slice())))
}

/// Fewest items per task when reading: a block's receipts take tens of
/// microseconds.
const READ_RUN: usize = 4;

/// Every item of `items` checked (see the module): the receipts read on
/// every core, their logs' addresses and topics one batch of Keccak-256
/// messages on `engine`, the blocks' tries one batch of `ordered_trie_root`
/// items (the outcome's selection is the tries'). Errors as the engine's
/// calls; a batch whose logs pass 4 GiB of messages is `BatchTooLarge`.
pub fn verify(engine: &Engine, items: &FlatBytes) -> Result<Outcome<Vec<ReceiptsResult>>, Error> {
    let read = cores::map_range(0..items.len(), READ_RUN, |i| read_all(items.get(i)));
    let mut messages = FlatBytes::new();
    for receipt in read.iter().flatten().flatten() {
        for m in bloom_inputs(receipt) {
            if !messages.push(m) {
                return Err(Error::BatchTooLarge {
                    op: crate::ops::Op::Hash(Alg::Keccak256).into(),
                    backend: crate::Backend::Cpu,
                    reason: "the receipts' logs pass 4 GiB of addresses and topics; split the input".into(),
                });
            }
        }
    }
    let digests = engine.hash(Alg::Keccak256, &messages)?.output;
    let roots = engine.ordered_trie_roots(items)?;
    let mut digests = digests.iter();
    let output = read
        .into_iter()
        .zip(roots.output)
        .map(|(receipts, root)| {
            let mut union = Bloom::ZERO;
            let mut first_mismatch = None;
            for (j, receipt) in receipts?.iter().enumerate() {
                let mut bloom = Bloom::ZERO;
                for _ in bloom_inputs(receipt) {
                    // One digest per message, pushed in this order above.
                    if let Some(d) = digests.next() {
                        bloom.m3_2048_hashed(&B256::from(*d));
                    }
                }
                let stated = receipt.as_receipt_with_bloom().map(|r| r.logs_bloom);
                if stated != Some(bloom) && first_mismatch.is_none() {
                    first_mismatch = Some(j);
                }
                union |= bloom;
            }
            if let Some(j) = first_mismatch {
                return Err((Some(j), Reason::BloomMismatch));
            }
            let root = root.map_err(|r| (None, r))?;
            Ok(Receipts {
                root,
                logs_bloom: union.0.0,
            })
        })
        .collect();
    Ok(Outcome {
        output,
        selection: roots.selection,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn receipt(tx_type: u8, status: Status, logs: Vec<Log>) -> Receipt {
        Receipt {
            tx_type,
            status,
            cumulative_gas_used: 21_000,
            logs_bloom: None,
            logs,
        }
    }

    fn log(topics: usize, data: usize) -> Log {
        Log {
            address: [0x11; 20],
            topics: (0..topics).map(|t| [t as u8; 32]).collect(),
            data: vec![0xab; data],
        }
    }

    #[test]
    fn receipts_encode_and_read_back_and_malformed_ones_are_refused() {
        for tx_type in 0..=4 {
            for status in [Status::Eip658(true), Status::Eip658(false), Status::PostState([7; 32])] {
                let r = receipt(tx_type, status, vec![log(2, 3), log(0, 0)]);
                let bytes = encode(&r).expect("a known type");
                assert_eq!(bytes[0] == tx_type, tx_type != 0, "type byte");
                let read = read(&bytes).expect("reads back");
                assert_eq!(read.logs().len(), 2);
                assert_eq!(read.tx_type() as u8, tx_type);
            }
        }
        assert_eq!(
            encode(&receipt(5, Status::Eip658(true), vec![])),
            Err(Reason::UnsupportedTxType)
        );
        let good = encode(&receipt(2, Status::Eip658(true), vec![log(1, 1)])).expect("encodes");
        assert_eq!(read(&[]).err(), Some(Reason::EmptyValue));
        for kind in [0u8, 5, 0x7e, 0x7f] {
            let other = [&[kind][..], &good[1..]].concat();
            assert_eq!(read(&other).err(), Some(Reason::UnsupportedTxType), "type {kind}");
        }
        let malformed = [
            [&good[..], &[0]].concat(),      // a byte left over
            good[..good.len() - 1].to_vec(), // cut short
            vec![2],                         // a type and nothing
            vec![0x80],                      // a string, no type
            vec![0xc0],                      // a legacy list of no fields
        ];
        for (k, m) in malformed.iter().enumerate() {
            assert_eq!(read(m).err(), Some(Reason::MalformedReceipt), "case {k}");
        }
    }
}
