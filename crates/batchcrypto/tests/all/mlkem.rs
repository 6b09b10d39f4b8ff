//! ML-KEM-512/768/1024 against the `ml-kem` crate on every engine: every
//! Wycheproof ML-KEM vector (testdata/wycheproof-pq: key generation from
//! seeds, encapsulation with its key checks, decapsulation with implicit
//! rejection and wrong lengths), and generated honest and hostile items
//! item by item, byte for byte, with each refused item's reason; the GPU
//! engine must say it ran on the GPU (the kernel needs SHADER_INT64).

use crate::support::{engines, vectors_dir};
use batchcrypto::Reason;
use batchcrypto::ops::mlkem::{self, DecapsItem, EncapsItem, KeygenItem, Set, oracle, sample};

fn hex_bytes(v: &serde_json::Value) -> Vec<u8> {
    let s = v.as_str().unwrap_or("");
    hex::decode(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// Every engine's answers to `call`, each engine having run where it
/// should, answered every item and agreed with the others.
fn on_every_engine<R: PartialEq + std::fmt::Debug>(
    len: usize,
    call: impl Fn(&batchcrypto::Engine) -> batchcrypto::Outcome<Vec<R>>,
) -> Vec<R> {
    let mut first: Option<Vec<R>> = None;
    for (name, output) in crate::support::on_every_engine(call) {
        assert_eq!(output.len(), len, "{name}");
        match &first {
            None => first = Some(output),
            Some(f) => assert_eq!(f, &output, "{name}: answers or reasons differ"),
        }
    }
    first.expect("an engine")
}

/// The tests of a Wycheproof ML-KEM file, with `valid` read from `result`.
fn cases(set: Set, kind: &str) -> Option<Vec<(serde_json::Value, bool)>> {
    let dir = vectors_dir()?;
    let path = dir.join(format!("wycheproof-pq/mlkem_{}{kind}_test.json", set.bits()));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file: serde_json::Value = serde_json::from_str(&text).expect("json");
    let mut out = Vec::new();
    for group in file["testGroups"].as_array().expect("groups") {
        for t in group["tests"].as_array().expect("tests") {
            let valid = match t["result"].as_str() {
                Some("valid") => true,
                Some("invalid") => false,
                other => panic!("{set} case {}: result {other:?}", t["tcId"]),
            };
            out.push((t.clone(), valid));
        }
    }
    assert!(!out.is_empty());
    Some(out)
}

/// The 64-byte seed of a case as key generation's (d, z).
fn seed_item(t: &serde_json::Value) -> KeygenItem {
    let seed = hex_bytes(&t["seed"]);
    let (d, z) = seed.split_at(seed.len().min(32));
    KeygenItem {
        d: d.to_vec(),
        z: z.to_vec(),
    }
}

#[test]
fn wycheproof_keygen_vectors() {
    for set in Set::ALL {
        let Some(cases) = cases(set, "_keygen_seed") else {
            return;
        };
        let items: Vec<KeygenItem> = cases.iter().map(|(t, _)| seed_item(t)).collect();
        let got = on_every_engine(items.len(), |e| e.mlkem_keygen(set, &items).expect("keygen"));
        for ((t, valid), got) in cases.iter().zip(&got) {
            assert!(valid, "{set} case {}: keygen cases are valid", t["tcId"]);
            let pair = got.as_ref().expect("a key pair");
            assert_eq!(pair.ek, hex_bytes(&t["ek"]), "{set} case {}: ek", t["tcId"]);
            assert_eq!(pair.dk, hex_bytes(&t["dk"]), "{set} case {}: dk", t["tcId"]);
        }
    }
}

#[test]
fn wycheproof_encaps_vectors() {
    for set in Set::ALL {
        let Some(cases) = cases(set, "_encaps") else { return };
        let items: Vec<EncapsItem> = cases
            .iter()
            .map(|(t, _)| EncapsItem {
                ek: hex_bytes(&t["ek"]),
                m: Some(hex_bytes(&t["m"])),
            })
            .collect();
        let got = on_every_engine(items.len(), |e| e.mlkem_encaps(set, &items).expect("encaps"));
        let mut not_reduced = 0;
        for (((t, valid), it), got) in cases.iter().zip(&items).zip(&got) {
            let id = &t["tcId"];
            let m = it.m.as_deref().unwrap_or_default();
            match got {
                Ok(e) => {
                    assert!(valid, "{set} case {id}: refused upstream, answered here");
                    assert_eq!(e.ct, hex_bytes(&t["c"]), "{set} case {id}: ct");
                    assert_eq!(e.ss.to_vec(), hex_bytes(&t["K"]), "{set} case {id}: K");
                    assert_eq!(oracle::encaps(set, &it.ek, m).as_ref(), Some(e), "{set} case {id}");
                }
                Err(reason) => {
                    assert!(!valid, "{set} case {id}: valid upstream, refused here ({reason})");
                    assert_eq!(oracle::encaps(set, &it.ek, m), None, "{set} case {id}: the oracle");
                    let want = if it.ek.len() == set.ek_len() {
                        not_reduced += 1;
                        Reason::KeyNotReduced
                    } else {
                        Reason::MalformedKey
                    };
                    assert_eq!(*reason, want, "{set} case {id}");
                }
            }
        }
        assert!(not_reduced >= 100, "{set}: the modulus-check cases");
    }
}

#[test]
fn wycheproof_decaps_vectors() {
    for set in Set::ALL {
        let Some(cases) = cases(set, "") else { return };
        // Each case names a key by its seed; its dk comes from the oracle
        // (a seed of the wrong length is the case's failure).
        let mut items = Vec::new();
        for (t, valid) in &cases {
            let seed = seed_item(t);
            let Some(pair) = oracle::keygen(set, &seed.d, &seed.z) else {
                assert!(!valid, "{set} case {}: a valid case with a bad seed", t["tcId"]);
                let got = on_every_engine(1, |e| e.mlkem_keygen(set, std::slice::from_ref(&seed)).expect("keygen"));
                assert_eq!(got[0], Err(Reason::MalformedSeed), "{set} case {}", t["tcId"]);
                continue;
            };
            assert_eq!(pair.ek, hex_bytes(&t["ek"]), "{set} case {}: ek", t["tcId"]);
            items.push((
                t,
                *valid,
                DecapsItem {
                    dk: pair.dk,
                    ct: hex_bytes(&t["c"]),
                },
            ));
        }
        let batch: Vec<DecapsItem> = items.iter().map(|(_, _, it)| it.clone()).collect();
        let got = on_every_engine(batch.len(), |e| e.mlkem_decaps(set, &batch).expect("decaps"));
        for ((t, valid, it), got) in items.iter().zip(&got) {
            let id = &t["tcId"];
            match got {
                Ok(ss) => {
                    assert!(valid, "{set} case {id}: refused upstream, answered here");
                    assert_eq!(ss.to_vec(), hex_bytes(&t["K"]), "{set} case {id}: K");
                    assert_eq!(oracle::decaps(set, &it.dk, &it.ct), Some(*ss), "{set} case {id}");
                }
                Err(reason) => {
                    assert!(!valid, "{set} case {id}: valid upstream, refused here ({reason})");
                    assert_eq!(*reason, Reason::MalformedCiphertext, "{set} case {id}");
                    assert_eq!(oracle::decaps(set, &it.dk, &it.ct), None, "{set} case {id}: the oracle");
                }
            }
        }
    }
}

/// Generated items of every kind against the oracle, byte for byte, with
/// the reason each hostile kind must give.
#[test]
fn generated_items_match_the_oracle() {
    for set in Set::ALL {
        let made = sample::keygen(0..60, 0.4, 1);
        let items: Vec<KeygenItem> = made.iter().map(|(it, _)| it.clone()).collect();
        let got = on_every_engine(items.len(), |e| e.mlkem_keygen(set, &items).expect("keygen"));
        for ((it, kind), got) in made.iter().zip(&got) {
            assert_eq!(
                got.as_ref().ok(),
                oracle::keygen(set, &it.d, &it.z).as_ref(),
                "{set} {kind}"
            );
            let want = (*kind != "valid").then_some(Reason::MalformedSeed);
            assert_eq!(got.as_ref().err().copied(), want, "{set} {kind}");
        }

        let pool = sample::key_pool(set, 3, 2);
        let made = sample::encaps(set, &pool, 0..80, 0.5, 3);
        let items: Vec<EncapsItem> = made.iter().map(|(it, _)| it.clone()).collect();
        let got = on_every_engine(items.len(), |e| e.mlkem_encaps(set, &items).expect("encaps"));
        for ((it, kind), got) in made.iter().zip(&got) {
            let m = it.m.as_deref().unwrap_or_default();
            assert_eq!(
                got.as_ref().ok(),
                oracle::encaps(set, &it.ek, m).as_ref(),
                "{set} {kind}"
            );
            let want = match *kind {
                "valid" => None,
                "key_not_reduced" => Some(Reason::KeyNotReduced),
                "short_m" => Some(Reason::MalformedRandomness),
                _ => Some(Reason::MalformedKey),
            };
            assert_eq!(got.as_ref().err().copied(), want, "{set} {kind}");
        }

        let made = sample::decaps(set, &pool, 0..100, 0.6, 4);
        let items: Vec<DecapsItem> = made.iter().map(|(it, _)| it.clone()).collect();
        let got = on_every_engine(items.len(), |e| e.mlkem_decaps(set, &items).expect("decaps"));
        let mut kinds = std::collections::HashSet::new();
        for ((it, kind), got) in made.iter().zip(&got) {
            kinds.insert(*kind);
            assert_eq!(
                got.as_ref().ok(),
                oracle::decaps(set, &it.dk, &it.ct).as_ref(),
                "{set} {kind}"
            );
            let want = match *kind {
                "valid" | "flipped_ct_bit" | "other_keys_ct" => None,
                "short_ct" | "long_ct" => Some(Reason::MalformedCiphertext),
                "key_hash_mismatch" => Some(Reason::KeyHashMismatch),
                "key_not_reduced" => Some(Reason::KeyNotReduced),
                _ => Some(Reason::MalformedKey),
            };
            assert_eq!(got.as_ref().err().copied(), want, "{set} {kind}");
        }
        assert_eq!(kinds.len(), 1 + sample::DECAPS_HOSTILE.len(), "{set}: every kind drawn");
    }
}

/// Encapsulation without m draws it from the OS, on every engine: two
/// encapsulations of one key differ, and each decapsulates to its own
/// secret.
#[test]
fn random_encapsulations_decapsulate() {
    for set in Set::ALL {
        let pool = sample::key_pool(set, 1, 5);
        let item = EncapsItem {
            ek: pool[0].ek.clone(),
            m: None,
        };
        for (engine_name, engine) in engines() {
            let out = engine.mlkem_encaps(set, &[item.clone(), item.clone()]).expect("encaps");
            assert_eq!(
                out.selection.backend.name(),
                crate::support::expected_backend(engine_name, true),
                "{engine_name}: {}",
                out.selection
            );
            let out = out.output;
            let (a, b) = (out[0].as_ref().expect(engine_name), out[1].as_ref().expect(engine_name));
            assert_ne!(a.ct, b.ct, "{set} {engine_name}: fresh randomness per item");
            for e in [a, b] {
                assert_eq!(
                    oracle::decaps(set, &pool[0].dk, &e.ct),
                    Some(e.ss),
                    "{set} {engine_name}"
                );
            }
            assert_eq!(mlkem::SHARED_LEN, a.ss.len());
        }
    }
}
