//! The oracle of `kzg_cell_verify`: c-kzg-4844's
//! `verify_cell_kzg_proof_batch` over one item, the mainnet trusted setup
//! (see [`super`]).

use super::{CellItem, c_kzg_batch, checks};
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
