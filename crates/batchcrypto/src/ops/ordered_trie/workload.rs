//! `ordered_trie_root`'s declaration in the registry ([`crate::registry`]):
//! batches of lists ([`super::sample::lists`]) against the reference's
//! roots.

use super::build::Roots;
use super::{RootResult, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::hash::Alg;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `ordered_trie_root`.
pub const ORDERED_TRIE_ROOT: OpSpec = OpSpec {
    op: Op::OrderedTrieRoot,
    item: "block of 128 transactions of 64-256 bytes (self-test: 0 to 400 values in five length styles)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// Blocks of transactions (the bench), or lists of every shape (the
/// self-test), with hostile items at the configured share.
fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::lists(c.n, c.seed, c.invalid_share, c.varied);
    let (items, expected) = crate::ops::made_batch(&made, oracle::root);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::root),
        engine: |e: &Engine, items: &FlatBytes| e.ordered_trie_roots(items),
        same: |g: &RootResult, w: &RootResult| g == w,
        // The device's share: every height's nodes, hashed as one batch
        // (the GPU path runs a batch per height).
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| {
            e.gpu_kernel_times(KernelWork::Hash(Alg::Keccak256, &all_nodes(items)), runs)
        }),
        trivial: false,
        alternative: None,
    })
}

/// Every node the GPU path hashes for `items`, all heights, in one batch.
pub(crate) fn all_nodes(items: &FlatBytes) -> FlatBytes {
    let mut roots = Roots::new((0..items.len()).map(|i| items.get(i)));
    let mut nodes = FlatBytes::default();
    roots.hash_here(|level| {
        for j in 0..level.to_hash() {
            // A bench's nodes stay far under the 4 GiB batch limit.
            let _fits = nodes.push(level.message(j));
        }
    });
    nodes
}
