//! The NTTs' declarations in the registry ([`crate::registry`]): batches
//! of random polynomials with the oracle's transforms. The bench's:
//! forward transforms of 2^14 elements in natural order (rows
//! `ntt_<field>_16384`, time per polynomial; issue 18's size for the
//! 64-bit prime); the self-test's: inverse transforms on a coset of 2^6
//! elements, bit-reversed input, natural output. Hostile polynomials hold
//! one element that is not below the modulus. The prime64 transform's
//! rows are over [`PRIME62`].

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::fields::PRIME62;
use super::{Direction, Field, Order, PolyResult, Transform, oracle};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{self, Cases, OpSpec, Workload, WorkloadConfig};

/// log2 of the bench's polynomial size.
const BENCH_LOG_N: u32 = 14;
/// log2 of the self-test's polynomial size.
const VARIED_LOG_N: u32 = 6;

const fn spec(field: Field, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op: Op::Ntt(field),
        item: "polynomial of 2^14 elements",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: Some(1 << BENCH_LOG_N),
        workload,
    }
}

/// `ntt_bn254_fr` (bench rows `ntt_bn254_fr_16384`).
pub const BN254_FR: OpSpec = spec(Field::Bn254Fr, |c| polys(c, Field::Bn254Fr));
/// `ntt_bls12_381_fr` (bench rows `ntt_bls12_381_fr_16384`).
pub const BLS12_381_FR: OpSpec = spec(Field::Bls12381Fr, |c| polys(c, Field::Bls12381Fr));
/// `ntt_goldilocks` (bench rows `ntt_goldilocks_16384`).
pub const GOLDILOCKS: OpSpec = spec(Field::Goldilocks, |c| polys(c, Field::Goldilocks));
/// `ntt_goldilocks_negacyclic` (bench rows `ntt_goldilocks_negacyclic_16384`).
pub const GOLDILOCKS_NEGACYCLIC: OpSpec = spec(Field::GoldilocksNegacyclic, |c| polys(c, Field::GoldilocksNegacyclic));
/// `ntt_prime64_negacyclic` (bench rows `ntt_prime64_negacyclic_16384`), over
/// [`PRIME62`].
pub const PRIME64_NEGACYCLIC: OpSpec = spec(Field::Prime64Negacyclic, |c| polys(c, Field::Prime64Negacyclic));

/// A random canonical element of `t`'s field (random bytes reduced
/// modulo its prime).
pub fn random_element(t: &Transform, rng: &mut StdRng) -> Vec<u8> {
    use ark_ff::{BigInteger, PrimeField};
    fn red<F: PrimeField>(b: &[u8], len: usize) -> Vec<u8> {
        F::from_le_bytes_mod_order(b).into_bigint().to_bytes_le()[..len].to_vec()
    }
    let bytes = rng.random::<[u8; 64]>();
    let len = t.field.element_len();
    match t.field {
        Field::Bn254Fr => red::<ark_bn254::Fr>(&bytes, len),
        Field::Bls12381Fr => red::<ark_bls12_381::Fr>(&bytes, len),
        Field::Goldilocks => red::<super::fields::Goldilocks>(&bytes, len),
        Field::GoldilocksNegacyclic | Field::Prime64Negacyclic => {
            // 128 random bits modulo p (a bias below 2^-64; a prime64
            // transform without its modulus, refused anyway, takes Goldilocks).
            let p = t.negacyclic_prime().unwrap_or(super::fields::GOLDILOCKS_P);
            let mut wide = [0u8; 16];
            wide.copy_from_slice(&bytes[..16]);
            let x = u128::from_le_bytes(wide) % u128::from(p);
            (x as u64).to_le_bytes().to_vec()
        }
    }
}

/// Random polynomials for `t`: `count` of them, each with one element
/// made all 0xff bytes (above every modulus here) with chance `hostile`.
pub fn random_polys(t: &Transform, count: usize, hostile: f64, seed: u64) -> Vec<u8> {
    (0..count)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut rng = crate::ops::item_rng(seed, i);
            let mut poly: Vec<u8> = (0..t.len()).flat_map(|_| random_element(t, &mut rng)).collect();
            if rng.random_bool(hostile.clamp(0.0, 1.0)) {
                let len = t.field.element_len();
                let at = rng.random_range(0..t.len()) * len;
                poly[at..at + len].fill(0xff);
            }
            poly
        })
        .collect()
}

fn polys(c: &WorkloadConfig, field: Field) -> Box<dyn Workload> {
    let log_n = if c.varied { VARIED_LOG_N } else { BENCH_LOG_N };
    let t = Transform {
        modulus: (field == Field::Prime64Negacyclic).then_some(PRIME62),
        ..Transform::new(field, log_n)
    };
    let t = if c.varied {
        let mut rng = StdRng::seed_from_u64(c.seed);
        Transform {
            direction: Direction::Inverse,
            input_order: Order::BitReversed,
            output_order: Order::Natural,
            // The negacyclic transform takes no coset.
            coset: Some(random_element(&t, &mut rng)).filter(|g| g.iter().any(|&b| b != 0) && !field.negacyclic()),
            ..t
        }
    } else {
        t
    };
    let distinct = c.distinct(64);
    let made = random_polys(&t, distinct, c.invalid_share, c.seed);
    let size = t.poly_bytes();
    let data: Vec<u8> = made.chunks_exact(size).cycle().take(c.n).flatten().copied().collect();
    let expected: Vec<PolyResult> = data.par_chunks_exact(size).map(|p| oracle::transform(&t, p)).collect();
    Box::new(Cases {
        len: c.n,
        input: (t, data),
        expected,
        oracle: |(t, data): &(Transform, Vec<u8>)| {
            // The oracle's code on one thread (one tfhe-ntt plan per batch).
            registry::on_one_thread(|| {
                std::hint::black_box(super::cpu::run(t, data));
            })
        },
        engine: |e: &Engine, (t, data): &(Transform, Vec<u8>)| e.ntt(t, data),
        same: |g: &PolyResult, w: &PolyResult| g == w,
        kernel: Some(|e: &Engine, (t, data): &(Transform, Vec<u8>), runs| {
            e.gpu_kernel_times(KernelWork::Ntt(t, data), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
