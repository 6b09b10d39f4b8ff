//! EIP-2537's multi-scalar multiplications (G1MSM 0x0c, G2MSM 0x0e) on
//! blst: the inputs decoded with every check of the EIP-2537 encodings
//! ([`crate::ops::bls::eip2537`]), then summed by
//! [`crate::ops::msm::blst_sum`] (blst's Pippenger for the CPU path, the
//! terms one by one for the oracle) or, on the GPU, by the MSM kernel
//! (`gpu.rs`). Pairs with the point at infinity add nothing and are left
//! out.

use super::{CallResult, PrecompileError};
use crate::ops::bls::eip2537;
use crate::ops::msm::blst_sum::{self, SCALAR_LEN, Sum};

/// Bytes of a G1 and a G2 point.
pub(crate) const G1_POINT_LEN: usize = 2 * eip2537::FP_LEN;
pub(crate) const G2_POINT_LEN: usize = 4 * eip2537::FP_LEN;

/// One MSM call's terms: pairs of a point of `point_len` bytes (decoded by
/// `decode`; infinity left out) and a 32-byte big-endian scalar, as the
/// points and their scalars little-endian (as blst reads them).
pub(crate) fn terms<A>(
    input: &[u8],
    point_len: usize,
    decode: impl Fn(&[u8]) -> Result<Option<A>, PrecompileError>,
) -> Result<(Vec<A>, Vec<u8>), PrecompileError> {
    let pair_len = point_len + SCALAR_LEN;
    if input.is_empty() || !input.len().is_multiple_of(pair_len) {
        return Err(PrecompileError::InvalidLength);
    }
    let k = input.len() / pair_len;
    let mut points = Vec::with_capacity(k);
    let mut scalars = Vec::with_capacity(k * SCALAR_LEN);
    for pair in input.chunks_exact(pair_len) {
        let (point, scalar) = pair.split_at(point_len);
        if let Some(p) = decode(point)? {
            points.push(p);
            // blst reads scalars little-endian.
            scalars.extend(scalar.iter().rev());
        }
    }
    Ok((points, scalars))
}

/// G1MSM (0x0c).
pub(crate) fn g1msm(input: &[u8], how: Sum) -> CallResult {
    let (p, s) = terms(input, G1_POINT_LEN, eip2537::g1)?;
    Ok(eip2537::encode_g1(&blst_sum::g1(&p, &s, how)).to_vec())
}

/// G2MSM (0x0e).
pub(crate) fn g2msm(input: &[u8], how: Sum) -> CallResult {
    let (p, s) = terms(input, G2_POINT_LEN, eip2537::g2)?;
    Ok(eip2537::encode_g2(&blst_sum::g2(&p, &s, how)).to_vec())
}
