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
//! the bytes are no block ([`batchcrypto::ops::ordered_trie::block`],
//! `Engine::verify_blocks`: every block's transactions and withdrawals one
//! batch of `ordered_trie_root` items). A missing field or bad hex makes
//! the line malformed.
//!
//! With `--senders`, a block whose body holds to its header also has its
//! transactions' senders recovered (every such block's transactions one
//! batch of `tx_sender` items, `Engine::verify_blocks_with_senders`): out
//! `{"valid":true,"number":N,"hash":"<32>","senders":["0x<20>",..]}` in
//! the body's order, or, where a transaction has no sender (a block no
//! chain would take), `{"valid":false,"reason":"<the transaction's>",
//! "transaction":i,"number":N,"hash":"<32>"}` naming the first. The run's
//! summary names the backend of the senders' batch (its recoveries are
//! most of the time).

use std::io::Write;

use batchcrypto::ops::ordered_trie::block::WithSenders;
use batchcrypto::{Engine, FlatBytes, Reason, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, parse_object, push_hex_field};

pub fn job(engine: crate::EngineArgs, io: Io, senders: bool) -> LineJob {
    let title = if senders {
        "verify block --senders"
    } else {
        "verify block"
    };
    LineJob::new(BlockVerb { senders }, title, engine, io)
}

#[derive(serde::Deserialize)]
struct BlockLine<'a> {
    #[serde(borrow, default)]
    block: Option<Field<'a>>,
}

struct BlockVerb {
    /// `--senders`.
    senders: bool,
}

impl LineVerb for BlockVerb {
    type Batch = FlatBytes;
    type Out = WithSenders;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: BlockLine = parse_object(line)?;
        let field = l.block.ok_or("field \"block\": missing (the block's RLP in hex)")?;
        push_hex_field("block", &field, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The blocks, and their lists made for the roots.
        2 * batch.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        if self.senders {
            let outcome = engine.verify_blocks_with_senders(batch)?;
            return Ok((outcome.output, outcome.selection));
        }
        let outcome = engine.verify_blocks(batch)?;
        Ok((
            outcome.output.into_iter().map(|r| (r, None)).collect(),
            outcome.selection,
        ))
    }

    fn write((checked, senders): &Self::Out, w: &mut dyn Write) -> std::io::Result<bool> {
        let c = match checked {
            Ok(c) => c,
            Err(reason) => {
                writeln!(w, "{{\"valid\":false,\"reason\":\"{}\"}}", reason.code())?;
                return Ok(false);
            }
        };
        let (number, hash) = (c.number, hex::encode(c.hash));
        match c.mismatch {
            Some(f) => {
                writeln!(
                    w,
                    "{{\"valid\":false,\"reason\":\"{}\",\"field\":\"{}\",\"number\":{number},\"hash\":\"{hash}\"}}",
                    Reason::RootMismatch.code(),
                    f.name()
                )?;
                Ok(false)
            }
            None => match senders {
                None => {
                    writeln!(w, "{{\"valid\":true,\"number\":{number},\"hash\":\"{hash}\"}}")?;
                    Ok(true)
                }
                Some(Ok(senders)) => {
                    let list: Vec<String> = senders.iter().map(|a| format!("\"0x{}\"", hex::encode(a))).collect();
                    writeln!(
                        w,
                        "{{\"valid\":true,\"number\":{number},\"hash\":\"{hash}\",\"senders\":[{}]}}",
                        list.join(",")
                    )?;
                    Ok(true)
                }
                Some(Err((i, reason))) => {
                    writeln!(
                        w,
                        "{{\"valid\":false,\"reason\":\"{}\",\"transaction\":{i},\"number\":{number},\"hash\":\"{hash}\"}}",
                        reason.code()
                    )?;
                    Ok(false)
                }
            },
        }
    }
}
