//! The GPU path: each item's equation as an EIP-197 pairing check of four
//! pairs, e(-A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) = 1 (as
//! snarkjs's Solidity verifier calls ECPAIRING), on the BN254 pairing
//! kernel of the precompile ([`crate::ops::evm`]'s GPU path: a thread per
//! pair for its Miller loop and G2's subgroup check, a thread per call for
//! the product and the final exponentiation). The items are decoded on
//! the CPU cores with every check but B's subgroup membership
//! ([`super::decode_on_twist`]), which the kernel makes, and each item's
//! vk_x = IC_0 + sum x_j IC_j is summed there too. No combination across
//! items: each is its own pairing check.

use ark_bn254::Bn254;
use ark_ec::CurveGroup;

use super::{Decoded, VerifyingKey, decode_on_twist};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{GpuRuntime, Streamed, through};
use crate::ops::evm::{CallResult, Precompile, PrecompileError, bn254};
use crate::verdict::{Reason, Verdict};

/// One verdict per item under `vk`, equal to [`super::oracle::verify`]'s.
pub(crate) fn verify(gpu: &dyn GpuRuntime, vk: &VerifyingKey, items: &FlatBytes) -> Streamed<Verdict> {
    let key = KeyPairs::new(vk);
    let read = cores::map_range(0..items.len(), 8, |i| {
        decode_on_twist(vk, items.get(i))
            .map(|d| key.pairing_input(vk, &d))
            .map_err(Verdict::Invalid)
    });
    let run = |calls: &[Vec<u8>]| {
        let mut flat = FlatBytes::with_capacity(calls.len(), calls.iter().map(Vec::len).sum());
        for c in calls {
            // 768 bytes a call: a batch the 4 GiB limit refuses would not have been read.
            let _fits = flat.push(c);
        }
        gpu.evm(Precompile::Bn256Pairing, &flat)
    };
    through(read, run, verdict)
}

/// The key's points as every item's ECPAIRING input holds them, encoded
/// once per call.
struct KeyPairs {
    /// (alpha, beta).
    alpha_beta: Vec<u8>,
    /// gamma and delta.
    gamma: Vec<u8>,
    delta: Vec<u8>,
}

impl KeyPairs {
    fn new(vk: &VerifyingKey) -> KeyPairs {
        let key = &vk.key.prepared.vk;
        KeyPairs {
            alpha_beta: [bn254::encode_g1(key.alpha_g1), bn254::encode_g2(key.beta_g2)].concat(),
            gamma: bn254::encode_g2(key.gamma_g2),
            delta: bn254::encode_g2(key.delta_g2),
        }
    }

    /// The ECPAIRING input of a decoded item: (-A, B), (alpha, beta),
    /// (vk_x, gamma), (C, delta).
    fn pairing_input(&self, vk: &VerifyingKey, d: &Decoded<Bn254>) -> Vec<u8> {
        let mut input = Vec::with_capacity(4 * bn254::PAIR_LEN);
        input.extend(bn254::encode_g1(-d.a));
        input.extend(bn254::encode_g2(d.b));
        input.extend(&self.alpha_beta);
        input.extend(bn254::encode_g1(vk.key.input_sum(&d.inputs).into_affine()));
        input.extend(&self.gamma);
        input.extend(bn254::encode_g1(d.c));
        input.extend(&self.delta);
        input
    }
}

/// An item's verdict from its pairing check's answer.
fn verdict(answer: CallResult) -> Verdict {
    match answer {
        Ok(word) if word.last() == Some(&1) => Verdict::Valid,
        Ok(_) => Verdict::Invalid(Reason::Equation),
        Err(PrecompileError::G2NotInSubgroup) => Verdict::Invalid(Reason::ProofNotInSubgroup),
        // The host checked every encoding: nothing else can fail.
        Err(_) => Verdict::Invalid(Reason::MalformedProof),
    }
}
