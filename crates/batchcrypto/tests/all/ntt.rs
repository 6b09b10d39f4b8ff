//! NTTs (`Engine::ntt`) over BN254's and BLS12-381's scalar fields,
//! Goldilocks and (negacyclic) any 64-bit prime: against a direct evaluation written here (y_i = sum_j a_j
//! (g w^i)^j with arkworks' field arithmetic, independent of `ark-poly`'s
//! FFT) for every direction, order and coset at small sizes; against the
//! oracle and as round trips at every size 2^1..2^20; hostile polynomials
//! (an element at or above the modulus) answered one by one; calls that
//! cannot be made refused with a clear error. Every engine, the count
//! included; engines without a kernel say they ran on the CPU. The
//! negacyclic transforms also against `tfhe-ntt`'s own buffers, over
//! primes of 17 to 64 bits.

use crate::support::{self, cpu_engine, engines, gpu_engine};
use ark_ff::fields::{Fp64, MontBackend, MontConfig};
use ark_ff::{BigInteger, FftField, PrimeField};
use batchcrypto::ops::ntt::fields::{GOLDILOCKS_P, Goldilocks, PRIME62};
use batchcrypto::ops::ntt::{Direction, Field, Order, PolyResult, Transform, oracle};
use batchcrypto::registry::{self, WorkloadConfig};
use batchcrypto::{Error, Reason};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The prime of the prime64-negacyclic transforms here: the largest prime
/// below 2^64 that is 1 mod 2^25 (above 2^63 and above Goldilocks, so that
/// the kernel's sums pass 2^64), with arkworks' field over it for the
/// definition (22 generates its multiplicative group: p - 1 = 2^25 3 151
/// 24469 49597).
const TEST_PRIME: u64 = 0xffff_ffff_8a00_0001;

#[derive(MontConfig)]
#[modulus = "18446744071729840129"]
#[generator = "22"]
pub struct TestPrimeConfig;
type TestPrime = Fp64<MontBackend<TestPrimeConfig, 1>>;

/// The forward transform of 2^`log_n` elements of `field`, natural
/// orders; prime64-negacyclic's over [`TEST_PRIME`].
fn new(field: Field, log_n: u32) -> Transform {
    Transform {
        modulus: (field == Field::Prime64Negacyclic).then_some(TEST_PRIME),
        ..Transform::new(field, log_n)
    }
}

/// Every engine's answers, one per polynomial, each engine having run
/// where it should: the GPU engine on the GPU (the kernels need
/// SHADER_INT64: the engine opened without it runs them on the CPU).
fn on_every_engine(t: &Transform, polys: &[u8]) -> Vec<(&'static str, Vec<PolyResult>)> {
    let outputs = support::on_every_engine(|engine| engine.ntt(t, polys).expect("ntt"));
    for (name, output) in &outputs {
        assert_eq!(
            output.len(),
            polys.len() / t.poly_bytes(),
            "{name}: one answer per polynomial"
        );
    }
    outputs
}

fn encode<F: PrimeField>(x: F, len: usize) -> Vec<u8> {
    x.into_bigint().to_bytes_le()[..len].to_vec()
}

fn decode<F: PrimeField>(b: &[u8]) -> F {
    F::from_le_bytes_mod_order(b)
}

/// `v` (length 2^k) in bit-reversed order, written out independently.
fn bit_reversed<T: Clone>(v: &[T]) -> Vec<T> {
    let k = v.len().trailing_zeros();
    (0..v.len())
        .map(|i| {
            let mut r = 0;
            for b in 0..k {
                r |= ((i >> b) & 1) << (k - 1 - b);
            }
            v[r].clone()
        })
        .collect()
}

/// tfhe-ntt's primitive 2n-th root psi for 2^log_n elements of the
/// negacyclic ring of `t` (over arkworks' field `F` of its prime): its
/// forward buffer of X holds psi at position 0 (the evaluation at
/// psi^(2 i + 1) for i bit-reversed); checked to be one.
fn tfhe_psi<F: PrimeField>(t: &Transform) -> F {
    let p = t.negacyclic_prime().expect("a negacyclic transform's prime");
    assert_eq!(F::MODULUS.as_ref()[0], p, "the field of the prime");
    let plan = tfhe_ntt::prime64::Plan::try_new(t.len(), p).expect("plan");
    let mut x = vec![0u64; t.len()];
    x[1] = 1;
    plan.fwd(&mut x);
    let psi = F::from(x[0]);
    assert_eq!(psi.pow([t.len() as u64]), -F::one(), "psi^n = -1");
    psi
}

/// The transform by its definition: evaluations at g w^i (forward), or
/// the coefficients whose evaluations those are (inverse: n^-1 sum_i y_i
/// (g w^i)^-j); for the negacyclic transform w = psi^2 and g = psi (the
/// odd powers of psi).
fn direct<F: PrimeField + FftField>(t: &Transform, poly: &[u8]) -> Vec<u8> {
    let len = t.field.element_len();
    let n = t.len();
    let mut x: Vec<F> = poly.chunks_exact(len).map(decode::<F>).collect();
    if t.input_order == Order::BitReversed {
        x = bit_reversed(&x);
    }
    let (w, g) = if t.field.negacyclic() {
        let psi = tfhe_psi::<F>(t);
        (psi * psi, psi)
    } else {
        let w = F::get_root_of_unity(n as u64).expect("root of unity");
        (w, t.coset.as_deref().map_or(F::one(), decode::<F>))
    };
    // sum_j x_j p^j by Horner's rule: the forward transform at p = g w^i;
    // the inverse's a_i = n^-1 g^-i sum_j y_j w^(-ij), at p = w^-i.
    let at = |point: F| x.iter().rev().fold(F::zero(), |acc, a| acc * point + a);
    let n_inv = F::from(n as u64).inverse().expect("n invertible");
    let w_inv = w.inverse().expect("w nonzero");
    let g_inv = g.inverse().expect("g nonzero");
    let mut y: Vec<F> = (0..n as u64)
        .map(|i| match t.direction {
            Direction::Forward => at(g * w.pow([i])),
            Direction::Inverse => at(w_inv.pow([i])) * n_inv * g_inv.pow([i]),
        })
        .collect();
    if t.output_order == Order::BitReversed {
        y = bit_reversed(&y);
    }
    y.into_iter().flat_map(|v| encode(v, len)).collect()
}

fn direct_in(t: &Transform, poly: &[u8]) -> Vec<u8> {
    match t.field {
        Field::Bn254Fr => direct::<ark_bn254::Fr>(t, poly),
        Field::Bls12381Fr => direct::<ark_bls12_381::Fr>(t, poly),
        Field::Goldilocks | Field::GoldilocksNegacyclic => direct::<Goldilocks>(t, poly),
        Field::Prime64Negacyclic => direct::<TestPrime>(t, poly),
    }
}

/// A random canonical element.
fn element(field: Field, rng: &mut StdRng) -> Vec<u8> {
    below(&modulus(field), rng)
}

/// A uniformly random integer below `m` (little-endian, as long): random
/// bytes up to `m`'s top bit, drawn again until below `m`. Cheaper than
/// reducing wide random integers into the field, which took a quarter of
/// the 2^20 round trips' time.
fn below(m: &[u8], rng: &mut StdRng) -> Vec<u8> {
    let top = m.iter().rposition(|&b| b != 0).expect("a nonzero modulus");
    let mask = u8::MAX >> m[top].leading_zeros();
    let mut e = vec![0u8; m.len()];
    loop {
        rng.fill(&mut e[..=top]);
        e[top] &= mask;
        if e.iter().rev().lt(m.iter().rev()) {
            return e;
        }
    }
}

fn random_polys(t: &Transform, count: usize, rng: &mut StdRng) -> Vec<u8> {
    let m = modulus(t.field);
    (0..count * t.len()).flat_map(|_| below(&m, rng)).collect()
}

/// The modulus, little-endian (the smallest non-canonical element).
fn modulus(field: Field) -> Vec<u8> {
    let len = field.element_len();
    let m = match field {
        Field::Bn254Fr => ark_bn254::Fr::MODULUS.to_bytes_le(),
        Field::Bls12381Fr => ark_bls12_381::Fr::MODULUS.to_bytes_le(),
        Field::Goldilocks | Field::GoldilocksNegacyclic => Goldilocks::MODULUS.to_bytes_le(),
        Field::Prime64Negacyclic => TestPrime::MODULUS.to_bytes_le(),
    };
    m[..len].to_vec()
}

/// Every direction, order pair and coset (none, a random shift) at sizes
/// 2..64: equal to the direct evaluation on every engine, polynomial by
/// polynomial.
#[test]
fn every_variant_equals_the_definition() {
    let mut rng = StdRng::seed_from_u64(18);
    for field in Field::ALL.into_iter().filter(|f| !f.negacyclic()) {
        for log_n in [1u32, 2, 3, 6] {
            for direction in [Direction::Forward, Direction::Inverse] {
                for (input_order, output_order) in [
                    (Order::Natural, Order::Natural),
                    (Order::BitReversed, Order::Natural),
                    (Order::Natural, Order::BitReversed),
                    (Order::BitReversed, Order::BitReversed),
                ] {
                    for coset in [None, Some(element(field, &mut rng))] {
                        let t = Transform {
                            direction,
                            input_order,
                            output_order,
                            coset,
                            ..new(field, log_n)
                        };
                        let polys = random_polys(&t, 3, &mut rng);
                        let want: Vec<PolyResult> = polys
                            .chunks_exact(t.poly_bytes())
                            .map(|p| Ok(direct_in(&t, p)))
                            .collect();
                        for p in polys.chunks_exact(t.poly_bytes()) {
                            assert_eq!(oracle::transform(&t, p), Ok(direct_in(&t, p)), "oracle {t:?}");
                        }
                        for (name, got) in on_every_engine(&t, &polys) {
                            assert_eq!(got, want, "{name} {t:?}");
                        }
                    }
                }
            }
        }
    }
}

/// Where `t` (a negacyclic transform) is one of `tfhe-ntt`'s own
/// (natural coefficients in, bit-reversed evaluations out; and back, with
/// the normalisation), `got` (the answers to `polys`) is what its plan
/// over the transform's prime computes; other transforms are not checked.
fn assert_tfhe_ntt_buffers(t: &Transform, polys: &[u8], got: &[PolyResult], name: &str) {
    let p = t.negacyclic_prime().expect("a negacyclic transform's prime");
    let plan = tfhe_ntt::prime64::Plan::try_new(t.len(), p).expect("plan");
    let fwd =
        t.direction == Direction::Forward && t.input_order == Order::Natural && t.output_order == Order::BitReversed;
    let inv =
        t.direction == Direction::Inverse && t.input_order == Order::BitReversed && t.output_order == Order::Natural;
    if !fwd && !inv {
        return;
    }
    assert_eq!(
        got.len(),
        polys.len() / t.poly_bytes(),
        "{name}: one answer per polynomial"
    );
    for (poly, got) in polys.chunks_exact(t.poly_bytes()).zip(got) {
        let mut buf: Vec<u64> = poly
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
            .collect();
        if fwd {
            plan.fwd(&mut buf);
        } else {
            plan.inv(&mut buf);
            plan.normalize(&mut buf);
        }
        let want: Vec<u8> = buf.iter().flat_map(|x| x.to_le_bytes()).collect();
        assert_eq!(got, &Ok(want), "{name} {t:?}: tfhe-ntt's buffer over {p}");
    }
}

/// The negacyclic transforms are tfhe-ntt's: the bit-reversed forward
/// output is tfhe-ntt's forward buffer, the inverse from that buffer
/// tfhe-ntt's inverse and normalisation; in natural order each is the
/// definition (the odd powers of tfhe-ntt's psi); every order pair, both
/// directions, on every engine; over Goldilocks and [`TEST_PRIME`].
#[test]
fn negacyclic_is_tfhe_ntt_and_its_definition() {
    let mut rng = StdRng::seed_from_u64(64);
    for field in [Field::GoldilocksNegacyclic, Field::Prime64Negacyclic] {
        for log_n in [4u32, 5, 8, 11] {
            let polys = random_polys(&new(field, log_n), 3, &mut rng);
            for direction in [Direction::Forward, Direction::Inverse] {
                for input_order in [Order::Natural, Order::BitReversed] {
                    for output_order in [Order::Natural, Order::BitReversed] {
                        let t = Transform {
                            direction,
                            input_order,
                            output_order,
                            ..new(field, log_n)
                        };
                        let want: Vec<PolyResult> = polys
                            .chunks_exact(t.poly_bytes())
                            .map(|p| Ok(direct_in(&t, p)))
                            .collect();
                        for (name, got) in on_every_engine(&t, &polys) {
                            assert_eq!(got, want, "{name} {t:?}");
                            assert_tfhe_ntt_buffers(&t, &polys, &got, name);
                        }
                    }
                }
            }
        }
    }
}

/// prime64-negacyclic over primes of 17 to 64 bits (65537; 31, 50, 62
/// and 63 bits, the registry's PRIME62 among them; Goldilocks, where it
/// equals goldilocks-negacyclic; TEST_PRIME) at sizes up to what each
/// prime plans: the workgroup kernel (2^4, 2^12 past a block), the passes
/// (2^13, 2^15), forward and inverse in tfhe-ntt's orders, equal to
/// tfhe-ntt's own buffers on every engine, and back again.
#[test]
fn prime64_is_tfhe_ntt_over_many_primes() {
    let mut rng = StdRng::seed_from_u64(65);
    for p in [
        65_537,
        0x7e00_0001,
        0x3_ffff_e400_0001,
        PRIME62,
        0x7fff_ffff_d200_0001,
        GOLDILOCKS_P,
        TEST_PRIME,
    ] {
        for log_n in [4u32, 12, 13, 15] {
            let fwd = Transform {
                output_order: Order::BitReversed,
                ..Transform::prime64(p, log_n)
            };
            let inv = Transform {
                direction: Direction::Inverse,
                input_order: Order::BitReversed,
                ..Transform::prime64(p, log_n)
            };
            // Random elements below p (u64s reduced).
            let polys: Vec<u8> = (0..2 << log_n)
                .flat_map(|_| (rng.random::<u64>() % p).to_le_bytes())
                .collect();
            let mut evals = None;
            for (name, got) in on_every_engine(&fwd, &polys) {
                assert_tfhe_ntt_buffers(&fwd, &polys, &got, name);
                evals.get_or_insert(got);
            }
            let evals: Vec<u8> = evals
                .expect("engines")
                .into_iter()
                .flat_map(|r| r.expect("canonical"))
                .collect();
            for (name, got) in on_every_engine(&inv, &evals) {
                assert_tfhe_ntt_buffers(&inv, &evals, &got, name);
                let back: Vec<u8> = got.into_iter().flat_map(|r| r.expect("canonical")).collect();
                assert_eq!(back, polys, "{name} {p} 2^{log_n}: round trip");
            }
            if p == GOLDILOCKS_P {
                let goldilocks = Transform {
                    output_order: Order::BitReversed,
                    ..Transform::new(Field::GoldilocksNegacyclic, log_n)
                };
                let want = cpu_engine(None).ntt(&goldilocks, &polys).expect("ntt").output;
                for (name, got) in on_every_engine(&fwd, &polys) {
                    assert_eq!(
                        got, want,
                        "{name} 2^{log_n}: prime64 over Goldilocks is goldilocks-negacyclic"
                    );
                }
            }
        }
    }
}

/// prime64-negacyclic's modulus: required, and a prime = 1 mod 2n that
/// tfhe-ntt plans (not 0, 1, 2, an even number, a composite, or a prime
/// whose p - 1 lacks the power of two: 65537 at 2^16); no other field
/// takes one. Refused as a call, on every engine.
#[test]
fn prime64_moduli_are_checked() {
    // 3 2^25 + 1 = 100663297 = 7 14380471: 1 mod 2^25 but composite.
    assert_eq!(100_663_297u64, 7 * 14_380_471);
    for (name, engine) in engines() {
        let refused = |t: &Transform| match engine.ntt(t, &vec![0u8; t.poly_bytes()]) {
            Err(Error::InvalidInput { reason, .. }) => reason,
            other => panic!("{name} {t:?}: {other:?}"),
        };
        for (p, log_n) in [
            (0u64, 4u32),
            (1, 4),
            (2, 4),
            (1 << 40, 4),
            (100_663_297, 4),
            (65_537, 16),
            (u64::MAX, 4),
        ] {
            assert!(
                refused(&Transform::prime64(p, log_n)).contains("not a prime"),
                "{p} 2^{log_n}"
            );
        }
        assert!(refused(&Transform::new(Field::Prime64Negacyclic, 4)).contains("needs a modulus"));
        for field in Field::ALL.into_iter().filter(|&f| f != Field::Prime64Negacyclic) {
            let t = Transform {
                modulus: Some(GOLDILOCKS_P),
                ..Transform::new(field, 4)
            };
            assert!(refused(&t).contains("takes no modulus"), "{field}");
        }
        // 65537 plans 2^15 (its p - 1 is 2^16).
        let t = Transform::prime64(65_537, 15);
        assert_eq!(
            engine
                .ntt(&t, &vec![0u8; t.poly_bytes()])
                .expect("2^15 over 65537")
                .output
                .len(),
            1
        );
    }
}

/// Every size 2^1..2^20: forward then inverse gives the input back, and
/// the CPU path equals the oracle (one polynomial per size, several at
/// small sizes, the coset forms on every other size).
#[test]
fn round_trips_at_every_size() {
    let engine = cpu_engine(None);
    let mut rng = StdRng::seed_from_u64(20);
    for field in Field::ALL {
        for log_n in field.min_log_n()..=20u32 {
            let count = if log_n <= 12 { 3 } else { 1 };
            let coset = (log_n % 2 == 1 && !field.negacyclic()).then(|| element(field, &mut rng));
            let fwd = Transform {
                coset: coset.clone(),
                ..new(field, log_n)
            };
            let inv = Transform {
                direction: Direction::Inverse,
                coset,
                ..new(field, log_n)
            };
            let polys = random_polys(&fwd, count, &mut rng);
            let out = engine.ntt(&fwd, &polys).expect("forward").output;
            assert_eq!(out.len(), count);
            let evals: Vec<u8> = out.into_iter().flat_map(|r| r.expect("canonical input")).collect();
            if log_n <= 16 {
                let want: Vec<u8> = polys
                    .chunks_exact(fwd.poly_bytes())
                    .flat_map(|p| oracle::transform(&fwd, p).expect("oracle"))
                    .collect();
                assert_eq!(evals, want, "{field} 2^{log_n}: the oracle");
            }
            assert_ne!(evals, polys, "{field} 2^{log_n}: a transform changes random input");
            let back: Vec<u8> = engine
                .ntt(&inv, &evals)
                .expect("inverse")
                .output
                .into_iter()
                .flat_map(|r| r.expect("canonical"))
                .collect();
            assert_eq!(back, polys, "{field} 2^{log_n}: round trip");
        }
    }
}

/// Every field on the GPU at every size 2^1..2^18 (one workgroup per
/// polynomial up to 2^12, a dispatch per stage from 2^13), each variant
/// in turn, several polynomials per call up to 2^14: equal to the oracle,
/// and the GPU really ran them.
#[test]
fn every_field_on_the_gpu_at_every_size() {
    let Some(engine) = gpu_engine() else { return };
    let mut rng = StdRng::seed_from_u64(64);
    for (field, log_n) in Field::ALL
        .into_iter()
        .flat_map(|f| (f.min_log_n()..=18u32).map(move |k| (f, k)))
    {
        let t = Transform {
            direction: if log_n % 2 == 0 {
                Direction::Inverse
            } else {
                Direction::Forward
            },
            input_order: if log_n % 3 == 0 {
                Order::BitReversed
            } else {
                Order::Natural
            },
            output_order: if log_n % 4 == 1 {
                Order::BitReversed
            } else {
                Order::Natural
            },
            coset: (log_n % 5 < 3 && !field.negacyclic()).then(|| element(field, &mut rng)),
            ..new(field, log_n)
        };
        let count = match log_n {
            ..=10 => 5,
            11..=14 => 2,
            _ => 1,
        };
        let polys = random_polys(&t, count, &mut rng);
        let out = engine.ntt(&t, &polys).expect("ntt");
        assert_eq!(out.selection.backend.name(), "gpu", "2^{log_n}: {}", out.selection);
        let want: Vec<PolyResult> = polys
            .chunks_exact(t.poly_bytes())
            .map(|p| oracle::transform(&t, p))
            .collect();
        assert_eq!(out.output, want, "2^{log_n} {t:?}");
    }
}

/// Both GPU kernels past one workgroup block (16 KiB: 2^9 elements of a
/// scalar field, 2^11 of Goldilocks) in every variant: the workgroup
/// kernel at twice a block (its later stages and output order in device
/// memory) and the passes (from 2^13); both directions, every order pair,
/// with and without a coset, on the GPU, equal to the oracle.
#[test]
fn every_variant_past_one_block() {
    let Some(engine) = gpu_engine() else { return };
    let mut rng = StdRng::seed_from_u64(13);
    for (field, log_n) in Field::ALL.into_iter().flat_map(|f| {
        let past_a_block = (16u32 << 10).div_ceil(f.element_len() as u32).ilog2() + 1;
        [(f, past_a_block), (f, 13)]
    }) {
        for direction in [Direction::Forward, Direction::Inverse] {
            for input_order in [Order::Natural, Order::BitReversed] {
                for output_order in [Order::Natural, Order::BitReversed] {
                    let shift = Some(element(field, &mut rng)).filter(|_| !field.negacyclic());
                    for coset in [None, shift].into_iter().collect::<std::collections::HashSet<_>>() {
                        let t = Transform {
                            direction,
                            input_order,
                            output_order,
                            coset,
                            ..new(field, log_n)
                        };
                        let polys = random_polys(&t, 2, &mut rng);
                        let out = engine.ntt(&t, &polys).expect("ntt");
                        assert_eq!(out.selection.backend.name(), "gpu", "{}", out.selection);
                        let want: Vec<PolyResult> = polys
                            .chunks_exact(t.poly_bytes())
                            .map(|p| oracle::transform(&t, p))
                            .collect();
                        assert_eq!(out.output, want, "{t:?}");
                    }
                }
            }
        }
    }
}

/// Polynomials with one element at or above the modulus get
/// `non_canonical_element`, the others their transforms, on every engine.
#[test]
fn non_canonical_elements_are_answered_one_by_one() {
    let mut rng = StdRng::seed_from_u64(7);
    // 2^4: a workgroup per polynomial on the GPU; 2^13: the passes.
    for (field, log_n) in Field::ALL.into_iter().flat_map(|f| [(f, 4), (f, 13)]) {
        let t = new(field, log_n);
        let count = if log_n == 4 { 12 } else { 6 };
        let mut polys = random_polys(&t, count, &mut rng);
        let len = field.element_len();
        let bad = [1usize, 5, count - 1];
        for (k, &i) in bad.iter().enumerate() {
            let at = i * t.poly_bytes() + [0, 7, t.len() - 1][k] * len;
            let value = match k {
                0 => modulus(field),
                1 => vec![0xff; len],
                _ => {
                    // The modulus plus one.
                    let mut m = modulus(field);
                    m[0] += 1;
                    m
                }
            };
            polys[at..at + len].copy_from_slice(&value);
        }
        // p - 1 is canonical.
        let mut below = modulus(field);
        below[0] -= 1;
        polys[3 * t.poly_bytes()..3 * t.poly_bytes() + len].copy_from_slice(&below);
        for (name, got) in on_every_engine(&t, &polys) {
            for (i, r) in got.iter().enumerate() {
                if bad.contains(&i) {
                    assert_eq!(
                        r,
                        &Err(Reason::NonCanonicalElement),
                        "{name} {field} 2^{log_n} polynomial {i}"
                    );
                } else {
                    let p = &polys[i * t.poly_bytes()..(i + 1) * t.poly_bytes()];
                    let want = if log_n == 4 {
                        direct_in(&t, p)
                    } else {
                        oracle::transform(&t, p).expect("oracle")
                    };
                    assert_eq!(r, &Ok(want), "{name} {field} 2^{log_n} polynomial {i}");
                }
            }
        }
    }
}

/// Calls that cannot be made: a partial polynomial, sizes outside
/// 1..=24, a zero, non-canonical or wrong-length coset shift. An empty
/// batch is no polynomial.
#[test]
fn bad_calls_are_refused_with_a_reason() {
    for (name, engine) in engines() {
        for field in Field::ALL {
            let len = field.element_len();
            let log_n = field.min_log_n().max(3);
            let t = new(field, log_n);
            let refused = |t: &Transform, bytes: usize| match engine.ntt(t, &vec![0u8; bytes]) {
                Err(Error::InvalidInput { reason, .. }) => reason,
                other => panic!("{name} {t:?} on {bytes} bytes: {other:?}"),
            };
            let n = t.len();
            assert!(refused(&t, n * len + 1).contains("whole number"));
            assert!(refused(&t, (n - 1) * len).contains("whole number"));
            for log_n in [0, field.min_log_n() - 1, 25, 64] {
                assert!(refused(&new(field, log_n), 0).contains("log_n"));
            }
            let mut shifts = vec![vec![0; len], modulus(field), vec![1; len + 1], vec![1]];
            if field.negacyclic() {
                // No shift at all, even a good one.
                let mut one = vec![0; len];
                one[0] = 1;
                shifts.push(one);
            }
            for shift in shifts {
                let t = Transform {
                    coset: Some(shift),
                    ..new(field, log_n)
                };
                assert!(refused(&t, n * len).contains("coset"));
            }
            let out = engine.ntt(&t, &[]).expect("no polynomial");
            assert!(out.output.is_empty());
        }
    }
}

/// Zero transforms to zero and the constant polynomial c to c everywhere
/// (no coset): the transforms are the linear maps they claim to be.
#[test]
fn constants_and_zero() {
    let engine = cpu_engine(None);
    let mut rng = StdRng::seed_from_u64(1);
    for field in Field::ALL {
        let t = new(field, 5);
        let c = element(field, &mut rng);
        let mut poly = vec![0u8; t.poly_bytes()];
        poly[..c.len()].copy_from_slice(&c);
        let polys = [vec![0u8; t.poly_bytes()], poly].concat();
        let out = engine.ntt(&t, &polys).expect("ntt").output;
        assert_eq!(out[0], Ok(vec![0u8; t.poly_bytes()]));
        assert_eq!(out[1], Ok(c.repeat(t.len())));
    }
}

/// The registry's workloads (the self-test's shape: inverse on a coset,
/// bit-reversed input; and hostile polynomials) on every engine.
#[test]
fn generated_polynomials_match_the_oracle() {
    for field in Field::ALL {
        let spec = registry::spec(batchcrypto::Op::Ntt(field));
        for (n, share, seed, varied) in [(40, 0.0, 1, true), (30, 0.5, 2, true), (3, 0.3, 3, false)] {
            let config = WorkloadConfig {
                n,
                invalid_share: share,
                signers: 1,
                seed,
                varied,
            };
            let workload = (spec.workload)(&config);
            assert_eq!(workload.len(), n);
            for (name, engine) in engines() {
                if let Err(e) = workload.check(engine) {
                    panic!("{} on {name}: {e}", spec.name());
                }
            }
        }
    }
}
