//! The points of an MSM decoded and checked (see [`super`]) on all cores,
//! once: for one call, or held in [`super::Bases`] for many calls over the
//! same points. Identities are left out (they add nothing), with a note of
//! which points were kept so that each call's scalars line up. BN254's
//! points are arkworks' and BLS12-381's blst's affine points, which are
//! what the CPU path sums; the GPU path reads their coordinates' limbs,
//! which are in Montgomery form in both libraries.

use std::borrow::Cow;

use blst::{blst_p1_affine, blst_p2_affine};

use super::{Curve, Encoding, SCALAR_LEN, oracle};
use crate::cores;
use crate::verdict::Reason;

/// The kept points of one group.
pub(crate) enum Affine {
    Bn254(Vec<ark_bn254::G1Affine>),
    Bls12381G1(Vec<blst_p1_affine>),
    Bls12381G2(Vec<blst_p2_affine>),
}

impl Affine {
    /// The group.
    pub(crate) fn curve(&self) -> Curve {
        match self {
            Affine::Bn254(_) => Curve::Bn254G1,
            Affine::Bls12381G1(_) => Curve::Bls12381G1,
            Affine::Bls12381G2(_) => Curve::Bls12381G2,
        }
    }

    /// The points' affine coordinates as the GPU reads them: x then y,
    /// each its Montgomery limbs as little-endian u32 words (F_p2: c0 then
    /// c1), as bytes ([`Curve::point_len`] a point), laid out on all cores.
    #[cfg(feature = "wgpu")]
    pub(crate) fn device_bytes(&self) -> Vec<u8> {
        /// Each point's coordinates' limbs, in order, into its bytes.
        fn lay<P: Sync, const K: usize>(
            points: &[P],
            len: usize,
            coordinates: impl Fn(&P) -> [&[u64]; K] + Sync + Send,
        ) -> Vec<u8> {
            let mut out = vec![0u8; points.len() * len];
            cores::for_chunks_mut(&mut out, len, |at, bytes| {
                let limbs = coordinates(&points[at / len]).into_iter().flatten();
                for (word, limb) in bytes.chunks_exact_mut(8).zip(limbs) {
                    word.copy_from_slice(&limb.to_le_bytes());
                }
            });
            out
        }
        let len = self.curve().point_len();
        match self {
            Affine::Bn254(ps) => lay(ps, len, |p| [&p.x.0.0, &p.y.0.0]),
            Affine::Bls12381G1(ps) => lay(ps, len, |p| [&p.x.l, &p.y.l]),
            Affine::Bls12381G2(ps) => lay(ps, len, |p| [&p.x.fp[0].l, &p.x.fp[1].l, &p.y.fp[0].l, &p.y.fp[1].l]),
        }
    }
}

/// Points decoded, checked and without identities.
pub(crate) struct Decoded {
    pub(crate) points: Affine,
    /// How the points were written (and the sums are).
    pub(crate) encoding: Encoding,
    /// Per point given: whether it was kept (is not the identity).
    kept: Vec<bool>,
}

/// Every point's decoding, or the index and reason of the first that fails.
fn each<A: Send>(
    points: &[u8],
    len: usize,
    point: impl Fn(&[u8]) -> Result<Option<A>, Reason> + Sync + Send,
) -> Result<(Vec<A>, Vec<bool>), (usize, Reason)> {
    let decoded: Vec<Result<Option<A>, Reason>> = cores::map_chunks_exact(points, len, point);
    let mut kept = Vec::with_capacity(decoded.len());
    let mut out = Vec::with_capacity(decoded.len());
    for (i, d) in decoded.into_iter().enumerate() {
        match d {
            Err(reason) => return Err((i, reason)),
            Ok(p) => {
                kept.push(p.is_some());
                out.extend(p);
            }
        }
    }
    Ok((out, kept))
}

impl Decoded {
    /// `points` (whole `encoding` points of `curve`), or the index and
    /// reason of the first bad one.
    pub(crate) fn new(curve: Curve, encoding: Encoding, points: &[u8]) -> Result<Decoded, (usize, Reason)> {
        let len = curve.encoded_len(encoding);
        let (points, kept) = match curve {
            Curve::Bn254G1 => {
                let point = oracle::bn254_in(encoding);
                let (ps, kept) = each(points, len, |p| {
                    point(p).map(|a| (!ark_ec::AffineRepr::is_zero(&a)).then_some(a))
                })?;
                (Affine::Bn254(ps), kept)
            }
            Curve::Bls12381G1 => {
                let (ps, kept) = each(points, len, oracle::bls_g1)?;
                (Affine::Bls12381G1(ps), kept)
            }
            Curve::Bls12381G2 => {
                let (ps, kept) = each(points, len, oracle::bls_g2)?;
                (Affine::Bls12381G2(ps), kept)
            }
        };
        Ok(Decoded { points, encoding, kept })
    }

    /// A sum computed over these points (uncompressed), in their encoding.
    pub(crate) fn encode_sum(&self, sum: Vec<u8>) -> Vec<u8> {
        oracle::encode_sum(self.points.curve(), self.encoding, sum)
    }

    /// Points given (the scalars a call needs).
    pub(crate) fn given(&self) -> usize {
        self.kept.len()
    }

    /// The scalars of the kept points, from one scalar per point given:
    /// the same bytes when every point is kept (no identity among them).
    pub(crate) fn kept_scalars<'s>(&self, scalars: &'s [u8]) -> Cow<'s, [u8]> {
        if scalars.len() == self.kept.len() * SCALAR_LEN && self.kept.iter().all(|&k| k) {
            return Cow::Borrowed(scalars);
        }
        let mut out = Vec::with_capacity(scalars.len());
        for (s, _) in scalars
            .chunks_exact(SCALAR_LEN)
            .zip(&self.kept)
            .filter(|(_, kept)| **kept)
        {
            out.extend_from_slice(s);
        }
        Cow::Owned(out)
    }
}
