//! The oracle: one precompile call as the EIP defines it, on the calling
//! thread (arkworks for BN254 and EIP-2537's additions and maps; for the
//! EIP-2537 multi-scalar multiplications, blst's scalar multiplication of
//! each pair, summed one by one; c-kzg-4844 for the point evaluation;
//! revm's `aurora-engine-modexp` for MODEXP; the `ecrecover` and
//! `p256_verify` oracles, `sha2` and `ripemd` for the others).

use super::msm;
use super::{CallResult, Precompile, adapters, bls12, bn254, kzg, modexp};
use crate::ops::ecdsa;
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
        Precompile::Ecrecover => {
            let recovered = adapters::ecrecover_item(input).and_then(|item| ecdsa::oracle::ecrecover(&item, false));
            Ok(adapters::ecrecover_output(recovered.as_ref()))
        }
        Precompile::P256Verify => {
            let valid = adapters::p256_item(input).is_some_and(|item| ecdsa::oracle::p256_verify(&item));
            Ok(adapters::p256_output(valid))
        }
        Precompile::Sha256 => adapters::sha256(input),
        Precompile::Ripemd160 => adapters::ripemd160(input),
        Precompile::Identity => adapters::identity(input),
    }
}
