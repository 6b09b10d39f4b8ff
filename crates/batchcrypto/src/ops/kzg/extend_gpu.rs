//! `kzg_compute_cells` and `kzg_recover_cells` on the GPU: the 128 cell
//! proofs (and a blob's commitment) as FK20's sums ([`super::fk20`]) on
//! the MSM kernel, the cells on the host's cores: a blob's by c-kzg's
//! `compute_cells` (an FFT of 8,192 field elements, a hundredth of the
//! proofs' work on the CPU), a recovery's by the specs' recovery as c-kzg
//! takes it (`fk20::recover`: six FFTs of 8,192 elements), whose
//! polynomial's first 4,096 coefficients the proofs are of.
//!
//! Per call, two plans of independent sums over every item that passed its
//! checks: stage A (per item, a blob's commitment over the setup's 4,096
//! points, then the 128 sums u_j of 64 terms over the setup's columns),
//! read back; stage B (per item, the 128 sums of the u_j with the
//! circulant's weights, 65 terms each, the identities left out). The sums
//! come back uncompressed and are compressed on the host; a sum blst
//! refuses fails the call (the engine recomputes it on the CPU). An item
//! that fails its checks (`super::blob_checks`, `super::recover_checks`)
//! has its reason before any of this.
//!
//! Every blob uploads the setup's points with its scalars (a resident copy
//! of the 12,288 fixed points, as `msm_with`'s bases, would spare that).

use std::sync::OnceLock;

use ark_bls12_381::{Fr, G1Affine};
use ark_ff::{BigInteger, PrimeField, Zero};
use ark_serialize::CanonicalSerialize;
use blst::blst_p1_affine;
use blst::min_pk::PublicKey;

use super::fk20::{self, CIRCULANT};
use super::{
    BLOB_LEN, BlobCells, CELL_ELEMENTS, CELL_LEN, Extended, POINT_LEN, RecoverItem, blob_checks, recover_checks, setup,
};
use crate::cores;
use crate::gpu::Gpu;
use crate::gpu::driver::{Failure, Streamed};
use crate::ops::msm::bases::Affine;
use crate::ops::msm::gpu as msm_gpu;
use crate::verdict::Reason;

/// The compressed point at infinity.
const INFINITY: [u8; POINT_LEN] = {
    let mut p = [0u8; POINT_LEN];
    p[0] = 0xc0;
    p
};

/// A point of arkworks' as blst holds it (the setup's columns, read back
/// without checks but the curve's).
fn to_blst(p: &G1Affine) -> blst_p1_affine {
    let mut bytes = [0u8; 2 * POINT_LEN];
    // arkworks writes BLS12-381 as ZCash does, as blst reads it.
    p.serialize_uncompressed(&mut bytes[..]).expect("96 bytes");
    PublicKey::deserialize(&bytes).expect("a point of the setup").into()
}

/// The setup's columns as blst holds them, row by row (stage A's points
/// beside the setup's own, [`setup::g1_monomial_blst`]).
fn columns() -> &'static [Vec<blst_p1_affine>] {
    static COLUMNS: OnceLock<Vec<Vec<blst_p1_affine>>> = OnceLock::new();
    COLUMNS.get_or_init(|| cores::map(fk20::columns(), 1, |row| row.iter().map(to_blst).collect()))
}

/// An item ready for the device: its cells and the polynomial its proofs
/// are of (4,096 coefficients or more: the first 4,096 are used).
struct Ready {
    cells: Vec<[u8; CELL_LEN]>,
    poly: Vec<Fr>,
}

/// What the device sums for an item: a blob's commitment (`None` when not
/// asked for) and the 128 proofs by cell index, compressed.
struct Proven {
    commitment: Option<[u8; POINT_LEN]>,
    proofs: Vec<[u8; POINT_LEN]>,
}

/// Every blob's answer on the GPU (see the module's docs).
pub(crate) fn compute(gpu: &Gpu, blobs: &[&[u8; BLOB_LEN]]) -> Streamed<Result<BlobCells, Reason>> {
    let prepare = |blob: &&[u8; BLOB_LEN]| {
        blob_checks(blob)?;
        let poly = fk20::monomial(blob).ok_or(Reason::NonCanonicalElement)?;
        let cells = super::settings()
            .compute_cells(&c_kzg::Blob::new(**blob))
            .map_err(|_| Reason::NonCanonicalElement)?;
        Ok(Ready {
            cells: cells.iter().map(c_kzg::Cell::to_bytes).collect(),
            poly,
        })
    };
    run(gpu, "kzg_compute_cells", blobs, prepare, true, |ready, proven| {
        BlobCells {
            commitment: proven.commitment.unwrap_or(INFINITY),
            extended: Extended {
                cells: ready.cells,
                proofs: proven.proofs,
            },
        }
    })
    .map_err(Failure::at_start)
}

/// Every recovery's answer on the GPU (see the module's docs).
pub(crate) fn recover(gpu: &Gpu, items: &[RecoverItem]) -> Streamed<Result<Extended, Reason>> {
    let prepare = |item: &RecoverItem| {
        recover_checks(item)?;
        let poly = fk20::recover(item);
        Ok(Ready {
            cells: fk20::cells_of(&poly),
            poly,
        })
    };
    run(gpu, "kzg_recover_cells", items, prepare, false, |ready, proven| {
        Extended {
            cells: ready.cells,
            proofs: proven.proofs,
        }
    })
    .map_err(Failure::at_start)
}

/// A scalar as the MSM kernel reads it (32 bytes, little-endian).
fn le(s: &Fr) -> Vec<u8> {
    s.into_bigint().to_bytes_le()
}

/// A sum from the MSM kernel (blst's uncompressed G1), `None` for infinity.
fn point(bytes: &[u8]) -> Result<Option<PublicKey>, String> {
    if bytes.len() != 2 * POINT_LEN {
        return Err(format!("a sum of {} bytes came back", bytes.len()));
    }
    if bytes[0] & 0x40 != 0 {
        return Ok(None);
    }
    PublicKey::deserialize(bytes)
        .map(Some)
        .map_err(|e| format!("the device summed a point blst refuses ({e:?})"))
}

/// A sum compressed.
fn compressed(sum: &Option<PublicKey>) -> [u8; POINT_LEN] {
    sum.as_ref().map_or(INFINITY, PublicKey::compress)
}

/// Every item's answer: its checks and host work (`prepare`, on every
/// core), the device's sums for those that pass (with a commitment when
/// `commit`), assembled by `answer`.
fn run<I: Sync, A>(
    gpu: &Gpu,
    op: &str,
    items: &[I],
    prepare: impl Fn(&I) -> Result<Ready, Reason> + Sync + Send,
    commit: bool,
    answer: impl Fn(Ready, Proven) -> A,
) -> Result<Vec<Result<A, Reason>>, String> {
    gpu.require_int64(op)?;
    let prepared: Vec<Result<Ready, Reason>> = cores::map(items, 1, prepare);
    let ready: Vec<&[Fr]> = prepared
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|r| &r.poly[..])
        .collect();
    let mut proven = if ready.is_empty() {
        Vec::new()
    } else {
        sums(gpu, &ready, commit)?
    }
    .into_iter();
    prepared
        .into_iter()
        .map(|p| match p {
            Err(reason) => Ok(Err(reason)),
            Ok(ready) => Ok(Ok(answer(ready, proven.next().ok_or("an item without its sums")?))),
        })
        .collect()
}

/// The device's sums for `polys` (see the module's docs).
fn sums(gpu: &Gpu, polys: &[&[Fr]], commit: bool) -> Result<Vec<Proven>, String> {
    // Stage A: per item the commitment (when asked for), then u_0 .. u_127.
    let (setup, columns) = (setup::g1_monomial_blst(), columns());
    let scalars_a: Vec<Vec<[Fr; CELL_ELEMENTS]>> = cores::map(polys, 1, |p| fk20::stage_a_scalars(p));
    let per_item = usize::from(commit) + CIRCULANT;
    let (mut points, mut scalars, mut bounds) = (Vec::new(), Vec::new(), vec![0]);
    for (poly, rows) in polys.iter().zip(&scalars_a) {
        if commit {
            points.extend_from_slice(setup);
            scalars.extend(poly[..setup.len()].iter().flat_map(le));
            bounds.push(points.len());
        }
        for (j, row) in rows.iter().enumerate() {
            points.extend_from_slice(&columns[j]);
            scalars.extend(row.iter().flat_map(le));
            bounds.push(points.len());
        }
    }
    let sums_a = msm_gpu::many(gpu, &Affine::Bls12381G1(points), &scalars, bounds).map_err(|f| f.reason)?;
    if sums_a.len() != polys.len() * per_item {
        return Err("a sum without an answer".to_string());
    }
    let sums_a: Vec<Option<PublicKey>> = sums_a.iter().map(|s| point(s)).collect::<Result<_, _>>()?;
    // Stage B: per item the 128 outputs over its u_j (identities left out).
    let weights = fk20::circulant_weights();
    let (mut points, mut scalars, mut bounds) = (Vec::new(), Vec::new(), vec![0]);
    for item in sums_a.chunks_exact(per_item) {
        let u = &item[usize::from(commit)..];
        for k in 0..CIRCULANT {
            for (j, uj) in u.iter().enumerate() {
                let g = &weights[(k + CIRCULANT - j) % CIRCULANT];
                if let (Some(p), false) = (uj, g.is_zero()) {
                    points.push(blst_p1_affine::from(*p));
                    scalars.extend(le(g));
                }
            }
            bounds.push(points.len());
        }
    }
    let sums_b = msm_gpu::many(gpu, &Affine::Bls12381G1(points), &scalars, bounds).map_err(|f| f.reason)?;
    if sums_b.len() != polys.len() * CIRCULANT {
        return Err("a sum without an answer".to_string());
    }
    let outs: Vec<[u8; POINT_LEN]> = sums_b
        .iter()
        .map(|s| point(s).map(|p| compressed(&p)))
        .collect::<Result<_, _>>()?;
    Ok(sums_a
        .chunks_exact(per_item)
        .zip(outs.chunks_exact(CIRCULANT))
        .map(|(a, out)| Proven {
            commitment: commit.then(|| compressed(&a[0])),
            proofs: (0..CIRCULANT).map(|x| out[fk20::proof_position(x)]).collect(),
        })
        .collect())
}
