//! BLS12-381 (Ethereum consensus ciphersuite) against blst and the public
//! vectors: ethereum/bls12-381-tests (verify, aggregate_verify,
//! fast_aggregate_verify, batch_verify, deserialization) and go-ethereum's
//! EIP-2537 pairing files (every `fail-` case included); generated honest and
//! hostile items (identity and non-subgroup points among them) on every
//! engine, in both verification modes.

use crate::support::eip2537::{enc_g1, enc_g2, geth_cases, hex_bytes};
use crate::support::{engines, expected_backend, vectors_dir};
use ark_bls12_381::{Fq, Fq2, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField};
use batchcrypto::ops::bls::eip2537;
use batchcrypto::ops::bls::{self, AggregateItem, FastAggregateItem, Mode, oracle, sample};
use batchcrypto::ops::evm::PrecompileError;
use batchcrypto::{FlatBytes, Reason, Verdict};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn fixed<const N: usize>(v: &serde_json::Value) -> Option<[u8; N]> {
    hex_bytes(v).try_into().ok()
}

/// Every JSON file of a bls12-381-tests folder.
fn cases(dir: &str) -> Option<Vec<(String, serde_json::Value)>> {
    let root = vectors_dir()?.join("bls12-381-tests").join(dir);
    let mut out: Vec<(String, serde_json::Value)> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| {
            let path = e.expect("entry").path();
            let text = std::fs::read_to_string(&path).expect("read");
            let name = path.file_name().expect("name").to_string_lossy().to_string();
            (name, serde_json::from_str(&text).expect("json"))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty(), "{dir}: no files");
    Some(out)
}

/// Verifies `batch` on every engine in both modes; asserts each verdict is
/// the oracle's and that both modes and all engines give the same reasons.
fn assert_batch_matches_oracle(batch: &bls::Batch, what: &str) -> Vec<Verdict> {
    let expected: Vec<bool> = (0..batch.len())
        .map(|i| oracle::verify(batch.pk(i), batch.sig(i), batch.msg(i)))
        .collect();
    let mut first: Option<Vec<Verdict>> = None;
    for (name, engine) in engines() {
        for mode in [Mode::Single, Mode::Batch] {
            let out = engine.verify_bls(batch, mode).expect("verify");
            let backend = out.selection.backend.name();
            assert_eq!(
                backend,
                expected_backend(name, true),
                "{name} {mode:?} {what}: {}",
                out.selection
            );
            let out = out.output;
            assert_eq!(out.len(), batch.len());
            for (i, v) in out.iter().enumerate() {
                assert_eq!(v.is_valid(), expected[i], "{name} {mode:?} {what} item {i}: {v:?}");
            }
            match &first {
                None => first = Some(out),
                Some(f) => assert_eq!(f, &out, "{name} {mode:?} {what}: reasons differ"),
            }
        }
    }
    first.expect("an engine")
}

#[test]
fn consensus_verify_vectors() {
    let Some(files) = cases("verify") else { return };
    let mut batch = bls::Batch::new();
    let mut want = Vec::new();
    for (name, case) in &files {
        let input = &case["input"];
        let (Some(pk), Some(sig)) = (fixed::<48>(&input["pubkey"]), fixed::<96>(&input["signature"])) else {
            panic!("{name}: unexpected sizes");
        };
        batch.push(&pk, &sig, &hex_bytes(&input["message"])).expect("push");
        want.push(case["output"].as_bool().expect("output"));
    }
    let got = assert_batch_matches_oracle(&batch, "verify vectors");
    for (i, (name, _)) in files.iter().enumerate() {
        assert_eq!(got[i].is_valid(), want[i], "{name}");
    }
}

#[test]
fn consensus_batch_verify_vectors() {
    let Some(files) = cases("batch_verify") else { return };
    for (name, case) in &files {
        let input = &case["input"];
        let mut batch = bls::Batch::new();
        let arr = |k: &str| input[k].as_array().expect("array").clone();
        for ((pk, sig), msg) in arr("pubkeys").iter().zip(arr("signatures")).zip(arr("messages")) {
            let (Some(pk), Some(sig)) = (fixed::<48>(pk), fixed::<96>(&sig)) else {
                panic!("{name}: sizes")
            };
            batch.push(&pk, &sig, &hex_bytes(&msg)).expect("push");
        }
        let got = assert_batch_matches_oracle(&batch, name);
        // The set verifies exactly when every item does (the forged set's
        // signatures sum to a valid aggregate; random weights catch it).
        assert_eq!(
            got.iter().all(Verdict::is_valid),
            case["output"].as_bool().expect("output"),
            "{name}"
        );
    }
}

fn keys(v: &serde_json::Value) -> Vec<[u8; 48]> {
    v.as_array()
        .expect("keys")
        .iter()
        .map(|k| fixed::<48>(k).expect("48-byte key"))
        .collect()
}

/// An engine's answers, one per item of `len`, asserting where it ran (the
/// GPU engine on the GPU).
fn ran_where_expected<T>(name: &str, out: batchcrypto::Outcome<Vec<T>>, len: usize) -> Vec<T> {
    let backend = out.selection.backend.name();
    assert_eq!(backend, expected_backend(name, true), "{name}: {}", out.selection);
    assert_eq!(out.output.len(), len, "{name}");
    out.output
}

#[test]
fn consensus_aggregate_verify_vectors() {
    let Some(mut files) = cases("aggregate_verify") else {
        return;
    };
    // A signature of the wrong length cannot enter the API (the CLI reports
    // the line as malformed); the vectors expect it rejected.
    files.retain(|(name, case)| {
        let ok = fixed::<96>(&case["input"]["signature"]).is_some();
        assert!(ok || case["output"] == false, "{name}");
        ok
    });
    let mut items = Vec::new();
    for (_, case) in &files {
        let input = &case["input"];
        let sig = fixed::<96>(&input["signature"]).expect("sig");
        let msgs = input["messages"]
            .as_array()
            .expect("msgs")
            .iter()
            .map(hex_bytes)
            .collect();
        items.push(AggregateItem {
            pks: keys(&input["pubkeys"]),
            msgs,
            sig,
        });
    }
    for (name, engine) in engines() {
        let got = ran_where_expected(
            name,
            engine.bls_aggregate_verify(&items).expect("aggregate"),
            items.len(),
        );
        for (i, (file, case)) in files.iter().enumerate() {
            let want = case["output"].as_bool().expect("output");
            assert_eq!(got[i].is_valid(), want, "{name} {file}: {:?}", got[i]);
            assert_eq!(oracle::aggregate_verify(&items[i]), want, "oracle {file}");
        }
    }
}

#[test]
fn consensus_fast_aggregate_verify_vectors() {
    let Some(files) = cases("fast_aggregate_verify") else {
        return;
    };
    let mut items = Vec::new();
    for (_, case) in &files {
        let input = &case["input"];
        items.push(FastAggregateItem {
            pks: keys(&input["pubkeys"]),
            msg: hex_bytes(&input["message"]),
            sig: fixed::<96>(&input["signature"]).expect("sig"),
        });
    }
    for (name, engine) in engines() {
        let got = ran_where_expected(
            name,
            engine.bls_fast_aggregate_verify(&items).expect("fast"),
            items.len(),
        );
        for (i, (file, case)) in files.iter().enumerate() {
            let want = case["output"].as_bool().expect("output");
            assert_eq!(got[i].is_valid(), want, "{name} {file}: {:?}", got[i]);
            assert_eq!(oracle::fast_aggregate_verify(&items[i]), want, "oracle {file}");
        }
    }
}

/// Decoding alone (the infinity encoding decodes; KeyValidate rejects it
/// later): our checks give the vectors' answer for every G1 and G2 case, on
/// every engine. Encodings of the wrong length cannot enter the API.
#[test]
fn consensus_deserialization_vectors() {
    let (Some(g1), Some(g2)) = (cases("deserialization_G1"), cases("deserialization_G2")) else {
        return;
    };
    let key = sample::secret_keys(1, 1)[0].sk_to_pk().compress();
    let mut items = Vec::new();
    let mut want = Vec::new();
    for (name, case) in &g1 {
        let ok = case["output"].as_bool().expect("output");
        match fixed::<48>(&case["input"]["pubkey"]) {
            Some(pk) => {
                items.push(sample::Item {
                    pk,
                    sig: sample::INFINITY_SIG,
                    msg: vec![],
                    kind: "",
                });
                want.push((name, ok, true));
            }
            None => assert!(!ok, "{name}"),
        }
    }
    for (name, case) in &g2 {
        let ok = case["output"].as_bool().expect("output");
        match fixed::<96>(&case["input"]["signature"]) {
            Some(sig) => {
                items.push(sample::Item {
                    pk: key,
                    sig,
                    msg: vec![],
                    kind: "",
                });
                want.push((name, ok, false));
            }
            None => assert!(!ok, "{name}"),
        }
    }
    let batch = sample::batch(&items);
    for (engine_name, engine) in engines() {
        let out = engine.verify_bls(&batch, Mode::Single).expect("verify");
        let backend = out.selection.backend.name();
        assert_eq!(
            backend,
            expected_backend(engine_name, true),
            "{engine_name}: {}",
            out.selection
        );
        assert_eq!(out.output.len(), want.len());
        for (v, (name, ok, is_key)) in out.output.iter().zip(&want) {
            let refused = if *is_key {
                matches!(v.reason(), Some(Reason::MalformedKey | Reason::KeyNotInSubgroup))
            } else {
                matches!(
                    v.reason(),
                    Some(Reason::MalformedSignature | Reason::SignatureNotInSubgroup)
                )
            };
            assert_eq!(!refused, *ok, "{engine_name} {name}: {v:?}");
        }
    }
}

/// Every engine's answers to `inputs` (one per call), each engine having
/// run where it should (the GPU engine on the GPU).
fn pairing_on_every_engine(inputs: &FlatBytes) -> Vec<(&'static str, Vec<Result<bool, PrecompileError>>)> {
    engines()
        .iter()
        .map(|(name, engine)| {
            let out = engine.eip2537_pairing(inputs).expect("pairing");
            (name.as_str(), ran_where_expected(name, out, inputs.len()))
        })
        .collect()
}

#[test]
fn eip2537_pairing_vectors() {
    let (Some(good), Some(bad)) = (geth_cases("blsPairing.json"), geth_cases("fail-blsPairing.json")) else {
        return;
    };
    let mut inputs = FlatBytes::new();
    for case in good.iter().chain(&bad) {
        assert!(inputs.push(&hex_bytes(&case["Input"])));
    }
    // Each call also cut by a byte and with its last pair doubled: the
    // engines answer as the oracle does.
    let mut hostile = FlatBytes::new();
    for case in good.iter().chain(&bad) {
        let bytes = hex_bytes(&case["Input"]);
        if bytes.len() >= 384 {
            assert!(hostile.push(&bytes[..bytes.len() - 1]));
            assert!(hostile.push(&[&bytes[..], &bytes[bytes.len() - 384..]].concat()));
        }
    }
    assert!(hostile.len() > good.len());
    let want: Vec<_> = (0..hostile.len())
        .map(|i| eip2537::pairing_check(hostile.get(i)))
        .collect();
    for (name, got) in pairing_on_every_engine(&hostile) {
        assert_eq!(got, want, "{name}: cut and doubled calls");
    }
    for (name, got) in pairing_on_every_engine(&inputs) {
        for (i, case) in good.iter().enumerate() {
            let want = hex_bytes(&case["Expected"]);
            let out = got[i].map(eip2537::output);
            assert_eq!(
                out.as_ref().map(|o| o.as_slice()),
                Ok(want.as_slice()),
                "{name} {}",
                case["Name"]
            );
        }
        for (j, case) in bad.iter().enumerate() {
            let err = got[good.len() + j];
            assert!(err.is_err(), "{name} {} must fail, got {err:?}", case["Name"]);
        }
    }
    // The failures name the violated rule.
    let expect = [
        ("bls_pairing_empty_input", PrecompileError::InvalidLength),
        ("bls_pairing_extra_data", PrecompileError::InvalidLength),
        ("bls_pairing_top_bytes", PrecompileError::TopBytes),
        ("bls_pairing_invalid_field_element", PrecompileError::FieldElement),
        ("bls_pairing_g1_not_on_curve", PrecompileError::NotOnCurve),
        (
            "bls_pairing_g2_not_in_correct_subgroup",
            PrecompileError::G2NotInSubgroup,
        ),
        (
            "bls_pairing_g1_not_in_correct_subgroup",
            PrecompileError::G1NotInSubgroup,
        ),
    ];
    for (name, err) in expect {
        let case = bad.iter().find(|c| c["Name"] == name).expect(name);
        assert_eq!(eip2537::pairing_check(&hex_bytes(&case["Input"])), Err(err), "{name}");
    }
}

/// Generated pairing-check calls of 1 to 4 pairs (and two of 300, which
/// the GPU path reduces over several rounds), half of them checking to one,
/// with one hostile change each in most: a top byte set, a coordinate equal
/// to p, points off their curves, out of their subgroups (E's points of
/// order 3 among them), points at infinity, a byte missing. On every
/// engine, each call's answer is the CPU path's (blst's) and the GPU engine
/// ran on the GPU.
#[test]
fn eip2537_generated_calls_match_on_every_engine() {
    let mut rng = StdRng::seed_from_u64(2537);
    let mut fr = || {
        let bytes: [u8; 64] = rng.random();
        Fr::from_le_bytes_mod_order(&bytes)
    };
    let (g1, g2) = (G1Projective::generator(), G2Projective::generator());
    let order3 = G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64));
    let mut inputs = FlatBytes::new();
    for c in 0..62 {
        let k = match c {
            60 | 61 => 300,
            _ => 1 + c % 4,
        };
        let mut pairs: Vec<(G1Affine, G2Affine)> = Vec::new();
        let mut sum = Fr::from(0u64);
        for _ in 0..k - 1 {
            let (a, b) = (fr(), fr());
            sum += a * b;
            pairs.push(((g1 * a).into_affine(), (g2 * b).into_affine()));
        }
        // The last pair cancels the others when c is even.
        let last = if c % 2 == 0 { -sum } else { fr() };
        pairs.push(((g1 * last).into_affine(), g2.into_affine()));
        let j = c % k;
        let curve_point = |x: Fq2| G2Affine::get_point_from_x_unchecked(x, true);
        match (20..60).contains(&c).then_some(c % 10) {
            Some(3) => pairs[j].0 = G1Affine::new_unchecked(pairs[j].0.x, pairs[j].0.y + Fq::from(1u64)),
            Some(4) => pairs[j].1 = G2Affine::new_unchecked(pairs[j].1.x, pairs[j].1.y + Fq2::from(1u64)),
            Some(5) => {
                pairs[j].0 = if c % 4 == 1 {
                    order3
                } else {
                    (pairs[j].0 + order3).into_affine()
                }
            }
            Some(6) => {
                let mut x = Fq2::from(c as u64);
                pairs[j].1 = loop {
                    match curve_point(x) {
                        Some(q) => break q,
                        None => x += Fq2::from(1u64),
                    }
                };
            }
            Some(7) => pairs[j].0 = G1Affine::zero(),
            Some(8) => pairs[j].1 = G2Affine::zero(),
            _ => {}
        }
        let mut bytes: Vec<u8> = pairs
            .iter()
            .flat_map(|(p, q)| [enc_g1(p), enc_g2(q)].concat())
            .collect();
        let at = 384 * j + 64 * (c % 6);
        match (20..60).contains(&c).then_some(c % 10) {
            Some(1) => bytes[at] = 1,
            Some(2) => bytes[at + 16..at + 64].copy_from_slice(&Fq::MODULUS.to_bytes_be()),
            Some(9) => {
                bytes.pop();
            }
            _ => {}
        }
        assert!(inputs.push(&bytes));
    }
    let want: Vec<Result<bool, PrecompileError>> = (0..inputs.len())
        .map(|i| eip2537::pairing_check(inputs.get(i)))
        .collect();
    for w in [
        Ok(true),
        Ok(false),
        Err(PrecompileError::InvalidLength),
        Err(PrecompileError::TopBytes),
        Err(PrecompileError::FieldElement),
        Err(PrecompileError::NotOnCurve),
        Err(PrecompileError::G1NotInSubgroup),
        Err(PrecompileError::G2NotInSubgroup),
    ] {
        assert!(want.contains(&w), "the calls include {w:?}");
    }
    assert_eq!(
        (want[60], want[61]),
        (Ok(true), Ok(false)),
        "300 pairs that cancel, 300 that do not"
    );
    // E's points of order 3, (0, +-2), are on the curve and outside G1
    // (blst refuses them while deserializing; the reason is still this).
    assert_eq!(
        (want[25], want[45]),
        (
            Err(PrecompileError::G1NotInSubgroup),
            Err(PrecompileError::G1NotInSubgroup)
        )
    );
    for (name, got) in pairing_on_every_engine(&inputs) {
        for (i, (got, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(got, w, "{name} call {i}");
        }
    }
}

/// Honest and hostile items at every share, on every engine, both modes;
/// every hostile kind occurs and gets its reason. (Each item is a pairing
/// check on lavapipe in the tests: 297 items here; the 605 before took 70 s
/// of the suite.)
#[test]
fn generated_items_match_the_oracle() {
    let mut kinds = std::collections::BTreeSet::new();
    for (count, share, seed) in [(32, 0.0, 1), (96, 0.1, 2), (128, 0.5, 3), (40, 1.0, 4), (1, 1.0, 5)] {
        let items = sample::generate(count, 16, share, seed);
        let verdicts = assert_batch_matches_oracle(&sample::batch(&items), &format!("share {share}"));
        kinds.extend(items.iter().map(|it| it.kind));
        for (it, v) in items.iter().zip(&verdicts) {
            let allowed: &[Option<Reason>] = match it.kind {
                "valid" => &[None],
                "identity_key" => &[Some(Reason::IdentityKey)],
                "key_not_in_subgroup" => &[Some(Reason::KeyNotInSubgroup)],
                "signature_not_in_subgroup" => &[Some(Reason::SignatureNotInSubgroup)],
                "infinity_signature" | "wrong_message" | "wrong_key" => &[Some(Reason::Equation)],
                // A flipped bit may break the encoding, leave the curve or the group.
                "flipped_sig_bit" => &[
                    Some(Reason::MalformedSignature),
                    Some(Reason::SignatureNotInSubgroup),
                    Some(Reason::Equation),
                ],
                other => panic!("kind {other} has no expected reason here"),
            };
            assert!(allowed.contains(&v.reason()), "{}: {v:?}", it.kind);
        }
    }
    assert_eq!(kinds.len(), 8, "valid and every hostile kind: {kinds:?}");
}

/// Signatures swapped between two items: both are invalid, yet the plain
/// sum of the batch's equations still holds (e(pk_i, H(m_i)) e(pk_j, H(m_j))
/// = e(G1, sig_i + sig_j) whichever item carries which signature). Batch
/// verification's random scalars must catch every such pair, on every
/// engine, for shared and for distinct messages.
#[test]
fn swapped_signatures_are_caught() {
    let mut items = sample::generate(96, 16, 0.0, 6);
    let pairs = [(0, 1), (10, 40), (94, 95)];
    for &(i, j) in &pairs {
        let sig = items[i].sig;
        items[i].sig = items[j].sig;
        items[j].sig = sig;
    }
    // Items 50 and 51 sign one message; their signatures are swapped too.
    items[51].msg = items[50].msg.clone();
    let keys = sample::secret_keys(2, 61);
    for (n, k) in keys.iter().enumerate() {
        items[50 + n].pk = k.sk_to_pk().compress();
        items[51 - n].sig = k.sign(&items[50].msg, bls::DST, &[]).compress();
    }
    let verdicts = assert_batch_matches_oracle(&sample::batch(&items), "swapped signatures");
    let bad: Vec<usize> = (0..items.len()).filter(|&i| !verdicts[i].is_valid()).collect();
    assert_eq!(bad, [0, 1, 10, 40, 50, 51, 94, 95]);
    assert!(bad.iter().all(|&i| verdicts[i] == Verdict::Invalid(Reason::Equation)));
}

/// Many keys signing few messages (as validators sign one attestation's
/// data): the GPU hashes each distinct message once; every verdict is
/// still the oracle's, with signatures moved to another message, to
/// another key, and messages differing in one byte.
#[test]
fn shared_messages_match_the_oracle() {
    let keys = sample::secret_keys(40, 12);
    let msgs: Vec<Vec<u8>> = (0..3u8).map(|i| vec![i; 32]).collect();
    let mut items = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let msg = &msgs[i % 3];
        let sig = k.sign(msg, bls::DST, &[]).compress();
        let (msg, sig) = match i % 5 {
            // Signed another of the shared messages.
            1 => (msgs[(i + 1) % 3].clone(), sig),
            // Another key's signature of the same message.
            2 => (msg.clone(), keys[(i + 3) % 40].sign(msg, bls::DST, &[]).compress()),
            // One byte off.
            3 => {
                let mut m = msg.clone();
                m[31] ^= 1;
                (m, sig)
            }
            _ => (msg.clone(), sig),
        };
        items.push(sample::Item {
            pk: k.sk_to_pk().compress(),
            sig,
            msg,
            kind: "",
        });
    }
    let verdicts = assert_batch_matches_oracle(&sample::batch(&items), "shared messages");
    for (i, v) in verdicts.iter().enumerate() {
        assert_eq!(v.is_valid(), i % 5 == 0 || i % 5 == 4, "item {i}: {v:?}");
    }
}

/// Aggregates built from generated keys: valid, corrupted and malformed.
#[test]
fn generated_aggregates_match_the_oracle() {
    use blst::min_pk::AggregateSignature;
    let keys = sample::secret_keys(60, 9);
    let pks: Vec<[u8; 48]> = keys.iter().map(|k| k.sk_to_pk().compress()).collect();
    let msgs: Vec<Vec<u8>> = (0..60u8).map(|i| vec![i; 32]).collect();
    let sigs: Vec<_> = keys.iter().zip(&msgs).map(|(k, m)| k.sign(m, bls::DST, &[])).collect();
    let refs: Vec<_> = sigs.iter().collect();
    let agg = AggregateSignature::aggregate(&refs, true)
        .expect("aggregate")
        .to_signature()
        .compress();
    let valid = AggregateItem {
        pks: pks.clone(),
        msgs: msgs.clone(),
        sig: agg,
    };
    let mut wrong_msg = valid.clone();
    wrong_msg.msgs[7][0] ^= 1;
    let mut short = valid.clone();
    short.msgs.pop();
    let mut identity = valid.clone();
    identity.pks[3] = sample::IDENTITY_KEY;
    let mut off_group = valid.clone();
    off_group.sig = sample::SIG_NOT_IN_SUBGROUP;
    let empty = AggregateItem {
        pks: vec![],
        msgs: vec![],
        sig: sample::INFINITY_SIG,
    };
    let items = [valid, wrong_msg, short, identity, off_group, empty];
    let want = [
        None,
        Some(Reason::Equation),
        Some(Reason::EmptyOrMismatched),
        Some(Reason::IdentityKey),
        Some(Reason::SignatureNotInSubgroup),
        Some(Reason::EmptyOrMismatched),
    ];
    // Fast aggregate: every key signs one message.
    let msg = b"attestation data root".to_vec();
    let fsigs: Vec<_> = keys.iter().map(|k| k.sign(&msg, bls::DST, &[])).collect();
    let frefs: Vec<_> = fsigs.iter().collect();
    let fagg = AggregateSignature::aggregate(&frefs, true)
        .expect("aggregate")
        .to_signature()
        .compress();
    let fvalid = FastAggregateItem {
        pks: pks.clone(),
        msg: msg.clone(),
        sig: fagg,
    };
    let mut missing = fvalid.clone();
    missing.pks.pop();
    let mut off_key = fvalid.clone();
    off_key.pks[0] = sample::KEY_NOT_IN_SUBGROUP;
    // Keys that cancel (P and -P: the sort flag flipped) sum to infinity,
    // which blst refuses even with the infinity signature.
    let mut negated = pks[0];
    negated[0] ^= 0x20;
    let cancel = FastAggregateItem {
        pks: vec![pks[0], negated, pks[1]],
        msg: msg.clone(),
        sig: sample::INFINITY_SIG,
    };
    let mut cancelled = cancel.clone();
    cancelled.pks.pop();
    let fitems = [fvalid, missing, off_key, cancel, cancelled];
    let fwant = [
        None,
        Some(Reason::Equation),
        Some(Reason::KeyNotInSubgroup),
        Some(Reason::Equation),
        Some(Reason::Equation),
    ];
    for (name, engine) in engines() {
        let got = ran_where_expected(
            name,
            engine.bls_aggregate_verify(&items).expect("aggregate"),
            items.len(),
        );
        for (i, it) in items.iter().enumerate() {
            assert_eq!(got[i].reason(), want[i], "{name} aggregate {i}");
            assert_eq!(
                got[i].is_valid(),
                oracle::aggregate_verify(it),
                "{name} aggregate {i} vs oracle"
            );
        }
        let got = ran_where_expected(
            name,
            engine.bls_fast_aggregate_verify(&fitems).expect("fast"),
            fitems.len(),
        );
        for (i, it) in fitems.iter().enumerate() {
            assert_eq!(got[i].reason(), fwant[i], "{name} fast {i}");
            assert_eq!(
                got[i].is_valid(),
                oracle::fast_aggregate_verify(it),
                "{name} fast {i} vs oracle"
            );
        }
    }
}

/// Every verdict the generated items give, as aggregates of them on every
/// engine: aggregates of three items under the sum of their signatures or
/// the first one's signature, fast
/// aggregates of one to three keys over the first one's message and
/// signature, and keys that cancel under the infinity signature. Each
/// engine's verdict (reason included) is the CPU engine's, and its validity
/// the oracle's.
#[test]
fn sample_aggregates_match_on_every_engine() {
    let items = sample::generate(180, 24, 0.4, 2537);
    let mut aggs = Vec::new();
    let mut fasts = Vec::new();
    for (n, chunk) in items.chunks(3).enumerate() {
        // Every other aggregate carries the sum of its items' signatures
        // (valid when they all are), the others the first one's.
        let sigs: Option<Vec<blst::min_pk::Signature>> = chunk
            .iter()
            .map(|it| blst::min_pk::Signature::from_bytes(&it.sig).ok())
            .collect();
        let sum = sigs.and_then(|s| {
            let refs: Vec<_> = s.iter().collect();
            blst::min_pk::AggregateSignature::aggregate(&refs, false).ok()
        });
        let sig = match sum {
            Some(sum) if n % 2 == 0 => sum.to_signature().compress(),
            _ => chunk[0].sig,
        };
        aggs.push(AggregateItem {
            pks: chunk.iter().map(|it| it.pk).collect(),
            msgs: chunk.iter().map(|it| it.msg.clone()).collect(),
            sig,
        });
        fasts.push(FastAggregateItem {
            pks: chunk[..1 + n % 3].iter().map(|it| it.pk).collect(),
            msg: chunk[0].msg.clone(),
            sig: chunk[0].sig,
        });
    }
    let mut negated = items[0].pk;
    negated[0] ^= 0x20;
    fasts.push(FastAggregateItem {
        pks: vec![items[0].pk, negated],
        msg: vec![],
        sig: sample::INFINITY_SIG,
    });
    let agg_valid: Vec<bool> = aggs.iter().map(oracle::aggregate_verify).collect();
    let fast_valid: Vec<bool> = fasts.iter().map(oracle::fast_aggregate_verify).collect();
    assert!(agg_valid.iter().any(|&v| v) && agg_valid.iter().any(|&v| !v));
    assert!(fast_valid.iter().any(|&v| v) && fast_valid.iter().any(|&v| !v));
    let mut first: Option<(Vec<Verdict>, Vec<Verdict>)> = None;
    for (name, engine) in engines() {
        let agg = ran_where_expected(name, engine.bls_aggregate_verify(&aggs).expect("aggregate"), aggs.len());
        let fast = ran_where_expected(
            name,
            engine.bls_fast_aggregate_verify(&fasts).expect("fast"),
            fasts.len(),
        );
        for (i, v) in agg.iter().enumerate() {
            assert_eq!(v.is_valid(), agg_valid[i], "{name} aggregate {i}: {v:?}");
        }
        for (i, v) in fast.iter().enumerate() {
            assert_eq!(v.is_valid(), fast_valid[i], "{name} fast aggregate {i}: {v:?}");
        }
        match &first {
            None => first = Some((agg, fast)),
            Some((a, f)) => {
                assert_eq!(&agg, a, "{name}: aggregate verdicts differ from the first engine's");
                assert_eq!(
                    &fast, f,
                    "{name}: fast aggregate verdicts differ from the first engine's"
                );
            }
        }
    }
}
