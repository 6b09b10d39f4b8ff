//! Scalars of the MSMs' groups as the CPU and GPU paths take them: 32
//! bytes little-endian each, any 256-bit value, reduced mod r into u64
//! limbs (the oracles reduce with arkworks' `from_le_bytes_mod_order`).

use ark_ff::{BigInt, BigInteger, PrimeField};
use rayon::prelude::*;

use super::{Curve, SCALAR_LEN};

/// The scalar field's modulus r of `curve`'s group.
pub(crate) fn scalar_modulus(curve: Curve) -> BigInt<4> {
    match curve {
        Curve::Bn254G1 => ark_bn254::Fr::MODULUS,
        Curve::Bls12381G1 | Curve::Bls12381G2 => ark_bls12_381::Fr::MODULUS,
    }
}

/// Scalars (32 bytes little-endian each) reduced mod r, as u64 limbs: r
/// subtracted while the value is at least r (at most five times: r >
/// 2^253 on both curves), which is what `from_le_bytes_mod_order` gives
/// (a field multiplication per byte past the first 31, and two Montgomery
/// conversions) in under a third of its time: 40 ms against 136 ms for
/// 2^20 scalars on a 2-vCPU VM, release build. On the pool.
pub(crate) fn reduced(curve: Curve, scalars: &[u8]) -> Vec<[u64; 4]> {
    let r = scalar_modulus(curve);
    scalars
        .par_chunks_exact(SCALAR_LEN)
        .map(|s| {
            let mut x = BigInt::<4>([0, 8, 16, 24].map(|at| u64::from_le_bytes(std::array::from_fn(|k| s[at + k]))));
            while x >= r {
                x.sub_with_borrow(&r);
            }
            x.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    #[test]
    fn reduced_scalars_are_arkworks_reduction() {
        fn check<F: PrimeField<BigInt = BigInt<4>>>(curve: Curve, rng: &mut StdRng) {
            let r = F::MODULUS;
            let le = |x: BigInt<4>| -> Vec<u8> { x.0.iter().flat_map(|w| w.to_le_bytes()).collect() };
            let mut values = vec![vec![0u8; 32], vec![0xff; 32]];
            for k in 1..=5u64 {
                let mut kr = BigInt::<4>::from(0u64);
                for _ in 0..k {
                    kr.add_with_carry(&r);
                }
                for delta in [-1i64, 0, 1] {
                    let mut v = kr;
                    match delta {
                        -1 => v.sub_with_borrow(&BigInt::from(1u64)),
                        1 => v.add_with_carry(&BigInt::from(1u64)),
                        _ => false,
                    };
                    values.push(le(v));
                }
            }
            values.extend((0..2000).map(|_| rng.random::<[u8; 32]>().to_vec()));
            let got = reduced(curve, &values.concat());
            assert_eq!(got.len(), values.len());
            for (v, g) in values.iter().zip(got) {
                let want = F::from_le_bytes_mod_order(v).into_bigint();
                assert_eq!(le(BigInt(g)), want.to_bytes_le(), "{curve:?} {v:02x?}");
            }
        }
        let mut rng = StdRng::seed_from_u64(9);
        check::<ark_bn254::Fr>(Curve::Bn254G1, &mut rng);
        check::<ark_bls12_381::Fr>(Curve::Bls12381G1, &mut rng);
    }
}
