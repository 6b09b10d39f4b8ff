//! `poseidon_bn254`'s declaration in the registry ([`crate::registry`]):
//! the sample's items ([`super::sample`]) with the oracle's answers. The
//! bench's items hash two elements each (width 3: a Merkle tree's node,
//! the commonest call), the self-test's every width from 1 to 12 inputs in
//! turn; hostile items in both at the configured share.

use super::{HashResult, MAX_INPUTS, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `poseidon_bn254`.
pub const POSEIDON_BN254: OpSpec = OpSpec {
    op: Op::PoseidonBn254,
    item: "hash of two field elements (1 to 12 in the self-test)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let varied = c.varied;
    let made = sample::items(c.n, c.seed, c.invalid_share, |i| {
        if varied { 1 + i % MAX_INPUTS } else { 2 }
    });
    let (items, expected) = crate::ops::made_batch(&made, oracle::hash);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::hash),
        engine: |e: &Engine, items: &FlatBytes| e.poseidon_bn254(items),
        same: |g: &HashResult, w: &HashResult| g == w,
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| e.gpu_kernel_times(KernelWork::Poseidon(items), runs)),
        trivial: false,
        alternative: None,
    })
}
