//! The oracle: point decoding with the checks of [`super`], then
//! arkworks' `VariableBaseMSM` (BN254) or blst's Pippenger (BLS12-381) over
//! all terms on the calling thread (blst uses its own threads).

use ark_bn254::{Fq, Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{BigInt, PrimeField};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use blst::min_pk::{PublicKey, Signature};
use blst::{BLST_ERROR, blst_p1_affine, blst_p2_affine};

use super::blst_sum::{self, Sum};
use super::{Curve, Encoding, MsmResult, SCALAR_LEN};
use crate::ops::evm::{PrecompileError, bn254};
use crate::verdict::Reason;

/// A BN254 G1 point (the identity included).
pub(crate) fn bn254_point(bytes: &[u8]) -> Result<G1Affine, Reason> {
    bn254::g1(bytes).map_err(|e| match e {
        PrecompileError::NotOnCurve => Reason::NotOnCurve,
        _ => Reason::MalformedPoint,
    })
}

/// A BN254 G1 point in arkworks' compressed form (see [`super`]), read by
/// arkworks (the identity included).
pub(crate) fn bn254_compressed(bytes: &[u8]) -> Result<G1Affine, Reason> {
    G1Affine::deserialize_compressed(bytes).map_err(|_| {
        // arkworks says only "invalid data": with both flags clear or one
        // set and x below p (arkworks' own reader of a canonical element,
        // the flags cleared), it is an x that no y has.
        let mut x = bytes.to_vec();
        let flags = x.last_mut().map_or(0b11, |last| {
            let flags = *last >> 6;
            *last &= 0x3f;
            flags
        });
        if flags == 0b11 || Fq::deserialize_uncompressed(&x[..]).is_err() {
            Reason::MalformedPoint
        } else {
            Reason::NotOnCurve
        }
    })
}

/// BN254's point reader for `encoding`.
pub(crate) fn bn254_in(encoding: Encoding) -> fn(&[u8]) -> Result<G1Affine, Reason> {
    match encoding {
        Encoding::Uncompressed => bn254_point,
        Encoding::Compressed => bn254_compressed,
    }
}

/// A sum computed in the uncompressed encoding, written in `encoding`: the
/// compressed forms by arkworks' writers (its own for BN254, ZCash's for
/// BLS12-381), which read nothing but x, the identity flag and which of y
/// and p - y is the larger (no check: the sum is the engine's).
pub(crate) fn encode_sum(curve: Curve, encoding: Encoding, sum: Vec<u8>) -> Vec<u8> {
    use ark_bls12_381::{Fq as BlsFq, Fq2, G1Affine as BlsG1, G2Affine as BlsG2};
    use ark_ec::AffineRepr;
    fn write(p: &impl CanonicalSerialize) -> Vec<u8> {
        let mut out = Vec::new();
        p.serialize_compressed(&mut out).expect("writing to a Vec cannot fail");
        out
    }
    if encoding == Encoding::Uncompressed {
        return sum;
    }
    // The k-th big-endian base-field element of the sum.
    let len = if curve == Curve::Bn254G1 { 32 } else { 48 };
    let word = |k: usize| sum.get(k * len..(k + 1) * len).unwrap_or_default();
    let identity = match curve {
        Curve::Bn254G1 => sum.iter().all(|&b| b == 0),
        _ => sum.first().is_some_and(|b| b & 0x40 != 0),
    };
    match curve {
        Curve::Bn254G1 if identity => write(&G1Affine::zero()),
        Curve::Bn254G1 => {
            let [x, y] = [0, 1].map(|k| Fq::from_be_bytes_mod_order(word(k)));
            write(&G1Affine::new_unchecked(x, y))
        }
        Curve::Bls12381G1 if identity => write(&BlsG1::zero()),
        Curve::Bls12381G1 => {
            let [x, y] = [0, 1].map(|k| BlsFq::from_be_bytes_mod_order(word(k)));
            write(&BlsG1::new_unchecked(x, y))
        }
        Curve::Bls12381G2 if identity => write(&BlsG2::zero()),
        Curve::Bls12381G2 => {
            // x.c1, x.c0, y.c1, y.c0.
            let c = [0, 1, 2, 3].map(|k| BlsFq::from_be_bytes_mod_order(word(k)));
            write(&BlsG2::new_unchecked(Fq2::new(c[1], c[0]), Fq2::new(c[3], c[2])))
        }
    }
}

/// One point of `curve` in `from` rewritten in `to`, or why it is no term
/// (checked as a term is: a point outside BLS12-381's subgroup is refused).
pub fn recode(curve: Curve, from: Encoding, to: Encoding, point: &[u8]) -> Result<Vec<u8>, Reason> {
    if point.len() != curve.encoded_len(from) {
        return Err(Reason::MalformedPoint);
    }
    let uncompressed = match curve {
        Curve::Bn254G1 => bn254::encode_g1(bn254_in(from)(point)?),
        // blst writes the all-zero affine point as the identity.
        Curve::Bls12381G1 => PublicKey::from(bls_g1(point)?.unwrap_or_default()).serialize().to_vec(),
        Curve::Bls12381G2 => Signature::from(bls_g2(point)?.unwrap_or_default()).serialize().to_vec(),
    };
    Ok(encode_sum(curve, to, uncompressed))
}

/// A 32-byte little-endian scalar reduced mod r, as arkworks' limbs
/// (arkworks' MSM reads only the modulus's 254 bits of each scalar: an
/// unreduced one would lose its top bits).
pub(crate) fn bn254_scalar(bytes: &[u8]) -> BigInt<4> {
    Fr::from_le_bytes_mod_order(bytes).into_bigint()
}

fn blst_reason(e: BLST_ERROR) -> Reason {
    match e {
        BLST_ERROR::BLST_POINT_NOT_ON_CURVE => Reason::NotOnCurve,
        BLST_ERROR::BLST_POINT_NOT_IN_GROUP => Reason::PointNotInSubgroup,
        _ => Reason::MalformedPoint,
    }
}

/// A BLS12-381 G1 point in the subgroup, compressed or not (blst reads
/// both, the length and the compression flag agreeing); `None` for the
/// identity.
pub(crate) fn bls_g1(bytes: &[u8]) -> Result<Option<blst_p1_affine>, Reason> {
    let pk = PublicKey::deserialize(bytes).map_err(blst_reason)?;
    match pk.validate() {
        Ok(()) => Ok(Some(pk.into())),
        Err(BLST_ERROR::BLST_PK_IS_INFINITY) => Ok(None),
        Err(_) => Err(Reason::PointNotInSubgroup),
    }
}

/// A BLS12-381 G2 point in the subgroup, compressed or not; `None` for the
/// identity.
pub(crate) fn bls_g2(bytes: &[u8]) -> Result<Option<blst_p2_affine>, Reason> {
    let sig = Signature::deserialize(bytes).map_err(blst_reason)?;
    sig.validate(false).map_err(|_| Reason::PointNotInSubgroup)?;
    // Deserialization accepted the 0x40 flag only with all zeros: the identity.
    Ok((bytes[0] & 0x40 == 0).then(|| sig.into()))
}

/// The points (identities left out, with their scalars) or the first bad
/// point's reason.
pub(crate) fn decode<A>(
    points: &[u8],
    scalars: &[u8],
    point_len: usize,
    point: impl Fn(&[u8]) -> Result<Option<A>, Reason>,
) -> Result<(Vec<A>, Vec<u8>), Reason> {
    let n = points.len() / point_len;
    let (mut ps, mut ss) = (Vec::with_capacity(n), Vec::with_capacity(n * SCALAR_LEN));
    for (p, s) in points.chunks_exact(point_len).zip(scalars.chunks_exact(SCALAR_LEN)) {
        if let Some(a) = point(p)? {
            ps.push(a);
            ss.extend_from_slice(s);
        }
    }
    Ok((ps, ss))
}

/// A BLS12-381 MSM by `how` (points of `point_len` bytes, compressed or
/// not), the sum uncompressed.
pub(crate) fn bls(curve: Curve, point_len: usize, points: &[u8], scalars: &[u8], how: Sum) -> MsmResult {
    Ok(match curve {
        Curve::Bls12381G2 => {
            let (ps, ss) = decode(points, scalars, point_len, bls_g2)?;
            blst_sum::g2(&ps, &ss, how).to_vec()
        }
        _ => {
            let (ps, ss) = decode(points, scalars, point_len, bls_g1)?;
            blst_sum::g1(&ps, &ss, how).to_vec()
        }
    })
}

/// The MSM of one call (`points` in `encoding` and `scalars` of the same
/// number of terms, as [`Curve::terms`] checks), the sum in `encoding`.
pub fn msm(curve: Curve, encoding: Encoding, points: &[u8], scalars: &[u8]) -> MsmResult {
    let point_len = curve.encoded_len(encoding);
    let sum = match curve {
        Curve::Bn254G1 => {
            let bases: Vec<G1Affine> = points
                .chunks_exact(point_len)
                .map(bn254_in(encoding))
                .collect::<Result<_, _>>()?;
            let bigints: Vec<BigInt<4>> = scalars.chunks_exact(SCALAR_LEN).map(bn254_scalar).collect();
            bn254::encode_g1(G1Projective::msm_bigint(&bases, &bigints).into_affine())
        }
        _ => bls(curve, point_len, points, scalars, Sum::Pippenger)?,
    };
    Ok(encode_sum(curve, encoding, sum))
}
