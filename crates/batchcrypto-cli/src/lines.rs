//! JSON Lines plumbing shared by every line-oriented verb: opening input and
//! output, reading lines with their numbers, hex fields, the chunked
//! pipeline (a reader thread parses the next chunk while the engine runs the
//! current one), one output line per input line in order, progress on a
//! terminal and the summary on stderr.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use batchcrypto::{Engine, Selection, Verdict};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::interrupt::{Interrupt, Received};
use crate::output::{Output, write_failed};
use crate::{EXIT_MALFORMED, Fatal};

/// Items per chunk handed to the engine: large enough for a GPU batch,
/// small enough for steady progress and bounded memory.
pub const CHUNK_ITEMS: usize = 65_536;
/// Message bytes per chunk, whichever limit comes first.
pub const CHUNK_BYTES: usize = 256 << 20;

/// Default of `--max-line-bytes`: 64 MiB of JSON (a message of up to 32 MiB).
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 << 20;
/// Largest `--max-line-bytes`: a batch holds at most 4 GiB of message bytes.
pub const MAX_MAX_LINE_BYTES: usize = 8 << 30;

/// The arguments of a JSON Lines verb without options of its own: the
/// engine's and the input's and output's.
#[derive(clap::Args)]
pub struct VerbArgs {
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

impl VerbArgs {
    /// The job of `verb` under these arguments.
    pub fn job<V: LineVerb + 'static>(self, verb: V, title: &str) -> LineJob {
        LineJob::new(verb, title, self.engine, self.io)
    }
}

/// `--input` / `--output` as given (`-` is stdin / stdout), and the line cap.
#[derive(Debug, Clone, clap::Args)]
pub struct Io {
    /// Input file of JSON Lines; `-` reads stdin.
    #[arg(long, default_value = "-")]
    pub input: PathBuf,
    /// Output file of JSON Lines; `-` writes stdout. A file is written under a
    /// temporary name and moved into place when the run completes.
    #[arg(long, default_value = "-")]
    pub output: PathBuf,
    /// Longest input line in bytes; a longer line gets an error line (its
    /// bytes are skipped, never held in memory) and the run goes on.
    #[arg(long, default_value_t = DEFAULT_MAX_LINE_BYTES, value_parser = crate::limits::in_range::<1, MAX_MAX_LINE_BYTES>)]
    pub max_line_bytes: usize,
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

/// The output of a run reading `io.input` (never the same file).
pub fn open_output(io: &Io) -> Result<Output, Fatal> {
    Output::open(&io.output, Some(&io.input))
}

/// How reading one line went.
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// The line is in the buffer, without its `\n` or `\r\n`.
    Line,
    /// The line had this many bytes, more than the cap: it was skipped.
    TooLong(u64),
    /// Memory for a line of this many bytes could not be reserved: skipped.
    NoMemory(u64),
}

/// Reads the next line into `raw` holding at most `max` bytes of it;
/// returns the bytes consumed (0 at the end of the input) and how it went.
/// Line 1's UTF-8 byte order mark, if any, is the caller's to strip.
pub fn read_line_capped(input: &mut dyn BufRead, raw: &mut Vec<u8>, max: usize) -> io::Result<(u64, LineRead)> {
    raw.clear();
    let (mut consumed, mut skipped) = (0u64, None::<LineRead>);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let (take, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        consumed += take as u64;
        if skipped.is_none() {
            // Room for the cap plus "\r\n", which are removed below.
            if raw.len() + take > max.saturating_add(2) {
                skipped = Some(LineRead::TooLong(0));
            } else if raw.try_reserve(take).is_err() {
                skipped = Some(LineRead::NoMemory(0));
            } else {
                raw.extend_from_slice(&buf[..take]);
            }
            if skipped.is_some() {
                *raw = Vec::new();
            }
        }
        input.consume(take);
        if end {
            break;
        }
    }
    if let Some(skip) = skipped {
        let len = consumed - u64::from(consumed > 0);
        return Ok((
            consumed,
            match skip {
                LineRead::NoMemory(_) => LineRead::NoMemory(len),
                _ => LineRead::TooLong(len),
            },
        ));
    }
    if raw.last() == Some(&b'\n') {
        raw.pop();
        if raw.last() == Some(&b'\r') {
            raw.pop();
        }
    }
    if raw.len() > max {
        let len = raw.len() as u64;
        *raw = Vec::new();
        return Ok((consumed, LineRead::TooLong(len)));
    }
    Ok((consumed, LineRead::Line))
}

/// The text of line `line_no` as read into `raw`, or what is wrong with it.
/// A UTF-8 byte order mark at the start of the input is ignored.
pub fn line_text<'a>(raw: &'a [u8], read: &LineRead, line_no: u64, max: usize) -> Result<&'a str, String> {
    match read {
        LineRead::Line => {}
        LineRead::TooLong(len) => {
            return Err(format!(
                "line of {len} bytes is longer than --max-line-bytes {max}; skipped (raise the limit to process it)"
            ));
        }
        LineRead::NoMemory(len) => return Err(format!("no memory for a line of {len} bytes; skipped")),
    }
    let raw = if line_no == 1 {
        raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw)
    } else {
        raw
    };
    std::str::from_utf8(raw).map_err(|e| format!("not valid UTF-8 (byte {})", e.valid_up_to()))
}

/// A JSON field that should hold a hex string, as found in the line: the
/// verbs' line structs hold these with `#[serde(borrow, default)]`, so a
/// missing field, `null` and a number each get their own message.
#[derive(Debug, Default)]
pub enum Field<'a> {
    /// The field is absent.
    #[default]
    Missing,
    /// `null`.
    Null,
    /// A JSON string.
    Str(Cow<'a, str>),
    /// Something else: what it is ("a number", "an array", ...).
    Other(&'static str),
}

impl<'de: 'a, 'a> serde::Deserialize<'de> for Field<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Visit<'a> {
            type Value = Field<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a hex string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Field<'a>, E> {
                Ok(Field::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Field<'a>, E> {
                Ok(Field::Str(Cow::Owned(v.to_string())))
            }
            fn visit_string<E>(self, v: String) -> Result<Field<'a>, E> {
                Ok(Field::Str(Cow::Owned(v)))
            }
            fn visit_unit<E>(self) -> Result<Field<'a>, E> {
                Ok(Field::Null)
            }
            fn visit_none<E>(self) -> Result<Field<'a>, E> {
                Ok(Field::Null)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Field<'a>, E> {
                Ok(Field::Other("a boolean"))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Field<'a>, E> {
                Ok(Field::Other("a number"))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Field<'a>, E> {
                Ok(Field::Other("a number"))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Field<'a>, E> {
                Ok(Field::Other("a number"))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Field<'a>, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Field::Other("an array"))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Field<'a>, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Field::Other("an object"))
            }
        }
        d.deserialize_any(Visit(std::marker::PhantomData))
    }
}

/// The hex digits of a field: a string, `0x` prefix removed, even length.
fn hex_digits<'a>(name: &str, value: &'a Field<'_>) -> Result<&'a str, String> {
    let value = match value {
        Field::Str(v) => v,
        Field::Missing => return Err(format!("missing field \"{name}\"")),
        Field::Null => return Err(format!("field \"{name}\" is null; expected a hex string")),
        Field::Other(what) => return Err(format!("field \"{name}\" is {what}; expected a hex string")),
    };
    let digits = value
        .strip_prefix("0x")
        .or_else(|| value.strip_prefix("0X"))
        .unwrap_or(value);
    // A byte scan first (the common, all-hex case); characters only for the message.
    if let Some(at) = digits.bytes().position(|b| !b.is_ascii_hexdigit()) {
        let c = digits[at..].chars().next().unwrap_or('?');
        return Err(format!(
            "field \"{name}\": '{}' at character {} is not a hex digit (0-9, a-f, A-F)",
            c.escape_debug(),
            digits[..at].chars().count()
        ));
    }
    if digits.len() % 2 != 0 {
        return Err(format!(
            "field \"{name}\": odd number of hex digits ({}); each byte takes two",
            digits.len()
        ));
    }
    Ok(digits)
}

/// A JSON-RPC quantity or data of at most 32 bytes (`0x` and hex digits,
/// an odd count allowed), as 32 bytes big-endian.
pub fn word(name: &str, value: &Field<'_>) -> Result<[u8; 32], String> {
    let Field::Str(text) = value else {
        return hex_fixed::<32>(name, value);
    };
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.len() > 64 {
        return Err(format!(
            "field \"{name}\": {} hex digits, more than 32 bytes",
            digits.len()
        ));
    }
    let padded = format!("{digits:0>64}");
    hex_fixed::<32>(name, &Field::Str(padded.into()))
}

/// Decodes a hex field of any length into `out`, with or without `0x`,
/// upper or lower case.
pub fn hex_into(name: &str, value: &Field<'_>, out: &mut Vec<u8>) -> Result<(), String> {
    let digits = hex_digits(name, value)?;
    out.clear();
    out.try_reserve(digits.len() / 2)
        .map_err(|_| format!("field \"{name}\": no memory for {} bytes", digits.len() / 2))?;
    out.resize(digits.len() / 2, 0);
    hex::decode_to_slice(digits, out).map_err(|e| format!("field \"{name}\": bad hex: {e}"))
}

/// Decodes a hex field of any length and appends it to `batch` (at most
/// 4 GiB of bytes in one batch).
pub fn push_hex_field(
    name: &str,
    value: &Field<'_>,
    batch: &mut batchcrypto::FlatBytes,
    scratch: &mut Vec<u8>,
) -> Result<(), String> {
    hex_into(name, value, scratch)?;
    push_item(batch, scratch)
}

/// Appends an item to `batch`, or the line's error where the batch cannot
/// take it (4 GiB of bytes, or no memory).
pub fn push_item(batch: &mut batchcrypto::FlatBytes, item: &[u8]) -> Result<(), String> {
    if batch.push(item) {
        Ok(())
    } else {
        Err("batch over 4 GiB or out of memory".to_string())
    }
}

/// Decodes a hex field that must be exactly `N` bytes.
pub fn hex_fixed<const N: usize>(name: &str, value: &Field<'_>) -> Result<[u8; N], String> {
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
/// on an engine and writes one output line per item. A verb holds only its
/// options: the command line runs it over a file ([`run_lines`]), the
/// service over many requests' lines at once ([`DynVerb::answer`]).
pub trait LineVerb: Send + Sync {
    /// The batch type travelling from the reader thread to the engine.
    type Batch: Send + Default + 'static;
    /// The result of one item.
    type Out: Send;
    /// What the summary calls an item whose `write` returned true ("valid").
    const OK_LABEL: &'static str;
    /// Whether items can be rejected (the summary then counts "invalid").
    const HAS_INVALID: bool;
    /// Parses one line and appends its item to `batch`.
    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String>;
    /// Message bytes held by `batch` (for chunking).
    fn batch_bytes(batch: &Self::Batch) -> usize;
    /// Runs `batch` on `engine`: one result per item, and the backend that ran it.
    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal>;
    /// Writes the output line of one item; returns whether it is "ok"
    /// (valid) rather than rejected.
    fn write(out: &Self::Out, w: &mut dyn Write) -> io::Result<bool>;
}

/// A refused item's output line, `{"<key>":null,"reason":"<code>"}` (the
/// verbs whose answers are values: ML-KEM's, KZG's computing and
/// recovery); `false`: not "ok".
pub fn write_refused(key: &str, reason: &batchcrypto::Reason, w: &mut dyn Write) -> io::Result<bool> {
    writeln!(w, "{{\"{key}\":null,\"reason\":\"{}\"}}", reason.code())?;
    Ok(false)
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
///
/// Three threads: one parses the next chunk, one runs the engine on the
/// current one, and this one writes answers and watches for SIGINT/SIGTERM
/// ([`Interrupt`]): on a signal it stops, drops the chunk in flight, keeps
/// the whole lines already answered and exits 130/143 after the summary.
pub fn run_lines<V: LineVerb + 'static>(engine: Engine, verb: V, io: &Io, title: &str) -> Result<ExitCode, Fatal> {
    let interrupt = Interrupt::install();
    let (input, size) = open_input(&io.input)?;
    let mut output = open_output(io)?;
    let progress = progress_bar(size);
    let start = Instant::now();
    let mut counts = Counts::default();
    let mut selections: Vec<Selection> = Vec::new();
    let (parsed_tx, parsed_rx) = mpsc::sync_channel::<io::Result<Chunk<V::Batch>>>(1);
    let (done_tx, done_rx) = mpsc::sync_channel::<Result<Answered<V>, Fatal>>(1);
    let max_line = io.max_line_bytes;
    // Neither thread is joined: after a signal the process exits while
    // they may still be blocked on input or busy on a chunk.
    std::thread::spawn(move || read_chunks::<V>(input, max_line, parsed_tx));
    std::thread::spawn(move || {
        for chunk in parsed_rx {
            let answered = chunk
                .map_err(|e| Fatal(format!("reading input: {e}")))
                .and_then(|chunk| {
                    let (results, selection) = if chunk.lines.iter().any(Option::is_none) {
                        let (results, selection) = verb.run(&engine, &chunk.batch)?;
                        (results, Some(selection))
                    } else {
                        (Vec::new(), None)
                    };
                    Ok(Answered {
                        lines: chunk.lines,
                        bytes_read: chunk.bytes_read,
                        results,
                        selection,
                    })
                });
            let failed = answered.is_err();
            if done_tx.send(answered).is_err() || failed {
                return;
            }
        }
    });
    let stopped = loop {
        let answered = match interrupt.recv(&done_rx) {
            Received::Item(answered) => answered?,
            Received::Done => break None,
            Received::Stopped(signal, status) => break Some((signal, status)),
        };
        if let Some(selection) = answered.selection
            && !selections.contains(&selection)
        {
            selections.push(selection);
        }
        let mut results = answered.results.iter();
        write_chunk::<V>(&mut output, &answered.lines, &mut results, &mut counts).map_err(write_failed)?;
        if results.next().is_some() {
            return Err(Fatal("the engine returned more results than items".to_string()));
        }
        // Each answered chunk goes out whole: a reader downstream sees it
        // now, not when the next megabyte is buffered.
        output.flush().map_err(write_failed)?;
        progress.inc(if size.is_some() {
            answered.bytes_read
        } else {
            answered.lines.len() as u64
        });
    };
    progress.finish_and_clear();
    let summary = summary::<V>(title, &counts, &selections, start.elapsed());
    match stopped {
        None => {
            output.commit()?;
            eprintln!("{summary}");
            Ok(if counts.malformed > 0 {
                ExitCode::from(EXIT_MALFORMED)
            } else {
                ExitCode::SUCCESS
            })
        }
        Some((signal, status)) => {
            let kept = output.keep_partial()?;
            let place = kept.map_or(String::new(), |p| format!(", kept in {}", p.display()));
            eprintln!(
                "{summary}\nbatchcrypto {title}: interrupted by {signal}: the first {} lines were answered{place}; the rest of the input was not read or not answered",
                counts.lines
            );
            Ok(ExitCode::from(status))
        }
    }
}

/// A chunk with its answers, on its way to the writer.
struct Answered<V: LineVerb> {
    lines: Vec<Option<String>>,
    bytes_read: u64,
    results: Vec<V::Out>,
    selection: Option<Selection>,
}

fn read_chunks<V: LineVerb>(
    mut input: Box<dyn BufRead + Send>,
    max_line: usize,
    tx: mpsc::SyncSender<io::Result<Chunk<V::Batch>>>,
) {
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
            let (n, read) = match read_line_capped(&mut *input, &mut raw, max_line) {
                Ok((0, _)) => break,
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            chunk.bytes_read += n;
            line_no += 1;
            let parsed = line_text(&raw, &read, line_no, max_line)
                .and_then(|line| V::parse(line, &mut chunk.batch, &mut scratch));
            chunk.lines.push(parsed.err().map(|e| format!("line {line_no}: {e}")));
        }
        if chunk.lines.is_empty() || tx.send(Ok(chunk)).is_err() {
            return;
        }
    }
}

/// Writes the output lines of `lines` (an error text or an item), taking
/// each item's result from `results` in order.
fn write_chunk<V: LineVerb>(
    out: &mut dyn Write,
    lines: &[Option<String>],
    results: &mut std::slice::Iter<'_, V::Out>,
    counts: &mut Counts,
) -> io::Result<()> {
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

/// A line verb as the command line or a service request asked for it: the
/// verb with its options, the title that names it (`verify ed25519
/// --policy zip215`), and the engine and I/O arguments of a CLI run.
pub struct LineJob {
    /// The verb, its item type erased.
    pub verb: Box<dyn DynVerb>,
    /// The verb and its options as the summary names them; the service
    /// batches requests with the same title together.
    pub title: String,
    /// `--backend` and `--threads` (the command line's; a service has one engine).
    pub engine: crate::EngineArgs,
    /// `--input`, `--output`, `--max-line-bytes` (the command line's).
    pub io: Io,
    /// Whether the verb reads its whole input as one item (`merkle`): a
    /// request without lines is still answered by the verb (the CLI's
    /// "no leaves" line), not with nothing.
    #[cfg(feature = "serve")]
    pub whole: bool,
}

impl LineJob {
    /// The job of `verb`.
    pub fn new<V: LineVerb + 'static>(verb: V, title: impl Into<String>, engine: crate::EngineArgs, io: Io) -> Self {
        LineJob {
            verb: Box::new(verb),
            title: title.into(),
            engine,
            io,
            #[cfg(feature = "serve")]
            whole: false,
        }
    }

    /// The job of a verb that reads its whole input as one item (`merkle`:
    /// one tree): the service answers each request on its own.
    pub fn whole(verb: Box<dyn DynVerb>, title: impl Into<String>, engine: crate::EngineArgs, io: Io) -> Self {
        LineJob {
            verb,
            title: title.into(),
            engine,
            io,
            #[cfg(feature = "serve")]
            whole: true,
        }
    }

    /// Runs the job as a CLI run: `--input` to `--output`.
    pub fn run(self) -> Result<ExitCode, Fatal> {
        let engine = self.engine.engine()?;
        self.verb.run_cli(engine, &self.io, &self.title)
    }
}

#[cfg(feature = "serve")]
/// One request's line: its text, or why it could not be read (too long,
/// not UTF-8), the message its output line carries.
pub type RequestLine = Result<String, String>;

#[cfg(feature = "serve")]
/// Splits a request's body into lines as the CLI reads a file
/// (`read_line_capped`, `line_text`): `\n` or `\r\n` ends a line, a
/// final line needs no newline, a UTF-8 byte order mark at the start is
/// ignored, a line longer than `max_line_bytes` or not UTF-8 is its error
/// text. `Ok(None)`: more than `max_lines` lines.
pub fn body_lines(body: &[u8], max_line_bytes: usize, max_lines: usize) -> io::Result<Option<Vec<RequestLine>>> {
    let mut input: &[u8] = body;
    let (mut raw, mut lines) = (Vec::new(), Vec::new());
    loop {
        let (n, read) = read_line_capped(&mut input, &mut raw, max_line_bytes)?;
        if n == 0 {
            return Ok(Some(lines));
        }
        if lines.len() == max_lines {
            return Ok(None);
        }
        let line_no = lines.len() as u64 + 1;
        lines.push(line_text(&raw, &read, line_no, max_line_bytes).map(str::to_string));
    }
}

/// A [`LineVerb`] behind a pointer: what the command line and the service
/// call without knowing the verb's item type.
pub trait DynVerb: Send + Sync {
    /// [`run_lines`] over the verb.
    fn run_cli(self: Box<Self>, engine: Engine, io: &Io, title: &str) -> Result<ExitCode, Fatal>;

    #[cfg(feature = "serve")]
    /// Answers several requests' lines as one batch, one engine call: per
    /// request, exactly the output a CLI run over its lines writes (line
    /// numbers count from 1 within each request); and the backend that ran
    /// the items (`None` when no line held one).
    fn answer(&self, engine: &Engine, requests: &[&[RequestLine]]) -> Result<(Vec<Vec<u8>>, Option<Selection>), Fatal>;
}

impl<V: LineVerb + 'static> DynVerb for V {
    fn run_cli(self: Box<Self>, engine: Engine, io: &Io, title: &str) -> Result<ExitCode, Fatal> {
        run_lines(engine, *self, io, title)
    }

    #[cfg(feature = "serve")]
    fn answer(&self, engine: &Engine, requests: &[&[RequestLine]]) -> Result<(Vec<Vec<u8>>, Option<Selection>), Fatal> {
        let mut batch = V::Batch::default();
        let mut scratch = Vec::new();
        let parsed: Vec<Vec<Option<String>>> = requests
            .iter()
            .map(|lines| {
                lines
                    .iter()
                    .enumerate()
                    .map(|(i, line)| {
                        line.as_deref()
                            .map_err(String::clone)
                            .and_then(|text| V::parse(text, &mut batch, &mut scratch))
                            .err()
                            .map(|e| format!("line {}: {e}", i + 1))
                    })
                    .collect()
            })
            .collect();
        let (results, selection) = if parsed.iter().flatten().any(Option::is_none) {
            let (results, selection) = self.run(engine, &batch)?;
            (results, Some(selection))
        } else {
            (Vec::new(), None)
        };
        let mut results = results.iter();
        let mut counts = Counts::default();
        let outputs = parsed
            .iter()
            .map(|lines| {
                let mut out = Vec::new();
                write_chunk::<V>(&mut out, lines, &mut results, &mut counts).map(|()| out)
            })
            .collect::<io::Result<Vec<_>>>()
            .map_err(|e| Fatal(e.to_string()))?;
        if results.next().is_some() {
            return Err(Fatal("the engine returned more results than items".to_string()));
        }
        Ok((outputs, selection))
    }
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
    let rate = rate(c.valid + c.invalid, secs);
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
        "batchcrypto {title}: {} lines: {} {},{invalid} {} malformed; backend {backends}; {secs:.3} s, {rate} items/s",
        c.lines,
        c.valid,
        V::OK_LABEL,
        c.malformed
    )
}

/// Items per second for a summary: whole numbers from 100 up, three
/// significant digits below (a run of a few huge items is not "0 items/s").
pub fn rate(items: u64, secs: f64) -> String {
    let r = if secs > 0.0 { items as f64 / secs } else { 0.0 };
    if r >= 100.0 || r == 0.0 {
        format!("{r:.0}")
    } else {
        let decimals = (2 - r.log10().floor() as i32).clamp(0, 9) as usize;
        format!("{r:.decimals$}")
    }
}
