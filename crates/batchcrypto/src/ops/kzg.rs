//! KZG proofs of blob data: EIP-7594's cell proofs (PeerDAS), the check
//! Ethereum's consensus clients run on every data column sidecar and its
//! execution clients on every blob transaction since the Fusaka upgrade.
//! (EIP-4844's point evaluation precompile is [`crate::ops::evm`]'s.)
//!
//! An item is one cell of an extended blob: the blob's commitment (48
//! bytes), the cell's index (0 to 127), the cell (64 field elements of 32
//! bytes, big-endian: 2,048 bytes) and the cell's proof (48 bytes); the
//! points are compressed as ZCash writes BLS12-381 G1. It is valid when
//! `verify_cell_kzg_proof_batch` of the consensus specs (polynomial
//! commitments sampling) accepts it alone: the cell holds the committed
//! polynomial's values on the index's coset.
//!
//! The oracle is c-kzg-4844 ([`oracle`]: the library the clients use,
//! with the mainnet trusted setup compiled in), one item per call. When it
//! refuses an item it does not say why, so the reason comes from the
//! checks it makes, in its order (`verify_cell_kzg_proof_batch` in c-kzg's
//! `eip7594.c`), made here with the same blst ([`checks`]):
//! `cell_index_out_of_range`, then the proof (`malformed_proof`: flag
//! bits, x not below p, or no point with this x; `proof_not_in_subgroup`),
//! the commitment (`malformed_commitment`, `commitment_not_in_subgroup`),
//! a cell element not below r (`non_canonical_element`); an item that
//! passes them all and fails is `equation`. Infinity is a valid commitment
//! and proof (the zero polynomial's).
//!
//! The CPU path (`cpu.rs`) hands c-kzg many items at once: its batch check
//! (one random linear combination of the items' equations, the challenge
//! r hashed from every input, so r^0, r^1, ... weigh the items) costs two
//! pairings and multi-scalar multiplications for the whole set, where each
//! item alone pays its own two. A large batch is first checked as a few
//! large sets, one or more per thread; a set that fails is bisected down
//! to single items (`bisect.rs`, as BLS batch verification and the
//! point evaluation), so every verdict is c-kzg's on the item alone.
//!
//! Two more operations make what the cells check (`extend.rs`):
//! `kzg_compute_cells` takes a blob (4,096 field elements: 131,072 bytes)
//! to its commitment (`blob_to_kzg_commitment`, EIP-4844) and its 128
//! cells with their proofs (`compute_cells_and_kzg_proofs`, EIP-7594):
//! what a rollup puts in a blob transaction since Fusaka and a block
//! builder in its data column sidecars. `kzg_recover_cells` takes at
//! least half of an extended blob's cells with their indices back to all
//! 128 cells and proofs (`recover_cells_and_kzg_proofs`): what a node that
//! holds half of the columns does to serve the rest. Both are c-kzg's
//! answers byte for byte (one blob per call on the calling thread, no
//! precomputed tables: the oracle; blobs on every core with c-kzg's
//! fixed-base tables for FK20, `prover_settings`: the CPU path). A blob
//! is refused only for
//! an element not below r (`non_canonical_element`); a recovery's checks
//! are c-kzg's, in its order: the indices and cells in equal numbers
//! (`empty_or_mismatched`), at most 128 cells (`too_many_cells`), at least
//! 64 (`too_few_cells`), then per index in turn below 128
//! (`cell_index_out_of_range`) and above the one before
//! (`cell_indices_not_ascending`), then the cells' elements below r. Cells
//! that pass every check are recovered whether or not they lie on one
//! polynomial of the blob's degree: the specs, and c-kzg, interpolate the
//! cells given, and the recovered cells of an inconsistent set fail
//! verification against any commitment.
//!
//! On the GPU (`extend_gpu.rs`), the cell proofs (and a blob's
//! commitment) are FK20 as c-kzg computes it, written as sums of fixed
//! points (`fk20.rs`: per item 128 sums over the setup's points, with the
//! commitment 129, and 128 over the item's own intermediate points) on
//! the MSM kernel; a blob's cells are c-kzg's on the host's cores, a
//! recovery's the specs' recovery step by step as c-kzg takes it
//! (`fk20::recover`, on the host's cores); the answers are c-kzg's bytes.
//!
//! The GPU path (`gpu.rs`) makes the same checks and the same bisection
//! with the consensus specs' equation of a weighted set written out
//! (`equation.rs`: the columns interpolated on the host's cores, the two
//! sums on the MSM kernel, the pairings on the BLS kernels) and the
//! setup's points that c-kzg keeps to itself (`setup.rs`).

pub(crate) mod cpu;
#[cfg(any(feature = "wgpu", test))]
pub(crate) mod equation;
pub(crate) mod extend;
#[cfg(feature = "wgpu")]
pub(crate) mod extend_gpu;
#[cfg(any(feature = "wgpu", test))]
pub(crate) mod fk20;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
#[cfg(any(feature = "wgpu", test))]
pub(crate) mod setup;
pub(crate) mod workload;

use blst::min_pk::PublicKey;
use blst::{BLST_ERROR, blst_p1_affine};
use c_kzg::KzgSettings;

use crate::verdict::Reason;

/// Bytes of a cell: FIELD_ELEMENTS_PER_CELL (64) elements of 32 bytes.
pub const CELL_LEN: usize = c_kzg::BYTES_PER_CELL;
/// Cells of an extended blob; an index must be below it.
pub const CELLS_PER_EXT_BLOB: u64 = c_kzg::CELLS_PER_EXT_BLOB as u64;
/// Bytes of a commitment or a proof (a compressed G1 point).
pub const POINT_LEN: usize = 48;

/// FIELD_ELEMENTS_PER_CELL: the field elements of a cell.
#[cfg(any(feature = "wgpu", test))]
pub(crate) const CELL_ELEMENTS: usize = CELL_LEN / 32;

/// Bytes of a blob: FIELD_ELEMENTS_PER_BLOB (4,096) elements of 32 bytes,
/// big-endian, each below r.
pub const BLOB_LEN: usize = c_kzg::BYTES_PER_BLOB;
/// Cells of a blob's data (half of its extension's): the fewest cells
/// recovery takes.
pub const CELLS_PER_BLOB: usize = c_kzg::CELLS_PER_EXT_BLOB / 2;

/// Bytes of an extended blob's cells back to back (128 of 2,048): a row
/// of the bindings' cell outputs.
pub const EXTENDED_CELLS_LEN: usize = CELLS_PER_EXT_BLOB as usize * CELL_LEN;
/// Bytes of an extended blob's proofs back to back (128 of 48).
pub const EXTENDED_PROOFS_LEN: usize = CELLS_PER_EXT_BLOB as usize * POINT_LEN;

/// BLS12-381's scalar field modulus r (BLS_MODULUS), big-endian.
pub(crate) const BLS_MODULUS: [u8; 32] = [
    0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05, 0x53, 0xbd, 0xa4,
    0x02, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
];

/// One cell with its blob's commitment and its proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellItem {
    /// The blob's commitment, compressed.
    pub commitment: [u8; POINT_LEN],
    /// The cell's index in the extended blob (valid: below 128).
    pub index: u64,
    /// The cell: 64 big-endian field elements.
    pub cell: Box<[u8; CELL_LEN]>,
    /// The cell's proof, compressed.
    pub proof: [u8; POINT_LEN],
}

/// An extended blob: its 128 cells and their proofs, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extended {
    /// Cells 0 to 127 (64 big-endian field elements each).
    pub cells: Vec<[u8; CELL_LEN]>,
    /// Each cell's proof, compressed.
    pub proofs: Vec<[u8; POINT_LEN]>,
}

/// What `kzg_compute_cells` makes of a blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlobCells {
    /// The blob's commitment, compressed.
    pub commitment: [u8; POINT_LEN],
    /// Its cells and their proofs.
    pub extended: Extended,
}

/// One recovery: some of an extended blob's cells and their indices, in
/// the same order (valid: 64 to 128 of them, indices strictly ascending
/// and below 128).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecoverItem {
    /// The cells' indices.
    pub indices: Vec<u64>,
    /// The cells.
    pub cells: Vec<[u8; CELL_LEN]>,
}

/// The mainnet trusted setup (c-kzg loads it on first use and keeps it).
/// No precomputed tables: they speed up only the making of cell proofs,
/// not their checks.
pub(crate) fn settings() -> &'static KzgSettings {
    c_kzg::ethereum_kzg_settings(0)
}

/// c-kzg's window for the fixed-base tables of FK20's multi-scalar
/// multiplications (its `precompute`): 8, as c-kzg recommends to clients
/// that make proofs (96 MiB of tables, 1.72 times the proofs' speed of
/// none on its Apple M1 figures).
const PROVER_PRECOMPUTE: u64 = 8;

/// The mainnet trusted setup with the tables that speed up the making of
/// cell proofs ([`PROVER_PRECOMPUTE`]): the CPU path of
/// `kzg_compute_cells` and `kzg_recover_cells`, loaded on their first call
/// (the oracle keeps [`settings`]: the answers are the same bytes).
pub(crate) fn prover_settings() -> &'static KzgSettings {
    c_kzg::ethereum_kzg_settings(PROVER_PRECOMPUTE)
}

/// Why c-kzg refuses a compressed G1 point (a commitment or a proof).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PointError {
    /// The flag bits or x (not below p).
    Encoding,
    /// No point of the curve has this x.
    NotOnCurve,
    /// On the curve, outside G1 (blst's decoding also refuses x = 0, whose
    /// points have order 3, as outside the group).
    NotInGroup,
}

/// A compressed point as c-kzg reads it (`validate_kzg_g1`: `None` is
/// infinity, a valid commitment or proof), or why it is refused.
pub(crate) fn g1_point(bytes: &[u8]) -> Result<Option<blst_p1_affine>, PointError> {
    match PublicKey::uncompress(bytes) {
        Err(BLST_ERROR::BLST_BAD_ENCODING) => Err(PointError::Encoding),
        Err(BLST_ERROR::BLST_POINT_NOT_IN_GROUP) => Err(PointError::NotInGroup),
        Err(_) => Err(PointError::NotOnCurve),
        Ok(p) => match p.validate() {
            Ok(()) => Ok(Some(p.into())),
            Err(BLST_ERROR::BLST_PK_IS_INFINITY) => Ok(None),
            Err(_) => Err(PointError::NotInGroup),
        },
    }
}

/// Whether a big-endian 32-byte word is a canonical scalar-field element
/// (below r).
pub(crate) fn below_r(word: &[u8]) -> bool {
    word < &BLS_MODULUS[..]
}

/// The item's first failing check in c-kzg's order (see the module's
/// docs); `Ok` when every check passes (the equation is not among them).
pub fn checks(item: &CellItem) -> Result<(), Reason> {
    in_order(item, || g1_point(&item.proof), || g1_point(&item.commitment)).map(|_| ())
}

/// The item's checks in c-kzg's order given its points as read (blst's on
/// the CPU, the device's on the GPU: `proof` and `commitment` are asked
/// for only once the checks before them passed): the index, the proof, the
/// commitment, the cell's elements. The points when every check passes.
pub(crate) fn in_order<P>(
    item: &CellItem,
    proof: impl FnOnce() -> Result<Option<P>, PointError>,
    commitment: impl FnOnce() -> Result<Option<P>, PointError>,
) -> Result<(Option<P>, Option<P>), Reason> {
    let refused = |e: PointError, malformed: Reason, outside: Reason| match e {
        PointError::NotInGroup => outside,
        PointError::Encoding | PointError::NotOnCurve => malformed,
    };
    if item.index >= CELLS_PER_EXT_BLOB {
        return Err(Reason::CellIndexOutOfRange);
    }
    let proof = proof().map_err(|e| refused(e, Reason::MalformedProof, Reason::ProofNotInSubgroup))?;
    let commitment =
        commitment().map_err(|e| refused(e, Reason::MalformedCommitment, Reason::CommitmentNotInSubgroup))?;
    if !item.cell.chunks_exact(32).all(below_r) {
        return Err(Reason::NonCanonicalElement);
    }
    Ok((proof, commitment))
}

/// Whether every element of a blob is below r (c-kzg's one check of a
/// blob it computes cells of).
pub fn blob_checks(blob: &[u8; BLOB_LEN]) -> Result<(), Reason> {
    if blob.chunks_exact(32).all(below_r) {
        Ok(())
    } else {
        Err(Reason::NonCanonicalElement)
    }
}

/// A recovery's first failing check in c-kzg's order (see the module's
/// docs); `Ok` when it passes them all.
pub fn recover_checks(item: &RecoverItem) -> Result<(), Reason> {
    let n = item.cells.len();
    if item.indices.len() != n {
        return Err(Reason::EmptyOrMismatched);
    }
    if n > CELLS_PER_EXT_BLOB as usize {
        return Err(Reason::TooManyCells);
    }
    if n < CELLS_PER_BLOB {
        return Err(Reason::TooFewCells);
    }
    for (i, &index) in item.indices.iter().enumerate() {
        if index >= CELLS_PER_EXT_BLOB {
            return Err(Reason::CellIndexOutOfRange);
        }
        if i > 0 && index <= item.indices[i - 1] {
            return Err(Reason::CellIndicesNotAscending);
        }
    }
    if !item.cells.iter().all(|cell| cell.chunks_exact(32).all(below_r)) {
        return Err(Reason::NonCanonicalElement);
    }
    Ok(())
}

/// c-kzg's batch check of `items` (`verify_cell_kzg_proof_batch`):
/// whether every item holds, or c-kzg's refusal of the set.
pub(crate) fn c_kzg_batch<'a>(items: impl Iterator<Item = &'a CellItem>) -> Result<bool, c_kzg::Error> {
    let (mut commitments, mut indices, mut cells, mut proofs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for item in items {
        commitments.push(c_kzg::Bytes48::new(item.commitment));
        indices.push(item.index);
        cells.push(c_kzg::Cell::new(*item.cell));
        proofs.push(c_kzg::Bytes48::new(item.proof));
    }
    settings().verify_cell_kzg_proof_batch(&commitments, &indices, &cells, &proofs)
}

/// [`c_kzg_batch`] as a yes or no: `false` when an item does not hold or
/// is refused.
pub(crate) fn batch_holds<'a>(items: impl Iterator<Item = &'a CellItem>) -> bool {
    matches!(c_kzg_batch(items), Ok(true))
}
