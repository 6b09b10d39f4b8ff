//! Ethereum blocks' receipts checked in batches: a block's receipts give
//! its header's `receiptsRoot` (the root of their ordered trie, see
//! [`super::ordered_trie`]) and `logsBloom` (the union of their blooms) — what an
//! indexer or light client computes to hold `eth_getBlockReceipts`'
//! answer from a node it does not trust to the header it does, before it
//! believes one log of it (Yellow Paper, sections 4.3.1 and 4.4.1; EIP-658
//! for the status, EIP-2718 for typed receipts).
//!
//! An item is a block's receipts in the ordered-trie layout
//! ([`super::ordered_trie::encode`]),
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
//! reference is reth's path ([`oracle`]): alloy-consensus reads the
//! receipts, alloy-primitives' `logs_bloom` makes the blooms and
//! alloy-trie's `ordered_trie_root_encoded` the root. Both paths read the
//! receipts with the same decoder on every core; the CPU path hashes a
//! task's logs' addresses and topics through the interleaved Keccak-256
//! routes and builds its tries as `ordered_trie_root`'s CPU path does
//! (`cpu.rs`); the GPU path hashes the batch's logs in one run of the
//! hashing kernel and its tries' heights as `ordered_trie_root`'s GPU path
//! does (`gpu.rs`).

pub(crate) mod cpu;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use alloy_consensus::{Eip658Value, ReceiptEnvelope, ReceiptWithBloom};
use alloy_eips::eip2718::{Decodable2718, Encodable2718};
use alloy_primitives::{Address, B256, Bloom, Bytes, LogData};

use crate::ops::hash::Digest;
use crate::ops::ordered_trie::RootResult;
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
/// bloom the stated one (held to its logs' by the checks) or its logs'. A type
/// other than 0 to 4 is written as a typed one would be (its byte before
/// the list), bytes the checks refuse (`unsupported_tx_type` up to 0x7f).
pub fn encode(receipt: &Receipt) -> Vec<u8> {
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
        other => {
            let mut out = vec![other];
            out.extend(ReceiptEnvelope::Legacy(with_bloom).encoded_2718());
            return out;
        }
    };
    envelope.encoded_2718()
}

/// [`from_rpc`] of a JSON text (the bindings' form), or what is wrong.
pub fn from_rpc_json(text: &str) -> Result<Receipt, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    from_rpc(&value)
}

/// The hex digits of a JSON string field (`0x` or `0X` dropped), or what
/// is wrong with `value` as one (`expected` says what it should be),
/// naming `name`.
fn rpc_digits<'a>(name: &str, value: Option<&'a serde_json::Value>, expected: &str) -> Result<&'a str, String> {
    match value {
        Some(serde_json::Value::String(s)) => Ok(s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s)),
        None => Err(format!("missing field \"{name}\"")),
        Some(other) => Err(format!("field \"{name}\" is {}; expected {expected}", json_kind(other))),
    }
}

/// The bytes of a JSON hex string (an even count of digits).
fn rpc_bytes(name: &str, value: Option<&serde_json::Value>) -> Result<Vec<u8>, String> {
    let digits = rpc_digits(name, value, "a hex string")?;
    alloy_primitives::hex::decode(digits).map_err(|e| format!("field \"{name}\": bad hex: {e}"))
}

/// Exactly `N` bytes of a JSON hex string.
fn rpc_fixed<const N: usize>(name: &str, value: Option<&serde_json::Value>) -> Result<[u8; N], String> {
    let bytes = rpc_bytes(name, value)?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("field \"{name}\": expected {N} bytes, got {}", b.len()))
}

/// A JSON-RPC quantity (`0x` and hex digits, no more than 64 bits).
fn rpc_quantity(name: &str, value: Option<&serde_json::Value>) -> Result<u64, String> {
    let digits = rpc_digits(name, value, "a hex quantity")?;
    if digits.is_empty() || digits.len() > 16 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        let text = value.and_then(|v| v.as_str()).unwrap_or_default();
        return Err(format!(
            "field \"{name}\": \"{text}\" is not a hex quantity of at most 64 bits"
        ));
    }
    u64::from_str_radix(digits, 16).map_err(|e| format!("field \"{name}\": {e}"))
}

/// What a JSON value is, for messages.
fn json_kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// The receipt an `eth_getBlockReceipts` (or `eth_getTransactionReceipt`)
/// answer lists, read from its JSON object: `type` (absent: legacy, as
/// some nodes leave it out), `status` (`0x0` or `0x1`) or before
/// Byzantium `root` (32 bytes; a `root` that is null or `0x` counts as
/// absent), `cumulativeGasUsed`, `logs` (each `address`, `topics`,
/// `data`) and `logsBloom` (absent: made from the logs); other fields are
/// ignored. Or the first field that does not read so, named from the
/// receipt (`logs[2].topics[0]`): a missing field, bad hex, a length or
/// a width not the field's, both or neither of `status` and `root`, a
/// type over 0x7f (EIP-2718's). A type of 5 to 0x7f is no error here:
/// [`encode`] writes it, and the checks refuse it (`unsupported_tx_type`).
pub fn from_rpc(value: &serde_json::Value) -> Result<Receipt, String> {
    let serde_json::Value::Object(r) = value else {
        return Err(format!("is {}; expected a receipt object", json_kind(value)));
    };
    let tx_type = match r.get("type") {
        None => 0,
        Some(t) => {
            let t = rpc_quantity("type", Some(t))?;
            u8::try_from(t)
                .ok()
                .filter(|&t| t < 0x80)
                .ok_or(format!("field \"type\": {t:#x} is over 0x7f, no EIP-2718 type"))?
        }
    };
    let root = match r.get("root") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if s == "0x" || s.is_empty() => None,
        root => Some(rpc_fixed::<32>("root", root)?),
    };
    let status = match (root, r.get("status")) {
        (Some(root), None | Some(serde_json::Value::Null)) => Status::PostState(root),
        (None, Some(s)) => match rpc_quantity("status", Some(s))? {
            0 => Status::Eip658(false),
            1 => Status::Eip658(true),
            other => return Err(format!("field \"status\": {other:#x}; expected 0x0 or 0x1")),
        },
        (Some(_), Some(_)) => return Err("both \"status\" and a post-state \"root\"; a receipt has one".into()),
        (None, None) => return Err("missing field \"status\" (or before Byzantium \"root\")".into()),
    };
    let logs_bloom = match r.get("logsBloom") {
        None => None,
        bloom => Some(rpc_fixed::<BLOOM_BYTES>("logsBloom", bloom)?),
    };
    let logs = match r.get("logs") {
        Some(serde_json::Value::Array(logs)) => logs,
        None => return Err("missing field \"logs\"".into()),
        Some(other) => return Err(format!("field \"logs\" is {}; expected an array", json_kind(other))),
    };
    let logs = logs
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let name = |f: &str| format!("logs[{k}].{f}");
            let topics = match l.get("topics") {
                Some(serde_json::Value::Array(t)) => t,
                None => return Err(format!("missing field \"{}\"", name("topics"))),
                Some(other) => {
                    return Err(format!(
                        "field \"{}\" is {}; expected an array",
                        name("topics"),
                        json_kind(other)
                    ));
                }
            };
            Ok(Log {
                address: rpc_fixed::<20>(&name("address"), l.get("address"))?,
                topics: topics
                    .iter()
                    .enumerate()
                    .map(|(t, v)| rpc_fixed::<32>(&name(&format!("topics[{t}]")), Some(v)))
                    .collect::<Result<_, _>>()?,
                data: rpc_bytes(&name("data"), l.get("data"))?,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(Receipt {
        tx_type,
        status,
        cumulative_gas_used: rpc_quantity("cumulativeGasUsed", r.get("cumulativeGasUsed"))?,
        logs_bloom,
        logs,
    })
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
    let values = super::ordered_trie::values(item).map_err(|r| (None, r))?;
    values
        .iter()
        .enumerate()
        .map(|(j, v)| read(v).map_err(|r| (Some(j), r)))
        .collect()
}

/// The messages a receipt's bloom is made of: each log's address, then
/// its topics.
pub(crate) fn bloom_inputs(receipt: &ReceiptEnvelope) -> impl Iterator<Item = &[u8]> {
    receipt
        .logs()
        .iter()
        .flat_map(|l| std::iter::once(l.address.as_slice()).chain(l.topics().iter().map(|t| t.as_slice())))
}

/// A batch's receipts read, and the messages of their blooms in order
/// (each read receipt's [`bloom_inputs`]).
pub(crate) type Read = Vec<Result<Vec<ReceiptEnvelope>, (Option<usize>, Reason)>>;

/// Every item's answer from its receipts as read, the digests of their
/// bloom messages in order (as many as they have), and its trie's root:
/// the first receipt whose stated bloom is not its logs' is
/// `bloom_mismatch`; else the root and the blooms' union.
pub(crate) fn finish(
    read: Read,
    digests: &[Digest],
    roots: impl IntoIterator<Item = RootResult>,
) -> Vec<ReceiptsResult> {
    let mut digests = digests.iter();
    read.into_iter()
        .zip(roots)
        .map(|(receipts, root)| {
            let mut union = Bloom::ZERO;
            let mut first_mismatch = None;
            for (j, receipt) in receipts?.iter().enumerate() {
                let mut bloom = Bloom::ZERO;
                for _ in bloom_inputs(receipt) {
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
            Ok(Receipts {
                root: root.map_err(|r| (None, r))?,
                logs_bloom: union.0.0,
            })
        })
        .collect()
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
                let bytes = encode(&r);
                assert_eq!(bytes[0] == tx_type, tx_type != 0, "type byte");
                let read = read(&bytes).expect("reads back");
                assert_eq!(read.logs().len(), 2);
                assert_eq!(read.tx_type() as u8, tx_type);
            }
        }
        let five = encode(&receipt(5, Status::Eip658(true), vec![]));
        assert_eq!(five[0], 5);
        assert_eq!(read(&five).err(), Some(Reason::UnsupportedTxType));
        let good = encode(&receipt(2, Status::Eip658(true), vec![log(1, 1)]));
        assert_eq!(five[1..], encode(&receipt(0, Status::Eip658(true), vec![]))[..]);
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

    #[test]
    fn rpc_receipts_read_and_malformed_ones_are_named() {
        let log = r#"{"address":"0x1111111111111111111111111111111111111111","topics":["0x2222222222222222222222222222222222222222222222222222222222222222"],"data":"0x"}"#;
        let good = format!(
            r#"{{"type":"0x2","status":"0x1","cumulativeGasUsed":"0x5208","logs":[{log}],"blockHash":"ignored"}}"#
        );
        let value: serde_json::Value = serde_json::from_str(&good).expect("json");
        let r = from_rpc(&value).expect("reads");
        assert_eq!(
            (r.tx_type, r.status, r.cumulative_gas_used),
            (2, Status::Eip658(true), 21_000)
        );
        assert_eq!((r.logs.len(), r.logs[0].topics.len(), r.logs_bloom), (1, 1, None));
        let pre = r#"{"root":"0x0707070707070707070707070707070707070707070707070707070707070707","cumulativeGasUsed":"0x1","logs":[]}"#;
        let r = from_rpc(&serde_json::from_str(pre).expect("json")).expect("reads");
        assert_eq!((r.tx_type, r.status), (0, Status::PostState([7; 32])));
        let five = r#"{"type":"0x7e","status":"0x0","root":null,"cumulativeGasUsed":"0x1","logs":[]}"#;
        let r = from_rpc(&serde_json::from_str(five).expect("json")).expect("reads");
        assert_eq!(read(&encode(&r)).err(), Some(Reason::UnsupportedTxType));
        let bad = [
            (r#"[]"#, "is an array; expected a receipt object"),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1"}"#,
                "missing field \"logs\"",
            ),
            (
                r#"{"cumulativeGasUsed":"0x1","logs":[]}"#,
                "missing field \"status\" (or before Byzantium \"root\")",
            ),
            (
                r#"{"status":"0x2","cumulativeGasUsed":"0x1","logs":[]}"#,
                "field \"status\": 0x2; expected 0x0 or 0x1",
            ),
            (
                r#"{"type":"0x80","status":"0x1","cumulativeGasUsed":"0x1","logs":[]}"#,
                "field \"type\": 0x80 is over 0x7f, no EIP-2718 type",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x10000000000000000","logs":[]}"#,
                "field \"cumulativeGasUsed\": \"0x10000000000000000\" is not a hex quantity of at most 64 bits",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":1,"logs":[]}"#,
                "field \"cumulativeGasUsed\" is a number; expected a hex quantity",
            ),
            (
                r#"{"status":"0x1","root":"0x0707070707070707070707070707070707070707070707070707070707070707","cumulativeGasUsed":"0x1","logs":[]}"#,
                "both \"status\" and a post-state \"root\"; a receipt has one",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1","logs":[],"logsBloom":"0x00"}"#,
                "field \"logsBloom\": expected 256 bytes, got 1",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1","logs":[{"address":"0x11","topics":[],"data":"0x"}]}"#,
                "field \"logs[0].address\": expected 20 bytes, got 1",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1","logs":[{"address":"0x1111111111111111111111111111111111111111","topics":["0x22"],"data":"0x"}]}"#,
                "field \"logs[0].topics[0]\": expected 32 bytes, got 1",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1","logs":[{"address":"0x1111111111111111111111111111111111111111","topics":[],"data":"0xzz"}]}"#,
                "field \"logs[0].data\": bad hex: invalid character 'z' at position 0",
            ),
            (
                r#"{"status":"0x1","cumulativeGasUsed":"0x1","logs":[{"address":"0x1111111111111111111111111111111111111111","data":"0x"}]}"#,
                "missing field \"logs[0].topics\"",
            ),
        ];
        for (json, want) in bad {
            let value: serde_json::Value = serde_json::from_str(json).expect("json");
            assert_eq!(from_rpc(&value).err().as_deref(), Some(want), "{json}");
        }
    }
}
