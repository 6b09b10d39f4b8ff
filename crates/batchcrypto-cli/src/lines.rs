//! JSON Lines plumbing shared by every line-oriented verb: opening input and
//! output, reading lines with their numbers, hex fields, the chunked
//! pipeline (a reader thread parses the next chunk while the engine runs the
//! current one), one output line per input line in order, progress on a
//! terminal and the summary on stderr.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use batchcrypto::{Selection, Verdict};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{EXIT_MALFORMED, Fatal};

/// Items per chunk handed to the engine: large enough for a GPU batch,
/// small enough for steady progress and bounded memory.
pub const CHUNK_ITEMS: usize = 65_536;
/// Message bytes per chunk, whichever limit comes first.
pub const CHUNK_BYTES: usize = 256 << 20;

/// `--input` / `--output` as given (`-` is stdin / stdout).
#[derive(Debug, Clone, clap::Args)]
pub struct Io {
    /// Input file of JSON Lines; `-` reads stdin.
    #[arg(long, default_value = "-")]
    pub input: PathBuf,
    /// Output file of JSON Lines; `-` writes stdout.
    #[arg(long, default_value = "-")]
    pub output: PathBuf,
}

fn is_dash(p: &std::path::Path) -> bool {
    p.as_os_str() == "-"
}

/// The input: a buffered reader and its size in bytes when it is a file.
pub fn open_input(path: &std::path::Path) -> Result<(Box<dyn BufRead + Send>, Option<u64>), Fatal> {
    if is_dash(path) {
        return Ok((Box::new(BufReader::with_capacity(1 << 20, io::stdin())), None));
    }
    let file = File::open(path).map_err(|e| Fatal(format!("cannot open input {}: {e}", path.display())))?;
    let size = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(BufReader::with_capacity(1 << 20, file)), size))
}

/// The output, buffered.
pub fn open_output(path: &std::path::Path) -> Result<Box<dyn Write>, Fatal> {
    if is_dash(path) {
        return Ok(Box::new(BufWriter::with_capacity(1 << 20, io::stdout())));
    }
    let file = File::create(path).map_err(|e| Fatal(format!("cannot create output {}: {e}", path.display())))?;
    Ok(Box::new(BufWriter::with_capacity(1 << 20, file)))
}

/// The hex digits of a field: present, `0x` prefix removed, even length.
fn hex_digits<'a>(name: &str, value: Option<&'a Cow<'_, str>>) -> Result<&'a str, String> {
    let value = value.ok_or_else(|| format!("missing field \"{name}\""))?;
    let digits = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
        .unwrap_or(value);
    if digits.len() % 2 != 0 {
        return Err(format!("field \"{name}\": odd number of hex digits ({})", digits.len()));
    }
    Ok(digits)
}

/// Decodes a hex field of any length into `out`, with or without `0x`,
/// upper or lower case.
pub fn hex_into(name: &str, value: Option<&Cow<'_, str>>, out: &mut Vec<u8>) -> Result<(), String> {
    let digits = hex_digits(name, value)?;
    out.clear();
    out.resize(digits.len() / 2, 0);
    hex::decode_to_slice(digits, out).map_err(|e| format!("field \"{name}\": bad hex: {e}"))
}

/// Decodes a hex field of any length and appends it to `batch` (at most
/// 4 GiB of bytes in one batch).
pub fn push_hex_field(
    name: &str,
    value: Option<&Cow<'_, str>>,
    batch: &mut batchcrypto::FlatBytes,
    scratch: &mut Vec<u8>,
) -> Result<(), String> {
    hex_into(name, value, scratch)?;
    if batch.push(scratch) {
        Ok(())
    } else {
        Err("batch over 4 GiB".to_string())
    }
}

/// Decodes a hex field that must be exactly `N` bytes.
pub fn hex_fixed<const N: usize>(name: &str, value: Option<&Cow<'_, str>>) -> Result<[u8; N], String> {
    let digits = hex_digits(name, value)?;
    if digits.len() != 2 * N {
        return Err(format!(
            "field \"{name}\": expected {N} bytes ({} hex digits), got {} bytes",
            2 * N,
            digits.len() / 2
        ));
    }
    let mut out = [0u8; N];
    hex::decode_to_slice(digits, &mut out).map_err(|e| format!("field \"{name}\": bad hex: {e}"))?;
    Ok(out)
}

/// Parses a line as a JSON object into `T`, with messages that say what is wrong.
pub fn parse_object<'a, T: serde::Deserialize<'a>>(line: &'a str) -> Result<T, String> {
    if line.trim().is_empty() {
        return Err("empty line".to_string());
    }
    if !line.trim_start().starts_with('{') {
        return Err("not a JSON object".to_string());
    }
    serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))
}

/// One line-oriented operation: parses lines into a pending batch, runs it
/// and writes one output line per item.
pub trait LineVerb: Send {
    /// The batch type travelling from the reader thread to the engine.
    type Batch: Send + Default;
    /// The result of one item.
    type Out;
    /// What the summary calls an item whose `write` returned true ("valid").
    const OK_LABEL: &'static str;
    /// Whether items can be rejected (the summary then counts "invalid").
    const HAS_INVALID: bool;
    /// Parses one line and appends its item to `batch`.
    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String>;
    /// Message bytes held by `batch` (for chunking).
    fn batch_bytes(batch: &Self::Batch) -> usize;
    /// Runs `batch`: one result per item, and the backend that ran it.
    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal>;
    /// Writes the output line of one item; returns whether it is "ok"
    /// (valid) rather than rejected.
    fn write(out: &Self::Out, w: &mut dyn Write) -> io::Result<bool>;
}

/// The output line of a verdict: `{"valid":true}` or `{"valid":false,"reason":"..."}`.
pub fn write_verdict(verdict: &Verdict, w: &mut dyn Write) -> io::Result<bool> {
    match verdict {
        Verdict::Valid => {
            w.write_all(b"{\"valid\":true}\n")?;
            Ok(true)
        }
        Verdict::Invalid(reason) => {
            writeln!(w, "{{\"valid\":false,\"reason\":\"{}\"}}", reason.code())?;
            Ok(false)
        }
    }
}

/// A parsed chunk: the batch, and per line either an item or an error text.
struct Chunk<B> {
    batch: B,
    lines: Vec<Option<String>>,
    bytes_read: u64,
}

/// Counts for the summary.
#[derive(Debug, Default)]
pub struct Counts {
    /// Lines read.
    pub lines: u64,
    /// Items that verified (or, for verbs without verdicts, every item).
    pub valid: u64,
    /// Well-formed items that did not verify.
    pub invalid: u64,
    /// Malformed lines.
    pub malformed: u64,
}

/// Reads `io.input` line by line, runs `verb` chunk by chunk and writes one
/// output line per input line. `title` names the verb in the summary.
pub fn run_lines<V: LineVerb>(verb: &V, io: &Io, title: &str) -> Result<ExitCode, Fatal> {
    let (input, size) = open_input(&io.input)?;
    let mut output = open_output(&io.output)?;
    let progress = progress_bar(size);
    let start = Instant::now();
    let mut counts = Counts::default();
    let mut selections: Vec<Selection> = Vec::new();
    std::thread::scope(|scope| -> Result<(), Fatal> {
        // One chunk in flight while the next is parsed.
        let (tx, rx) = mpsc::sync_channel::<io::Result<Chunk<V::Batch>>>(1);
        scope.spawn(move || read_chunks::<V>(input, tx));
        for chunk in rx {
            let chunk = chunk.map_err(|e| Fatal(format!("reading input: {e}")))?;
            let verdicts = if chunk.lines.iter().any(Option::is_none) {
                let (verdicts, selection) = verb.run(&chunk.batch)?;
                if !selections.contains(&selection) {
                    selections.push(selection);
                }
                verdicts
            } else {
                Vec::new()
            };
            write_chunk::<V>(&mut output, &chunk.lines, &verdicts, &mut counts)
                .map_err(|e| Fatal(format!("writing output: {e}")))?;
            progress.inc(if size.is_some() {
                chunk.bytes_read
            } else {
                chunk.lines.len() as u64
            });
        }
        Ok(())
    })?;
    output.flush().map_err(|e| Fatal(format!("writing output: {e}")))?;
    progress.finish_and_clear();
    eprintln!("{}", summary::<V>(title, &counts, &selections, start.elapsed()));
    Ok(if counts.malformed > 0 {
        ExitCode::from(EXIT_MALFORMED)
    } else {
        ExitCode::SUCCESS
    })
}

fn read_chunks<V: LineVerb>(mut input: Box<dyn BufRead + Send>, tx: mpsc::SyncSender<io::Result<Chunk<V::Batch>>>) {
    let mut line_no = 0u64;
    let mut raw = Vec::new();
    let mut scratch = Vec::new();
    loop {
        let mut chunk = Chunk {
            batch: V::Batch::default(),
            lines: Vec::new(),
            bytes_read: 0,
        };
        while chunk.lines.len() < CHUNK_ITEMS && V::batch_bytes(&chunk.batch) < CHUNK_BYTES {
            raw.clear();
            let n = match input.read_until(b'\n', &mut raw) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            chunk.bytes_read += n as u64;
            line_no += 1;
            if raw.last() == Some(&b'\n') {
                raw.pop();
                if raw.last() == Some(&b'\r') {
                    raw.pop();
                }
            }
            let parsed = match std::str::from_utf8(&raw) {
                Ok(line) => V::parse(line, &mut chunk.batch, &mut scratch),
                Err(_) => Err("not valid UTF-8".to_string()),
            };
            chunk.lines.push(parsed.err().map(|e| format!("line {line_no}: {e}")));
        }
        if chunk.lines.is_empty() || tx.send(Ok(chunk)).is_err() {
            return;
        }
    }
}

fn write_chunk<V: LineVerb>(
    out: &mut dyn Write,
    lines: &[Option<String>],
    results: &[V::Out],
    counts: &mut Counts,
) -> io::Result<()> {
    let mut results = results.iter();
    for line in lines {
        counts.lines += 1;
        match line {
            Some(error) => {
                counts.malformed += 1;
                let error = serde_json::to_string(error).unwrap_or_else(|_| "\"unprintable error\"".to_string());
                writeln!(out, "{{\"error\":{error}}}")?;
            }
            None => match results.next() {
                Some(result) => {
                    if V::write(result, out)? {
                        counts.valid += 1;
                    } else {
                        counts.invalid += 1;
                    }
                }
                None => return Err(io::Error::other("engine returned fewer results than items")),
            },
        }
    }
    Ok(())
}

/// A progress bar on stderr (drawn only on a terminal): bytes when the input
/// size is known, else a line counter.
pub fn progress_bar(size: Option<u64>) -> ProgressBar {
    let target = ProgressDrawTarget::stderr();
    match size {
        Some(bytes) => {
            let bar = ProgressBar::with_draw_target(Some(bytes), target);
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            {
                bar.set_style(style);
            }
            bar
        }
        None => {
            let bar = ProgressBar::with_draw_target(None, target);
            if let Ok(style) = ProgressStyle::with_template("{spinner} {pos} lines {per_sec}") {
                bar.set_style(style);
            }
            bar
        }
    }
}

/// The one-line summary written to stderr.
pub fn summary<V: LineVerb>(title: &str, c: &Counts, selections: &[Selection], elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let items = c.valid + c.invalid;
    let rate = if secs > 0.0 { items as f64 / secs } else { 0.0 };
    let backends = if selections.is_empty() {
        "none (no items)".to_string()
    } else {
        selections
            .iter()
            .map(Selection::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let invalid = if V::HAS_INVALID {
        format!(" {} invalid,", c.invalid)
    } else {
        String::new()
    };
    format!(
        "batchcrypto {title}: {} lines: {} {},{invalid} {} malformed; backend {backends}; {secs:.3} s, {rate:.0} items/s",
        c.lines,
        c.valid,
        V::OK_LABEL,
        c.malformed
    )
}
