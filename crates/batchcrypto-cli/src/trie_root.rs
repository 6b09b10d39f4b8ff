//! `batchcrypto trie-root`: the roots of Ethereum's ordered tries, one per
//! line (README, "trie-root"): a block's `transactionsRoot`,
//! `receiptsRoot` or `withdrawalsRoot` from its values.
//!
//! In `{"values":["<hex>", ...]}` (each transaction, receipt or withdrawal
//! in its canonical encoding, as `debug_getRawReceipts` and
//! `eth_getRawTransactionByBlockNumberAndIndex` give them), out
//! `{"root":"<32>"}` or `{"root":null,"reason"}`. A missing or mistyped
//! field, or a value that is not hex, makes the line malformed; a value of
//! no bytes is the item's `empty_value`. No values is the empty trie.

use std::io::Write;

use batchcrypto::ops::ordered_trie::RootResult;
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_into, parse_object, push_item, write_refused};

pub fn job(args: VerbArgs) -> LineJob {
    args.job(TrieRoot, "trie-root")
}

#[derive(serde::Deserialize)]
struct TrieRootLine<'a> {
    #[serde(borrow, default)]
    values: Option<Vec<Field<'a>>>,
}

struct TrieRoot;

impl LineVerb for TrieRoot {
    type Batch = FlatBytes;
    type Out = RootResult;
    const OK_LABEL: &'static str = "rooted";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: TrieRootLine = parse_object(line)?;
        let values = l
            .values
            .ok_or("field \"values\": missing (an array of hex strings, each a value's encoding)")?;
        let count = u32::try_from(values.len()).map_err(|_| "field \"values\": over 2^32 - 1 values")?;
        scratch.clear();
        scratch.extend_from_slice(&count.to_be_bytes());
        let mut value = Vec::new();
        for (i, f) in values.iter().enumerate() {
            hex_into(&format!("values[{i}]"), f, &mut value)?;
            let len = u32::try_from(value.len()).map_err(|_| format!("field \"values[{i}]\": 4 GiB or more"))?;
            scratch.extend_from_slice(&len.to_be_bytes());
            scratch.extend_from_slice(&value);
        }
        push_item(batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The values (with their lengths) and each item's root.
        batch.bytes().len() + batch.len() * 32
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<RootResult>, Selection), Fatal> {
        let outcome = engine.ordered_trie_roots(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &RootResult, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(root) => {
                writeln!(w, "{{\"root\":\"{}\"}}", hex::encode(root))?;
                Ok(true)
            }
            Err(reason) => write_refused("root", reason, w),
        }
    }
}
