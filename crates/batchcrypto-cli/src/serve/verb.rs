//! What a lane runs: one CLI verb over many requests' inputs at once.
//!
//! Two kinds of verbs are served. JSON Lines verbs (every `verify`,
//! `ecrecover`, `hash`, `evm`, `mlkem`, `merkle`) take a request's lines
//! and answer the CLI's output lines ([`Lines`] over the CLI's own
//! [`DynVerb`]). Raw verbs read binary records of a fixed size back to
//! back, as their CLI runs read a file: `ntt` (polynomials), `hash --raw`
//! (messages) and `msm` (a request is one MSM: its points, then its
//! scalars; one term's point and scalar make a record's worth of bytes).
//! Their answer is the bytes the CLI writes, and the records the CLI names
//! on stderr as refused (their output bytes zeros, as in the CLI file).

use batchcrypto::{Engine, Selection};

use crate::Fatal;
use crate::lines::{DynVerb, RequestLine};
use crate::raw::Refused;

/// A request's input, as its verb reads it.
#[derive(Debug)]
pub enum Payload {
    /// JSON Lines: each line's text, or why it could not be read.
    Lines(Vec<RequestLine>),
    /// A raw verb's body: a whole number of records.
    Records(Vec<u8>),
}

impl Payload {
    /// The lines of a JSON Lines request.
    pub fn lines(&self) -> Result<&[RequestLine], Fatal> {
        match self {
            Payload::Lines(lines) => Ok(lines),
            Payload::Records(_) => Err(Fatal("internal: records given to a JSON Lines verb".to_string())),
        }
    }

    /// The request's items: its lines, or its whole records of `record` bytes.
    pub fn items(&self, record: Option<usize>) -> usize {
        match self {
            Payload::Lines(lines) => lines.len(),
            Payload::Records(bytes) => bytes.len() / record.unwrap_or(1).max(1),
        }
    }

    /// The bytes of a raw request.
    pub fn records(&self) -> Result<&[u8], Fatal> {
        match self {
            Payload::Records(bytes) => Ok(bytes),
            Payload::Lines(_) => Err(Fatal("internal: lines given to a raw verb".to_string())),
        }
    }
}

/// One request's answer: what the CLI writes for its input.
#[derive(Debug, Default)]
pub struct Output {
    /// JSON Lines, or a raw verb's bytes.
    pub body: Vec<u8>,
    /// The records refused (index within the request, reason code): their
    /// output bytes are zeros.
    pub refused: Vec<Refused>,
}

/// The answers to a batch's requests, in order (`Err`: the request's one
/// item was refused and nothing was computed for it, as `msm` refuses a bad
/// point), and the backend that ran the items (`None`: no item ran).
pub type Outputs = (Vec<Result<Output, String>>, Option<Selection>);

/// A verb as the service runs it.
pub trait ServeVerb: Send + Sync {
    /// Bytes per record of a raw verb's body; `None` for JSON Lines.
    fn record(&self) -> Option<usize> {
        None
    }

    /// Answers several requests as one batch: per request, exactly what a
    /// CLI run over its input writes.
    fn answer(&self, engine: &Engine, requests: &[&Payload]) -> Result<Outputs, Fatal>;
}

/// A JSON Lines verb (or `merkle`) served through the CLI's own verb.
pub struct Lines(pub Box<dyn DynVerb>);

impl ServeVerb for Lines {
    fn answer(&self, engine: &Engine, requests: &[&Payload]) -> Result<Outputs, Fatal> {
        let lines = requests.iter().map(|r| r.lines()).collect::<Result<Vec<_>, _>>()?;
        let (bodies, selection) = self.0.answer(engine, &lines)?;
        let outputs = bodies
            .into_iter()
            .map(|body| {
                Ok(Output {
                    body,
                    refused: Vec::new(),
                })
            })
            .collect();
        Ok((outputs, selection))
    }
}

/// A served verb: what runs, the title that names its lane (as the CLI's
/// summary names the verb with its options), and whether a request without
/// items is still answered by the verb (`merkle`'s "no leaves" line,
/// `msm`'s identity) rather than with nothing.
pub struct Served {
    /// The verb.
    pub verb: Box<dyn ServeVerb>,
    /// The lane's title.
    pub title: String,
    /// Whether an empty request goes to the verb.
    pub whole: bool,
}

/// The requests' records concatenated (one engine call over them) and the
/// records in each.
pub fn concatenated(requests: &[&Payload], record: usize) -> Result<(Vec<u8>, Vec<usize>), Fatal> {
    let bodies = requests.iter().map(|r| r.records()).collect::<Result<Vec<_>, _>>()?;
    let counts = bodies.iter().map(|b| b.len() / record.max(1)).collect();
    Ok((bodies.concat(), counts))
}

/// One engine call's output over concatenated requests, split back: `out`
/// holds `out_record` bytes per record, `counts` the records of each
/// request, `refused` the refused records by their index in the call, in
/// order.
pub fn split_records(
    out: &[u8],
    counts: &[usize],
    out_record: usize,
    refused: Vec<Refused>,
) -> Result<Vec<Result<Output, String>>, Fatal> {
    let total: usize = counts.iter().sum();
    if out.len() != total * out_record {
        return Err(Fatal(format!(
            "internal: {} output bytes for {total} records of {out_record}",
            out.len()
        )));
    }
    let mut refused = refused.into_iter().peekable();
    let mut start = 0;
    let outputs = counts
        .iter()
        .map(|&count| {
            let end = start + count;
            let mut mine = Vec::new();
            while let Some((i, why)) = refused.next_if(|(i, _)| *i < end) {
                mine.push((i - start, why));
            }
            let body = out[start * out_record..end * out_record].to_vec();
            start = end;
            Ok(Output { body, refused: mine })
        })
        .collect();
    Ok(outputs)
}
