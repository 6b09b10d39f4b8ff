//! EIP-4844's point evaluation on the GPU (the precompile, its checks and
//! its equation: [`crate::ops::evm::kzg`]), on the BLS12-381 machinery of
//! [`crate::ops::bls::gpu`], every stage a thread per point or per call:
//!
//! 1. the host's cores: the length, the versioned hash (SHA-256 of the
//!    commitment), then z and y below r;
//! 2. `bls_points_g1`: every commitment and proof decompressed and checked
//!    for G1 ([`signatures::decompress`], blst's rules), so that each call
//!    gets its first failure in c-kzg's order ([`kzg::in_order`]: the
//!    commitment, z, y, the proof);
//! 3. `bls_sum_g1`: P = C + [y](-G1) + [z]pi per call, its two 256-bit
//!    scalar multiplications a thread each, then the sum
//!    ([`signatures::combine`]);
//! 4. `bls_pairs` and `bls_final`: e(P, G2) e(pi, -[τ]G2) = 1, two Miller
//!    loops and a final exponentiation per call: the CPU path's equation
//!    for a single call (c-kzg's e(C - [y]G1, G2) = e(pi, [τ - z]G2)
//!    rearranged so that G2 needs no multiplication).
//!
//! Each call is decided by its own equation, as `bls_verify` is on the
//! GPU: no random linear combination, so no bisection of hostile sets.

use std::sync::OnceLock;

use ark_bls12_381::{Fr, G2Affine};
use ark_ff::PrimeField;
use ark_serialize::CanonicalDeserialize;
use rayon::prelude::*;

use super::super::kzg::{self, Ready};
use super::super::{CallResult, PrecompileError};
use crate::batch::FlatBytes;
use crate::gpu::Gpu;
use crate::gpu::bigint;
use crate::gpu::driver::{Failure, Streamed};
use crate::ops::bls::gpu::signatures::{self, Decompressed, Group, ONE, Scalar};
use crate::ops::bls::gpu::{g2_words, pack_pair};

/// A point as the precompile reads the device's decompression: `None` for
/// infinity (a valid commitment or proof), or why c-kzg refuses it (as
/// [`kzg`]'s blst reading).
fn point(d: Decompressed) -> Result<Option<Vec<u32>>, PrecompileError> {
    match d {
        Decompressed::Encoding => Err(PrecompileError::PointEncoding),
        Decompressed::NotOnCurve => Err(PrecompileError::NotOnCurve),
        // blst's decoding refuses x = 0 as outside the group.
        Decompressed::OrderThree | Decompressed::NotInGroup => Err(PrecompileError::G1NotInSubgroup),
        Decompressed::Infinity => Ok(None),
        Decompressed::Point(words) => Ok(Some(words)),
    }
}

/// A scalar-field element as a term's scalar.
fn scalar(s: Fr) -> Scalar {
    bigint::from_ark(s.into_bigint())
}

/// G2's generator and -[τ]G2 as the pairs program reads them (x.c0, x.c1,
/// y.c0, y.c1, canonical words).
fn g2_points() -> &'static (Vec<u32>, Vec<u32>) {
    static POINTS: OnceLock<(Vec<u32>, Vec<u32>)> = OnceLock::new();
    POINTS.get_or_init(|| {
        let point = |b: &[u8]| G2Affine::deserialize_compressed(b).expect("a point of G2");
        (g2_words(&point(&kzg::G2)), g2_words(&-point(&kzg::TAU_G2)))
    })
}

/// Every call of `inputs` on the GPU (see the module's docs).
pub(crate) fn point_evaluations(gpu: &Gpu, inputs: &FlatBytes) -> Streamed<CallResult> {
    run(gpu, inputs).map_err(Failure::at_start)
}

fn run(gpu: &Gpu, inputs: &FlatBytes) -> Result<Vec<CallResult>, String> {
    let fields: Vec<_> = (0..inputs.len())
        .into_par_iter()
        .map(|i| kzg::fields(inputs.get(i)))
        .collect();
    let encodings = fields.iter().flatten().flat_map(|f| [f.commitment, f.proof]);
    let mut points = signatures::decompress(gpu, Group::G1, encodings)?.into_iter();
    let mut results: Vec<CallResult> = Vec::with_capacity(fields.len());
    let mut ready: Vec<(usize, Ready<Vec<u32>>)> = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        // A call that passes its checks is rejected until its equation
        // holds.
        results.push(match f {
            Err(e) => Err(*e),
            Ok(f) => {
                let (Some(c), Some(pi)) = (points.next(), points.next()) else {
                    return Err("a point without an answer".into());
                };
                kzg::in_order(f, point(c), || point(pi)).and_then(|call| {
                    ready.push((i, call));
                    Err(PrecompileError::ProofRejected)
                })
            }
        });
    }
    // P = C + [y](-G1) + [z]pi per call.
    let minus_g1 = signatures::minus_g1();
    let mut terms: Vec<(Option<&[u32]>, Scalar)> = Vec::with_capacity(3 * ready.len());
    for (_, call) in &ready {
        terms.push((call.commitment.as_deref(), ONE));
        terms.push((Some(&minus_g1), scalar(call.y)));
        terms.push((call.proof.as_deref(), scalar(call.z)));
    }
    let bounds: Vec<usize> = (0..=ready.len()).map(|k| 3 * k).collect();
    let sums = signatures::combine(gpu, Group::G1, &terms, &bounds)?;
    if sums.len() != ready.len() {
        return Err("a sum without an answer".into());
    }
    // e(P, G2) e(pi, -[τ]G2) per call.
    let (g2, minus_tau_g2) = g2_points();
    let mut words = Vec::new();
    for ((_, call), p) in ready.iter().zip(&sums) {
        pack_pair(&mut words, p.as_deref(), Some(g2), false);
        pack_pair(&mut words, call.proof.as_deref(), Some(minus_tau_g2), false);
    }
    let bounds: Vec<usize> = (0..=ready.len()).map(|k| 2 * k).collect();
    let holds = signatures::pairings_are_one(gpu, &words, bounds)?;
    if holds.len() != ready.len() {
        return Err("a pairing check came back without its answer".into());
    }
    for ((i, _), holds) in ready.iter().zip(holds) {
        results[*i] = if holds {
            Ok(kzg::output().to_vec())
        } else {
            Err(PrecompileError::ProofRejected)
        };
    }
    Ok(results)
}
