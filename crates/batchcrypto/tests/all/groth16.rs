//! Groth16 over BN254 against `ark-groth16` on every engine: snarkjs's
//! own files (two circom circuits' keys, proofs and public inputs, in
//! today's and in the first format: testdata/groth16), generated keys
//! and proofs honest and hostile item by item with each kind's reason,
//! and every verdict also held to what snarkjs's Solidity verifier
//! computes with the EVM's precompiles (ECMUL, ECADD, ECPAIRING oracles).

use crate::support::{assert_each, on_every_engine_of, vectors_dir};
use batchcrypto::ops::evm::{self, Precompile};
use batchcrypto::ops::groth16::{VerifyingKey, oracle, sample, snarkjs};
use batchcrypto::{FlatBytes, Op, Reason, Verdict};

/// Every engine's verdicts on `items` under `vk`, each against `want`.
fn check_every_engine(vk: &VerifyingKey, items: &FlatBytes, want: &[Option<Reason>]) {
    for (name, got) in on_every_engine_of(Op::Groth16VerifyBn254, |e| e.verify_groth16(vk, items).expect("verify")) {
        assert_each(name, &got, want, |v: &Verdict, w| v.reason() == *w);
    }
}

/// What snarkjs's Solidity verifier returns for `item` under the key
/// `vk` (its encoding): each public input checked below r, vk_x summed
/// with ECMUL and ECADD, then ECPAIRING of (-A, B), (alpha, beta), (vk_x,
/// gamma), (C, delta); any precompile failure is a rejection.
fn solidity_verifier(vk: &[u8], item: &[u8]) -> bool {
    let inputs = (vk.len() - 448) / 64 - 1;
    if item.len() != 256 + 32 * inputs {
        return false;
    }
    let r = hex::decode("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001").expect("r");
    let xs: Vec<&[u8]> = item[256..].chunks(32).collect();
    if xs.iter().any(|x| *x >= &r[..]) {
        return false;
    }
    let call = |p: Precompile, input: Vec<u8>| evm::oracle::call(p, &input);
    let mut acc = vk[448..512].to_vec();
    for (j, x) in xs.iter().enumerate() {
        let ic = &vk[448 + 64 * (j + 1)..448 + 64 * (j + 2)];
        let Ok(term) = call(Precompile::Bn256Mul, [ic, x].concat()) else {
            return false;
        };
        let Ok(sum) = call(Precompile::Bn256Add, [&acc[..], &term[..]].concat()) else {
            return false;
        };
        acc = sum;
    }
    // -A = (x, p - y), (0, 0) for infinity (y = 0 has no point).
    let p = hex::decode("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47").expect("p");
    let (ax, ay) = (&item[..32], &item[32..64]);
    let neg_y = if ay.iter().all(|&b| b == 0) {
        vec![0u8; 32]
    } else {
        let (mut out, mut borrow) = (vec![0u8; 32], 0i16);
        for k in (0..32).rev() {
            let d = i16::from(p[k]) - i16::from(ay[k]) - borrow;
            out[k] = d.rem_euclid(256) as u8;
            borrow = i16::from(d < 0);
        }
        out
    };
    let input = [
        ax,
        &neg_y,
        &item[64..192],
        &vk[..64],
        &vk[64..192],
        &acc,
        &vk[192..320],
        &item[192..256],
        &vk[320..448],
    ]
    .concat();
    call(Precompile::Bn256Pairing, input).is_ok_and(|w| w[31] == 1)
}

/// snarkjs's files in `dir` under testdata/groth16: the key decodes with
/// `inputs` public inputs and back to the same bytes, the proof verifies;
/// the same with an input changed, A and C swapped, and the first input
/// plus r (reduced, it would verify) fail, on every engine, by the
/// oracle and by the Solidity verifier.
fn snarkjs_files_verify(dir: &str, inputs: usize) {
    let Some(root) = vectors_dir() else { return };
    let read = |f: &str| std::fs::read_to_string(root.join("groth16").join(dir).join(f)).expect(f);
    let vk_bytes = snarkjs::verifying_key(&read("verification_key.json")).expect("the key");
    let vk = VerifyingKey::from_bytes(&vk_bytes).expect("decodes");
    assert_eq!(vk.inputs(), inputs);
    assert!(vk.to_bytes() == vk_bytes, "the key's bytes come back");
    let proof: serde_json::Value = serde_json::from_str(&read("proof.json")).expect("proof.json");
    let public: serde_json::Value = serde_json::from_str(&read("public.json")).expect("public.json");
    let item = snarkjs::item(&proof, &public).expect("the item");
    let mut wrong_input = item.clone();
    wrong_input[256 + 31] ^= 1;
    let mut swapped = item.clone();
    swapped[..64].copy_from_slice(&item[192..256]);
    swapped[192..256].copy_from_slice(&item[..64]);
    let plus_r = {
        let x = num_bigint::BigUint::from_bytes_be(&item[256..288]);
        let r = num_bigint::BigUint::parse_bytes(
            b"21888242871839275222246405745257275088548364400416034343698204186575808495617",
            10,
        )
        .expect("r");
        let mut it = item.clone();
        let be = (x + r).to_bytes_be();
        it[256..288].fill(0);
        it[288 - be.len()..288].copy_from_slice(&be);
        it
    };
    let cases = [
        (&item, None),
        (&wrong_input, Some(Reason::Equation)),
        (&swapped, Some(Reason::Equation)),
        (&plus_r, Some(Reason::NonCanonicalElement)),
    ];
    let mut items = FlatBytes::new();
    for (it, want) in &cases {
        assert_eq!(oracle::verify(&vk, it), want.is_none(), "{dir}: oracle");
        assert_eq!(
            solidity_verifier(&vk_bytes, it),
            want.is_none(),
            "{dir}: Solidity verifier"
        );
        assert!(items.push(it));
    }
    let want: Vec<Option<Reason>> = cases.iter().map(|(_, w)| *w).collect();
    check_every_engine(&vk, &items, &want);
}

/// A zk-email circuit's proof (snarkjs 0.7, eleven public inputs; gamma =
/// delta, as a key without a phase-2 contribution has them).
#[test]
fn snarkjs_zkchess_files_verify() {
    snarkjs_files_verify("zkchess", 11);
}

/// A proof in snarkjs's format before 0.2 (`"protocol": "groth"`,
/// `vk_alfa_1`; seven public inputs, gamma and delta distinct).
#[test]
fn snarkjs_legacy_files_verify() {
    snarkjs_files_verify("snarkbvp", 7);
}

/// The reason each generated kind must get.
fn reason_of(kind: &str) -> Option<Reason> {
    match kind {
        k if sample::is_valid_kind(k) => None,
        "input_not_below_r" => Some(Reason::NonCanonicalElement),
        "a_off_curve" | "b_coordinate_not_below_p" => Some(Reason::MalformedProof),
        "b_not_in_subgroup" => Some(Reason::ProofNotInSubgroup),
        "one_input_short" => Some(Reason::WrongInputLength),
        "wrong_input" | "swapped_a_c" | "negated_c" | "a_at_infinity" => Some(Reason::Equation),
        other => panic!("a kind without a reason: {other}"),
    }
}

#[test]
fn generated_items_match_the_oracle_and_the_solidity_verifier() {
    for (inputs, count, share, seed) in [(4, 300, 0.5, 1), (1, 64, 0.0, 2), (9, 40, 1.0, 3), (2, 1, 1.0, 4)] {
        let made = sample::generate(inputs, count, share, seed);
        let vk = VerifyingKey::from_bytes(&made.vk).expect("the sample's key");
        let want: Vec<Option<Reason>> = made.items.iter().map(|it| reason_of(it.kind)).collect();
        for (it, w) in made.items.iter().zip(&want) {
            assert_eq!(oracle::verify(&vk, &it.bytes), w.is_none(), "oracle on {}", it.kind);
            assert_eq!(
                solidity_verifier(&made.vk, &it.bytes),
                w.is_none(),
                "Solidity on {}",
                it.kind
            );
        }
        check_every_engine(&vk, &sample::batch(&made.items), &want);
    }
}

#[test]
fn keys_and_snarkjs_files_are_refused_with_what_is_wrong() {
    let made = sample::generate(2, 1, 0.0, 7);
    let key = &made.vk;
    let refused = |bytes: &[u8], says: &str| {
        let e = VerifyingKey::from_bytes(bytes).expect_err("refused").to_string();
        assert!(e.contains(says), "{e:?} should say {says:?}");
    };
    refused(&key[..448 + 63], "at least 512 bytes");
    refused(&key[..key.len() - 1], "64 per IC point");
    let mut off = key.clone();
    off[63] ^= 1;
    refused(&off, "alpha");
    let mut beta = key.clone();
    beta[64] = 0xff;
    refused(&beta, "beta");
    let mut ic = key.clone();
    let last = ic.len() - 1;
    ic[last] ^= 1;
    refused(&ic, "IC_2");
    let json = |s: &str| snarkjs::verifying_key(s).expect_err("refused").to_string();
    assert!(json("{").contains("not JSON"));
    assert!(json(r#"{"protocol": "plonk"}"#).contains("protocol"));
    assert!(json(r#"{"IC": []}"#).contains("no IC points"));
    let proof: serde_json::Value =
        serde_json::json!({"pi_a": ["1", "2", "1"], "pi_b": [["1", "2"], ["3", "4"], ["1", "0"]]});
    let e = snarkjs::item(&proof, &serde_json::json!([]))
        .expect_err("no pi_c")
        .to_string();
    assert!(e.contains("pi_c"), "{e}");
    let big = "1".repeat(80);
    let e = snarkjs::word(&serde_json::json!(big), "x")
        .expect_err("too big")
        .to_string();
    assert!(e.contains("above 2^256"), "{e}");
    let e = snarkjs::g1(&serde_json::json!(["1", "2", "3"]), "pi_a")
        .expect_err("z")
        .to_string();
    assert!(e.contains("not affine"), "{e}");
    assert_eq!(
        snarkjs::g1(&serde_json::json!(["0", "1", "0"]), "pi_a").expect("infinity"),
        [0u8; 64]
    );
}
