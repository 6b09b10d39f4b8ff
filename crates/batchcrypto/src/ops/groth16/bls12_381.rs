//! Groth16 proofs over BLS12-381: Zcash's Sapling spend and output
//! proofs, Filecoin's storage proofs (bellman and bellperson), Sui's
//! `groth16::bls12381()` verifier, and the circuits gnark and snarkjs
//! (`--curve bls12381`) prove on this curve. The equation is
//! [`super`]'s; the encodings are the ones these systems write, all the
//! Zcash serialisation of BLS12-381 points (big-endian coordinates, the
//! three flag bits of the first byte: compressed, infinity, the larger
//! y), as blst and the Ethereum consensus specs read it.
//!
//! An item is the proof as bellman's `Proof::write` and arkworks'
//! `serialize_compressed` write it, A (G1, 48 bytes compressed) ‖ B (G2,
//! 96) ‖ C (G1, 48), [`PROOF_LEN`] bytes, followed by its public inputs,
//! 32 bytes each, little-endian (a scalar's `to_repr` in bellman, its
//! arkworks serialisation in Sui). A verifying key is read in either of
//! the two forms in use ([`VerifyingKey::from_bytes`]), told apart by its
//! first byte's compression flag. snarkjs's JSON for this curve converts
//! to these ([`snarkjs`]).
//!
//! Verdict: `ark-groth16`'s verifier ([`oracle`]) on the proof's points as
//! blst decodes them (flags, coordinates below p, on the curve, in the
//! order-r subgroup: G1's cofactor is not 1 on this curve), with bellman's
//! rule that none of A, B, C is the point at infinity (`Proof::read`
//! refuses it; arkworks and Sui accept it, and only a prover who knows
//! the key's trapdoor can make such a proof hold). Reasons, first failing
//! check in this order: `wrong_input_length` (not the proof and the key's
//! number of inputs), `non_canonical_element` (a public input not below
//! r: never reduced), `malformed_proof` (flags, a coordinate not below p,
//! no point with that x, the point at infinity), `proof_not_in_subgroup`
//! (A, B or C outside the order-r subgroup), `equation`.
//!
//! CPU path: the items decoded on every core, then [`super`]'s random
//! linear combinations (`cpu.rs`, shared with BN254). GPU path
//! (`gpu.rs`): each item's four pairs as an EIP-2537 pairing check on the
//! BLS12-381 pairing kernel.

pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub mod snarkjs;
pub(crate) mod workload;

use ark_bls12_381::{Bls12_381, Fr};
use ark_ec::AffineRepr;
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};

use std::sync::Arc;

use super::{Decoded, KeyCache, MAX_INPUTS, Prepared, cpu};
use crate::batch::FlatBytes;
use crate::bisect::Cost;
use crate::error::{Error, OpName};
use crate::ops::Op;
use crate::verdict::{Reason, Verdict};

/// Bytes of a public input (a scalar, little-endian).
pub const SCALAR_LEN: usize = 32;
/// Bytes of a compressed G1 point.
pub const G1_LEN: usize = 48;
/// Bytes of a compressed G2 point.
pub const G2_LEN: usize = 96;
/// Bytes of a proof: A (G1), B (G2), C (G1), compressed.
pub const PROOF_LEN: usize = 2 * G1_LEN + G2_LEN;

/// The compression flag of a point's first byte.
const COMPRESSED: u8 = 0x80;

/// Costs of a combination in single verifications on this curve, as
/// [`cpu::BATCH_COST`] on BN254 (`ark-groth16`'s single check 3.28 ms with
/// five public inputs in the test profile, dependencies optimised),
/// medians of 7 on one thread of the 2-vCPU EPYC development VM: 1.59 at
/// 2 items, 1.98 at 4, 2.91 at 8, 4.74 at 16,
/// 9.42 at 32, 15.4 at 64, 29.0 at 128.
pub(crate) const BATCH_COST: Cost = Cost {
    fixed: 1.0,
    per_item: 0.22,
    max_chunk: 128,
    leaf: 2,
};

/// A verifying key, decoded and checked once for every item of a batch.
#[derive(Debug, Clone)]
pub struct VerifyingKey {
    pub(crate) key: Prepared<Bls12_381>,
}

impl VerifyingKey {
    /// A key in either form in use, told apart by the first byte's
    /// compression flag:
    ///
    /// - compressed, as arkworks' `VerifyingKey::serialize_compressed`
    ///   writes it and Sui's `groth16::prepare_verifying_key` takes it:
    ///   alpha (G1) ‖ beta ‖ gamma ‖ delta (G2) ‖ the number of IC points
    ///   (8 bytes, little-endian) ‖ IC_0 ‖ … ‖ IC_l (G1), 344 + 48 (l + 1)
    ///   bytes;
    /// - uncompressed, as bellman's `VerifyingKey::write` writes it (the
    ///   head of Zcash's and Filecoin's parameter files): alpha (G1) ‖
    ///   beta (G1) ‖ beta (G2) ‖ gamma (G2) ‖ delta (G1) ‖ delta (G2) ‖
    ///   the number of IC points (4 bytes, big-endian) ‖ IC_0 ‖ … ‖ IC_l,
    ///   868 + 96 (l + 1) bytes; beta and delta in G1 are checked and not
    ///   used (the verifier does not need them).
    ///
    /// Every point must be a valid encoding on its curve and in the
    /// order-r subgroup (arkworks' uncompressed reading checks only the
    /// subgroup; the curve is checked here); an error names the first
    /// that is not. 1 to 1,025 IC points.
    pub fn from_bytes(bytes: &[u8]) -> Result<VerifyingKey, Error> {
        let compressed = bytes.first().is_some_and(|b| b & COMPRESSED != 0);
        let mode = if compressed { Compress::Yes } else { Compress::No };
        let (g1_len, g2_len) = if compressed {
            (G1_LEN, G2_LEN)
        } else {
            (2 * G1_LEN, 2 * G2_LEN)
        };
        // The points before the count, by name and group.
        let head: &[(&str, bool)] = if compressed {
            &[("alpha", true), ("beta", false), ("gamma", false), ("delta", false)]
        } else {
            &[
                ("alpha", true),
                ("beta in G1", true),
                ("beta", false),
                ("gamma", false),
                ("delta in G1", true),
                ("delta", false),
            ]
        };
        let count_len = if compressed { 8 } else { 4 };
        let fixed: usize = head.iter().map(|&(_, g1)| if g1 { g1_len } else { g2_len }).sum();
        let form = if compressed {
            "compressed (arkworks, Sui)"
        } else {
            "uncompressed (bellman)"
        };
        let count = bytes.get(fixed..fixed + count_len).map(|c| {
            let mut n = [0u8; 8];
            if compressed {
                n.copy_from_slice(c);
                u64::from_le_bytes(n)
            } else {
                n[4..].copy_from_slice(c);
                u64::from_be_bytes(n)
            }
        });
        // A count near 2^64 must not overflow the length it implies.
        let expected = count.map(|n| {
            let points = n.saturating_mul(g1_len as u64);
            (n, points.saturating_add((fixed + count_len) as u64))
        });
        match expected {
            Some((n, len)) if (1..=MAX_INPUTS as u64 + 1).contains(&n) && len == bytes.len() as u64 => {}
            _ => {
                return Err(refuse(format!(
                    "a verifying key in the {form} form is {fixed} bytes of points, the number of IC points (1 to {}) in {count_len} bytes, then {g1_len} bytes per IC point; got {} bytes{}",
                    MAX_INPUTS + 1,
                    bytes.len(),
                    count.map(|n| format!(" declaring {n} IC points")).unwrap_or_default()
                )));
            }
        }
        let mut at = 0;
        let mut g1s = Vec::new();
        let mut g2s = Vec::new();
        for &(name, in_g1) in head {
            if in_g1 {
                g1s.push(key_point::<ark_bls12_381::g1::Config>(
                    bytes, &mut at, g1_len, mode, name,
                )?);
            } else {
                g2s.push(key_point::<ark_bls12_381::g2::Config>(
                    bytes, &mut at, g2_len, mode, name,
                )?);
            }
        }
        at += count_len;
        let ic = (0..(bytes.len() - at) / g1_len)
            .map(|j| key_point::<ark_bls12_381::g1::Config>(bytes, &mut at, g1_len, mode, &format!("IC_{j}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(VerifyingKey {
            key: Prepared::new(ark_groth16::VerifyingKey {
                alpha_g1: g1s[0],
                beta_g2: g2s[0],
                gamma_g2: g2s[1],
                delta_g2: g2s[2],
                gamma_abc_g1: ic,
            }),
        })
    }

    /// The key's compressed form ([`VerifyingKey::from_bytes`]), whichever
    /// form it was read from.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a vector does not fail.
        let _written = self.key.prepared.vk.serialize_compressed(&mut out);
        out
    }

    /// How many public inputs each proof has.
    pub fn inputs(&self) -> usize {
        self.key.inputs()
    }

    /// Bytes of an item under this key: the proof and its public inputs.
    pub fn item_len(&self) -> usize {
        PROOF_LEN + SCALAR_LEN * self.inputs()
    }
}

/// Keys decoded by [`VerifyingKey::from_bytes_cached`].
static KEYS: KeyCache<VerifyingKey> = KeyCache::new();

impl VerifyingKey {
    /// [`VerifyingKey::from_bytes`], the same key shared with the callers
    /// that named the same bytes recently (the process keeps the 16 most
    /// recent distinct keys).
    pub fn from_bytes_cached(bytes: &[u8]) -> Result<Arc<VerifyingKey>, Error> {
        KEYS.get(bytes, VerifyingKey::from_bytes)
    }
}

/// The refusal of a verifying key.
fn refuse(reason: String) -> Error {
    Error::InvalidInput {
        op: OpName::Op(Op::Groth16VerifyBls12381),
        reason,
    }
}

/// The key's point `name` at `*at` (`len` bytes, then `*at` moves past
/// it), on its curve and in the subgroup.
fn key_point<P: SWCurveConfig>(
    bytes: &[u8],
    at: &mut usize,
    len: usize,
    mode: Compress,
    name: &str,
) -> Result<Affine<P>, Error> {
    let encoded = &bytes[*at..*at + len];
    *at += len;
    let p = on_curve::<P>(encoded, mode)
        .ok_or_else(|| refuse(format!("the key's {name} is not a point's encoding on its curve")))?;
    if !p.is_in_correct_subgroup_assuming_on_curve() {
        return Err(refuse(format!("the key's {name} is outside the order-r subgroup")));
    }
    Ok(p)
}

/// A point read by arkworks from its Zcash encoding, when on its curve
/// (arkworks finds a compressed point's y on the curve; it does not check
/// an uncompressed point's).
fn on_curve<P: SWCurveConfig>(bytes: &[u8], mode: Compress) -> Option<Affine<P>> {
    Affine::<P>::deserialize_with_mode(bytes, mode, Validate::No)
        .ok()
        .filter(|p| p.is_on_curve())
}

/// A proof's point: compressed, on its curve, not the point at infinity.
fn proof_point<P: SWCurveConfig>(bytes: &[u8]) -> Result<Affine<P>, Reason> {
    on_curve::<P>(bytes, Compress::Yes)
        .filter(|p| !p.is_zero())
        .ok_or(Reason::MalformedProof)
}

/// A public input: 32 bytes little-endian, below r.
fn scalar(bytes: &[u8]) -> Result<Fr, Reason> {
    Fr::deserialize_compressed(bytes).map_err(|_| Reason::NonCanonicalElement)
}

/// `item` decoded under `vk` with every check before the equation, in the
/// documented order, but the subgroup checks (the GPU path leaves them to
/// the device): a failure is the item's reason.
pub(crate) fn decode_on_curve(vk: &VerifyingKey, item: &[u8]) -> Result<Decoded<Bls12_381>, Reason> {
    if item.len() != vk.item_len() {
        return Err(Reason::WrongInputLength);
    }
    let inputs = item[PROOF_LEN..]
        .chunks_exact(SCALAR_LEN)
        .map(scalar)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Decoded {
        a: proof_point(&item[..G1_LEN])?,
        b: proof_point(&item[G1_LEN..G1_LEN + G2_LEN])?,
        c: proof_point(&item[G1_LEN + G2_LEN..PROOF_LEN])?,
        inputs,
    })
}

/// `item` decoded under `vk` with every check before the equation.
pub(crate) fn decode(vk: &VerifyingKey, item: &[u8]) -> Result<Decoded<Bls12_381>, Reason> {
    let d = decode_on_curve(vk, item)?;
    let in_subgroup = d.a.is_in_correct_subgroup_assuming_on_curve()
        && d.b.is_in_correct_subgroup_assuming_on_curve()
        && d.c.is_in_correct_subgroup_assuming_on_curve();
    if !in_subgroup {
        return Err(Reason::ProofNotInSubgroup);
    }
    Ok(d)
}

/// The CPU path's verdicts on `items` under `vk`.
pub(crate) fn cpu_verify(vk: &VerifyingKey, items: &FlatBytes) -> Vec<Verdict> {
    cpu::verify(&vk.key, items, |item| decode(vk, item), BATCH_COST)
}

/// A point's compressed Zcash encoding.
pub(crate) fn compress<P: SWCurveConfig>(p: &Affine<P>) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a vector does not fail.
    let _written = p.serialize_compressed(&mut out);
    out
}

/// A scalar's 32 little-endian bytes.
pub(crate) fn scalar_bytes(x: &Fr) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a vector does not fail.
    let _written = x.serialize_compressed(&mut out);
    out
}
