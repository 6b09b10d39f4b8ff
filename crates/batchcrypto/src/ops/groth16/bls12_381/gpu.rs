//! The GPU path: each item's four pairs as one pairing check on the
//! BLS12-381 pairing kernel of `eip2537_pairing` ([`crate::ops::bls`]'s
//! GPU path), through [`super::super::gpu::pairing_checks`]. The items are
//! decoded on the CPU cores with every check but the subgroup membership
//! of A, B and C ([`super::decode_on_curve`]), which the kernel makes (-A
//! is in the subgroup iff A is; the key's points and vk_x are).

use ark_bls12_381::Bls12_381;

use super::{VerifyingKey, decode_on_curve};
use crate::batch::FlatBytes;
use crate::gpu::{GpuRuntime, Streamed};
use crate::ops::bls::eip2537::PAIR_LEN;
use crate::ops::evm::PrecompileError;
use crate::ops::evm::bls12::{encode_g1, encode_g2};
use crate::ops::groth16::gpu::{Encoding, pairing_checks};
use crate::verdict::{Reason, Verdict};

/// One verdict per item under `vk`, equal to [`super::oracle::verify`]'s.
pub(crate) fn verify(gpu: &dyn GpuRuntime, vk: &VerifyingKey, items: &FlatBytes) -> Streamed<Verdict> {
    let encoding = Encoding::<Bls12_381> {
        g1: encode_g1,
        g2: encode_g2,
        pair_len: PAIR_LEN,
    };
    pairing_checks(
        &vk.key,
        &encoding,
        items,
        |item| decode_on_curve(vk, item),
        |calls| gpu.eip2537_pairing(calls),
        verdict,
    )
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
