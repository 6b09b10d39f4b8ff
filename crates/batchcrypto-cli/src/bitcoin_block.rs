//! `batchcrypto verify bitcoin-block`: whole Bitcoin blocks checked
//! against their own headers, one verdict per line (README, "verify
//! bitcoin-block"): the header's proof of work, the transactions under its
//! Merkle root (and no duplicated-transaction mutation), the witnesses
//! under the coinbase's commitment from the network's segwit height on,
//! as Bitcoin Core checks them ([`batchcrypto::ops::merkle::block`],
//! `Engine::verify_bitcoin_blocks`: the blocks' hashes as batches of
//! `sha256` items). The block's hash and the height its coinbase states
//! are printed beside, for the caller to hold to the chain it trusts.
//!
//! In `{"block":"<hex>"}` (`getblock <hash> 0`'s hex, the P2P message's
//! bytes), out `{"valid":true,"hash":"<32>","height":N}` (`hash` as
//! Bitcoin shows it, byte-reversed; `height` `null` in a block that
//! states none), or `{"valid":false,"reason":..,"hash","height"}` with
//! `high_hash`, `root_mismatch` and `"field":"merkleRoot"` or
//! `"witnessCommitment"`, `duplicate_transactions`,
//! `bad_witness_nonce_size` or `unexpected_witness`, or
//! `{"valid":false,"reason":"malformed_block"}` where the bytes are no
//! block. A missing field or bad hex makes the line malformed.

use std::io::Write;

use batchcrypto::ops::merkle::block::{BlockResult, Network};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, parse_object, push_hex_field};

pub fn job(engine: crate::EngineArgs, io: Io, network: Network) -> LineJob {
    // The title names the service's lane: blocks of one network batched together.
    let title = format!("verify bitcoin-block --network {network}");
    LineJob::new(BitcoinBlockVerb { network }, title, engine, io)
}

#[derive(serde::Deserialize)]
struct BlockLine<'a> {
    #[serde(borrow, default)]
    block: Option<Field<'a>>,
}

struct BitcoinBlockVerb {
    network: Network,
}

impl LineVerb for BitcoinBlockVerb {
    type Batch = FlatBytes;
    type Out = BlockResult;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: BlockLine = parse_object(line)?;
        let field = l.block.ok_or("field \"block\": missing (the block's bytes in hex)")?;
        push_hex_field("block", &field, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The blocks, and the transactions without and with witnesses.
        3 * batch.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.verify_bitcoin_blocks(batch, self.network)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(checked: &Self::Out, w: &mut dyn Write) -> std::io::Result<bool> {
        let c = match checked {
            Ok(c) => c,
            Err(reason) => {
                writeln!(w, "{{\"valid\":false,\"reason\":\"{}\"}}", reason.code())?;
                return Ok(false);
            }
        };
        let mut hash = c.hash;
        hash.reverse();
        let hash = hex::encode(hash);
        let height = c.height.map_or("null".to_string(), |h| h.to_string());
        match c.failure {
            None => writeln!(w, "{{\"valid\":true,\"hash\":\"{hash}\",\"height\":{height}}}")?,
            Some(f) => {
                let field = f
                    .field()
                    .map_or(String::new(), |f| format!(",\"field\":\"{}\"", f.name()));
                writeln!(
                    w,
                    "{{\"valid\":false,\"reason\":\"{}\"{field},\"hash\":\"{hash}\",\"height\":{height}}}",
                    f.reason().code()
                )?;
            }
        }
        Ok(c.failure.is_none())
    }
}
