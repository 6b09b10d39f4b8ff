//! The oracle: `ark-groth16`'s verifier, item by item, on the proof's
//! points as blst decodes them (`uncompress`: the flags, x below p, a
//! point with that x; then the subgroup check, which refuses the point at
//! infinity as bellman's `Proof::read` does), handed to arkworks in their
//! uncompressed form, and the public inputs as arkworks deserialises a
//! scalar (little-endian, refused when not below r).

use ark_bls12_381::{Fr, G1Affine, G2Affine};
use ark_serialize::CanonicalDeserialize;
use blst::min_pk::{PublicKey, Signature};

use super::{G1_LEN, G2_LEN, PROOF_LEN, SCALAR_LEN, VerifyingKey};
use crate::ops::groth16::oracle::verdict;

/// A compressed G1 point in the subgroup, not infinity, as blst reads it.
fn g1(bytes: &[u8]) -> Option<G1Affine> {
    let p = PublicKey::uncompress(bytes).ok()?;
    p.validate().ok()?;
    G1Affine::deserialize_uncompressed_unchecked(&p.serialize()[..]).ok()
}

/// A compressed G2 point in the subgroup, not infinity, as blst reads it.
fn g2(bytes: &[u8]) -> Option<G2Affine> {
    let q = Signature::uncompress(bytes).ok()?;
    q.validate(true).ok()?;
    G2Affine::deserialize_uncompressed_unchecked(&q.serialize()[..]).ok()
}

/// `ark-groth16`'s verdict on `item` (the proof and its public inputs,
/// see [`super`]) under `vk`.
pub fn verify(vk: &VerifyingKey, item: &[u8]) -> bool {
    if item.len() != vk.item_len() {
        return false;
    }
    let inputs: Option<Vec<Fr>> = item[PROOF_LEN..]
        .chunks_exact(SCALAR_LEN)
        .map(|w| Fr::deserialize_compressed(w).ok())
        .collect();
    let proof = || {
        Some(ark_groth16::Proof {
            a: g1(&item[..G1_LEN])?,
            b: g2(&item[G1_LEN..G1_LEN + G2_LEN])?,
            c: g1(&item[G1_LEN + G2_LEN..PROOF_LEN])?,
        })
    };
    verdict(&vk.key.prepared, inputs, proof())
}
