//! `receipts_root`'s declaration in the registry ([`crate::registry`]):
//! blocks' receipts ([`super::sample::blocks`]) against the reference's
//! answers.

use super::{ReceiptsResult, bloom_inputs, oracle, read_all, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::hash::Alg;
use crate::ops::ordered_trie::workload::all_nodes;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `receipts_root`.
pub const RECEIPTS_ROOT: OpSpec = OpSpec {
    op: Op::ReceiptsRoot,
    item: "block of 128 EIP-1559 receipts, 0-4 logs each (self-test: 0 to 300 receipts of every type)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// Blocks' receipts (the bench), or of every shape (the self-test), with
/// hostile items at the configured share.
fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::blocks(c.n, c.seed, c.invalid_share, c.varied);
    let (items, expected) = crate::ops::made_batch(&made, oracle::check);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::check),
        engine: |e: &Engine, items: &FlatBytes| e.receipts_roots(items),
        same: |g: &ReceiptsResult, w: &ReceiptsResult| g == w,
        // The device's share: the logs' addresses and topics and every
        // height's nodes, hashed as one batch (the GPU path runs one batch
        // for the logs and one per height).
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| {
            let mut all = all_nodes(items);
            for i in 0..items.len() {
                for m in read_all(items.get(i)).iter().flatten().flat_map(bloom_inputs) {
                    // A bench's messages stay far under the 4 GiB batch limit.
                    let _fits = all.push(m);
                }
            }
            e.gpu_kernel_times(KernelWork::Hash(Alg::Keccak256, &all), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
