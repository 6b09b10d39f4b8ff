//! `batchcrypto serve` over loopback: answers equal to the CLI's on the
//! same lines, batching across concurrent callers, overload, limits,
//! deadlines, tokens and shutdown under load. Every loop is bounded and
//! every socket has a timeout.
#![cfg(feature = "serve")]

#[path = "../src/serve/proto.rs"]
#[allow(dead_code)]
mod proto;
mod support;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prost::Message;
use proto::{RUN_PATH, RunRequest, RunResponse};
use support::{bin, has_usable_gpu, run_with_stdin};

/// A running service; killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    /// The thread reading the log; it ends when the process has exited.
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// `serve --listen 127.0.0.1:0` with `args`, once it listens.
    fn start(args: &[&str]) -> Server {
        let mut child = bin()
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn serve");
        let stderr = child.stderr.take().expect("stderr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let kept = Arc::clone(&log);
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                // Kept before the address is announced: the log holds the
                // line by the time `start` returns.
                let addr = line
                    .split(" addr=")
                    .nth(1)
                    .map(|a| a.split(' ').next().unwrap_or("").to_string());
                kept.lock().expect("log").push(line);
                if let Some(addr) = addr {
                    let _ = tx.send(addr);
                }
            }
        });
        let addr = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("serve did not start: {:?}", log.lock().expect("log")));
        Server {
            child,
            addr: addr.parse().expect("listen address"),
            log,
            reader: Some(reader),
        }
    }

    /// Sends SIGTERM and waits (bounded) for the exit status.
    fn terminate(&mut self) -> Option<i32> {
        let status = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(90) {
            if let Some(status) = self.child.try_wait().expect("wait") {
                // Its last log lines are read before anyone looks at them.
                if let Some(reader) = self.reader.take() {
                    reader.join().expect("log reader");
                }
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("serve did not stop within 90 s of SIGTERM");
    }

    fn log(&self) -> String {
        self.log.lock().expect("log").join("\n")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response: status, headers (lowercase names), body (as text,
/// and as bytes for the binary verbs).
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: HashMap<String, String>,
    body: String,
    bytes: Vec<u8>,
}

/// One HTTP/1.1 request on its own connection (`Connection: close`).
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Reply> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
    stream.set_read_timeout(Some(Duration::from_secs(120)))?;
    stream.set_write_timeout(Some(Duration::from_secs(120)))?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    parse_reply(&raw).ok_or_else(|| std::io::Error::other(format!("bad reply: {:?}", String::from_utf8_lossy(&raw))))
}

fn parse_reply(raw: &[u8]) -> Option<Reply> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let bytes = raw[end + 4..].to_vec();
    if let Some(len) = headers.get("content-length")
        && bytes.len() != len.parse::<usize>().ok()?
    {
        return None;
    }
    let body = String::from_utf8_lossy(&bytes).into_owned();
    Some(Reply {
        status,
        headers,
        body,
        bytes,
    })
}

fn post(addr: SocketAddr, path: &str, body: &str) -> Reply {
    request(addr, "POST", path, &[], body.as_bytes()).unwrap_or_else(|e| panic!("POST {path}: {e}"))
}

/// What a gRPC call got: its status code and message, and the response.
#[derive(Debug)]
struct GrpcReply {
    code: i32,
    message: String,
    response: Option<RunResponse>,
}

/// One gRPC call of `Run` on its own HTTP/2 connection: `frame` is the
/// request's body (a length-prefixed message, or anything else).
fn grpc_raw(addr: SocketAddr, frame: Vec<u8>, headers: &[(&str, &str)]) -> Result<GrpcReply, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let call = async {
        let tcp = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
        let (client, connection) = h2::client::handshake(tcp).await.map_err(|e| e.to_string())?;
        tokio::spawn(connection);
        let mut client = client.ready().await.map_err(|e| e.to_string())?;
        let mut request = http::Request::builder()
            .method("POST")
            .uri(format!("http://{addr}{RUN_PATH}"))
            .header("content-type", "application/grpc")
            .header("te", "trailers");
        for (k, v) in headers {
            request = request.header(*k, *v);
        }
        let request = request.body(()).map_err(|e| e.to_string())?;
        let (response, mut send) = client.send_request(request, false).map_err(|e| e.to_string())?;
        send.send_data(bytes::Bytes::from(frame), true)
            .map_err(|e| e.to_string())?;
        let response = response.await.map_err(|e| e.to_string())?;
        let (parts, mut body) = response.into_parts();
        let mut data = Vec::new();
        while let Some(chunk) = body.data().await {
            let chunk = chunk.map_err(|e| e.to_string())?;
            let _ = body.flow_control().release_capacity(chunk.len());
            data.extend_from_slice(&chunk);
        }
        let trailers = body.trailers().await.map_err(|e| e.to_string())?;
        // A call that fails at once answers "trailers only": the status is
        // in the headers.
        let status = trailers.unwrap_or(parts.headers);
        let code = status
            .get("grpc-status")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
            .ok_or("no grpc-status")?;
        let message = percent_decoded(status.get("grpc-message").and_then(|v| v.to_str().ok()).unwrap_or(""));
        let response = if data.len() >= 5 {
            Some(RunResponse::decode(&data[5..]).map_err(|e| e.to_string())?)
        } else {
            None
        };
        Ok(GrpcReply {
            code,
            message,
            response,
        })
    };
    runtime.block_on(async {
        tokio::time::timeout(Duration::from_secs(120), call)
            .await
            .map_err(|_| "timed out".to_string())?
    })
}

/// gRPC's percent-encoded `grpc-message`, decoded.
fn percent_decoded(s: &str) -> String {
    let mut out = Vec::new();
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        if b == b'%' {
            let hex: String = bytes.by_ref().take(2).map(char::from).collect();
            out.push(u8::from_str_radix(&hex, 16).unwrap_or(b'?'));
        } else {
            out.push(b);
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A gRPC frame holding `message`.
fn grpc_frame(message: &RunRequest) -> Vec<u8> {
    let bytes = message.encode_to_vec();
    let mut frame = vec![0u8];
    frame.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
    frame.extend_from_slice(&bytes);
    frame
}

/// `Run` of `op` with `options` on the lines of `body`.
fn grpc_run(addr: SocketAddr, op: &str, options: &[(&str, &str)], body: &str, headers: &[(&str, &str)]) -> GrpcReply {
    let message = RunRequest {
        op: op.to_string(),
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        lines: body.lines().map(String::from).collect(),
        data: Vec::new(),
    };
    grpc_raw(addr, grpc_frame(&message), headers).unwrap_or_else(|e| panic!("gRPC {op}: {e}"))
}

/// `Run` of a binary `op` with `options` on `data`.
fn grpc_data(addr: SocketAddr, op: &str, options: &[(&str, &str)], data: &[u8]) -> GrpcReply {
    let message = RunRequest {
        op: op.to_string(),
        options: options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        lines: Vec::new(),
        data: data.to_vec(),
    };
    grpc_raw(addr, grpc_frame(&message), &[]).unwrap_or_else(|e| panic!("gRPC {op}: {e}"))
}

/// The gRPC op and options of an HTTP path (`/v1/verify/ed25519?policy=zip215`).
fn grpc_op(path: &str) -> (&str, Vec<(&str, &str)>) {
    let path = path.trim_start_matches("/v1/");
    let (op, query) = path.split_once('?').unwrap_or((path, ""));
    let options = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    (op, options)
}

/// Lines for one operation and the CLI's answer to each (`--backend cpu`).
struct Pool {
    path: &'static str,
    lines: Vec<String>,
    answers: Vec<String>,
}

impl Pool {
    /// `lines` plus malformed ones, answered by a CLI run of `cli`.
    fn new(path: &'static str, cli: &[&str], mut lines: Vec<String>) -> Pool {
        lines.extend(
            [
                "not json",
                "{}",
                "{\"pk\":\"zz\",\"data\":7,\"hash\":null,\"sig\":\"0\"}",
                "[1,2]",
                "",
            ]
            .map(String::from),
        );
        let input = lines.join("\n") + "\n";
        let mut args = cli.to_vec();
        args.extend(["--backend", "cpu"]);
        let out = run_with_stdin(&args, input.as_bytes());
        let answers: Vec<String> = String::from_utf8(out.stdout)
            .expect("utf-8")
            .lines()
            .map(String::from)
            .collect();
        assert_eq!(answers.len(), lines.len(), "{cli:?}: one answer per line");
        assert!(
            answers.iter().any(|a| a.contains("\"error\"")),
            "{cli:?}: malformed lines answered"
        );
        Pool { path, lines, answers }
    }

    /// The CLI's answer to pool line `i` as line `at` (from 0) of a request:
    /// an error line names its line number within the request.
    fn expected(&self, i: usize, at: usize) -> String {
        self.answers[i].replacen(&format!("\"line {}: ", i + 1), &format!("\"line {}: ", at + 1), 1)
    }
}

fn sample(op: &str, count: usize) -> Vec<String> {
    let out = bin()
        .args(["sample", op, "--count", &count.to_string(), "--signers", "16"])
        .output()
        .expect("sample");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(String::from)
        .collect()
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn hash_lines(count: usize) -> Vec<String> {
    let mut rng = Rng(7);
    (0..count)
        .map(|_| {
            let len = rng.below(200);
            let data: String = (0..len).map(|_| format!("{:02x}", rng.next() as u8)).collect();
            format!("{{\"data\":\"{data}\"}}")
        })
        .collect()
}

fn pools() -> Vec<Pool> {
    vec![
        Pool::new("/v1/verify/ed25519", &["verify", "ed25519"], sample("ed25519", 300)),
        Pool::new(
            "/v1/verify/ed25519?policy=zip215",
            &["verify", "ed25519", "--policy", "zip215"],
            sample("ed25519", 300),
        ),
        Pool::new(
            "/v1/verify/secp256k1",
            &["verify", "secp256k1"],
            sample("secp256k1", 300),
        ),
        Pool::new("/v1/ecrecover", &["ecrecover"], sample("ecrecover", 300)),
        Pool::new("/v1/hash/keccak256", &["hash", "keccak256"], hash_lines(300)),
        Pool::new(
            "/v1/verify/merkle-proof",
            &["verify", "merkle-proof"],
            sample("merkle-proof", 300),
        ),
        Pool::new(
            "/v1/verify/mpt-proof",
            &["verify", "mpt-proof"],
            sample("mpt-proof", 300),
        ),
    ]
}

/// A random request on `pool`: its body and the answer the CLI gives.
fn random_request(pool: &Pool, rng: &mut Rng, max_lines: usize) -> (String, String) {
    let n = 1 + rng.below(max_lines);
    let (mut body, mut expected) = (String::new(), String::new());
    for at in 0..n {
        let i = rng.below(pool.lines.len());
        body.push_str(&pool.lines[i]);
        body.push('\n');
        expected.push_str(&pool.expected(i, at));
        expected.push('\n');
    }
    (body, expected)
}

fn metric(addr: SocketAddr, name: &str) -> f64 {
    let text = request(addr, "GET", "/metrics", &[], b"").expect("metrics").body;
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {text}"))
}

/// 64 concurrent clients x 60 requests of 1-64 lines over five operations,
/// malformed lines among them, a quarter of the clients over gRPC: every
/// answer is the CLI's, in order, and batches hold more lines than any one
/// request.
#[test]
fn concurrent_clients_get_the_clis_answers_in_batches() {
    let pools = Arc::new(pools());
    let server = Server::start(&["--max-wait-us", "20000", "--max-batch", "2048"]);
    let addr = server.addr;
    let (largest, answered) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let clients: Vec<_> = (0..64u64)
        .map(|t| {
            let (pools, largest, answered) = (Arc::clone(&pools), Arc::clone(&largest), Arc::clone(&answered));
            std::thread::spawn(move || {
                let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (t + 1));
                for _ in 0..60 {
                    let pool = &pools[rng.below(pools.len())];
                    let (body, expected) = random_request(pool, &mut rng, 64);
                    let batch = if t % 4 == 0 {
                        // Every fourth client speaks gRPC, into the same batches.
                        let (op, options) = grpc_op(pool.path);
                        let reply = grpc_run(addr, op, &options, &body, &[]);
                        assert_eq!(reply.code, 0, "{}: {}", pool.path, reply.message);
                        let response = reply.response.expect("a response");
                        let got: Vec<String> = response.lines.iter().map(|l| format!("{l}\n")).collect();
                        assert_eq!(got.concat(), expected, "{} over gRPC", pool.path);
                        response.batch_lines as usize
                    } else {
                        let reply = post(addr, pool.path, &body);
                        assert_eq!(reply.status, 200, "{}: {}", pool.path, reply.body);
                        assert_eq!(reply.body.lines().count(), expected.lines().count(), "{}", pool.path);
                        assert_eq!(reply.body, expected, "{}", pool.path);
                        let media = reply.headers.get("content-type").map(String::as_str);
                        assert_eq!(media, Some("application/jsonl"));
                        reply.headers["x-batchcrypto-batch-lines"]
                            .parse::<usize>()
                            .expect("batch lines")
                    };
                    largest.fetch_max(batch, Ordering::Relaxed);
                    answered.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for c in clients {
        c.join().expect("client");
    }
    assert_eq!(answered.load(Ordering::Relaxed), 64 * 60);
    let largest = largest.load(Ordering::Relaxed);
    assert!(largest > 64, "no batch larger than one request: largest {largest}");
    assert_eq!(metric(addr, "batchcrypto_queue_items"), 0.0, "everything answered");
    let total: f64 = request(addr, "GET", "/metrics", &[], b"")
        .expect("metrics")
        .body
        .lines()
        .filter(|l| l.starts_with("batchcrypto_requests_total{") && l.contains("code=\"200\""))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum();
    assert_eq!(total, (64 * 60) as f64, "each request counted once");
    eprintln!("largest batch: {largest} lines");
}

/// An engine without a GPU does not wait for more requests: a lone request
/// runs at once, requests that queue while a batch runs form the next
/// batch; an explicit `--max-wait-us` is still obeyed.
#[test]
fn a_cpu_engine_batches_without_waiting_unless_told_to() {
    let line = format!("{KECCAK_00}\n");
    let lone = |server: &Server| {
        let start = Instant::now();
        let reply = post(server.addr, "/v1/hash/keccak256", "{\"data\":\"00\"}\n");
        assert_eq!((reply.status, reply.body.as_str()), (200, line.as_str()));
        assert_eq!(reply.headers["x-batchcrypto-batch-lines"], "1");
        start.elapsed()
    };
    let told = Server::start(&["--backend", "cpu", "--max-wait-us", "1500000"]);
    let waited = lone(&told);
    // The batch is cut up to one timer tick (a millisecond) early.
    assert!(
        waited >= Duration::from_millis(1499),
        "--max-wait-us ignored: {waited:?}"
    );
    drop(told);

    let server = Server::start(&["--backend", "cpu"]);
    let took = lone(&server);
    assert!(took < Duration::from_millis(1500), "a lone request waited {took:?}");
    // Under load, what queued while a batch ran runs together.
    let pool = Arc::new(Pool::new(
        "/v1/verify/ed25519",
        &["verify", "ed25519"],
        sample("ed25519", 64),
    ));
    let largest = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> = (0..32u64)
        .map(|t| {
            let (pool, largest, addr) = (Arc::clone(&pool), Arc::clone(&largest), server.addr);
            std::thread::spawn(move || {
                let mut rng = Rng(t + 7);
                for _ in 0..6 {
                    let (body, expected) = random_request(&pool, &mut rng, 4);
                    let reply = post(addr, pool.path, &body);
                    assert_eq!((reply.status, &reply.body), (200, &expected));
                    let batch: usize = reply.headers["x-batchcrypto-batch-lines"].parse().expect("lines");
                    largest.fetch_max(batch, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for c in clients {
        c.join().expect("client");
    }
    let largest = largest.load(Ordering::Relaxed);
    assert!(largest > 4, "no batch larger than one request: largest {largest}");
}

/// `merkle` is served too: each request is one tree, answered exactly as a
/// CLI run over its lines (the root line, or the error lines), whichever
/// other trees share its batch.
#[test]
fn merkle_requests_are_trees_answered_as_the_cli_answers() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    let addr = server.addr;
    // Leaves of random bytes, the first masked with `top` (0x1f: below
    // BN254's r, for lean-imt-poseidon).
    let leaves_below = |n: usize, seed: u64, top: u8| -> String {
        let mut rng = Rng(seed);
        (0..n)
            .map(|_| {
                let leaf: String = (0..32)
                    .map(|k| format!("{:02x}", rng.next() as u8 & if k == 0 { top } else { 0xff }))
                    .collect();
                format!("{{\"leaf\":\"{leaf}\"}}\n")
            })
            .collect()
    };
    let leaves = |n: usize, seed: u64| leaves_below(n, seed, 0xff);
    let cli = |options: &[&str], body: &str| -> String {
        let mut args = vec!["merkle", "--backend", "cpu"];
        args.extend(options);
        String::from_utf8(run_with_stdin(&args, body.as_bytes()).stdout).expect("utf-8")
    };
    // Trees of several sizes, both rules, with proofs, and malformed trees,
    // sent at once so that they share batches.
    let mut cases: Vec<(String, Vec<&str>, String)> = Vec::new();
    for (i, n) in [1usize, 2, 3, 7, 64, 300].into_iter().enumerate() {
        let body = leaves(n, i as u64 + 1);
        cases.push(("/v1/merkle".into(), vec![], body.clone()));
        cases.push(("/v1/merkle?hash=sha256".into(), vec!["--hash", "sha256"], body.clone()));
        if n >= 3 {
            cases.push(("/v1/merkle?proof=0,2".into(), vec!["--proof", "0,2"], body));
        }
        if n <= 64 {
            let lean = leaves_below(n, i as u64 + 50, 0x1f);
            let path = "/v1/merkle?hash=poseidon&proof=0".to_string();
            cases.push((path, vec!["--hash", "poseidon", "--proof", "0"], lean));
        }
    }
    // Padded trees (the empty one too).
    let lean = leaves_below(5, 61, 0x1f);
    let options = vec!["--hash", "poseidon", "--depth", "20", "--proof", "0,4"];
    cases.push(("/v1/merkle?hash=poseidon&depth=20&proof=0,4".into(), options, lean));
    let options = vec![
        "--hash",
        "sha256",
        "--depth",
        "4",
        "--zero",
        "0x0101010101010101010101010101010101010101010101010101010101010101",
    ];
    let path = "/v1/merkle?hash=sha256&depth=4&zero=0x0101010101010101010101010101010101010101010101010101010101010101";
    cases.push((path.into(), options.clone(), leaves(7, 62)));
    cases.push((path.into(), options, String::new()));
    // Leaves of random bytes are mostly not below r: error lines.
    cases.push((
        "/v1/merkle?hash=poseidon".into(),
        vec!["--hash", "poseidon"],
        leaves(5, 77),
    ));
    let bad = format!("{}not json\n{{\"leaf\":\"00\"}}\n", leaves(2, 99));
    cases.push(("/v1/merkle".into(), vec![], bad));
    cases.push(("/v1/merkle".into(), vec![], "\n".to_string()));
    cases.push(("/v1/merkle".into(), vec![], String::new()));
    let cases: Vec<_> = cases
        .into_iter()
        .map(|(path, options, body)| {
            let expected = cli(&options, &body);
            assert!(!expected.is_empty(), "{path}: the CLI wrote nothing");
            (path, body, expected)
        })
        .collect();
    let threads: Vec<_> = cases
        .into_iter()
        .map(|(path, body, expected)| {
            std::thread::spawn(move || {
                let reply = post(addr, &path, &body);
                assert_eq!(reply.status, 200, "{path}: {}", reply.body);
                assert_eq!(reply.body, expected, "{path}");
                reply.headers["x-batchcrypto-batch-lines"]
                    .parse::<usize>()
                    .expect("lines")
            })
        })
        .collect();
    let batch_lines: Vec<usize> = threads.into_iter().map(|t| t.join().expect("client")).collect();
    let largest = batch_lines.iter().max().copied().unwrap_or(0);
    assert!(largest > 300, "trees never shared a batch: {batch_lines:?}");
    // A proof index past a request's leaves is that request's error line.
    let reply = post(addr, "/v1/merkle?proof=5", &leaves(2, 3));
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body,
        "{\"error\":\"--proof 5: there are only 2 leaves (indices from 0)\"}\n"
    );
    // And over gRPC.
    let body = leaves(5, 8);
    let reply = grpc_run(addr, "merkle", &[("hash", "sha256")], &body, &[]);
    assert_eq!(reply.code, 0, "{}", reply.message);
    let lines = reply.response.expect("a response").lines;
    assert_eq!(lines.concat() + "\n", cli(&["--hash", "sha256"], &body));
}

/// The folder of the CLI's golden cases.
fn golden_dir() -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden"))
}

/// The golden case `name`'s corpus posted to `route` whole and line by
/// line in requests sent at once (batched together, each its own answer)
/// gets the case's golden lines, and gRPC's `verb` answers the same; the
/// golden lines.
fn golden_requests(addr: std::net::SocketAddr, route: &str, verb: &str, name: &str) -> String {
    golden_requests_of(addr, (route, verb, &[]), name, name)
}

/// [`golden_requests`] of the corpus `input` against the answers `output`,
/// gRPC's `verb` with `options` (those the route's query gives).
fn golden_requests_of(
    addr: std::net::SocketAddr,
    (route, verb, options): (&str, &str, &[(&str, &str)]),
    input: &str,
    output: &str,
) -> String {
    let body = std::fs::read_to_string(golden_dir().join(format!("{input}.jsonl"))).expect("corpus");
    let expected = std::fs::read_to_string(golden_dir().join(format!("{output}.out"))).expect("answers");
    let reply = post(addr, route, &body);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(reply.body, expected);
    let threads: Vec<_> = body
        .lines()
        .zip(expected.lines())
        .enumerate()
        .map(|(i, (line, answer))| {
            // An error names the line within its request: the first.
            let answer = answer.replacen(&format!("\"line {}: ", i + 1), "\"line 1: ", 1);
            let line = format!("{line}\n");
            let route = route.to_string();
            std::thread::spawn(move || {
                let reply = post(addr, &route, &line);
                assert_eq!(reply.status, 200, "{}", reply.body);
                assert_eq!(reply.body.trim_end(), answer);
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a client");
    }
    let reply = grpc_run(addr, verb, options, &body, &[]);
    assert_eq!(reply.code, 0, "{}", reply.message);
    assert_eq!(
        reply.response.expect("a response").lines.concat(),
        expected.replace('\n', "")
    );
    expected
}

/// `trie-root` requests: the golden corpus (two real blocks' bodies, the
/// edges, malformed lines) over HTTP and gRPC ([`golden_requests`]) gets
/// the CLI's golden lines (the blocks' header roots among them);
/// `verify block`'s golden corpus posted whole gets its golden lines, with
/// `senders=true` those of `--senders`.
#[test]
fn trie_root_requests_answer_the_golden_lines() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    let addr = server.addr;
    let golden = golden_dir();
    let expected = golden_requests(addr, "/v1/trie-root", "trie-root", "trie-root");
    assert!(expected.starts_with("{\"root\":\"5f4773690718a2e37f45aa56458c6779a61b830fcf89485af5f32447c11f9b6c\"}"));
    // Whole blocks (`verify block`'s golden corpus) at /v1/verify/block.
    let blocks = std::fs::read_to_string(golden.join("block.jsonl")).expect("blocks");
    for (route, answers) in [
        ("/v1/verify/block", "block.out"),
        ("/v1/verify/block?senders=true", "block-senders.out"),
    ] {
        let reply = post(addr, route, &blocks);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(
            reply.body,
            std::fs::read_to_string(golden.join(answers)).expect("answers"),
            "{route}"
        );
    }
}

/// `tx-sender` requests: the golden corpus (83 transactions of known
/// senders, EIP-155's example changed, malformed lines) over HTTP and gRPC
/// ([`golden_requests`]) gets the CLI's golden lines: mainnet block
/// 15,571,241's first transaction's sender first; `eip7702-authority`'s
/// golden corpus likewise (eth-account's authorizations, changed ones,
/// malformed lines).
#[test]
fn tx_sender_requests_answer_the_golden_lines() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    let expected = golden_requests(server.addr, "/v1/tx-sender", "tx-sender", "tx-sender");
    assert!(expected.starts_with("{\"sender\":\"0x04be70565b05b35198845e623c9e51c67dd0c4b0\"}"));
    let expected = golden_requests(
        server.addr,
        "/v1/eip7702-authority",
        "eip7702-authority",
        "eip7702-authority",
    );
    assert!(expected.starts_with("{\"authority\":\"0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f\"}"));
}

/// `verify solana-tx` requests under each policy (`?policy=`, gRPC's
/// option): the golden corpus (Firedancer's 14 transactions, the mainnet
/// one changed, malformed lines) over HTTP and gRPC
/// ([`golden_requests_of`]) gets the CLI's golden lines of that policy.
#[test]
fn solana_tx_requests_answer_the_golden_lines() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    for policy in ["strict", "zip215"] {
        let route = format!("/v1/verify/solana-tx?policy={policy}");
        let expected = golden_requests_of(
            server.addr,
            (&route, "verify/solana-tx", &[("policy", policy)]),
            "solana-tx",
            &format!("solana-tx-{policy}"),
        );
        assert!(expected.starts_with("{\"valid\":true}"), "{policy}");
    }
}

/// `verify bitcoin-block` requests under each network (`?network=`,
/// gRPC's option): the golden corpus (real blocks, changed ones, regtest
/// blocks broken each way, malformed lines) over HTTP and gRPC
/// ([`golden_requests_of`]) gets the CLI's golden lines of that network.
#[test]
fn bitcoin_block_requests_answer_the_golden_lines() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    for (network, output) in [("main", "bitcoin-block"), ("regtest", "bitcoin-block-regtest")] {
        let route = format!("/v1/verify/bitcoin-block?network={network}");
        let expected = golden_requests_of(
            server.addr,
            (&route, "verify/bitcoin-block", &[("network", network)]),
            "bitcoin-block",
            output,
        );
        assert!(
            expected.starts_with("{\"valid\":true,\"hash\":\"000000000000045e"),
            "{network}"
        );
    }
}

/// `verify groth16` requests name their key inline (`vk_hex`, the key's
/// EIP-197 bytes): requests under two keys, sent at once, each get the
/// CLI's lines for their own key (the golden corpus under its key, a
/// sample under another: the key is part of the batching key); a key file
/// (`vk`, a path on the server) is refused, and so is a key that does not
/// decode, with why; gRPC answers the same.
#[test]
fn groth16_requests_are_answered_under_their_own_key() {
    let server = Server::start(&["--max-wait-us", "200000"]);
    let addr = server.addr;
    let golden = golden_dir();
    let key = std::fs::read_to_string(golden.join("groth16-vk.hex")).expect("key");
    let key = key.trim().to_string();
    let body = std::fs::read_to_string(golden.join("groth16.jsonl")).expect("corpus");
    let expected = std::fs::read_to_string(golden.join("groth16.out")).expect("answers");
    let other_key = std::env::temp_dir().join(format!("batchcrypto-serve-groth16-{}.hex", std::process::id()));
    let other_body = String::from_utf8(
        bin()
            .args(["sample", "groth16", "--count", "40", "--seed", "9", "--inputs", "3"])
            .arg("--vk-output")
            .arg(&other_key)
            .output()
            .expect("sample")
            .stdout,
    )
    .expect("utf-8");
    let other_hex = std::fs::read_to_string(&other_key)
        .expect("the other key")
        .trim()
        .to_string();
    std::fs::remove_file(&other_key).ok();
    let other_expected = String::from_utf8(
        run_with_stdin(
            &["verify", "groth16", "--vk-hex", &other_hex, "--backend", "cpu"],
            other_body.as_bytes(),
        )
        .stdout,
    )
    .expect("utf-8");
    assert_ne!(other_expected, expected);
    let threads: Vec<_> = [
        (key.clone(), body.clone(), expected.clone()),
        (other_hex, other_body, other_expected),
    ]
    .into_iter()
    .cycle()
    .take(6)
    .map(|(hex, body, expected)| {
        std::thread::spawn(move || {
            let path = format!("/v1/verify/groth16?vk_hex={hex}");
            let reply = post(addr, &path, &body);
            assert_eq!(reply.status, 200, "{}", reply.body);
            assert_eq!(reply.body, expected);
        })
    })
    .collect();
    for t in threads {
        t.join().expect("client");
    }
    let reply = post(addr, "/v1/verify/groth16?vk=/etc/hostname", &body);
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains("belongs to a CLI run"), "{}", reply.body);
    let reply = post(addr, "/v1/verify/groth16?vk_hex=00", &body);
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains("at least 512 bytes"), "{}", reply.body);
    let reply = grpc_run(addr, "verify/groth16", &[("vk_hex", &key)], &body, &[]);
    assert_eq!(reply.code, 0, "{}", reply.message);
    let lines = reply.response.expect("a response").lines;
    assert_eq!(lines.join("\n") + "\n", expected);
}

/// The binary verbs answer the bytes their CLI runs write: `ntt` requests
/// of whole polynomials (one with a non-canonical element: zeros and the
/// `x-batchcrypto-refused` header, as the CLI names it on stderr) sent at
/// once share batches; `hash --raw` records; `msm` bodies of points then
/// scalars (a bad point: 422, INVALID_ARGUMENT over gRPC); over gRPC's
/// `data` too. A body that is not whole records, and lines or data sent to
/// the wrong kind of verb, are refused with why.
#[test]
fn binary_verbs_answer_the_clis_bytes() {
    let server = Server::start(&["--backend", "cpu", "--max-wait-us", "300000"]);
    let addr = server.addr;
    let mut rng = Rng(0xb1_4a_e7);
    let bytes = |rng: &mut Rng, n: usize| -> Vec<u8> { (0..n).map(|_| rng.next() as u8).collect() };

    // NTT over BN254's scalar field, 16 elements (32 bytes, little-endian)
    // per polynomial; every element below 2^252, so canonical.
    let size = 16 * 32;
    let polys: Vec<Vec<u8>> = (0..6)
        .map(|r| {
            let mut body = bytes(&mut rng, (1 + r % 4) * size);
            for element in body.chunks_mut(32) {
                element[31] &= 0x0f;
            }
            if r == 2 {
                // Polynomial 1's third element is all ones: not below r.
                body[size + 64..size + 96].fill(0xff);
            }
            body
        })
        .collect();
    let cli = |args: &[&str], input: &[u8]| {
        let mut args = args.to_vec();
        args.extend(["--backend", "cpu"]);
        run_with_stdin(&args, input)
    };
    let threads: Vec<_> = polys
        .iter()
        .cloned()
        .map(|body| {
            std::thread::spawn(move || {
                request(addr, "POST", "/v1/ntt?field=bn254-fr&log_n=4", &[], &body).expect("ntt request")
            })
        })
        .collect();
    let replies: Vec<Reply> = threads.into_iter().map(|t| t.join().expect("client")).collect();
    let mut largest = 0;
    for (r, (body, reply)) in polys.iter().zip(&replies).enumerate() {
        let want = cli(&["ntt", "--field", "bn254-fr", "--log-n", "4"], body);
        assert_eq!(reply.status, 200, "{}", reply.body);
        assert_eq!(reply.headers["content-type"], "application/octet-stream");
        assert!(reply.bytes == want.stdout, "request {r}: not the CLI's bytes");
        let refused = reply.headers.get("x-batchcrypto-refused").map(String::as_str);
        let count = reply.headers.get("x-batchcrypto-refused-count").map(String::as_str);
        if r == 2 {
            assert_eq!(refused, Some("1:non_canonical_element"));
            assert_eq!(count, Some("1"));
            assert_eq!(want.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&want.stderr).contains("record 1 "));
        } else {
            assert_eq!((refused, count), (None, None), "request {r}");
            assert_eq!(want.status.code(), Some(0));
        }
        largest = largest.max(
            reply.headers["x-batchcrypto-batch-lines"]
                .parse::<usize>()
                .expect("count"),
        );
    }
    assert!(largest > 4, "polynomials never shared a batch (largest {largest})");

    // Goldilocks, inverse, bit-reversed in, over gRPC; the refused one
    // named in `refused`.
    let p = 0xffff_ffff_0000_0001u64;
    let mut gold: Vec<u8> = (0..3 * 8).flat_map(|_| (rng.next() % p).to_le_bytes()).collect();
    gold[8 * 8 + 8..8 * 8 + 16].copy_from_slice(&p.to_le_bytes());
    let options = [
        ("field", "goldilocks"),
        ("log_n", "3"),
        ("inverse", "true"),
        ("input_order", "bit-reversed"),
    ];
    let reply = grpc_data(addr, "ntt", &options, &gold);
    assert_eq!(reply.code, 0, "{}", reply.message);
    let response = reply.response.expect("a response");
    let args = [
        "ntt",
        "--field",
        "goldilocks",
        "--log-n",
        "3",
        "--inverse",
        "--input-order",
        "bit-reversed",
    ];
    assert!(response.data == cli(&args, &gold).stdout);
    assert!(response.lines.is_empty());
    assert_eq!(response.refused.len(), 1);
    assert_eq!(
        (response.refused[0].record, response.refused[0].reason.as_str()),
        (1, "non_canonical_element")
    );

    // 300 refused polynomials: all counted, the first 256 listed.
    let bad = [0xffu8; 300 * 4 * 8];
    let reply = request(addr, "POST", "/v1/ntt?field=goldilocks&log_n=2", &[], &bad).expect("bad ntt");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.bytes == vec![0u8; bad.len()]);
    assert_eq!(reply.headers["x-batchcrypto-refused-count"], "300");
    let listed: Vec<&str> = reply.headers["x-batchcrypto-refused"].split(',').collect();
    assert_eq!(listed.len(), 256);
    assert_eq!(
        (listed[0], listed[255]),
        ("0:non_canonical_element", "255:non_canonical_element")
    );

    // One coset spelt three ways is one transform: the CLI's bytes each
    // time, and one lane named by the coset's lowercase hex.
    let coset_polys: Vec<u8> = (0..2 * 4).flat_map(|_| (rng.next() % p).to_le_bytes()).collect();
    let want = cli(
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--log-n",
            "2",
            "--coset",
            "0a00000000000000",
        ],
        &coset_polys,
    );
    assert_eq!(want.status.code(), Some(0));
    for spelling in ["0a00000000000000", "0x0a00000000000000", "0A00000000000000"] {
        let path = format!("/v1/ntt?field=goldilocks&log_n=2&coset={spelling}");
        let reply = request(addr, "POST", &path, &[], &coset_polys).expect("coset ntt");
        assert_eq!(reply.status, 200, "{spelling}: {}", reply.body);
        assert!(reply.bytes == want.stdout, "coset {spelling}: not the CLI's bytes");
    }
    let metrics = request(addr, "GET", "/metrics", &[], b"").expect("metrics").body;
    let lanes: std::collections::BTreeSet<&str> = metrics
        .lines()
        .filter_map(|l| l.split("op=\"").nth(1)?.split('"').next())
        .filter(|op| op.contains("--coset"))
        .collect();
    assert_eq!(
        lanes.into_iter().collect::<Vec<_>>(),
        ["ntt --field goldilocks --log-n 2 --coset 0a00000000000000"],
        "{metrics}"
    );

    // Raw hashing: 50 records of 32 bytes.
    let records = bytes(&mut rng, 50 * 32);
    let reply = request(addr, "POST", "/v1/hash/keccak256?raw=32", &[], &records).expect("hash");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.bytes == cli(&["hash", "keccak256", "--raw", "32"], &records).stdout);
    assert_eq!(reply.bytes.len(), 50 * 32);

    // MSM on BLS12-381 G1: public keys as points, the body points then scalars.
    let dir = std::env::temp_dir().join(format!("batchcrypto-serve-msm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let keys = batchcrypto::ops::bls::sample::secret_keys(5, 9);
    let points: Vec<u8> = keys.iter().flat_map(|k| k.sk_to_pk().serialize()).collect();
    let scalars = bytes(&mut rng, 5 * 32);
    let msm_cli = |points: &[u8], scalars: &[u8]| {
        let file = dir.join("points.bin");
        std::fs::write(&file, points).expect("write points");
        let path = file.to_str().expect("path").to_string();
        cli(
            &["msm", "--curve", "bls12-381-g1", "--points", &path, "--scalars", "-"],
            scalars,
        )
    };
    // The service's body: the points, then the scalars.
    let msm_post = |points: &[u8], scalars: &[u8]| {
        request(
            addr,
            "POST",
            "/v1/msm?curve=bls12-381-g1",
            &[],
            &[points, scalars].concat(),
        )
        .expect("msm request")
    };
    let want = msm_cli(&points, &scalars);
    assert_eq!(want.status.code(), Some(0));
    let reply = msm_post(&points, &scalars);
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(reply.bytes == want.stdout, "msm: not the CLI's sum");
    // No terms: the CLI's answer for empty files.
    let reply = msm_post(b"", b"");
    let want_empty = msm_cli(b"", b"");
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert!(want_empty.status.success() && !want_empty.stdout.is_empty());
    assert!(reply.bytes == want_empty.stdout, "msm: not the CLI's identity");
    // A point off the curve: no sum.
    let mut bad = points.clone();
    bad[2 * 96 - 1] ^= 1;
    assert_eq!(msm_cli(&bad, &scalars).status.code(), Some(2));
    let reply = msm_post(&bad, &scalars);
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert!(reply.body.contains("not_on_curve"), "{}", reply.body);
    let reply = grpc_data(
        addr,
        "msm",
        &[("curve", "bls12-381-g1")],
        &[&bad[..], &scalars].concat(),
    );
    assert_eq!(reply.code, 3, "INVALID_ARGUMENT: {}", reply.message);
    assert!(reply.message.contains("not_on_curve"), "{}", reply.message);
    let _ = std::fs::remove_dir_all(&dir);

    // Not whole records; lines to a binary verb; data to a JSON Lines verb.
    let reply = request(
        addr,
        "POST",
        "/v1/ntt?field=bn254-fr&log_n=4",
        &[],
        &polys[0][..size - 1],
    )
    .expect("partial");
    assert_eq!(reply.status, 400);
    assert!(
        reply.body.contains("not a whole number of 512-byte records"),
        "{}",
        reply.body
    );
    let reply = request(addr, "POST", "/v1/msm?curve=bls12-381-g1&points=x", &[], b"").expect("msm points");
    assert_eq!(reply.status, 400);
    assert!(reply.body.contains("belongs to a CLI run"), "{}", reply.body);
    let reply = grpc_run(addr, "ntt", &[("field", "goldilocks"), ("log_n", "3")], "{}", &[]);
    assert_eq!(reply.code, 3);
    assert!(reply.message.contains("takes its input in `data`"), "{}", reply.message);
    let reply = grpc_data(addr, "verify/ed25519", &[], b"abc");
    assert_eq!(reply.code, 3);
    assert!(
        reply.message.contains("takes its input in `lines`"),
        "{}",
        reply.message
    );
}

/// A flood past `--queue-limit`: refusals come at once with Retry-After,
/// every accepted request is answered correctly, the queue stays bounded.
#[test]
fn overload_is_refused_at_once_and_the_queue_stays_bounded() {
    let pools = Arc::new(pools());
    let server = Server::start(&[
        "--queue-limit",
        "300",
        "--max-wait-us",
        "300000",
        "--max-batch",
        "100000",
    ]);
    let addr = server.addr;
    let (ok, refused) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let peak = Arc::new(AtomicUsize::new(0));
    let watching = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let (peak, watching) = (Arc::clone(&peak), Arc::clone(&watching));
        std::thread::spawn(move || {
            while watching.load(Ordering::Relaxed) {
                peak.fetch_max(metric(addr, "batchcrypto_queue_items") as usize, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let clients: Vec<_> = (0..32u64)
        .map(|t| {
            let (pools, ok, refused) = (Arc::clone(&pools), Arc::clone(&ok), Arc::clone(&refused));
            std::thread::spawn(move || {
                let mut rng = Rng(t + 101);
                for _ in 0..8 {
                    let pool = &pools[4];
                    let (body, expected) = random_request(pool, &mut rng, 64);
                    let start = Instant::now();
                    let reply = post(addr, pool.path, &body);
                    match reply.status {
                        200 => {
                            assert_eq!(reply.body, expected);
                            ok.fetch_add(1, Ordering::Relaxed);
                        }
                        503 => {
                            assert!(
                                start.elapsed() < Duration::from_secs(2),
                                "a refusal waited {:?}",
                                start.elapsed()
                            );
                            assert_eq!(reply.headers.get("retry-after").map(String::as_str), Some("1"));
                            assert!(reply.body.contains("queue full"), "{}", reply.body);
                            refused.fetch_add(1, Ordering::Relaxed);
                        }
                        other => panic!("status {other}: {}", reply.body),
                    }
                }
            })
        })
        .collect();
    for c in clients {
        c.join().expect("client");
    }
    watching.store(false, Ordering::Relaxed);
    watcher.join().expect("watcher");
    let (ok, refused) = (ok.load(Ordering::Relaxed), refused.load(Ordering::Relaxed));
    assert_eq!(ok + refused, 32 * 8);
    assert!(refused > 0, "the flood was never refused");
    assert!(ok > 0, "nothing was accepted");
    assert!(
        peak.load(Ordering::Relaxed) <= 300,
        "queue peaked at {}",
        peak.load(Ordering::Relaxed)
    );
    assert_eq!(metric(addr, "batchcrypto_queue_items"), 0.0);
    assert!(metric(addr, "batchcrypto_refusals_total{reason=\"overloaded\"}") >= refused as f64);
}

/// Keccak-256 of the byte 00, as the CLI writes it.
const KECCAK_00: &str = "{\"digest\":\"bc36789e7a1e281436464229828f817d6612f7b477d66591ff96a9e064bcc98a\"}";

/// A service requiring `token` (written to a file in a fresh directory,
/// returned for removal), at most `max_bytes` and 10 lines per request,
/// batches waiting 400 ms.
fn guarded(name: &str, token: &str, max_bytes: usize) -> (Server, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("batchcrypto-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let token_file = dir.join("token");
    std::fs::write(&token_file, token).expect("token");
    let server = Server::start(&[
        "--max-request-bytes",
        &max_bytes.to_string(),
        "--max-request-lines",
        "10",
        "--max-wait-us",
        "400000",
        "--token-file",
        token_file.to_str().expect("path"),
    ]);
    (server, dir)
}

/// Size limits, deadlines, tokens, methods, paths and garbage on the socket.
#[test]
fn limits_deadlines_tokens_and_bad_requests() {
    let (server, dir) = guarded("http", "s3cret-token\n", 2000);
    let addr = server.addr;
    let auth = [("Authorization", "Bearer s3cret-token")];
    let line = "{\"data\":\"00\"}\n";
    let digest = format!("{KECCAK_00}\n");
    let digest = digest.as_str();
    let send = |path: &str, headers: &[(&str, &str)], body: &str| {
        request(addr, "POST", path, headers, body.as_bytes()).expect("request")
    };

    // Tokens: none, wrong, right.
    assert_eq!(send("/v1/hash/keccak256", &[], line).status, 401);
    let wrong = send("/v1/hash/keccak256", &[("Authorization", "Bearer s3cret-tokeN")], line);
    assert_eq!(wrong.status, 401);
    assert_eq!(
        wrong.headers.get("www-authenticate").map(String::as_str),
        Some("Bearer")
    );
    let right = send("/v1/hash/keccak256", &auth, line);
    assert_eq!((right.status, right.body.as_str()), (200, digest));

    // Sizes: bytes and lines over the limits; at the limits they pass.
    let big = format!("{{\"data\":\"{}\"}}\n", "ab".repeat(1000));
    let r = send("/v1/hash/keccak256", &auth, &big);
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.body.contains("--max-request-bytes 2000"), "{}", r.body);
    let r = send("/v1/hash/keccak256", &auth, &line.repeat(11));
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.body.contains("--max-request-lines 10"), "{}", r.body);
    assert_eq!(
        send("/v1/hash/keccak256", &auth, &line.repeat(10)).body,
        digest.repeat(10)
    );
    // A binary verb's records count as its lines.
    let r = request(addr, "POST", "/v1/hash/keccak256?raw=1", &auth, &[0u8; 11]).expect("raw");
    assert_eq!(r.status, 413, "{}", r.body);
    assert!(r.body.contains("--max-request-lines 10"), "{}", r.body);
    let r = request(addr, "POST", "/v1/hash/keccak256?raw=1", &auth, &[0u8; 10]).expect("raw");
    assert_eq!((r.status, r.bytes.len()), (200, 320), "{}", r.body);

    // A deadline shorter than the batching wait: 504 at the deadline.
    let start = Instant::now();
    let r = send(
        "/v1/hash/keccak256",
        &[auth[0], ("x-batchcrypto-deadline-ms", "50")],
        line,
    );
    assert_eq!(r.status, 504, "{}", r.body);
    assert!(start.elapsed() < Duration::from_millis(390), "{:?}", start.elapsed());
    let r = send(
        "/v1/hash/keccak256",
        &[auth[0], ("x-batchcrypto-deadline-ms", "soon")],
        line,
    );
    assert_eq!(r.status, 400, "{}", r.body);

    // Malformed lines in a request: their own error lines, the rest answered.
    let body = "\u{feff}{\"data\":\"00\"}\r\nnot json\n{\"data\":\"0g\"}\n{\"data\":\"00\"}";
    let r = send("/v1/hash/keccak256", &auth, body);
    assert_eq!(r.status, 200);
    let got: Vec<&str> = r.body.lines().collect();
    assert_eq!(got.len(), 4);
    assert_eq!(got[0], digest.trim_end());
    assert_eq!(got[1], "{\"error\":\"line 2: not a JSON object\"}");
    assert!(
        got[2].starts_with("{\"error\":\"line 3: field \\\"data\\\": 'g'"),
        "{}",
        got[2]
    );
    assert_eq!(got[3], digest.trim_end());
    let mut invalid_utf8 = b"{\"data\":\"00\"}\n".to_vec();
    invalid_utf8.extend_from_slice(b"{\"data\":\"\xff\"}\n");
    let r = request(addr, "POST", "/v1/hash/keccak256", &auth, &invalid_utf8).expect("request");
    assert_eq!(r.status, 200);
    assert_eq!(
        r.body.lines().nth(1),
        Some("{\"error\":\"line 2: not valid UTF-8 (byte 9)\"}")
    );
    assert_eq!(send("/v1/hash/keccak256", &auth, "").body, "");

    // Operations and options that do not exist, methods, paths.
    for (path, status) in [
        ("/v1/hash/nope", 400),
        ("/v1/verify/ed25519?backend=gpu", 400),
        ("/v1/verify/ed25519?input=/etc/passwd", 400),
        ("/v1/ntt?field=goldilocks&log_n=4", 400),
        ("/v1/merkle?hash=sha3-256", 400),
        ("/v1/hash/keccak256?raw=32", 400),
        ("/v1/", 400),
        ("/v2/hash/keccak256", 404),
    ] {
        let r = send(path, &auth, line);
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert!(r.body.starts_with("{\"error\":"), "{path}: {}", r.body);
    }
    assert_eq!(
        request(addr, "GET", "/v1/hash/keccak256", &auth, b"")
            .expect("get")
            .status,
        405
    );
    assert_eq!(request(addr, "GET", "/healthz", &[], b"").expect("healthz").status, 200);
    assert_eq!(request(addr, "GET", "/readyz", &[], b"").expect("readyz").status, 200);
    assert_eq!(
        request(addr, "POST", "/metrics", &[], b"").expect("metrics").status,
        405
    );

    // Garbage on a socket: that connection fails, the service goes on.
    for garbage in [
        &b"\x00\x01\x02 nonsense\r\n\r\n"[..],
        b"POST /v1/hash/keccak256 HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\xff\xff\xff\xff",
    ] {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
        let _ = s.write_all(garbage);
        let mut sink = Vec::new();
        let _ = s.read_to_end(&mut sink);
    }
    let r = send("/v1/hash/keccak256", &auth, line);
    assert_eq!((r.status, r.body.as_str()), (200, digest));
    assert!(!server.log().contains("s3cret"), "the token is never logged");
    let _ = std::fs::remove_dir_all(&dir);
}

/// gRPC's errors: token, unknown operations and options, deadlines,
/// oversize and malformed messages; and a grpc-timeout long enough.
#[test]
fn grpc_statuses() {
    let (server, dir) = guarded("grpc", "t0ken", 4000);
    let addr = server.addr;
    let auth = [("authorization", "Bearer t0ken")];
    let line = "{\"data\":\"00\"}";
    let digest = KECCAK_00;
    // (op, options, body, headers, expected code, text in the message)
    type Pairs<'a> = Vec<(&'a str, &'a str)>;
    let cases: [(&str, Pairs, String, Pairs, i32, &str); 8] = [
        ("hash/keccak256", vec![], line.into(), vec![], 16, "bearer token"),
        (
            "hash/keccak256",
            vec![],
            line.into(),
            vec![("authorization", "Bearer t0keN")],
            16,
            "bearer token",
        ),
        ("hash/nope", vec![], line.into(), auth.to_vec(), 3, "nope"),
        (
            "verify/ed25519",
            vec![("backend", "gpu")],
            line.into(),
            auth.to_vec(),
            3,
            "belongs to a CLI run",
        ),
        (
            "hash/keccak256",
            vec![],
            format!("{line}\n").repeat(11),
            auth.to_vec(),
            3,
            "--max-request-lines 10",
        ),
        (
            "hash/keccak256",
            vec![],
            format!("{{\"data\":\"{}\"}}", "ab".repeat(2500)),
            auth.to_vec(),
            11,
            "limit",
        ),
        (
            "hash/keccak256",
            vec![],
            line.into(),
            [auth[0], ("grpc-timeout", "50m")].to_vec(),
            4,
            "deadline",
        ),
        (
            "hash/keccak256",
            vec![],
            line.into(),
            [auth[0], ("grpc-timeout", "soon")].to_vec(),
            3,
            "grpc-timeout",
        ),
    ];
    for (op, options, body, headers, code, text) in &cases {
        let start = Instant::now();
        let reply = grpc_run(addr, op, options, body, headers);
        assert_eq!(reply.code, *code, "{op} {options:?} {headers:?}: {}", reply.message);
        assert!(reply.message.contains(text), "{op}: {}", reply.message);
        assert!(reply.response.is_none());
        if *code == 4 {
            assert!(start.elapsed() < Duration::from_millis(390), "{:?}", start.elapsed());
        }
    }
    // Not a message: the codec's error, and the service goes on.
    for frame in [
        vec![0, 0, 0, 0, 9, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        vec![1, 2, 3],
    ] {
        let reply = grpc_raw(addr, frame, &auth).expect("call");
        assert_ne!(reply.code, 0, "{reply:?}");
    }
    let ok = grpc_run(
        addr,
        "hash/keccak256",
        &[],
        &format!("{line}\nnot json\n{line}"),
        &[auth[0], ("grpc-timeout", "20S")],
    );
    assert_eq!(ok.code, 0, "{}", ok.message);
    let response = ok.response.expect("response");
    assert_eq!(
        response.lines,
        vec![digest, "{\"error\":\"line 2: not a JSON object\"}", digest]
    );
    assert_eq!(response.backend, "cpu");
    let empty = grpc_run(addr, "hash/keccak256", &[], "", &auth);
    assert_eq!((empty.code, empty.response.map(|r| r.lines.len())), (0, Some(0)));
    let _ = std::fs::remove_dir_all(&dir);
}

/// With --tls-cert and --tls-key: HTTPS answers, plain HTTP gets none.
#[test]
fn tls_serves_https_only() {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, ServerName};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tls");
    let (cert, key) = (format!("{dir}/cert.pem"), format!("{dir}/key.pem"));
    let server = Server::start(&["--tls-cert", &cert, "--tls-key", &key]);
    let addr = server.addr;
    assert!(server.log().contains("protocols=https,h2"), "{}", server.log());
    let body = "{\"data\":\"00\"}\n";
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let raw = runtime.block_on(async {
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_file_iter(format!("{dir}/ca.pem")).expect("ca") {
            roots.add(c.expect("cert")).expect("root");
        }
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let name = ServerName::try_from("localhost").expect("name");
        let mut tls = connector.connect(name, tcp).await.expect("TLS handshake");
        let head = format!(
            "POST /v1/hash/keccak256 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        tls.write_all(head.as_bytes()).await.expect("write");
        let mut raw = Vec::new();
        // The server may close without close_notify after a complete reply.
        let _ = tokio::time::timeout(Duration::from_secs(60), tls.read_to_end(&mut raw)).await;
        raw
    });
    let reply = parse_reply(&raw).unwrap_or_else(|| panic!("no HTTPS reply: {:?}", String::from_utf8_lossy(&raw)));
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, format!("{KECCAK_00}\n"));
    let plain = request(addr, "POST", "/v1/hash/keccak256", &[], body.as_bytes());
    assert!(plain.is_err(), "plain HTTP answered on the TLS port: {plain:?}");
}

/// SIGTERM while clients are sending: every request already queued is
/// answered (correctly), later ones are refused or find the port closed,
/// and the process exits 0.
#[test]
fn shutdown_under_load_answers_every_accepted_request() {
    let pools = Arc::new(pools());
    let mut server = Server::start(&["--max-wait-us", "300000"]);
    let addr = server.addr;
    let queued_before = Arc::new(Mutex::new(Vec::new()));
    let stop_at = Instant::now() + Duration::from_millis(700);
    let clients: Vec<_> = (0..16u64)
        .map(|t| {
            let (pools, queued_before) = (Arc::clone(&pools), Arc::clone(&queued_before));
            std::thread::spawn(move || {
                let mut rng = Rng(t + 501);
                let mut outcomes = Vec::new();
                for _ in 0..40 {
                    let pool = &pools[rng.below(pools.len())];
                    let (body, expected) = random_request(pool, &mut rng, 16);
                    let sent = Instant::now();
                    let reply = request(addr, "POST", pool.path, &[], body.as_bytes());
                    match &reply {
                        Ok(r) if r.status == 200 => assert_eq!(r.body, expected, "{}", pool.path),
                        Ok(r) => assert_eq!(r.status, 503, "{}", r.body),
                        Err(_) => {}
                    }
                    // Sent 200 ms before the signal: queued by then.
                    if sent + Duration::from_millis(200) < stop_at {
                        queued_before
                            .lock()
                            .expect("lock")
                            .push(reply.as_ref().map(|r| r.status).ok());
                    }
                    outcomes.push(reply.is_ok());
                    if Instant::now() > stop_at + Duration::from_millis(500) {
                        break;
                    }
                }
                outcomes
            })
        })
        .collect();
    std::thread::sleep(stop_at.saturating_duration_since(Instant::now()));
    let code = server.terminate();
    for c in clients {
        c.join().expect("client");
    }
    assert_eq!(code, Some(0), "{}", server.log());
    let before = queued_before.lock().expect("lock");
    assert!(!before.is_empty());
    assert!(
        before.iter().all(|s| *s == Some(200)),
        "a request queued before SIGTERM was not answered: {before:?}"
    );
    let log = server.log();
    assert!(log.contains("msg=\"shutting down\" signal=SIGTERM"), "{log}");
    assert!(log.contains("msg=\"stopped\""), "{log}");
}

/// With `--backend gpu` the service runs its batches on the GPU and answers
/// exactly what the CLI's CPU path answers.
#[test]
fn gpu_batches_answer_what_the_cpu_answers() {
    if !has_usable_gpu() {
        eprintln!("no usable GPU adapter: skipped");
        return;
    }
    let pools = pools();
    let server = Server::start(&["--backend", "gpu", "--max-wait-us", "1000"]);
    let mut rng = Rng(99);
    let mut on_gpu = 0;
    for pool in pools.iter() {
        let (body, expected) = random_request(pool, &mut rng, 64);
        let reply = post(server.addr, pool.path, &body);
        assert_eq!(reply.status, 200, "{}: {}", pool.path, reply.body);
        assert_eq!(reply.body, expected, "{}", pool.path);
        let backend = reply.headers.get("x-batchcrypto-backend").map(String::as_str);
        assert!(matches!(backend, Some("gpu") | None), "{}: {backend:?}", pool.path);
        on_gpu += usize::from(backend == Some("gpu"));
    }
    assert!(on_gpu > 0, "no batch ran on the GPU");
    // A binary verb: Goldilocks polynomials transformed on the GPU, the
    // bytes of the CLI's CPU run.
    let p = 0xffff_ffff_0000_0001u64;
    let polys: Vec<u8> = (0..3 * 16).flat_map(|_| (rng.next() % p).to_le_bytes()).collect();
    let reply = request(server.addr, "POST", "/v1/ntt?field=goldilocks&log_n=4", &[], &polys).expect("ntt");
    assert_eq!(reply.status, 200, "{}", reply.body);
    let want = run_with_stdin(
        &["ntt", "--field", "goldilocks", "--log-n", "4", "--backend", "cpu"],
        &polys,
    );
    assert!(reply.bytes == want.stdout, "ntt on the GPU: not the CPU's bytes");
    assert_eq!(
        reply.headers.get("x-batchcrypto-backend").map(String::as_str),
        Some("gpu")
    );
}

/// Runs `command` (a bench-serve) and returns its report's row for `op`,
/// failing the test if it did not succeed or printed no such row.
fn bench_serve_row(command: &mut std::process::Command, op: &str) -> String {
    let out = command.output().expect("bench-serve");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
        .lines()
        .find(|l| l.starts_with(&format!("| {op} |")))
        .unwrap_or_else(|| panic!("no row in {stdout}"))
        .to_string()
}

#[test]
fn bench_serve_checks_every_answer_and_reports_both_paths() {
    let dir = std::env::temp_dir().join(format!("batchcrypto-bench-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let input = dir.join("hash.jsonl");
    // A malformed line too: its error line is an answer like any other.
    let mut lines = hash_lines(150);
    lines.insert(40, "{\"data\":\"zz\"}".to_string());
    std::fs::write(&input, lines.join("\n") + "\n").expect("write");
    // Closed loop, then open at 400 requests a second.
    for rate in [None, Some("400")] {
        let mut command = bin();
        command
            .args(["bench-serve", "--op", "hash/keccak256", "--input"])
            .arg(&input)
            .args(["--clients", "4", "--max-lines", "8", "--passes", "2", "--rounds", "2"]);
        if let Some(rate) = rate {
            command.args(["--rate", rate]);
        }
        let row = bench_serve_row(&mut command, "hash/keccak256");
        let row = row.as_str();
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(&cells[2..5], ["4", rate.unwrap_or("closed loop"), "1-8"], "{row}");
        assert_eq!(cells[6], "2", "rounds: {row}");
        for rate in [cells[7], cells[8]] {
            assert!(rate.parse::<f64>().is_ok_and(|r| r > 0.0), "{row}");
        }
        assert!(cells[12].parse::<usize>().is_ok(), "late: {row}");
        // The service's p99, and its queueing's and batches' p99 (its
        // histograms' bounds).
        for at in [16, 19, 20] {
            assert!(
                cells[at].starts_with("<= ") && cells[at].ends_with(" ms"),
                "the service's p99s: {row}"
            );
        }
        // Each round's p99 and the host's steal in it (a share, or "-"
        // where the kernel does not count it).
        let by_round: Vec<&str> = cells[17].split(", ").collect();
        assert!(
            by_round.len() == 2 && by_round.iter().all(|p| p.parse::<f64>().is_ok_and(|p| p > 0.0)),
            "p99 by round: {row}"
        );
        let steal: Vec<&str> = cells[18].split(", ").collect();
        assert!(
            steal.len() == 2
                && steal.iter().all(|s| *s == "-"
                    || s.strip_suffix('%')
                        .and_then(|s| s.parse::<f64>().ok())
                        .is_some_and(|s| (0.0..=100.0).contains(&s))),
            "steal by round: {row}"
        );
        if rate.is_some() {
            // A round's 302 lines in requests due 1/400 s apart: it lasts
            // at least as long as the schedule.
            let requests: f64 = cells[5].parse().expect("requests");
            let items: f64 = cells[7].parse().expect("items/s");
            assert!(
                items <= 302.0 * 400.0 / (requests - 1.0),
                "faster than the schedule: {row}"
            );
        }
    }
    // A binary verb: 64-byte records for SHA-256, requests of 1-16 records.
    let records = dir.join("records.bin");
    let mut rng = Rng(0x5ea_b1e);
    let bytes: Vec<u8> = (0..200 * 64).map(|_| rng.next() as u8).collect();
    std::fs::write(&records, &bytes).expect("write");
    let mut command = bin();
    command
        .args(["bench-serve", "--op", "hash/sha256?raw=64", "--input"])
        .arg(&records)
        .args(["--clients", "4", "--passes", "2", "--rounds", "1"]);
    let row = bench_serve_row(&mut command, "hash/sha256?raw=64");
    let row = row.as_str();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!(&cells[2..5], ["4", "closed loop", "1-16"], "{row}");
    for rate in [cells[7], cells[8]] {
        assert!(rate.parse::<f64>().is_ok_and(|r| r > 0.0), "{row}");
    }
    // Not whole records, and a verb whose request has one answer: refused
    // with why, before any service starts.
    std::fs::write(&records, &bytes[..100]).expect("write");
    for (op, says) in [
        (
            "hash/sha256?raw=64",
            "not a whole number of the operation's 64-byte records",
        ),
        ("merkle", "a merkle request has one answer"),
    ] {
        let out = bin()
            .args(["bench-serve", "--op", op, "--input"])
            .arg(if op == "merkle" { &input } else { &records })
            .output()
            .expect("bench-serve");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{op}: {stderr}");
        assert!(stderr.contains(says), "{op}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
