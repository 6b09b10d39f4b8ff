//! Samples of the KZG operations (the registry's workloads, the CLI's
//! `sample kzg-cell|kzg-blob|kzg-recover`): random blobs (and the zero
//! blob), the cells and proofs c-kzg's `compute_cells_and_kzg_proofs`
//! makes of them, some of those cells to recover from, and hostile ones of
//! each.

use std::ops::Range;

use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::{
    BLOB_LEN, BLS_MODULUS, CELL_LEN, CELLS_PER_BLOB, CELLS_PER_EXT_BLOB, CellItem, POINT_LEN, RecoverItem, settings,
};
use crate::ops::item_rng;

/// Every eighth blob (the second, the tenth, ...) is the zero blob:
/// commitment and proofs at infinity, every cell zeros (so that its
/// `other_index` items still hold).
const ZERO_EVERY: usize = 8;

/// The cells of blob `b` of `seed`: its commitment, then the 128 cells and
/// proofs; random field elements, or zeros (every eighth blob, the
/// second first).
pub fn blob_cells(b: usize, seed: u64) -> Vec<CellItem> {
    let blob = c_kzg::Blob::new(*blob(b, seed));
    let commitment = settings().blob_to_kzg_commitment(&blob).expect("a commitment");
    let (cells, proofs) = settings().compute_cells_and_kzg_proofs(&blob).expect("cells");
    cells
        .iter()
        .zip(proofs.iter())
        .enumerate()
        .map(|(index, (cell, proof))| CellItem {
            commitment: commitment.to_bytes().into_inner(),
            index: index as u64,
            cell: Box::new(cell.to_bytes()),
            proof: proof.to_bytes().into_inner(),
        })
        .collect()
}

/// Blob `b` of `seed`: random field elements (31 random bytes under a
/// zero byte), or zeros (every eighth blob, the second first).
pub fn blob(b: usize, seed: u64) -> Box<[u8; BLOB_LEN]> {
    let mut rng = item_rng(seed ^ 0x0b10_b000, b);
    let mut bytes = Box::new([0u8; BLOB_LEN]);
    if b % ZERO_EVERY != 1 {
        for element in bytes.chunks_exact_mut(32) {
            element[1..].copy_from_slice(&rng.random::<[u8; 31]>());
        }
    }
    bytes
}

/// An element at or above r at a random place of `elements` (r itself, or
/// r with its top byte raised up to 0xff).
fn element_at_or_above_r(elements: &mut [u8], rng: &mut StdRng) {
    let at = 32 * rng.random_range(0..elements.len() / 32);
    elements[at..at + 32].copy_from_slice(&BLS_MODULUS);
    elements[at] |= rng.random_range(0..=0x8c);
}

/// The cells of the blobs a sample's items `range` come from (item i from
/// blob i / `per_blob`), made on every core: the first blob's number,
/// each blob's cells, and the cells of blob `other`, which no item comes
/// from (hostile items take parts of it).
fn source_blobs(
    range: &Range<usize>,
    per_blob: usize,
    other: usize,
    seed: u64,
) -> (usize, Vec<Vec<CellItem>>, Vec<CellItem>) {
    let first = range.start / per_blob;
    let mut made: Vec<Vec<CellItem>> = (first..range.end.div_ceil(per_blob))
        .into_par_iter()
        .chain([other].into_par_iter())
        .map(|b| blob_cells(b, seed))
        .collect();
    let other = made.pop().unwrap_or_default();
    (first, made, other)
}

/// The hostile kinds of cells.
pub const HOSTILE: [&str; 10] = [
    "index_range",
    "other_index",
    "cell_byte",
    "element_range",
    "proof_encoding",
    "proof_curve",
    "commitment_encoding",
    "commitment_curve",
    "other_proof",
    "other_commitment",
];

/// `item` spoiled in the way `kind` names, with `other` (a cell of another
/// blob) to take parts from: an index past 127 (128 or u64's largest),
/// another index of the blob, a changed bit of the cell, an element set to
/// r or above, a point without its compression flag or with x changed
/// (then off the curve or outside G1), another blob's proof or commitment.
pub fn spoil(item: &mut CellItem, other: &CellItem, kind: &str, rng: &mut StdRng) {
    match kind {
        "index_range" => {
            item.index = if rng.random_bool(0.5) {
                CELLS_PER_EXT_BLOB
            } else {
                u64::MAX
            }
        }
        "other_index" => item.index = (item.index + rng.random_range(1..CELLS_PER_EXT_BLOB)) % CELLS_PER_EXT_BLOB,
        "cell_byte" => item.cell[rng.random_range(0..CELL_LEN)] ^= 1 << rng.random_range(0..8),
        "element_range" => element_at_or_above_r(&mut item.cell[..], rng),
        "proof_encoding" => item.proof[0] &= 0x7f,
        "proof_curve" => item.proof[POINT_LEN - 1] ^= 1,
        "commitment_encoding" => item.commitment[0] &= 0x7f,
        "commitment_curve" => item.commitment[POINT_LEN - 1] ^= 1,
        "other_proof" => item.proof = other.proof,
        _ => item.commitment = other.commitment,
    }
}

/// Items `range` of a sample of `seed`: item i is cell i mod 128 of blob
/// i / 128, made hostile with probability `hostile_share` (its kind, or
/// "valid"); hostile items take parts from one more blob's cells.
pub fn generate_range(range: Range<usize>, hostile_share: f64, seed: u64) -> Vec<(CellItem, &'static str)> {
    if range.is_empty() {
        return Vec::new();
    }
    let per_blob = CELLS_PER_EXT_BLOB as usize;
    let (first, made, other) = source_blobs(&range, per_blob, usize::MAX, seed);
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x4b5a_4700, i);
            let mut item = made[i / per_blob - first][i % per_blob].clone();
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = HOSTILE[rng.random_range(0..HOSTILE.len())];
            spoil(&mut item, &other[i % per_blob], kind, &mut rng);
            (item, kind)
        })
        .collect()
}

/// Every fourth honest blob of a blob sample is made of r - 1 (the largest
/// element), the third first.
const MAX_EVERY: usize = 4;

/// Blobs `range` of a sample of `seed` (`kzg_compute_cells`): blob i is
/// [`blob`] i, or every element r - 1 (every fourth, the third first),
/// made hostile with probability `hostile_share` by an element at or above
/// r ("element_range"; else "valid").
pub fn blobs_range(range: Range<usize>, hostile_share: f64, seed: u64) -> Vec<(Box<[u8; BLOB_LEN]>, &'static str)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x0b10_b5e7, i);
            let mut bytes = blob(i, seed);
            if i % MAX_EVERY == 2 {
                let mut max = BLS_MODULUS;
                max[31] -= 1;
                bytes.chunks_exact_mut(32).for_each(|e| e.copy_from_slice(&max));
            }
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (bytes, "valid");
            }
            element_at_or_above_r(&mut bytes[..], &mut rng);
            (bytes, "element_range")
        })
        .collect()
}

/// The hostile kinds of recoveries: counts that differ, too many cells
/// (more than 128), too few (under 64), an index past 127, indices not
/// strictly ascending, an element at or above r; "other_blob" replaces
/// cells with another blob's at the same indices, which c-kzg recovers all
/// the same (no check sees it: the answer is the interpolation of the
/// cells given).
pub const RECOVER_HOSTILE: [&str; 7] = [
    "mismatched",
    "too_many",
    "too_few",
    "index_range",
    "not_ascending",
    "element_range",
    "other_blob",
];

/// Recoveries a blob's cells give: recovery i of a sample takes the cells
/// of blob i / RECOVERIES_PER_BLOB.
pub const RECOVERIES_PER_BLOB: usize = 8;

/// Recoveries `range` of a sample of `seed` (`kzg_recover_cells`): from
/// the cells of [`blob_cells`] i / 8, a random set of 64 to 128 of them in
/// ascending order (exactly 64 or all 128 one time in eight each), made
/// hostile with probability `hostile_share` (its kind of
/// [`RECOVER_HOSTILE`], or "valid").
pub fn recover_range(range: Range<usize>, hostile_share: f64, seed: u64) -> Vec<(RecoverItem, &'static str)> {
    if range.is_empty() {
        return Vec::new();
    }
    let (first, made, other) = source_blobs(&range, RECOVERIES_PER_BLOB, usize::MAX - 1, seed);
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed ^ 0x4ec0_7e4d, i);
            let cells = &made[i / RECOVERIES_PER_BLOB - first];
            let all = CELLS_PER_EXT_BLOB as usize;
            let k = match rng.random_range(0..8) {
                0 => CELLS_PER_BLOB,
                1 => all,
                _ => rng.random_range(CELLS_PER_BLOB..=all),
            };
            let indices = rand::seq::index::sample(&mut rng, all, k);
            let mut indices: Vec<u64> = indices.into_iter().map(|j| j as u64).collect();
            indices.sort_unstable();
            let mut item = RecoverItem {
                cells: indices.iter().map(|&j| *cells[j as usize].cell).collect(),
                indices,
            };
            if !rng.random_bool(hostile_share.clamp(0.0, 1.0)) {
                return (item, "valid");
            }
            let kind = RECOVER_HOSTILE[rng.random_range(0..RECOVER_HOSTILE.len())];
            spoil_recovery(&mut item, &other, kind, &mut rng);
            (item, kind)
        })
        .collect()
}

/// `item` spoiled in the way `kind` names ([`RECOVER_HOSTILE`]), with
/// `other` (another blob's cells) to take cells from.
pub fn spoil_recovery(item: &mut RecoverItem, other: &[CellItem], kind: &str, rng: &mut StdRng) {
    let n = item.indices.len();
    let at = rng.random_range(0..n);
    match kind {
        "mismatched" => {
            if rng.random_bool(0.5) {
                item.indices.remove(at);
            } else {
                item.cells.remove(at);
            }
        }
        "too_many" => {
            // Every cell, then repeats of some.
            item.indices = (0..CELLS_PER_EXT_BLOB).collect();
            item.cells = other.iter().map(|c| *c.cell).collect();
            for _ in 0..rng.random_range(1..=8) {
                let j = rng.random_range(0..CELLS_PER_EXT_BLOB as usize);
                item.indices.push(j as u64);
                item.cells.push(*other[j].cell);
            }
        }
        "too_few" => {
            let keep = rng.random_range(0..CELLS_PER_BLOB);
            item.indices.truncate(keep);
            item.cells.truncate(keep);
        }
        "index_range" => {
            item.indices[at] = if rng.random_bool(0.5) {
                CELLS_PER_EXT_BLOB
            } else {
                u64::MAX
            }
        }
        "not_ascending" => {
            let at = at.max(1);
            if rng.random_bool(0.5) {
                item.indices[at] = item.indices[at - 1];
            } else {
                item.indices.swap(at - 1, at);
            }
        }
        "element_range" => element_at_or_above_r(&mut item.cells[at], rng),
        _ => {
            for (index, cell) in item.indices.iter().zip(item.cells.iter_mut()).step_by(3) {
                *cell = *other[*index as usize].cell;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::kzg::oracle;
    use crate::verdict::{Reason, Verdict};

    /// Every cell c-kzg makes verifies, the zero blob's included; each
    /// hostile kind is refused with a reason of its kind.
    #[test]
    fn honest_cells_hold_and_hostile_ones_fail() {
        let mut rng = item_rng(7, 0);
        let honest = blob_cells(0, 7);
        let zero = blob_cells(1, 7);
        let other = blob_cells(2, 7);
        assert!(
            zero.iter().all(|c| c.commitment[0] == 0xc0 && c.proof[0] == 0xc0),
            "infinity"
        );
        assert_eq!(honest.len(), 128);
        for item in honest.iter().step_by(9).chain(zero.iter().step_by(31)) {
            assert_eq!(oracle::verify_cell(item), Verdict::Valid, "cell {}", item.index);
        }
        for (k, kind) in HOSTILE.iter().enumerate() {
            let mut item = honest[k].clone();
            spoil(&mut item, &other[k], kind, &mut rng);
            let Verdict::Invalid(reason) = oracle::verify_cell(&item) else {
                panic!("{kind}: accepted");
            };
            let expected: &[Reason] = match *kind {
                "index_range" => &[Reason::CellIndexOutOfRange],
                "element_range" => &[Reason::NonCanonicalElement],
                "proof_encoding" => &[Reason::MalformedProof],
                "proof_curve" => &[Reason::MalformedProof, Reason::ProofNotInSubgroup],
                "commitment_encoding" => &[Reason::MalformedCommitment],
                "commitment_curve" => &[Reason::MalformedCommitment, Reason::CommitmentNotInSubgroup],
                // A flipped bit may leave the element at or above r.
                "cell_byte" => &[Reason::Equation, Reason::NonCanonicalElement],
                _ => &[Reason::Equation],
            };
            assert!(expected.contains(&reason), "{kind}: {reason}");
        }
    }
}
