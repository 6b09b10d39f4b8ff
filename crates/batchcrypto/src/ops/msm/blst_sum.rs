//! Sums of scalar multiples of BLS12-381 points on blst, shared by the
//! MSM operations and EIP-2537's MSM precompiles: blst's Pippenger
//! multi-scalar multiplication, or each term's scalar multiplication added
//! one by one (an independent way to the same sum, for oracles). Scalars
//! are 32 bytes little-endian each (any 256-bit value); the result is in
//! blst's uncompressed serialization (infinity: the 0x40 flag).

use blst::min_pk::{AggregatePublicKey, AggregateSignature};
use blst::{MultiPoint, blst_p1_affine, blst_p2_affine};

/// Bytes of a scalar.
pub(crate) const SCALAR_LEN: usize = 32;
/// Bits of a scalar.
const SCALAR_BITS: usize = 8 * SCALAR_LEN;

/// How the terms are summed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sum {
    /// blst's Pippenger over all terms at once (it splits a large sum over
    /// blst's own threads).
    Pippenger,
    /// One scalar multiplication per term, added in order.
    OneByOne,
}

/// sum scalars[i] points[i] over G1 (`points` without the point at
/// infinity, which blst's affine form cannot carry; none: infinity).
pub(crate) fn g1(points: &[blst_p1_affine], scalars: &[u8], sum: Sum) -> [u8; 96] {
    let terms = points.iter().zip(scalars.chunks_exact(SCALAR_LEN));
    let total = match (points.is_empty(), sum) {
        (true, _) => AggregatePublicKey::from(blst::blst_p1::default()),
        (false, Sum::Pippenger) => AggregatePublicKey::from(points.mult(scalars, SCALAR_BITS)),
        (false, Sum::OneByOne) => {
            let mut acc = AggregatePublicKey::from(blst::blst_p1::default());
            for (p, s) in terms {
                acc.add_aggregate(&AggregatePublicKey::from(std::slice::from_ref(p).mult(s, SCALAR_BITS)));
            }
            acc
        }
    };
    total.to_public_key().serialize()
}

/// The same over G2.
pub(crate) fn g2(points: &[blst_p2_affine], scalars: &[u8], sum: Sum) -> [u8; 192] {
    let terms = points.iter().zip(scalars.chunks_exact(SCALAR_LEN));
    let total = match (points.is_empty(), sum) {
        (true, _) => AggregateSignature::from(blst::blst_p2::default()),
        (false, Sum::Pippenger) => AggregateSignature::from(points.mult(scalars, SCALAR_BITS)),
        (false, Sum::OneByOne) => {
            let mut acc = AggregateSignature::from(blst::blst_p2::default());
            for (p, s) in terms {
                acc.add_aggregate(&AggregateSignature::from(std::slice::from_ref(p).mult(s, SCALAR_BITS)));
            }
            acc
        }
    };
    total.to_signature().serialize()
}
