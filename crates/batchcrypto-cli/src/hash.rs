//! `batchcrypto hash <alg>`: one digest line per input line.
//!
//! JSON Lines: in `{"data":"<hex, any length>"}`, out `{"digest":"<32 bytes hex>"}`.
//!
//! Raw mode (`--raw BYTES`) skips JSON and hex for large binary inputs: the
//! input is records of exactly BYTES bytes back to back, the output the
//! 32-byte digests back to back in the same order (record i -> output bytes
//! 32 i .. 32 i + 32). A trailing partial record is reported (exit status 2)
//! after the digests of every whole record.

use std::process::ExitCode;

use batchcrypto::ops::hash::{Alg, Digest};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{CHUNK_BYTES, Field, Io, LineJob, LineVerb, parse_object, push_hex_field};
use crate::output::write_failed;

#[derive(clap::Args)]
pub struct Args {
    /// keccak256 (Ethereum, original Keccak padding), sha3-256 (FIPS 202),
    /// sha256, blake2b-256 (RFC 7693, 32-byte digest: Substrate, Filecoin,
    /// Cardano) or blake3.
    alg: Alg,
    /// Raw mode: binary input of fixed-size records of this many bytes,
    /// binary output of 32-byte digests (no JSON).
    #[arg(long, value_name = "BYTES")]
    raw: Option<usize>,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

/// The JSON Lines job, or `Err(args)` in raw mode (see [`run_raw`]).
pub fn job(args: Args) -> Result<LineJob, Args> {
    if args.raw.is_some() {
        return Err(args);
    }
    let title = format!("hash {}", args.alg);
    Ok(LineJob::new(HashVerb { alg: args.alg }, title, args.engine, args.io))
}

/// Raw mode: fixed-size binary records in, binary digests out.
pub fn run_raw(args: Args) -> Result<ExitCode, Fatal> {
    let record = args
        .raw
        .ok_or_else(|| Fatal("hash: raw mode needs --raw".to_string()))?;
    let engine = args.engine.engine()?;
    let alg = args.alg;
    let label = format!("hash {alg} --raw {record}");
    crate::raw::run_raw(&label, record, CHUNK_BYTES, &args.io, |chunk, output| {
        let outcome = engine.hash(alg, chunk)?;
        for d in &outcome.output {
            output.write_all(d).map_err(write_failed)?;
        }
        Ok((outcome.selection, Vec::new()))
    })
}

/// `hash --raw` as the service runs it: requests of whole records, batched
/// with others of the same algorithm and record size into one engine call.
#[cfg(feature = "serve")]
pub fn served(args: Args) -> Result<crate::serve::Served, String> {
    let record = args.raw.ok_or("hash: raw mode needs --raw")?;
    if record == 0 || record > CHUNK_BYTES {
        return Err(format!("hash --raw: records must be 1 to {CHUNK_BYTES} bytes"));
    }
    Ok(crate::serve::Served {
        verb: Box::new(RawHashVerb { alg: args.alg, record }),
        title: format!("hash {} --raw {record}", args.alg),
        whole: false,
    })
}

#[cfg(feature = "serve")]
struct RawHashVerb {
    alg: Alg,
    record: usize,
}

#[cfg(feature = "serve")]
impl crate::serve::ServeVerb for RawHashVerb {
    fn record(&self) -> Option<usize> {
        Some(self.record)
    }

    fn answer(&self, engine: &Engine, requests: &[&crate::serve::Payload]) -> Result<crate::serve::Outputs, Fatal> {
        let (bytes, counts) = crate::serve::concatenated(requests, self.record)?;
        let mut msgs = FlatBytes::with_capacity(bytes.len() / self.record, bytes.len());
        for record in bytes.chunks_exact(self.record) {
            if !msgs.push(record) {
                return Err(Fatal("hash --raw: a batch over 4 GiB".to_string()));
            }
        }
        let outcome = engine.hash(self.alg, &msgs)?;
        let out = outcome.output.concat();
        let outputs = crate::serve::split_records(&out, &counts, 32, Vec::new())?;
        Ok((outputs, Some(outcome.selection)))
    }
}

struct HashVerb {
    alg: Alg,
}

#[derive(serde::Deserialize)]
struct HashLine<'a> {
    #[serde(borrow, default)]
    data: Field<'a>,
}

impl LineVerb for HashVerb {
    type Batch = FlatBytes;
    type Out = Digest;
    const OK_LABEL: &'static str = "digests";
    const HAS_INVALID: bool = false;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: HashLine = parse_object(line)?;
        push_hex_field("data", &item.data, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<Digest>, Selection), Fatal> {
        let outcome = engine.hash(self.alg, batch)?;
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
