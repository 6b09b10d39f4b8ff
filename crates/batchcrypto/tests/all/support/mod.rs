//! The shared test harness: every backend this build can use, each compared
//! with the oracle through the same helpers, and the public vector files.
//!
//! A new backend plugs in by appearing in [`engines`]; every test that loops
//! over `engines()` then runs on it too.

#![allow(dead_code)]

pub mod eip2537;

use std::io::Write;
use std::path::PathBuf;

/// A notice on the real stderr: libtest captures `eprintln!`, not this, so
/// a skipped part of the suite is visible in every run.
pub fn notice(text: &str) {
    let _ = writeln!(std::io::stderr(), "note: {text}");
}

use batchcrypto::ops::ed25519::{self, Batch, Policy, oracle};
use batchcrypto::{BackendChoice, Engine, Error, Verdict};

/// Every engine to test: the CPU backend with all cores and with one and
/// three threads (other chunkings), and the GPU backend where an adapter
/// exists, also opened without `SHADER_INT64` ("gpu-no-int64"). With `BATCHCRYPTO_REQUIRE_GPU=1` a missing GPU fails the tests.
/// Built once per test binary (a GPU engine compiles its pipelines once).
pub fn engines() -> &'static [(String, Engine)] {
    static ENGINES: std::sync::OnceLock<Vec<(String, Engine)>> = std::sync::OnceLock::new();
    ENGINES.get_or_init(build_engines)
}

fn build_engines() -> Vec<(String, Engine)> {
    let mut engines = vec![
        ("cpu".to_string(), cpu_engine(None)),
        ("cpu-1-thread".to_string(), cpu_engine(Some(1))),
        ("cpu-3-threads".to_string(), cpu_engine(Some(3))),
    ];
    match Engine::builder().backend(BackendChoice::Gpu).build() {
        Ok(engine) => {
            notice(&format!(
                "GPU tests run on {}",
                engine.gpu_adapter().unwrap_or_default()
            ));
            engines.push(("gpu".to_string(), engine));
            // The same adapter opened as one without SHADER_INT64 would be:
            // Keccak on 32-bit lane pairs, Ed25519 handed to the CPU.
            let lane32 = Engine::builder()
                .backend(BackendChoice::Gpu)
                .shader_int64(false)
                .build()
                .expect("the adapter opens without SHADER_INT64 too");
            engines.push(("gpu-no-int64".to_string(), lane32));
        }
        Err(Error::BackendUnavailable { reason, .. }) => {
            if std::env::var("BATCHCRYPTO_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("BATCHCRYPTO_REQUIRE_GPU=1 but no GPU backend: {reason}");
            }
            notice(&format!("GPU tests skipped: {reason}"));
        }
        Err(e) => panic!("building the GPU engine failed: {e}"),
    }
    engines
}

/// The backend engine `name` must have run on: the GPU for the GPU engines,
/// except for kernels that need `SHADER_INT64` on "gpu-no-int64" (which
/// hands them to the CPU).
pub fn expected_backend(name: &str, needs_int64: bool) -> &'static str {
    match name {
        "gpu" => "gpu",
        "gpu-no-int64" if !needs_int64 => "gpu",
        _ => "cpu",
    }
}

/// Every engine's output for `call` (one operation's call on it), each
/// engine checked to have run where it should ([`expected_backend`], the
/// operation's kernel needing `SHADER_INT64`).
pub fn on_every_engine<T>(call: impl Fn(&Engine) -> batchcrypto::Outcome<T>) -> Vec<(&'static str, T)> {
    on_every_engine_with(true, call)
}

/// [`on_every_engine`] for `op`, which may have no GPU kernel
/// (`OpSpec::gpu_kernel`): every engine then runs it on the CPU.
pub fn on_every_engine_of<T>(
    op: batchcrypto::Op,
    call: impl Fn(&Engine) -> batchcrypto::Outcome<T>,
) -> Vec<(&'static str, T)> {
    on_every_engine_with(batchcrypto::registry::spec(op).gpu_kernel, call)
}

fn on_every_engine_with<T>(kernel: bool, call: impl Fn(&Engine) -> batchcrypto::Outcome<T>) -> Vec<(&'static str, T)> {
    engines()
        .iter()
        .map(|(name, engine)| {
            let out = call(engine);
            let want = if kernel { expected_backend(name, true) } else { "cpu" };
            assert_eq!(out.selection.backend.name(), want, "{name}: {}", out.selection);
            (name.as_str(), out.output)
        })
        .collect()
}

/// Every engine's answers of `call` over `items` (a batch of byte items)
/// equal `want`, item by item and in number, each engine checked to have
/// run where it should ([`expected_backend`], the kernel needing
/// `SHADER_INT64`): the ops answering an address per item
/// (`tx_sender`, `eip7702_authority`) on the `ecrecover` kernel.
pub fn assert_addresses(
    items: &[Vec<u8>],
    want: &[Result<[u8; 20], batchcrypto::Reason>],
    what: &str,
    call: impl Fn(&Engine, &batchcrypto::FlatBytes) -> batchcrypto::Outcome<Vec<Result<[u8; 20], batchcrypto::Reason>>>,
) {
    let mut b = batchcrypto::FlatBytes::new();
    for it in items {
        assert!(b.push(it));
    }
    for (name, out) in on_every_engine(|e| call(e, &b)) {
        assert_each(&format!("{name}: {what}"), &out, want, |g, w| g == w);
    }
}

/// A CPU engine with `threads` threads (default: all cores).
pub fn cpu_engine(threads: Option<usize>) -> Engine {
    let mut builder = Engine::builder().backend(BackendChoice::Cpu);
    if let Some(t) = threads {
        builder = builder.threads(t);
    }
    builder.build().expect("cpu engine")
}

/// The folder of public vectors: `BATCHCRYPTO_VECTORS`, else the
/// repository's `testdata/` (the files the tests use, copied from
/// ../shared/vectors with their provenance and licences). `None` (with a
/// notice) when it is missing, unless `BATCHCRYPTO_REQUIRE_VECTORS=1` (CI),
/// where a missing folder fails.
pub fn vectors_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("BATCHCRYPTO_VECTORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata")));
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("BATCHCRYPTO_REQUIRE_VECTORS").as_deref() == Ok("1") {
        panic!("BATCHCRYPTO_REQUIRE_VECTORS=1 but {} is not a folder", dir.display());
    }
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        notice(&format!(
            "public vectors not found at {} (set BATCHCRYPTO_VECTORS); vector tests skipped",
            dir.display()
        ))
    });
    None
}

/// The JSON file at `path` under [`vectors_dir`]; `None` as it (a file that
/// cannot be read or parsed fails the test).
pub fn vectors_json(path: &str) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(vectors_dir()?.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}")))
}

/// One item given as raw parts (keys and signatures of any length, so that
/// vector files with wrong-length fields can be represented; those are
/// rejected before reaching the engine, like the CLI does).
#[derive(Debug, Clone)]
pub struct RawItem {
    pub label: String,
    pub pk: Vec<u8>,
    pub sig: Vec<u8>,
    pub msg: Vec<u8>,
}

/// Builds a batch from the items whose field lengths fit.
pub fn batch_of(items: &[RawItem]) -> (Batch, Vec<&RawItem>) {
    let mut batch = Batch::new();
    let mut kept = Vec::new();
    for item in items {
        let (Ok(pk), Ok(sig)) = (
            <[u8; ed25519::PK_LEN]>::try_from(item.pk.as_slice()),
            <[u8; ed25519::SIG_LEN]>::try_from(item.sig.as_slice()),
        ) else {
            continue;
        };
        batch.push(&pk, &sig, &item.msg).expect("small batch");
        kept.push(item);
    }
    (batch, kept)
}

/// The comparison every op's tests share: `got` holds exactly one answer
/// per item of `want` (a backend that dropped or added items fails here),
/// and each agrees with the oracle's by `same`; `what` names the engine
/// and case in the message.
pub fn assert_each<G: std::fmt::Debug, W: std::fmt::Debug>(
    what: &str,
    got: &[G],
    want: &[W],
    same: impl Fn(&G, &W) -> bool,
) {
    assert_eq!(got.len(), want.len(), "{what}: one answer per item");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(same(g, w), "{what}: item {i}: got {g:?}, the oracle says {w:?}");
    }
}

/// A GPU engine for the tests that need one; `None` (with a notice) where
/// there is none, unless `BATCHCRYPTO_REQUIRE_GPU=1`, where that fails.
pub fn gpu_engine() -> Option<&'static Engine> {
    let gpu = engines().iter().find(|(n, _)| n == "gpu").map(|(_, e)| e);
    if gpu.is_none() {
        notice("no GPU: test skipped");
    }
    gpu
}

/// Runs `batch` on every engine under `policy`, asserts each verdict equals
/// the oracle's and that every engine gives the same reason codes. Returns
/// the verdicts (of the first engine).
pub fn assert_matches_oracle(batch: &Batch, policy: Policy, labels: &dyn Fn(usize) -> String) -> Vec<Verdict> {
    let expected: Vec<bool> = (0..batch.len())
        .map(|i| oracle::verify(policy, batch.pk(i), batch.sig(i), batch.msg(i)))
        .collect();
    let mut first: Option<(String, Vec<Verdict>)> = None;
    for (name, engine) in engines() {
        let outcome = engine.verify_ed25519(batch, policy).expect("verify");
        assert_eq!(outcome.output.len(), batch.len(), "{name}: one verdict per item");
        assert_eq!(
            outcome.selection.backend.name(),
            expected_backend(name, true),
            "{name} ran on {}",
            outcome.selection
        );
        if name == "gpu-no-int64" {
            assert!(outcome.selection.why.contains("SHADER_INT64"), "{}", outcome.selection);
        }
        for (i, verdict) in outcome.output.iter().enumerate() {
            assert_eq!(
                verdict.is_valid(),
                expected[i],
                "{name} {policy}: item {i} ({}) verdict {verdict:?}, oracle says {}\n pk {}\n sig {}\n msg {}",
                labels(i),
                expected[i],
                hex::encode(batch.pk(i)),
                hex::encode(batch.sig(i)),
                hex::encode(batch.msg(i)),
            );
        }
        match &first {
            None => first = Some((name.clone(), outcome.output)),
            Some((first_name, first_verdicts)) => {
                assert_eq!(
                    first_verdicts, &outcome.output,
                    "{name} and {first_name} disagree on reasons"
                );
            }
        }
    }
    first.expect("at least the cpu engine").1
}

/// One key's items (ML-DSA's and SLH-DSA's item type): a message of each
/// length of `msg_lens` (bytes `b * 7 + i` for message i), the contexts'
/// lengths taken in turn from `ctx_lens` (bytes 0xc5), each signed by
/// `sign(msg, ctx)`; before each non-empty message's item the same with
/// the message's last byte flipped (kind "wrong_message").
pub fn signed_with_contexts(
    pk: &[u8],
    msg_lens: &[usize],
    ctx_lens: &[usize],
    sign: impl Fn(&[u8], &[u8]) -> Vec<u8>,
) -> Vec<batchcrypto::ops::mldsa::sample::Item> {
    let mut out = Vec::new();
    for (i, &len) in msg_lens.iter().enumerate() {
        let msg: Vec<u8> = (0..len).map(|b| (b * 7 + i) as u8).collect();
        let ctx = vec![0xc5u8; ctx_lens[i % ctx_lens.len()]];
        let sig = sign(&msg, &ctx);
        let item = batchcrypto::ops::mldsa::sample::Item {
            pk: pk.to_vec(),
            msg,
            sig,
            ctx,
            kind: "valid",
        };
        if let Some(last) = item.msg.len().checked_sub(1) {
            let mut bad = item.clone();
            bad.msg[last] ^= 1;
            bad.kind = "wrong_message";
            out.push(bad);
        }
        out.push(item);
    }
    out
}
