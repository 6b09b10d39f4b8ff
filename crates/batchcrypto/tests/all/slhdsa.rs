//! SLH-DSA in all twelve parameter sets against the `slh-dsa` crate on
//! every engine: generated honest and hostile items item by item with
//! their reasons, and messages and contexts of lengths around the hash
//! blocks of H_msg; the GPU engine must say it ran on the GPU. NIST's
//! ACVP vectors are run on the device by the GPU path's unit test
//! (ops/slhdsa/gpu.rs), through the internal interface they test.

use std::collections::HashSet;

use batchcrypto::ops::slhdsa::{self, Set, oracle, sample};
use batchcrypto::{Reason, Verdict};

/// Every engine's verdicts on `batch`, each engine having run where it
/// should and given the same verdicts and reasons.
fn on_every_engine(set: Set, batch: &slhdsa::Batch) -> Vec<Verdict> {
    let mut first: Option<Vec<Verdict>> = None;
    for (name, output) in crate::support::on_every_engine(|engine| engine.verify_slhdsa(set, batch).expect("verify")) {
        assert_eq!(output.len(), batch.len(), "{name}");
        match &first {
            None => first = Some(output),
            Some(f) => assert_eq!(f, &output, "{set} {name}: verdicts or reasons differ"),
        }
    }
    first.expect("an engine")
}

/// Generated items in every set: each verdict the oracle's, each hostile
/// kind with its reason, on every engine.
#[test]
fn generated_items_match_the_oracle() {
    let mut kinds = HashSet::new();
    for (k, set) in Set::ALL.into_iter().enumerate() {
        let items = sample::generate(set, 24, 0.6, 11 + k as u64);
        let mut batch = slhdsa::Batch::new();
        for it in &items {
            batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).expect("push");
        }
        let got = on_every_engine(set, &batch);
        for (i, (it, v)) in items.iter().zip(&got).enumerate() {
            let want = oracle::verify(set, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(v.is_valid(), want, "{set} item {i} ({})", it.kind);
            let reason = match it.kind {
                "valid" => None,
                "short_key" => Some(Reason::MalformedKey),
                "short_signature" | "long_signature" => Some(Reason::MalformedSignature),
                "context_too_long" => Some(Reason::ContextTooLong),
                _ => Some(Reason::Equation),
            };
            assert_eq!(v.reason(), reason, "{set} item {i} ({})", it.kind);
            kinds.insert(it.kind);
        }
    }
    assert_eq!(kinds.len(), sample::HOSTILE.len() + 1, "every kind drawn: {kinds:?}");
}

/// Messages and contexts of lengths around the blocks H_msg hashes them
/// in (SHAKE256's 136 bytes; SHA-256's 64 and SHA-512's 128, after R,
/// PK.seed and PK.root), signed and with the message's last byte
/// flipped, in a SHAKE set and the SHA2 sets of both hash widths: every
/// engine answers as the oracle.
#[test]
fn message_and_context_lengths_across_blocks() {
    use slh_dsa::signature::Keypair;
    use slh_dsa::{ParameterSet, SigningKey};

    fn items<P: ParameterSet>(n: usize) -> Vec<sample::Item> {
        let seeds: Vec<u8> = (0..3 * n as u8).collect();
        let key = SigningKey::<P>::slh_keygen_internal(&seeds[..n], &seeds[n..2 * n], &seeds[2 * n..]);
        let pk = key.verifying_key().to_vec();
        let msg_lens = [
            0, 1, 15, 16, 17, 55, 56, 63, 64, 65, 87, 88, 89, 127, 128, 129, 136, 1000,
        ];
        let ctx_lens = [0, 1, 255];
        crate::support::signed_with_contexts(&pk, &msg_lens, &ctx_lens, |msg, ctx| {
            key.try_sign_with_context(msg, ctx, None).expect("sign").to_vec()
        })
    }

    for (set, items) in [
        (Set::Shake128f, items::<slh_dsa::Shake128f>(16)),
        (Set::Sha2_128f, items::<slh_dsa::Sha2_128f>(16)),
        (Set::Sha2_192f, items::<slh_dsa::Sha2_192f>(24)),
    ] {
        let mut batch = slhdsa::Batch::new();
        for it in &items {
            batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).expect("push");
        }
        let got = on_every_engine(set, &batch);
        let mut valid = 0;
        for (i, (it, v)) in items.iter().zip(&got).enumerate() {
            let want = oracle::verify(set, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(
                v.is_valid(),
                want,
                "{set} item {i} ({}, message {} bytes)",
                it.kind,
                it.msg.len()
            );
            assert_eq!(want, it.kind == "valid", "{set} item {i}");
            valid += usize::from(want);
        }
        assert_eq!(valid, 18, "{set}: every honest item verifies");
    }
}
