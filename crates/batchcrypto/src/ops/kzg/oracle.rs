//! The oracles of the KZG operations, c-kzg-4844 over the mainnet trusted
//! setup (no precomputed tables), one item per call (see [`super`]): `verify_cell_kzg_proof_batch`
//! over one cell, `blob_to_kzg_commitment` with
//! `compute_cells_and_kzg_proofs` over one blob, and
//! `recover_cells_and_kzg_proofs` over one recovery.

use super::{BLOB_LEN, BlobCells, CellItem, Extended, RecoverItem, c_kzg_batch, checks, extend, settings};
use crate::verdict::{Reason, Verdict};

/// One item's verdict: c-kzg's. The reason for an item it refuses is the
/// first check [`checks`] finds failing (should our reading of an item and
/// c-kzg's ever differ, the item is still invalid: `equation`).
pub fn verify_cell(item: &CellItem) -> Verdict {
    match c_kzg_batch(std::iter::once(item)) {
        Ok(true) => Verdict::Valid,
        Ok(false) => Verdict::Invalid(Reason::Equation),
        Err(_) => Verdict::Invalid(checks(item).err().unwrap_or(Reason::Equation)),
    }
}

/// A blob's commitment, cells and proofs: c-kzg's, or
/// `non_canonical_element`.
pub fn compute_cells(blob: &[u8; BLOB_LEN]) -> Result<BlobCells, Reason> {
    extend::compute_one(settings(), blob)
}

/// A recovery's 128 cells and proofs: c-kzg's, or the first check it
/// fails ([`super::recover_checks`]).
pub fn recover_cells(item: &RecoverItem) -> Result<Extended, Reason> {
    extend::recover_one(settings(), item)
}
