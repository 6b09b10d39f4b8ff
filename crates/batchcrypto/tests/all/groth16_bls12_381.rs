//! Groth16 over BLS12-381 against `ark-groth16` on blst's decoding, on
//! every engine: Sui's known answers (a proof that verifies under its
//! key, and a key with what Sui's `prepare_verifying_key` makes of it:
//! testdata/groth16/sui-bls12381), generated keys in both forms and
//! proofs honest and hostile item by item with each kind's reason, and
//! where bellman's rule and arkworks' own verifier part (the point at
//! infinity in a proof).

use ark_bls12_381::{Bls12_381, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ec::pairing::Pairing;
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use batchcrypto::ops::groth16::bls12_381::{VerifyingKey, oracle, sample, snarkjs};
use batchcrypto::ops::groth16::sample::batch;
use batchcrypto::{FlatBytes, Op, Reason, Verdict};

use crate::support::{assert_each, on_every_engine_of, vectors_dir};

/// Every engine's verdicts on `items` under `vk`, each against `want`.
fn check_every_engine(vk: &VerifyingKey, items: &FlatBytes, want: &[Option<Reason>]) {
    for (name, got) in on_every_engine_of(Op::Groth16VerifyBls12381, |e| {
        e.verify_groth16_bls12_381(vk, items).expect("verify")
    }) {
        assert_each(name, &got, want, |v: &Verdict, w| v.reason() == *w);
    }
}

/// Sui's vectors (testdata/groth16/sui-bls12381/vectors.json).
fn sui() -> Option<serde_json::Value> {
    let path = vectors_dir()?.join("groth16/sui-bls12381/vectors.json");
    Some(serde_json::from_str(&std::fs::read_to_string(path).expect("vectors.json")).expect("JSON"))
}

fn hex_of(v: &serde_json::Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("a hex string")).expect("hex")
}

/// Sui's example proof verifies under its key (put in the compressed
/// form: alpha, beta, gamma, delta, the count, IC), its public input
/// written little-endian; as Sui gives it (big-endian) it is not below r,
/// and the proof altered fails with the reason of each alteration, by the
/// oracle and on every engine.
#[test]
fn sui_example_proof_verifies() {
    let Some(v) = sui() else { return };
    let ex = &v["example"];
    let ic: Vec<Vec<u8>> = ex["gamma_abc"]
        .as_array()
        .expect("gamma_abc")
        .iter()
        .map(hex_of)
        .collect();
    let mut key = [
        hex_of(&ex["alpha"]),
        hex_of(&ex["beta"]),
        hex_of(&ex["gamma"]),
        hex_of(&ex["delta"]),
    ]
    .concat();
    key.extend((ic.len() as u64).to_le_bytes());
    key.extend(ic.concat());
    let vk = VerifyingKey::from_bytes(&key).expect("Sui's key");
    assert_eq!((vk.inputs(), vk.to_bytes()), (1, key.clone()));
    let proof = [hex_of(&ex["a"]), hex_of(&ex["b"]), hex_of(&ex["c"])].concat();
    let big_endian = hex_of(&ex["public_inputs_big_endian"][0]);
    let little_endian: Vec<u8> = big_endian.iter().rev().copied().collect();
    let item = [&proof[..], &little_endian].concat();
    let mut wrong_input = item.clone();
    wrong_input[192] ^= 1;
    let mut swapped = item.clone();
    swapped[..48].copy_from_slice(&item[144..192]);
    swapped[144..192].copy_from_slice(&item[..48]);
    let mut negated_c = item.clone();
    negated_c[144] ^= 0x20;
    let mut flag = item.clone();
    flag[48] &= 0x7f;
    let cases = [
        (item.clone(), None),
        ([&proof[..], &big_endian].concat(), Some(Reason::NonCanonicalElement)),
        (wrong_input, Some(Reason::Equation)),
        (swapped, Some(Reason::Equation)),
        (negated_c, Some(Reason::Equation)),
        (flag, Some(Reason::MalformedProof)),
        (item[..200].to_vec(), Some(Reason::WrongInputLength)),
    ];
    let mut items = FlatBytes::new();
    for (it, want) in &cases {
        assert_eq!(oracle::verify(&vk, it), want.is_none(), "oracle, {want:?}");
        assert!(items.push(it));
    }
    let want: Vec<Option<Reason>> = cases.iter().map(|(_, w)| *w).collect();
    check_every_engine(&vk, &items, &want);
}

/// Sui's key in the compressed form decodes and comes back byte for byte,
/// and what Sui prepares from it is what its points give: e(alpha, beta)
/// and -gamma, -delta (arkworks' serialisations, as Sui writes them).
#[test]
fn sui_key_decodes_to_what_sui_prepares() {
    let Some(v) = sui() else { return };
    let p = &v["prepare"];
    let key = hex_of(&p["vk"]);
    let vk = VerifyingKey::from_bytes(&key).expect("Sui's key");
    assert_eq!((vk.inputs(), vk.to_bytes() == key), (1, true));
    let ark = ark_groth16::VerifyingKey::<Bls12_381>::deserialize_compressed(&key[..]).expect("arkworks reads it");
    let ser = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut out = Vec::new();
        f(&mut out);
        out
    };
    let ic = ser(&|o| {
        for p in &ark.gamma_abc_g1 {
            p.serialize_compressed(&mut *o).expect("written");
        }
    });
    assert_eq!(ic, hex_of(&p["gamma_abc"]), "IC points");
    let alpha_beta = ser(&|o| {
        Bls12_381::pairing(ark.alpha_g1, ark.beta_g2)
            .serialize_compressed(&mut *o)
            .expect("written")
    });
    assert_eq!(alpha_beta, hex_of(&p["alpha_beta"]), "e(alpha, beta)");
    let neg = |q: G2Affine| ser(&|o| (-q).serialize_compressed(&mut *o).expect("written"));
    assert_eq!(neg(ark.gamma_g2), hex_of(&p["gamma_neg"]), "-gamma");
    assert_eq!(neg(ark.delta_g2), hex_of(&p["delta_neg"]), "-delta");
}

/// The reason each generated kind must get.
fn reason_of(kind: &str) -> Option<Reason> {
    match kind {
        k if sample::is_valid_kind(k) => None,
        "input_not_below_r" => Some(Reason::NonCanonicalElement),
        "a_not_on_curve" | "b_coordinate_not_below_p" | "a_at_infinity" | "b_at_infinity" | "a_flag_uncompressed" => {
            Some(Reason::MalformedProof)
        }
        "a_not_in_subgroup" | "b_not_in_subgroup" => Some(Reason::ProofNotInSubgroup),
        "one_input_short" => Some(Reason::WrongInputLength),
        "wrong_input" | "swapped_a_c" | "negated_c" => Some(Reason::Equation),
        other => panic!("a kind without a reason: {other}"),
    }
}

/// arkworks' own verifier on arkworks' own validated reading (what Sui
/// runs): the same verdicts but for the proofs with a point at infinity,
/// which hold for it (bellman refuses them).
fn arkworks_alone(vk: &[u8], item: &[u8]) -> bool {
    let Ok(key) = ark_groth16::VerifyingKey::<Bls12_381>::deserialize_compressed(vk) else {
        return false;
    };
    let inputs = key.gamma_abc_g1.len() - 1;
    if item.len() != 192 + 32 * inputs {
        return false;
    }
    let Ok(proof) = ark_groth16::Proof::<Bls12_381>::deserialize_compressed(&item[..192]) else {
        return false;
    };
    let xs: Result<Vec<_>, _> = item[192..]
        .chunks(32)
        .map(<Bls12_381 as Pairing>::ScalarField::deserialize_compressed)
        .collect();
    let Ok(xs) = xs else { return false };
    let pvk = ark_groth16::prepare_verifying_key(&key);
    ark_groth16::Groth16::<Bls12_381>::verify_proof(&pvk, &proof, &xs).unwrap_or(false)
}

#[test]
fn generated_items_match_the_oracle_on_every_engine() {
    for (inputs, count, share, seed) in [(5, 240, 0.5, 1), (1, 48, 0.0, 2), (7, 60, 1.0, 3), (2, 1, 1.0, 4)] {
        let trapdoor = sample::Trapdoor::new(inputs, seed);
        let made = sample::generate(inputs, count, share, seed);
        let vk = VerifyingKey::from_bytes(&made.vk).expect("the sample's key");
        let bellman = VerifyingKey::from_bytes(&trapdoor.bellman_key()).expect("the bellman form");
        assert!(bellman.to_bytes() == made.vk, "both forms are one key");
        let want: Vec<Option<Reason>> = made.items.iter().map(|it| reason_of(it.kind)).collect();
        for (it, w) in made.items.iter().zip(&want) {
            assert_eq!(oracle::verify(&vk, &it.bytes), w.is_none(), "oracle on {}", it.kind);
            let infinity = matches!(it.kind, "a_at_infinity" | "b_at_infinity");
            assert_eq!(
                arkworks_alone(&made.vk, &it.bytes),
                w.is_none() || infinity,
                "arkworks alone on {}",
                it.kind
            );
        }
        let items = batch(&made.items);
        check_every_engine(&vk, &items, &want);
        check_every_engine(&bellman, &items, &want);
    }
}

#[test]
fn keys_are_refused_with_what_is_wrong() {
    let trapdoor = sample::Trapdoor::new(2, 7);
    let (key, bellman) = (trapdoor.key(), trapdoor.bellman_key());
    assert_eq!((key.len(), bellman.len()), (344 + 48 * 3, 868 + 96 * 3));
    let refused = |bytes: &[u8], says: &str| {
        let e = VerifyingKey::from_bytes(bytes).expect_err("refused").to_string();
        assert!(e.contains(says), "{e:?} should say {says:?}");
    };
    refused(&[], "compressed");
    refused(&key[..key.len() - 1], "declaring 3 IC points");
    refused(&bellman[..bellman.len() - 1], "uncompressed (bellman)");
    let mut none = key[..344].to_vec();
    none[336..344].fill(0);
    refused(&none, "declaring 0 IC points");
    // A count near 2^64 (the cli fuzz target's find: the length it implies
    // overflowed).
    let mut huge = key.clone();
    huge[336..344].fill(0xff);
    refused(&huge, "declaring 18446744073709551615 IC points");
    let mut huge = bellman.clone();
    huge[864..868].fill(0xff);
    refused(&huge, "declaring 4294967295 IC points");
    // The uncompressed form's curve check, which arkworks leaves out.
    let mut off = bellman.clone();
    off[95] ^= 1;
    refused(&off, "the key's alpha is not a point");
    let mut beta_g1 = bellman.clone();
    beta_g1[96 + 95] ^= 1;
    refused(&beta_g1, "beta in G1");
    let mut gamma = key.clone();
    gamma[48 + 96] ^= 0x80;
    refused(&gamma, "gamma");
    // IC_2 moved off the subgroup: a point of the curve with another x.
    let outside = {
        let mut x = 1u64;
        loop {
            let fx = ark_bls12_381::Fq::from(x);
            if let Some(p) = G1Affine::get_point_from_x_unchecked(fx, false)
                && !p.is_in_correct_subgroup_assuming_on_curve()
            {
                let mut out = Vec::new();
                p.serialize_compressed(&mut out).expect("written");
                break out;
            }
            x += 1;
        }
    };
    let mut ic = key.clone();
    let at = ic.len() - 48;
    ic[at..].copy_from_slice(&outside);
    refused(&ic, "IC_2 is outside the order-r subgroup");
    assert!(G1Affine::zero().is_zero());
}

/// A G1 point as snarkjs writes it (decimal affine coordinates, z).
fn g1_json(p: &G1Affine) -> serde_json::Value {
    match p.xy() {
        Some((x, y)) => serde_json::json!([x.to_string(), y.to_string(), "1"]),
        None => serde_json::json!(["0", "1", "0"]),
    }
}

/// A G2 point as snarkjs writes it (each Fp2's real coefficient first).
fn g2_json(q: &G2Affine) -> serde_json::Value {
    match q.xy() {
        Some((x, y)) => serde_json::json!([
            [x.c0.to_string(), x.c1.to_string()],
            [y.c0.to_string(), y.c1.to_string()],
            ["1", "0"]
        ]),
        None => serde_json::json!([["0", "0"], ["1", "0"], ["0", "0"]]),
    }
}

/// snarkjs's JSON for BLS12-381 (`"curve": "bls12381"`) comes back as the
/// same bytes: a generated key (from its points' decimal coordinates) and
/// honest proofs with their public inputs, inputs 0 and r - 1 among them;
/// a point off its curve or a coordinate not below p is refused naming
/// the field (compressing would drop the y that makes it wrong).
#[test]
fn snarkjs_json_converts_to_the_same_bytes() {
    let made = sample::generate(3, 24, 0.0, 21);
    let key = ark_groth16::VerifyingKey::<Bls12_381>::deserialize_compressed(&made.vk[..]).expect("the key");
    let json = serde_json::json!({
        "protocol": "groth16",
        "curve": "bls12381",
        "nPublic": 3,
        "vk_alpha_1": g1_json(&key.alpha_g1),
        "vk_beta_2": g2_json(&key.beta_g2),
        "vk_gamma_2": g2_json(&key.gamma_g2),
        "vk_delta_2": g2_json(&key.delta_g2),
        "IC": key.gamma_abc_g1.iter().map(g1_json).collect::<Vec<_>>(),
    });
    assert!(snarkjs::verifying_key(&json.to_string()).expect("the key's JSON") == made.vk);
    for it in &made.items {
        let proof = ark_groth16::Proof::<Bls12_381>::deserialize_compressed(&it.bytes[..192]).expect("a proof");
        let public: Vec<String> = it.bytes[192..]
            .chunks(32)
            .map(|x| {
                <Bls12_381 as Pairing>::ScalarField::deserialize_compressed(x)
                    .expect("x")
                    .to_string()
            })
            .collect();
        let proof_json = serde_json::json!({
            "pi_a": g1_json(&proof.a), "pi_b": g2_json(&proof.b), "pi_c": g1_json(&proof.c),
            "protocol": "groth16", "curve": "bls12381"
        });
        let got = snarkjs::item(&proof_json, &serde_json::json!(public)).expect("the item");
        assert!(got == it.bytes, "{}", it.kind);
    }
    let refused = |proof: serde_json::Value, says: &str| {
        let e = snarkjs::proof(&proof).expect_err("refused").to_string();
        assert!(e.contains(says), "{e:?} should say {says:?}");
    };
    let a = ark_groth16::Proof::<Bls12_381>::deserialize_compressed(&made.items[0].bytes[..192]).expect("a proof");
    let mut off = g1_json(&a.a);
    off[1] = serde_json::json!("5");
    refused(
        serde_json::json!({"pi_a": off, "pi_b": g2_json(&a.b), "pi_c": g1_json(&a.c)}),
        "pi_a is not on the curve",
    );
    let p = "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
    let mut big = g2_json(&a.b);
    big[0][1] = serde_json::json!(p);
    refused(
        serde_json::json!({"pi_a": g1_json(&a.a), "pi_b": big, "pi_c": g1_json(&a.c)}),
        "pi_b has a coordinate not below p",
    );
    refused(
        serde_json::json!({"pi_a": g1_json(&a.a), "pi_b": g2_json(&a.b), "pi_c": g1_json(&a.c), "curve": "bn128"}),
        "curve",
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]

    /// A key in either form with bytes changed, its count field set to
    /// any value (the overflow the cli fuzz target found) and its length
    /// cut or grown: decoding never panics, and a key that decodes comes
    /// back from its compressed form as the same key.
    #[test]
    fn changed_keys_decode_or_are_refused(
        bellman in proptest::prelude::any::<bool>(),
        flips in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), 1u8..=255), 0..4),
        count in proptest::option::of(proptest::prelude::any::<u64>()),
        resize in -100i32..100,
    ) {
        let trapdoor = sample::Trapdoor::new(2, 41);
        let mut key = if bellman { trapdoor.bellman_key() } else { trapdoor.key() };
        for (at, x) in &flips {
            let i = at.index(key.len());
            key[i] ^= x;
        }
        if let Some(n) = count {
            if bellman {
                key[864..868].copy_from_slice(&(n as u32).to_be_bytes());
            } else {
                key[336..344].copy_from_slice(&n.to_le_bytes());
            }
        }
        let len = (key.len() as i32 + resize).max(0) as usize;
        key.resize(len, 0x5a);
        if let Ok(vk) = VerifyingKey::from_bytes(&key) {
            let again = VerifyingKey::from_bytes(&vk.to_bytes()).expect("its compressed form decodes");
            proptest::prop_assert!(again.to_bytes() == vk.to_bytes());
            proptest::prop_assert!((1..=1024).contains(&vk.inputs()));
        }
    }
}

/// A proof snarkjs made over BLS12-381 (`testdata/groth16/snarkjs-bls12381`,
/// from Avail's tests: one public input, 33) verifies through the snarkjs
/// readers on every engine; 34 instead, 33 + r, and A and C swapped fail
/// with their reasons. The key's `vk_alphabeta_12`, snarkjs's e(alpha,
/// beta), is arkworks' pairing of the points read.
#[test]
fn snarkjs_bls12_381_files_verify() {
    let Some(root) = vectors_dir() else { return };
    let dir = root.join("groth16/snarkjs-bls12381");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect(f);
    let key_json = read("verification_key.json");
    let vk_bytes = snarkjs::verifying_key(&key_json).expect("the key");
    let vk = VerifyingKey::from_bytes(&vk_bytes).expect("decodes");
    assert_eq!(vk.inputs(), 1);
    let item = snarkjs::item_from_text(&read("proof.json"), &read("public.json")).expect("the item");
    let other = |public: &str| snarkjs::item_from_text(&read("proof.json"), public).expect("an item");
    let mut swapped = item.clone();
    swapped[..48].copy_from_slice(&item[144..192]);
    swapped[144..192].copy_from_slice(&item[..48]);
    let r_plus_33 = "52435875175126190479447740508185965837690552500527637822603658699938581184546";
    let cases = [
        (item.clone(), None),
        (other(r#"["34"]"#), Some(Reason::Equation)),
        (other(&format!(r#"["{r_plus_33}"]"#)), Some(Reason::NonCanonicalElement)),
        (swapped, Some(Reason::Equation)),
        (other(r#"["33", "1"]"#), Some(Reason::WrongInputLength)),
    ];
    let mut items = FlatBytes::new();
    for (it, want) in &cases {
        assert_eq!(oracle::verify(&vk, it), want.is_none(), "oracle, {want:?}");
        assert!(items.push(it));
    }
    let want: Vec<Option<Reason>> = cases.iter().map(|(_, w)| *w).collect();
    check_every_engine(&vk, &items, &want);
    // snarkjs's e(alpha, beta): [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]], each Fp2 [c0, c1].
    let json: serde_json::Value = serde_json::from_str(&key_json).expect("JSON");
    let ark = ark_groth16::VerifyingKey::<Bls12_381>::deserialize_compressed(&vk_bytes[..]).expect("the key");
    let gt = Bls12_381::pairing(ark.alpha_g1, ark.beta_g2).0;
    let mut ours = Vec::new();
    for c in [gt.c0, gt.c1] {
        for f in [c.c0, c.c1, c.c2] {
            ours.extend([f.c0.to_string(), f.c1.to_string()]);
        }
    }
    let theirs: Vec<String> = json["vk_alphabeta_12"]
        .as_array()
        .expect("alphabeta")
        .iter()
        .flat_map(|c| c.as_array().expect("Fp6").iter())
        .flat_map(|f| f.as_array().expect("Fp2").iter())
        .map(|x| x.as_str().expect("a number").to_string())
        .collect();
    assert_eq!(ours, theirs, "e(alpha, beta)");
}
