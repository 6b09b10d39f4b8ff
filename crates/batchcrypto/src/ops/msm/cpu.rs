//! The CPU path: the points decoded and checked on all cores
//! ([`Decoded`]), then BN254's summed by arkworks' `VariableBaseMSM`,
//! which spreads a sum's windows over the pool (ark-ec's `parallel`), in
//! a chunk of terms per [`THREADS_PER_CHUNK`] threads (the chunks' sums
//! added: the same point as one sum), and BLS12-381's by blst's Pippenger,
//! which splits a large sum over blst's own threads.

use ark_bn254::G1Projective;
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::BigInt;

use super::bases::{Affine, Decoded};
use super::{Curve, Encoding, MsmResult, blst_sum, scalars};
use crate::cores;
use crate::ops::evm::bn254;

/// Fewest terms per chunk (below it a chunk's set-up outweighs its sum).
const MIN_CHUNK: usize = 1 << 10;

/// Threads per chunk of a BN254 sum. arkworks runs a sum's windows (254
/// bits / c, about 20 at 2^16 to 2^20 terms) in parallel, so up to a few
/// threads one sum keeps them busy, and one sum of n terms costs less than
/// two of n / 2 (about 10% at 2^16: each pays its buckets' reduction); a
/// chunk per 4 threads keeps many cores busy too. On two threads this is
/// arkworks' own multi-threaded call.
const THREADS_PER_CHUNK: usize = 4;

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
            // Reduced on the pool (arkworks' reduction of bytes costs three
            // times as much: see `scalars::reduced`).
            let bigints: Vec<BigInt<4>> = scalars::reduced(Curve::Bn254G1, &scalars)
                .into_iter()
                .map(BigInt)
                .collect();
            let chunks = cores::threads().div_ceil(THREADS_PER_CHUNK);
            let chunk = bases.len().div_ceil(chunks).max(MIN_CHUNK);
            let sum: G1Projective = cores::map_range(0..bases.len().div_ceil(chunk), 1, |c| {
                let range = c * chunk..((c + 1) * chunk).min(bases.len());
                G1Projective::msm_bigint(&bases[range.clone()], &bigints[range])
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
