//! The HTTP side of `serve`: the accept loop (HTTP/1.1 and HTTP/2 on one
//! port, hyper), graceful shutdown, and the handlers; gRPC calls (HTTP/2,
//! [`super::grpc`]) are routed by their path.
//!
//! Status codes: 200 answered (malformed lines get their `{"error":..}`
//! line, as in the CLI; a binary verb's refused records are counted in
//! `x-batchcrypto-refused-count` and the first 256 listed in
//! `x-batchcrypto-refused`, their output bytes zeros); 400 not an
//! operation, bad options, or a binary body that is not whole records; 401
//! missing or wrong bearer token; 404 no such path; 405 wrong method; 413
//! request over `--max-request-bytes` or `--max-request-lines` (lines, or a
//! binary verb's records); 422 `msm` refused a point (no sum); 503 queue
//! full (with `Retry-After`), too many distinct operations, or shutting
//! down; 504 the request's deadline (`x-batchcrypto-deadline-ms`) passed
//! before its batch ran; 500 the engine failed on the batch and on the CPU.

use std::convert::Infallible;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use sha2::{Digest, Sha256};
use tokio::net::TcpListener;

use super::metrics::Refusal;
use super::{FailKind, Failure, Input, SHUTDOWN_GRACE, State, fail, log};
use crate::Fatal;
use crate::lines::{RequestLine, body_lines};

/// The header carrying a request's deadline, in milliseconds from its arrival.
pub const DEADLINE_HEADER: &str = "x-batchcrypto-deadline-ms";
/// The header naming the backend that ran the request's batch.
pub const BACKEND_HEADER: &str = "x-batchcrypto-backend";
/// The header giving the lines in the request's batch (all requests in it).
pub const BATCH_HEADER: &str = "x-batchcrypto-batch-lines";
/// The header listing a binary verb's refused records, `index:reason`
/// comma-separated (indices within the request, from 0): the first
/// [`REFUSED_LISTED`] of them.
pub const REFUSED_HEADER: &str = "x-batchcrypto-refused";
/// The header counting a binary verb's refused records, all of them.
pub const REFUSED_COUNT_HEADER: &str = "x-batchcrypto-refused-count";
/// Refused records listed in [`REFUSED_HEADER`] at most (clients cap a
/// response's headers at some kilobytes; gRPC's `refused` lists them all).
const REFUSED_LISTED: usize = 256;
/// Media type of the JSON Lines answers (and the expected requests).
const JSON_LINES: &str = "application/jsonl";
/// Media type of the binary verbs' answers.
const BINARY: &str = "application/octet-stream";

/// Reads the bearer token from `path` (surrounding whitespace removed) and
/// keeps its SHA-256, compared in constant time with each request's.
pub fn read_token(path: &Path) -> Result<[u8; 32], Fatal> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Fatal(format!("cannot read --token-file {}: {e}", path.display())))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(Fatal(format!("--token-file {} holds no token", path.display())));
    }
    Ok(Sha256::digest(token.as_bytes()).into())
}

/// How long a client has to finish its TLS handshake.
const TLS_HANDSHAKE: Duration = Duration::from_secs(10);

/// The TLS acceptor of a certificate chain and key in PEM files (rustls on
/// aws-lc-rs; TLS 1.3 and 1.2; ALPN h2 and http/1.1).
pub fn tls_acceptor(cert: &Path, key: &Path) -> Result<tokio_rustls::TlsAcceptor, Fatal> {
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, PrivateKeyDer};
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| Fatal(format!("--tls-cert {}: {e}", cert.display())))?;
    if certs.is_empty() {
        return Err(Fatal(format!("--tls-cert {} holds no certificate", cert.display())));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| Fatal(format!("--tls-key {}: {e}", key.display())))?;
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(certs, key))
        .map_err(|e| Fatal(format!("TLS: {e}")))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(tokio_rustls::TlsAcceptor::from(Arc::new(config)))
}

/// Accepts connections on `listen` (over TLS when `tls` is given) until
/// SIGTERM or SIGINT, then stops accepting and waits (up to
/// [`SHUTDOWN_GRACE`]) for every request already accepted to be answered.
pub async fn serve(
    state: Arc<State>,
    listen: std::net::SocketAddr,
    tls: Option<tokio_rustls::TlsAcceptor>,
) -> Result<(), Fatal> {
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|e| Fatal(format!("cannot listen on {listen}: {e}")))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Fatal(format!("no local address: {e}")))?;
    let protocols = if tls.is_some() { "https,h2" } else { "http/1.1,h2c" };
    log("info", "listening", &[("addr", &addr), ("protocols", &protocols)]);
    let graceful = GracefulShutdown::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    let mut stop = std::pin::pin!(shutdown_signal());
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let stream = match accepted {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        // Out of descriptors and the like: wait, keep serving.
                        log("warn", "accept failed", &[("error", &e)]);
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let state = Arc::clone(&state);
                let service = hyper::service::service_fn(move |req| handle(Arc::clone(&state), req));
                match &tls {
                    None => {
                        let connection = builder.serve_connection(TokioIo::new(stream), service).into_owned();
                        let watched = graceful.watch(connection);
                        tokio::spawn(async move {
                            let _ = watched.await;
                        });
                    }
                    Some(acceptor) => {
                        // The handshake runs in the connection's task, not in
                        // the accept loop: a slow client stalls only itself.
                        let (acceptor, builder, watcher) = (acceptor.clone(), builder.clone(), graceful.watcher());
                        tokio::spawn(async move {
                            if let Ok(Ok(stream)) = tokio::time::timeout(TLS_HANDSHAKE, acceptor.accept(stream)).await {
                                let connection = builder.serve_connection(TokioIo::new(stream), service);
                                let _ = watcher.watch(connection.into_owned()).await;
                            }
                        });
                    }
                }
            }
            signal = &mut stop => {
                log("info", "shutting down", &[("signal", &signal)]);
                break;
            }
        }
    }
    state.ready.store(false, Ordering::Release);
    drop(listener);
    if tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await.is_err() {
        log(
            "warn",
            "shutdown grace ran out",
            &[("grace_s", &SHUTDOWN_GRACE.as_secs())],
        );
    }
    log("info", "stopped", &[]);
    Ok(())
}

/// The first of SIGTERM and SIGINT; its name.
async fn shutdown_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) {
            (Ok(mut term), Ok(mut int)) => tokio::select! {
                _ = term.recv() => "SIGTERM",
                _ = int.recv() => "SIGINT",
            },
            _ => {
                log("warn", "no signal handlers: stop with SIGKILL", &[]);
                std::future::pending().await
            }
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "ctrl-c",
            Err(_) => std::future::pending().await,
        }
    }
}

/// A response body of either transport (tonic's error type: gRPC's bodies
/// are tonic's, HTTP's are whole and never fail).
type Body = UnsyncBoxBody<Bytes, tonic::Status>;
type Answer = Response<Body>;

/// A response with a body and its media type.
fn respond(status: StatusCode, media: &'static str, body: impl Into<Bytes>) -> Answer {
    let mut response = Response::new(Full::new(body.into()).map_err(|never| match never {}).boxed_unsync());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(media));
    response
}

/// An error response: `{"error":"..."}`.
fn error(status: StatusCode, message: &str) -> Answer {
    let body = serde_json::json!({ "error": message }).to_string() + "\n";
    respond(status, "application/json", body)
}

async fn handle(state: Arc<State>, req: Request<Incoming>) -> Result<Answer, Infallible> {
    let path = req.uri().path();
    Ok(match (req.method(), path) {
        (&Method::POST, super::proto::RUN_PATH) => super::grpc::run(state, req).await.map(BodyExt::boxed_unsync),
        (&Method::GET, "/healthz") => respond(StatusCode::OK, "text/plain", "ok\n"),
        (&Method::GET, "/readyz") => {
            if state.ready.load(Ordering::Acquire) {
                respond(StatusCode::OK, "text/plain", "ready\n")
            } else {
                respond(StatusCode::SERVICE_UNAVAILABLE, "text/plain", "shutting down\n")
            }
        }
        (&Method::GET, "/metrics") => {
            let (items, bytes) = state.core.admission.held();
            let text = state
                .core
                .metrics
                .render(items, bytes, state.ready.load(Ordering::Acquire));
            respond(StatusCode::OK, "text/plain; version=0.0.4", text)
        }
        (&Method::POST, p) if p.starts_with("/v1/") => {
            let start = Instant::now();
            let (op, response) = verb(&state, req).await;
            state
                .core
                .metrics
                .request(&op, response.status().as_u16(), start.elapsed());
            response
        }
        (_, p) if p.starts_with("/v1/") => {
            let mut r = error(StatusCode::METHOD_NOT_ALLOWED, "operations take POST");
            r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
            r
        }
        (_, "/healthz" | "/readyz" | "/metrics") => {
            let mut r = error(StatusCode::METHOD_NOT_ALLOWED, "this path takes GET");
            r.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET"));
            r
        }
        _ => error(
            StatusCode::NOT_FOUND,
            "no such path: operations are POST /v1/<verb>, for example /v1/verify/ed25519",
        ),
    })
}

/// An operation request: the operation's title (the metrics label) and the
/// response.
async fn verb(state: &State, req: Request<Incoming>) -> (String, Answer) {
    let received = Instant::now();
    let unknown = || "unknown".to_string();
    let authorization = req.headers().get(header::AUTHORIZATION).map(HeaderValue::as_bytes);
    if !state.authorized(authorization) {
        state.core.metrics.refused(Refusal::Unauthorized);
        return (
            unknown(),
            failed(&fail(FailKind::Unauthorized, "missing or wrong bearer token")),
        );
    }
    let uri = req.uri().clone();
    let words: Vec<&str> = uri.path()["/v1/".len()..]
        .split('/')
        .filter(|w| !w.is_empty())
        .collect();
    let params = match super::route::query_pairs(uri.query().unwrap_or("")) {
        Ok(p) => p,
        Err(e) => return (unknown(), failed(&fail(FailKind::BadRequest, e))),
    };
    let deadline = match deadline(&req, received) {
        Ok(d) => d,
        Err(e) => return (unknown(), failed(&fail(FailKind::BadRequest, e))),
    };
    let body = match read_body(state, req).await {
        Ok(body) => body,
        Err(e) => return (unknown(), failed(&e)),
    };
    let route = uri.path_and_query().map_or("", |p| p.as_str());
    let bytes = body.len();
    let (op, result) = state
        .run(route, &words, &params, Input::Body(body), bytes, deadline)
        .await;
    let response = match result {
        Ok(answered) => {
            let media = if answered.binary { BINARY } else { JSON_LINES };
            let mut r = respond(StatusCode::OK, media, answered.body);
            if let Some(b) = answered.backend.and_then(|b| HeaderValue::from_str(&b).ok()) {
                r.headers_mut().insert(BACKEND_HEADER, b);
            }
            if !answered.refused.is_empty() {
                let list: Vec<String> = answered
                    .refused
                    .iter()
                    .take(REFUSED_LISTED)
                    .map(|(i, why)| format!("{i}:{why}"))
                    .collect();
                if let Ok(v) = HeaderValue::from_str(&list.join(",")) {
                    r.headers_mut().insert(REFUSED_HEADER, v);
                }
                r.headers_mut()
                    .insert(REFUSED_COUNT_HEADER, HeaderValue::from(answered.refused.len()));
            }
            r.headers_mut()
                .insert(BATCH_HEADER, HeaderValue::from(answered.batch_lines));
            r
        }
        Err(e) => failed(&e),
    };
    (op, response)
}

/// The response to a failed request.
fn failed(failure: &Failure) -> Answer {
    let status = StatusCode::from_u16(failure.kind.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut r = error(status, &failure.message);
    match failure.kind {
        FailKind::Overloaded => {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        FailKind::Unauthorized => {
            r.headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        _ => {}
    }
    r
}

/// The request's deadline from [`DEADLINE_HEADER`], if it has one.
fn deadline(req: &Request<Incoming>, received: Instant) -> Result<Option<Instant>, String> {
    let Some(value) = req.headers().get(DEADLINE_HEADER) else {
        return Ok(None);
    };
    let ms: u64 = value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("{DEADLINE_HEADER} must be a whole number of milliseconds"))?;
    Ok(received.checked_add(Duration::from_millis(ms)))
}

/// Reads the body, at most `--max-request-bytes`.
async fn read_body(state: &State, req: Request<Incoming>) -> Result<Bytes, Failure> {
    let limit = state.max_request_bytes;
    let too_large = || {
        state.core.metrics.refused(Refusal::TooLarge);
        fail(
            FailKind::TooLarge,
            format!("request body over --max-request-bytes {limit}"),
        )
    };
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    match Limited::new(req.into_body(), limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Err(e) => Err(fail(FailKind::BadRequest, format!("reading the body: {e}"))),
    }
}

/// A JSON Lines body's lines ([`body_lines`]: as the CLI reads a file),
/// within the service's limits.
pub fn split_lines(state: &State, body: &[u8]) -> Result<Vec<RequestLine>, Failure> {
    match body_lines(body, state.max_request_bytes, state.max_request_lines) {
        Ok(Some(lines)) => Ok(lines),
        Ok(None) => Err(state.too_many_lines()),
        Err(e) => Err(fail(FailKind::BadRequest, format!("reading the body: {e}"))),
    }
}
