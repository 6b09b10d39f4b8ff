//! Valid MSM points for benchmarks, self-tests and fuzzing, in the
//! uncompressed encoding ([`super::Encoding::Uncompressed`]; recode them
//! with [`super::oracle::recode`]): random multiples of BN254's generator,
//! BLS public keys (G1, [`crate::ops::bls::sample::secret_keys`]) and
//! min_sig public keys (G2, [`crate::ops::bls::sample::g2_points`]); and
//! each group's identity.

use ark_bn254::{Fr, G1Projective};
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::PrimeField;
use rand::RngExt;
use rayon::prelude::*;

use super::Curve;
use crate::ops::bls::sample as bls_sample;
use crate::ops::evm::bn254;
use crate::ops::item_rng;

/// `count` random points of `curve` from `seed`, uncompressed.
pub fn points(curve: Curve, count: usize, seed: u64) -> Vec<Vec<u8>> {
    match curve {
        Curve::Bn254G1 => (0..count)
            .into_par_iter()
            .map(|i| {
                let k = Fr::from_le_bytes_mod_order(&item_rng(seed, i).random::<[u8; 64]>());
                bn254::encode_g1((G1Projective::generator() * k).into_affine())
            })
            .collect(),
        Curve::Bls12381G1 => bls_sample::secret_keys(count, seed)
            .par_iter()
            .map(|k| k.sk_to_pk().serialize().to_vec())
            .collect(),
        Curve::Bls12381G2 => bls_sample::g2_points(count, seed).iter().map(|p| p.to_vec()).collect(),
    }
}

/// The identity of `curve`, uncompressed: zeros for BN254 (EIP-196's
/// (0, 0)), the 0x40 flag and zeros for BLS12-381.
pub fn identity(curve: Curve) -> Vec<u8> {
    let mut id = vec![0u8; curve.point_len()];
    if curve != Curve::Bn254G1 {
        id[0] = 0x40;
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::msm::{Encoding, SCALAR_LEN, oracle};

    #[test]
    fn points_decode_and_the_identity_sums_to_itself() {
        for curve in Curve::ALL {
            let made = points(curve, 3, 5);
            assert_eq!(made.len(), 3);
            assert_ne!(made[0], made[1], "{curve}");
            let id = identity(curve);
            let one = {
                let mut s = [0u8; SCALAR_LEN];
                s[0] = 1;
                s
            };
            for p in made.iter().chain([&id]) {
                // One times the point is the point: it decoded and passed
                // every check (a bad point is the sum's reason).
                assert_eq!(
                    oracle::msm(curve, Encoding::Uncompressed, p, &one),
                    Ok(p.clone()),
                    "{curve}"
                );
            }
        }
    }
}
