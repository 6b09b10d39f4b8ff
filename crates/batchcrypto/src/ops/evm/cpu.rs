//! The CPU path: the calls on all cores, one call per task; the EIP-2537
//! multi-scalar multiplications with blst's Pippenger (which splits a
//! large call over blst's own threads); the point evaluations batched
//! ([`kzg::batch`]); MODEXP revm's implementation ([`modexp`]);
//! ECRECOVER, P256VERIFY and SHA256 the batches of `ecrecover`,
//! `p256_verify` and the SHA-256 hash ([`adapters`]).

use super::msm;
use super::{CallResult, Precompile, adapters, bls12, bn254, kzg, modexp};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::Streamed;
use crate::ops::msm::blst_sum::Sum;
use crate::ops::{ecdsa, hash};

/// One call.
fn call(precompile: Precompile, input: &[u8]) -> CallResult {
    match precompile {
        Precompile::Bn256Add => bn254::add(input),
        Precompile::Bn256Mul => bn254::mul(input),
        Precompile::Bn256Pairing => bn254::pairing(input),
        Precompile::BlsG1Msm => msm::g1msm(input, Sum::Pippenger),
        Precompile::BlsG2Msm => msm::g2msm(input, Sum::Pippenger),
        Precompile::BlsG1Add => bls12::g1_add(input),
        Precompile::BlsG2Add => bls12::g2_add(input),
        Precompile::BlsMapG1 => bls12::map_g1(input),
        Precompile::BlsMapG2 => bls12::map_g2(input),
        Precompile::ModExp => modexp::call(input),
        Precompile::Ripemd160 => adapters::ripemd160(input),
        Precompile::Identity => adapters::identity(input),
        // Batched by `run`.
        Precompile::PointEvaluation => kzg::point_evaluation(input),
        Precompile::Ecrecover | Precompile::P256Verify | Precompile::Sha256 => super::oracle::call(precompile, input),
    }
}

/// Every call of a batch, in order.
pub(crate) fn run(precompile: Precompile, inputs: &FlatBytes) -> Vec<CallResult> {
    let whole = |answers: Streamed<CallResult>| answers.unwrap_or_else(|f| f.done);
    match precompile {
        Precompile::PointEvaluation => return kzg::batch(inputs),
        Precompile::Ecrecover => {
            let run = |items: &[_]| Ok(ecdsa::cpu::ecrecover(items, false));
            return whole(adapters::via_items(inputs, adapters::ecrecover_item, run, |r| {
                adapters::ecrecover_output(r.as_ref().ok())
            }));
        }
        Precompile::P256Verify => {
            let run = |items: &[_]| Ok(ecdsa::cpu::p256_verify(items));
            return whole(adapters::via_items(inputs, adapters::p256_item, run, |v| {
                adapters::p256_output(v.is_valid())
            }));
        }
        Precompile::Sha256 => {
            return hash::cpu::hash(hash::Alg::Sha256, inputs)
                .iter()
                .map(|d| Ok(d.to_vec()))
                .collect();
        }
        _ => {}
    }
    cores::map_range(0..inputs.len(), 1, |i| call(precompile, inputs.get(i)))
}
