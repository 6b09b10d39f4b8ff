//! Host side of BLS12-381 on the GPU (issue 15): the EIP-2537 pairing
//! check ([`eip2537_pairing`]) here, the signature operations in
//! [`signatures`] on the same two pairing stages ([`miller_values`],
//! [`final_check`]), both programs of the tower machine
//! (gpu/tower_vm.rs; the programs in [`programs`]):
//!
//! 1. `bls_pairs`, one thread per (G1, G2) pair of every call: curve and
//!    subgroup checks of both points and the pair's Miller loop;
//! 2. `bls_final`, one thread per call: the product of its pairs' Miller
//!    values and the final exponentiation, compared with one. Calls of
//!    more than [`programs::RANGE`] pairs are first reduced to partial
//!    products in earlier rounds (the product program without the check).
//!    Few checks run on the host's cores instead ([`host`]), where they
//!    end sooner than the device's chain of instructions.
//!
//! The host parses the encodings (lengths, top bytes, values below p: the
//! precompile's format rules, [`super::eip2537`]), finds the points at
//! infinity (such pairs add nothing to the product, as on the CPU) and
//! reports each call's first failure in the precompile's order: pair by
//! pair, G1's encoding, curve and subgroup, then G2's.

use std::time::Instant;

use super::eip2537::{self, PAIR_LEN};
use crate::batch::FlatBytes;
use crate::gpu::Gpu;
use crate::gpu::bigint;
use crate::gpu::driver::{Failure, Streamed};
use crate::gpu::shaders::Tower;
use crate::gpu::tower_vm;
use crate::ops::evm::PrecompileError;

pub(crate) mod host;
pub(crate) mod programs;
pub(crate) mod signatures;

/// Words per packed pair ([`pack_pair`]): six coordinates of twelve words, flags.
pub(crate) const PAIR_IN: usize = 73;
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
/// Words of a BLS12-381 F_p12 value.
pub(super) const FP12_WORDS: usize = 144;

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

/// Appends a pair for [`miller_values`]: the canonical coordinates of its finite
/// points (zeros for the others) and the flags: with `check`, curve and
/// subgroup checks of the finite points; the Miller loop when both are.
pub(crate) fn pack_pair(words: &mut Vec<u32>, g1: Option<&[u32]>, g2: Option<&[u32]>, check: bool) {
    words.extend_from_slice(g1.unwrap_or(&[0; 24]));
    words.extend_from_slice(g2.unwrap_or(&[0; 48]));
    let flag = |set: bool, bit: u32| if set { bit } else { 0 };
    words.push(
        flag(check && g1.is_some(), PAIR_G1)
            | flag(check && g2.is_some(), PAIR_G2)
            | flag(g1.is_some() && g2.is_some(), PAIR_MILLER),
    );
}

/// A point of G2 as [`pack_pair`] reads it: x.c0, x.c1, y.c0, y.c1,
/// canonical words.
pub(crate) fn g2_words(q: &ark_bls12_381::G2Affine) -> Vec<u32> {
    use ark_ff::PrimeField;
    [q.x.c0, q.x.c1, q.y.c0, q.y.c1]
        .iter()
        .flat_map(|c| bigint::from_ark::<12>(c.into_bigint()))
        .collect()
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

/// The pairs program's input: packed pairs ([`pack_pair`]) without their
/// flags.
fn pair_inputs(words: &[u32]) -> Vec<u32> {
    words
        .chunks_exact(PAIR_IN)
        .flat_map(|pair| pair[..PAIR_IN - 1].iter().copied())
        .collect()
}

/// The product program's input: each range `bounds[k]..bounds[k + 1]` of
/// `values` (F_p12 values of `tower`, at most [`programs::RANGE`] each)
/// padded with ones.
fn padded_ranges(tower: Tower, values: &[u32], bounds: &[usize]) -> Vec<u32> {
    let (words, one) = (tower.fp12_words(), fp12_one(tower));
    bounds
        .windows(2)
        .flat_map(|w| {
            let pad = (w[1] - w[0]..programs::RANGE).flat_map(|_| one.iter());
            values[w[0] * words..w[1] * words]
                .iter()
                .chain(pad)
                .copied()
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// The Miller values of packed pairs ([`pack_pair`]), after the checks
/// their flags ask for: per pair, the status (as [`first_failure`] reads
/// it) and the value, one for a pair without both points or with a point
/// that failed its checks.
pub(super) fn miller_values(gpu: &Gpu, words: &[u32]) -> Result<Vec<Vec<u32>>, String> {
    let out = tower_vm::run(
        gpu,
        "bls_pairs",
        Tower::Bls12381,
        programs::pairs(),
        &pair_inputs(words),
    )?;
    let one = fp12_one(Tower::Bls12381);
    Ok(words
        .chunks_exact(PAIR_IN)
        .zip(out)
        .map(|(pair, out)| {
            let (flags, vm) = (pair[PAIR_IN - 1], out[0]);
            let status = |checked: bool, on_curve: u32, in_group: u32| match (checked, vm & on_curve, vm & in_group) {
                (false, _, _) => 0,
                (true, 0, _) => STATUS_NOT_ON_CURVE,
                (true, _, 0) => STATUS_NOT_IN_SUBGROUP,
                _ => 0,
            };
            let status = status(
                flags & PAIR_G1 != 0,
                programs::FLAG_G1_ON_CURVE,
                programs::FLAG_G1_IN_GROUP,
            ) | status(
                flags & PAIR_G2 != 0,
                programs::FLAG_G2_ON_CURVE,
                programs::FLAG_G2_IN_GROUP,
            ) << 2;
            let mut answer = vec![status];
            if flags & PAIR_MILLER != 0 && status == 0 {
                answer.extend_from_slice(&out[FP_LIMBS..]);
            } else {
                answer.extend_from_slice(one);
            }
            answer
        })
        .collect())
}

/// Limbs of BLS12-381's base field elements.
const FP_LIMBS: usize = 12;

/// One in `tower`'s F_p12, as the machine's words (made once per tower:
/// every call pads with it).
pub(super) fn fp12_one(tower: Tower) -> &'static [u32] {
    static ONE: [std::sync::OnceLock<Vec<u32>>; 2] = [std::sync::OnceLock::new(), std::sync::OnceLock::new()];
    ONE[tower as usize].get_or_init(|| {
        let mut one = match tower {
            Tower::Bls12381 => {
                let p = bigint::from_hex::<FP_LIMBS>(crate::gpu::curve::BLS12_381_P);
                bigint::mont_form(&bigint::small(1), &p).to_vec()
            }
            Tower::Bn254 => {
                use ark_ff::PrimeField;
                let p = bigint::from_ark::<8>(ark_bn254::Fq::MODULUS);
                bigint::mont_form(&bigint::small(1), &p).to_vec()
            }
        };
        one.resize(tower.fp12_words(), 0);
        one
    })
}

/// Where final checks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FinalOn {
    /// The host's cores ([`host::final_check`]).
    Host,
    /// The device's product program.
    Device,
}

/// Whether each range's product of Miller values raised to `tower`'s final
/// exponentiation is one: ranges `bounds[k]..bounds[k + 1]` of `values`
/// (F_p12 values of `tower.fp12_words()` words, Montgomery form), an empty
/// range's product one. On the host when its cores would end sooner than
/// the device's last final stage on this tower ([`host::host_is_faster`]),
/// else on the device (and timed).
pub(crate) fn final_check(gpu: &Gpu, tower: Tower, values: Vec<u32>, bounds: Vec<usize>) -> Result<Vec<bool>, String> {
    let device = gpu.stage_seconds(final_stage(tower));
    let on = if host::host_is_faster(tower, &bounds, rayon::current_num_threads(), device) {
        FinalOn::Host
    } else {
        FinalOn::Device
    };
    final_check_on(gpu, tower, values, bounds, on)
}

/// The device's final stage on `tower`: its kernel's name and the key of
/// its time.
fn final_stage(tower: Tower) -> &'static str {
    match tower {
        Tower::Bls12381 => "bls_final",
        Tower::Bn254 => "bn254_final",
    }
}

/// [`final_check`] where `on` says. On the device, ranges of at most
/// [`programs::RANGE`] values are padded with ones, one thread each;
/// longer ones are first reduced to partial products in earlier rounds;
/// the stage's wall time is recorded for the next choice.
pub(crate) fn final_check_on(
    gpu: &Gpu,
    tower: Tower,
    mut values: Vec<u32>,
    mut bounds: Vec<usize>,
    on: FinalOn,
) -> Result<Vec<bool>, String> {
    if bounds.len() < 2 {
        return Ok(Vec::new());
    }
    let name = final_stage(tower);
    if on == FinalOn::Host {
        let t = Instant::now();
        let checked = host::final_check(tower, &values, &bounds);
        Gpu::trace(|| format!("{name}: {} checks on the host", bounds.len() - 1), t);
        return checked;
    }
    // The stage's time leaves out the pipeline's creation and the programs'
    // building (the first call's): it is what later calls would take.
    tower_vm::pipeline(gpu, tower)?;
    let program = |check| crate::gpu::pairing_vm::product_program(tower, check);
    let _ = (program(false), program(true));
    let t = Instant::now();
    let limbs = tower.limbs();
    loop {
        let longest = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        if longest <= programs::RANGE {
            break;
        }
        // Cut every range into chunks; the products become its values.
        let mut chunks = vec![bounds[0]];
        let mut range_chunks = vec![0usize];
        for w in bounds.windows(2) {
            let mut at = w[0];
            while at < w[1] {
                at = (at + programs::RANGE).min(w[1]);
                chunks.push(at);
            }
            range_chunks.push(chunks.len() - 1);
        }
        let products = tower_vm::run(
            gpu,
            name,
            tower,
            program(false),
            &padded_ranges(tower, &values, &chunks),
        )?;
        values = products.iter().flat_map(|p| p[limbs..].iter().copied()).collect();
        bounds = range_chunks;
    }
    let results = tower_vm::run(gpu, name, tower, program(true), &padded_ranges(tower, &values, &bounds))?;
    gpu.record_stage(name, t.elapsed().as_secs_f64());
    Ok(results.iter().map(|r| r[0] == 1).collect())
}

/// The precompile for every input of `inputs`, as
/// [`eip2537::pairing_check`] answers.
pub(crate) fn eip2537_pairing(gpu: &Gpu, inputs: &FlatBytes) -> Streamed<Result<bool, PrecompileError>> {
    // Traced runs say where a call's time goes between the two stages.
    let phase = |what: &str, since: Instant| Gpu::trace(|| format!("eip2537_pairing: {what}"), since);
    let t = Instant::now();
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
    phase(&format!("{} calls parsed and packed", inputs.len()), t);
    let t = Instant::now();
    let checked = miller_values(gpu, &words).map_err(Failure::at_start)?;
    phase("pairs stage (call)", t);
    let t = Instant::now();
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
    phase("Miller values gathered", t);
    let t = Instant::now();
    // Stage 2: the products and final exponentiations.
    let results = final_check(gpu, Tower::Bls12381, values, bounds).map_err(Failure::at_start)?;
    phase("final stage (call)", t);
    for (owner, result) in owners.iter().zip(results) {
        answers[*owner] = Some(Ok(result));
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| Failure::at_start("a call without an answer".to_string())))
        .collect()
}

/// Device times of `eip2537_pairing`'s two stages over `inputs`: the
/// pairs program's and the final check's times added, run by run, each
/// stage's inputs uploaded once. Calls the device would not see (a format
/// failure, a point at infinity) or that need more than one round (over
/// [`programs::RANGE`] pairs) are left out; the Miller values the final
/// check reads come from one untimed run of the first stage.
pub(crate) fn eip2537_kernel_times(gpu: &Gpu, inputs: &FlatBytes, runs: usize) -> Result<Vec<f64>, String> {
    let (mut words, mut bounds) = (Vec::new(), vec![0usize]);
    for i in 0..inputs.len() {
        let Ok(pairs) = parse(inputs.get(i)) else { continue };
        let finite: Vec<(&[u32], &[u32])> = pairs
            .iter()
            .filter_map(|(g1, g2)| Some((g1.finite()?, g2.finite()?)))
            .collect();
        if finite.len() != pairs.len() || pairs.len() > programs::RANGE {
            continue;
        }
        for (p, q) in finite {
            pack_pair(&mut words, Some(p), Some(q), true);
        }
        bounds.push(words.len() / PAIR_IN);
    }
    if bounds.len() < 2 {
        return Err("kernel timing: no call of at most four finite pairs".to_string());
    }
    let pairs = tower_vm::time(
        gpu,
        "bls_pairs",
        Tower::Bls12381,
        programs::pairs(),
        &pair_inputs(&words),
        runs,
    )?;
    let millers: Vec<u32> = miller_values(gpu, &words)?
        .iter()
        .flat_map(|m| m[1..].iter().copied())
        .collect();
    let values = padded_ranges(Tower::Bls12381, &millers, &bounds);
    let program = crate::gpu::pairing_vm::product_program(Tower::Bls12381, true);
    let last = tower_vm::time(gpu, "bls_final", Tower::Bls12381, program, &values, runs)?;
    Ok(pairs.iter().zip(&last).map(|(a, b)| a + b).collect())
}

#[cfg(test)]
mod tests {
    //! The two stages against arkworks: each point's curve and subgroup
    //! status on points in and out of G1 and G2 (of small order among
    //! them), as the flags of each pair ask, each pair's Miller value
    //! (arkworks' formulas: the values, not only the verdicts, are equal),
    //! and the final checks of ranges of every length, over several rounds
    //! of products. End to end against blst: tests/bls.rs.

    use ark_bls12_381::{Bls12_381, Fq, Fq2, Fq12, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
    use ark_ec::pairing::{MillerLoopOutput, Pairing};
    use ark_ec::{CurveGroup, PrimeGroup};
    use ark_ff::Field;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::programs::tests::{fq12_mont, g1_off_subgroup, g2_off_subgroup, random_fq12, random_fr, words};
    use super::*;
    use crate::gpu::probe::test_gpu;

    fn g1_words(p: &G1Affine) -> Vec<u32> {
        [p.x, p.y].into_iter().flat_map(words).collect()
    }

    fn g2_words(q: &G2Affine) -> Vec<u32> {
        [q.x.c0, q.x.c1, q.y.c0, q.y.c1].into_iter().flat_map(words).collect()
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
        let out = miller_values(&gpu, &input).expect("bls_pairs");
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
    fn final_check_matches_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(2_020_875);
        // Miller values of e(P, Q) and e(-P, Q) (their product exponentiates
        // to one), then random values, then e([a]P, Q) for nine a summing
        // to zero (a range reduced over two rounds).
        let (p, q) = (
            (G1Projective::generator() * random_fr(&mut rng)).into_affine(),
            (G2Projective::generator() * random_fr(&mut rng)).into_affine(),
        );
        let miller = |p: G1Affine| Bls12_381::multi_miller_loop([p], [q]).0;
        let mut values = vec![miller(p), miller(-p)];
        for _ in 0..5 {
            values.push(random_fq12(&mut rng));
        }
        let scalars: Vec<Fr> = (0..8).map(|_| random_fr(&mut rng)).collect();
        let last = -scalars.iter().sum::<Fr>();
        for a in scalars.iter().chain([&last]) {
            values.push(miller((p * a).into_affine()));
        }
        let words: Vec<u32> = values.iter().flat_map(fq12_mont).collect();
        // Ranges: the pair (one), each value alone, three random ones, an
        // empty one (one), the nine (one), the nine but the last.
        let bounds = vec![0, 2, 3, 4, 7, 7, 16];
        let check = |on| {
            let mut got = final_check_on(&gpu, Tower::Bls12381, words.clone(), bounds.clone(), on).expect("bls_final");
            got.extend(
                final_check_on(
                    &gpu,
                    Tower::Bls12381,
                    words[..15 * FP12_WORDS].to_vec(),
                    vec![7, 15],
                    on,
                )
                .expect("bls_final"),
            );
            got
        };
        let mut want: Vec<bool> = bounds
            .windows(2)
            .map(|w| {
                let product: Fq12 = values[w[0]..w[1]].iter().product();
                Bls12_381::final_exponentiation(MillerLoopOutput(product))
                    .expect("nonzero")
                    .0
                    == Fq12::ONE
            })
            .collect();
        want.push(false);
        assert_eq!(want, [true, false, false, false, true, true, false]);
        assert_eq!(check(FinalOn::Device), want, "on the device");
        assert!(gpu.stage_seconds("bls_final").is_some(), "the device's stage timed");
        assert_eq!(check(FinalOn::Host), want, "on the host");
        // A coefficient not below p is refused on the host, not reduced.
        let mut bad = words[..FP12_WORDS].to_vec();
        bad[..12].copy_from_slice(&bigint::from_hex::<12>(crate::gpu::curve::BLS12_381_P));
        assert!(host::final_check(Tower::Bls12381, &bad, &[0, 1]).is_err());
    }
}
