//! The registry's `kzg_cell_verify` ([`crate::registry`]): the cells of
//! [`super::sample`], honest and hostile, at most 256 distinct (two blobs'
//! cells; making a blob's cells and proofs costs far more than checking
//! them), repeated up to the workload's size.

use rayon::prelude::*;

use super::{CellItem, oracle, sample};
use crate::engine::Engine;
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

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
