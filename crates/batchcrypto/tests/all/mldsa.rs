//! ML-DSA-44/65/87 against the `ml-dsa` crate on every engine: every
//! Wycheproof ML-DSA verification vector (testdata/wycheproof-pq, 631
//! cases), each with the reason its flags name where they name one, and
//! generated honest and hostile items item by item; the GPU engine must
//! say it ran on the GPU (the kernel needs SHADER_INT64).

use std::collections::HashSet;

use crate::support::vectors_dir;
use batchcrypto::ops::mldsa::{self, Level, oracle, sample};
use batchcrypto::{Reason, Verdict};

fn hex_bytes(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Every engine's verdicts on `batch`, each engine having run where it
/// should and given the same verdicts and reasons.
fn on_every_engine(level: Level, batch: &mldsa::Batch) -> Vec<Verdict> {
    let mut first: Option<Vec<Verdict>> = None;
    for (name, output) in crate::support::on_every_engine(|engine| engine.verify_mldsa(level, batch).expect("verify")) {
        assert_eq!(output.len(), batch.len(), "{name}");
        match &first {
            None => first = Some(output),
            Some(f) => assert_eq!(f, &output, "{name}: verdicts or reasons differ"),
        }
    }
    first.expect("an engine")
}

/// The reason a Wycheproof case's flags name, where they name one.
fn flagged_reason(flags: &[String]) -> Option<Reason> {
    let named: Vec<Reason> = flags
        .iter()
        .filter_map(|f| match f.as_str() {
            "IncorrectPublicKeyLength" => Some(Reason::MalformedKey),
            "IncorrectSignatureLength" => Some(Reason::MalformedSignature),
            "InvalidContext" => Some(Reason::ContextTooLong),
            "InvalidHintsEncoding" => Some(Reason::MalformedHint),
            "InfinityNormViolation" => Some(Reason::ZOutOfRange),
            _ => None,
        })
        .collect();
    (named.len() == 1).then(|| named[0])
}

#[test]
fn wycheproof_vectors() {
    let Some(dir) = vectors_dir() else { return };
    let mut seen = HashSet::new();
    for level in Level::ALL {
        let n = &level.name()[7..];
        let path = dir.join(format!("wycheproof-pq/mldsa_{n}_verify_test.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file: serde_json::Value = serde_json::from_str(&text).expect("json");
        let mut batch = mldsa::Batch::new();
        let mut cases = Vec::new();
        for group in file["testGroups"].as_array().expect("groups") {
            let pk = hex_bytes(group["publicKey"].as_str().expect("publicKey"));
            for t in group["tests"].as_array().expect("tests") {
                let field = |k: &str| hex_bytes(t[k].as_str().unwrap_or(""));
                let (msg, sig, ctx) = (field("msg"), field("sig"), field("ctx"));
                let valid = match t["result"].as_str() {
                    Some("valid") => true,
                    Some("invalid") => false,
                    other => panic!("{level} case {}: result {other:?}", t["tcId"]),
                };
                assert_eq!(
                    oracle::verify(level, &pk, &msg, &sig, &ctx),
                    valid,
                    "{level} case {}: the oracle",
                    t["tcId"]
                );
                let flags: Vec<String> = serde_json::from_value(t["flags"].clone()).expect("flags");
                batch.push(&pk, &msg, &sig, &ctx).expect("push");
                cases.push((t["tcId"].clone(), valid, flagged_reason(&flags)));
            }
        }
        let got = on_every_engine(level, &batch);
        assert_eq!(got.len(), cases.len());
        for (v, (id, valid, reason)) in got.iter().zip(&cases) {
            assert_eq!(v.is_valid(), *valid, "{level} case {id}: {v:?}");
            if let Some(r) = reason {
                assert_eq!(v.reason(), Some(*r), "{level} case {id}");
            }
            seen.extend(v.reason());
        }
    }
    for r in [
        Reason::MalformedKey,
        Reason::MalformedSignature,
        Reason::ContextTooLong,
        Reason::MalformedHint,
        Reason::ZOutOfRange,
        Reason::Equation,
    ] {
        assert!(seen.contains(&r), "{r:?} not covered by the vectors");
    }
}

/// Generated items at every level: each verdict the oracle's, each hostile
/// kind with its reason, on every engine.
#[test]
fn generated_items_match_the_oracle() {
    for level in Level::ALL {
        let items = sample::generate(level, 120, 6, 0.5, 11);
        let mut batch = mldsa::Batch::new();
        for it in &items {
            batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).expect("push");
        }
        let got = on_every_engine(level, &batch);
        let mut kinds = HashSet::new();
        for (i, (it, v)) in items.iter().zip(&got).enumerate() {
            let want = oracle::verify(level, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(v.is_valid(), want, "{level} item {i} ({})", it.kind);
            let allowed: &[Option<Reason>] = match it.kind {
                "valid" => &[None],
                "wrong_message" | "wrong_context" | "wrong_key" => &[Some(Reason::Equation)],
                "flipped_sig_bit" => &[
                    Some(Reason::MalformedHint),
                    Some(Reason::ZOutOfRange),
                    Some(Reason::Equation),
                ],
                "malformed_hint" => &[Some(Reason::MalformedHint)],
                "z_out_of_range" => &[Some(Reason::ZOutOfRange)],
                "short_key" => &[Some(Reason::MalformedKey)],
                "short_signature" => &[Some(Reason::MalformedSignature)],
                "context_too_long" => &[Some(Reason::ContextTooLong)],
                other => panic!("kind {other} has no expected reason here"),
            };
            assert!(allowed.contains(&v.reason()), "{level} item {i} ({}): {v:?}", it.kind);
            kinds.insert(it.kind);
        }
        assert_eq!(kinds.len(), sample::HOSTILE.len() + 1, "{level}: every kind drawn");
    }
}

/// Messages and contexts of lengths around SHAKE256's 136-byte blocks (mu
/// absorbs tr, 64 bytes, then 0 || |ctx| || ctx || M), signed and with
/// the message's last byte flipped, at the smallest and largest level:
/// every engine answers as the oracle.
#[test]
fn message_and_context_lengths_across_blocks() {
    use ml_dsa::{ExpandedSigningKey, MlDsa44, MlDsa87, MlDsaParams};

    fn items<P: MlDsaParams>() -> Vec<sample::Item> {
        let key = ExpandedSigningKey::<P>::from_seed(&[9u8; 32].into());
        let pk = key.verifying_key().encode().to_vec();
        let msg_lens = [
            0, 1, 2, 3, 4, 5, 67, 68, 69, 70, 71, 72, 134, 135, 136, 137, 138, 204, 205, 206, 207, 208, 270, 271, 272,
            273, 274, 400, 1000, 4001,
        ];
        let ctx_lens = [0, 1, 3, 66, 255];
        crate::support::signed_with_contexts(&pk, &msg_lens, &ctx_lens, |msg, ctx| {
            key.sign_deterministic(msg, ctx).expect("sign").encode().to_vec()
        })
    }

    for (level, items) in [
        (Level::Mldsa44, items::<MlDsa44>()),
        (Level::Mldsa87, items::<MlDsa87>()),
    ] {
        let mut batch = mldsa::Batch::new();
        for it in &items {
            batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).expect("push");
        }
        let got = on_every_engine(level, &batch);
        let mut valid = 0;
        for (i, (it, v)) in items.iter().zip(&got).enumerate() {
            let want = oracle::verify(level, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(
                v.is_valid(),
                want,
                "{level} item {i} ({}, message {} bytes)",
                it.kind,
                it.msg.len()
            );
            assert_eq!(want, it.kind == "valid", "{level} item {i}");
            valid += usize::from(want);
        }
        assert_eq!(valid, 30, "{level}: every honest item verifies");
    }
}
