//! The GPU path: each item's equation as a pairing check of four pairs,
//! e(-A, B) · e(alpha, beta) · e(vk_x, gamma) · e(C, delta) = 1, on a
//! pairing kernel other operations run: over BN254 the EIP-197 check of
//! the ECPAIRING precompile ([`crate::ops::evm`]'s GPU path, as snarkjs's
//! Solidity verifier calls it), over BLS12-381 `eip2537_pairing`'s
//! ([`super::bls12_381`]). A thread per pair for its Miller loop and the
//! subgroup checks the kernel makes, a thread per call for the product
//! and the final exponentiation. The items are decoded on the CPU cores
//! with every check the kernel does not make (on BN254 all but B's
//! subgroup membership, [`super::decode_on_twist`]), and each item's vk_x
//! = IC_0 + sum x_j IC_j is summed there too. No combination across
//! items: each is its own pairing check.

use ark_bn254::Bn254;
use ark_ec::pairing::Pairing;
use ark_ec::{AffineRepr, CurveGroup};

use super::{Decoded, Prepared, VerifyingKey, decode_on_twist};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{GpuRuntime, Streamed, through};
use crate::ops::evm::{CallResult, Precompile, PrecompileError, bn254};
use crate::verdict::{Reason, Verdict};

/// One verdict per item under `vk`, equal to [`super::oracle::verify`]'s.
pub(crate) fn verify(gpu: &dyn GpuRuntime, vk: &VerifyingKey, items: &FlatBytes) -> Streamed<Verdict> {
    let encoding = Encoding::<Bn254> {
        g1: |p| bn254::encode_g1(*p),
        g2: |q| bn254::encode_g2(*q),
        pair_len: bn254::PAIR_LEN,
    };
    pairing_checks(
        &vk.key,
        &encoding,
        items,
        |item| decode_on_twist(vk, item),
        |calls| gpu.evm(Precompile::Bn256Pairing, calls),
        verdict,
    )
}

/// How a curve's pairing kernel takes points.
pub(crate) struct Encoding<E: Pairing> {
    pub(crate) g1: fn(&E::G1Affine) -> Vec<u8>,
    pub(crate) g2: fn(&E::G2Affine) -> Vec<u8>,
    /// Bytes of a pair.
    pub(crate) pair_len: usize,
}

/// One verdict per item of `items` under `key`: each item decoded by
/// `decode` (a failure is its reason), its four pairs encoded as
/// `encoding` says, the calls run by `run` and its answer read by
/// `verdict`.
pub(crate) fn pairing_checks<E: Pairing, A>(
    key: &Prepared<E>,
    encoding: &Encoding<E>,
    items: &FlatBytes,
    decode: impl Fn(&[u8]) -> Result<Decoded<E>, Reason> + Sync,
    run: impl FnOnce(&FlatBytes) -> Streamed<A>,
    verdict: impl Fn(A) -> Verdict,
) -> Streamed<Verdict> {
    let vk = &key.prepared.vk;
    // The key's points as every item's input holds them, encoded once.
    let alpha_beta = [(encoding.g1)(&vk.alpha_g1), (encoding.g2)(&vk.beta_g2)].concat();
    let (gamma, delta) = ((encoding.g2)(&vk.gamma_g2), (encoding.g2)(&vk.delta_g2));
    // (-A, B), (alpha, beta), (vk_x, gamma), (C, delta).
    let input = |d: Decoded<E>| {
        let mut input = Vec::with_capacity(4 * encoding.pair_len);
        input.extend((encoding.g1)(&(-d.a.into_group()).into_affine()));
        input.extend((encoding.g2)(&d.b));
        input.extend(&alpha_beta);
        input.extend((encoding.g1)(&key.input_sum(&d.inputs).into_affine()));
        input.extend(&gamma);
        input.extend((encoding.g1)(&d.c));
        input.extend(&delta);
        input
    };
    let read = cores::map_range(0..items.len(), 8, |i| {
        decode(items.get(i)).map(input).map_err(Verdict::Invalid)
    });
    let calls = |calls: &[Vec<u8>]| {
        let mut flat = FlatBytes::with_capacity(calls.len(), calls.iter().map(Vec::len).sum());
        for c in calls {
            // A few kilobytes a call: a batch the 4 GiB limit refuses would not have been read.
            let _fits = flat.push(c);
        }
        run(&flat)
    };
    through(read, calls, verdict)
}

/// An item's verdict from its ECPAIRING call's answer.
fn verdict(answer: CallResult) -> Verdict {
    match answer {
        Ok(word) if word.last() == Some(&1) => Verdict::Valid,
        Ok(_) => Verdict::Invalid(Reason::Equation),
        Err(PrecompileError::G2NotInSubgroup) => Verdict::Invalid(Reason::ProofNotInSubgroup),
        // The host checked every encoding: nothing else can fail.
        Err(_) => Verdict::Invalid(Reason::MalformedProof),
    }
}
