//! `batchcrypto hash <alg>`: one digest line per input line.
//!
//! JSON Lines: in `{"data":"<hex, any length>"}`, out `{"digest":"<32 bytes hex>"}`.

use std::borrow::Cow;
use std::process::ExitCode;

use batchcrypto::ops::hash::{Alg, Digest};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Io, LineVerb, hex_into, parse_object, run_lines};

#[derive(clap::Args)]
pub struct Args {
    /// keccak256 (Ethereum, original Keccak padding), sha3-256 (FIPS 202) or sha256.
    alg: Alg,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let verb = HashVerb {
        engine: args.engine.engine()?,
        alg: args.alg,
    };
    run_lines(&verb, &args.io, &format!("hash {}", args.alg))
}

struct HashVerb {
    engine: Engine,
    alg: Alg,
}

#[derive(serde::Deserialize)]
struct HashLine<'a> {
    #[serde(borrow)]
    data: Option<Cow<'a, str>>,
}

impl LineVerb for HashVerb {
    type Batch = FlatBytes;
    type Out = Digest;
    const OK_LABEL: &'static str = "digests";
    const HAS_INVALID: bool = false;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: HashLine = parse_object(line)?;
        hex_into("data", item.data.as_ref(), scratch)?;
        if batch.push(scratch) {
            Ok(())
        } else {
            Err("batch over 4 GiB".to_string())
        }
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }

    fn run(&self, batch: &FlatBytes) -> Result<(Vec<Digest>, Selection), Fatal> {
        let outcome = self.engine.hash(self.alg, batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Digest, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        let mut line = *b"{\"digest\":\"0000000000000000000000000000000000000000000000000000000000000000\"}\n";
        // 32 bytes as 64 lowercase hex digits between the quotes.
        hex::encode_to_slice(out, &mut line[11..75]).map_err(std::io::Error::other)?;
        w.write_all(&line)?;
        Ok(true)
    }
}
