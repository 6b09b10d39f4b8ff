//! `batchcrypto receipts-root`: blocks' receipts checked, one block per
//! line (README, "receipts-root"): the root of their trie and the union of
//! their blooms, a header's `receiptsRoot` and `logsBloom`.
//!
//! In `{"receipts":[...]}`, each receipt as `eth_getBlockReceipts` lists
//! it (an object: `type`, `status` or before Byzantium `root`,
//! `cumulativeGasUsed`, `logsBloom`, `logs`; other fields ignored) or as
//! `debug_getRawReceipts` does (a hex string, its EIP-2718 bytes), in the
//! block's order; out `{"root":"<32>","logsBloom":"<256>"}` or
//! `{"root":null,"reason":"<code>","receipt":i}` naming the first receipt
//! refused (`empty_value`, `unsupported_tx_type`, `malformed_receipt`,
//! `bloom_mismatch`; [`batchcrypto::ops::receipts`]). A
//! missing field, bad hex, a field of the wrong length or width, or a
//! receipt that is neither an object nor a string makes the line
//! malformed, naming the field (`receipts[3].logs[0].topics[1]`). No
//! receipts is the empty trie and an empty bloom.

use std::io::Write;

use batchcrypto::ops::ordered_trie;
use batchcrypto::ops::receipts::{self, BLOOM_BYTES, ReceiptsResult};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_into, parse_object, push_item};

pub fn job(args: VerbArgs) -> LineJob {
    args.job(ReceiptsVerb, "receipts-root")
}

#[derive(serde::Deserialize)]
struct ReceiptsLine {
    #[serde(default)]
    receipts: Option<serde_json::Value>,
}

/// A receipt's bytes from its entry in the line's list, or what is wrong
/// with it, naming the field from the line.
fn receipt_bytes(i: usize, entry: &serde_json::Value) -> Result<Vec<u8>, String> {
    match entry {
        serde_json::Value::String(raw) => {
            let mut out = Vec::new();
            hex_into(&format!("receipts[{i}]"), &Field::Str(raw.into()), &mut out)?;
            Ok(out)
        }
        serde_json::Value::Object(_) => receipts::from_rpc(entry).map(|r| receipts::encode(&r)).map_err(|e| {
            match e
                .strip_prefix("field \"")
                .or_else(|| e.strip_prefix("missing field \""))
            {
                // Name the field from the line: "receipts[i].<its name>".
                Some(_) => e.replacen('"', &format!("\"receipts[{i}]."), 1),
                None => format!("receipts[{i}]: {e}"),
            }
        }),
        _ => Err(format!(
            "field \"receipts[{i}]\" is neither a receipt object nor a hex string"
        )),
    }
}

struct ReceiptsVerb;

impl LineVerb for ReceiptsVerb {
    type Batch = FlatBytes;
    type Out = ReceiptsResult;
    const OK_LABEL: &'static str = "rooted";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: ReceiptsLine = parse_object(line)?;
        let list = match l.receipts {
            Some(serde_json::Value::Array(list)) => list,
            None => {
                return Err(
                    "field \"receipts\": missing (an array of receipts, objects as eth_getBlockReceipts lists them or hex strings)"
                        .into(),
                );
            }
            Some(_) => return Err("field \"receipts\" is not an array".into()),
        };
        let values = list
            .iter()
            .enumerate()
            .map(|(i, entry)| receipt_bytes(i, entry))
            .collect::<Result<Vec<_>, _>>()?;
        let item = ordered_trie::encode(&values).ok_or("field \"receipts\": over 4 GiB")?;
        push_item(batch, &item)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The receipts (with their lengths) and each item's root and bloom.
        batch.bytes().len() + batch.len() * (32 + BLOOM_BYTES)
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<ReceiptsResult>, Selection), Fatal> {
        let outcome = engine.receipts_roots(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &ReceiptsResult, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(r) => {
                writeln!(
                    w,
                    "{{\"root\":\"{}\",\"logsBloom\":\"{}\"}}",
                    hex::encode(r.root),
                    hex::encode(r.logs_bloom)
                )?;
                Ok(true)
            }
            Err((receipt, reason)) => {
                match receipt {
                    Some(i) => writeln!(w, "{{\"root\":null,\"reason\":\"{}\",\"receipt\":{i}}}", reason.code())?,
                    None => writeln!(w, "{{\"root\":null,\"reason\":\"{}\"}}", reason.code())?,
                }
                Ok(false)
            }
        }
    }
}
