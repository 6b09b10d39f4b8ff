//! The CPU path: the points decoded and checked on all cores
//! ([`Decoded`]), then BN254's summed in chunks by arkworks'
//! `VariableBaseMSM` on all cores (the chunks' sums added: the same point
//! as one sum) and BLS12-381's by blst's Pippenger, which splits a large
//! sum over blst's own threads.

use ark_bn254::G1Projective;
use ark_ec::{CurveGroup, VariableBaseMSM};

use super::bases::{Affine, Decoded};
use super::oracle::bn254_scalar;
use super::{Curve, Encoding, MsmResult, SCALAR_LEN, blst_sum};
use crate::cores;
use crate::ops::evm::bn254;

/// Fewest terms per chunk (below it a chunk's set-up outweighs its sum).
const MIN_CHUNK: usize = 1 << 10;

/// The MSM of one call, as [`super::oracle::msm`].
pub(crate) fn msm(curve: Curve, encoding: Encoding, points: &[u8], scalars: &[u8]) -> MsmResult {
    let decoded = Decoded::new(curve, encoding, points).map_err(|(_, reason)| reason)?;
    Ok(sum(&decoded, scalars))
}

/// The sum over checked points, one scalar per point given, in their
/// encoding.
pub(crate) fn sum(decoded: &Decoded, scalars: &[u8]) -> Vec<u8> {
    let scalars = decoded.kept_scalars(scalars);
    let sum = match &decoded.points {
        Affine::Bn254(bases) => {
            let chunk = bases.len().div_ceil(cores::threads()).max(MIN_CHUNK);
            let sum: G1Projective = cores::map_range(0..bases.len().div_ceil(chunk), 1, |c| {
                let b = &bases[c * chunk..((c + 1) * chunk).min(bases.len())];
                let s = scalars.get(c * chunk * SCALAR_LEN..).unwrap_or_default();
                let bigints: Vec<_> = s.chunks_exact(SCALAR_LEN).take(b.len()).map(bn254_scalar).collect();
                G1Projective::msm_bigint(b, &bigints)
            })
            .into_iter()
            .sum();
            bn254::encode_g1(sum.into_affine())
        }
        Affine::Bls12381G1(points) => blst_sum::g1(points, &scalars, blst_sum::Sum::Pippenger).to_vec(),
        Affine::Bls12381G2(points) => blst_sum::g2(points, &scalars, blst_sum::Sum::Pippenger).to_vec(),
    };
    decoded.encode_sum(sum)
}
