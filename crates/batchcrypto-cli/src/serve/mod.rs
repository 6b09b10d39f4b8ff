//! `batchcrypto serve`: the engine as a service, so that many small callers
//! (peers, RPC handlers, mempool workers with a few signatures each) share
//! one batch, and the GPU sees the thousands of items it needs to pay.
//!
//! `POST /v1/<verb>[?options]` takes the CLI's JSON Lines input for that
//! verb (`/v1/verify/ed25519?policy=zip215` is `batchcrypto verify ed25519
//! --policy zip215`, see [`route`]) and answers exactly the CLI's JSON Lines
//! output for those lines, in order (CLI-FORMATS.md). The binary verbs
//! (`ntt`, `msm`, `hash --raw`) take the bytes their CLI run reads and
//! answer the bytes it writes ([`verb`]). Requests for the same operation
//! are batched together ([`batcher`]); `/healthz`, `/readyz` and
//! Prometheus' `/metrics` ([`metrics`]) are for operators.
//!
//! Defaults are safe: loopback only, bounded queues (a full queue answers
//! 503 with `Retry-After` at once), size limits per request (413), an
//! optional bearer token (compared in constant time), no input ever logged.
//! SIGTERM or SIGINT stops accepting, answers every request already
//! accepted and exits 0.

mod batcher;
pub mod fuzzing;
mod grpc;
mod http;
pub mod load;
mod metrics;
mod proto;
mod route;
mod verb;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::limits::in_range;
use crate::raw::Refused;
use crate::{EngineArgs, Fatal};
use batcher::{Core, Lane, Limits, NotQueued, Reply};
use metrics::Refusal;
pub use verb::{Output, Outputs, Payload, ServeVerb, Served, concatenated, split_records};

/// Distinct operations (titles) the service keeps lanes for: each holds a
/// task, so a caller cannot make them grow without bound (sr25519's
/// `context` is free text).
const MAX_LANES: usize = 256;
/// Distinct request paths and queries remembered (each maps to a lane).
const MAX_ROUTES: usize = 4096;
/// How long a shutdown waits for the requests already accepted.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(60);

/// `batchcrypto serve`.
#[derive(clap::Args)]
pub struct Args {
    /// Address and port to listen on (port 0: any free port, logged at start).
    /// Loopback by default: listening elsewhere is a deliberate choice.
    #[arg(long, default_value = "127.0.0.1:8711")]
    listen: SocketAddr,
    /// Lines at which a batch is cut at once (a larger request runs whole).
    #[arg(long, default_value_t = 65_536, value_parser = in_range::<1, { crate::limits::MAX_ITEMS }>)]
    max_batch: usize,
    /// Longest wait, in microseconds, of a batch's oldest request before
    /// the batch is cut. Default: 2000 where a GPU may run the batch; an
    /// engine without a GPU does not wait, it runs what is queued as soon
    /// as its previous batch of the operation ends.
    #[arg(long, value_parser = in_range::<0, 60_000_000>)]
    max_wait_us: Option<usize>,
    /// Batches of one operation running at once. Default: 2 where a GPU
    /// may run them (one batch's host work overlaps the other's GPU call),
    /// 1 on the CPU (a batch takes every core).
    #[arg(long, value_parser = in_range::<1, 64>)]
    batches_in_flight: Option<usize>,
    /// Lines accepted and not yet answered, across operations; past it
    /// requests are refused at once (HTTP 503, Retry-After).
    #[arg(long, default_value_t = 1 << 20, value_parser = in_range::<1, { 1 << 30 }>)]
    queue_limit: usize,
    /// Request bytes accepted and not yet answered, across operations.
    #[arg(long, default_value_t = 1 << 30, value_parser = in_range::<1, { 1 << 40 }>)]
    queue_bytes: usize,
    /// Most lines in one request (HTTP 413 past it).
    #[arg(long, default_value_t = 65_536, value_parser = in_range::<1, { crate::limits::MAX_ITEMS }>)]
    max_request_lines: usize,
    /// Most bytes in one request body (HTTP 413 past it).
    #[arg(long, default_value_t = 64 << 20, value_parser = in_range::<1, { 8 << 30 }>)]
    max_request_bytes: usize,
    /// File holding a bearer token: requests must send `Authorization:
    /// Bearer <token>` (health, readiness and metrics stay open).
    #[arg(long)]
    token_file: Option<PathBuf>,
    /// TLS: the server's certificate chain (PEM); with --tls-key, every
    /// connection is TLS (ALPN h2 and http/1.1).
    #[arg(long, requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// TLS: the certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// What the request handlers share.
pub struct State {
    core: Arc<Core>,
    /// Lanes by title, and request routes (path and query) to lanes.
    lanes: Mutex<Lanes>,
    /// SHA-256 of the bearer token, when one is required.
    token: Option<[u8; 32]>,
    max_request_lines: usize,
    max_request_bytes: usize,
    /// False once shutdown has begun.
    ready: AtomicBool,
}

#[derive(Default)]
struct Lanes {
    by_title: std::collections::HashMap<String, Arc<Lane>>,
    by_route: std::collections::HashMap<String, Arc<Lane>>,
}

impl State {
    /// The lane of `route` (the request's path and query, the cache key)
    /// for the verb `words` with `params`, started on first use.
    fn lane(&self, route: &str, words: &[&str], params: &[(String, String)]) -> Result<Arc<Lane>, LaneError> {
        let lock = || self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(lane) = lock().by_route.get(route) {
            return Ok(Arc::clone(lane));
        }
        // A new route: parsed without the lock (other requests go on).
        let job = route::job(words, params).map_err(LaneError::BadRequest)?;
        let mut lanes = lock();
        let lane = match lanes.by_title.get(&job.title) {
            Some(lane) => Arc::clone(lane),
            None if lanes.by_title.len() >= MAX_LANES => {
                return Err(LaneError::TooMany);
            }
            None => {
                let lane = Lane::start(Arc::clone(&self.core), job.title.clone(), job.verb, job.whole);
                lanes.by_title.insert(job.title, Arc::clone(&lane));
                lane
            }
        };
        if lanes.by_route.len() < MAX_ROUTES {
            lanes.by_route.insert(route.to_string(), Arc::clone(&lane));
        }
        Ok(lane)
    }
}

/// A request's answer: the CLI's output and what ran it.
#[derive(Debug)]
pub struct Answered {
    /// JSON Lines, one per request line; or a binary verb's bytes.
    pub body: Vec<u8>,
    /// A binary verb's refused records (index in the request, reason code):
    /// their output bytes are zeros.
    pub refused: Vec<Refused>,
    /// Whether `body` is a binary verb's bytes rather than JSON Lines.
    pub binary: bool,
    /// The backend that ran the batch (`None`: no line held an item).
    pub backend: Option<String>,
    /// Lines in the batch the request ran in.
    pub batch_lines: usize,
}

/// Why a request got no answer, whichever transport carried it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailKind {
    /// No such operation, bad options, a bad header.
    BadRequest,
    /// Missing or wrong bearer token.
    Unauthorized,
    /// Over a per-request size limit.
    TooLarge,
    /// The queue is full: retry later.
    Overloaded,
    /// Shutting down, or too many distinct operations open.
    Unavailable,
    /// The deadline passed before the batch ran.
    Deadline,
    /// The request's one item was refused (`msm`: a bad point): nothing
    /// was computed.
    Unprocessable,
    /// The engine failed on the batch and on the CPU.
    Internal,
}

impl FailKind {
    /// The HTTP status (also the metrics' `code` for gRPC calls).
    pub fn http_status(self) -> u16 {
        match self {
            FailKind::BadRequest => 400,
            FailKind::Unauthorized => 401,
            FailKind::TooLarge => 413,
            FailKind::Overloaded | FailKind::Unavailable => 503,
            FailKind::Deadline => 504,
            FailKind::Unprocessable => 422,
            FailKind::Internal => 500,
        }
    }
}

/// A failed request: what kind, and a message for the caller.
#[derive(Debug)]
pub struct Failure {
    /// What kind of failure.
    pub kind: FailKind,
    /// What the caller is told.
    pub message: String,
}

fn fail(kind: FailKind, message: impl Into<String>) -> Failure {
    Failure {
        kind,
        message: message.into(),
    }
}

impl State {
    /// Whether an `Authorization` header value carries the bearer token (or
    /// none is required). Both sides are hashed first, then compared in
    /// constant time.
    fn authorized(&self, header: Option<&[u8]>) -> bool {
        let Some(expected) = &self.token else {
            return true;
        };
        let given = header
            .and_then(|v| v.strip_prefix(b"Bearer "))
            .unwrap_or(b"")
            .trim_ascii();
        let given: [u8; 32] = Sha256::digest(given).into();
        bool::from(given.ct_eq(expected))
    }

    /// The failure for a request over `--max-request-lines`.
    fn too_many_lines(&self) -> Failure {
        self.core.metrics.refused(Refusal::TooLarge);
        fail(
            FailKind::TooLarge,
            format!(
                "more than --max-request-lines {} lines in one request",
                self.max_request_lines
            ),
        )
    }

    /// A request's input as its lane's verb reads it: JSON Lines, or a
    /// binary verb's whole records (at most `--max-request-lines` of them).
    fn payload(&self, lane: &Lane, input: Input) -> Result<Payload, Failure> {
        let wrong = |given: &str, takes: &str| {
            Err(fail(
                FailKind::BadRequest,
                format!("{} takes its input in `{takes}`, not `{given}`", lane.title),
            ))
        };
        let payload = match (lane.record, input) {
            (None, Input::Body(body)) => Payload::Lines(http::split_lines(self, &body)?),
            (None, Input::Message { data, .. }) if !data.is_empty() => return wrong("data", "lines"),
            (None, Input::Message { lines, .. }) => Payload::Lines(lines.into_iter().map(Ok).collect()),
            (Some(_), Input::Message { lines, .. }) if !lines.is_empty() => return wrong("lines", "data"),
            (Some(record), Input::Body(body)) => self.records(&lane.title, Vec::from(body), record)?,
            (Some(record), Input::Message { data, .. }) => self.records(&lane.title, data, record)?,
        };
        if payload.items(lane.record) > self.max_request_lines {
            return Err(self.too_many_lines());
        }
        Ok(payload)
    }

    /// A binary verb's body: refused unless it is whole `record`-byte records.
    fn records(&self, title: &str, data: Vec<u8>, record: usize) -> Result<Payload, Failure> {
        if !data.len().is_multiple_of(record) {
            return Err(fail(
                FailKind::BadRequest,
                format!(
                    "{title}: the body is {} bytes, not a whole number of {record}-byte records",
                    data.len()
                ),
            ));
        }
        Ok(Payload::Records(data))
    }

    /// Runs one request of either transport: `route` (its path and query,
    /// or gRPC's op and sorted options) names the lane for `words` with
    /// `params`; `bytes` is the request's size. Returns the operation's
    /// title (for the metrics; `unknown` when none) and the answer.
    async fn run(
        &self,
        route: &str,
        words: &[&str],
        params: &[(String, String)],
        input: Input,
        bytes: usize,
        deadline: Option<Instant>,
    ) -> (String, Result<Answered, Failure>) {
        let unknown = "unknown".to_string();
        if !self.ready.load(std::sync::atomic::Ordering::Acquire) {
            self.core.metrics.refused(Refusal::ShuttingDown);
            return (unknown, Err(fail(FailKind::Unavailable, "shutting down")));
        }
        let lane = match self.lane(route, words, params) {
            Ok(lane) => lane,
            Err(LaneError::BadRequest(e)) => return (unknown, Err(fail(FailKind::BadRequest, e))),
            Err(LaneError::TooMany) => {
                return (
                    unknown,
                    Err(fail(
                        FailKind::Unavailable,
                        "too many distinct operations open; use one of those already in use",
                    )),
                );
            }
        };
        let op = lane.title.clone();
        let payload = match self.payload(&lane, input) {
            Ok(payload) => payload,
            Err(e) => return (op, Err(e)),
        };
        let items = payload.items(lane.record);
        if items == 0 && !lane.whole {
            let empty = Answered {
                body: Vec::new(),
                refused: Vec::new(),
                binary: lane.record.is_some(),
                backend: None,
                batch_lines: 0,
            };
            return (op, Ok(empty));
        }
        let reply = match lane.submit(&self.core, payload, items, bytes, deadline) {
            Ok(reply) => reply,
            Err(NotQueued::Overloaded) => {
                return (
                    op,
                    Err(fail(
                        FailKind::Overloaded,
                        "queue full: retry later or send fewer lines at once",
                    )),
                );
            }
            Err(NotQueued::Closed) => return (op, Err(fail(FailKind::Unavailable, "shutting down"))),
        };
        let waited = match deadline {
            Some(d) => tokio::time::timeout_at(d.into(), reply).await,
            None => Ok(reply.await),
        };
        let result = match waited {
            Err(_) => Err(fail(FailKind::Deadline, "deadline passed before the answer")),
            Ok(Err(_)) => Err(fail(FailKind::Internal, "internal: the batch was dropped")),
            Ok(Ok(Reply::DeadlineExceeded)) => Err(fail(FailKind::Deadline, "deadline passed before the batch ran")),
            Ok(Ok(Reply::Failed(e))) => Err(fail(FailKind::Internal, e)),
            Ok(Ok(Reply::Rejected(e))) => Err(fail(FailKind::Unprocessable, format!("{op}: {e}"))),
            Ok(Ok(Reply::Answered(answered))) => Ok(answered),
        };
        (op, result)
    }
}

/// A request's input as its transport delivered it.
#[derive(Debug)]
pub enum Input {
    /// An HTTP body: JSON Lines, or a binary verb's bytes.
    Body(bytes::Bytes),
    /// A gRPC message's `lines` and `data`.
    Message {
        /// JSON Lines, one per element.
        lines: Vec<String>,
        /// A binary verb's bytes.
        data: Vec<u8>,
    },
}

/// Why a request names no lane.
#[derive(Debug)]
enum LaneError {
    /// Not an operation, or bad options: the message says which.
    BadRequest(String),
    /// [`MAX_LANES`] distinct operations are already open.
    TooMany,
}

/// Runs the service until SIGTERM or SIGINT.
pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let token = match &args.token_file {
        Some(path) => Some(http::read_token(path)?),
        None => None,
    };
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(http::tls_acceptor(cert, key)?),
        _ => None,
    };
    let engine = args.engine.engine()?;
    let limits = Limits {
        max_batch: args.max_batch,
        max_wait: args.max_wait_us.map(|us| Duration::from_micros(us as u64)),
        queue_items: args.queue_limit,
        queue_bytes: args.queue_bytes,
        in_flight: args.batches_in_flight,
    };
    let core = Arc::new(Core::new(engine, args.engine.backend, args.engine.threads, limits));
    let state = Arc::new(State {
        core,
        lanes: Mutex::new(Lanes::default()),
        token,
        max_request_lines: args.max_request_lines,
        max_request_bytes: args.max_request_bytes,
        ready: AtomicBool::new(true),
    });
    // Two threads answer sockets; the engine's own pool does the work.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Fatal(format!("cannot start the service's runtime: {e}")))?;
    let result = runtime.block_on(http::serve(state, args.listen, tls));
    runtime.shutdown_timeout(Duration::from_secs(1));
    result.map(|()| ExitCode::SUCCESS)
}

/// Writes one structured log line (logfmt) to stderr: never an input.
fn log(level: &str, msg: &str, fields: &[(&str, &dyn std::fmt::Display)]) {
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let mut line = format!("ts={ts:.3} level={level} msg={msg:?}");
    for (k, v) in fields {
        let v = v.to_string();
        if v.chars().all(|c| c.is_ascii_graphic() && c != '"' && c != '=') {
            line.push_str(&format!(" {k}={v}"));
        } else {
            line.push_str(&format!(" {k}={v:?}"));
        }
    }
    eprintln!("{line}");
}
