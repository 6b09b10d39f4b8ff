//! The gRPC side of `serve`: `batchcrypto.v1.BatchCrypto/Run`
//! (proto/batchcrypto/v1/batchcrypto.proto) on the same port as HTTP,
//! decoded by tonic's codec and run through the same batching core as
//! `POST /v1/<op>`. The call's `grpc-timeout` is its deadline; its
//! `authorization` metadata carries the bearer token.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::body::Incoming;
use tonic::server::{Grpc, UnaryService};
use tonic::{Code, Status};
use tonic_prost::ProstCodec;

use super::metrics::Refusal;
use super::proto::{Refused, RunRequest, RunResponse};
use super::{FailKind, Failure, Input, State};

/// Answers one gRPC call of `Run`.
pub async fn run(state: Arc<State>, req: hyper::Request<Incoming>) -> hyper::Response<tonic::body::Body> {
    let authorization = req.headers().get(hyper::header::AUTHORIZATION).map(|v| v.as_bytes());
    if !state.authorized(authorization) {
        state.core.metrics.refused(Refusal::Unauthorized);
        state
            .core
            .metrics
            .request("unknown", FailKind::Unauthorized.http_status(), Duration::ZERO);
        return Status::unauthenticated("missing or wrong bearer token").into_http();
    }
    let limit = state.max_request_bytes;
    let mut grpc = Grpc::new(ProstCodec::<RunResponse, RunRequest>::default())
        .max_decoding_message_size(limit)
        .max_encoding_message_size(usize::MAX);
    grpc.unary(Run { state }, req).await
}

/// The `Run` method over the shared state.
struct Run {
    state: Arc<State>,
}

type RunFuture = Pin<Box<dyn Future<Output = Result<tonic::Response<RunResponse>, Status>> + Send>>;

impl UnaryService<RunRequest> for Run {
    type Response = RunResponse;
    type Future = RunFuture;

    fn call(&mut self, request: tonic::Request<RunRequest>) -> RunFuture {
        let state = Arc::clone(&self.state);
        Box::pin(async move {
            let received = Instant::now();
            let timeout = request
                .metadata()
                .get("grpc-timeout")
                .map(|v| v.to_str().ok().and_then(grpc_timeout));
            let deadline = match timeout {
                None => None,
                Some(Some(t)) => received.checked_add(t),
                Some(None) => return Err(Status::invalid_argument("bad grpc-timeout")),
            };
            let message = request.into_inner();
            let words: Vec<&str> = message.op.split('/').filter(|w| !w.is_empty()).collect();
            let mut params: Vec<(String, String)> = message.options.into_iter().collect();
            params.sort();
            // The lane cache's key: the HTTP route the call stands for.
            let query: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let route = format!("grpc:{}?{}", message.op, query.join("&"));
            let bytes = message.lines.iter().map(|l| l.len() + 1).sum::<usize>() + message.data.len();
            let input = Input::Message {
                lines: message.lines,
                data: message.data,
            };
            let (op, result) = state.run(&route, &words, &params, input, bytes, deadline).await;
            let code = result.as_ref().map_or_else(|e| e.kind.http_status(), |_| 200);
            state.core.metrics.request(&op, code, received.elapsed());
            let answered = result.map_err(status)?;
            let (lines, data) = if answered.binary {
                (Vec::new(), answered.body)
            } else {
                let text = String::from_utf8(answered.body).map_err(|_| Status::internal("output is not UTF-8"))?;
                (text.lines().map(str::to_string).collect(), Vec::new())
            };
            Ok(tonic::Response::new(RunResponse {
                lines,
                backend: answered.backend.unwrap_or_default(),
                batch_lines: answered.batch_lines as u64,
                data,
                refused: answered
                    .refused
                    .into_iter()
                    .map(|(record, reason)| Refused {
                        record: record as u64,
                        reason,
                    })
                    .collect(),
            }))
        })
    }
}

/// The gRPC status of a failure.
fn status(failure: Failure) -> Status {
    let code = match failure.kind {
        FailKind::BadRequest | FailKind::TooLarge | FailKind::Unprocessable => Code::InvalidArgument,
        FailKind::Unauthorized => Code::Unauthenticated,
        FailKind::Overloaded => Code::ResourceExhausted,
        FailKind::Unavailable => Code::Unavailable,
        FailKind::Deadline => Code::DeadlineExceeded,
        FailKind::Internal => Code::Internal,
    };
    Status::new(code, failure.message)
}

/// A `grpc-timeout` value (gRPC over HTTP/2: at most 8 digits and a unit,
/// `H`, `M`, `S`, `m`, `u` or `n`).
fn grpc_timeout(value: &str) -> Option<Duration> {
    if !value.is_ascii() {
        return None;
    }
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grpc_timeouts_parse_by_the_spec() {
        assert_eq!(grpc_timeout("5S"), Some(Duration::from_secs(5)));
        assert_eq!(grpc_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(grpc_timeout("2H"), Some(Duration::from_secs(7200)));
        assert_eq!(grpc_timeout("99999999n"), Some(Duration::from_nanos(99_999_999)));
        for bad in ["", "S", "5", "5s", "123456789S", "-1S", "1.5S", "é"] {
            assert_eq!(grpc_timeout(bad), None, "{bad:?}");
        }
    }
}
