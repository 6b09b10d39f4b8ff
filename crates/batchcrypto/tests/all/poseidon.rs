//! `poseidon_bn254`: 21 known answers from three implementations of
//! circom's Poseidon (`testdata/poseidon`: circomlibjs, go-iden3-crypto,
//! light-poseidon's circomlibjs cases) on every engine; generated items,
//! honest in every width and hostile of each kind, on every engine
//! against the oracle item by item and in number; the reasons and their
//! order at the edges (lengths, r - 1 and r, an element refused after a
//! length). The GPU driver's sub-batches and faults are
//! `tests/all/gpu_driver.rs`'s.

use batchcrypto::ops::poseidon::{ELEMENT_LEN, MAX_INPUTS, oracle, sample};
use batchcrypto::{FlatBytes, Op, Reason};
use num_bigint::BigUint;

use crate::support;

/// A list of items as a batch.
fn batch(items: &[Vec<u8>]) -> FlatBytes {
    let mut b = FlatBytes::new();
    for it in items {
        assert!(b.push(it));
    }
    b
}

/// `v` as one 32-byte big-endian element (it must fit).
fn element(v: &BigUint) -> [u8; ELEMENT_LEN] {
    let be = v.to_bytes_be();
    assert!(be.len() <= ELEMENT_LEN, "{v} takes more than 32 bytes");
    let mut out = [0u8; ELEMENT_LEN];
    out[ELEMENT_LEN - be.len()..].copy_from_slice(&be);
    out
}

/// BN254's scalar field's modulus r.
fn r() -> BigUint {
    BigUint::parse_bytes(
        b"21888242871839275222246405745257275088548364400416034343698204186575808495617",
        10,
    )
    .expect("r")
}

/// Every engine's answers for `items` against the oracle's, item by item
/// and in number.
fn assert_engines_agree(items: &[Vec<u8>], what: &str) -> Vec<batchcrypto::ops::poseidon::HashResult> {
    let want: Vec<_> = items.iter().map(|it| oracle::hash(it)).collect();
    let b = batch(items);
    for (engine, got) in support::on_every_engine_of(Op::PoseidonBn254, |e| e.poseidon_bn254(&b).expect("poseidon")) {
        support::assert_each(&format!("{engine}: {what}"), &got, &want, |g, w| g == w);
    }
    want
}

#[test]
fn known_answers_on_every_engine() {
    let Some(json) = crate::support::vectors_json("poseidon/circom.json") else {
        return;
    };
    let cases = json["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 21);
    let (mut items, mut hashes) = (Vec::new(), Vec::new());
    for case in cases {
        let item: Vec<u8> = case["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .flat_map(|x| {
                element(&BigUint::parse_bytes(x.as_str().expect("a string").as_bytes(), 10).expect("decimal"))
            })
            .collect();
        let h = case["hash"].as_str().expect("hash");
        let h = match h.strip_prefix("0x") {
            Some(hex) => BigUint::parse_bytes(hex.as_bytes(), 16),
            None => BigUint::parse_bytes(h.as_bytes(), 10),
        }
        .expect("a number");
        items.push(item);
        hashes.push(element(&h));
    }
    // Every width of 1 to 12 inputs is among them.
    let mut widths: Vec<usize> = items.iter().map(|it| it.len() / ELEMENT_LEN).collect();
    widths.sort_unstable();
    widths.dedup();
    assert_eq!(widths, (1..=MAX_INPUTS).collect::<Vec<_>>());
    let want = assert_engines_agree(&items, "known answers");
    for (i, (w, h)) in want.iter().zip(&hashes).enumerate() {
        assert_eq!(w, &Ok(*h), "case {i} ({})", cases[i]["source"]);
    }
}

#[test]
fn samples_match_the_oracle_on_every_engine() {
    let made = sample::items(240, 71, 0.35, |i| 1 + (i * 5) % MAX_INPUTS);
    let items: Vec<Vec<u8>> = made.iter().map(|(it, _)| it.clone()).collect();
    let want = assert_engines_agree(&items, "samples");
    for ((_, kind), w) in made.iter().zip(&want) {
        let reason = match *kind {
            "valid" => None,
            "non_canonical" | "all_ones" => Some(Reason::NonCanonicalElement),
            _ => Some(Reason::WrongInputLength),
        };
        assert_eq!(w.as_ref().err().copied(), reason, "{kind}");
    }
    assert!(made.iter().filter(|(_, k)| *k == "valid").count() > 120);
}

#[test]
fn reasons_and_their_order_at_the_edges() {
    let r = r();
    let (zero, top, at_r) = (element(&BigUint::from(0u8)), element(&(&r - 1u8)), element(&r));
    let cases: Vec<(Vec<u8>, Option<Reason>)> = vec![
        (Vec::new(), Some(Reason::WrongInputLength)),
        (vec![0; 31], Some(Reason::WrongInputLength)),
        (vec![0; 33], Some(Reason::WrongInputLength)),
        (vec![0; 32 * (MAX_INPUTS + 1)], Some(Reason::WrongInputLength)),
        // A length problem comes before an element's.
        ([&at_r[..], &[0u8][..]].concat(), Some(Reason::WrongInputLength)),
        ([at_r; MAX_INPUTS + 1].concat(), Some(Reason::WrongInputLength)),
        (at_r.to_vec(), Some(Reason::NonCanonicalElement)),
        ([zero, at_r].concat(), Some(Reason::NonCanonicalElement)),
        ([top, [0xff; 32]].concat(), Some(Reason::NonCanonicalElement)),
        (zero.to_vec(), None),
        (top.to_vec(), None),
        ([top; MAX_INPUTS].concat(), None),
        ([zero; MAX_INPUTS].concat(), None),
    ];
    let items: Vec<Vec<u8>> = cases.iter().map(|(it, _)| it.clone()).collect();
    let want = assert_engines_agree(&items, "edges");
    for (i, ((_, reason), w)) in cases.iter().zip(&want).enumerate() {
        assert_eq!(w.as_ref().err(), reason.as_ref(), "case {i}");
    }
    // Widths are domains: n zeros hash apart from n + 1 zeros.
    let zeros: Vec<_> = (1..=MAX_INPUTS).map(|n| want_ok(&vec![0; 32 * n])).collect();
    let mut distinct = zeros.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), zeros.len());
}

fn want_ok(item: &[u8]) -> [u8; 32] {
    oracle::hash(item).expect("a hash")
}
