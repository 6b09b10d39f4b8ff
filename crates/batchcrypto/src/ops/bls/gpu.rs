//! Host side of BLS12-381 on the GPU (issue 15): the EIP-2537 pairing
//! check ([`eip2537_pairing`]) here, the signature operations in
//! [`signatures`] on the same two pairing kernels ([`miller_values`],
//! [`final_check`]):
//!
//! 1. `bls_pairs` (ops/bls/pairs.wgsl), one thread per (G1, G2) pair of
//!    every call: curve and subgroup checks of both points and the pair's
//!    Miller loop;
//! 2. `bls_final` (ops/bls/final_exp.wgsl), one thread per call: the
//!    product of its pairs' Miller values and the final exponentiation,
//!    compared with one. Calls of more than [`FINAL_MAX_RANGE`] pairs are
//!    first reduced to partial products in earlier rounds of the same
//!    kernel.
//!
//! The host parses the encodings (lengths, top bytes, values below p: the
//! precompile's format rules, [`super::eip2537`]), finds the points at
//! infinity (such pairs add nothing to the product, as on the CPU) and
//! reports each call's first failure in the precompile's order: pair by
//! pair, G1's encoding, curve and subgroup, then G2's.

use std::sync::Arc;

use super::eip2537::{self, PAIR_LEN};
use crate::batch::FlatBytes;
use crate::gpu::Gpu;
use crate::gpu::bigint;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::shaders::{self, Tower};
use crate::ops::evm::PrecompileError;

pub(crate) mod programs;
pub(crate) mod signatures;

/// Words per pair into `bls_pairs`: six coordinates of twelve words, flags.
pub(crate) const PAIR_IN: usize = 73;
/// Words per pair out of `bls_pairs`: status, Miller value, completion.
pub(crate) const PAIR_OUT: usize = 146;
/// Pair flag: G1's point is finite (check it).
pub(crate) const PAIR_G1: u32 = 1;
/// Pair flag: G2's point is finite (check it).
pub(crate) const PAIR_G2: u32 = 2;
/// Pair flag: both are finite (compute the Miller loop).
pub(crate) const PAIR_MILLER: u32 = 4;
/// A point's status (two bits, G1's then G2's): not on its curve.
pub(crate) const STATUS_NOT_ON_CURVE: u32 = 1;
/// A point's status: on its curve, outside the prime-order subgroup.
pub(crate) const STATUS_NOT_IN_SUBGROUP: u32 = 2;
/// Most Miller values one `bls_final` thread multiplies: with the final
/// exponentiation (about 20,000 loop iterations), an invocation stays well
/// under llvmpipe's 65,535.
pub(crate) const FINAL_MAX_RANGE: usize = 32;
/// `bls_final`'s mode: exponentiate and compare with one (else: multiply).
pub(crate) const FINAL_CHECK: u32 = 1;
/// Words of a BLS12-381 F_p12 value.
pub(super) const FP12_WORDS: usize = 144;
/// Pairs per `bls_pairs` sub-batch.
const MAX_PAIRS: usize = 16_384;
/// Ranges per `bls_final` sub-batch, which caps its values at 65,536
/// (38 MB, within every adapter's storage binding limit).
const MAX_RANGES: usize = 2_048;

/// A point's encoding as the host reads it.
enum Point {
    /// A format failure of the precompile.
    Bad(PrecompileError),
    /// All zeros.
    Infinity,
    /// The canonical coordinates, twelve little-endian words each.
    Finite(Vec<u32>),
}

impl Point {
    fn finite(&self) -> Option<&[u32]> {
        match self {
            Point::Finite(w) => Some(w),
            _ => None,
        }
    }
}

/// Appends a pair for `bls_pairs`: the canonical coordinates of its finite
/// points (zeros for the others) and the flags: with `check`, curve and
/// subgroup checks of the finite points; the Miller loop when both are.
pub(super) fn pack_pair(words: &mut Vec<u32>, g1: Option<&[u32]>, g2: Option<&[u32]>, check: bool) {
    words.extend_from_slice(g1.unwrap_or(&[0; 24]));
    words.extend_from_slice(g2.unwrap_or(&[0; 48]));
    let flag = |set: bool, bit: u32| if set { bit } else { 0 };
    words.push(
        flag(check && g1.is_some(), PAIR_G1)
            | flag(check && g2.is_some(), PAIR_G2)
            | flag(g1.is_some() && g2.is_some(), PAIR_MILLER),
    );
}

/// The point of `coords` 64-byte field elements at the start of `bytes`.
fn point(bytes: &[u8], coords: usize) -> Point {
    let mut words = Vec::with_capacity(12 * coords);
    for k in 0..coords {
        match eip2537::fp(&bytes[64 * k..64 * (k + 1)]) {
            Ok(be) => words.extend(bigint::from_be::<12>(be)),
            Err(e) => return Point::Bad(e),
        }
    }
    if words.iter().all(|&w| w == 0) {
        Point::Infinity
    } else {
        Point::Finite(words)
    }
}

/// One call's pairs as parsed, or its length failure.
type Parsed = Result<Vec<(Point, Point)>, PrecompileError>;

fn parse(input: &[u8]) -> Parsed {
    if input.is_empty() || !input.len().is_multiple_of(PAIR_LEN) {
        return Err(PrecompileError::InvalidLength);
    }
    Ok(input
        .chunks_exact(PAIR_LEN)
        .map(|pair| (point(&pair[..128], 2), point(&pair[128..], 4)))
        .collect())
}

/// A kernel with one thread per unit of `in_words` words (`bls_pairs` over
/// packed pairs, `bls_points` over packed points, EIP-197's `bn254_pairs`
/// over pairs of arkworks points): parameters (n, loop
/// guard), the units; out, `out_words` per unit, the last the completion
/// flag.
pub(crate) struct UnitsKernel<'a> {
    pub(crate) name: &'static str,
    pub(crate) pipeline: Arc<wgpu::ComputePipeline>,
    pub(crate) words: &'a [u32],
    pub(crate) in_words: usize,
    pub(crate) out_words: usize,
    /// Most units per sub-batch.
    pub(crate) max_units: usize,
}

impl Kernel for UnitsKernel<'_> {
    type Out = Vec<u32>;

    fn name(&self) -> &'static str {
        self.name
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.words.len() / self.in_words
    }

    fn max_units(&self) -> usize {
        self.max_units
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![Input::uniform(16), Input::storage((end - start) * self.in_words * 4)]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, units] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, 0, 0]);
        units.write_iter(
            self.words[start * self.in_words..end * self.in_words]
                .iter()
                .flat_map(|w| w.to_le_bytes()),
        );
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.out_words * 4) as u64
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<Vec<u32>>) -> Result<(), String> {
        driver::decode_words(
            out,
            self.out_words,
            start,
            &format!("its {} answer", self.name),
            answers,
        )
    }
}

/// `bls_pairs` over packed pairs ([`pack_pair`]).
fn pairs_kernel(pipeline: Arc<wgpu::ComputePipeline>, words: &[u32]) -> UnitsKernel<'_> {
    UnitsKernel {
        name: "bls_pairs",
        pipeline,
        words,
        in_words: PAIR_IN,
        out_words: PAIR_OUT,
        max_units: MAX_PAIRS,
    }
}

/// A kernel with one thread per range of consecutive values (`bls_final`
/// over F_p12 values, `bls_sum_g1` and `bls_sum_g2` over scaled points): parameters
/// (n, loop guard, mode), the ranges (start, end per thread, rebased to the
/// sub-batch), the values.
pub(crate) struct RangesKernel<'a> {
    pub(super) name: &'static str,
    pub(super) pipeline: Arc<wgpu::ComputePipeline>,
    /// Consecutive ranges: range k is `bounds[k]..bounds[k + 1]`.
    pub(super) bounds: &'a [usize],
    pub(super) values: &'a [u32],
    /// Words per value.
    pub(super) value_words: usize,
    pub(super) mode: u32,
    /// Words per range out, the last the completion flag.
    pub(super) out_words: usize,
    /// Most ranges and most values per sub-batch.
    pub(super) max_ranges: usize,
    pub(super) max_values: usize,
}

impl Kernel for RangesKernel<'_> {
    type Out = Vec<u32>;

    fn name(&self) -> &'static str {
        self.name
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.bounds.len() - 1
    }

    fn max_units(&self) -> usize {
        self.max_ranges
    }

    fn end(&self, _gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        let last = (start + max).min(self.units());
        let mut end = start + 1;
        while end < last && self.bounds[end + 1] - self.bounds[start] <= self.max_values {
            end += 1;
        }
        Ok(end)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let values = (self.bounds[end] - self.bounds[start]) * self.value_words * 4;
        vec![
            Input::uniform(16),
            Input::storage((end - start) * 8),
            // A binding is never empty.
            Input::storage(values).with_room(values.max(4) as u64),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, ranges, values] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, self.mode, 0]);
        let base = self.bounds[start];
        ranges.write_iter(
            (start..end)
                .flat_map(|k| [(self.bounds[k] - base) as u32, (self.bounds[k + 1] - base) as u32])
                .flat_map(|w| w.to_le_bytes()),
        );
        values.write_iter(
            self.values[base * self.value_words..self.bounds[end] * self.value_words]
                .iter()
                .flat_map(|w| w.to_le_bytes()),
        );
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.out_words * 4) as u64
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<Vec<u32>>) -> Result<(), String> {
        driver::decode_words(
            out,
            self.out_words,
            start,
            &format!("its {} answer", self.name),
            answers,
        )
    }
}

/// The final stage (`bls_final` or `bn254_final`) of `tower` over ranges
/// of F_p12 values in `mode`.
pub(crate) fn final_kernel<'a>(
    pipeline: Arc<wgpu::ComputePipeline>,
    tower: Tower,
    bounds: &'a [usize],
    values: &'a [u32],
    mode: u32,
) -> RangesKernel<'a> {
    RangesKernel {
        name: final_key(tower),
        pipeline,
        bounds,
        values,
        value_words: tower.fp12_words(),
        mode,
        out_words: tower.final_out(),
        max_ranges: MAX_RANGES,
        max_values: MAX_RANGES * FINAL_MAX_RANGE,
    }
}

/// The final stage's pipeline key for `tower`.
fn final_key(tower: Tower) -> &'static str {
    match tower {
        Tower::Bls12381 => "bls_final",
        Tower::Bn254 => "bn254_final",
    }
}

/// The pipeline of a pairing check's kernel by key (`bls_pairs`,
/// `bls_final`, `bn254_pairs`, `bn254_final`: [`shaders::pairing_kernel`]).
pub(crate) fn pairing_pipeline(gpu: &Gpu, key: &'static str) -> Result<Arc<wgpu::ComputePipeline>, String> {
    gpu.require_int64(key)?;
    let entry = if key.ends_with("_final") { "final_exp" } else { key };
    gpu.pipeline(key, entry, || shaders::pairing_kernel(key))
}

/// The first failure of a call in the precompile's order, given each
/// finite point's device status; `None` when every point is valid.
fn first_failure(pairs: &[(Point, Point)], status: &[u32]) -> Option<PrecompileError> {
    let mut finite = 0;
    for (g1, g2) in pairs {
        for (point, shift, subgroup) in [
            (g1, 0, PrecompileError::G1NotInSubgroup),
            (g2, 2, PrecompileError::G2NotInSubgroup),
        ] {
            match point {
                Point::Bad(e) => return Some(*e),
                Point::Infinity => {}
                Point::Finite(_) => match (status[finite] >> shift) & 3 {
                    0 => {}
                    STATUS_NOT_ON_CURVE => return Some(PrecompileError::NotOnCurve),
                    _ => return Some(subgroup),
                },
            }
        }
        if g1.finite().is_some() || g2.finite().is_some() {
            finite += 1;
        }
    }
    None
}

/// The Miller values of packed pairs ([`pack_pair`]), after the checks
/// their flags ask for: per pair, the status and the value (`bls_pairs`'s
/// output without its completion flag).
pub(super) fn miller_values(gpu: &Gpu, words: &[u32]) -> Result<Vec<Vec<u32>>, String> {
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let kernel = pairs_kernel(pairing_pipeline(gpu, "bls_pairs")?, words);
    driver::run(gpu, &kernel).map_err(|f| f.reason)
}

/// Whether each range's product of Miller values raised to `tower`'s final
/// exponentiation is one: ranges `bounds[k]..bounds[k + 1]` of `values`
/// (F_p12 values of `tower.fp12_words()` words), an empty range's product
/// one. Ranges longer than [`FINAL_MAX_RANGE`] are first reduced to
/// partial products in earlier rounds of the same kernel.
pub(crate) fn final_check(
    gpu: &Gpu,
    tower: Tower,
    mut values: Vec<u32>,
    mut bounds: Vec<usize>,
) -> Result<Vec<bool>, String> {
    if bounds.len() < 2 {
        return Ok(Vec::new());
    }
    let final_pipeline = pairing_pipeline(gpu, final_key(tower))?;
    loop {
        let longest = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        if longest <= FINAL_MAX_RANGE {
            break;
        }
        // Cut every range into chunks; the products become its values.
        let mut chunks = vec![0usize];
        let mut range_chunks = vec![0usize];
        for w in bounds.windows(2) {
            let mut at = w[0];
            while at < w[1] {
                at = (at + FINAL_MAX_RANGE).min(w[1]);
                chunks.push(at);
            }
            range_chunks.push(chunks.len() - 1);
        }
        let kernel = final_kernel(final_pipeline.clone(), tower, &chunks, &values, 0);
        let products = driver::run(gpu, &kernel).map_err(|f| f.reason)?;
        values = products.iter().flat_map(|p| p[1..].iter().copied()).collect();
        bounds = range_chunks;
    }
    let kernel = final_kernel(final_pipeline, tower, &bounds, &values, FINAL_CHECK);
    let results = driver::run(gpu, &kernel).map_err(|f| f.reason)?;
    Ok(results.iter().map(|r| r[0] == 1).collect())
}

/// The precompile for every input of `inputs`, as
/// [`eip2537::pairing_check`] answers.
pub(crate) fn eip2537_pairing(gpu: &Gpu, inputs: &FlatBytes) -> Streamed<Result<bool, PrecompileError>> {
    let parsed: Vec<Parsed> = (0..inputs.len()).map(|i| parse(inputs.get(i))).collect();
    // Stage 1: every pair with a finite point, in order.
    let mut words = Vec::new();
    for pairs in parsed.iter().flatten() {
        for (g1, g2) in pairs {
            if g1.finite().is_some() || g2.finite().is_some() {
                pack_pair(&mut words, g1.finite(), g2.finite(), true);
            }
        }
    }
    let checked = miller_values(gpu, &words).map_err(Failure::at_start)?;
    // Each valid call's Miller values, as ranges of `values`.
    let mut answers: Vec<Option<Result<bool, PrecompileError>>> = Vec::with_capacity(parsed.len());
    let (mut values, mut bounds, mut owners) = (Vec::new(), vec![0usize], Vec::new());
    let mut next = 0;
    for (i, call) in parsed.iter().enumerate() {
        let pairs = match call {
            Err(e) => {
                answers.push(Some(Err(*e)));
                continue;
            }
            Ok(pairs) => pairs,
        };
        let with_finite = || {
            pairs
                .iter()
                .filter(|(a, b)| a.finite().is_some() || b.finite().is_some())
        };
        let finite = with_finite().count();
        let mine = &checked[next..next + finite];
        next += finite;
        let status: Vec<u32> = mine.iter().map(|o| o[0]).collect();
        if let Some(e) = first_failure(pairs, &status) {
            answers.push(Some(Err(e)));
            continue;
        }
        let millers: Vec<&Vec<u32>> = with_finite()
            .zip(mine)
            .filter(|((a, b), _)| a.finite().is_some() && b.finite().is_some())
            .map(|(_, o)| o)
            .collect();
        if millers.is_empty() {
            answers.push(Some(Ok(true)));
            continue;
        }
        for m in millers {
            values.extend_from_slice(&m[1..]);
        }
        bounds.push(values.len() / FP12_WORDS);
        owners.push(i);
        answers.push(None);
    }
    // Stage 2: the products and final exponentiations.
    let results = final_check(gpu, Tower::Bls12381, values, bounds).map_err(Failure::at_start)?;
    for (owner, result) in owners.iter().zip(results) {
        answers[*owner] = Some(Ok(result));
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| Failure::at_start("a call without an answer".to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    //! The two kernels against arkworks, value for value: each point's
    //! curve and subgroup status on points in and out of G1 and G2 (of
    //! small order among them), each pair's Miller loop, and products and
    //! final exponentiations of Miller values and of random F_p12 values
    //! (the device follows arkworks' formulas, so the values, not only the
    //! verdicts, must be equal). End to end against blst: tests/bls.rs.

    use ark_bls12_381::{Bls12_381, Fq, Fq2, Fq12, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::pairing::{MillerLoopOutput, Pairing};
    use ark_ec::{CurveGroup, PrimeGroup};
    use ark_ff::{BigInteger, Field, PrimeField};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::curve::BLS12_381_P;
    use crate::gpu::probe::test_gpu;

    fn words(x: Fq) -> Vec<u32> {
        x.into_bigint()
            .to_bytes_le()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    /// The Montgomery form the kernels compute in.
    fn mont(x: Fq) -> Vec<u32> {
        let limbs: [u32; 12] = words(x).try_into().expect("12 words");
        bigint::mont_form(&limbs, &bigint::from_hex(BLS12_381_P)).to_vec()
    }

    fn fq12_mont(f: &Fq12) -> Vec<u32> {
        [f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2]
            .iter()
            .flat_map(|c| [c.c0, c.c1])
            .flat_map(mont)
            .collect()
    }

    fn g1_words(p: &G1Affine) -> Vec<u32> {
        [p.x, p.y].into_iter().flat_map(words).collect()
    }

    fn g2_words(q: &G2Affine) -> Vec<u32> {
        [q.x.c0, q.x.c1, q.y.c0, q.y.c1].into_iter().flat_map(words).collect()
    }

    fn random_fq(rng: &mut StdRng) -> Fq {
        let bytes: [u8; 64] = rng.random();
        Fq::from_le_bytes_mod_order(&bytes)
    }

    fn random_fr(rng: &mut StdRng) -> Fr {
        let bytes: [u8; 64] = rng.random();
        Fr::from_le_bytes_mod_order(&bytes)
    }

    /// A point of E(F_p) with a random x (almost never in G1).
    fn g1_off_subgroup(rng: &mut StdRng) -> G1Affine {
        loop {
            if let Some(p) = G1Affine::get_point_from_x_unchecked(random_fq(rng), rng.random()) {
                return p;
            }
        }
    }

    /// A point of E'(F_p2) with a random x (almost never in G2).
    fn g2_off_subgroup(rng: &mut StdRng) -> G2Affine {
        loop {
            let x = Fq2::new(random_fq(rng), random_fq(rng));
            if let Some(q) = G2Affine::get_point_from_x_unchecked(x, rng.random()) {
                return q;
            }
        }
    }

    /// arkworks' status of a finite point, as the kernel reports it.
    fn status(on_curve: bool, in_subgroup: bool) -> u32 {
        match (on_curve, in_subgroup) {
            (false, _) => STATUS_NOT_ON_CURVE,
            (true, false) => STATUS_NOT_IN_SUBGROUP,
            (true, true) => 0,
        }
    }

    #[test]
    fn pairs_kernel_matches_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(20_211_130);
        // The points of order 3 of E: (0, +-2).
        let order3 = G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64));
        let mut pairs: Vec<(Option<G1Affine>, Option<G2Affine>)> = Vec::new();
        for n in 0..28 {
            let (a, b) = (random_fr(&mut rng), random_fr(&mut rng));
            let (p, q) = (
                (G1Projective::generator() * a).into_affine(),
                (G2Projective::generator() * b).into_affine(),
            );
            let (o1, o2) = (g1_off_subgroup(&mut rng), g2_off_subgroup(&mut rng));
            pairs.push(match n % 7 {
                0 | 1 => (Some(p), Some(q)),
                2 => (Some(o1), Some(o2)),
                3 => (Some(if n % 2 == 0 { order3 } else { -order3 }), Some(q)),
                4 => (Some((p + order3).into_affine()), Some((q + o2).into_affine())),
                5 => (None, Some(if n % 2 == 0 { q } else { o2 })),
                // Off the curves: y moved by one.
                _ => (
                    Some(G1Affine::new_unchecked(p.x, p.y + Fq::from(1u64))),
                    if n % 2 == 0 {
                        None
                    } else {
                        Some(G2Affine::new_unchecked(q.x, q.y + Fq2::from(1u64)))
                    },
                ),
            });
        }
        let mut input = Vec::new();
        for (p, q) in &pairs {
            pack_pair(
                &mut input,
                p.map(|p| g1_words(&p)).as_deref(),
                q.map(|q| g2_words(&q)).as_deref(),
                true,
            );
        }
        let kernel = pairs_kernel(pairing_pipeline(&gpu, "bls_pairs").expect("pipeline"), &input);
        let out = driver::run(&gpu, &kernel).expect("bls_pairs");
        assert_eq!(out.len(), pairs.len());
        let mut millers = 0;
        for (n, ((p, q), got)) in pairs.iter().zip(&out).enumerate() {
            let s1 = p.map_or(0, |p| {
                status(p.is_on_curve(), p.is_in_correct_subgroup_assuming_on_curve())
            });
            let s2 = q.map_or(0, |q| {
                status(q.is_on_curve(), q.is_in_correct_subgroup_assuming_on_curve())
            });
            assert_eq!(got[0], s1 | s2 << 2, "pair {n}: status");
            let want = match (p, q, s1 | s2) {
                (Some(p), Some(q), 0) => {
                    millers += 1;
                    Bls12_381::multi_miller_loop([*p], [*q]).0
                }
                _ => Fq12::ONE,
            };
            assert_eq!(got[1..], fq12_mont(&want)[..], "pair {n}: Miller loop");
        }
        assert!(millers >= 8, "{millers} Miller loops compared");
        for kind in [STATUS_NOT_ON_CURVE, STATUS_NOT_IN_SUBGROUP] {
            assert!(out.iter().any(|o| o[0] & 3 == kind) && out.iter().any(|o| o[0] >> 2 == kind));
        }
    }

    #[test]
    fn final_kernel_matches_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(2_020_875);
        // Miller values of e(P, Q) and e(-P, Q) (their product exponentiates
        // to one), then random values.
        let (p, q) = (
            (G1Projective::generator() * random_fr(&mut rng)).into_affine(),
            (G2Projective::generator() * random_fr(&mut rng)).into_affine(),
        );
        let mut values = vec![
            Bls12_381::multi_miller_loop([p], [q]).0,
            Bls12_381::multi_miller_loop([-p], [q]).0,
        ];
        for _ in 0..5 {
            let c: Vec<Fq> = (0..12).map(|_| random_fq(&mut rng)).collect();
            values.push(Fq12::new(
                ark_bls12_381::Fq6::new(Fq2::new(c[0], c[1]), Fq2::new(c[2], c[3]), Fq2::new(c[4], c[5])),
                ark_bls12_381::Fq6::new(Fq2::new(c[6], c[7]), Fq2::new(c[8], c[9]), Fq2::new(c[10], c[11])),
            ));
        }
        let words: Vec<u32> = values.iter().flat_map(fq12_mont).collect();
        // Ranges: the pair (one), each value alone, three random ones.
        let bounds = [0, 2, 3, 4, 7];
        let pipeline = pairing_pipeline(&gpu, "bls_final").expect("pipeline");
        for mode in [0, FINAL_CHECK] {
            let kernel = final_kernel(pipeline.clone(), Tower::Bls12381, &bounds, &words, mode);
            let out = driver::run(&gpu, &kernel).expect("bls_final");
            assert_eq!(out.len(), bounds.len() - 1);
            for (k, got) in out.iter().enumerate() {
                let product: Fq12 = values[bounds[k]..bounds[k + 1]].iter().product();
                let want = if mode == FINAL_CHECK {
                    Bls12_381::final_exponentiation(MillerLoopOutput(product))
                        .expect("nonzero")
                        .0
                } else {
                    product
                };
                assert_eq!(got[1..], fq12_mont(&want)[..], "mode {mode} range {k}");
                if mode == FINAL_CHECK {
                    assert_eq!(got[0] == 1, want == Fq12::ONE, "range {k}: is one");
                }
            }
            if mode == FINAL_CHECK {
                assert_eq!(out[0][0], 1, "e(P, Q) e(-P, Q) = 1");
            }
        }
    }
}
