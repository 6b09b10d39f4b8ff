//! The EIP-2537 pairing-check precompile (address 0x0f), with its exact
//! encoding and failure cases, on blst's curve arithmetic.
//!
//! Input: k >= 1 pairs of a G1 point (128 bytes) and a G2 point (256 bytes).
//! A base-field element is 64 bytes big-endian whose top 16 bytes must be
//! zero and whose value must be below the modulus p; G1 is x || y, G2 is
//! x.c0 || x.c1 || y.c0 || y.c1; all zeros is the point at infinity. Every
//! point must be on its curve and in the prime-order subgroup. Output: 32
//! bytes, 1 when the product of the pairings is one (so also for pairs of
//! infinities only), else 0. Any violation is a failure of the call
//! (the precompile consumes its gas and returns nothing), reported here as
//! a [`PrecompileError`]. The G1 and G2 multi-scalar multiplications
//! (0x0c, 0x0e) are in [`crate::ops::evm`], on the decoders here.

use blst::min_pk::{PublicKey, Signature};
use blst::{BLST_ERROR, blst_fp12, blst_p1_affine, blst_p2_affine};

use crate::ops::evm::PrecompileError;

/// Bytes per encoded base-field element.
pub(crate) const FP_LEN: usize = 64;
/// Bytes per (G1, G2) pair.
pub const PAIR_LEN: usize = 384;

/// The base-field modulus p, big-endian.
const P: [u8; 48] = [
    0x1a, 0x01, 0x11, 0xea, 0x39, 0x7f, 0xe6, 0x9a, 0x4b, 0x1b, 0xa7, 0xb6, 0x43, 0x4b, 0xac, 0xd7, 0x64, 0x77, 0x4b,
    0x84, 0xf3, 0x85, 0x12, 0xbf, 0x67, 0x30, 0xd2, 0xa0, 0xf6, 0xb0, 0xf6, 0x24, 0x1e, 0xab, 0xff, 0xfe, 0xb1, 0x53,
    0xff, 0xff, 0xb9, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xaa, 0xab,
];

/// The 48 significant bytes of a 64-byte field element.
pub(crate) fn fp(bytes: &[u8]) -> Result<&[u8], PrecompileError> {
    let (top, value) = bytes.split_at(FP_LEN - 48);
    if top.iter().any(|&b| b != 0) {
        return Err(PrecompileError::TopBytes);
    }
    if value >= &P[..] {
        return Err(PrecompileError::FieldElement);
    }
    Ok(value)
}

/// A G1 point (128 bytes) with every check of the precompiles; `None`
/// for infinity.
pub(crate) fn g1(bytes: &[u8]) -> Result<Option<blst_p1_affine>, PrecompileError> {
    let (x, y) = (fp(&bytes[..FP_LEN])?, fp(&bytes[FP_LEN..2 * FP_LEN])?);
    if bytes.iter().all(|&b| b == 0) {
        return Ok(None);
    }
    // blst's uncompressed (ZCash) form: x || y, no flag bits (x < p leaves them clear).
    // blst refuses E's points of order 3, (0, +-2), while deserializing:
    // they are on the curve, outside the subgroup.
    let pk = PublicKey::deserialize(&[x, y].concat()).map_err(|e| match e {
        BLST_ERROR::BLST_POINT_NOT_IN_GROUP => PrecompileError::G1NotInSubgroup,
        _ => PrecompileError::NotOnCurve,
    })?;
    match pk.validate() {
        Ok(()) => Ok(Some(pk.into())),
        Err(BLST_ERROR::BLST_PK_IS_INFINITY) => Ok(None),
        Err(_) => Err(PrecompileError::G1NotInSubgroup),
    }
}

/// A G2 point (256 bytes) with every check of the precompiles; `None`
/// for infinity.
pub(crate) fn g2(bytes: &[u8]) -> Result<Option<blst_p2_affine>, PrecompileError> {
    let mut c = [&[][..]; 4];
    for (k, part) in c.iter_mut().enumerate() {
        *part = fp(&bytes[k * FP_LEN..(k + 1) * FP_LEN])?;
    }
    if bytes.iter().all(|&b| b == 0) {
        return Ok(None);
    }
    // ZCash order is x.c1 || x.c0 || y.c1 || y.c0.
    let sig = Signature::deserialize(&[c[1], c[0], c[3], c[2]].concat()).map_err(|_| PrecompileError::NotOnCurve)?;
    sig.validate(false).map_err(|_| PrecompileError::G2NotInSubgroup)?;
    Ok(Some(sig.into()))
}

/// The precompile: `Ok(true)` for output 1, `Ok(false)` for output 0,
/// `Err` when the call fails.
pub fn pairing_check(input: &[u8]) -> Result<bool, PrecompileError> {
    if input.is_empty() || !input.len().is_multiple_of(PAIR_LEN) {
        return Err(PrecompileError::InvalidLength);
    }
    let mut acc: Option<blst_fp12> = None;
    for pair in input.chunks_exact(PAIR_LEN) {
        let (p, q) = (g1(&pair[..2 * FP_LEN])?, g2(&pair[2 * FP_LEN..])?);
        // e(O, Q) = e(P, O) = 1: such pairs do not change the product.
        if let (Some(p), Some(q)) = (p, q) {
            let ml = blst_fp12::miller_loop(&q, &p);
            acc = Some(match acc {
                None => ml,
                Some(mut a) => {
                    a *= ml;
                    a
                }
            });
        }
    }
    Ok(match acc {
        None => true,
        Some(a) => {
            // In the target group, e * e == e only for the identity.
            let e = a.final_exp();
            let mut sq = e;
            sq *= e;
            sq == e
        }
    })
}

/// The precompile's 32-byte output for a result.
pub fn output(ok: bool) -> [u8; 32] {
    crate::ops::evm::bool_word(ok)
}

/// The EIP-2537 encoding of a G1 point given in blst's uncompressed form
/// (x || y, 48 bytes each, all zero with the infinity flag for infinity).
pub fn encode_g1(uncompressed: &[u8; 96]) -> [u8; 128] {
    let mut out = [0u8; 128];
    if uncompressed[0] & 0x40 == 0 {
        out[16..64].copy_from_slice(&uncompressed[..48]);
        out[80..128].copy_from_slice(&uncompressed[48..]);
    }
    out
}

/// The EIP-2537 encoding of a G2 point given in blst's uncompressed form
/// (x.c1 || x.c0 || y.c1 || y.c0, 48 bytes each).
pub fn encode_g2(uncompressed: &[u8; 192]) -> [u8; 256] {
    let mut out = [0u8; 256];
    if uncompressed[0] & 0x40 == 0 {
        for (k, src) in [1usize, 0, 3, 2].into_iter().enumerate() {
            out[k * 64 + 16..(k + 1) * 64].copy_from_slice(&uncompressed[src * 48..(src + 1) * 48]);
        }
    }
    out
}
