//! The registry's KZG operations ([`crate::registry`]):
//! `kzg_cell_verify` over the cells of [`super::sample`], honest and
//! hostile, at most 256 distinct (two blobs' cells; making a blob's cells
//! and proofs costs far more than checking them), repeated up to the
//! workload's size; `kzg_compute_cells` over at most 8 distinct blobs and
//! `kzg_recover_cells` over at most 16 distinct recoveries (each costs
//! about 0.2 s of one core: the oracle's answers are computed once per
//! distinct item), repeated likewise.

use rayon::prelude::*;

use super::{BLOB_LEN, BlobCells, CellItem, Extended, RecoverItem, oracle, sample};
use crate::engine::Engine;
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::{Reason, Verdict};

/// `kzg_cell_verify`. Its GPU path runs its kernels over the whole batch
/// (passes of batch checks, as BLS batch verification): not split between
/// CPU and GPU, since a failure sends every item to the CPU rather than
/// keeping those done.
pub const CELL_VERIFY: OpSpec = OpSpec {
    op: Op::KzgCellVerify,
    item: "cell with its commitment and proof (EIP-7594)",
    gpu_kernel: true,
    splittable: false,
    bench_msg_len: None,
    workload: cells,
};

/// `kzg_compute_cells`: its GPU path runs on the MSM kernel, two plans of
/// sums over the whole batch; not split between CPU and GPU (as
/// `kzg_cell_verify`: a failure sends every item to the CPU).
pub const COMPUTE_CELLS: OpSpec = OpSpec {
    op: Op::KzgComputeCells,
    item: "blob to its commitment, cells and proofs (EIP-7594)",
    gpu_kernel: true,
    splittable: false,
    bench_msg_len: None,
    workload: blobs,
};

/// `kzg_recover_cells`: its GPU path runs on the MSM kernel, as
/// `kzg_compute_cells`', not split either.
pub const RECOVER_CELLS: OpSpec = OpSpec {
    op: Op::KzgRecoverCells,
    item: "half or more of a blob's cells to all cells and proofs (EIP-7594)",
    gpu_kernel: true,
    splittable: false,
    bench_msg_len: None,
    workload: recoveries,
};

fn cells(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::generate_range(0..c.distinct(256), c.invalid_share, c.seed);
    let items: Vec<CellItem> = made.iter().map(|(item, _)| item).cycle().take(c.n).cloned().collect();
    let expected: Vec<Verdict> = items.par_iter().map(oracle::verify_cell).collect();
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &Vec<CellItem>| {
            for item in items {
                std::hint::black_box(oracle::verify_cell(item));
            }
        },
        engine: |e: &Engine, items: &Vec<CellItem>| e.verify_kzg_cells(items),
        same: |got: &Verdict, want: &Verdict| got == want,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

/// The oracle's answers for `distinct` items, repeated as the items are
/// up to `n`.
fn repeated<T: Sync, A: Clone + Send>(distinct: &[T], n: usize, answer: impl Fn(&T) -> A + Sync + Send) -> Vec<A> {
    let answers: Vec<A> = distinct.par_iter().map(answer).collect();
    answers.iter().cycle().take(n).cloned().collect()
}

fn blobs(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::blobs_range(0..c.distinct(8), c.invalid_share, c.seed);
    let expected = repeated(&made, c.n, |(blob, _)| oracle::compute_cells(blob));
    let bytes: Vec<u8> = made
        .iter()
        .flat_map(|(blob, _)| blob.iter().copied())
        .cycle()
        .take(c.n * BLOB_LEN)
        .collect();
    Box::new(Cases {
        len: c.n,
        input: bytes,
        expected,
        oracle: |bytes: &Vec<u8>| {
            for blob in bytes.chunks_exact(BLOB_LEN) {
                if let Ok(blob) = blob.try_into() {
                    let _answer = std::hint::black_box(oracle::compute_cells(blob));
                }
            }
        },
        engine: |e: &Engine, bytes: &Vec<u8>| e.kzg_compute_cells(bytes),
        same: |got: &Result<BlobCells, Reason>, want: &Result<BlobCells, Reason>| got == want,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

fn recoveries(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::recover_range(0..c.distinct(16), c.invalid_share, c.seed);
    let expected = repeated(&made, c.n, |(item, _)| oracle::recover_cells(item));
    let items = crate::registry::cycle(&made, c.n);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &Vec<RecoverItem>| {
            for item in items {
                let _answer = std::hint::black_box(oracle::recover_cells(item));
            }
        },
        engine: |e: &Engine, items: &Vec<RecoverItem>| e.kzg_recover_cells(items),
        same: |got: &Result<Extended, Reason>, want: &Result<Extended, Reason>| got == want,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}
