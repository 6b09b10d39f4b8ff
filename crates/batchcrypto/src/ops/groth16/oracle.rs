//! The oracle: `ark-groth16`'s verifier, item by item, on the proof's
//! points as arkworks' own validation reads them (each coordinate
//! deserialised as a field element, which refuses one not below p; each
//! point checked by `Valid::check`: on its curve and in the prime-order
//! subgroup; all zeros the point at infinity, as EIP-197 writes it).

use ark_bn254::{Fq, Fq2, Fr, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ec::pairing::Pairing;
use ark_serialize::{CanonicalDeserialize, Valid};

use super::{G1_LEN, G2_LEN, PROOF_LEN, VerifyingKey, WORD};

/// A 32-byte big-endian word as arkworks deserialises a field element
/// (little-endian; `None` when not below the modulus).
fn field<F: CanonicalDeserialize>(word: &[u8]) -> Option<F> {
    let mut le = [0u8; WORD];
    le.copy_from_slice(word);
    le.reverse();
    F::deserialize_uncompressed(&le[..]).ok()
}

/// An EIP-197 G1 point, validated by arkworks.
fn g1(bytes: &[u8]) -> Option<G1Affine> {
    let (x, y): (Fq, Fq) = (field(&bytes[..WORD])?, field(&bytes[WORD..])?);
    let p = if bytes.iter().all(|&b| b == 0) {
        G1Affine::zero()
    } else {
        G1Affine::new_unchecked(x, y)
    };
    p.check().ok().map(|()| p)
}

/// An EIP-197 G2 point (each Fp2 element's `i` coefficient first),
/// validated by arkworks.
fn g2(bytes: &[u8]) -> Option<G2Affine> {
    let fq2 = |w: &[u8]| Some(Fq2::new(field(&w[WORD..])?, field(&w[..WORD])?));
    let (x, y) = (fq2(&bytes[..2 * WORD])?, fq2(&bytes[2 * WORD..])?);
    let q = if bytes.iter().all(|&b| b == 0) {
        G2Affine::zero()
    } else {
        G2Affine::new_unchecked(x, y)
    };
    q.check().ok().map(|()| q)
}

/// `ark-groth16`'s verdict on `item` (the proof and its public inputs,
/// see [`super`]) under `vk`.
pub fn verify(vk: &VerifyingKey, item: &[u8]) -> bool {
    if item.len() != vk.item_len() {
        return false;
    }
    let inputs: Option<Vec<Fr>> = item[PROOF_LEN..].chunks_exact(WORD).map(field).collect();
    let proof = || {
        Some(ark_groth16::Proof {
            a: g1(&item[..G1_LEN])?,
            b: g2(&item[G1_LEN..G1_LEN + G2_LEN])?,
            c: g1(&item[G1_LEN + G2_LEN..PROOF_LEN])?,
        })
    };
    verdict(&vk.key.prepared, inputs, proof())
}

/// `ark-groth16`'s verdict on decoded inputs and proof, on either curve
/// (either missing: they did not decode, the item fails).
pub(crate) fn verdict<E: Pairing>(
    pvk: &ark_groth16::PreparedVerifyingKey<E>,
    inputs: Option<Vec<E::ScalarField>>,
    proof: Option<ark_groth16::Proof<E>>,
) -> bool {
    match (inputs, proof) {
        (Some(inputs), Some(proof)) => ark_groth16::Groth16::<E>::verify_proof(pvk, &proof, &inputs).unwrap_or(false),
        _ => false,
    }
}
