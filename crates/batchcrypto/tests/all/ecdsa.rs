//! ECDSA (secp256k1 verify, ecrecover, P-256 verify) on every engine against
//! the oracles and the public vectors: Wycheproof's secp256k1 (P1363, DER
//! and the Bitcoin DER rules) and secp256r1 (P1363 and DER) sets,
//! go-ethereum's `ecRecover.json` and `p256Verify.json`; generated honest
//! and hostile items with and without the low-s rule, in r ‖ s and in DER
//! (some encodings spoiled).

use crate::support::{engines, expected_backend, vectors_dir};
use batchcrypto::Reason;
use batchcrypto::Selection;
use batchcrypto::ops::ecdsa::{self, K1Key, K1VerifyItem, P256Item, RecoverItem, oracle, sample};
use batchcrypto::ops::hash::{Alg, oracle as hash_oracle};

/// Asserts the engine ran where it should: the GPU kernel needs SHADER_INT64.
fn ran(name: &str, selection: &Selection) {
    assert_eq!(
        selection.backend.name(),
        expected_backend(name, true),
        "{name}: {selection}"
    );
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

fn json(path: &str) -> Option<serde_json::Value> {
    let dir = vectors_dir()?;
    let text = std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    Some(serde_json::from_str(&text).expect("json"))
}

fn k1_verdicts_match(items: &[K1VerifyItem], low_s: bool, want: &[bool], what: &str) {
    for (name, engine) in engines() {
        let out = engine.verify_secp256k1(items, low_s).expect("verify");
        ran(name, &out.selection);
        let got = out.output;
        assert_eq!(got.len(), items.len(), "{name} {what}");
        for (i, item) in items.iter().enumerate() {
            assert_eq!(
                got[i].is_valid(),
                want[i],
                "{name} {what} item {i} low_s={low_s}: {:?}",
                got[i]
            );
            assert_eq!(oracle::secp256k1_verify(item, low_s), want[i], "oracle {what} item {i}");
        }
    }
}

/// Wycheproof secp256k1 P1363 (r ‖ s): every valid and invalid case, high
/// s accepted (the default rule).
#[test]
fn wycheproof_secp256k1_p1363() {
    let Some(file) = json("wycheproof/ecdsa_secp256k1_sha256_p1363_test.json") else {
        return;
    };
    let (mut items, mut want) = (Vec::new(), Vec::new());
    for group in file["testGroups"].as_array().expect("groups") {
        let pk = K1Key::from_slice(&unhex(group["publicKey"]["uncompressed"].as_str().expect("key"))).expect("65");
        for t in group["tests"].as_array().expect("tests") {
            let valid = t["result"] == "valid";
            let Ok(sig) = <[u8; 64]>::try_from(unhex(t["sig"].as_str().expect("sig"))) else {
                assert!(!valid, "tcId {}: a valid signature must be 64 bytes", t["tcId"]);
                continue;
            };
            let hash = hash_oracle::digest(Alg::Sha256, &unhex(t["msg"].as_str().expect("msg")));
            items.push(K1VerifyItem { hash, sig, pk });
            want.push(valid);
        }
    }
    assert!(items.len() > 200);
    k1_verdicts_match(&items, false, &want, "wycheproof p1363");
}

/// One case of a Wycheproof ECDSA file.
struct Case {
    /// The group's key, uncompressed SEC1.
    key: Vec<u8>,
    /// The message's SHA-256.
    hash: [u8; 32],
    /// The signature as given.
    sig: Vec<u8>,
    /// Whether it is valid (the files hold no `acceptable` case).
    valid: bool,
}

/// Every case of a Wycheproof ECDSA file.
fn wycheproof_cases(path: &str) -> Option<Vec<Case>> {
    let file = json(path)?;
    let mut cases = Vec::new();
    for group in file["testGroups"].as_array().expect("groups") {
        let key = unhex(group["publicKey"]["uncompressed"].as_str().expect("key"));
        for t in group["tests"].as_array().expect("tests") {
            assert_ne!(t["result"], "acceptable", "tcId {}", t["tcId"]);
            cases.push(Case {
                key: key.clone(),
                hash: hash_oracle::digest(Alg::Sha256, &unhex(t["msg"].as_str().expect("msg"))),
                sig: unhex(t["sig"].as_str().expect("sig")),
                valid: t["result"] == "valid",
            });
        }
    }
    Some(cases)
}

/// A P-256 item with its signature in DER: hash, DER, x, y.
type P256Der = ([u8; 32], Vec<u8>, [u8; 32], [u8; 32]);

/// secp256k1 signatures in DER (hash, DER, key) through every engine's
/// reading and verification: each verdict `want`'s and libsecp256k1's
/// DER path's, one the reading refused `malformed_signature`.
fn k1_der_verdicts_match(cases: &[([u8; 32], Vec<u8>, K1Key)], low_s: bool, want: &[bool], what: &str) {
    let read: Vec<_> = cases
        .iter()
        .map(|(hash, der, pk)| K1VerifyItem::from_der(*hash, der, *pk))
        .collect();
    for (name, engine) in engines() {
        let out = engine.verify_secp256k1_read(&read, low_s).expect("verify");
        ran(name, &out.selection);
        assert_eq!(out.output.len(), cases.len(), "{name} {what}");
        for (i, ((hash, der, pk), got)) in cases.iter().zip(&out.output).enumerate() {
            assert_eq!(got.is_valid(), want[i], "{name} {what} item {i} low_s={low_s}: {got:?}");
            assert_eq!(
                oracle::secp256k1_verify_der(hash, der, pk, low_s),
                want[i],
                "oracle {what} item {i}"
            );
            if read[i].is_err() {
                assert_eq!(got.reason(), Some(Reason::MalformedSignature), "{name} {what} item {i}");
            }
        }
    }
}

/// P-256 signatures in DER (hash, DER, x, y) through every engine's
/// reading and verification: each verdict `want`'s and RustCrypto `p256`'s
/// DER path's, one the reading refused `malformed_signature`.
fn p256_der_verdicts_match(cases: &[P256Der], want: &[bool], what: &str) {
    let read: Vec<_> = cases
        .iter()
        .map(|(hash, der, x, y)| P256Item::from_der(*hash, der, *x, *y))
        .collect();
    for (name, engine) in engines() {
        let out = engine.verify_p256_read(&read).expect("verify");
        ran(name, &out.selection);
        assert_eq!(out.output.len(), cases.len(), "{name} {what}");
        for (i, ((hash, der, x, y), got)) in cases.iter().zip(&out.output).enumerate() {
            assert_eq!(got.is_valid(), want[i], "{name} {what} item {i}: {got:?}");
            assert_eq!(
                oracle::p256_verify_der(hash, der, x, y),
                want[i],
                "oracle {what} item {i}"
            );
            if read[i].is_err() {
                assert_eq!(got.reason(), Some(Reason::MalformedSignature), "{name} {what} item {i}");
            }
        }
    }
}

/// Wycheproof's secp256k1 DER set (high s valid) and its Bitcoin set
/// (strict DER and low s: BIP-66, BIP-62), every case through the DER
/// path: BER's encodings, wrong tags and lengths, integers out of range.
#[test]
fn wycheproof_secp256k1_der() {
    for (path, low_s) in [
        ("wycheproof/ecdsa_secp256k1_sha256_test.json", false),
        ("wycheproof/ecdsa_secp256k1_sha256_bitcoin_test.json", true),
    ] {
        let Some(cases) = wycheproof_cases(path) else {
            return;
        };
        assert!(cases.len() > 450, "{path}");
        let items: Vec<_> = cases
            .iter()
            .map(|c| (c.hash, c.sig.clone(), K1Key::from_slice(&c.key).expect("65")))
            .collect();
        let want: Vec<bool> = cases.iter().map(|c| c.valid).collect();
        // Most of the invalid cases are encodings the reading refuses.
        let refused = items
            .iter()
            .filter(|(_, der, _)| ecdsa::der::to_compact(der).is_err())
            .count();
        assert!(refused > 150, "{path}: {refused} refused");
        k1_der_verdicts_match(&items, low_s, &want, path);
    }
}

/// Wycheproof's P-256 DER set, every case through the DER path.
#[test]
fn wycheproof_secp256r1_der() {
    let Some(cases) = wycheproof_cases("wycheproof/ecdsa_secp256r1_sha256_test.json") else {
        return;
    };
    assert!(cases.len() > 450);
    let items: Vec<_> = cases
        .iter()
        .map(|c| {
            (
                c.hash,
                c.sig.clone(),
                c.key[1..33].try_into().expect("32"),
                c.key[33..].try_into().expect("32"),
            )
        })
        .collect();
    let want: Vec<bool> = cases.iter().map(|c| c.valid).collect();
    p256_der_verdicts_match(&items, &want, "wycheproof secp256r1 DER");
}

/// Generated items of every kind (honest and hostile r ‖ s) in DER, a
/// share of the encodings spoiled ([`sample::DER_HOSTILE`]): each verdict
/// the DER oracle's, each spoiled encoding refused for its kind's reason.
#[test]
fn generated_der_items() {
    let expected = |kind: &str| sample::DER_HOSTILE.iter().find(|(k, _)| *k == kind).map(|(_, r)| *r);
    let k1 = sample::secp256k1_verify(600, 20, 0.3, 66);
    let k1_der = sample::der(&k1.iter().map(|(i, _)| i.sig).collect::<Vec<_>>(), 0.4, 66);
    let items: Vec<_> = k1
        .iter()
        .zip(&k1_der)
        .map(|((i, _), (der, _))| (i.hash, der.clone(), i.pk))
        .collect();
    for low_s in [false, true] {
        let want: Vec<bool> = items
            .iter()
            .map(|(hash, der, pk)| oracle::secp256k1_verify_der(hash, der, pk, low_s))
            .collect();
        assert!(want.iter().filter(|&&v| v).count() > 100);
        k1_der_verdicts_match(&items, low_s, &want, "generated secp256k1");
    }
    let p256 = sample::p256_verify(600, 20, 0.3, 67);
    let sigs: Vec<[u8; 64]> = p256
        .iter()
        .map(|(i, _)| [i.r, i.s].concat().try_into().expect("64"))
        .collect();
    let p256_der = sample::der(&sigs, 0.4, 67);
    let p_items: Vec<_> = p256
        .iter()
        .zip(&p256_der)
        .map(|((i, _), (der, _))| (i.hash, der.clone(), i.x, i.y))
        .collect();
    let want: Vec<bool> = p_items
        .iter()
        .map(|(h, d, x, y)| oracle::p256_verify_der(h, d, x, y))
        .collect();
    assert!(want.iter().filter(|&&v| v).count() > 100);
    p256_der_verdicts_match(&p_items, &want, "generated P-256");
    // Every spoiled kind occurs and gets its reason, on either curve.
    let (_, engine) = &engines()[0];
    let k1_read: Vec<_> = items
        .iter()
        .map(|(h, d, pk)| K1VerifyItem::from_der(*h, d, *pk))
        .collect();
    let p_read: Vec<_> = p_items
        .iter()
        .map(|(h, d, x, y)| P256Item::from_der(*h, d, *x, *y))
        .collect();
    let k1_got = engine.verify_secp256k1_read(&k1_read, false).expect("verify").output;
    let p_got = engine.verify_p256_read(&p_read).expect("verify").output;
    let k1_kinds: Vec<&str> = k1.iter().map(|(_, k)| *k).collect();
    let p_kinds: Vec<&str> = p256.iter().map(|(_, k)| *k).collect();
    for (base, kinds, got) in [(&k1_kinds, &k1_der, &k1_got), (&p_kinds, &p256_der, &p_got)] {
        for (kind, _) in sample::DER_HOSTILE {
            assert!(kinds.iter().any(|(_, k)| *k == kind), "{kind} never drawn");
        }
        for ((base, (_, kind)), v) in base.iter().zip(kinds).zip(got) {
            // The reading's refusal comes first; an r out of range after a
            // bad key's refusal on secp256k1 (its order: key, r, s).
            match expected(kind) {
                Some(Reason::MalformedSignature) => assert_eq!(v.reason(), Some(Reason::MalformedSignature), "{kind}"),
                Some(reason) if *base == "valid" => assert_eq!(v.reason(), Some(reason), "{kind} of {base}"),
                _ => {}
            }
        }
    }
}

#[test]
fn wycheproof_secp256r1_p1363() {
    let Some(file) = json("wycheproof/ecdsa_secp256r1_sha256_p1363_test.json") else {
        return;
    };
    let (mut items, mut want) = (Vec::new(), Vec::new());
    for group in file["testGroups"].as_array().expect("groups") {
        let key = unhex(group["publicKey"]["uncompressed"].as_str().expect("key"));
        for t in group["tests"].as_array().expect("tests") {
            let valid = t["result"] == "valid";
            let sig = unhex(t["sig"].as_str().expect("sig"));
            if sig.len() != 64 {
                assert!(!valid, "tcId {}", t["tcId"]);
                continue;
            }
            items.push(P256Item {
                hash: hash_oracle::digest(Alg::Sha256, &unhex(t["msg"].as_str().expect("msg"))),
                r: sig[..32].try_into().expect("32"),
                s: sig[32..].try_into().expect("32"),
                x: key[1..33].try_into().expect("32"),
                y: key[33..].try_into().expect("32"),
            });
            want.push(valid);
        }
    }
    assert!(items.len() > 200);
    for (name, engine) in engines() {
        let out = engine.verify_p256(&items).expect("verify");
        ran(name, &out.selection);
        let got = out.output;
        for (i, item) in items.iter().enumerate() {
            assert_eq!(got[i].is_valid(), want[i], "{name} item {i}: {:?}", got[i]);
            assert_eq!(oracle::p256_verify(item), want[i], "oracle item {i}");
        }
    }
}

/// go-ethereum's ecrecover precompile cases: the address, or nothing.
#[test]
fn geth_ecrecover() {
    let Some(file) = json("eth-precompiles/ecRecover.json") else {
        return;
    };
    for case in file.as_array().expect("cases") {
        let mut input = unhex(case["Input"].as_str().expect("input"));
        input.resize(input.len().max(128), 0);
        let expected = unhex(case["Expected"].as_str().expect("expected"));
        // v is a 32-byte word: only 27 and 28 (no upper bytes) are accepted.
        if input[32..63].iter().any(|&b| b != 0) {
            assert!(expected.is_empty(), "{}", case["Name"]);
            continue;
        }
        let mut sig = [0u8; 65];
        sig[..64].copy_from_slice(&input[64..128]);
        sig[64] = input[63];
        // The precompile's v is only ever 27 or 28.
        if sig[64] != 27 && sig[64] != 28 {
            assert!(expected.is_empty(), "{}", case["Name"]);
            continue;
        }
        let item = RecoverItem {
            hash: input[..32].try_into().expect("32"),
            sig,
        };
        for (name, engine) in engines() {
            let out = engine.ecrecover(&[item], false).expect("recover");
            ran(name, &out.selection);
            let got = out.output[0];
            match &got {
                Ok(r) => assert_eq!(&expected[12..], &r.address[..], "{name} {}", case["Name"]),
                Err(reason) => assert!(expected.is_empty(), "{name} {}: {reason}", case["Name"]),
            }
        }
    }
}

/// go-ethereum's P256VERIFY (RIP-7212) cases.
#[test]
fn geth_p256_verify() {
    let Some(file) = json("eth-precompiles/p256Verify.json") else {
        return;
    };
    let (mut items, mut want, mut names) = (Vec::new(), Vec::new(), Vec::new());
    for case in file.as_array().expect("cases") {
        let input = unhex(case["Input"].as_str().expect("input"));
        let valid = case["Expected"].as_str().is_some_and(|e| e.ends_with('1'));
        if input.len() != 160 {
            assert!(!valid, "{}", case["Name"]);
            continue;
        }
        let w = |k: usize| -> [u8; 32] { input[32 * k..32 * (k + 1)].try_into().expect("32") };
        items.push(P256Item {
            hash: w(0),
            r: w(1),
            s: w(2),
            x: w(3),
            y: w(4),
        });
        want.push(valid);
        names.push(case["Name"].as_str().unwrap_or("?").to_string());
    }
    assert!(items.len() > 500);
    for (name, engine) in engines() {
        let out = engine.verify_p256(&items).expect("verify");
        ran(name, &out.selection);
        let got = out.output;
        for i in 0..items.len() {
            assert_eq!(got[i].is_valid(), want[i], "{name} {}: {:?}", names[i], got[i]);
        }
    }
}

/// Generated honest and hostile items of every kind, both low-s settings,
/// every engine: the oracle's verdict and the kind's reason.
#[test]
fn generated_secp256k1_items() {
    let items = sample::secp256k1_verify(1500, 40, 0.5, 256);
    let plain: Vec<K1VerifyItem> = items.iter().map(|(i, _)| *i).collect();
    for low_s in [false, true] {
        let want: Vec<bool> = plain.iter().map(|i| oracle::secp256k1_verify(i, low_s)).collect();
        k1_verdicts_match(&plain, low_s, &want, "generated");
        for (name, engine) in engines() {
            let got = engine.verify_secp256k1(&plain, low_s).expect("verify").output;
            assert_eq!(got.len(), items.len(), "{name}");
            for ((_, kind), v) in items.iter().zip(&got) {
                let allowed: &[Option<Reason>] = match *kind {
                    "valid" => &[None],
                    "high_s" if low_s => &[Some(Reason::HighS)],
                    "high_s" => &[None],
                    "r_zero" | "r_not_below_n" => &[Some(Reason::ROutOfRange)],
                    "s_zero" | "s_not_below_n" => &[Some(Reason::SOutOfRange)],
                    "key_off_curve" | "bad_key_prefix" => &[Some(Reason::MalformedKey)],
                    "wrong_hash" => &[Some(Reason::Equation)],
                    // A flipped bit may push r or s out of range or s above n/2.
                    "flipped_sig_bit" if low_s => &[
                        Some(Reason::Equation),
                        Some(Reason::ROutOfRange),
                        Some(Reason::SOutOfRange),
                        Some(Reason::HighS),
                    ],
                    "flipped_sig_bit" => &[
                        Some(Reason::Equation),
                        Some(Reason::ROutOfRange),
                        Some(Reason::SOutOfRange),
                    ],
                    // A flipped key bit may leave the curve or name another point.
                    "flipped_key_bit" => &[Some(Reason::MalformedKey), Some(Reason::Equation)],
                    other => panic!("kind {other} has no expected reason here"),
                };
                assert!(allowed.contains(&v.reason()), "{name} {kind} low_s={low_s}: {v:?}");
            }
        }
    }
}

/// The v of the other y parity, in the same form (27/28 or 0/1).
fn other_parity(v: u8) -> u8 {
    if v >= 27 { 55 - v } else { 1 - v }
}

#[test]
fn generated_ecrecover_items() {
    let items = sample::ecrecover(1500, 40, 0.5, 155);
    let plain: Vec<RecoverItem> = items.iter().map(|(i, _)| *i).collect();
    for low_s in [false, true] {
        for (name, engine) in engines() {
            let out = engine.ecrecover(&plain, low_s).expect("recover");
            ran(name, &out.selection);
            let got = out.output;
            assert_eq!(got.len(), items.len(), "{name}");
            for (i, ((item, kind), g)) in items.iter().zip(&got).enumerate() {
                let want = oracle::ecrecover(item, low_s);
                assert_eq!(g.as_ref().ok(), want.as_ref(), "{name} item {i} {kind} low_s={low_s}");
                let allowed: &[Option<Reason>] = match *kind {
                    // Another hash or r names another key: still an address.
                    "valid" | "wrong_hash" => &[None],
                    "high_s" if low_s => &[Some(Reason::HighS)],
                    "high_s" => &[None],
                    "bad_v" => &[Some(Reason::BadV)],
                    "r_zero" | "r_not_below_n" => &[Some(Reason::ROutOfRange)],
                    "s_zero" | "s_not_below_n" => &[Some(Reason::SOutOfRange)],
                    "random_r" => &[None, Some(Reason::RecoveryFailed)],
                    "flipped_sig_bit" => &[
                        None,
                        Some(Reason::RecoveryFailed),
                        Some(Reason::ROutOfRange),
                        Some(Reason::SOutOfRange),
                        Some(Reason::HighS),
                    ],
                    other => panic!("kind {other} has no expected reason here"),
                };
                assert!(allowed.contains(&g.err()), "{name} {kind} low_s={low_s}: {:?}", g.err());
                if *kind == "flipped_sig_bit" && !low_s {
                    assert_ne!(
                        g.err(),
                        Some(Reason::HighS),
                        "{name}: high s is accepted without --low-s"
                    );
                }
            }
        }
    }
    // A high s recovers the same address as its low twin.
    let (_, engine) = &engines()[0];
    let honest = sample::ecrecover(50, 5, 0.0, 7);
    for (item, _) in honest {
        let mut twin = item;
        twin.sig[32..64].copy_from_slice(&{
            let mut n = ecdsa::SECP256K1_N;
            // n - s
            let mut borrow = 0i16;
            for k in (0..32).rev() {
                let d = i16::from(n[k]) - i16::from(item.sig[32 + k]) - borrow;
                borrow = i16::from(d < 0);
                n[k] = (d + 256 * borrow) as u8;
            }
            n
        });
        twin.sig[64] = other_parity(twin.sig[64]);
        let got = engine.ecrecover(&[item, twin], false).expect("recover").output;
        assert_eq!(got[0].expect("honest").address, got[1].expect("twin").address);
    }
}

#[test]
fn generated_p256_items() {
    let items = sample::p256_verify(1500, 40, 0.5, 7212);
    let plain: Vec<P256Item> = items.iter().map(|(i, _)| *i).collect();
    for (name, engine) in engines() {
        let out = engine.verify_p256(&plain).expect("verify");
        ran(name, &out.selection);
        let got = out.output;
        assert_eq!(got.len(), items.len(), "{name}");
        for (i, ((item, kind), v)) in items.iter().zip(&got).enumerate() {
            assert_eq!(v.is_valid(), oracle::p256_verify(item), "{name} item {i} {kind}");
            let allowed: &[Option<Reason>] = match *kind {
                "valid" | "high_s" => &[None],
                "r_zero" | "r_not_below_n" => &[Some(Reason::ROutOfRange)],
                "s_zero" | "s_not_below_n" => &[Some(Reason::SOutOfRange)],
                "key_off_curve" | "key_infinity" => &[Some(Reason::NotOnCurve)],
                "wrong_hash" => &[Some(Reason::Equation)],
                "flipped_sig_bit" => &[
                    Some(Reason::Equation),
                    Some(Reason::ROutOfRange),
                    Some(Reason::SOutOfRange),
                ],
                other => panic!("kind {other} has no expected reason here"),
            };
            assert!(allowed.contains(&v.reason()), "{name} {kind}: {v:?}");
        }
    }
}

/// P-256 items at the edges where two implementations could part: digests
/// at and past the group order (ECDSA reduces e mod n, so a signature of
/// the digest 0 also verifies the digest n), high s, and key coordinates
/// at or past the field prime. Every engine against the oracle, and the
/// designed verdicts against what the standard says.
#[test]
fn p256_digest_and_key_edges() {
    use p256::ecdsa::signature::hazmat::PrehashSigner;
    // The field prime.
    let p: [u8; 32] = unhex("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff")
        .try_into()
        .expect("32");
    let key = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).expect("key");
    let point = key.verifying_key().to_sec1_point(false);
    let (x, y): ([u8; 32], [u8; 32]) = (
        point.as_bytes()[1..33].try_into().expect("32"),
        point.as_bytes()[33..].try_into().expect("32"),
    );
    let plus = |v: &[u8; 32], k: u8| {
        let mut out = *v;
        let mut carry = k;
        for b in out.iter_mut().rev() {
            let (s, c) = b.overflowing_add(carry);
            *b = s;
            carry = u8::from(c);
        }
        out
    };
    let signed = |h: [u8; 32]| -> ([u8; 32], [u8; 32]) {
        let sig: p256::ecdsa::Signature = key.sign_prehash(&h).expect("sign");
        let b = sig.to_bytes();
        (b[..32].try_into().expect("32"), b[32..].try_into().expect("32"))
    };
    let item = |hash, (r, s): ([u8; 32], [u8; 32]), x, y| P256Item { hash, r, s, x, y };
    let n = ecdsa::P256_N;
    let n_minus_1 = {
        let mut v = n;
        v[31] -= 1;
        v
    };
    let mut cases: Vec<(&str, P256Item, bool)> = Vec::new();
    for (name, h) in [
        ("digest 0", [0u8; 32]),
        ("digest n-1", n_minus_1),
        ("digest n", n),
        ("digest n+1", plus(&n, 1)),
        ("digest 2^256-1", [0xff; 32]),
    ] {
        let (r, s) = signed(h);
        cases.push((name, item(h, (r, s), x, y), true));
        let high = {
            let mut neg = [0u8; 32];
            let mut borrow = 0i16;
            for i in (0..32).rev() {
                let d = i16::from(n[i]) - i16::from(s[i]) - borrow;
                neg[i] = d.rem_euclid(256) as u8;
                borrow = i16::from(d < 0);
            }
            neg
        };
        cases.push((name, item(h, (r, high), x, y), true));
        cases.push((name, item(plus(&h, 2), (r, s), x, y), false));
    }
    // The digests 0 and n (and 1 and n+1) are the same e.
    let (r0, s0) = signed([0u8; 32]);
    cases.push(("digest 0's signature for n", item(n, (r0, s0), x, y), true));
    let mut one = [0u8; 32];
    one[31] = 1;
    let (r1, s1) = signed(one);
    cases.push(("digest 1's signature for n+1", item(plus(&n, 1), (r1, s1), x, y), true));
    let h = [0x42u8; 32];
    let rs = signed(h);
    cases.push(("key x = p", item(h, rs, p, y), false));
    cases.push(("key y = p", item(h, rs, x, p), false));
    cases.push(("key x all ones", item(h, rs, [0xff; 32], y), false));
    cases.push(("key y all ones", item(h, rs, x, [0xff; 32]), false));
    cases.push(("key (0, 0)", item(h, rs, [0; 32], [0; 32]), false));
    cases.push(("r = n-1", item(h, (n_minus_1, rs.1), x, y), false));
    cases.push(("s = n-1", item(h, (rs.0, n_minus_1), x, y), false));
    let items: Vec<P256Item> = cases.iter().map(|c| c.1).collect();
    for (what, item, want) in &cases {
        assert_eq!(oracle::p256_verify(item), *want, "oracle: {what}");
    }
    for (name, engine) in engines() {
        let out = engine.verify_p256(&items).expect("verify");
        ran(name, &out.selection);
        assert_eq!(out.output.len(), items.len(), "{name}");
        for ((what, _, want), v) in cases.iter().zip(&out.output) {
            assert_eq!(v.is_valid(), *want, "{name} {what}: {v:?}");
        }
    }
}
