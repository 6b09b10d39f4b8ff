//! `batchcrypto serve`: the engine as a service, so that many small callers
//! (peers, RPC handlers, mempool workers with a few signatures each) share
//! one batch, and the GPU sees the thousands of items it needs to pay.
//!
//! `POST /v1/<verb>[?options]` takes the CLI's JSON Lines input for that
//! verb (`/v1/verify/ed25519?policy=zip215` is `batchcrypto verify ed25519
//! --policy zip215`, see [`route`]) and answers exactly the CLI's JSON Lines
//! output for those lines, in order (CLI-FORMATS.md). Requests for the same
//! operation are batched together ([`batcher`]); `/healthz`, `/readyz` and
//! Prometheus' `/metrics` ([`metrics`]) are for operators.
//!
//! Defaults are safe: loopback only, bounded queues (a full queue answers
//! 503 with `Retry-After` at once), size limits per request (413), an
//! optional bearer token (compared in constant time), no input ever logged.
//! SIGTERM or SIGINT stops accepting, answers every request already
//! accepted and exits 0.

mod batcher;
mod http;
mod metrics;
mod route;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::limits::in_range;
use crate::{EngineArgs, Fatal};
use batcher::{Core, Lane, Limits};

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
    /// Longest wait, in microseconds, of a batch's oldest request before the batch is cut.
    #[arg(long, default_value_t = 2_000, value_parser = in_range::<0, 60_000_000>)]
    max_wait_us: usize,
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
        let mut lanes = self.lanes.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(lane) = lanes.by_route.get(route) {
            return Ok(Arc::clone(lane));
        }
        let job = route::job(words, params).map_err(LaneError::BadRequest)?;
        let lane = match lanes.by_title.get(&job.title) {
            Some(lane) => Arc::clone(lane),
            None if lanes.by_title.len() >= MAX_LANES => {
                return Err(LaneError::TooMany);
            }
            None => {
                let lane = Lane::start(Arc::clone(&self.core), job.title.clone(), job.verb);
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
    let engine = args.engine.engine()?;
    let limits = Limits {
        max_batch: args.max_batch,
        max_wait: Duration::from_micros(args.max_wait_us as u64),
        queue_items: args.queue_limit,
        queue_bytes: args.queue_bytes,
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
    let result = runtime.block_on(http::serve(state, args.listen));
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
