//! The final checks on the host's cores: for few checks the host is
//! faster than the device's final stage.
//!
//! The final stage is a latency chain on the device: one thread per check
//! runs the product program (22,259 instructions for BLS12-381, one after
//! another, each a trip through the register file in device memory), so
//! its time hardly falls with fewer checks: on the H200 both stages of
//! 1,024 EIP-2537 calls took 70 ms, the same as 16,384
//! (docs/bench/h200-2026-12-04b). arkworks does one check on one core in
//! about 1-2 ms. [`host_is_faster`] compares the host's estimate with the
//! device's last final stage on the same tower (the device until one was
//! timed); both give the same verdicts (a product of the machine's Miller
//! values, raised to the final exponent, compared with one), tested side
//! by side.

use ark_ec::pairing::{MillerLoopOutput, Pairing};
use ark_ff::{BigInteger, Field, PrimeField};
use rayon::prelude::*;

use crate::gpu::shaders::Tower;

/// One core's time (seconds) for one final exponentiation and for one
/// F_p12 product with arkworks, per tower: upper figures of a 2-vCPU AMD
/// EPYC (Zen 4) VM, measured while the test suite ran beside it (BLS12-381
/// 1.95-2.04 ms and 12-31 us, BN254 1.05-1.28 ms and 6.8-7.1 us).
fn host_costs(tower: Tower) -> (f64, f64) {
    match tower {
        Tower::Bls12381 => (2.0e-3, 30e-6),
        Tower::Bn254 => (1.3e-3, 8e-6),
    }
}

/// Whether `threads` host threads would finish the final checks of
/// `bounds` (ranges of Miller values) before the device, whose last final
/// stage on this tower took `device` seconds (`None`: never timed, so the
/// device runs it and is timed).
pub(crate) fn host_is_faster(tower: Tower, bounds: &[usize], threads: usize, device: Option<f64>) -> bool {
    let Some(device) = device else { return false };
    let checks = bounds.len().saturating_sub(1);
    let values = bounds
        .last()
        .zip(bounds.first())
        .map_or(0, |(last, first)| last - first);
    let (exponentiation, product) = host_costs(tower);
    let threads = threads.max(1);
    let host = checks.div_ceil(threads) as f64 * exponentiation + values as f64 * product / threads as f64;
    host < device
}

/// Whether each range's product of Miller values raised to the final
/// exponent is one, on the host: ranges `bounds[k]..bounds[k + 1]` of
/// `values` (F_p12 values of `tower.fp12_words()` words, Montgomery form
/// with R = 2^(32 limbs), arkworks' own), an empty range's product one. A
/// word not below p is an error (the machine's values are reduced).
pub(crate) fn final_check(tower: Tower, values: &[u32], bounds: &[usize]) -> Result<Vec<bool>, String> {
    match tower {
        Tower::Bls12381 => checks::<ark_bls12_381::Bls12_381>(tower, values, bounds),
        Tower::Bn254 => checks::<ark_bn254::Bn254>(tower, values, bounds),
    }
}

type Base<P> = <<P as Pairing>::TargetField as Field>::BasePrimeField;

fn checks<P: Pairing>(tower: Tower, values: &[u32], bounds: &[usize]) -> Result<Vec<bool>, String> {
    let (limbs, words) = (tower.limbs(), tower.fp12_words());
    let modulus: Vec<u32> = Base::<P>::MODULUS
        .to_bytes_le()
        .chunks(4)
        .map(|b| b.iter().rev().fold(0, |w, &x| w << 8 | u32::from(x)))
        .collect();
    let r_inverse = Base::<P>::from(2u64)
        .pow([32 * limbs as u64])
        .inverse()
        .ok_or("no inverse of R")?;
    let value = |k: usize| -> Result<P::TargetField, String> {
        let w = values
            .get(k * words..(k + 1) * words)
            .ok_or_else(|| format!("value {k} is past the {} words given", values.len()))?;
        let coefficients = w
            .chunks_exact(limbs)
            .map(|c| {
                // Compared from the top word down: below p.
                if c.iter().rev().cmp(modulus[..limbs].iter().rev()).is_ge() {
                    return Err(format!("value {k} holds a coefficient not below p"));
                }
                let bytes: Vec<u8> = c.iter().flat_map(|x| x.to_le_bytes()).collect();
                Ok(Base::<P>::from_le_bytes_mod_order(&bytes) * r_inverse)
            })
            .collect::<Result<Vec<_>, String>>()?;
        P::TargetField::from_base_prime_field_elems(coefficients)
            .ok_or_else(|| format!("value {k}: not an F_p12 value"))
    };
    bounds
        .par_windows(2)
        .map(|w| {
            let product = (w[0]..w[1])
                .into_par_iter()
                .map(value)
                .try_reduce(|| P::TargetField::ONE, |a, b| Ok(a * b))?;
            Ok(P::final_exponentiation(MillerLoopOutput(product)).is_some_and(|e| e.0 == P::TargetField::ONE))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_takes_few_checks_once_the_device_was_timed() {
        let t = Tower::Bls12381;
        // Never timed: the device (and its time is taken).
        assert!(!host_is_faster(t, &[0, 2], 16, None));
        // One check of 1,025 values (aggregate verify, k = 1,024): about
        // 2 ms + 31 ms / 16 threads on the host, against 40 ms.
        assert!(host_is_faster(t, &[0, 1025], 16, Some(0.040)));
        assert!(!host_is_faster(t, &[0, 1025], 16, Some(0.002)));
        // 4,096 checks of one value each: about 0.5 s on 16 threads.
        let each: Vec<usize> = (0..=4096).collect();
        assert!(!host_is_faster(t, &each, 16, Some(0.040)));
        // Nothing to check costs nothing.
        assert!(host_is_faster(t, &[3], 1, Some(0.001)));
    }
}
