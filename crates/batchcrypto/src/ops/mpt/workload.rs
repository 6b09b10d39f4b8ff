//! `mpt_proof`'s declaration in the registry ([`crate::registry`]):
//! batches of trie proofs ([`super::sample::proofs`]) against the
//! reference's verdicts.

use super::{oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::hash::Alg;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `mpt_proof`.
pub const MPT_PROOF: OpSpec = OpSpec {
    op: Op::MptProof,
    item: "account proof in a state trie of 2^18 accounts (self-test: three shapes of tries, absent keys)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// Inclusion proofs of accounts of one state trie (the bench), or proofs
/// in tries of the three shapes with absent keys (the self-test), with
/// hostile items at the configured share.
fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::proofs(c.n, c.seed, c.invalid_share, c.varied);
    let (items, expected) = crate::ops::made_batch(&made, oracle::verify);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::verify),
        engine: |e: &Engine, items: &FlatBytes| e.verify_mpt_proofs(items),
        same: |g: &Verdict, w: &Verdict| g == w,
        // The device's share: the nodes' Keccak-256.
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| {
            let read: Vec<_> = (0..items.len()).map(|i| super::read(items.get(i))).collect();
            e.gpu_kernel_times(KernelWork::Hash(Alg::Keccak256, &super::gpu::node_batch(&read)), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
