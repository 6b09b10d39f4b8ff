//! sr25519 against schnorrkel on every engine: generated honest and hostile
//! items (marker bit cleared, s >= l, non-canonical keys, another context,
//! bit flips) item by item with the reason each kind must give, the
//! context honoured; hostile Ristretto encodings, edge scalars, and
//! messages and contexts across STROBE's 166-byte blocks, every engine
//! against the CPU path reason for reason; each engine having run where it
//! should (the GPU kernel needs SHADER_INT64).

use crate::support::{assert_each, on_every_engine};
use batchcrypto::ops::sr25519::{self, DEFAULT_CONTEXT, oracle, sample};
use batchcrypto::{Reason, Verdict};
use curve25519_dalek::Scalar;
use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Every engine's verdicts on `batch` under `ctx`, each checked to have
/// run where it should.
fn every_engine(batch: &sr25519::Batch, ctx: &[u8]) -> Vec<(&'static str, Vec<Verdict>)> {
    on_every_engine(|engine| engine.verify_sr25519(batch, ctx).expect("verify"))
}

#[test]
fn generated_items_match_the_oracle() {
    // 3000 items with 2% hostile: the CPU path's batch checks fail and bisect.
    for (count, share, seed) in [(400, 0.6, 1), (64, 0.0, 2), (80, 1.0, 3), (1, 1.0, 4), (3000, 0.02, 6)] {
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
        for (name, output) in every_engine(&batch, DEFAULT_CONTEXT) {
            assert_each(&format!("{name} share {share}"), &output, &want, |v, w| {
                v.is_valid() == *w
            });
            for (item, v) in items.iter().zip(&output) {
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
                None => first = Some(output),
                Some(f) => assert_eq!(f, &output, "{name}: reasons differ between engines"),
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
    for (name, other) in every_engine(&batch, b"polkadot") {
        assert!(
            other.iter().all(|v| v.reason() == Some(Reason::Equation)),
            "{name}: {other:?}"
        );
    }
    for (name, right) in every_engine(&batch, DEFAULT_CONTEXT) {
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

/// p = 2^255 - 19, little-endian.
const P: [u8; 32] = {
    let mut p = [0xff; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    p
};

/// `value` as a signature's s half with schnorrkel's marker bit.
fn marked(s: [u8; 32]) -> [u8; 32] {
    let mut s = s;
    s[31] |= 0x80;
    s
}

/// Keys that are not canonical Ristretto encodings or not points, keys
/// that are (the identity among them), edge scalars, R that is not an
/// encoding, and honest items with messages and contexts across STROBE's
/// 166-byte blocks: every engine gives the CPU path's verdicts reason for
/// reason, and those agree with schnorrkel.
#[test]
fn hostile_encodings_and_transcript_lengths_match_the_cpu_path() {
    let mut rng = StdRng::seed_from_u64(17);
    let signer = sample::keypair([7; 32]);
    let sign = |ctx: &[u8], msg: &[u8], seed: u64| sample::sign(&signer, ctx, msg, seed);
    for ctx in [&b""[..], DEFAULT_CONTEXT, &[0xa5; 170][..], &[3; 400][..]] {
        let mut items: Vec<sample::Item> = Vec::new();
        let mut push = |pk: [u8; 32], sig: [u8; 64], msg: Vec<u8>, kind: &'static str| {
            items.push(sample::Item { pk, sig, msg, kind });
        };
        let pk = signer.public.to_bytes();
        // Honest items, messages of 0 to 340 bytes and two long ones.
        for len in (0..=340).chain([1000, 4000]) {
            let msg: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let sig = sign(ctx, &msg, len as u64);
            push(pk, sig, msg, "honest");
        }
        let honest_sig = sign(ctx, b"m", 1);
        // Keys: non-canonical (s >= p, top bit), negative, random bytes,
        // random even bytes below 2^255, and valid points.
        let mut keys: Vec<[u8; 32]> = vec![P, [0xff; 32]];
        for k in [1u8, 2, 3, 4, 6] {
            let mut v = P;
            v[0] += k;
            keys.push(v);
        }
        let mut high = pk;
        high[31] |= 0x80;
        keys.push(high);
        let mut negative = pk;
        negative[0] |= 1;
        keys.push(negative);
        for _ in 0..64 {
            keys.push(rng.random());
            let mut even: [u8; 32] = rng.random();
            even[0] &= 0xfe;
            even[31] &= 0x7f;
            keys.push(even);
        }
        for k in 0u64..16 {
            keys.push((Scalar::from(k) * RISTRETTO_BASEPOINT_POINT).compress().to_bytes());
        }
        for key in keys {
            push(key, honest_sig, b"m".to_vec(), "key");
        }
        // The identity key: [s]B - [k]0 = [s]B, so R = [s]B verifies for any
        // message; and R that is no encoding at all.
        for _ in 0..8 {
            let s = Scalar::from_bytes_mod_order(rng.random());
            let mut sig = [0u8; 64];
            sig[..32].copy_from_slice((s * RISTRETTO_BASEPOINT_POINT).compress().as_bytes());
            sig[32..].copy_from_slice(&marked(s.to_bytes()));
            push([0; 32], sig, b"any".to_vec(), "identity_key");
            sig[..32].copy_from_slice(&P);
            push(pk, sig, b"any".to_vec(), "r_not_an_encoding");
        }
        // Edge scalars: l - 1, 2^252 (below l, past schnorrkel's fast
        // path), l, l + 1, 2^255 - 1; and no marker.
        let l_minus_1 = (-Scalar::ONE).to_bytes();
        let mut two_252 = [0u8; 32];
        two_252[31] = 0x10;
        let mut l = l_minus_1;
        l[0] += 1;
        let mut l_plus_1 = l_minus_1;
        l_plus_1[0] += 2;
        for s in [l_minus_1, two_252, l, l_plus_1, [0xff; 32]] {
            let mut sig = honest_sig;
            sig[32..].copy_from_slice(&marked(s));
            push(pk, sig, b"m".to_vec(), "edge_s");
        }
        let mut unmarked = honest_sig;
        unmarked[63] &= 0x7f;
        push(pk, unmarked, b"m".to_vec(), "unmarked");

        let batch = sample::batch(&items);
        let want: Vec<bool> = items
            .iter()
            .map(|i| oracle::verify(ctx, &i.pk, &i.sig, &i.msg))
            .collect();
        for (item, w) in items.iter().zip(&want) {
            if matches!(item.kind, "honest" | "identity_key") {
                assert!(*w, "{}: schnorrkel accepts it", item.kind);
            }
        }
        assert!(want.iter().any(|w| !w), "hostile items are rejected");
        let outputs = every_engine(&batch, ctx);
        let (_, cpu) = &outputs[0];
        assert_each(&format!("cpu, ctx of {}", ctx.len()), cpu, &want, |v, w| {
            v.is_valid() == *w
        });
        for (name, output) in &outputs {
            assert_each(&format!("{name}, ctx of {}", ctx.len()), output, cpu, |v, w| v == w);
        }
    }
}
