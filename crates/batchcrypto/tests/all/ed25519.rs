//! Ed25519 verification on every backend against the oracles: RFC 8032
//! known answers, Wycheproof, speccheck and CCTV edge cases, generated
//! hostile mixes, exhaustive bit flips and property tests.

use std::collections::BTreeSet;

use crate::support::{RawItem, assert_matches_oracle, batch_of, vectors_dir};
use batchcrypto::ops::ed25519::sample::{self, Kind};
use batchcrypto::ops::ed25519::{Batch, Policy, oracle};
use batchcrypto::{Reason, Verdict};
use proptest::prelude::*;

fn h(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex in test data")
}

fn run_all_policies(items: &[RawItem]) -> [(Policy, Vec<Verdict>); 2] {
    let (batch, kept) = batch_of(items);
    Policy::ALL.map(|policy| {
        let verdicts = assert_matches_oracle(&batch, policy, &|i| kept[i].label.clone());
        (policy, verdicts)
    })
}

/// RFC 8032 section 7.1, TEST 1, 2 and 3 (secret key omitted).
#[test]
fn rfc8032_section_7_1() {
    let items = [
        (
            "TEST 1",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
            "",
        ),
        (
            "TEST 2",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
            "72",
        ),
        (
            "TEST 3",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
            "af82",
        ),
    ]
    .map(|(label, pk, sig, msg)| RawItem {
        label: label.into(),
        pk: h(pk),
        sig: h(sig),
        msg: h(msg),
    });
    for (policy, verdicts) in run_all_policies(&items) {
        assert!(verdicts.iter().all(Verdict::is_valid), "{policy}: {verdicts:?}");
    }
    // And each one corrupted in the message is rejected by the equation.
    let corrupted: Vec<RawItem> = items
        .iter()
        .map(|i| RawItem {
            msg: [i.msg.as_slice(), b"x"].concat(),
            ..i.clone()
        })
        .collect();
    for (policy, verdicts) in run_all_policies(&corrupted) {
        assert!(
            verdicts.iter().all(|v| *v == Verdict::Invalid(Reason::Equation)),
            "{policy}: {verdicts:?}"
        );
    }
}

/// djb's sign.input (1024 valid signatures, messages of 0..1023 bytes); lines
/// 1, 2, 3 and 1024 are RFC 8032 TEST 1, 2, 3 and 1024.
#[test]
fn rfc8032_kat_file() {
    let Some(dir) = vectors_dir() else { return };
    let text = std::fs::read_to_string(dir.join("ed25519-rfc8032/kat-ed25519.txt")).expect("kat file");
    let items: Vec<RawItem> = text
        .lines()
        .enumerate()
        .map(|(n, line)| {
            let f: Vec<&str> = line.split(':').collect();
            let sig_and_msg = h(f[3]);
            RawItem {
                label: format!("kat line {}", n + 1),
                pk: h(f[1]),
                sig: sig_and_msg[..64].to_vec(),
                msg: h(f[2]),
            }
        })
        .collect();
    assert_eq!(items.len(), 1024);
    for (policy, verdicts) in run_all_policies(&items) {
        assert!(verdicts.iter().all(Verdict::is_valid), "{policy}");
    }
}

fn check_wycheproof(items: Vec<(RawItem, bool)>) {
    let raw: Vec<RawItem> = items.iter().map(|(i, _)| i.clone()).collect();
    let (batch, kept) = batch_of(&raw);
    for policy in Policy::ALL {
        let verdicts = assert_matches_oracle(&batch, policy, &|i| kept[i].label.clone());
        if policy == Policy::Strict {
            // Wycheproof's expectations are those of a strict verifier.
            let expected: Vec<bool> = items
                .iter()
                .filter(|(i, _)| kept.iter().any(|k| k.label == i.label))
                .map(|(_, valid)| *valid)
                .collect();
            for (i, (v, e)) in verdicts.iter().zip(&expected).enumerate() {
                assert_eq!(v.is_valid(), *e, "wycheproof {}", kept[i].label);
            }
        }
    }
    // Items with wrong-length fields never reach the engine; all are invalid in Wycheproof.
    for (item, valid) in &items {
        if !kept.iter().any(|k| k.label == item.label) {
            assert!(!valid, "{} has odd lengths but is valid", item.label);
        }
    }
}

#[test]
fn wycheproof_crate() {
    use wycheproof::eddsa::{TestName, TestSet};
    let set = TestSet::load(TestName::Ed25519).expect("wycheproof ed25519");
    let mut items = Vec::new();
    for group in &set.test_groups {
        for test in &group.tests {
            items.push((
                RawItem {
                    label: format!("tcId {}", test.tc_id),
                    pk: group.key.pk.to_vec(),
                    sig: test.sig.to_vec(),
                    msg: test.msg.to_vec(),
                },
                test.result == wycheproof::TestResult::Valid,
            ));
        }
    }
    assert!(items.len() > 100);
    check_wycheproof(items);
}

#[test]
fn wycheproof_file() {
    let Some(dir) = vectors_dir() else { return };
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("wycheproof/ed25519_test.json")).expect("file"))
            .expect("json");
    let mut items = Vec::new();
    for group in json["testGroups"].as_array().expect("groups") {
        let pk = h(group["publicKey"]["pk"].as_str().expect("pk"));
        for test in group["tests"].as_array().expect("tests") {
            items.push((
                RawItem {
                    label: format!("tcId {}", test["tcId"]),
                    pk: pk.clone(),
                    sig: h(test["sig"].as_str().expect("sig")),
                    msg: h(test["msg"].as_str().expect("msg")),
                },
                test["result"] == "valid",
            ));
        }
    }
    assert_eq!(items.len(), 151);
    check_wycheproof(items);
}

/// novifinancial/ed25519-speccheck: the per-case results of Zebra (ZIP-215)
/// and dalek `verify_strict` from testdata/ed25519-speccheck/EXPECTED_RESULTS.md.
#[test]
fn speccheck() {
    let Some(dir) = vectors_dir() else { return };
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ed25519-speccheck/cases.json")).expect("file"))
            .expect("json");
    let items: Vec<RawItem> = json
        .as_array()
        .expect("cases")
        .iter()
        .enumerate()
        .map(|(n, c)| RawItem {
            label: format!("speccheck case {n}"),
            pk: h(c["pub_key"].as_str().expect("pk")),
            sig: h(c["signature"].as_str().expect("sig")),
            msg: h(c["message"].as_str().expect("msg")),
        })
        .collect();
    assert_eq!(items.len(), 12);
    let zip215_accepts: BTreeSet<usize> = [0, 1, 2, 3, 4, 5, 9, 10, 11].into();
    let strict_accepts: BTreeSet<usize> = [3].into();
    for (policy, verdicts) in run_all_policies(&items) {
        let accepted: BTreeSet<usize> = (0..verdicts.len()).filter(|&i| verdicts[i].is_valid()).collect();
        let expected = match policy {
            Policy::Strict => &strict_accepts,
            Policy::Zip215 => &zip215_accepts,
        };
        assert_eq!(&accepted, expected, "{policy}");
        // S >= L is refused for its own reason under both policies.
        assert_eq!(verdicts[6], Verdict::Invalid(Reason::NonCanonicalS));
        assert_eq!(verdicts[7], Verdict::Invalid(Reason::NonCanonicalS));
    }
}

/// C2SP/CCTV ed25519vectors.json. Strict accepts exactly the 43 whose only
/// flags are `low_order_component_*`. ZIP-215 (zebra) accepts all but the 88
/// whose R is non-canonical *and* whose k was hashed over R's canonical
/// re-encoding (`reencoded_k`) while A has a prime-order part: ZIP-215
/// hashes R as given, so [8][k]A differs from what the signer used. (The
/// vectors' PROVENANCE says "ZIP215 accepts every vector"; zebra, the
/// oracle, does not, for exactly these.)
#[test]
fn cctv() {
    let Some(dir) = vectors_dir() else { return };
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ed25519-cctv/ed25519vectors.json")).expect("file"))
            .expect("json");
    let cases = json.as_array().expect("cases");
    let items: Vec<RawItem> = cases
        .iter()
        .map(|c| RawItem {
            label: format!("cctv {}", c["number"]),
            pk: h(c["key"].as_str().expect("key")),
            sig: h(c["sig"].as_str().expect("sig")),
            msg: c["msg"].as_str().expect("msg").as_bytes().to_vec(),
        })
        .collect();
    assert_eq!(items.len(), 914);
    let strict_ok: Vec<bool> = cases
        .iter()
        .map(|c| {
            c["flags"].as_array().is_none_or(|f| {
                f.iter()
                    .all(|f| f.as_str().is_some_and(|f| f.starts_with("low_order_component_")))
            })
        })
        .collect();
    assert_eq!(strict_ok.iter().filter(|&&ok| ok).count(), 43);
    let has = |c: &serde_json::Value, flag: &str| c["flags"].as_array().is_some_and(|f| f.iter().any(|f| f == flag));
    let zip215_ok: Vec<bool> = cases
        .iter()
        .map(|c| !(has(c, "reencoded_k") && has(c, "non_canonical_R") && !has(c, "low_order_A")))
        .collect();
    assert_eq!(zip215_ok.iter().filter(|&&ok| !ok).count(), 88);
    for (policy, verdicts) in run_all_policies(&items) {
        for (i, v) in verdicts.iter().enumerate() {
            let expected = match policy {
                Policy::Zip215 => zip215_ok[i],
                Policy::Strict => strict_ok[i],
            };
            assert_eq!(v.is_valid(), expected, "{policy} {}", items[i].label);
        }
    }
}

/// Generated mixes of valid and hostile items at sizes around the chunk
/// and bisection boundaries, several seeds.
#[test]
fn hostile_mixes_match_oracle() {
    for (count, share, seed) in [
        (0, 0.5, 1),
        (1, 0.0, 2),
        (1, 1.0, 3),
        (2, 0.5, 4),
        (5, 0.5, 5),
        (127, 0.02, 6),
        (129, 0.1, 7),
        (600, 0.3, 8),
        (2000, 0.01, 9),
        (1500, 1.0, 10),
    ] {
        let items = sample::generate(&sample::Config {
            count,
            hostile_share: share,
            signers: 16,
            seed,
            ..Default::default()
        });
        let batch = sample::batch(&items);
        for policy in Policy::ALL {
            let verdicts = assert_matches_oracle(&batch, policy, &|i| format!("{:?}", items[i].kind));
            for (item, verdict) in items.iter().zip(&verdicts) {
                if item.kind == Kind::Valid {
                    assert!(verdict.is_valid());
                }
            }
        }
    }
}

/// The reason each hostile kind gets, per policy, where the kind decides it.
#[test]
fn reason_codes() {
    let items = sample::generate(&sample::Config {
        count: 3000,
        hostile_share: 1.0,
        seed: 11,
        ..Default::default()
    });
    let batch = sample::batch(&items);
    for policy in Policy::ALL {
        let verdicts = assert_matches_oracle(&batch, policy, &|i| format!("{:?}", items[i].kind));
        for (item, verdict) in items.iter().zip(&verdicts) {
            let expected = match (item.kind, policy) {
                (Kind::SPlusL | Kind::SHighBits, _) => Some(Verdict::Invalid(Reason::NonCanonicalS)),
                (Kind::OffCurveKey, _) => Some(Verdict::Invalid(Reason::MalformedKey)),
                (Kind::SmallOrderKey | Kind::NonCanonicalKey, Policy::Strict) => {
                    Some(Verdict::Invalid(Reason::SmallOrderKey))
                }
                (Kind::SmallOrderR | Kind::NonCanonicalR, Policy::Strict) => {
                    Some(Verdict::Invalid(Reason::SmallOrderR))
                }
                (
                    Kind::SmallOrderKey
                    | Kind::NonCanonicalKey
                    | Kind::SmallOrderR
                    | Kind::NonCanonicalR
                    | Kind::MixedOrderKey,
                    Policy::Zip215,
                ) => Some(Verdict::Valid),
                (Kind::FlipMsg, _) => Some(Verdict::Invalid(Reason::Equation)),
                _ => None,
            };
            if let Some(expected) = expected {
                assert_eq!(*verdict, expected, "{policy} {:?}", item.kind);
            }
        }
    }
}

/// Every single-bit flip of every field of one honest item, in one batch
/// with honest items around them (exercises bisection with many failures).
#[test]
fn every_bit_flip_of_one_item() {
    let base = &sample::generate(&sample::Config {
        count: 1,
        max_msg_len: 40,
        seed: 12,
        ..Default::default()
    })[0];
    let mut items = vec![base.clone()];
    let flip = |bytes: &mut [u8], bit: usize| bytes[bit / 8] ^= 1 << (bit % 8);
    for bit in 0..256 {
        let mut item = base.clone();
        flip(&mut item.pk, bit);
        items.push(item);
    }
    for bit in 0..512 {
        let mut item = base.clone();
        flip(&mut item.sig, bit);
        items.push(item);
        items.push(base.clone());
    }
    for bit in 0..base.msg.len() * 8 {
        let mut item = base.clone();
        flip(&mut item.msg, bit);
        items.push(item);
    }
    let batch = sample::batch(&items);
    for policy in Policy::ALL {
        let verdicts = assert_matches_oracle(&batch, policy, &|i| format!("flip item {i}"));
        assert!(verdicts[0].is_valid());
    }
}

/// One bad item at every position of a batch longer than a chunk: exactly
/// that item is rejected (bisection finds it wherever it is).
#[test]
fn one_bad_item_anywhere() {
    let items = sample::generate(&sample::Config {
        count: 300,
        signers: 3,
        seed: 13,
        ..Default::default()
    });
    let engines = crate::support::engines();
    for bad in [0, 1, 63, 64, 127, 128, 150, 255, 299] {
        let mut items = items.clone();
        items[bad].msg.push(0);
        let batch = sample::batch(&items);
        for (name, engine) in engines {
            for policy in Policy::ALL {
                let verdicts = engine.verify_ed25519(&batch, policy).expect("verify").output;
                let want: Vec<bool> = (0..items.len()).map(|i| i != bad).collect();
                crate::support::assert_each(&format!("{name} {policy} bad={bad}"), &verdicts, &want, |v, w| {
                    v.is_valid() == *w
                });
            }
        }
    }
}

#[test]
fn empty_batch() {
    for (name, engine) in crate::support::engines() {
        for policy in Policy::ALL {
            let outcome = engine.verify_ed25519(&Batch::new(), policy).expect("verify");
            assert!(outcome.output.is_empty(), "{name}");
        }
    }
}

#[test]
fn outcome_names_backend_and_reason() {
    let engine = batchcrypto::Engine::builder()
        .backend(batchcrypto::BackendChoice::Cpu)
        .build()
        .expect("engine");
    let outcome = engine.verify_ed25519(&Batch::new(), Policy::Strict).expect("verify");
    assert_eq!(outcome.selection.backend, batchcrypto::Backend::Cpu);
    assert_eq!(outcome.selection.why, "requested");
    let auto = batchcrypto::Engine::builder().build().expect("engine");
    let outcome = auto.verify_ed25519(&Batch::new(), Policy::Strict).expect("verify");
    assert!(outcome.selection.why.starts_with("auto"), "{}", outcome.selection.why);
}

/// A GPU that fails (device error or loss) never loses a verdict: the batch
/// runs on the CPU, the selection says why, and the verdicts are the oracle's.
#[test]
fn gpu_failure_falls_back_to_cpu() {
    // An engine of its own: the fault injected below stays with it.
    if crate::support::gpu_engine().is_none() {
        return;
    }
    let engine = batchcrypto::Engine::builder()
        .backend(batchcrypto::BackendChoice::Gpu)
        .build()
        .expect("a GPU engine opens where the shared one did");
    let items = sample::generate(&sample::Config {
        count: 100,
        hostile_share: 0.5,
        seed: 14,
        ..Default::default()
    });
    let batch = sample::batch(&items);
    let before = engine.verify_ed25519(&batch, Policy::Zip215).expect("verify");
    assert_eq!(before.selection.backend, batchcrypto::Backend::Gpu);
    assert!(engine.inject_gpu_fault("injected for the test"));
    for policy in Policy::ALL {
        let after = engine.verify_ed25519(&batch, policy).expect("verify");
        assert_eq!(after.selection.backend, batchcrypto::Backend::Cpu);
        assert!(
            after.selection.why.contains("injected for the test"),
            "{}",
            after.selection.why
        );
        let want: Vec<bool> = items
            .iter()
            .map(|it| oracle::verify(policy, &it.pk, &it.sig, &it.msg))
            .collect();
        crate::support::assert_each(&format!("after the fault, {policy}"), &after.output, &want, |v, w| {
            v.is_valid() == *w
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Arbitrary bytes: the engine agrees with the oracle.
    #[test]
    fn arbitrary_bytes_match_oracle(
        items in proptest::collection::vec(
            (any::<[u8; 32]>(), any::<[u8; 32]>(), any::<[u8; 32]>(), proptest::collection::vec(any::<u8>(), 0..80)),
            1..20,
        )
    ) {
        let mut batch = Batch::new();
        for (pk, r, s, msg) in &items {
            let sig: Vec<u8> = [r.as_slice(), s.as_slice()].concat();
            batch.push(pk, &sig.try_into().expect("64"), msg).expect("push");
        }
        for policy in Policy::ALL {
            assert_matches_oracle(&batch, policy, &|i| format!("arbitrary {i}"));
        }
    }

    /// Honest items with one byte xored anywhere (key, R, S or message).
    #[test]
    fn honest_items_with_one_byte_changed(seed in any::<u64>(), pos in any::<usize>(), xor in 1u8..=255) {
        let mut items = sample::generate(&sample::Config { count: 8, signers: 2, seed, ..Default::default() });
        let n = items.len();
        let target = pos % n;
        let item = &mut items[target];
        let total = 32 + 64 + item.msg.len();
        let at = pos / n % total;
        match at {
            0..32 => item.pk[at] ^= xor,
            32..96 => item.sig[at - 32] ^= xor,
            _ => item.msg[at - 96] ^= xor,
        }
        let batch = sample::batch(&items);
        for policy in Policy::ALL {
            let verdicts = assert_matches_oracle(&batch, policy, &|i| format!("xor item {i}"));
            prop_assert!(!verdicts[target].is_valid() || oracle::verify(policy, &items[target].pk, &items[target].sig, &items[target].msg));
        }
    }
}
