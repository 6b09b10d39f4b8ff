//! The CPU path: the calls on all cores, one call per task; the EIP-2537
//! multi-scalar multiplications with blst's Pippenger (which splits a
//! large call over blst's own threads); the point evaluations batched
//! ([`kzg::batch`]); MODEXP revm's implementation ([`modexp`]).

use super::msm;
use super::{CallResult, Precompile, bls12, bn254, kzg, modexp};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::msm::blst_sum::Sum;

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
        // Batched by `run`.
        Precompile::PointEvaluation => kzg::point_evaluation(input),
        Precompile::ModExp => modexp::call(input),
    }
}

/// Every call of a batch, in order.
pub(crate) fn run(precompile: Precompile, inputs: &FlatBytes) -> Vec<CallResult> {
    if precompile == Precompile::PointEvaluation {
        return kzg::batch(inputs);
    }
    cores::map_range(0..inputs.len(), 1, |i| call(precompile, inputs.get(i)))
}
