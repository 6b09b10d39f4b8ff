//! The MSMs' declarations in the registry ([`crate::registry`]): the sum
//! of `n` terms (time per term, one answer per batch) against the oracle.
//! Points: [`super::sample::points`], at most 1,024 distinct ones
//! repeated; scalars random. The self-test's also hold identities, zero scalars and scalars
//! of 2^256 - 1.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::sample::{identity, points};
use super::{Curve, Encoding, MsmResult, SCALAR_LEN, oracle};
use crate::engine::{Engine, KernelWork, Outcome};
use crate::error::Error;
use crate::ops::Op;
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
