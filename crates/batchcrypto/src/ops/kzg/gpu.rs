//! EIP-7594 cell proofs on the GPU: the checks and the batch equation of
//! [`super::equation`] on kernels other operations already run.
//!
//! 1. `bls_points_g1` (the tower machine, [`signatures::decompress`]):
//!    every proof and every distinct commitment decompressed and checked
//!    for G1 as blst does; the host's cores check the indices and the
//!    cells' elements, so that each item gets its first failure in c-kzg's
//!    order ([`super::in_order`]);
//! 2. per pass of sets ([`signatures::decide_on_device`], as BLS
//!    batch verification on the GPU): the host's cores weigh each set's
//!    cells by fresh random 64-bit r_k (one for a set of one cell) and
//!    interpolate its columns ([`equation::equation`]); the MSM kernel
//!    computes every set's two sums in one plan ([`msm_gpu::many`]: the
//!    commitments, the proofs twice and the 64 setup points, 256-bit
//!    scalars); `bls_pairs` and `bls_final` decide e(RL, G2)
//!    e(LL, -[τ^64]G2) = 1 per set. A set that fails is split until its
//!    invalid cells stand alone, so every verdict is c-kzg's on the cell
//!    alone (a set of more than one passing with an invalid cell in it
//!    with probability at most 2^-64).
//!
//! Any failure of a kernel fails the whole call (the engine recomputes it
//! on the CPU).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

use ark_bls12_381::{Fr, G2Affine};
use ark_ff::{BigInteger, One, PrimeField};
use ark_serialize::CanonicalDeserialize;
use blst::blst_p1_affine;
use blst::min_pk::PublicKey;
use rand::RngExt;
use rayon::prelude::*;

use super::equation::{self, Base};
use super::{CELL_ELEMENTS, CellItem, POINT_LEN, PointError, in_order, setup};
use crate::gpu::Gpu;
use crate::gpu::bigint;
use crate::gpu::driver::{Failure, Streamed};
use crate::ops::bls::gpu::signatures::{self, Decompressed, Group};
use crate::ops::bls::gpu::{g2_words, pack_pair};
use crate::ops::msm::bases::Affine;
use crate::ops::msm::gpu as msm_gpu;
use crate::verdict::{Reason, Verdict};

/// A point as c-kzg reads the device's decompression (as
/// [`super::g1_point`] reads blst's); `Err` when the device's point is not
/// one blst holds (a fault of the device: the call fails).
fn point(d: Decompressed) -> Result<Result<Option<blst_p1_affine>, PointError>, String> {
    Ok(match d {
        Decompressed::Encoding => Err(PointError::Encoding),
        Decompressed::NotOnCurve => Err(PointError::NotOnCurve),
        // blst's decoding refuses x = 0 as outside the group.
        Decompressed::OrderThree | Decompressed::NotInGroup => Err(PointError::NotInGroup),
        Decompressed::Infinity => Ok(None),
        Decompressed::Point(words) => Ok(Some(affine(&words)?)),
    })
}

/// A point of G1 from the device's canonical words (x, y), as blst holds
/// it. The device found it on the curve and in G1; blst's reading checks
/// the curve again.
fn affine(words: &[u32]) -> Result<blst_p1_affine, String> {
    let mut bytes = bigint::to_be::<12>(&words[..12]);
    bytes.extend(bigint::to_be::<12>(&words[12..24]));
    PublicKey::deserialize(&bytes)
        .map(Into::into)
        .map_err(|e| format!("the device decompressed a point blst refuses ({e:?})"))
}

/// The setup's [τ^j]G1 (j < 64) and the pairs' G2 points: G2's generator
/// and -[τ^64]G2 as the pairs program reads them.
struct Constants {
    setup: Vec<blst_p1_affine>,
    g2: Vec<u32>,
    minus_tau_pow: Vec<u32>,
}

fn constants() -> &'static Constants {
    static CONSTANTS: OnceLock<Constants> = OnceLock::new();
    CONSTANTS.get_or_init(|| {
        let g2 = |b: &[u8]| G2Affine::deserialize_compressed(b).expect("a point of G2");
        Constants {
            setup: setup::g1_monomial_blst()[..CELL_ELEMENTS].to_vec(),
            g2: g2_words(&g2(&crate::ops::evm::kzg::G2)),
            minus_tau_pow: g2_words(&-g2(&setup::bytes(setup::G2_TAU_POW_CELL))),
        }
    })
}

/// An item that passed its checks: its index in the batch and its points
/// (`None`: infinity).
struct Ready {
    item: usize,
    proof: Option<blst_p1_affine>,
    commitment: Option<blst_p1_affine>,
}

/// Every item's verdict on the GPU (see the module's docs).
pub(crate) fn verify(gpu: &Gpu, items: &[CellItem]) -> Streamed<Verdict> {
    run(gpu, items).map_err(Failure::at_start)
}

fn run(gpu: &Gpu, items: &[CellItem]) -> Result<Vec<Verdict>, String> {
    gpu.require_int64("kzg_cell_verify")?;
    // Every proof and every distinct commitment, in one call.
    let mut distinct: Vec<&[u8; POINT_LEN]> = items.iter().map(|it| &it.commitment).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let encodings = items
        .iter()
        .map(|it| &it.proof[..])
        .chain(distinct.iter().map(|c| &c[..]));
    let mut decoded: Vec<Result<Option<blst_p1_affine>, PointError>> =
        signatures::decompress(gpu, Group::G1, encodings)?
            .into_par_iter()
            .map(point)
            .collect::<Result<_, _>>()?;
    if decoded.len() != items.len() + distinct.len() {
        return Err("a point without an answer".to_string());
    }
    let commitments: HashMap<&[u8; POINT_LEN], Result<Option<blst_p1_affine>, PointError>> =
        distinct.into_iter().zip(decoded.split_off(items.len())).collect();
    let checked: Vec<Result<Ready, Reason>> = items
        .par_iter()
        .zip(decoded)
        .enumerate()
        .map(|(i, (item, proof))| {
            // Every distinct commitment was decompressed: the fallback is
            // never taken.
            let commitment = || {
                commitments
                    .get(&item.commitment)
                    .copied()
                    .unwrap_or(Err(PointError::Encoding))
            };
            in_order(item, || proof, commitment).map(|(proof, commitment)| Ready {
                item: i,
                proof,
                commitment,
            })
        })
        .collect();
    let mut verdicts = Vec::with_capacity(items.len());
    let mut ready = Vec::new();
    for c in checked {
        match c {
            Ok(r) => {
                ready.push(r);
                verdicts.push(Verdict::Valid);
            }
            Err(reason) => verdicts.push(Verdict::Invalid(reason)),
        }
    }
    let holds = signatures::decide_on_device("kzg_cell_verify", ready.len(), super::cpu::BATCH_COST, |sets| {
        set_checks(gpu, items, &ready, sets)
    })?;
    for (r, holds) in ready.iter().zip(holds) {
        if !holds {
            verdicts[r.item] = Verdict::Invalid(Reason::Equation);
        }
    }
    Ok(verdicts)
}

/// Whether each set of `ready` holds by one check of its equation: fresh
/// random nonzero 64-bit weights for a set of more than one cell, one for
/// a set of one (its own check).
fn set_checks(gpu: &Gpu, items: &[CellItem], ready: &[Ready], sets: &[Range<usize>]) -> Result<Vec<bool>, String> {
    let mut rng = rand::rng();
    let weights: Vec<Vec<Fr>> = sets
        .iter()
        .map(|s| match s.len() {
            1 => vec![Fr::one()],
            _ => s.clone().map(|_| Fr::from(rng.random_range(1..=u64::MAX))).collect(),
        })
        .collect();
    let equations: Vec<equation::Equation> = sets
        .par_iter()
        .zip(&weights)
        .map(|(s, w)| {
            let cells: Vec<&CellItem> = ready[s.clone()].iter().map(|r| &items[r.item]).collect();
            equation::equation(&cells, w)
        })
        .collect();
    // RL then LL of every set, each an independent sum of the plan; points
    // at infinity left out.
    let setup = &constants().setup;
    let (mut points, mut scalars, mut bounds) = (Vec::new(), Vec::new(), vec![0]);
    for (s, eq) in sets.iter().zip(&equations) {
        let cells = &ready[s.clone()];
        for terms in [&eq.rl, &eq.ll] {
            for (base, scalar) in terms {
                let p = match *base {
                    Base::Commitment(k) => cells[k].commitment,
                    Base::Proof(k) => cells[k].proof,
                    Base::Setup(j) => Some(setup[j]),
                };
                if let Some(p) = p {
                    points.push(p);
                    scalars.extend(scalar.into_bigint().to_bytes_le());
                }
            }
            bounds.push(points.len());
        }
    }
    let sums = msm_gpu::many(gpu, &Affine::Bls12381G1(points), &scalars, bounds).map_err(|f| f.reason)?;
    if sums.len() != 2 * sets.len() {
        return Err("a sum without an answer".to_string());
    }
    let c = constants();
    let mut words = Vec::new();
    for pair in sums.chunks_exact(2) {
        pack_pair(&mut words, sum_words(&pair[0])?.as_deref(), Some(&c.g2), false);
        pack_pair(
            &mut words,
            sum_words(&pair[1])?.as_deref(),
            Some(&c.minus_tau_pow),
            false,
        );
    }
    let holds = signatures::pairings_are_one(gpu, &words, (0..=sets.len()).map(|k| 2 * k).collect())?;
    if holds.len() != sets.len() {
        return Err("a pairing check came back without its answer".to_string());
    }
    Ok(holds)
}

/// A sum from the MSM kernel (blst's uncompressed G1: x, y big-endian) as
/// the pairs program reads it; `None` for infinity.
fn sum_words(bytes: &[u8]) -> Result<Option<Vec<u32>>, String> {
    if bytes.len() != 2 * POINT_LEN {
        return Err(format!("a sum of {} bytes came back", bytes.len()));
    }
    if bytes[0] & 0x40 != 0 {
        return Ok(None);
    }
    let mut words = bigint::from_be::<12>(&bytes[..POINT_LEN]).to_vec();
    words.extend(bigint::from_be::<12>(&bytes[POINT_LEN..]));
    Ok(Some(words))
}
