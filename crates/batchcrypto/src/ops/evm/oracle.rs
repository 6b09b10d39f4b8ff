//! The oracle: one precompile call as the EIP defines it, on the calling
//! thread (arkworks for BN254 and EIP-2537's additions and maps; for the
//! EIP-2537 multi-scalar multiplications, blst's scalar multiplication of
//! each pair, summed one by one; c-kzg-4844 for the point evaluation;
//! revm's `aurora-engine-modexp` for MODEXP).

use super::msm;
use super::{CallResult, Precompile, bls12, bn254, kzg, modexp};
use crate::ops::msm::blst_sum::Sum;

/// The output of one call of `precompile` on `input`, or its failure.
pub fn call(precompile: Precompile, input: &[u8]) -> CallResult {
    match precompile {
        Precompile::Bn256Add => bn254::add(input),
        Precompile::Bn256Mul => bn254::mul(input),
        Precompile::Bn256Pairing => bn254::pairing(input),
        Precompile::BlsG1Msm => msm::g1msm(input, Sum::OneByOne),
        Precompile::BlsG2Msm => msm::g2msm(input, Sum::OneByOne),
        Precompile::BlsG1Add => bls12::g1_add(input),
        Precompile::BlsG2Add => bls12::g2_add(input),
        Precompile::BlsMapG1 => bls12::map_g1(input),
        Precompile::BlsMapG2 => bls12::map_g2(input),
        Precompile::PointEvaluation => kzg::point_evaluation(input),
        Precompile::ModExp => modexp::call(input),
    }
}
