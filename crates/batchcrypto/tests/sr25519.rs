//! sr25519 against schnorrkel on every engine: generated honest and hostile
//! items (marker bit cleared, s >= l, non-canonical keys, another context,
//! bit flips) item by item with the reason each kind must give, the
//! context honoured, and the GPU engines saying they ran it on the CPU.

mod support;

use batchcrypto::Reason;
use batchcrypto::ops::sr25519::{self, DEFAULT_CONTEXT, oracle, sample};
use support::{assert_each, engines};

#[test]
fn generated_items_match_the_oracle() {
    for (count, share, seed) in [(400, 0.6, 1), (64, 0.0, 2), (80, 1.0, 3), (1, 1.0, 4)] {
        let items = sample::generate(count, 8, share, seed);
        let batch = sample::batch(&items);
        let want: Vec<bool> = items
            .iter()
            .map(|i| oracle::verify(DEFAULT_CONTEXT, &i.pk, &i.sig, &i.msg))
            .collect();
        assert_eq!(
            want.iter().filter(|v| **v).count(),
            items.iter().filter(|i| i.kind == "valid").count(),
            "every honest item and no hostile one verifies"
        );
        let mut first = None;
        for (name, engine) in engines() {
            let out = engine.verify_sr25519(&batch, DEFAULT_CONTEXT).expect("verify");
            assert_eq!(out.selection.backend, batchcrypto::Backend::Cpu, "{name}");
            assert_each(&format!("{name} share {share}"), &out.output, &want, |v, w| {
                v.is_valid() == *w
            });
            for (item, v) in items.iter().zip(&out.output) {
                let allowed: &[Option<Reason>] = match item.kind {
                    "valid" => &[None],
                    "wrong_message" | "wrong_context" | "wrong_key" => &[Some(Reason::Equation)],
                    "marker_cleared" | "s_not_canonical" => &[Some(Reason::MalformedSignature)],
                    "key_not_canonical" => &[Some(Reason::MalformedKey)],
                    // A flipped bit may break the encoding or the equation.
                    "flipped_sig_bit" => &[Some(Reason::Equation), Some(Reason::MalformedSignature)],
                    "flipped_key_bit" => &[Some(Reason::Equation), Some(Reason::MalformedKey)],
                    other => panic!("kind {other} has no expected reason here"),
                };
                assert!(allowed.contains(&v.reason()), "{name} {}: {v:?}", item.kind);
            }
            match &first {
                None => first = Some(out.output),
                Some(f) => assert_eq!(f, &out.output, "{name}: reasons differ between engines"),
            }
        }
    }
}

/// The signing context is part of the message: honest items verify under
/// `substrate` only.
#[test]
fn the_context_is_honoured() {
    let items = sample::generate(50, 4, 0.0, 9);
    let batch = sample::batch(&items);
    for (name, engine) in engines() {
        let other = engine.verify_sr25519(&batch, b"polkadot").expect("verify").output;
        assert!(
            other.iter().all(|v| v.reason() == Some(Reason::Equation)),
            "{name}: {other:?}"
        );
        let right = engine.verify_sr25519(&batch, DEFAULT_CONTEXT).expect("verify").output;
        assert!(right.iter().all(|v| v.is_valid()), "{name}");
    }
}

/// Every hostile kind occurs in a large sample, so the reason table above
/// is exercised.
#[test]
fn every_hostile_kind_is_generated() {
    let items = sample::generate(2000, 8, 1.0, 5);
    for kind in sr25519::sample::HOSTILE {
        assert!(items.iter().any(|i| i.kind == kind), "{kind}");
    }
}
