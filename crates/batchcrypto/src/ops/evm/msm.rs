//! EIP-2537's multi-scalar multiplications (G1MSM 0x0c, G2MSM 0x0e) on
//! blst: the inputs decoded with every check of the EIP-2537 encodings
//! ([`crate::ops::bls::eip2537`]), then either blst's Pippenger
//! multi-scalar multiplication (the CPU path) or the pairs' scalar
//! multiplications summed one by one (the oracle). Pairs with the point at
//! infinity add nothing and are left out of both.

use blst::min_pk::{AggregatePublicKey, AggregateSignature};
use blst::{MultiPoint, blst_p1_affine, blst_p2_affine};

use super::{CallResult, PrecompileError};
use crate::ops::bls::eip2537;

/// Bytes of a scalar.
const SCALAR_LEN: usize = 32;
/// Bits of a scalar (blst reads them little-endian).
const SCALAR_BITS: usize = 8 * SCALAR_LEN;

/// How the pairs are summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sum {
    /// blst's Pippenger over all pairs at once.
    Pippenger,
    /// One scalar multiplication per pair, added in order.
    OneByOne,
}

/// One group's decoding and arithmetic.
trait Group {
    type Affine: Copy;
    /// Bytes of an encoded point.
    const POINT_LEN: usize;
    fn decode(bytes: &[u8]) -> Result<Option<Self::Affine>, PrecompileError>;
    /// sum of scalars[i] points[i] (scalars little-endian, 32 bytes each),
    /// encoded; `points` is not empty.
    fn msm(points: &[Self::Affine], scalars: &[u8], sum: Sum) -> Vec<u8>;
    /// The encoding of infinity.
    fn infinity() -> Vec<u8> {
        vec![0; Self::POINT_LEN]
    }
}

struct G1;
struct G2;

impl Group for G1 {
    type Affine = blst_p1_affine;
    const POINT_LEN: usize = 2 * eip2537::FP_LEN;
    fn decode(bytes: &[u8]) -> Result<Option<blst_p1_affine>, PrecompileError> {
        eip2537::g1(bytes)
    }
    fn msm(points: &[blst_p1_affine], scalars: &[u8], sum: Sum) -> Vec<u8> {
        let total = match sum {
            Sum::Pippenger => AggregatePublicKey::from(points.mult(scalars, SCALAR_BITS)),
            Sum::OneByOne => {
                let mut terms = points
                    .iter()
                    .zip(scalars.chunks_exact(SCALAR_LEN))
                    .map(|(p, s)| AggregatePublicKey::from(std::slice::from_ref(p).mult(s, SCALAR_BITS)));
                let mut acc = terms.next().unwrap_or_else(|| unreachable!("points is not empty"));
                terms.for_each(|t| acc.add_aggregate(&t));
                acc
            }
        };
        eip2537::encode_g1(&total.to_public_key().serialize()).to_vec()
    }
}

impl Group for G2 {
    type Affine = blst_p2_affine;
    const POINT_LEN: usize = 4 * eip2537::FP_LEN;
    fn decode(bytes: &[u8]) -> Result<Option<blst_p2_affine>, PrecompileError> {
        eip2537::g2(bytes)
    }
    fn msm(points: &[blst_p2_affine], scalars: &[u8], sum: Sum) -> Vec<u8> {
        let total = match sum {
            Sum::Pippenger => AggregateSignature::from(points.mult(scalars, SCALAR_BITS)),
            Sum::OneByOne => {
                let mut terms = points
                    .iter()
                    .zip(scalars.chunks_exact(SCALAR_LEN))
                    .map(|(p, s)| AggregateSignature::from(std::slice::from_ref(p).mult(s, SCALAR_BITS)));
                let mut acc = terms.next().unwrap_or_else(|| unreachable!("points is not empty"));
                terms.for_each(|t| acc.add_aggregate(&t));
                acc
            }
        };
        eip2537::encode_g2(&total.to_signature().serialize()).to_vec()
    }
}

/// One MSM call over group `G`.
fn call<G: Group>(input: &[u8], sum: Sum) -> CallResult {
    let pair_len = G::POINT_LEN + SCALAR_LEN;
    if input.is_empty() || !input.len().is_multiple_of(pair_len) {
        return Err(PrecompileError::InvalidLength);
    }
    let k = input.len() / pair_len;
    let mut points = Vec::with_capacity(k);
    let mut scalars = Vec::with_capacity(k * SCALAR_LEN);
    for pair in input.chunks_exact(pair_len) {
        let (point, scalar) = pair.split_at(G::POINT_LEN);
        if let Some(p) = G::decode(point)? {
            points.push(p);
            scalars.extend(scalar.iter().rev());
        }
    }
    if points.is_empty() {
        return Ok(G::infinity());
    }
    Ok(G::msm(&points, &scalars, sum))
}

/// G1MSM (0x0c).
pub(crate) fn g1msm(input: &[u8], sum: Sum) -> CallResult {
    call::<G1>(input, sum)
}

/// G2MSM (0x0e).
pub(crate) fn g2msm(input: &[u8], sum: Sum) -> CallResult {
    call::<G2>(input, sum)
}
