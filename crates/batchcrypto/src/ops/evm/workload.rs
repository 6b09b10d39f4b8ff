//! The EVM precompiles' declarations in the registry
//! ([`crate::registry`]): generated calls, honest and hostile, with the
//! oracle's answers. Honest calls: random multiples of the BN254
//! generators (sums, doublings, inverses, edge scalars; pairing checks of
//! 0–3 pairs that cancel or not) and EIP-2537 MSMs over BLS public keys
//! with random, zero and infinity terms. Hostile calls: a coordinate at or
//! above p, a point off its curve, nonzero top bytes, a G1 point of order
//! 3 (outside BLS12-381's G1), a BN254 twist point outside G2, a length
//! the precompile refuses. The bench's calls: ECADD and ECMUL of random
//! points, pairing checks of two pairs, MSMs of 16 (G1) and 8 (G2) pairs.

use ark_bn254::{Fq, Fq2, Fr, G1Projective, G2Affine, G2Projective};
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField};
use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::{CallResult, Precompile, bn254, oracle};
use crate::batch::FlatBytes;
use crate::engine::Engine;
use crate::ops::bls::{eip2537, sample as bls_sample};
use crate::ops::{Op, item_rng};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

const fn spec(
    precompile: Precompile,
    item: &'static str,
    workload: fn(&WorkloadConfig) -> Box<dyn Workload>,
) -> OpSpec {
    // Every precompile has a kernel (ECADD and ECMUL a thread per call,
    // the pairing check a thread per pair then per call, the MSMs the MSM
    // kernel's sums): calls split.
    OpSpec {
        op: Op::Evm(precompile),
        item,
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload,
    }
}

/// `bn256_add`.
pub const BN256_ADD: OpSpec = spec(Precompile::Bn256Add, "ECADD call (2 G1 points)", |c| {
    calls(c, Precompile::Bn256Add)
});
/// `bn256_mul`.
pub const BN256_MUL: OpSpec = spec(Precompile::Bn256Mul, "ECMUL call (G1 point, scalar)", |c| {
    calls(c, Precompile::Bn256Mul)
});
/// `bn256_pairing` (bench: two pairs per call).
pub const BN256_PAIRING: OpSpec = spec(Precompile::Bn256Pairing, "ECPAIRING call (2 pairs)", |c| {
    calls(c, Precompile::Bn256Pairing)
});
/// `eip2537_g1msm` (bench: 16 pairs per call).
pub const G1MSM: OpSpec = spec(Precompile::BlsG1Msm, "G1MSM call (16 pairs)", |c| {
    calls(c, Precompile::BlsG1Msm)
});
/// `eip2537_g2msm` (bench: 8 pairs per call).
pub const G2MSM: OpSpec = spec(Precompile::BlsG2Msm, "G2MSM call (8 pairs)", |c| {
    calls(c, Precompile::BlsG2Msm)
});

/// A BN254 scalar from the generator.
fn fr(rng: &mut StdRng) -> Fr {
    Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())
}

/// A random multiple of BN254's G1 generator, encoded.
fn bn_g1(rng: &mut StdRng) -> Vec<u8> {
    bn254::encode_g1((G1Projective::generator() * fr(rng)).into_affine())
}

/// The hostile kinds, by the precompile's family.
const BN_HOSTILE: [&str; 4] = ["field", "off_curve", "g2_subgroup", "length"];
const MSM_HOSTILE: [&str; 5] = ["field", "off_curve", "top_bytes", "g1_subgroup", "length"];

/// An honest call of `precompile` (`varied`: the self-test's shapes).
fn honest(precompile: Precompile, rng: &mut StdRng, i: usize, varied: bool) -> Vec<u8> {
    match precompile {
        Precompile::Bn256Add => {
            let p = bn_g1(rng);
            let q = match (varied, i % 6) {
                (true, 1) => p.clone(),
                (true, 2) => bn254::encode_g1(-ark_bn254::G1Affine::new_unchecked(fq(&p[..32]), fq(&p[32..]))),
                (true, 3) => vec![0; 64],
                _ => bn_g1(rng),
            };
            let mut input = [p, q].concat();
            // Shorter and longer inputs are padded and cut, not refused.
            match (varied, i % 6) {
                (true, 4) => input.truncate(rng.random_range(0..128)),
                (true, 5) => input.extend_from_slice(&rng.random::<[u8; 7]>()),
                _ => {}
            }
            input
        }
        Precompile::Bn256Mul => {
            let mut s: [u8; 32] = rng.random();
            let r = Fr::MODULUS.to_bytes_be();
            match (varied, i % 8) {
                (true, 1) => s = [0; 32],
                (true, 2) => s = bn_word(1),
                (true, 3) => s.copy_from_slice(&r),
                (true, 4) => s = [0xff; 32],
                _ => {}
            }
            let p = if varied && i % 8 == 5 { vec![0; 64] } else { bn_g1(rng) };
            let mut input = [p, s.to_vec()].concat();
            if varied && i % 8 == 6 {
                input.truncate(rng.random_range(0..96));
            }
            input
        }
        Precompile::Bn256Pairing => {
            let k = if varied { i % 4 } else { 2 };
            let mut input = Vec::new();
            let mut sum = Fr::from(0u64);
            for j in 0..k {
                let (a, b) = (fr(rng), fr(rng));
                // The last pair cancels the others in every other call.
                let (a, b) = if j + 1 == k && i.is_multiple_of(2) {
                    (-sum, Fr::from(1u64))
                } else {
                    (a, b)
                };
                sum += a * b;
                input.extend(bn254::encode_g1((G1Projective::generator() * a).into_affine()));
                input.extend(bn254::encode_g2((G2Projective::generator() * b).into_affine()));
            }
            input
        }
        Precompile::BlsG1Msm | Precompile::BlsG2Msm => {
            let g1 = precompile == Precompile::BlsG1Msm;
            let k = match (varied, g1) {
                (true, _) => 1 + i % 24,
                (false, true) => 16,
                (false, false) => 8,
            };
            let mut input = Vec::new();
            for j in 0..k {
                let point = match (varied && (i + j) % 9 == 4, g1) {
                    (true, true) => vec![0; 128],
                    (true, false) => vec![0; 256],
                    (false, true) => {
                        let keys = bls_sample::secret_keys(1, rng.random());
                        eip2537::encode_g1(&keys[0].sk_to_pk().serialize()).to_vec()
                    }
                    (false, false) => eip2537::encode_g2(&bls_sample::g2_points(1, rng.random())[0]).to_vec(),
                };
                let scalar = if varied && (i + j) % 7 == 3 {
                    [0; 32]
                } else {
                    rng.random()
                };
                input.extend(point);
                input.extend(scalar);
            }
            input
        }
    }
}

/// A base-field element from its big-endian word (an encoding made here,
/// always below p).
fn fq(word: &[u8]) -> Fq {
    Fq::from_be_bytes_mod_order(word)
}

/// The 32-byte big-endian word of a small value.
fn bn_word(v: u8) -> [u8; 32] {
    let mut w = [0; 32];
    w[31] = v;
    w
}

/// `input` spoiled in the way `kind` names (at its first point).
fn spoil(precompile: Precompile, mut input: Vec<u8>, kind: &str, rng: &mut StdRng) -> Vec<u8> {
    let bn = matches!(
        precompile,
        Precompile::Bn256Add | Precompile::Bn256Mul | Precompile::Bn256Pairing
    );
    // Where the first point's y coordinate ends, and its x word's range.
    let (x_word, y_end) = if bn { (0..32, 64) } else { (16..64, 128) };
    if input.len() < y_end {
        return input;
    }
    match kind {
        "field" if bn => input[x_word].copy_from_slice(&Fq::MODULUS.to_bytes_be()),
        "field" => input[x_word].fill(0xff),
        "off_curve" => input[y_end - 1] ^= 1,
        "top_bytes" => input[rng.random_range(0..16)] = 1,
        "g1_subgroup" => {
            // (0, 2) is on y^2 = x^3 + 4, of order 3: outside G1.
            input[..128].fill(0);
            input[127] = 2;
        }
        "g2_subgroup" if precompile == Precompile::Bn256Pairing && input.len() >= 192 => {
            let mut x = Fq2::from(rng.random::<u64>());
            let q = loop {
                match G2Affine::get_point_from_x_unchecked(x, true) {
                    Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => break q,
                    _ => x += Fq2::from(1u64),
                }
            };
            input[64..192].copy_from_slice(&bn254::encode_g2(q));
        }
        "length" if precompile != Precompile::Bn256Add && precompile != Precompile::Bn256Mul => {
            input.pop();
        }
        _ => input[y_end - 1] ^= 1,
    }
    input
}

fn calls(c: &WorkloadConfig, precompile: Precompile) -> Box<dyn Workload> {
    let distinct = c.distinct(256);
    let made: Vec<Vec<u8>> = (0..distinct)
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(c.seed, i);
            let input = honest(precompile, &mut rng, i, c.varied);
            if !rng.random_bool(c.invalid_share.clamp(0.0, 1.0)) {
                return input;
            }
            let kinds: &[&str] = match precompile {
                Precompile::BlsG1Msm | Precompile::BlsG2Msm => &MSM_HOSTILE,
                _ => &BN_HOSTILE,
            };
            let kind = kinds[rng.random_range(0..kinds.len())];
            spoil(precompile, input, kind, &mut rng)
        })
        .collect();
    let mut inputs = FlatBytes::with_capacity(c.n, made.iter().map(Vec::len).sum::<usize>() * c.n / distinct.max(1));
    for input in made.iter().cycle().take(c.n) {
        // Workloads stay far below the 4 GiB batch limit.
        let _fits = inputs.push(input);
    }
    let expected: Vec<CallResult> = (0..inputs.len())
        .into_par_iter()
        .map(|i| oracle::call(precompile, inputs.get(i)))
        .collect();
    Box::new(Cases {
        len: inputs.len(),
        input: (precompile, inputs),
        expected,
        oracle: |(p, inputs): &(Precompile, FlatBytes)| {
            for i in 0..inputs.len() {
                std::hint::black_box(oracle::call(*p, inputs.get(i)).ok());
            }
        },
        engine: |e: &Engine, (p, inputs): &(Precompile, FlatBytes)| e.evm(*p, inputs),
        same: |g: &CallResult, w: &CallResult| g == w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}
