//! The service's counters and histograms, written in Prometheus' text
//! exposition format (version 0.0.4) at `/metrics`.
//!
//! Labels: `op` is the operation as the CLI's summary names it (`verify
//! ed25519 --policy zip215`), `backend` what ran a batch (`cpu`, `gpu`,
//! `split`), `code` the HTTP status a request got (a gRPC call is counted
//! under the HTTP status its gRPC status stands for). No label ever holds an
//! input.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the batch-size histogram, in items.
const BATCH_BOUNDS: [f64; 13] = [
    1.0, 4.0, 16.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0, 65536.0, 262144.0, 1048576.0, 4194304.0, 16777216.0,
];
/// Upper bounds of the request-latency histogram, in seconds: by the
/// millisecond from 1 to 10 ms, where a batching wait of a few
/// milliseconds puts the tail, so that a p99 can be set against a bound of
/// 2 x wait + one batch.
const LATENCY_BOUNDS: [f64; 22] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.01, 0.025, 0.05, 0.1,
    0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// A cumulative histogram over fixed bounds.
#[derive(Debug, Clone)]
struct Histogram {
    bounds: &'static [f64],
    /// Observations at most `bounds[i]` (not cumulative; summed when written).
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    fn new(bounds: &'static [f64]) -> Self {
        Histogram {
            bounds,
            counts: vec![0; bounds.len()],
            sum: 0.0,
            count: 0,
        }
    }

    fn observe(&mut self, v: f64) {
        if let Some(i) = self.bounds.iter().position(|&b| v <= b) {
            self.counts[i] += 1;
        }
        self.sum += v;
        self.count += 1;
    }

    fn write(&self, out: &mut String, name: &str, labels: &str) {
        let mut cumulative = 0;
        for (bound, n) in self.bounds.iter().zip(&self.counts) {
            cumulative += n;
            let _ = writeln!(out, "{name}_bucket{{{labels},le=\"{bound}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_bucket{{{labels},le=\"+Inf\"}} {}", self.count);
        let _ = writeln!(out, "{name}_sum{{{labels}}} {}", self.sum);
        let _ = writeln!(out, "{name}_count{{{labels}}} {}", self.count);
    }
}

/// Why a request was refused before it was queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    /// The queue was full.
    Overloaded,
    /// The request was over a size limit.
    TooLarge,
    /// The bearer token was missing or wrong.
    Unauthorized,
    /// The service was shutting down.
    ShuttingDown,
    /// The request's deadline passed before its batch ran.
    Deadline,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Overloaded => "overloaded",
            Refusal::TooLarge => "too_large",
            Refusal::Unauthorized => "unauthorized",
            Refusal::ShuttingDown => "shutting_down",
            Refusal::Deadline => "deadline",
        }
    }
}

#[derive(Default)]
struct Inner {
    requests: BTreeMap<(String, u16), u64>,
    items: BTreeMap<String, u64>,
    batches: BTreeMap<(String, String), u64>,
    batch_items: BTreeMap<String, Histogram>,
    latency: BTreeMap<String, Histogram>,
    /// Per request: from its queueing to its batch's engine call.
    queued: BTreeMap<String, Histogram>,
    /// Per batch: its engine call (and its CPU re-run after a failed one).
    batch_seconds: BTreeMap<String, Histogram>,
    fallbacks: BTreeMap<String, u64>,
    refusals: BTreeMap<Refusal, u64>,
}

/// Everything `/metrics` reports but the queue depth (read when written).
#[derive(Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

impl Metrics {
    fn with(&self, f: impl FnOnce(&mut Inner)) {
        // A panic elsewhere while the lock was held leaves counters that are
        // still counters: keep counting.
        let mut inner = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut inner);
    }

    /// A request to `op` answered with HTTP status `code` after `elapsed`.
    pub fn request(&self, op: &str, code: u16, elapsed: Duration) {
        self.with(|m| {
            *m.requests.entry((op.to_string(), code)).or_default() += 1;
            m.latency
                .entry(op.to_string())
                .or_insert_with(|| Histogram::new(&LATENCY_BOUNDS))
                .observe(elapsed.as_secs_f64());
        });
    }

    /// A batch of `items` lines of `op` that `backend` ran in `took`, its
    /// requests having waited `waited` each from their queueing to the
    /// engine call.
    pub fn batch(&self, op: &str, items: usize, backend: &str, took: Duration, waited: &[Duration]) {
        self.with(|m| {
            *m.items.entry(op.to_string()).or_default() += items as u64;
            *m.batches.entry((op.to_string(), backend.to_string())).or_default() += 1;
            m.batch_items
                .entry(op.to_string())
                .or_insert_with(|| Histogram::new(&BATCH_BOUNDS))
                .observe(items as f64);
            m.batch_seconds
                .entry(op.to_string())
                .or_insert_with(|| Histogram::new(&LATENCY_BOUNDS))
                .observe(took.as_secs_f64());
            let queued = m
                .queued
                .entry(op.to_string())
                .or_insert_with(|| Histogram::new(&LATENCY_BOUNDS));
            for w in waited {
                queued.observe(w.as_secs_f64());
            }
        });
    }

    /// A batch of `op` that failed on the engine asked for and was run again on the CPU.
    pub fn fallback(&self, op: &str) {
        self.with(|m| *m.fallbacks.entry(op.to_string()).or_default() += 1);
    }

    /// A request refused for `why`.
    pub fn refused(&self, why: Refusal) {
        self.with(|m| *m.refusals.entry(why).or_default() += 1);
    }

    /// The exposition text, with the queue depth and readiness given.
    pub fn render(&self, queued_items: usize, queued_bytes: usize, ready: bool) -> String {
        let mut out = String::new();
        let m = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let head = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        head(
            &mut out,
            "batchcrypto_queue_items",
            "gauge",
            "Items accepted and not yet answered.",
        );
        let _ = writeln!(out, "batchcrypto_queue_items {queued_items}");
        head(
            &mut out,
            "batchcrypto_queue_bytes",
            "gauge",
            "Request bytes accepted and not yet answered.",
        );
        let _ = writeln!(out, "batchcrypto_queue_bytes {queued_bytes}");
        head(
            &mut out,
            "batchcrypto_ready",
            "gauge",
            "1 while the service accepts requests.",
        );
        let _ = writeln!(out, "batchcrypto_ready {}", u8::from(ready));
        head(
            &mut out,
            "batchcrypto_requests_total",
            "counter",
            "Requests answered, by operation and HTTP status.",
        );
        for ((op, code), n) in &m.requests {
            let _ = writeln!(
                out,
                "batchcrypto_requests_total{{op=\"{}\",code=\"{code}\"}} {n}",
                escape(op)
            );
        }
        head(
            &mut out,
            "batchcrypto_items_total",
            "counter",
            "Lines run in batches, by operation.",
        );
        for (op, n) in &m.items {
            let _ = writeln!(out, "batchcrypto_items_total{{op=\"{}\"}} {n}", escape(op));
        }
        head(
            &mut out,
            "batchcrypto_batches_total",
            "counter",
            "Batches run, by operation and backend.",
        );
        for ((op, backend), n) in &m.batches {
            let _ = writeln!(
                out,
                "batchcrypto_batches_total{{op=\"{}\",backend=\"{}\"}} {n}",
                escape(op),
                escape(backend)
            );
        }
        head(
            &mut out,
            "batchcrypto_batch_items",
            "histogram",
            "Lines per batch, by operation.",
        );
        for (op, h) in &m.batch_items {
            h.write(&mut out, "batchcrypto_batch_items", &format!("op=\"{}\"", escape(op)));
        }
        head(
            &mut out,
            "batchcrypto_request_seconds",
            "histogram",
            "Request latency, by operation.",
        );
        for (op, h) in &m.latency {
            h.write(
                &mut out,
                "batchcrypto_request_seconds",
                &format!("op=\"{}\"", escape(op)),
            );
        }
        for (name, help, histograms) in [
            (
                "batchcrypto_queue_seconds",
                "Time from a request's queueing to its batch's engine call, by operation.",
                &m.queued,
            ),
            (
                "batchcrypto_batch_seconds",
                "Engine time per batch (a CPU re-run after a failure included), by operation.",
                &m.batch_seconds,
            ),
        ] {
            head(&mut out, name, "histogram", help);
            for (op, h) in histograms {
                h.write(&mut out, name, &format!("op=\"{}\"", escape(op)));
            }
        }
        head(
            &mut out,
            "batchcrypto_gpu_fallbacks_total",
            "counter",
            "Batches re-run on the CPU after the engine asked for failed.",
        );
        for (op, n) in &m.fallbacks {
            let _ = writeln!(out, "batchcrypto_gpu_fallbacks_total{{op=\"{}\"}} {n}", escape(op));
        }
        head(
            &mut out,
            "batchcrypto_refusals_total",
            "counter",
            "Requests refused before they ran, by reason.",
        );
        for (why, n) in &m.refusals {
            let _ = writeln!(out, "batchcrypto_refusals_total{{reason=\"{}\"}} {n}", why.label());
        }
        out
    }
}

/// A label value with `\`, `"` and newlines escaped.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let mut h = Histogram::new(&BATCH_BOUNDS);
        for v in [1.0, 3.0, 4.0, 100.0, 1e9] {
            h.observe(v);
        }
        let mut out = String::new();
        h.write(&mut out, "x", "op=\"a\"");
        assert!(out.contains("x_bucket{op=\"a\",le=\"1\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{op=\"a\",le=\"4\"} 3\n"), "{out}");
        assert!(out.contains("x_bucket{op=\"a\",le=\"256\"} 4\n"), "{out}");
        assert!(out.contains("x_bucket{op=\"a\",le=\"16777216\"} 4\n"), "{out}");
        assert!(out.contains("x_bucket{op=\"a\",le=\"+Inf\"} 5\n"), "{out}");
        assert!(out.contains("x_count{op=\"a\"} 5\n"), "{out}");
    }

    #[test]
    fn labels_are_escaped() {
        let m = Metrics::default();
        m.batch(
            "verify sr25519 --context \"a\\b\"",
            3,
            "cpu",
            Duration::from_micros(700),
            &[Duration::from_micros(1500), Duration::from_micros(2500)],
        );
        let text = m.render(0, 0, true);
        assert!(
            text.contains("batchcrypto_items_total{op=\"verify sr25519 --context \\\"a\\\\b\\\"\"} 3"),
            "{text}"
        );
        // The batch's engine time and each request's wait in their
        // millisecond buckets.
        let op = "op=\"verify sr25519 --context \\\"a\\\\b\\\"\"";
        for line in [
            format!("batchcrypto_batch_seconds_bucket{{{op},le=\"0.0005\"}} 0"),
            format!("batchcrypto_batch_seconds_bucket{{{op},le=\"0.001\"}} 1"),
            format!("batchcrypto_queue_seconds_bucket{{{op},le=\"0.001\"}} 0"),
            format!("batchcrypto_queue_seconds_bucket{{{op},le=\"0.002\"}} 1"),
            format!("batchcrypto_queue_seconds_bucket{{{op},le=\"0.003\"}} 2"),
        ] {
            assert!(text.contains(&(line + "\n")), "{text}");
        }
    }
}
