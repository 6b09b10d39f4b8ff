//! The oracle: one polynomial's transform with `ark-poly`'s radix-2
//! evaluation domain over the arkworks field (see [`super`] for the
//! definition), on the calling thread's rayon pool (`ark-poly` is built
//! with `parallel`; the bench runs the oracle in a pool of one thread);
//! the negacyclic transforms with `tfhe-ntt`'s `prime64::Plan`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ark_ff::{FftField, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use rayon::prelude::*;

use super::fields::Goldilocks;
use super::{Direction, Field, Order, PolyResult, Transform};
use crate::verdict::Reason;

/// The element encoded by `bytes` (little-endian, the field's limbs'
/// bytes), if canonical: the limbs read straight into arkworks' integer,
/// which `from_bigint` refuses at or above the modulus (where
/// `from_le_bytes_mod_order` reduced the bytes by field multiplications
/// and a re-encoding compared them).
fn decode<F: PrimeField>(bytes: &[u8]) -> Option<F> {
    let mut x = F::BigInt::default();
    read_limbs(x.as_mut(), bytes).then(|| F::from_bigint(x))?
}

/// `x`'s canonical encoding into `out` (the field's limbs' bytes).
fn encode_into<F: PrimeField>(x: &F, out: &mut [u8]) {
    write_limbs(x.into_bigint().as_ref(), out);
}

/// `limbs` from `bytes`, 8 little-endian bytes each; false (and `limbs`
/// not all read) when `bytes` is not exactly that long.
pub(crate) fn read_limbs(limbs: &mut [u64], bytes: &[u8]) -> bool {
    for (limb, b) in limbs.iter_mut().zip(bytes.chunks_exact(8)) {
        *limb = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    }
    bytes.len() == 8 * limbs.len()
}

/// `limbs` into `out`, 8 little-endian bytes each.
pub(crate) fn write_limbs(limbs: &[u64], out: &mut [u8]) {
    for (limb, b) in limbs.iter().zip(out.chunks_exact_mut(8)) {
        b.copy_from_slice(&limb.to_le_bytes());
    }
}

/// Whether `g` encodes a nonzero canonical element of `field` (a coset
/// shift).
pub(crate) fn is_valid_shift(field: Field, g: &[u8]) -> bool {
    fn valid<F: PrimeField>(g: &[u8]) -> bool {
        decode::<F>(g).is_some_and(|x| !x.is_zero())
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

/// Elements per task of the decoding and encoding on the pool (a large
/// polynomial's take as long as its parallel FFT on one thread).
const CODING_CHUNK: usize = 1 << 12;

/// Every element of `poly` (`len` bytes each) by `decode`, on the pool,
/// each written straight to its place (an indexed collect: no pieces
/// joined after); [`Reason::NonCanonicalElement`] when one does not
/// decode.
pub(crate) fn decode_all<F: Send + Default>(
    poly: &[u8],
    len: usize,
    decode: impl Fn(&[u8]) -> Option<F> + Sync,
) -> Result<Vec<F>, Reason> {
    let bad = AtomicBool::new(false);
    let v: Vec<F> = poly
        .par_chunks_exact(len)
        .with_min_len(CODING_CHUNK)
        .map(|b| {
            decode(b).unwrap_or_else(|| {
                bad.store(true, Ordering::Relaxed);
                F::default()
            })
        })
        .collect();
    if bad.into_inner() {
        return Err(Reason::NonCanonicalElement);
    }
    Ok(v)
}

/// Every element of `v` into `len` bytes by `encode`, on the pool.
pub(crate) fn encode_all<F: Sync>(v: &[F], len: usize, encode: impl Fn(&F, &mut [u8]) + Sync) -> Vec<u8> {
    let mut out = vec![0u8; v.len() * len];
    out.par_chunks_mut(len * CODING_CHUNK)
        .zip(v.par_chunks(CODING_CHUNK))
        .for_each(|(bytes, xs)| {
            for (b, x) in bytes.chunks_exact_mut(len).zip(xs) {
                encode(x, b);
            }
        });
    out
}

/// The transform `t` of the elements `v` in place, by `ark-poly`'s
/// domain: the input's order, the coset, the direction, the output's
/// order. A linear map of `v`.
pub(crate) fn transform_elements<F: FftField + PrimeField>(t: &Transform, v: &mut Vec<F>) {
    if t.input_order == Order::BitReversed {
        bit_reverse(v);
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
        Direction::Forward => domain.fft_in_place(v),
        Direction::Inverse => domain.ifft_in_place(v),
    }
    if t.output_order == Order::BitReversed {
        bit_reverse(v);
    }
}

fn transform_in<F: FftField + PrimeField>(t: &Transform, poly: &[u8]) -> PolyResult {
    let len = t.field.element_len();
    let mut v = decode_all(poly, len, decode::<F>)?;
    transform_elements(t, &mut v);
    Ok(encode_all(&v, len, encode_into))
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
/// that `Transform::polys_in` accepted: its prime and size are planned),
/// made once per prime and size and kept, as its users keep theirs: making
/// a plan of 2^14 elements takes about ten of its transforms (550 µs
/// against 58 µs on a Zen 4 core), so a call of a few polynomials, as an
/// FHE residue system makes per prime, would be mostly planning. Kept
/// while their tables (about 32 bytes an element) stay under
/// [`PLAN_BYTES_KEPT`] in all; a larger plan is made per call.
pub(crate) fn tfhe_plan(t: &Transform) -> Arc<tfhe_ntt::prime64::Plan> {
    static PLANS: Mutex<Option<Kept<Arc<tfhe_ntt::prime64::Plan>>>> = Mutex::new(None);
    let p = prime_of(t);
    let key = (p, t.log_n);
    if let Some(plan) = PLANS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_default()
        .get(&key)
    {
        return plan.clone();
    }
    // Planned outside the lock (2^24 elements take a while).
    let plan = Arc::new(
        tfhe_ntt::prime64::Plan::try_new(t.len(), p)
            .unwrap_or_else(|| unreachable!("polys_in checked that tfhe-ntt plans 2^{} elements over {p}", t.log_n)),
    );
    let bytes = |log_n: u32| PLAN_BYTES_PER_ELEMENT << log_n;
    if bytes(t.log_n) <= PLAN_BYTES_KEPT {
        let mut plans = PLANS.lock().unwrap_or_else(PoisonError::into_inner);
        let plans = plans.get_or_insert_default();
        if plans.keys().map(|&(_, log_n)| bytes(log_n)).sum::<usize>() + bytes(t.log_n) > PLAN_BYTES_KEPT {
            plans.clear();
        }
        plans.insert(key, plan.clone());
    }
    plan
}

/// What is kept per (prime, log2 of the size).
type Kept<T> = HashMap<(u64, u32), T>;

/// About the bytes of a `tfhe-ntt` plan's tables per element (forward and
/// inverse twiddles, each with its Shoup companion).
const PLAN_BYTES_PER_ELEMENT: usize = 32;

/// The most bytes of plans [`tfhe_plan`] keeps: 128 plans of 2^15
/// elements, or one of 2^22.
const PLAN_BYTES_KEPT: usize = 128 << 20;

/// The primitive 2n-th root of unity psi of `tfhe-ntt`'s plan for the
/// negacyclic transform `t`: its forward buffer of the polynomial X holds
/// X(psi^(2 i + 1)) at the bit reversal of i, so position 0 holds psi.
/// For the GPU's tables, found once per prime and size (a plan and a
/// transform of 2^log_n elements) and kept (the last [`ROOTS_KEPT`] of
/// them).
#[cfg(feature = "wgpu")]
pub(crate) fn negacyclic_root(t: &Transform) -> u64 {
    static ROOTS: Mutex<Option<Kept<u64>>> = Mutex::new(None);
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
    let mut v = vec![0u64; poly.len() / 8];
    read_limbs(&mut v, poly);
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
    let mut out = vec![0u8; poly.len()];
    write_limbs(&v, &mut out);
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ntt::fields::PRIME62;

    #[test]
    fn plans_are_kept_per_prime_and_size() {
        let t = Transform::prime64(PRIME62, 10);
        let plan = tfhe_plan(&t);
        assert!(
            Arc::ptr_eq(&plan, &tfhe_plan(&t)),
            "the same prime and size: the kept plan"
        );
        assert_eq!((plan.ntt_size(), plan.modulus()), (1 << 10, PRIME62));
        let other_size = tfhe_plan(&Transform::prime64(PRIME62, 11));
        assert_eq!(other_size.ntt_size(), 1 << 11);
        let goldilocks = tfhe_plan(&Transform::new(Field::GoldilocksNegacyclic, 10));
        assert_eq!(goldilocks.modulus(), super::super::fields::GOLDILOCKS_P);
        // Past the budget, a plan is made for its call and not kept.
        let big = Transform::prime64(PRIME62, 23);
        const { assert!(PLAN_BYTES_PER_ELEMENT << 23 > PLAN_BYTES_KEPT) };
        assert_eq!(
            Arc::strong_count(&tfhe_plan(&big)),
            1,
            "a plan past the budget is not kept"
        );
    }
}
