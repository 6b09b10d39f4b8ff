//! `batchcrypto ecrecover [--low-s]`: Ethereum's ecrecover per line.
//!
//! In `{"hash":"<32>","sig":"<65 r||s||v>"}`; out
//! `{"address":"0x<20 bytes>","pubkey":"<64 bytes x||y>"}` or
//! `{"address":null,"reason":"<code>"}` (CLI-FORMATS.md).

use batchcrypto::ops::ecdsa::{RecoverItem, Recovered};
use batchcrypto::{Engine, Reason, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, hex_fixed, parse_object};

#[derive(clap::Args)]
pub struct Args {
    /// Reject s > n/2 (EIP-2's rule for transactions; the precompile accepts high s).
    #[arg(long)]
    low_s: bool,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

pub fn job(args: Args) -> LineJob {
    let title = if args.low_s { "ecrecover --low-s" } else { "ecrecover" };
    LineJob::new(RecoverVerb { low_s: args.low_s }, title, args.engine, args.io)
}

struct RecoverVerb {
    low_s: bool,
}

#[derive(serde::Deserialize)]
struct RecoverLine<'a> {
    #[serde(borrow, default)]
    hash: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
}

impl LineVerb for RecoverVerb {
    type Batch = Vec<RecoverItem>;
    type Out = Result<Recovered, Reason>;
    const OK_LABEL: &'static str = "recovered";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: RecoverLine = parse_object(line)?;
        batch.push(RecoverItem {
            hash: hex_fixed::<32>("hash", &item.hash)?,
            sig: hex_fixed::<65>("sig", &item.sig)?,
        });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * std::mem::size_of::<RecoverItem>()
    }

    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.ecrecover(batch, self.low_s)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(r) => {
                writeln!(
                    w,
                    "{{\"address\":\"0x{}\",\"pubkey\":\"{}\"}}",
                    hex::encode(r.address),
                    hex::encode(r.pubkey)
                )?;
                Ok(true)
            }
            Err(reason) => {
                writeln!(w, "{{\"address\":null,\"reason\":\"{}\"}}", reason.code())?;
                Ok(false)
            }
        }
    }
}
