//! `batchcrypto verify block`: whole Ethereum blocks checked against their
//! own headers, one verdict per line (README, "verify block"): the body's
//! transactions under the header's `transactionsRoot`, its withdrawals
//! under `withdrawalsRoot` (from Shanghai on), its ommers under
//! `ommersHash`; the block's number and hash (its header's Keccak-256)
//! printed beside, for the caller to hold to the chain it trusts.
//!
//! In `{"block":"<hex>"}` (`debug_getRawBlock`'s bytes), out
//! `{"valid":true,"number":N,"hash":"<32>"}`, or `{"valid":false,
//! "reason":"root_mismatch","field":"ommersHash"|"transactionsRoot"|
//! "withdrawalsRoot","number":N,"hash":"<32>"}` naming the first that
//! does not match, or `{"valid":false,"reason":"malformed_block"}` where
//! the bytes are no block ([`batchcrypto::ops::ordered_trie::block`]). Every
//! block's transactions and withdrawals go to the engine as one batch of
//! `ordered_trie_root` items. A missing field or bad hex makes the line
//! malformed.

use std::io::Write;

use batchcrypto::ops::hash::{Alg, oracle as hashes};
use batchcrypto::ops::ordered_trie::{self, block};
use batchcrypto::{Engine, FlatBytes, Reason, Selection, Verdict};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, hex_into, parse_object, push_item, write_verdict};

pub fn job(engine: crate::EngineArgs, io: Io) -> LineJob {
    LineJob::new(BlockVerb, "verify block", engine, io)
}

#[derive(serde::Deserialize)]
struct BlockLine<'a> {
    #[serde(borrow, default)]
    block: Option<Field<'a>>,
}

/// What a line's block is checked by once its roots are known.
struct Claims {
    number: u64,
    hash: [u8; 32],
    ommers_match: bool,
    transactions_root: [u8; 32],
    withdrawals_root: Option<[u8; 32]>,
}

/// The lines' claims (or a block's reason) and their lists, in order: a
/// block's transactions, then its withdrawals where it has them.
#[derive(Default)]
struct BlockBatch {
    lines: Vec<Result<Claims, Reason>>,
    lists: FlatBytes,
}

/// A line's answer: its verdict, the field that did not match, and the
/// block's number and hash where it read.
type Answer = (Verdict, Option<&'static str>, Option<(u64, [u8; 32])>);

struct BlockVerb;

impl LineVerb for BlockVerb {
    type Batch = BlockBatch;
    type Out = Answer;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut BlockBatch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: BlockLine = parse_object(line)?;
        let field = l.block.ok_or("field \"block\": missing (the block's RLP in hex)")?;
        hex_into("block", &field, scratch)?;
        let Ok(b) = block::read(scratch) else {
            batch.lines.push(Err(Reason::MalformedBlock));
            return Ok(());
        };
        let before = batch.lists.len();
        let pushed = std::iter::once(&b.transactions)
            .chain(&b.withdrawals)
            .try_for_each(|list| {
                let item = ordered_trie::encode(list)
                    .ok_or("field \"block\": a transaction or withdrawal of 4 GiB or more")?;
                push_item(&mut batch.lists, &item)
            });
        if let Err(e) = pushed {
            batch.lists.truncate(before);
            return Err(e);
        }
        batch.lines.push(Ok(Claims {
            number: b.number,
            hash: hashes::digest(Alg::Keccak256, b.header),
            ommers_match: hashes::digest(Alg::Keccak256, b.ommers) == b.ommers_hash,
            transactions_root: b.transactions_root,
            withdrawals_root: b.withdrawals_root,
        }));
        Ok(())
    }

    fn batch_bytes(batch: &BlockBatch) -> usize {
        batch.lists.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &BlockBatch) -> Result<(Vec<Answer>, Selection), Fatal> {
        let outcome = engine.ordered_trie_roots(&batch.lists)?;
        let mut roots = outcome.output.into_iter();
        let answers = batch
            .lines
            .iter()
            .map(|line| {
                let c = match line {
                    Ok(c) => c,
                    Err(reason) => return (Verdict::Invalid(*reason), None, None),
                };
                let transactions = roots.next();
                let withdrawals = c.withdrawals_root.and_then(|_| roots.next());
                let field = if !c.ommers_match {
                    Some("ommersHash")
                } else if transactions != Some(Ok(c.transactions_root)) {
                    Some("transactionsRoot")
                } else if withdrawals != c.withdrawals_root.map(Ok) {
                    Some("withdrawalsRoot")
                } else {
                    None
                };
                let verdict = field.map_or(Verdict::Valid, |_| Verdict::Invalid(Reason::RootMismatch));
                (verdict, field, Some((c.number, c.hash)))
            })
            .collect();
        Ok((answers, outcome.selection))
    }

    fn write((verdict, field, block): &Answer, w: &mut dyn Write) -> std::io::Result<bool> {
        let Some((number, hash)) = block else {
            return write_verdict(verdict, w);
        };
        let hash = hex::encode(hash);
        match (verdict.reason(), field) {
            (Some(r), Some(f)) => {
                writeln!(
                    w,
                    "{{\"valid\":false,\"reason\":\"{}\",\"field\":\"{f}\",\"number\":{number},\"hash\":\"{hash}\"}}",
                    r.code()
                )?;
                Ok(false)
            }
            _ => {
                writeln!(w, "{{\"valid\":true,\"number\":{number},\"hash\":\"{hash}\"}}")?;
                Ok(true)
            }
        }
    }
}
