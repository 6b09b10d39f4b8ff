//! The MSMs' declarations in the registry ([`crate::registry`]): the sum
//! of `n` terms (time per term, one answer per batch) against the oracle.
//! Points: random multiples of BN254's generator, BLS public keys (G1) and
//! min_sig public keys (G2), at most 1,024 distinct ones repeated; scalars
//! random. The self-test's also hold identities, zero scalars and scalars
//! of 2^256 - 1.

use ark_bn254::{Fr, G1Projective};
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::PrimeField;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{Curve, Encoding, MsmResult, SCALAR_LEN, oracle};
use crate::engine::{Engine, KernelWork, Outcome};
use crate::error::Error;
use crate::ops::bls::sample as bls_sample;
use crate::ops::evm::bn254;
use crate::ops::{Op, item_rng};
use crate::registry::{self, Cases, OpSpec, Workload, WorkloadConfig};

const fn spec(curve: Curve, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op: Op::Msm(curve),
        item: "term (point, scalar); one sum per batch",
        gpu_kernel: true,
        splittable: false,
        bench_msg_len: None,
        workload,
    }
}

/// `msm_bn254_g1`.
pub const BN254_G1: OpSpec = spec(Curve::Bn254G1, |c| terms(c, Curve::Bn254G1));
/// `msm_bls12_381_g1`.
pub const BLS12_381_G1: OpSpec = spec(Curve::Bls12381G1, |c| terms(c, Curve::Bls12381G1));
/// `msm_bls12_381_g2`.
pub const BLS12_381_G2: OpSpec = spec(Curve::Bls12381G2, |c| terms(c, Curve::Bls12381G2));

/// `count` distinct points of `curve` (in its encoding) from `seed`.
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

/// The identity in `curve`'s encoding.
pub fn identity(curve: Curve) -> Vec<u8> {
    let mut id = vec![0u8; curve.point_len()];
    if curve != Curve::Bn254G1 {
        id[0] = 0x40;
    }
    id
}

fn terms(c: &WorkloadConfig, curve: Curve) -> Box<dyn Workload> {
    let n = c.n.max(1);
    let made = points(curve, c.distinct(1024).min(n), c.seed);
    let mut rng = StdRng::seed_from_u64(c.seed);
    let id = identity(curve);
    let mut pts = Vec::with_capacity(n * curve.point_len());
    let mut scalars = Vec::with_capacity(n * SCALAR_LEN);
    for (i, p) in made.iter().cycle().take(n).enumerate() {
        let edge = if c.varied { i % 13 } else { 0 };
        pts.extend_from_slice(if edge == 5 { &id } else { p });
        let s: [u8; SCALAR_LEN] = match edge {
            3 => [0; SCALAR_LEN],
            7 => [0xff; SCALAR_LEN],
            _ => rng.random(),
        };
        scalars.extend_from_slice(&s);
    }
    let expected = vec![oracle::msm(curve, Encoding::Uncompressed, &pts, &scalars)];
    Box::new(Cases {
        len: n,
        input: (curve, pts, scalars),
        expected,
        // On one thread for arkworks (BN254); blst sums on its own threads.
        oracle: |(curve, p, s): &(Curve, Vec<u8>, Vec<u8>)| {
            registry::on_one_thread(|| {
                std::hint::black_box(oracle::msm(*curve, Encoding::Uncompressed, p, s).ok());
            })
        },
        engine: |e: &Engine, (curve, p, s): &(Curve, Vec<u8>, Vec<u8>)| -> Result<Outcome<Vec<MsmResult>>, Error> {
            e.msm(*curve, Encoding::Uncompressed, p, s).map(|o| Outcome {
                output: vec![o.output],
                selection: o.selection,
            })
        },
        same: |g: &MsmResult, w: &MsmResult| g == w,
        kernel: Some(|e: &Engine, (curve, p, s): &(Curve, Vec<u8>, Vec<u8>), runs| {
            e.gpu_kernel_times(KernelWork::Msm(*curve, p, s), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
