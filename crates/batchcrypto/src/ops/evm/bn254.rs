//! EIP-196 and EIP-197 on arkworks' BN254 (alt_bn128): the precompiles'
//! encodings and checks here, the curve and pairing arithmetic
//! `ark-bn254`'s. One call each; these are both the oracle and, on all
//! cores, the CPU path.

use ark_bn254::{Bn254, Fq, Fq2, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ec::CurveGroup;
use ark_ec::pairing::Pairing;
use ark_ff::{BigInt, BigInteger, One, PrimeField, Zero};

use super::{CallResult, PrecompileError, bool_word};

/// Bytes per coordinate word.
pub(crate) const WORD: usize = 32;
/// Bytes of an encoded G1 point.
pub(crate) const G1_LEN: usize = 2 * WORD;
/// Bytes of an encoded G2 point.
pub(crate) const G2_LEN: usize = 4 * WORD;
/// Bytes per pairing pair.
pub(crate) const PAIR_LEN: usize = G1_LEN + G2_LEN;

/// A 32-byte big-endian word as arkworks' little-endian limbs.
pub(crate) fn bigint(word: &[u8]) -> BigInt<4> {
    BigInt::new(std::array::from_fn(|k| {
        let at = WORD - 8 * (k + 1);
        word[at..at + 8]
            .iter()
            .fold(0u64, |limb, &byte| limb << 8 | u64::from(byte))
    }))
}

/// A base-field element, which must be below p.
fn fq(word: &[u8]) -> Result<Fq, PrecompileError> {
    Fq::from_bigint(bigint(word)).ok_or(PrecompileError::FieldElement)
}

/// A G1 point: (0, 0) is infinity, any other must be on the curve (the
/// group has cofactor 1, so that is the subgroup check too).
pub(crate) fn g1(bytes: &[u8]) -> Result<G1Affine, PrecompileError> {
    let (x, y) = (fq(&bytes[..WORD])?, fq(&bytes[WORD..G1_LEN])?);
    if x.is_zero() && y.is_zero() {
        return Ok(G1Affine::zero());
    }
    let p = G1Affine::new_unchecked(x, y);
    if !p.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    Ok(p)
}

/// An Fp2 element as EIP-197 writes it: the `i` coefficient first.
fn fq2(bytes: &[u8]) -> Result<Fq2, PrecompileError> {
    let c1 = fq(&bytes[..WORD])?;
    let c0 = fq(&bytes[WORD..2 * WORD])?;
    Ok(Fq2::new(c0, c1))
}

/// A G2 point: all zeros is infinity, any other must be on the twist and
/// in the prime-order subgroup.
pub(crate) fn g2(bytes: &[u8]) -> Result<G2Affine, PrecompileError> {
    let q = g2_on_twist(bytes)?;
    if !q.is_in_correct_subgroup_assuming_on_curve() {
        return Err(PrecompileError::G2NotInSubgroup);
    }
    Ok(q)
}

/// A G2 point with every check but the subgroup's (infinity passes it).
pub(crate) fn g2_on_twist(bytes: &[u8]) -> Result<G2Affine, PrecompileError> {
    let (x, y) = (fq2(&bytes[..2 * WORD])?, fq2(&bytes[2 * WORD..G2_LEN])?);
    if x.is_zero() && y.is_zero() {
        return Ok(G2Affine::zero());
    }
    let q = G2Affine::new_unchecked(x, y);
    if !q.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    Ok(q)
}

/// The 64-byte encoding of a G1 point ((0, 0) for infinity).
pub(crate) fn encode_g1(p: G1Affine) -> Vec<u8> {
    match p.xy() {
        None => vec![0; G1_LEN],
        Some((x, y)) => [x.into_bigint().to_bytes_be(), y.into_bigint().to_bytes_be()].concat(),
    }
}

/// The 128-byte encoding of a G2 point (all zeros for infinity).
pub(crate) fn encode_g2(q: G2Affine) -> Vec<u8> {
    match q.xy() {
        None => vec![0; G2_LEN],
        Some((x, y)) => [x.c1, x.c0, y.c1, y.c0]
            .iter()
            .flat_map(|c| c.into_bigint().to_bytes_be())
            .collect(),
    }
}

/// The first `N` bytes of `input`, zero-padded (EIP-196's rule for short
/// and long inputs).
pub(crate) fn padded<const N: usize>(input: &[u8]) -> [u8; N] {
    let mut buf = [0u8; N];
    let n = input.len().min(N);
    buf[..n].copy_from_slice(&input[..n]);
    buf
}

/// ECADD (0x06).
pub fn add(input: &[u8]) -> CallResult {
    let buf = padded::<{ 2 * G1_LEN }>(input);
    let (p, q) = (g1(&buf[..G1_LEN])?, g1(&buf[G1_LEN..])?);
    Ok(encode_g1((p + q).into_affine()))
}

/// ECMUL (0x07): the scalar is any 256-bit value (on a group of prime
/// order r, s and s mod r give the same point).
pub fn mul(input: &[u8]) -> CallResult {
    let buf = padded::<{ G1_LEN + WORD }>(input);
    let p = g1(&buf[..G1_LEN])?;
    Ok(encode_g1(p.mul_bigint(bigint(&buf[G1_LEN..])).into_affine()))
}

/// An ECPAIRING input's pairs without an infinity (e(O, Q) = e(P, O) = 1
/// add nothing to the product), after every point is checked in input
/// order: the CPU path's and the GPU host's decoding.
pub(crate) fn pairs(input: &[u8]) -> Result<(Vec<G1Affine>, Vec<G2Affine>), PrecompileError> {
    if !input.len().is_multiple_of(PAIR_LEN) {
        return Err(PrecompileError::InvalidLength);
    }
    let mut ps = Vec::with_capacity(input.len() / PAIR_LEN);
    let mut qs = Vec::with_capacity(input.len() / PAIR_LEN);
    for pair in input.chunks_exact(PAIR_LEN) {
        let (p, q) = (g1(&pair[..G1_LEN])?, g2(&pair[G1_LEN..])?);
        if !p.is_zero() && !q.is_zero() {
            ps.push(p);
            qs.push(q);
        }
    }
    Ok((ps, qs))
}

/// An ECPAIRING call decoded with every check but G2's subgroup
/// membership (the GPU's): the pairs before the first failure, if any, in
/// order (infinities kept), and that failure. The call's answer is
/// `G2NotInSubgroup` if one of those pairs' G2 points is outside the
/// subgroup, else the failure, else the pairing check over the pairs.
#[cfg(feature = "wgpu")]
pub(crate) struct Unchecked {
    pub(crate) pairs: Vec<(G1Affine, G2Affine)>,
    pub(crate) failure: Option<PrecompileError>,
}

/// `input` decoded as [`Unchecked`].
#[cfg(feature = "wgpu")]
pub(crate) fn pairs_unchecked(input: &[u8]) -> Unchecked {
    let mut call = Unchecked {
        pairs: Vec::new(),
        failure: None,
    };
    if !input.len().is_multiple_of(PAIR_LEN) {
        call.failure = Some(PrecompileError::InvalidLength);
        return call;
    }
    for pair in input.chunks_exact(PAIR_LEN) {
        match (g1(&pair[..G1_LEN]), g2_on_twist(&pair[G1_LEN..])) {
            (Ok(p), Ok(q)) => call.pairs.push((p, q)),
            (Err(e), _) | (_, Err(e)) => {
                call.failure = Some(e);
                break;
            }
        }
    }
    call
}

/// ECPAIRING (0x08): every point is checked, then the product of the
/// pairings of the pairs without an infinity is compared with one.
pub fn pairing(input: &[u8]) -> CallResult {
    let (ps, qs) = pairs(input)?;
    let one = ps.is_empty() || Bn254::multi_pairing(ps, qs).0.is_one();
    Ok(bool_word(one).to_vec())
}
