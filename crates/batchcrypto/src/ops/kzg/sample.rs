//! Sample cells for `kzg_cell_verify` (the registry's workload, the CLI's
//! `sample kzg-cell`): the cells and proofs of random blobs, made by
//! c-kzg's `compute_cells_and_kzg_proofs`, and hostile ones.

use std::ops::Range;

use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::{BLS_MODULUS, CELL_LEN, CELLS_PER_EXT_BLOB, CellItem, POINT_LEN, settings};
use crate::ops::item_rng;

/// Every eighth blob (the second, the tenth, ...) is the zero blob:
/// commitment and proofs at infinity, every cell zeros (so that its
/// `other_index` items still hold).
const ZERO_EVERY: usize = 8;

/// The cells of blob `b` of `seed`: its commitment, then the 128 cells and
/// proofs; random field elements, or zeros (every eighth blob, the
/// second first).
pub fn blob_cells(b: usize, seed: u64) -> Vec<CellItem> {
    let mut rng = item_rng(seed ^ 0x0b10_b000, b);
    let mut bytes = vec![0u8; c_kzg::BYTES_PER_BLOB];
    if b % ZERO_EVERY != 1 {
        for element in bytes.chunks_exact_mut(32) {
            element[1..].copy_from_slice(&rng.random::<[u8; 31]>());
        }
    }
    let blob = c_kzg::Blob::from_bytes(&bytes).expect("every element below r");
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

/// The hostile kinds.
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
        "element_range" => {
            let at = 32 * rng.random_range(0..CELL_LEN / 32);
            item.cell[at..at + 32].copy_from_slice(&BLS_MODULUS);
            item.cell[at] |= rng.random_range(0..=0x8c);
        }
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
    let first = range.start / per_blob;
    let blobs: Vec<usize> = (first..range.end.div_ceil(per_blob)).collect();
    // The other blob: one no item of the sample belongs to.
    let made: Vec<Vec<CellItem>> = blobs
        .par_iter()
        .chain([usize::MAX].par_iter())
        .map(|&b| blob_cells(b, seed))
        .collect();
    let (other, made) = made.split_last().expect("the other blob");
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
