//! The precompiles on the GPU. EIP-2537's MSM calls (G1MSM, G2MSM) go to
//! the MSM kernel ([`crate::ops::msm::gpu::many`]): every call decoded on
//! the CPU cores with the CPU path's checks, each valid call one sum of a
//! shared plan, a failed call answered here (an empty sum on the device).
//!
//! EIP-197's pairing check ([`pairing_calls`]) runs as the EIP-2537 check
//! does ([`crate::ops::bls::gpu`]), on the tower machine: every call
//! decoded on the CPU cores with the CPU path's checks but G2's subgroup
//! membership ([`bn254::pairs_unchecked`]: coordinates below p, points on
//! their curves), a thread per pair with a finite G2 point for that check
//! and the Miller loop (the program [`super::programs::pairs`]), then a
//! thread per call for the product and the final exponentiation
//! ([`bls_gpu::final_check`] over BN254's tower). Each call's first
//! failure is the CPU path's: a G2 point outside the subgroup before the
//! first failure the host found, else that one.
//!
//! Below, the host side of the ECADD and ECMUL kernel (`g1.wgsl` over
//! BN254's G1 layer; SHADER_INT64) for the driver
//! ([`crate::gpu::driver`]): a thread per call. The host decodes every
//! call on all cores with the CPU path's own checks ([`bn254`]: EIP-196's
//! padding and cutting, coordinates below p, points on the curve); a call
//! that fails is answered here and skipped by the kernel. The others travel as affine coordinates in Montgomery
//! form (arkworks' own limbs) with the scalar's little-endian words, and
//! come back projective; each sub-batch is normalised with one batch
//! inversion (arkworks) and encoded as the CPU path encodes.

use std::sync::Arc;

use ark_bn254::{G1Affine, G1Projective};
use ark_ec::{AffineRepr, CurveGroup};
use rayon::prelude::*;

use super::bn254::{self, G1_LEN, WORD};
use super::{CallResult, Precompile, PrecompileError, adapters};
use crate::batch::FlatBytes;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::shaders::{self, Tower};
use crate::gpu::tower_vm;
use crate::gpu::{Gpu, LOOPS_CUT_FLAG, LoopsCut};
use crate::ops::bls::eip2537;
use crate::ops::bls::gpu as bls_gpu;
use crate::ops::evm::msm;
use crate::ops::msm::bases::Affine;
use crate::ops::msm::gpu::{self as msm_gpu, jacobian, limbs};

mod kzg;
mod modexp;

#[cfg(test)]
pub(crate) use modexp::LIMBS as MODEXP_LIMBS;

/// Words per call in and out (`G1_IN_WORDS`, `G1_OUT_WORDS` in g1.wgsl).
const IN_WORDS: usize = 33;
const OUT_WORDS: usize = 25;
/// Flags of a call (see g1.wgsl).
const P_INFINITY: u32 = 1;
const Q_INFINITY: u32 = 2;
const SKIP: u32 = 4;
/// Most calls per sub-batch.
const MAX_CALLS: usize = 1 << 18;

/// Every call of `inputs` on the GPU.
pub(crate) fn run(gpu: &Gpu, precompile: Precompile, inputs: &FlatBytes) -> Streamed<CallResult> {
    match precompile {
        Precompile::Bn256Pairing => pairing_calls(gpu, inputs),
        Precompile::PointEvaluation => kzg::point_evaluations(gpu, inputs),
        Precompile::ModExp => modexp::calls(gpu, inputs),
        Precompile::Ecrecover => {
            let run = |items: &[_]| crate::ops::ecdsa::gpu::ecrecover(gpu, items, false);
            adapters::via_items(inputs, adapters::ecrecover_item, run, |r| {
                adapters::ecrecover_output(r.as_ref().ok())
            })
        }
        Precompile::P256Verify => {
            let run = |items: &[_]| crate::ops::ecdsa::gpu::p256_verify(gpu, items);
            adapters::via_items(inputs, adapters::p256_item, run, |v| {
                adapters::p256_output(v.is_valid())
            })
        }
        Precompile::Sha256 => {
            let words = |d: Vec<crate::ops::hash::Digest>| d.iter().map(|d| Ok(d.to_vec())).collect();
            match crate::ops::hash::gpu::hash(gpu, crate::ops::hash::Alg::Sha256, inputs) {
                Ok(digests) => Ok(words(digests)),
                Err(Failure { done, reason }) => Err(Failure {
                    done: words(done),
                    reason,
                }),
            }
        }
        Precompile::BlsG1Msm => msm_calls(gpu, inputs, msm::G1_POINT_LEN, eip2537::g1, Affine::Bls12381G1, |sum| {
            Some(eip2537::encode_g1(sum.try_into().ok()?).to_vec())
        }),
        Precompile::BlsG2Msm => msm_calls(gpu, inputs, msm::G2_POINT_LEN, eip2537::g2, Affine::Bls12381G2, |sum| {
            Some(eip2537::encode_g2(sum.try_into().ok()?).to_vec())
        }),
        _ => driver::run(gpu, &G1Kernel::new(gpu, precompile, inputs).map_err(Failure::at_start)?),
    }
}

/// EIP-2537 MSM calls on the MSM kernel: points of `point_len` bytes read
/// by `decode`, gathered into `group`, each sum (blst's uncompressed form)
/// written by `encode` (`None`: not a sum of the group's length).
fn msm_calls<A: Send>(
    gpu: &Gpu,
    inputs: &FlatBytes,
    point_len: usize,
    decode: fn(&[u8]) -> Result<Option<A>, PrecompileError>,
    group: fn(Vec<A>) -> Affine,
    encode: fn(&[u8]) -> Option<Vec<u8>>,
) -> Streamed<CallResult> {
    let calls: Vec<_> = (0..inputs.len())
        .into_par_iter()
        .map(|i| msm::terms(inputs.get(i), point_len, decode))
        .collect();
    let (mut points, mut scalars, mut bounds) = (Vec::new(), Vec::new(), vec![0]);
    let mut errors = Vec::with_capacity(calls.len());
    for call in calls {
        errors.push(call.as_ref().err().copied());
        if let Ok((p, s)) = call {
            points.extend(p);
            scalars.extend(s);
        }
        bounds.push(points.len());
    }
    let (sums, failed) = match msm_gpu::many(gpu, &group(points), &scalars, bounds) {
        Ok(sums) => (sums, None),
        Err(Failure { done, reason }) => (done, Some(reason)),
    };
    let mut done = Vec::with_capacity(sums.len());
    for (sum, error) in sums.iter().zip(&errors) {
        match (error, encode(sum)) {
            (Some(e), _) => done.push(Err(*e)),
            (None, Some(out)) => done.push(Ok(out)),
            (None, None) => {
                let reason = format!("a sum of {} bytes came back", sum.len());
                return Err(Failure { done, reason });
            }
        }
    }
    match failed {
        None => Ok(done),
        Some(reason) => Err(Failure { done, reason }),
    }
}

/// An arkworks BN254 base-field element's Montgomery limbs as u32 words.
fn fq_words(x: &ark_bn254::Fq) -> impl Iterator<Item = u32> + '_ {
    x.0.0.iter().flat_map(|l| [*l as u32, (l >> 32) as u32])
}

/// Appends a pair for the pairs program: P's coordinates (zeros for
/// infinity), Q's.
fn pack_pair(words: &mut Vec<u32>, p: &ark_bn254::G1Affine, q: &ark_bn254::G2Affine) {
    let zero = ark_bn254::Fq::from(0u64);
    let (px, py) = p.xy().unwrap_or((zero, zero));
    words.extend(fq_words(&px).chain(fq_words(&py)));
    words.extend([q.x.c0, q.x.c1, q.y.c0, q.y.c1].iter().flat_map(fq_words));
}

/// Per packed pair ([`pack_pair`]): whether Q is in G2 and the Miller
/// value (F_p12 words; meaningful when Q is in G2 and P finite).
fn checked_pairs(gpu: &Gpu, words: &[u32]) -> Result<Vec<(bool, Vec<u32>)>, String> {
    let out = tower_vm::run(gpu, "bn254_pairs", Tower::Bn254, super::programs::pairs(), words)?;
    let limbs = Tower::Bn254.limbs();
    Ok(out.into_iter().map(|o| (o[0] == 1, o[limbs..].to_vec())).collect())
}

/// EIP-197 pairing checks (see the module's docs): each call's answer, or
/// the failure of its first bad point.
fn pairing_calls(gpu: &Gpu, inputs: &FlatBytes) -> Streamed<CallResult> {
    let tower = Tower::Bn254;
    let calls: Vec<bn254::Unchecked> = (0..inputs.len())
        .into_par_iter()
        .map(|i| bn254::pairs_unchecked(inputs.get(i)))
        .collect();
    // Stage 1: every pair with a finite G2 point, in order.
    let mut words = Vec::new();
    for (p, q) in calls.iter().flat_map(|c| &c.pairs) {
        if !q.is_zero() {
            pack_pair(&mut words, p, q);
        }
    }
    let checked = checked_pairs(gpu, &words).map_err(Failure::at_start)?;
    // Each call's answer when a check failed, else its Miller values as a
    // range of `values` for stage 2.
    let mut answers: Vec<Option<CallResult>> = Vec::with_capacity(calls.len());
    let (mut values, mut bounds) = (Vec::new(), vec![0usize]);
    let mut next = 0;
    for call in &calls {
        let finite: Vec<bool> = call
            .pairs
            .iter()
            .filter(|(_, q)| !q.is_zero())
            .map(|(p, _)| !p.is_zero())
            .collect();
        let Some(mine) = checked.get(next..next + finite.len()) else {
            return Err(Failure::at_start("the pairs' kernel came back short".into()));
        };
        next += finite.len();
        if mine.iter().any(|(in_g2, _)| !in_g2) {
            answers.push(Some(Err(PrecompileError::G2NotInSubgroup)));
        } else if let Some(e) = call.failure {
            answers.push(Some(Err(e)));
        } else {
            for ((_, miller), _) in mine.iter().zip(&finite).filter(|(_, p_finite)| **p_finite) {
                values.extend_from_slice(miller);
            }
            bounds.push(values.len() / tower.fp12_words());
            answers.push(None);
        }
    }
    let mut ones = bls_gpu::final_check(gpu, tower, values, bounds)
        .map_err(Failure::at_start)?
        .into_iter();
    let mut done = Vec::with_capacity(calls.len());
    for answer in answers {
        done.push(match answer {
            Some(failed) => failed,
            None => match ones.next() {
                Some(one) => Ok(super::bool_word(one).to_vec()),
                None => {
                    let reason = "a pairing check came back without its answer".into();
                    return Err(Failure { done, reason });
                }
            },
        });
    }
    Ok(done)
}

/// A point's words: the flag when it is infinity, else x and y.
fn point_words(p: &G1Affine, infinity: u32, words: &mut [u32]) -> u32 {
    match p.xy() {
        None => infinity,
        Some((x, y)) => {
            for (k, l) in x.0.0.iter().chain(y.0.0.iter()).enumerate() {
                words[2 * k] = *l as u32;
                words[2 * k + 1] = (l >> 32) as u32;
            }
            0
        }
    }
}

/// One call as the kernel reads it, or why it fails.
fn decode(precompile: Precompile, input: &[u8]) -> Result<[u32; IN_WORDS], PrecompileError> {
    let mut words = [0u32; IN_WORDS];
    let (mut flags, rest) = (0u32, &mut words[1..]);
    if precompile == Precompile::Bn256Add {
        let buf = bn254::padded::<{ 2 * G1_LEN }>(input);
        let (p, q) = (bn254::g1(&buf[..G1_LEN])?, bn254::g1(&buf[G1_LEN..])?);
        let (p_words, q_words) = rest.split_at_mut(16);
        flags |= point_words(&p, P_INFINITY, p_words);
        flags |= point_words(&q, Q_INFINITY, q_words);
    } else {
        let buf = bn254::padded::<{ G1_LEN + WORD }>(input);
        let p = bn254::g1(&buf[..G1_LEN])?;
        let (p_words, s_words) = rest.split_at_mut(16);
        flags |= point_words(&p, P_INFINITY, p_words);
        for (k, l) in bn254::bigint(&buf[G1_LEN..]).0.iter().enumerate() {
            s_words[2 * k] = *l as u32;
            s_words[2 * k + 1] = (l >> 32) as u32;
        }
    }
    words[0] = flags;
    Ok(words)
}

struct G1Kernel {
    pipeline: Arc<wgpu::ComputePipeline>,
    precompile: Precompile,
    /// Every call decoded (the failed ones answered already).
    calls: Vec<Result<[u32; IN_WORDS], PrecompileError>>,
}

impl G1Kernel {
    fn new(gpu: &Gpu, precompile: Precompile, inputs: &FlatBytes) -> Result<G1Kernel, String> {
        if !matches!(precompile, Precompile::Bn256Add | Precompile::Bn256Mul) {
            return Err(format!("no GPU kernel for {precompile}"));
        }
        gpu.require_int64("bn254 g1")?;
        let calls = (0..inputs.len())
            .into_par_iter()
            .map(|i| decode(precompile, inputs.get(i)))
            .collect();
        Ok(G1Kernel {
            pipeline: gpu.pipeline("evm_bn254_g1", "g1_main", shaders::evm_g1)?,
            precompile,
            calls,
        })
    }
}

impl Kernel for G1Kernel {
    type Out = CallResult;

    fn name(&self) -> &'static str {
        "evm_bn254_g1"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.calls.len()
    }

    fn max_units(&self) -> usize {
        MAX_CALLS
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![Input::uniform(16), Input::storage((end - start) * IN_WORDS * 4)]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, calls] = driver::inputs(dst);
        let mul = u32::from(self.precompile == Precompile::Bn256Mul);
        driver::params(params, [(end - start) as u32, mul, shaders::LOOP_GUARD, 0]);
        driver::par_fill(calls, &self.calls[start..end], |_, call| {
            let words = call.as_ref().map_or_else(
                |_| {
                    let mut skip = [0u32; IN_WORDS];
                    skip[0] = SKIP;
                    skip
                },
                |w| *w,
            );
            let mut bytes = [0u8; IN_WORDS * 4];
            for (b, w) in bytes.chunks_exact_mut(4).zip(words) {
                b.copy_from_slice(&w.to_le_bytes());
            }
            bytes
        });
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * OUT_WORDS * 4) as u64
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<CallResult>) -> Result<(), String> {
        let words: Vec<u32> = out
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let mut points = Vec::with_capacity(end - start);
        for (i, result) in words.chunks_exact(OUT_WORDS).enumerate() {
            match result[OUT_WORDS - 1] {
                LOOPS_CUT_FLAG => return Err(LoopsCut(start + i..start + i + 1).to_string()),
                flag => crate::gpu::check_done(flag, start + i, "a call")?,
            }
            let field = |w: &[u32]| ark_bn254::Fq::new_unchecked(limbs::<4>(w));
            points.push(jacobian::<ark_bn254::g1::Config>(
                field(&result[..8]),
                field(&result[8..16]),
                field(&result[16..24]),
            ));
        }
        let affine = G1Projective::normalize_batch(&points);
        answers.extend(
            self.calls[start..end]
                .iter()
                .zip(affine)
                .map(|(call, p)| call.as_ref().map(|_| bn254::encode_g1(p)).map_err(|e| *e)),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use ark_bn254::{Bn254, Fq12, Fr, G1Affine, G1Projective, G2Projective};
    use ark_ec::pairing::{MillerLoopOutput, Pairing};
    use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
    use ark_ff::{One, PrimeField};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::ops::evm::programs::tests::{fq12_words, g2_outside};

    /// Both stages on the device against arkworks: each pair's subgroup
    /// status and Miller value (`bn254_pairs`), then the final checks of
    /// ranges of them (`bn254_final`), one range reduced over two rounds.
    #[test]
    fn bn254_stages_match_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(197);
        let fr = |rng: &mut StdRng| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
        let mut pairs = Vec::new();
        for _ in 0..6 {
            let (a, b) = (fr(&mut rng), fr(&mut rng));
            pairs.push((
                (G1Projective::generator() * a).into_affine(),
                (G2Projective::generator() * b).into_affine(),
            ));
        }
        // e(P, Q) e(-P, Q) = 1 for the first two.
        pairs[1] = (-pairs[0].0, pairs[0].1);
        // Checks without a Miller loop: G1 at infinity; G2 outside the
        // subgroup, with G1 finite or not.
        let (p, q) = pairs[2];
        let extra = [
            (G1Affine::zero(), q),
            (p, g2_outside(3)),
            (G1Affine::zero(), g2_outside(11)),
        ];
        let mut words = Vec::new();
        for (p, q) in pairs.iter().chain(&extra) {
            pack_pair(&mut words, p, q);
        }
        let out = checked_pairs(&gpu, &words).expect("bn254_pairs");
        assert_eq!(out.len(), pairs.len() + extra.len());
        for (n, ((p, q), (in_g2, miller))) in pairs.iter().chain(&extra).zip(&out).enumerate() {
            let inside = q.is_in_correct_subgroup_assuming_on_curve();
            assert_eq!(*in_g2, inside, "pair {n}: G2 subgroup status");
            if inside && !p.is_zero() {
                let want = Bn254::multi_miller_loop([*p], [*q]).0;
                assert_eq!(*miller, fq12_words(&want), "pair {n}: Miller loop");
            }
        }
        let millers: Vec<Fq12> = pairs
            .iter()
            .map(|(p, q)| Bn254::multi_miller_loop([*p], [*q]).0)
            .collect();
        let mut values: Vec<u32> = out[..pairs.len()].iter().flat_map(|(_, m)| m.iter().copied()).collect();
        // Ranges: the cancelling pair, each of two alone, three, none, all
        // six twice (twelve values: reduced over two rounds).
        values.extend_from_within(..);
        let bounds = vec![0, 2, 3, 4, 7, 7, 12];
        let on = |on| bls_gpu::final_check_on(&gpu, Tower::Bn254, values.clone(), bounds.clone(), on);
        let got = on(bls_gpu::FinalOn::Device).expect("bn254_final");
        assert_eq!(on(bls_gpu::FinalOn::Host).expect("on the host"), got, "host and device");
        let all: Vec<Fq12> = millers.iter().chain(&millers).copied().collect();
        let want: Vec<bool> = bounds
            .windows(2)
            .map(|w| {
                let product: Fq12 = all[w[0]..w[1]].iter().product();
                Bn254::final_exponentiation(MillerLoopOutput(product))
                    .expect("nonzero")
                    .0
                    .is_one()
            })
            .collect();
        assert_eq!(got, want);
        assert_eq!(
            want[..4],
            [true, false, false, false],
            "e(P, Q) e(-P, Q) = 1, e(P, Q) != 1"
        );
        assert!(want[4], "an empty range's product is one");
    }
}
