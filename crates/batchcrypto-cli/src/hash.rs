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

use crate::lines::{
    CHUNK_BYTES, Field, Io, LineVerb, open_input, open_output, parse_object, progress_bar, push_hex_field, run_lines,
};
use std::io::Write;

use crate::interrupt::{Interrupt, Received};
use crate::output::write_failed;
use crate::{EXIT_MALFORMED, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// keccak256 (Ethereum, original Keccak padding), sha3-256 (FIPS 202) or sha256.
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

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    if let Some(record) = args.raw {
        return run_raw(&args.engine.engine()?, args.alg, record, &args.io);
    }
    let verb = HashVerb {
        engine: args.engine.engine()?,
        alg: args.alg,
    };
    run_lines(verb, &args.io, &format!("hash {}", args.alg))
}

struct HashVerb {
    engine: Engine,
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

/// Most records per chunk in raw mode (a GPU-sized batch).
const RAW_CHUNK_RECORDS: usize = 1 << 20;

/// Raw mode: fixed-size binary records in, binary digests out, in chunks
/// (the next chunk is read while the engine hashes the current one).
fn run_raw(engine: &Engine, alg: Alg, record: usize, io: &Io) -> Result<ExitCode, Fatal> {
    if record == 0 || record > CHUNK_BYTES {
        return Err(Fatal(format!(
            "--raw {record}: records must be 1 to {CHUNK_BYTES} bytes"
        )));
    }
    let interrupt = Interrupt::install();
    let (mut input, size) = open_input(&io.input)?;
    let mut output = open_output(io)?;
    let progress = progress_bar(size);
    let start = std::time::Instant::now();
    let per_chunk = (CHUNK_BYTES / record).clamp(1, RAW_CHUNK_RECORDS);
    let (mut records, mut partial) = (0u64, 0usize);
    let mut selections: Vec<Selection> = Vec::new();
    let (tx, rx) = std::sync::mpsc::sync_channel::<std::io::Result<(FlatBytes, usize)>>(1);
    // Not joined: after a signal the process exits while it may be blocked on input.
    std::thread::spawn(move || {
        let mut buf = vec![0u8; record];
        loop {
            let mut chunk = FlatBytes::with_capacity(per_chunk, per_chunk * record);
            let mut tail = 0;
            while chunk.len() < per_chunk {
                match read_full(&mut *input, &mut buf) {
                    Ok(n) if n == record => {
                        // A chunk holds at most CHUNK_BYTES, far below the 4 GiB limit.
                        let _fits = chunk.push(&buf);
                    }
                    Ok(n) => {
                        tail = n;
                        break;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
            let last = chunk.len() < per_chunk;
            if (chunk.is_empty() && tail == 0) || tx.send(Ok((chunk, tail))).is_err() || last {
                return;
            }
        }
    });
    let stopped = loop {
        let (chunk, tail) = match interrupt.recv(&rx) {
            Received::Item(item) => item.map_err(|e| Fatal(format!("reading input: {e}")))?,
            Received::Done => break None,
            Received::Stopped(signal, status) => break Some((signal, status)),
        };
        let outcome = engine.hash(alg, &chunk)?;
        for d in &outcome.output {
            output.write_all(d).map_err(write_failed)?;
        }
        if !selections.contains(&outcome.selection) {
            selections.push(outcome.selection);
        }
        records += chunk.len() as u64;
        partial = tail;
        progress.inc((chunk.len() * record + tail) as u64);
    };
    progress.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let backends: Vec<String> = selections.iter().map(Selection::to_string).collect();
    eprintln!(
        "batchcrypto hash {alg} --raw {record}: {records} records; backend {}; {secs:.3} s, {} items/s",
        if backends.is_empty() {
            "none (no records)".to_string()
        } else {
            backends.join(", ")
        },
        crate::lines::rate(records, secs)
    );
    if let Some((signal, status)) = stopped {
        let kept = output.keep_partial()?;
        let place = kept.map_or(String::new(), |p| format!(", kept in {}", p.display()));
        eprintln!(
            "batchcrypto hash {alg} --raw {record}: interrupted by {signal}: the digests of the first {records} records were written{place}"
        );
        return Ok(ExitCode::from(status));
    }
    output.commit()?;
    if partial > 0 {
        eprintln!(
            "batchcrypto: error: the input ends with a partial record of {partial} bytes at byte {} (records are {record} bytes); it was not hashed",
            records * record as u64
        );
        return Ok(ExitCode::from(EXIT_MALFORMED));
    }
    Ok(ExitCode::SUCCESS)
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut dyn std::io::Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
