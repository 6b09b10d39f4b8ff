//! snarkjs's JSON for circuits proved over BLS12-381 (`circom --prime
//! bls12381`, a key with `"curve": "bls12381"`) as this operation's
//! encodings: the key in the compressed form, the proof's points
//! compressed, the public inputs little-endian. The numbers and points
//! are read as for BN254 ([`crate::ops::groth16::snarkjs`]); a
//! coordinate must be below p and a point on its curve, since compressing
//! keeps only x (an error names the field). A public input is kept as
//! written, up to 2^256 - 1: one not below r is the item's
//! `non_canonical_element`, not reduced.

use ark_bls12_381::{Fq, Fq2, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::PrimeField;
use num_bigint::BigUint;
use serde_json::Value;

use super::{PROOF_LEN, compress};
use crate::error::{Error, OpName};
use crate::ops::Op;
use crate::ops::groth16::snarkjs::{BLS12_381, Coords, key_json, proof_coords, public_words, texts};

/// An error naming what was refused.
fn refuse(reason: String) -> Error {
    Error::InvalidInput {
        op: OpName::Op(Op::Groth16VerifyBls12381),
        reason,
    }
}

/// A coordinate below p.
fn fq(n: &BigUint, what: &str) -> Result<Fq, String> {
    if *n >= BigUint::from(Fq::MODULUS) {
        return Err(format!("{what} has a coordinate not below p"));
    }
    Ok(Fq::from(n.clone()))
}

/// A G1 point compressed, when on the curve.
fn g1(c: &Coords, what: &str) -> Result<Vec<u8>, String> {
    let p = match c {
        None => G1Affine::zero(),
        Some(c) => G1Affine::new_unchecked(fq(&c[0], what)?, fq(&c[1], what)?),
    };
    if !p.is_on_curve() {
        return Err(format!("{what} is not on the curve"));
    }
    Ok(compress(&p))
}

/// A G2 point compressed, when on the twist.
fn g2(c: &Coords, what: &str) -> Result<Vec<u8>, String> {
    let q = match c {
        None => G2Affine::zero(),
        Some(c) => G2Affine::new_unchecked(
            Fq2::new(fq(&c[0], what)?, fq(&c[1], what)?),
            Fq2::new(fq(&c[2], what)?, fq(&c[3], what)?),
        ),
    };
    if !q.is_on_curve() {
        return Err(format!("{what} is not on the curve"));
    }
    Ok(compress(&q))
}

/// A `verification_key.json` as the key's compressed form (for
/// [`super::VerifyingKey::from_bytes`]).
pub fn verifying_key(json: &str) -> Result<Vec<u8>, Error> {
    let read = || -> Result<Vec<u8>, String> {
        let k = key_json(json, &BLS12_381)?;
        let mut out = g1(&k.alpha, "vk_alpha_1")?;
        for (c, name) in k.g2.iter().zip(["vk_beta_2", "vk_gamma_2", "vk_delta_2"]) {
            out.extend(g2(c, name)?);
        }
        out.extend((k.ic.len() as u64).to_le_bytes());
        for (j, c) in k.ic.iter().enumerate() {
            out.extend(g1(c, &format!("IC[{j}]"))?);
        }
        Ok(out)
    };
    read().map_err(refuse)
}

/// A proof object (`pi_a`, `pi_b`, `pi_c`) as the proof's encoding.
pub fn proof(proof: &Value) -> Result<[u8; PROOF_LEN], Error> {
    let read = || -> Result<[u8; PROOF_LEN], String> {
        let [a, b, c] = proof_coords(proof, &BLS12_381)?;
        let bytes = [g1(&a, "pi_a")?, g2(&b, "pi_b")?, g1(&c, "pi_c")?].concat();
        bytes
            .try_into()
            .map_err(|_| "a compressed proof is 192 bytes".to_string())
    };
    read().map_err(refuse)
}

/// Public inputs (`public.json`'s array) as 32-byte little-endian words,
/// in order.
pub fn public_inputs(public: &Value) -> Result<Vec<u8>, Error> {
    let words = public_words(public).map_err(refuse)?;
    Ok(words.iter().flat_map(|w| w.iter().rev().copied()).collect())
}

/// A proof object and its public inputs as an item's bytes.
pub fn item(proof_json: &Value, public: &Value) -> Result<Vec<u8>, Error> {
    let mut out = proof(proof_json)?.to_vec();
    out.extend(public_inputs(public)?);
    Ok(out)
}

/// [`item`] from the two files' text (`proof.json`, `public.json`).
pub fn item_from_text(proof_json: &str, public_json: &str) -> Result<Vec<u8>, Error> {
    let (proof, public) = texts(proof_json, public_json).map_err(refuse)?;
    item(&proof, &public)
}
