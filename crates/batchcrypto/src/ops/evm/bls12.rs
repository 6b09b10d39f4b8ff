//! EIP-2537's additions and maps to the curve on arkworks' BLS12-381
//! (`ark-bls12-381`): G1ADD (0x0b), G2ADD (0x0d), MAP_FP_TO_G1 (0x10)
//! and MAP_FP2_TO_G2 (0x11). The encodings and field checks are the
//! other EIP-2537 precompiles' ([`crate::ops::bls::eip2537`]); the
//! arithmetic is arkworks'. One call each; these are both the oracle and,
//! on all cores, the CPU path (go-ethereum's vectors, computed by
//! gnark-crypto, check them in tests/all).
//!
//! - The additions take two points of 128 (G1) or 256 (G2) bytes. Each
//!   must be on its curve or all zeros (infinity); EIP-2537 asks no
//!   subgroup check here, so points of E outside G1 (such as (0, ±2), of
//!   order 3, which blst's decoder refuses) are added as they are.
//! - The maps take one field element (64 bytes) or one Fp2 element (128
//!   bytes: c0 ‖ c1) and return `clear_cofactor(map_to_curve(u))`, the
//!   simplified SWU map to the 11- (G1) or 3-isogenous (G2) curve and the
//!   isogeny, then the effective cofactor of RFC 9380 (section 6.6.3,
//!   appendices E and G.2), as arkworks' `WBMap` and `clear_cofactor` do.
//!
//! An input of another length is [`PrecompileError::InvalidLength`]; the
//! first failing check in input order is the reason.

use ark_bls12_381::{Fq, Fq2, g1, g2};
use ark_ec::hashing::curve_maps::wb::WBMap;
use ark_ec::hashing::map_to_curve_hasher::MapToCurve;
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{BigInteger, PrimeField};

use super::{CallResult, PrecompileError};
use crate::ops::bls::eip2537::{self, FP_LEN};

/// A base-field element (64 bytes: 16 zero bytes, then below p).
fn fq(bytes: &[u8]) -> Result<Fq, PrecompileError> {
    eip2537::fp(bytes).map(Fq::from_be_bytes_mod_order)
}

/// An Fp2 element (c0 ‖ c1).
fn fq2(bytes: &[u8]) -> Result<Fq2, PrecompileError> {
    Ok(Fq2::new(fq(&bytes[..FP_LEN])?, fq(&bytes[FP_LEN..2 * FP_LEN])?))
}

/// How a curve's coordinates are read and written.
trait Coordinates: SWCurveConfig {
    /// Bytes of one coordinate.
    const LEN: usize;
    /// Reads a coordinate, with the field checks.
    fn read(bytes: &[u8]) -> Result<Self::BaseField, PrecompileError>;
    /// Writes a coordinate into `out` (`LEN` bytes).
    fn write(x: &Self::BaseField, out: &mut [u8]);
}

/// Writes a base-field element as 64 bytes (its 48 under 16 zero bytes).
fn write_fq(x: &Fq, out: &mut [u8]) {
    out[..FP_LEN - 48].fill(0);
    out[FP_LEN - 48..FP_LEN].copy_from_slice(&x.into_bigint().to_bytes_be());
}

impl Coordinates for g1::Config {
    const LEN: usize = FP_LEN;
    fn read(bytes: &[u8]) -> Result<Fq, PrecompileError> {
        fq(bytes)
    }
    fn write(x: &Fq, out: &mut [u8]) {
        write_fq(x, out);
    }
}

impl Coordinates for g2::Config {
    const LEN: usize = 2 * FP_LEN;
    fn read(bytes: &[u8]) -> Result<Fq2, PrecompileError> {
        fq2(bytes)
    }
    fn write(x: &Fq2, out: &mut [u8]) {
        write_fq(&x.c0, &mut out[..FP_LEN]);
        write_fq(&x.c1, &mut out[FP_LEN..]);
    }
}

/// A point (x ‖ y): all zeros is infinity, any other must be on the curve.
fn point<C: Coordinates>(bytes: &[u8]) -> Result<Affine<C>, PrecompileError> {
    let (x, y) = (C::read(&bytes[..C::LEN])?, C::read(&bytes[C::LEN..2 * C::LEN])?);
    if bytes.iter().all(|&b| b == 0) {
        return Ok(Affine::identity());
    }
    let p = Affine::new_unchecked(x, y);
    if !p.is_on_curve() {
        return Err(PrecompileError::NotOnCurve);
    }
    Ok(p)
}

/// A point's encoding: x ‖ y, all zeros for infinity.
fn encode<C: Coordinates>(p: &Affine<C>) -> Vec<u8> {
    let mut out = vec![0; 2 * C::LEN];
    if let Some((x, y)) = p.xy() {
        C::write(&x, &mut out[..C::LEN]);
        C::write(&y, &mut out[C::LEN..]);
    }
    out
}

/// G1ADD or G2ADD: the sum of two points.
fn add<C: Coordinates>(input: &[u8]) -> CallResult {
    let point_len = 2 * C::LEN;
    if input.len() != 2 * point_len {
        return Err(PrecompileError::InvalidLength);
    }
    let (p, q) = (point::<C>(&input[..point_len])?, point::<C>(&input[point_len..])?);
    Ok(encode(&(Projective::from(p) + q).into_affine()))
}

/// MAP_FP_TO_G1 or MAP_FP2_TO_G2: the field element's point of the
/// subgroup.
fn map<C: Coordinates + ark_ec::hashing::curve_maps::wb::WBConfig>(input: &[u8]) -> CallResult {
    if input.len() != C::LEN {
        return Err(PrecompileError::InvalidLength);
    }
    let u = C::read(input)?;
    // The map is total: the simplified SWU step always finds a point, and
    // arkworks' Result only carries its interface's other maps' failures.
    let mapped = WBMap::<C>::map_to_curve(u).map_err(|_| PrecompileError::NotOnCurve)?;
    // RFC 9380's exceptional case: a point in the isogeny's kernel maps to
    // infinity. arkworks' isogeny leaves the zero denominators uninverted
    // and returns (0, 0), which is on neither curve.
    let mapped = if mapped.is_on_curve() {
        mapped
    } else {
        Affine::identity()
    };
    Ok(encode(&mapped.clear_cofactor()))
}

/// A G1 point's EIP-2537 encoding (128 bytes).
pub(crate) fn encode_g1(p: &ark_bls12_381::G1Affine) -> Vec<u8> {
    encode(p)
}

/// A G2 point's EIP-2537 encoding (256 bytes).
pub(crate) fn encode_g2(p: &ark_bls12_381::G2Affine) -> Vec<u8> {
    encode(p)
}

/// G1ADD (0x0b).
pub(crate) fn g1_add(input: &[u8]) -> CallResult {
    add::<g1::Config>(input)
}

/// G2ADD (0x0d).
pub(crate) fn g2_add(input: &[u8]) -> CallResult {
    add::<g2::Config>(input)
}

/// MAP_FP_TO_G1 (0x10).
pub(crate) fn map_g1(input: &[u8]) -> CallResult {
    map::<g1::Config>(input)
}

/// MAP_FP2_TO_G2 (0x11).
pub(crate) fn map_g2(input: &[u8]) -> CallResult {
    map::<g2::Config>(input)
}
