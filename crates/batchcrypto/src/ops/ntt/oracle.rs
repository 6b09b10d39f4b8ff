//! The oracle: one polynomial's transform with `ark-poly`'s radix-2
//! evaluation domain over the arkworks field (see [`super`] for the
//! definition), on the calling thread's rayon pool (`ark-poly` is built
//! with `parallel`; the bench runs the oracle in a pool of one thread);
//! the negacyclic transforms with `tfhe-ntt`'s `prime64::Plan`.

use ark_ff::{BigInteger, FftField, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};

use super::fields::Goldilocks;
use super::{Direction, Field, Order, PolyResult, Transform};
use crate::verdict::Reason;

/// The element encoded by `bytes` (little-endian), if canonical.
fn decode<F: PrimeField>(bytes: &[u8]) -> Option<F> {
    let x = F::from_le_bytes_mod_order(bytes);
    (x.into_bigint().to_bytes_le() == bytes).then_some(x)
}

/// Whether `g` encodes a nonzero canonical element of `field` (a coset
/// shift).
pub(crate) fn is_valid_shift(field: Field, g: &[u8]) -> bool {
    fn valid<F: PrimeField>(g: &[u8]) -> bool {
        g.len() == F::MODULUS.to_bytes_le().len() && decode::<F>(g).is_some_and(|x| !x.is_zero())
    }
    match field {
        Field::Bn254Fr => valid::<ark_bn254::Fr>(g),
        Field::Bls12381Fr => valid::<ark_bls12_381::Fr>(g),
        Field::Goldilocks => valid::<Goldilocks>(g),
        Field::GoldilocksNegacyclic | Field::Prime64Negacyclic => false,
    }
}

/// Permutes `v` (length 2^k) to bit-reversed order (an involution).
pub(crate) fn bit_reverse<T>(v: &mut [T]) {
    let n = v.len();
    let bits = n.trailing_zeros();
    if bits == 0 {
        return;
    }
    for i in 0..n {
        let j = i.reverse_bits() >> (usize::BITS - bits);
        if i < j {
            v.swap(i, j);
        }
    }
}

fn transform_in<F: FftField + PrimeField>(t: &Transform, poly: &[u8]) -> PolyResult {
    let len = t.field.element_len();
    let mut v: Vec<F> = poly
        .chunks_exact(len)
        .map(decode::<F>)
        .collect::<Option<_>>()
        .ok_or(Reason::NonCanonicalElement)?;
    if t.input_order == Order::BitReversed {
        bit_reverse(&mut v);
    }
    // Sizes up to 2^MAX_LOG_N exist in every field here (2-adicity >= 28);
    // `Transform::polys_in` has checked log_n and the shift.
    let domain = Radix2EvaluationDomain::<F>::new(t.len())
        .unwrap_or_else(|| unreachable!("2^{} is within the field's 2-adicity", t.log_n));
    let domain = match &t.coset {
        None => domain,
        Some(g) => decode::<F>(g)
            .and_then(|g| domain.get_coset(g))
            .unwrap_or_else(|| unreachable!("the shift was checked")),
    };
    match t.direction {
        Direction::Forward => domain.fft_in_place(&mut v),
        Direction::Inverse => domain.ifft_in_place(&mut v),
    }
    if t.output_order == Order::BitReversed {
        bit_reverse(&mut v);
    }
    let mut out = Vec::with_capacity(poly.len());
    for x in v {
        let bytes = x.into_bigint().to_bytes_le();
        out.extend_from_slice(&bytes[..len]);
    }
    Ok(out)
}

/// Whether `tfhe-ntt` plans the negacyclic transform of 2^`log_n`
/// elements over `p` (2^4 <= n <= 2^[`MAX_LOG_N`](super::MAX_LOG_N), p a
/// prime = 1 mod 2n), checked without building the plan.
pub(crate) fn plans(p: u64, log_n: u32) -> bool {
    (4..=super::MAX_LOG_N).contains(&log_n)
        && p > 2
        && (p - 1).is_multiple_of(2 << log_n)
        && tfhe_ntt::prime::is_prime64(p)
}

/// The prime of the negacyclic transform `t`.
fn prime_of(t: &Transform) -> u64 {
    t.negacyclic_prime()
        .unwrap_or_else(|| unreachable!("{} is not a negacyclic transform with its prime", t.field))
}

/// `tfhe-ntt`'s negacyclic plan for the negacyclic transform `t` (one
/// that `Transform::polys_in` accepted: its prime and size are planned).
pub(crate) fn tfhe_plan(t: &Transform) -> tfhe_ntt::prime64::Plan {
    let p = prime_of(t);
    tfhe_ntt::prime64::Plan::try_new(t.len(), p)
        .unwrap_or_else(|| unreachable!("polys_in checked that tfhe-ntt plans 2^{} elements over {p}", t.log_n))
}

/// The primitive 2n-th root of unity psi of `tfhe-ntt`'s plan for the
/// negacyclic transform `t`: its forward buffer of the polynomial X holds
/// X(psi^(2 i + 1)) at the bit reversal of i, so position 0 holds psi.
/// For the GPU's tables, found once per prime and size (a plan and a
/// transform of 2^log_n elements) and kept (the last [`ROOTS_KEPT`] of
/// them).
#[cfg(feature = "wgpu")]
pub(crate) fn negacyclic_root(t: &Transform) -> u64 {
    use std::collections::HashMap;
    use std::sync::{Mutex, PoisonError};
    static ROOTS: Mutex<Option<HashMap<(u64, u32), u64>>> = Mutex::new(None);
    let key = (prime_of(t), t.log_n);
    let found = |roots: &mut Option<HashMap<_, _>>| roots.get_or_insert_default().get(&key).copied();
    if let Some(psi) = found(&mut ROOTS.lock().unwrap_or_else(PoisonError::into_inner)) {
        return psi;
    }
    // Planned outside the lock (2^24 elements take a while).
    let plan = tfhe_plan(t);
    let mut x = vec![0u64; plan.ntt_size()];
    x[1] = 1;
    plan.fwd(&mut x);
    let mut roots = ROOTS.lock().unwrap_or_else(PoisonError::into_inner);
    let roots = roots.get_or_insert_default();
    if roots.len() >= ROOTS_KEPT {
        roots.clear();
    }
    roots.insert(key, x[0]);
    x[0]
}

/// The most roots [`negacyclic_root`] keeps (a service may be sent any
/// number of primes).
#[cfg(feature = "wgpu")]
const ROOTS_KEPT: usize = 1024;

/// The negacyclic transform `t` of one polynomial with `plan` (see
/// [`super`]: `tfhe-ntt`'s own buffers are bit-reversed evaluations).
pub(crate) fn negacyclic_with(plan: &tfhe_ntt::prime64::Plan, t: &Transform, poly: &[u8]) -> PolyResult {
    let mut v: Vec<u64> = poly
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect();
    if v.iter().any(|&x| x >= plan.modulus()) {
        return Err(Reason::NonCanonicalElement);
    }
    match t.direction {
        Direction::Forward => {
            if t.input_order == Order::BitReversed {
                bit_reverse(&mut v);
            }
            plan.fwd(&mut v);
            if t.output_order == Order::Natural {
                bit_reverse(&mut v);
            }
        }
        Direction::Inverse => {
            if t.input_order == Order::Natural {
                bit_reverse(&mut v);
            }
            plan.inv(&mut v);
            plan.normalize(&mut v);
            if t.output_order == Order::BitReversed {
                bit_reverse(&mut v);
            }
        }
    }
    Ok(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

/// The transform `t` of one polynomial (`t.poly_bytes()` bytes; a
/// transform that `Transform::polys_in` accepted).
pub fn transform(t: &Transform, poly: &[u8]) -> PolyResult {
    match t.field {
        Field::Bn254Fr => transform_in::<ark_bn254::Fr>(t, poly),
        Field::Bls12381Fr => transform_in::<ark_bls12_381::Fr>(t, poly),
        Field::Goldilocks => transform_in::<Goldilocks>(t, poly),
        Field::GoldilocksNegacyclic | Field::Prime64Negacyclic => negacyclic_with(&tfhe_plan(t), t, poly),
    }
}
