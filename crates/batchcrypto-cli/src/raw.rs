//! Raw mode: fixed-size binary records in, binary results out, no JSON or
//! hex (`hash --raw`, `ntt`). Records are read in chunks on a reader
//! thread (the next chunk is read while the engine runs the current one);
//! each chunk's results are written in order. A record the operation
//! refuses is named on stderr (its output bytes are zeros, so that record
//! i's output stays at its place) and the exit status is 2; so is a
//! trailing partial record, which is not processed.

use std::io::Write;
use std::process::ExitCode;

use batchcrypto::{FlatBytes, Selection};

use crate::interrupt::{Interrupt, Received};
use crate::lines::{CHUNK_BYTES, Io, open_input, open_output, progress_bar};
use crate::{EXIT_MALFORMED, Fatal};

/// Most records per chunk (a GPU-sized batch).
const RAW_CHUNK_RECORDS: usize = 1 << 20;

/// Records of `record` bytes in one chunk of a CLI run: at most
/// [`CHUNK_BYTES`] of them, at least one record, at most [`RAW_CHUNK_RECORDS`].
pub fn chunk_records(record: usize) -> usize {
    (CHUNK_BYTES / record.max(1)).clamp(1, RAW_CHUNK_RECORDS)
}

/// A refused record: its index in the chunk and why.
pub type Refused = (usize, String);

/// Runs `run` over the input's records of `record` bytes (1 to
/// `max_record`), in chunks of at most [`CHUNK_BYTES`] (at least one
/// record). `run` writes the chunk's results to the output and returns
/// the backend that ran it and the records it refused. `label` names the
/// verb in messages.
pub fn run_raw(
    label: &str,
    record: usize,
    max_record: usize,
    io: &Io,
    mut run: impl FnMut(&FlatBytes, &mut dyn Write) -> Result<(Selection, Vec<Refused>), Fatal>,
) -> Result<ExitCode, Fatal> {
    if record == 0 || record > max_record {
        return Err(Fatal(format!("{label}: records must be 1 to {max_record} bytes")));
    }
    let interrupt = Interrupt::install();
    let (mut input, size) = open_input(&io.input)?;
    let mut output = open_output(io)?;
    let progress = progress_bar(size);
    let start = std::time::Instant::now();
    let per_chunk = chunk_records(record);
    let (mut records, mut partial) = (0u64, 0usize);
    let mut refused: Vec<(u64, String)> = Vec::new();
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
                        // A chunk holds at most max(CHUNK_BYTES, one record), below the 4 GiB limit.
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
        if !chunk.is_empty() {
            let (selection, bad) = run(&chunk, &mut output)?;
            refused.extend(bad.into_iter().map(|(i, why)| (records + i as u64, why)));
            if !selections.contains(&selection) {
                selections.push(selection);
            }
        }
        records += chunk.len() as u64;
        partial = tail;
        progress.inc((chunk.len() * record + tail) as u64);
    };
    progress.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let backends: Vec<String> = selections.iter().map(Selection::to_string).collect();
    eprintln!(
        "batchcrypto {label}: {records} records; backend {}; {secs:.3} s, {} items/s",
        if backends.is_empty() {
            "none (no records)".to_string()
        } else {
            backends.join(", ")
        },
        crate::lines::rate(records, secs)
    );
    for (i, why) in refused.iter().take(20) {
        eprintln!(
            "batchcrypto: error: record {i} (byte {}): {why}; its output bytes are zeros",
            i * record as u64
        );
    }
    if refused.len() > 20 {
        eprintln!("batchcrypto: error: {} records refused in all", refused.len());
    }
    if let Some((signal, status)) = stopped {
        let kept = output.keep_partial()?;
        let place = kept.map_or(String::new(), |p| format!(", kept in {}", p.display()));
        eprintln!(
            "batchcrypto {label}: interrupted by {signal}: the results of the first {records} records were written{place}"
        );
        return Ok(ExitCode::from(status));
    }
    output.commit()?;
    if partial > 0 {
        eprintln!(
            "batchcrypto: error: the input ends with a partial record of {partial} bytes at byte {} (records are {record} bytes); it was not processed",
            records * record as u64
        );
    }
    if partial > 0 || !refused.is_empty() {
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
