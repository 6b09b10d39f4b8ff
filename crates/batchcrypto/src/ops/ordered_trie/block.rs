//! Whole Ethereum blocks (`debug_getRawBlock`'s bytes, the RLP list
//! `[header, transactions, ommers]`, `withdrawals` fourth from Shanghai
//! on) read into what their bodies are checked by: the header's
//! `ommersHash` (field 1), `transactionsRoot` (4) and, when it has a
//! seventeenth field, `withdrawalsRoot` (16, EIP-4895), beside the body's
//! transactions and withdrawals as their tries hold them (a legacy
//! transaction's RLP list whole, a typed one's envelope `type ‖ RLP`, the
//! string's content: EIP-2718; a withdrawal's RLP list whole) and its
//! ommers list's encoding. The header's encoding is kept too: its
//! Keccak-256 is the block's hash. [`verify`] checks many blocks at once:
//! every block's transactions and withdrawals one batch of
//! `ordered_trie_root` items on the engine (the CLI's `verify block`,
//! Python's `Engine.verify_blocks`); [`verify_with_senders`] also recovers
//! the transactions' senders of the blocks that hold to their headers.
//!
//! `malformed_block` where the bytes are not such a list: RLP that does
//! not read or is not canonical (alloy-rlp's `Header`), bytes left over,
//! a header of fewer than 15 fields, a hash field not 32 bytes, a number
//! over 64 bits or with a leading zero, a transaction that is neither a
//! list nor a string starting with a type byte (0x00-0x7f), a withdrawal
//! that is not a list, withdrawals without a `withdrawalsRoot` or the
//! other way round.

use alloy_rlp::Header;

use crate::batch::FlatBytes;
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::ops::hash::{Alg, oracle as hashes};
use crate::verdict::Reason;

/// A block's parts (see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block<'a> {
    /// The header's whole encoding (its Keccak-256 is the block's hash).
    pub header: &'a [u8],
    /// The block's number (header field 8).
    pub number: u64,
    /// Keccak-256 of the ommers list's encoding, as the header states it.
    pub ommers_hash: [u8; 32],
    /// The transactions trie's root, as the header states it.
    pub transactions_root: [u8; 32],
    /// The withdrawals trie's root, where the header has one.
    pub withdrawals_root: Option<[u8; 32]>,
    /// The transactions as the trie holds them.
    pub transactions: Vec<&'a [u8]>,
    /// The ommers list's whole encoding.
    pub ommers: &'a [u8],
    /// The withdrawals as the trie holds them, where the body has them.
    pub withdrawals: Option<Vec<&'a [u8]>>,
}

/// An RLP item read.
#[derive(Clone, Copy)]
struct Item<'a> {
    /// Whether it is a list.
    list: bool,
    /// Its payload.
    payload: &'a [u8],
    /// Its whole encoding.
    whole: &'a [u8],
}

/// The RLP item at the front of `buf`; `buf` moves past it.
fn item<'a>(buf: &mut &'a [u8]) -> Result<Item<'a>, Reason> {
    let start = *buf;
    let header = Header::decode(buf).map_err(|_| Reason::MalformedBlock)?;
    let (payload, rest) = buf
        .split_at_checked(header.payload_length)
        .ok_or(Reason::MalformedBlock)?;
    *buf = rest;
    Ok(Item {
        list: header.list,
        payload,
        whole: &start[..start.len() - rest.len()],
    })
}

/// The items of a list's payload, each as [`item`] reads it.
fn items(mut payload: &[u8]) -> Result<Vec<Item<'_>>, Reason> {
    let mut out = Vec::new();
    while !payload.is_empty() {
        out.push(item(&mut payload)?);
    }
    Ok(out)
}

/// A string field of exactly 32 bytes.
fn hash(field: &Item<'_>) -> Result<[u8; 32], Reason> {
    match field {
        Item {
            list: false, payload, ..
        } => (*payload).try_into().map_err(|_| Reason::MalformedBlock),
        _ => Err(Reason::MalformedBlock),
    }
}

/// The block's parts, or `malformed_block` (see the module).
pub fn read(block: &[u8]) -> Result<Block<'_>, Reason> {
    let mut rest = block;
    let outer = item(&mut rest)?;
    if !outer.list || !rest.is_empty() {
        return Err(Reason::MalformedBlock);
    }
    let parts = items(outer.payload)?;
    let (header, transactions, ommers, withdrawals) = match parts.as_slice() {
        [h, t, o] => (h, t, o, None),
        [h, t, o, w] => (h, t, o, Some(w)),
        _ => return Err(Reason::MalformedBlock),
    };
    if !(header.list && transactions.list && ommers.list && withdrawals.is_none_or(|w| w.list)) {
        return Err(Reason::MalformedBlock);
    }
    let fields = items(header.payload)?;
    if fields.len() < 15 {
        return Err(Reason::MalformedBlock);
    }
    let number = match fields[8] {
        Item {
            list: false,
            payload: n,
            ..
        } if n.len() <= 8 && n.first() != Some(&0) => n.iter().fold(0, |v, &b| v << 8 | u64::from(b)),
        _ => return Err(Reason::MalformedBlock),
    };
    let withdrawals_root = fields.get(16).map(hash).transpose()?;
    if withdrawals_root.is_some() != withdrawals.is_some() {
        return Err(Reason::MalformedBlock);
    }
    let transactions = items(transactions.payload)?
        .into_iter()
        .map(|t| match (t.list, t.payload.first()) {
            (true, _) => Ok(t.whole),
            (false, Some(&kind)) if kind < 0x80 => Ok(t.payload),
            _ => Err(Reason::MalformedBlock),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let withdrawals = withdrawals
        .map(|w| {
            items(w.payload)?
                .into_iter()
                .map(|w| {
                    if w.list {
                        Ok(w.whole)
                    } else {
                        Err(Reason::MalformedBlock)
                    }
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    Ok(Block {
        header: header.whole,
        number,
        ommers_hash: hash(&fields[1])?,
        transactions_root: hash(&fields[4])?,
        withdrawals_root,
        transactions,
        ommers: ommers.whole,
        withdrawals,
    })
}

/// A header field a body is checked by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// Keccak-256 of the ommers list.
    OmmersHash = 1,
    /// The transactions trie's root.
    TransactionsRoot = 2,
    /// The withdrawals trie's root.
    WithdrawalsRoot = 3,
}

impl Field {
    /// The field's name in the header's JSON (`eth_getBlockByNumber`).
    pub fn name(self) -> &'static str {
        match self {
            Field::OmmersHash => "ommersHash",
            Field::TransactionsRoot => "transactionsRoot",
            Field::WithdrawalsRoot => "withdrawalsRoot",
        }
    }
}

/// A block checked: its number and hash (its header's Keccak-256), and
/// the first field its body does not match (`None`: the body is the
/// header's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// The block's number.
    pub number: u64,
    /// The block's hash.
    pub hash: [u8; 32],
    /// The first of `ommersHash`, `transactionsRoot`, `withdrawalsRoot`
    /// the body does not match.
    pub mismatch: Option<Field>,
}

/// A block checked, or `malformed_block`.
pub type BlockResult = Result<Checked, Reason>;

/// What a block is checked by once its roots are known.
struct Claims {
    checked: Checked,
    transactions_root: [u8; 32],
    withdrawals_root: Option<[u8; 32]>,
}

/// Every block of `blocks` checked against its own header (see the
/// module): the blocks' transactions and withdrawals as one batch of
/// `ordered_trie_root` items on `engine` (its selection is the call's),
/// the header's and ommers' Keccak-256 on the calling thread.
pub fn verify(engine: &Engine, blocks: &FlatBytes) -> Result<Outcome<Vec<BlockResult>>, Error> {
    let mut lists = FlatBytes::new();
    let mut claims = Vec::with_capacity(blocks.len());
    for i in 0..blocks.len() {
        let Ok(b) = read(blocks.get(i)) else {
            claims.push(Err(Reason::MalformedBlock));
            continue;
        };
        // A block's lists are its bytes with a length each: under the
        // 4 GiB of the batch the block came in, but for blocks near it.
        let fits = std::iter::once(&b.transactions)
            .chain(&b.withdrawals)
            .all(|list| super::encode(list).is_some_and(|item| lists.push(&item)));
        if !fits {
            return Err(Error::BatchTooLarge {
                op: crate::ops::Op::OrderedTrieRoot.into(),
                backend: crate::Backend::Cpu,
                reason: "the blocks' transactions and withdrawals pass 4 GiB; split the input".into(),
            });
        }
        let ommers_match = hashes::digest(Alg::Keccak256, b.ommers) == b.ommers_hash;
        claims.push(Ok(Claims {
            checked: Checked {
                number: b.number,
                hash: hashes::digest(Alg::Keccak256, b.header),
                mismatch: (!ommers_match).then_some(Field::OmmersHash),
            },
            transactions_root: b.transactions_root,
            withdrawals_root: b.withdrawals_root,
        }));
    }
    let outcome = engine.ordered_trie_roots(&lists)?;
    let mut roots = outcome.output.into_iter();
    let output = claims
        .into_iter()
        .map(|c| {
            let c = c?;
            let transactions = roots.next();
            let withdrawals = c.withdrawals_root.and_then(|_| roots.next());
            let mismatch = c.checked.mismatch.or_else(|| {
                if transactions != Some(Ok(c.transactions_root)) {
                    Some(Field::TransactionsRoot)
                } else if withdrawals != c.withdrawals_root.map(Ok) {
                    Some(Field::WithdrawalsRoot)
                } else {
                    None
                }
            });
            Ok(Checked { mismatch, ..c.checked })
        })
        .collect();
    Ok(Outcome {
        output,
        selection: outcome.selection,
    })
}

/// A block's transactions' senders in the body's order, or the first
/// transaction without one (its index in the body) and why.
pub type Senders = Result<Vec<[u8; 20]>, (usize, Reason)>;

/// A block checked, and its senders where it holds to its header.
pub type WithSenders = (BlockResult, Option<Senders>);

/// [`verify`], and for every block whose body holds to its header its
/// transactions' senders ([`crate::ops::tx_sender`]: EIP-2's low s), every
/// such block's transactions one batch of `tx_sender` items on `engine`
/// (its selection is the call's: the recoveries are most of the time);
/// `None` beside a block that does not hold to its header.
pub fn verify_with_senders(engine: &Engine, blocks: &FlatBytes) -> Result<Outcome<Vec<WithSenders>>, Error> {
    let checked = verify(engine, blocks)?.output;
    let mut txs = FlatBytes::new();
    let mut runs = Vec::with_capacity(checked.len());
    for (i, c) in checked.iter().enumerate() {
        let start = txs.len();
        let holds = matches!(c, Ok(c) if c.mismatch.is_none());
        if let (true, Ok(b)) = (holds, read(blocks.get(i))) {
            // The transactions are within the blocks' own batch.
            if !b.transactions.iter().all(|tx| txs.push(tx)) {
                return Err(Error::BatchTooLarge {
                    op: crate::ops::Op::TxSender.into(),
                    backend: crate::Backend::Cpu,
                    reason: "the blocks' transactions pass 4 GiB; split the input".into(),
                });
            }
        }
        runs.push(holds.then_some(start..txs.len()));
    }
    let senders = engine.tx_senders(&txs)?;
    let output = checked
        .into_iter()
        .zip(runs)
        .map(|(c, run)| {
            let of_block = run.map(|run| {
                senders.output[run]
                    .iter()
                    .enumerate()
                    .map(|(j, s)| s.map_err(|reason| (j, reason)))
                    .collect()
            });
            (c, of_block)
        })
        .collect();
    Ok(Outcome {
        output,
        selection: senders.selection,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RLP of a list of already-encoded items.
    fn list(items: &[&[u8]]) -> Vec<u8> {
        crate::ops::mpt::rlp_list(&items.concat())
    }

    fn string(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        alloy_rlp::Encodable::encode(bytes, &mut out);
        out
    }

    /// A header of `extra` fields past the fifteen (the 16th base fee, the
    /// 17th the withdrawals root), block number `number`.
    fn header(number: &[u8], extra: usize) -> Vec<u8> {
        let mut fields: Vec<Vec<u8>> = (0..15 + extra).map(|i| string(&[i as u8 + 1; 32])).collect();
        fields[8] = string(number);
        let refs: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
        list(&refs)
    }

    #[test]
    fn blocks_read_and_malformed_ones_are_refused() {
        let legacy = list(&[&string(&[9; 40])]);
        let typed = string(&[2, 0xc1, 0x80]);
        let withdrawal = list(&[&string(&[5; 20])]);
        let (h, h17) = (header(&[0x01, 0x00], 1), header(&[7], 2));
        let block = list(&[&h17, &list(&[&legacy, &typed]), &list(&[]), &list(&[&withdrawal])]);
        let b = read(&block).expect("a block");
        assert_eq!((b.header, b.number), (&h17[..], 7));
        assert_eq!(b.ommers_hash, [2; 32]);
        assert_eq!(b.transactions_root, [5; 32]);
        assert_eq!(b.withdrawals_root, Some([17; 32]));
        assert_eq!(b.transactions, vec![&legacy[..], &[2, 0xc1, 0x80][..]]);
        assert_eq!(b.ommers, &[0xc0][..]);
        assert_eq!(b.withdrawals, Some(vec![&withdrawal[..]]));
        let pre = list(&[&h, &list(&[]), &list(&[])]);
        let b = read(&pre).expect("a block");
        assert_eq!((b.number, b.withdrawals_root, b.withdrawals), (256, None, None));
        let malformed = [
            list(&[&h, &list(&[]), &list(&[]), &list(&[])]), // withdrawals, no root
            list(&[&h17, &list(&[]), &list(&[])]),           // a root, no withdrawals
            list(&[&h, &list(&[&string(&[])]), &list(&[])]), // an empty transaction
            list(&[&h, &list(&[&string(&[0x80])]), &list(&[])]), // no type byte
            list(&[&h17, &list(&[]), &list(&[]), &list(&[&string(&[1])])]), // a withdrawal not a list
            list(&[&header(&[0, 1], 0), &list(&[]), &list(&[])]), // a number's leading zero
            list(&[&header(&[1; 9], 0), &list(&[]), &list(&[])]), // a number over 64 bits
            list(&[&list(&[]), &list(&[]), &list(&[])]),     // a header of no fields
            list(&[&h, &list(&[])]),                         // no ommers
            [&pre[..], &[0]].concat(),                       // a byte left over
            pre[..pre.len() - 1].to_vec(),                   // cut short
            string(&pre),                                    // a string, not a list
            Vec::new(),
        ];
        for (k, m) in malformed.iter().enumerate() {
            assert_eq!(read(m), Err(Reason::MalformedBlock), "case {k}");
        }
    }
}
