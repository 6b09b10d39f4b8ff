//! The CPU path: BN254's points decoded on all cores and summed in chunks
//! by arkworks' `VariableBaseMSM` on all cores (the chunks' sums added:
//! the same point as one sum); BLS12-381 as the oracle (blst's Pippenger
//! splits a large sum over its own threads).

use ark_bn254::{G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use rayon::prelude::*;

use super::oracle::{bn254_point, bn254_scalar};
use super::{Curve, MsmResult, SCALAR_LEN, blst_sum::Sum, oracle};
use crate::ops::evm::bn254;

/// Fewest terms per chunk (below it a chunk's set-up outweighs its sum).
const MIN_CHUNK: usize = 1 << 10;

/// The MSM of one call, as [`oracle::msm`].
pub(crate) fn msm(curve: Curve, points: &[u8], scalars: &[u8]) -> MsmResult {
    if curve != Curve::Bn254G1 {
        return oracle::bls(curve, points, scalars, Sum::Pippenger);
    }
    let len = curve.point_len();
    let decoded: Vec<Result<G1Affine, _>> = points.par_chunks_exact(len).map(bn254_point).collect();
    // The first bad point in order is the reason.
    let bases: Vec<G1Affine> = decoded.into_iter().collect::<Result<_, _>>()?;
    let chunk = bases.len().div_ceil(rayon::current_num_threads()).max(MIN_CHUNK);
    let sum: G1Projective = bases
        .par_chunks(chunk)
        .zip(scalars.par_chunks(chunk * SCALAR_LEN))
        .map(|(b, s)| {
            let bigints: Vec<_> = s.chunks_exact(SCALAR_LEN).map(bn254_scalar).collect();
            G1Projective::msm_bigint(b, &bigints)
        })
        .sum();
    Ok(bn254::encode_g1(sum.into_affine()))
}
