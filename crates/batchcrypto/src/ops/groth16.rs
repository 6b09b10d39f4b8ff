//! Groth16 proofs over BN254 (alt_bn128): the proofs circom and snarkjs
//! make, which Semaphore's members, Tornado-style pools, zkEmail,
//! World ID, Polygon ID's credentials and Sui's zkLogin send by the
//! thousand, and which relayers, indexers, bridges and light-client
//! services check before anything else (Groth16, "On the Size of
//! Pairing-based Non-interactive Arguments", EUROCRYPT 2016, section 3.2).
//!
//! A proof (A, B, C) with public inputs x_1..x_l holds under a verifying
//! key (alpha, beta, gamma, delta, IC_0..IC_l) iff
//!
//! e(A, B) = e(alpha, beta) · e(IC_0 + sum x_j IC_j, gamma) · e(C, delta).
//!
//! Encodings are the EVM's (EIP-197), as snarkjs's Solidity verifier and
//! every on-chain verifier take them: 32-byte big-endian words, a G1 point
//! as x ‖ y, a G2 point as x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (the `i` coefficient
//! first), all zeros for the point at infinity. An item is the proof (A ‖ B
//! ‖ C, [`PROOF_LEN`] bytes) followed by its public inputs (32 bytes each,
//! as many as the key has IC points less one); a verifying key is alpha ‖
//! beta ‖ gamma ‖ delta ‖ IC_0 ‖ … ‖ IC_l ([`VerifyingKey::from_bytes`]).
//! snarkjs's JSON files (`verification_key.json`, `proof.json`,
//! `public.json`) convert to these ([`snarkjs`]).
//!
//! Verdict: arkworks' `ark-groth16` verifier ([`oracle`]) on the decoded
//! proof, which is also what snarkjs's Solidity verifier (its field checks,
//! then ECMUL, ECADD and ECPAIRING) returns on valid encodings (the tests
//! hold the two together). Reasons, first failing check in this order:
//! `wrong_input_length` (the item is not the proof and the key's number of
//! inputs), `non_canonical_element` (a public input not below BN254's
//! scalar field modulus r: the Solidity verifier's `checkField`),
//! `malformed_proof` (a coordinate of A, B or C not below p, or a point
//! not on its curve), `proof_not_in_subgroup` (B on the twist but outside
//! the order-r subgroup; G1 has cofactor 1), `equation`.
//!
//! The same proofs over BLS12-381 (Zcash, Filecoin, Sui), with the
//! encodings of that curve's systems, are [`bls12_381`]'s operation; the
//! key's preparation, the single check and the CPU path's combination
//! are shared, generic over arkworks' pairing engine.
//!
//! CPU path (`cpu.rs`): the items decoded on every core, then random linear
//! combinations of their equations checked as one multi-pairing, bisected
//! on failure down to `ark-groth16`'s single verification. GPU path
//! (`gpu.rs`): each item's four pairs as an ECPAIRING call on the BN254
//! pairing kernel, the items decoded and the inputs' sums made on the CPU
//! cores.

pub mod bls12_381;
pub(crate) mod cpu;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub mod snarkjs;
pub(crate) mod workload;

use std::sync::Arc;

use ark_bn254::Bn254;
use ark_ec::pairing::Pairing;
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};

use crate::batch::FlatBytes;
use crate::error::{Error, OpName};
use crate::ops::Op;
use crate::ops::evm::bn254;
use crate::ops::poseidon;
use crate::recent::Recent;
use crate::verdict::{Reason, Verdict};

/// Bytes of a 32-byte word (a coordinate, a public input).
pub const WORD: usize = 32;
/// Bytes of an encoded G1 point.
pub const G1_LEN: usize = 2 * WORD;
/// Bytes of an encoded G2 point.
pub const G2_LEN: usize = 4 * WORD;
/// Bytes of a proof: A (G1), B (G2), C (G1).
pub const PROOF_LEN: usize = 2 * G1_LEN + G2_LEN;
/// Most public inputs a key may have (a circuit's public signals; Semaphore
/// has 4, zkLogin 1, the largest in use a few dozen).
pub const MAX_INPUTS: usize = 1024;

/// A verifying key, decoded and checked once for every item of a batch.
#[derive(Debug, Clone)]
pub struct VerifyingKey {
    pub(crate) key: Prepared<Bn254>,
}

impl VerifyingKey {
    /// A key from its EIP-197 encoding: alpha (G1) ‖ beta ‖ gamma ‖ delta
    /// (G2) ‖ IC_0 ‖ … ‖ IC_l (G1), 448 + 64 (l + 1) bytes for l public
    /// inputs. Every point must be a valid encoding (coordinates below p,
    /// on its curve, G2 points in the subgroup); an error names the first
    /// that is not.
    pub fn from_bytes(bytes: &[u8]) -> Result<VerifyingKey, Error> {
        let refuse = |reason: String| Error::InvalidInput {
            op: OpName::Op(Op::Groth16VerifyBn254),
            reason,
        };
        let fixed = G1_LEN + 3 * G2_LEN;
        let rest = bytes.len().checked_sub(fixed + G1_LEN).ok_or_else(|| {
            refuse(format!(
                "a verifying key takes at least {} bytes (alpha, beta, gamma, delta, IC_0), not {}",
                fixed + G1_LEN,
                bytes.len()
            ))
        })?;
        if !rest.is_multiple_of(G1_LEN) || rest / G1_LEN > MAX_INPUTS {
            return Err(refuse(format!(
                "a verifying key is {fixed} bytes and 64 per IC point (1 to {} of them), not {} bytes",
                MAX_INPUTS + 1,
                bytes.len()
            )));
        }
        let g1 = |name: &str, at: usize| {
            bn254::g1(&bytes[at..at + G1_LEN]).map_err(|e| refuse(format!("the key's {name} is refused: {e}")))
        };
        let g2 = |name: &str, at: usize| {
            bn254::g2(&bytes[at..at + G2_LEN]).map_err(|e| refuse(format!("the key's {name} is refused: {e}")))
        };
        let alpha = g1("alpha", 0)?;
        let beta = g2("beta", G1_LEN)?;
        let gamma = g2("gamma", G1_LEN + G2_LEN)?;
        let delta = g2("delta", G1_LEN + 2 * G2_LEN)?;
        let ic = (0..=rest / G1_LEN)
            .map(|j| g1(&format!("IC_{j}"), fixed + j * G1_LEN))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(VerifyingKey {
            key: Prepared::new(ark_groth16::VerifyingKey {
                alpha_g1: alpha,
                beta_g2: beta,
                gamma_g2: gamma,
                delta_g2: delta,
                gamma_abc_g1: ic,
            }),
        })
    }

    /// The key's EIP-197 encoding ([`VerifyingKey::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let vk = &self.key.prepared.vk;
        let mut out = Vec::with_capacity(G1_LEN + 3 * G2_LEN + G1_LEN * vk.gamma_abc_g1.len());
        out.extend(bn254::encode_g1(vk.alpha_g1));
        for q in [vk.beta_g2, vk.gamma_g2, vk.delta_g2] {
            out.extend(bn254::encode_g2(q));
        }
        for p in &vk.gamma_abc_g1 {
            out.extend(bn254::encode_g1(*p));
        }
        out
    }

    /// How many public inputs each proof has.
    pub fn inputs(&self) -> usize {
        self.key.inputs()
    }

    /// Bytes of an item under this key: the proof and its public inputs.
    pub fn item_len(&self) -> usize {
        PROOF_LEN + WORD * self.inputs()
    }
}

/// The keys decoded most recently on one curve, by their bytes
/// ([`Recent`]): callers that name a key by its bytes on every call (the
/// service's requests, the bindings' calls) decode each distinct key once
/// (decoding checks every point and computes e(alpha, beta): a call with
/// no items took 2.4 ms under a BN254 key of three inputs, 3.4 ms under a
/// BLS12-381 key of three, medians through the Python binding's dev build
/// on the 2-vCPU EPYC VM; with the key held, 3 and 4 µs). Sixteen keys
/// (callers name a few circuits' keys; a key of the most inputs is about
/// 100 KB decoded).
pub(crate) type KeyCache<K> = Recent<K, 16>;

/// BN254 keys decoded by [`VerifyingKey::from_bytes_cached`].
static KEYS: KeyCache<VerifyingKey> = KeyCache::new();

impl VerifyingKey {
    /// [`VerifyingKey::from_bytes`], the same key shared with the callers
    /// that named the same bytes recently (the process keeps the 16 most
    /// recent distinct keys).
    pub fn from_bytes_cached(bytes: &[u8]) -> Result<Arc<VerifyingKey>, Error> {
        KEYS.get(bytes, VerifyingKey::from_bytes)
    }
}

/// A verifying key on either curve, prepared for both checks: arkworks'
/// prepared key for `ark-groth16`'s single verification, with -beta
/// prepared for the combination's Miller loop (arkworks' holds -gamma and
/// -delta prepared).
#[derive(Debug, Clone)]
pub(crate) struct Prepared<E: Pairing> {
    pub(crate) prepared: ark_groth16::PreparedVerifyingKey<E>,
    pub(crate) neg_beta: E::G2Prepared,
}

impl<E: Pairing> Prepared<E> {
    /// `vk` prepared.
    pub(crate) fn new(vk: ark_groth16::VerifyingKey<E>) -> Prepared<E> {
        Prepared {
            neg_beta: (-vk.beta_g2.into_group()).into_affine().into(),
            prepared: ark_groth16::prepare_verifying_key(&vk),
        }
    }

    /// How many public inputs each proof has.
    pub(crate) fn inputs(&self) -> usize {
        self.prepared.vk.gamma_abc_g1.len() - 1
    }

    /// IC_0 + sum x_j IC_j for the public inputs `x` (as many as the key
    /// takes).
    pub(crate) fn input_sum(&self, x: &[E::ScalarField]) -> E::G1 {
        let ic = &self.prepared.vk.gamma_abc_g1;
        ic[0] + E::G1::msm_unchecked(&ic[1..], x)
    }

    /// `ark-groth16`'s verdict on a decoded item (the CPU path's single
    /// check).
    pub(crate) fn verify(&self, d: &Decoded<E>) -> bool {
        let proof = ark_groth16::Proof { a: d.a, b: d.b, c: d.c };
        ark_groth16::Groth16::<E>::verify_proof(&self.prepared, &proof, &d.inputs).unwrap_or(false)
    }
}

/// A decoded item: the proof's points and the public inputs.
#[derive(Debug, Clone)]
pub(crate) struct Decoded<E: Pairing> {
    pub(crate) a: E::G1Affine,
    pub(crate) b: E::G2Affine,
    pub(crate) c: E::G1Affine,
    pub(crate) inputs: Vec<E::ScalarField>,
}

/// `item` decoded under `vk` with every check before the equation, in the
/// documented order but B's subgroup membership (the GPU path leaves that
/// to the device): a failure is the item's reason.
pub(crate) fn decode_on_twist(vk: &VerifyingKey, item: &[u8]) -> Result<Decoded<Bn254>, Reason> {
    if item.len() != vk.item_len() {
        return Err(Reason::WrongInputLength);
    }
    let inputs = item[PROOF_LEN..]
        .chunks_exact(WORD)
        .map(poseidon::element)
        .collect::<Result<Vec<_>, _>>()?;
    let malformed = |_| Reason::MalformedProof;
    let a = bn254::g1(&item[..G1_LEN]).map_err(malformed)?;
    let b = bn254::g2_on_twist(&item[G1_LEN..G1_LEN + G2_LEN]).map_err(malformed)?;
    let c = bn254::g1(&item[G1_LEN + G2_LEN..PROOF_LEN]).map_err(malformed)?;
    Ok(Decoded { a, b, c, inputs })
}

/// `item` decoded under `vk` with every check before the equation.
pub(crate) fn decode(vk: &VerifyingKey, item: &[u8]) -> Result<Decoded<Bn254>, Reason> {
    let d = decode_on_twist(vk, item)?;
    if !d.b.is_in_correct_subgroup_assuming_on_curve() {
        return Err(Reason::ProofNotInSubgroup);
    }
    Ok(d)
}

/// The CPU path's verdicts on `items` under `vk` (`cpu.rs`).
pub(crate) fn cpu_verify(vk: &VerifyingKey, items: &FlatBytes) -> Vec<Verdict> {
    cpu::verify(&vk.key, items, |item| decode(vk, item), cpu::BATCH_COST)
}
