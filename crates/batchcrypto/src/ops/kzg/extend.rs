//! `kzg_compute_cells` and `kzg_recover_cells` (see [`super`]): c-kzg's
//! `blob_to_kzg_commitment` with `compute_cells_and_kzg_proofs`, and its
//! `recover_cells_and_kzg_proofs`, over the mainnet trusted setup. One
//! item per call without precomputed tables is the oracle
//! ([`super::oracle`]); the CPU path runs the same calls for many items on
//! every core, an item per task (c-kzg's FK20 proofs of one blob take
//! about 0.2 s of one core, so the pool's hand-off never matters), with
//! c-kzg's fixed-base tables for FK20's multi-scalar multiplications
//! ([`super::prover_settings`]), which change the time, not the bytes.

use c_kzg::{Blob, Cell, KzgSettings};

use super::{BLOB_LEN, BlobCells, Extended, RecoverItem, blob_checks, prover_settings, recover_checks};
use crate::cores;
use crate::verdict::Reason;

/// c-kzg's cells and proofs as bytes.
fn extended(cells: &[Cell], proofs: &[c_kzg::KzgProof]) -> Extended {
    Extended {
        cells: cells.iter().map(Cell::to_bytes).collect(),
        proofs: proofs.iter().map(|p| p.to_bytes().into_inner()).collect(),
    }
}

/// A blob's commitment, cells and proofs: c-kzg's over `s`, or the reason
/// it refuses the blob (an element not below r: [`blob_checks`]).
pub(crate) fn compute_one(s: &KzgSettings, blob: &[u8; BLOB_LEN]) -> Result<BlobCells, Reason> {
    blob_checks(blob)?;
    let blob = Blob::new(*blob);
    // c-kzg refuses a blob only for an element at or above r, which the
    // check above rules out; should it ever refuse one, so is the item.
    let refused = |_| Reason::NonCanonicalElement;
    let commitment = s.blob_to_kzg_commitment(&blob).map_err(refused)?;
    let (cells, proofs) = s.compute_cells_and_kzg_proofs(&blob).map_err(refused)?;
    Ok(BlobCells {
        commitment: commitment.to_bytes().into_inner(),
        extended: extended(&cells[..], &proofs[..]),
    })
}

/// A recovery's cells and proofs: c-kzg's over `s`, or the first check it
/// fails ([`recover_checks`]).
pub(crate) fn recover_one(s: &KzgSettings, item: &RecoverItem) -> Result<Extended, Reason> {
    recover_checks(item)?;
    let cells: Vec<Cell> = item.cells.iter().map(|c| Cell::new(*c)).collect();
    // Every input check c-kzg makes is made above; its remaining failures
    // (allocation) are not the item's, and would read as the last check.
    let (cells, proofs) = s
        .recover_cells_and_kzg_proofs(&item.indices, &cells)
        .map_err(|_| Reason::NonCanonicalElement)?;
    Ok(extended(&cells[..], &proofs[..]))
}

/// Every blob of `blobs`.
pub(crate) fn compute(blobs: &[&[u8; BLOB_LEN]]) -> Vec<Result<BlobCells, Reason>> {
    let s = prover_settings();
    cores::map(blobs, 1, |blob| compute_one(s, blob))
}

/// Every recovery of `items`.
pub(crate) fn recover(items: &[RecoverItem]) -> Vec<Result<Extended, Reason>> {
    let s = prover_settings();
    cores::map(items, 1, |item| recover_one(s, item))
}
