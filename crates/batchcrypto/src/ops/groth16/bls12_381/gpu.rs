//! The GPU path: each item's equation as an EIP-2537 pairing check of
//! four pairs, e(-A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) =
//! 1, on the BLS12-381 pairing kernel of `eip2537_pairing`
//! ([`crate::ops::bls`]'s GPU path: the G1 and G2 subgroup checks and the
//! Miller loops on the device). The items are decoded on the CPU cores
//! with every check but the subgroup membership of A, B and C
//! ([`super::decode_on_curve`]), which the kernel makes (-A is in the
//! subgroup iff A is; the key's points and vk_x are), and each item's
//! vk_x = IC_0 + sum x_j IC_j is summed there too. No combination across
//! items: each is its own pairing check.

use ark_bls12_381::Bls12_381;
use ark_ec::CurveGroup;

use super::{Decoded, VerifyingKey, decode_on_curve};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{GpuRuntime, Streamed, through};
use crate::ops::bls::eip2537::PAIR_LEN;
use crate::ops::evm::PrecompileError;
use crate::ops::evm::bls12::{encode_g1, encode_g2};
use crate::verdict::{Reason, Verdict};

/// One verdict per item under `vk`, equal to [`super::oracle::verify`]'s.
pub(crate) fn verify(gpu: &dyn GpuRuntime, vk: &VerifyingKey, items: &FlatBytes) -> Streamed<Verdict> {
    let key = KeyPairs::new(vk);
    let read = cores::map_range(0..items.len(), 8, |i| {
        decode_on_curve(vk, items.get(i))
            .map(|d| key.pairing_input(vk, &d))
            .map_err(Verdict::Invalid)
    });
    let run = |calls: &[Vec<u8>]| {
        let mut flat = FlatBytes::with_capacity(calls.len(), calls.iter().map(Vec::len).sum());
        for c in calls {
            // 1,536 bytes a call: a batch the 4 GiB limit refuses would not have been read.
            let _fits = flat.push(c);
        }
        gpu.eip2537_pairing(&flat)
    };
    through(read, run, verdict)
}

/// The key's points as every item's pairing input holds them, encoded
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
            alpha_beta: [encode_g1(&key.alpha_g1), encode_g2(&key.beta_g2)].concat(),
            gamma: encode_g2(&key.gamma_g2),
            delta: encode_g2(&key.delta_g2),
        }
    }

    /// The pairing input of a decoded item: (-A, B), (alpha, beta),
    /// (vk_x, gamma), (C, delta).
    fn pairing_input(&self, vk: &VerifyingKey, d: &Decoded<Bls12_381>) -> Vec<u8> {
        let mut input = Vec::with_capacity(4 * PAIR_LEN);
        input.extend(encode_g1(&-d.a));
        input.extend(encode_g2(&d.b));
        input.extend(&self.alpha_beta);
        input.extend(encode_g1(&vk.key.input_sum(&d.inputs).into_affine()));
        input.extend(&self.gamma);
        input.extend(encode_g1(&d.c));
        input.extend(&self.delta);
        input
    }
}

/// An item's verdict from its pairing check's answer.
fn verdict(answer: Result<bool, PrecompileError>) -> Verdict {
    match answer {
        Ok(true) => Verdict::Valid,
        Ok(false) => Verdict::Invalid(Reason::Equation),
        Err(PrecompileError::G1NotInSubgroup | PrecompileError::G2NotInSubgroup) => {
            Verdict::Invalid(Reason::ProofNotInSubgroup)
        }
        // The host checked every encoding: nothing else can fail.
        Err(_) => Verdict::Invalid(Reason::MalformedProof),
    }
}
