//! The Goldilocks field for the NTT oracle: arkworks' Montgomery field
//! (`ark-ff`) with the prime 2^64 - 2^32 + 1 and the multiplicative
//! generator 7 (as Plonky2 uses it), so that `ark-poly`'s domains work over
//! it as over the curves' scalar fields. Its two-adic root of unity is
//! 7^((p - 1) / 2^32) = 1753635133440165772, checked in the tests below.

#![allow(missing_docs)] // the derive's generated items

use ark_ff::fields::{Fp64, MontBackend, MontConfig};

/// The Goldilocks prime's parameters.
#[derive(MontConfig)]
#[modulus = "18446744069414584321"]
#[generator = "7"]
pub struct GoldilocksConfig;

/// An element of the Goldilocks field.
pub type Goldilocks = Fp64<MontBackend<GoldilocksConfig, 1>>;

/// The Goldilocks prime as a u64 (`tfhe-ntt`'s "Solinas prime").
pub const GOLDILOCKS_P: u64 = 0xffff_ffff_0000_0001;

/// The registry's prime for [`Field::Prime64Negacyclic`](super::Field)'s
/// bench and self-test rows: the largest prime below 2^62 that is 1 mod
/// 2^25, so that every size to 2^24 plans (62 bits: the size of the
/// primes in FHE libraries' residue number systems, below `tfhe-ntt`'s
/// 2^63 bound for its Shoup twiddles).
pub const PRIME62: u64 = 0x3fff_ffff_fa00_0001;

#[cfg(test)]
mod tests {
    use ark_ff::{FftField, PrimeField};

    use super::Goldilocks;

    #[test]
    fn goldilocks_parameters() {
        assert_eq!(Goldilocks::MODULUS.0[0], super::GOLDILOCKS_P);
        assert_eq!(Goldilocks::TWO_ADICITY, 32);
        assert_eq!(
            Goldilocks::TWO_ADIC_ROOT_OF_UNITY,
            Goldilocks::from(1_753_635_133_440_165_772u64)
        );
    }

    #[test]
    fn prime62_is_the_largest_such_prime() {
        use tfhe_ntt::prime::is_prime64;
        let step = 1u64 << 25;
        assert!(is_prime64(super::PRIME62) && super::PRIME62 % step == 1);
        let above = (super::PRIME62 + step..1 << 62).step_by(step as usize);
        assert_eq!(above.clone().count(), 2);
        assert!(above.into_iter().all(|p| !is_prime64(p)));
    }
}
