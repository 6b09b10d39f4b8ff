//! BIP-340 against libsecp256k1 on every engine: the 19 vectors of the BIP
//! (testdata/bip340), each with the reason its comment names, and generated
//! honest and hostile items item by item, on the GPU where one is present.

use crate::support::{assert_each, engines, vectors_dir};
use batchcrypto::Reason;
use batchcrypto::ops::bip340::{self, oracle, sample};

fn hex_bytes(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Every engine's verdicts on `batch` against `want` (by `same`), each
/// having run where it should (the GPU kernel needs SHADER_INT64, as ECDSA's).
fn check_every_engine<W: std::fmt::Debug>(
    batch: &bip340::Batch,
    want: &[W],
    same: impl Fn(&batchcrypto::Verdict, &W) -> bool + Copy,
) -> Vec<Vec<batchcrypto::Verdict>> {
    engines()
        .iter()
        .map(|(name, engine)| {
            let out = engine.verify_bip340(batch).expect("verify");
            assert_eq!(
                out.selection.backend.name(),
                crate::support::expected_backend(name, true),
                "{name}: {}",
                out.selection
            );
            assert_each(name, &out.output, want, same);
            out.output
        })
        .collect()
}

#[test]
fn bip_340_vectors() {
    let Some(dir) = vectors_dir() else { return };
    let text = std::fs::read_to_string(dir.join("bip340/test-vectors.csv")).expect("test-vectors.csv");
    let mut batch = bip340::Batch::new();
    let mut want = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let index: usize = f[0].parse().expect("index");
        let pk: [u8; 32] = hex_bytes(f[2]).try_into().expect("32-byte key");
        let sig: [u8; 64] = hex_bytes(f[5]).try_into().expect("64-byte signature");
        let msg = hex_bytes(f[4]);
        let valid = f[6] == "TRUE";
        assert_eq!(oracle::verify(&pk, &sig, &msg), valid, "oracle, case {index}");
        // The reason each failing case's comment names.
        let reason = match index {
            5 | 14 => Some(Reason::MalformedKey),
            12 => Some(Reason::ROutOfRange),
            13 => Some(Reason::SOutOfRange),
            6..=11 => Some(Reason::Equation),
            _ => None,
        };
        assert_eq!(reason.is_none(), valid, "case {index}");
        batch.push(&pk, &sig, &msg).expect("push");
        want.push(reason);
    }
    assert_eq!(want.len(), 19);
    check_every_engine(&batch, &want, |v, w| v.reason() == *w);
}

#[test]
fn generated_items_match_the_oracle() {
    for (count, share, seed) in [(500, 0.5, 1), (64, 0.0, 2), (40, 1.0, 3), (1, 1.0, 4)] {
        let items = sample::generate(count, 16, share, seed);
        let batch = sample::batch(&items);
        let want: Vec<bool> = items.iter().map(|i| oracle::verify(&i.pk, &i.sig, &i.msg)).collect();
        let answers = check_every_engine(&batch, &want, |v, w| v.is_valid() == *w);
        for ((name, _), got) in engines().iter().zip(&answers) {
            for (item, v) in items.iter().zip(got) {
                let allowed: &[Option<Reason>] = match item.kind {
                    "valid" => &[None],
                    "wrong_message" | "wrong_key" => &[Some(Reason::Equation)],
                    "r_not_below_p" => &[Some(Reason::ROutOfRange)],
                    "s_not_below_n" => &[Some(Reason::SOutOfRange)],
                    "key_off_curve" | "key_not_below_p" => &[Some(Reason::MalformedKey)],
                    // A flipped bit may push r past p or s past n.
                    "flipped_sig_bit" => &[
                        Some(Reason::Equation),
                        Some(Reason::ROutOfRange),
                        Some(Reason::SOutOfRange),
                    ],
                    other => panic!("kind {other} has no expected reason here"),
                };
                assert!(allowed.contains(&v.reason()), "{name} {}: {v:?}", item.kind);
            }
            assert_eq!(got, &answers[0], "{name}: reasons differ between engines");
        }
    }
}

/// Messages across SHA-256's block and padding boundaries and longer ones
/// (the GPU hashes the challenge itself): each signed message verifies, the
/// same signature over the message with its last byte flipped does not.
#[test]
fn messages_of_many_lengths_match_the_oracle() {
    let key = secp256k1::Keypair::from_secret_bytes([9u8; 32]).expect("key");
    let pk = key.x_only_public_key().0.to_byte_array();
    let mut batch = bip340::Batch::new();
    let mut want = Vec::new();
    for len in [1usize, 55, 56, 57, 63, 64, 65, 119, 120, 121, 200, 1000, 4096] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
        let sig = secp256k1::schnorr::sign_with_aux_rand(&msg, &key, &[3u8; 32]).to_byte_array();
        let mut flipped = msg.clone();
        flipped[len - 1] ^= 1;
        for m in [&msg, &flipped] {
            batch.push(&pk, &sig, m).expect("push");
            want.push(oracle::verify(&pk, &sig, m));
        }
    }
    assert_eq!(want.iter().filter(|v| **v).count(), 13);
    check_every_engine(&batch, &want, |v, w| v.is_valid() == *w);
}
