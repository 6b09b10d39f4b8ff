//! The oracle: one polynomial's transform with `ark-poly`'s radix-2
//! evaluation domain over the arkworks field (see [`super`] for the
//! definition), on the calling thread's rayon pool (`ark-poly` is built
//! with `parallel`; the bench runs the oracle in a pool of one thread);
//! the negacyclic transform with `tfhe-ntt`'s `prime64::Plan`.

use ark_ff::{BigInteger, FftField, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};

use super::fields::{GOLDILOCKS_P, Goldilocks};
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
        Field::GoldilocksNegacyclic => false,
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

/// `tfhe-ntt`'s negacyclic plan for 2^`log_n` elements over the Goldilocks
/// prime (`log_n` from 4: `Transform::polys_in` has checked it).
pub(crate) fn tfhe_plan(log_n: u32) -> tfhe_ntt::prime64::Plan {
    tfhe_ntt::prime64::Plan::try_new(1 << log_n, GOLDILOCKS_P)
        .unwrap_or_else(|| unreachable!("tfhe-ntt plans 2^{log_n} elements over the Solinas prime"))
}

/// The primitive 2n-th root of unity psi of `tfhe-ntt`'s plan: its forward
/// buffer of the polynomial X holds X(psi^(2 i + 1)) at the bit reversal of
/// i, so position 0 holds psi. For the GPU's tables, found once per size
/// (a plan and a transform of 2^log_n elements) and kept.
#[cfg(feature = "wgpu")]
pub(crate) fn negacyclic_root(log_n: u32) -> u64 {
    static ROOTS: [std::sync::OnceLock<u64>; super::MAX_LOG_N as usize + 1] =
        [const { std::sync::OnceLock::new() }; super::MAX_LOG_N as usize + 1];
    *ROOTS[log_n as usize].get_or_init(|| {
        let plan = tfhe_plan(log_n);
        let mut x = vec![0u64; plan.ntt_size()];
        x[1] = 1;
        plan.fwd(&mut x);
        x[0]
    })
}

/// The negacyclic transform `t` of one polynomial with `plan` (see
/// [`super`]: `tfhe-ntt`'s own buffers are bit-reversed evaluations).
pub(crate) fn negacyclic_with(plan: &tfhe_ntt::prime64::Plan, t: &Transform, poly: &[u8]) -> PolyResult {
    let mut v: Vec<u64> = poly
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect();
    if v.iter().any(|&x| x >= GOLDILOCKS_P) {
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
        Field::GoldilocksNegacyclic => negacyclic_with(&tfhe_plan(t.log_n), t, poly),
    }
}
