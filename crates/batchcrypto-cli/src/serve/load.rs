//! `batchcrypto bench-serve`: a load generator for `serve`. It starts the
//! service (this binary, `serve --listen 127.0.0.1:0`), sends the items of
//! `--input` as requests of `--min-lines`..`--max-lines` items from
//! `--clients` concurrent clients (HTTP/1.1, one keep-alive connection
//! each), checks every answer against the CLI path's answer to the same
//! items, and reports the service's throughput and latency percentiles
//! beside the CLI path's batch throughput on the same items. The two are
//! measured in alternation (`--rounds` times each, after a warm-up of
//! each: one unmeasured run of the CLI path and one round of the service),
//! so that a shared machine's drifting speed falls on both alike:
//! the report gives the medians and the median of the rounds' ratios.
//!
//! An item is a JSON Lines verb's line, or a binary verb's record (`hash
//! --raw N`: N-byte messages; `ntt`: polynomials), `--input` then being the
//! file its CLI run reads. Verbs whose request has one answer (`merkle`:
//! one root; `msm`: one sum) are not measured this way.
//!
//! By default the clients form a closed loop: each sends its next request
//! when its answer comes, so the service is saturated and latency is mostly
//! queueing (Little's law: outstanding lines over throughput). With
//! `--rate R` the loop is open: request i is due at R per second from the
//! round's start, whatever the answers, as independent callers would send
//! them; latency is then what a caller sees at that load. A request whose
//! client was still waiting for its previous answer when it fell due is
//! sent late and counted (`late`): more than a few means the rate was not
//! sustained.
//!
//! Beside the whole run's percentiles the report gives each round's p99
//! and, on Linux, the share of the machine's CPU time that its hypervisor
//! took back during the round (`/proc/stat`'s steal): on a shared VM a
//! tail that comes and goes by round can then be set beside it.

use std::io::{BufRead, BufReader as StdBufReader, Write};
use std::net::SocketAddr;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};

use super::Payload;
use crate::lines::CHUNK_ITEMS;
use crate::{EngineArgs, Fatal};

/// `bench-serve`.
#[derive(clap::Args)]
pub struct Args {
    /// The operation as the service's path names it after /v1/, with its
    /// options as a query: `verify/ed25519`, `hash/keccak256`,
    /// `ecrecover?low_s=true`, `hash/sha256?raw=64`, `ntt?field=goldilocks&log_n=10`.
    #[arg(long)]
    op: String,
    /// The operation's input as its CLI run reads it: JSON Lines (for
    /// example from `batchcrypto sample`), or a binary verb's records.
    #[arg(long)]
    input: PathBuf,
    /// Concurrent clients.
    #[arg(long, default_value_t = 64, value_parser = crate::limits::in_range::<1, 4096>)]
    clients: usize,
    /// Fewest items (lines or records) per request.
    #[arg(long, default_value_t = 1, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_ITEMS }>)]
    min_lines: usize,
    /// Most items (lines or records) per request.
    #[arg(long, default_value_t = 16, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_ITEMS }>)]
    max_lines: usize,
    /// Passes over the input by the clients together, in each round.
    #[arg(long, default_value_t = 3, value_parser = crate::limits::in_range::<1, 1000>)]
    passes: usize,
    /// Open loop: requests per second across all clients, each request
    /// sent when due rather than when the previous answer came (default:
    /// closed loop).
    #[arg(long, value_parser = crate::limits::in_range::<1, 10_000_000>)]
    rate: Option<usize>,
    /// Rounds: each times the CLI path once and then the service once.
    #[arg(long, default_value_t = 5, value_parser = crate::limits::in_range::<1, 1000>)]
    rounds: usize,
    /// The service's --max-wait-us (its default when not given).
    #[arg(long)]
    max_wait_us: Option<usize>,
    /// The service's --max-batch.
    #[arg(long, default_value_t = 65_536)]
    max_batch: usize,
    /// The service's --batches-in-flight (its default when not given).
    #[arg(long)]
    batches_in_flight: Option<usize>,
    /// Backend and threads of both the service and the CLI path.
    #[command(flatten)]
    engine: EngineArgs,
}

/// The median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A request sent later than this after it fell due is counted late (the
/// timer's own tick is a millisecond).
const LATE: Duration = Duration::from_millis(2);

/// How long a client waits for one answer.
const READ_LIMIT: Duration = Duration::from_secs(300);

/// The `p`-th percentile of sorted `v`.
fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    if args.min_lines > args.max_lines {
        return Err(Fatal("--min-lines is above --max-lines".to_string()));
    }
    let (op, query) = args.op.split_once('?').unwrap_or((&args.op, ""));
    let words: Vec<&str> = op.split('/').filter(|w| !w.is_empty()).collect();
    let params = super::route::query_pairs(query).map_err(Fatal)?;
    let job = super::route::job(&words, &params).map_err(Fatal)?;
    if job.whole {
        return Err(Fatal(format!(
            "--op {op}: bench-serve measures operations answered item by item, and a {} request has one answer",
            words[0]
        )));
    }
    let items = Items::read(&args.input, job.verb.record())?;
    if items.len() == 0 {
        return Err(Fatal(format!("--input {} has no items", args.input.display())));
    }

    // The CLI path: the same verb over all items in CLI-sized chunks.
    let engine = args.engine.engine()?;
    let chunks = items.chunks();
    let cli_run = || -> Result<(f64, Vec<u8>), Fatal> {
        let start = Instant::now();
        let mut out = Vec::new();
        for chunk in &chunks {
            let (outputs, _) = job.verb.answer(&engine, &[chunk])?;
            for output in outputs {
                out.extend(output.map_err(Fatal)?.body);
            }
        }
        Ok((items.len() as f64 / start.elapsed().as_secs_f64(), out))
    };
    // The first run is the warm-up and gives the answers to check against.
    let (_, expected) = cli_run()?;
    let expected = items.answers(expected)?;
    let requests = requests(&args, &items, &expected);
    let time_cli_path = || cli_run().map(|(rate, _)| rate);

    // The service, as its own process.
    let exe = std::env::current_exe().map_err(|e| Fatal(format!("cannot find this binary: {e}")))?;
    let mut command = std::process::Command::new(exe);
    command.args(["serve", "--listen", "127.0.0.1:0", "--max-batch"]);
    command.arg(args.max_batch.to_string());
    if let Some(us) = args.max_wait_us {
        command.arg("--max-wait-us").arg(us.to_string());
    }
    if let Some(n) = args.batches_in_flight {
        command.arg("--batches-in-flight").arg(n.to_string());
    }
    command.args(["--backend", &args.engine.backend.to_string()]);
    if let Some(t) = args.engine.threads {
        command.arg("--threads").arg(t.to_string());
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Fatal(format!("cannot start serve: {e}")))?;
    let result = load(&args, &mut child, items.len(), requests, &time_cli_path);
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// The input as the operation reads it.
enum Items {
    /// JSON Lines, one item each.
    Lines(Vec<String>),
    /// A binary verb's records of `record` bytes, back to back.
    Records { bytes: Vec<u8>, record: usize },
}

/// The CLI path's answers, item by item.
enum Answers {
    /// One line per input line.
    Lines(Vec<String>),
    /// `per` bytes per record, back to back.
    Records { bytes: Vec<u8>, per: usize },
}

impl Items {
    /// `path` read as JSON Lines, or as whole `record`-byte records.
    fn read(path: &Path, record: Option<usize>) -> Result<Items, Fatal> {
        let bytes = std::fs::read(path).map_err(|e| Fatal(format!("cannot read --input {}: {e}", path.display())))?;
        match record {
            None => {
                let text = String::from_utf8(bytes)
                    .map_err(|e| Fatal(format!("--input {}: not UTF-8 JSON Lines: {e}", path.display())))?;
                Ok(Items::Lines(text.lines().map(str::to_string).collect()))
            }
            Some(record) if !bytes.len().is_multiple_of(record) => Err(Fatal(format!(
                "--input {}: {} bytes, not a whole number of the operation's {record}-byte records",
                path.display(),
                bytes.len()
            ))),
            Some(record) => Ok(Items::Records { bytes, record }),
        }
    }

    fn len(&self) -> usize {
        match self {
            Items::Lines(lines) => lines.len(),
            Items::Records { bytes, record } => bytes.len() / record,
        }
    }

    /// The input in the chunks a CLI run reads.
    fn chunks(&self) -> Vec<Payload> {
        match self {
            Items::Lines(lines) => lines
                .chunks(CHUNK_ITEMS)
                .map(|chunk| Payload::Lines(chunk.iter().cloned().map(Ok).collect()))
                .collect(),
            Items::Records { bytes, record } => bytes
                .chunks(crate::raw::chunk_records(*record) * record)
                .map(|chunk| Payload::Records(chunk.to_vec()))
                .collect(),
        }
    }

    /// The body of a request for items `range`.
    fn body(&self, range: Range<usize>) -> Vec<u8> {
        match self {
            Items::Lines(lines) => {
                let mut body = lines[range].join("\n");
                body.push('\n');
                body.into_bytes()
            }
            Items::Records { bytes, record } => bytes[range.start * record..range.end * record].to_vec(),
        }
    }

    /// The CLI path's output `out` split item by item.
    fn answers(&self, out: Vec<u8>) -> Result<Answers, Fatal> {
        let wrong = || Fatal("internal: the CLI path answered a different number of items".to_string());
        match self {
            Items::Lines(lines) => {
                let answers: Vec<String> = String::from_utf8_lossy(&out).lines().map(str::to_string).collect();
                (answers.len() == lines.len())
                    .then_some(Answers::Lines(answers))
                    .ok_or_else(wrong)
            }
            Items::Records { .. } => {
                let n = self.len();
                (out.len().is_multiple_of(n))
                    .then(|| Answers::Records {
                        per: out.len() / n,
                        bytes: out,
                    })
                    .ok_or_else(wrong)
            }
        }
    }
}

impl Answers {
    /// The service's answer to a request for items `range`: the CLI's,
    /// with a malformed line's error naming its line within the request.
    fn to(&self, range: Range<usize>) -> Vec<u8> {
        match self {
            Answers::Lines(lines) => {
                let mut want = String::new();
                for (at, i) in range.enumerate() {
                    let line = &lines[i];
                    let (cli, here) = (
                        format!("{{\"error\":\"line {}: ", i + 1),
                        format!("{{\"error\":\"line {}: ", at + 1),
                    );
                    match line.strip_prefix(&cli) {
                        Some(rest) => want.push_str(&(here + rest)),
                        None => want.push_str(line),
                    }
                    want.push('\n');
                }
                want.into_bytes()
            }
            Answers::Records { bytes, per } => bytes[range.start * per..range.end * per].to_vec(),
        }
    }
}

/// The requests' bodies and expected answers: the input cut into runs of
/// `--min-lines..=--max-lines` items (a simple generator choosing each
/// length), `--passes` times over. Made before the clock starts: the
/// clients only send, receive and compare.
fn requests(args: &Args, items: &Items, answers: &Answers) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut requests = Vec::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..args.passes {
        let mut at = 0;
        while at < items.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let n = args.min_lines + (state % (args.max_lines - args.min_lines + 1) as u64) as usize;
            let end = (at + n).min(items.len());
            requests.push((items.body(at..end), answers.to(at..end)));
            at = end;
        }
    }
    requests
}

/// Drives the service started as `child` and prints the report.
fn load(
    args: &Args,
    child: &mut std::process::Child,
    items: usize,
    requests: Vec<(Vec<u8>, Vec<u8>)>,
    time_cli_path: &dyn Fn() -> Result<f64, Fatal>,
) -> Result<ExitCode, Fatal> {
    let stderr = child.stderr.take().ok_or_else(|| Fatal("no stderr".to_string()))?;
    let mut log = StdBufReader::new(stderr).lines();
    let addr: SocketAddr = loop {
        let line = log
            .next()
            .ok_or_else(|| Fatal("serve exited before listening".to_string()))?
            .map_err(|e| Fatal(e.to_string()))?;
        if let Some(a) = line.split(" addr=").nth(1) {
            break a
                .split(' ')
                .next()
                .unwrap_or("")
                .parse()
                .map_err(|e| Fatal(format!("bad address in {line:?}: {e}")))?;
        }
    };
    std::thread::spawn(move || for _ in log {});
    let path = format!("/v1/{}", args.op);
    let requests = Arc::new(requests);
    // The clients are tasks on one thread (as a node's RPC callers would be
    // connections, not threads): on a machine shared with the service, 64
    // client threads woken for every answer would take its CPU.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Fatal(format!("cannot start the clients' runtime: {e}")))?;
    let items = (items * args.passes) as f64;
    let (mut cli_rates, mut rates, mut ratios, mut latencies) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut round_p99s, mut steals) = (Vec::new(), Vec::new());
    let mut late = 0;
    let metrics = runtime.block_on(async {
        // A warm-up request (the lane starts), then a whole round unmeasured
        // (the engine's cost model learns its times, the pool's threads and
        // the allocator warm: in some runs the first measured round's p99
        // had been twice the later rounds'), then the rounds.
        let mut warm = Connection::open(addr).await.map_err(Fatal)?;
        let (status, _) = warm.post(&path, &requests[0].0).await.map_err(Fatal)?;
        if status != 200 {
            return Err(Fatal(format!("warm-up request: status {status}")));
        }
        service_round(addr, &path, &requests, args.clients, args.rate).await?;
        let warmed = warm.get("/metrics").await.map_err(Fatal)?;
        for _ in 0..args.rounds {
            let cli = time_cli_path()?;
            let before = crate::steal::cpu_times();
            let mut round = service_round(addr, &path, &requests, args.clients, args.rate).await?;
            steals.push(crate::steal::since(before));
            let rate = items / round.seconds;
            cli_rates.push(cli);
            rates.push(rate);
            ratios.push(rate / cli);
            round.latencies.sort();
            round_p99s.push(percentile(&round.latencies, 0.99));
            latencies.extend(round.latencies);
            late += round.late;
        }
        let measured = warm.get("/metrics").await.map_err(Fatal)?;
        Ok::<_, Fatal>((warmed, measured))
    })?;
    latencies.sort();
    // The service's counters over the measured rounds only.
    let metrics = since(
        &String::from_utf8_lossy(&metrics.0),
        &String::from_utf8_lossy(&metrics.1),
    );
    let sum = |prefix: &str| -> f64 {
        metrics
            .lines()
            .filter(|l| l.starts_with(prefix))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum()
    };
    let batches = sum("batchcrypto_batches_total{");
    let mean_batch = sum("batchcrypto_items_total{") / batches.max(1.0);
    let (rate, cli_rate) = (median(&mut rates), median(&mut cli_rates));
    // One batch's time on the CLI path: the mean batch at its rate.
    let batch_ms = mean_batch / cli_rate * 1e3;
    // The service's own p99 (its histogram's bucket): from the request's
    // arrival to its answer's being handed to the socket, without the
    // client's side and the loopback.
    // Beside it, the service's own split of that time: each request's wait
    // from its queueing to its batch's engine call, and each batch's
    // engine call.
    let service_p99 =
        |name: &str| service_quantile(&metrics, name, 0.99).map_or("-".to_string(), |s| format!("<= {} ms", s * 1e3));
    let (queue_p99, batch_p99) = (
        service_p99("batchcrypto_queue_seconds"),
        service_p99("batchcrypto_batch_seconds"),
    );
    let service_p99 = service_p99("batchcrypto_request_seconds");
    // Each round's p99 and the share of the machine's CPU time its host
    // took back during the round (a VM's steal), so that a tail can be
    // told apart by round and set beside the hypervisor's.
    let by_round = round_p99s
        .iter()
        .map(|p| format!("{:.2}", p.as_secs_f64() * 1e3))
        .collect::<Vec<_>>()
        .join(", ");
    let steal = steals
        .iter()
        .map(|s| s.map_or("-".to_string(), |s| format!("{:.1}%", s * 100.0)))
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "| op | clients | requests/s | items/request | requests | rounds | service items/s | CLI path items/s | service/CLI | p50 | p99 | late | max-wait-us | mean batch | its CLI time | p99 in the service | p99 by round (ms) | host steal by round | queue p99 in the service | batch p99 in the service |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    println!(
        "| {} | {} | {} | {}-{} | {} | {} | {rate:.0} | {cli_rate:.0} | {:.2} | {:.2} ms | {:.2} ms | {late} | {} | {mean_batch:.1} | {batch_ms:.2} ms | {service_p99} | {by_round} | {steal} | {queue_p99} | {batch_p99} |",
        args.op,
        args.clients,
        args.rate.map_or("closed loop".to_string(), |r| r.to_string()),
        args.min_lines,
        args.max_lines,
        requests.len(),
        args.rounds,
        median(&mut ratios),
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        args.max_wait_us.map_or("default".to_string(), |us| us.to_string()),
    );
    Ok(ExitCode::SUCCESS)
}

/// The service's `/metrics` text `after` with each sample less its value in
/// `before` (samples named the same): what the counters and histograms
/// counted in between. A sample new in `after` is kept whole. Gauges
/// (queue depth) come out as their change, which bench-serve does not read.
fn since(before: &str, after: &str) -> String {
    let sample = |line: &str| {
        let (name, value) = line.rsplit_once(' ')?;
        Some((name.to_string(), value.parse::<f64>().ok()?))
    };
    let earlier: std::collections::HashMap<String, f64> = before
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(sample)
        .collect();
    after
        .lines()
        .map(|line| match sample(line).filter(|_| !line.starts_with('#')) {
            Some((name, value)) => format!("{name} {}\n", value - earlier.get(&name).copied().unwrap_or(0.0)),
            None => format!("{line}\n"),
        })
        .collect()
}

/// The smallest bound of the service's histogram `name` (in its
/// `/metrics` text) under which a share `p` of its observations fell, in
/// seconds (bench-serve drives one operation).
fn service_quantile(metrics: &str, name: &str, p: f64) -> Option<f64> {
    let prefix = format!("{name}_bucket{{");
    let buckets: Vec<(f64, f64)> = metrics
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(prefix.as_str())?;
            let le = rest.split("le=\"").nth(1)?.split('"').next()?;
            let bound = if le == "+Inf" { f64::INFINITY } else { le.parse().ok()? };
            Some((bound, l.rsplit(' ').next()?.parse().ok()?))
        })
        .collect();
    let total = buckets.iter().find(|(bound, _)| bound.is_infinite())?.1;
    buckets
        .iter()
        .find(|(_, count)| *count >= p * total)
        .map(|(bound, _)| *bound)
}

/// What one round measured.
struct Round {
    seconds: f64,
    latencies: Vec<Duration>,
    /// Requests sent more than [`LATE`] after they fell due (open loop).
    late: usize,
}

/// One round: `clients` keep-alive clients send every request once, each
/// answer compared with the CLI's; with `rate`, request i is sent when it
/// falls due (i / rate seconds from the start) or, if its client is still
/// busy then, as soon as it is free.
async fn service_round(
    addr: SocketAddr,
    path: &str,
    requests: &Arc<Vec<(Vec<u8>, Vec<u8>)>>,
    clients: usize,
    rate: Option<usize>,
) -> Result<Round, Fatal> {
    let next = Arc::new(AtomicUsize::new(0));
    let late = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let clients: Vec<_> = (0..clients)
        .map(|_| {
            let (requests, next, late, path) = (
                Arc::clone(requests),
                Arc::clone(&next),
                Arc::clone(&late),
                path.to_string(),
            );
            tokio::spawn(async move {
                let mut connection = Connection::open(addr).await?;
                let mut latencies = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((body, want)) = requests.get(i) else {
                        return Ok::<_, String>(latencies);
                    };
                    if let Some(rate) = rate {
                        let due = start + Duration::from_secs_f64(i as f64 / rate as f64);
                        if Instant::now() > due + LATE {
                            late.fetch_add(1, Ordering::Relaxed);
                        }
                        tokio::time::sleep_until(due.into()).await;
                    }
                    let sent = Instant::now();
                    let (status, answer) = connection.post(&path, body).await?;
                    latencies.push(sent.elapsed());
                    if status != 200 {
                        return Err(format!("status {status}: {}", String::from_utf8_lossy(&answer)));
                    }
                    if &answer != want {
                        return Err(format!("the answer to request {i} differs from the CLI's"));
                    }
                }
            })
        })
        .collect();
    let mut latencies = Vec::new();
    for c in clients {
        latencies.extend(
            c.await
                .map_err(|_| Fatal("a client panicked".to_string()))?
                .map_err(Fatal)?,
        );
    }
    Ok(Round {
        seconds: start.elapsed().as_secs_f64(),
        latencies,
        late: late.load(Ordering::Relaxed),
    })
}

/// One keep-alive HTTP/1.1 connection.
struct Connection {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    addr: SocketAddr,
    /// The request being sent: its head and body in one write.
    out: Vec<u8>,
}

impl Connection {
    async fn open(addr: SocketAddr) -> Result<Connection, String> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("connect {addr}: {e}"))?;
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        Ok(Connection {
            reader: BufReader::new(reader),
            writer,
            addr,
            out: Vec::new(),
        })
    }

    async fn post(&mut self, path: &str, body: &[u8]) -> Result<(u16, Vec<u8>), String> {
        self.out.clear();
        write!(
            self.out,
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        )
        .map_err(|e| e.to_string())?;
        self.out.extend_from_slice(body);
        self.writer.write_all(&self.out).await.map_err(|e| e.to_string())?;
        self.read().await
    }

    async fn get(&mut self, path: &str) -> Result<Vec<u8>, String> {
        let head = format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", self.addr);
        self.writer
            .write_all(head.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        self.read().await.map(|(_, body)| body)
    }

    /// Reads one response (its length from Content-Length), within
    /// [`READ_LIMIT`].
    async fn read(&mut self) -> Result<(u16, Vec<u8>), String> {
        tokio::time::timeout(READ_LIMIT, self.read_response())
            .await
            .map_err(|_| format!("no answer within {} s", READ_LIMIT.as_secs()))?
    }

    async fn read_response(&mut self) -> Result<(u16, Vec<u8>), String> {
        let mut line = String::new();
        self.reader.read_line(&mut line).await.map_err(|e| e.to_string())?;
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("bad status line {line:?}"))?;
        let mut length = 0;
        loop {
            line.clear();
            self.reader.read_line(&mut line).await.map_err(|e| e.to_string())?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((k, v)) = header.split_once(':')
                && k.eq_ignore_ascii_case("content-length")
            {
                length = v.trim().parse().map_err(|_| format!("bad length {v:?}"))?;
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).await.map_err(|e| e.to_string())?;
        Ok((status, body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_takes_the_earlier_counts_away() {
        let before = "# TYPE batchcrypto_batches_total counter
batchcrypto_batches_total{op=\"a\"} 3
batchcrypto_queue_seconds_bucket{op=\"a\",le=\"0.001\"} 2
";
        let after = "# TYPE batchcrypto_batches_total counter
batchcrypto_batches_total{op=\"a\"} 10
batchcrypto_queue_seconds_bucket{op=\"a\",le=\"0.001\"} 2
batchcrypto_queue_seconds_bucket{op=\"a\",le=\"+Inf\"} 5
";
        assert_eq!(
            since(before, after),
            "# TYPE batchcrypto_batches_total counter
batchcrypto_batches_total{op=\"a\"} 7
batchcrypto_queue_seconds_bucket{op=\"a\",le=\"0.001\"} 0
batchcrypto_queue_seconds_bucket{op=\"a\",le=\"+Inf\"} 5
"
        );
    }

    #[test]
    fn the_services_quantile_is_the_first_bucket_holding_it() {
        let metrics = "# TYPE batchcrypto_request_seconds histogram
batchcrypto_request_seconds_bucket{op=\"hash keccak256\",le=\"0.0001\"} 0
batchcrypto_request_seconds_bucket{op=\"hash keccak256\",le=\"0.0005\"} 90
batchcrypto_request_seconds_bucket{op=\"hash keccak256\",le=\"0.001\"} 98
batchcrypto_request_seconds_bucket{op=\"hash keccak256\",le=\"0.0025\"} 99
batchcrypto_request_seconds_bucket{op=\"hash keccak256\",le=\"+Inf\"} 100
batchcrypto_request_seconds_sum{op=\"hash keccak256\"} 0.05
";
        let name = "batchcrypto_request_seconds";
        assert_eq!(service_quantile(metrics, name, 0.5), Some(0.0005));
        assert_eq!(service_quantile(metrics, name, 0.98), Some(0.001));
        assert_eq!(service_quantile(metrics, name, 0.99), Some(0.0025));
        assert_eq!(service_quantile(metrics, name, 1.0), Some(f64::INFINITY));
        assert_eq!(service_quantile(metrics, "batchcrypto_queue_seconds", 0.99), None);
        assert_eq!(service_quantile("", name, 0.99), None);
    }
}
