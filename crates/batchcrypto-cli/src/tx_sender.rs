//! `batchcrypto tx-sender`: the senders of Ethereum transactions, one per
//! line (README, "tx-sender"): each signed transaction's signer, recovered
//! from its signature under EIP-2's low s.
//!
//! In `{"tx":"<hex>"}` (the transaction's EIP-2718 bytes, as
//! `eth_getRawTransactionByHash` gives them: types 0 to 4), out
//! `{"sender":"0x<20>"}` or `{"sender":null,"reason"}`
//! (`unsupported_tx_type`, `malformed_transaction`, `r_out_of_range`,
//! `s_out_of_range`, `high_s`, `recovery_failed`). A missing or mistyped
//! field, or bad hex, makes the line malformed.

use std::io::Write;

use batchcrypto::ops::tx_sender::SenderResult;
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_into, parse_object, push_item, write_refused};

pub fn job(args: VerbArgs) -> LineJob {
    args.job(TxSender, "tx-sender")
}

#[derive(serde::Deserialize)]
struct TxLine<'a> {
    #[serde(borrow, default)]
    tx: Field<'a>,
}

/// A `{"tx":"<hex>"}` line's bytes appended to `batch` (also `verify
/// solana-tx`'s lines).
pub(crate) fn parse_tx(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
    let l: TxLine = parse_object(line)?;
    hex_into("tx", &l.tx, scratch)?;
    push_item(batch, scratch)
}

struct TxSender;

impl LineVerb for TxSender {
    type Batch = FlatBytes;
    type Out = SenderResult;
    const OK_LABEL: &'static str = "recovered";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        parse_tx(line, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The transactions and each item's sender.
        batch.bytes().len() + batch.len() * 20
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<SenderResult>, Selection), Fatal> {
        let outcome = engine.tx_senders(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &SenderResult, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(sender) => {
                writeln!(w, "{{\"sender\":\"0x{}\"}}", hex::encode(sender))?;
                Ok(true)
            }
            Err(reason) => write_refused("sender", reason, w),
        }
    }
}
