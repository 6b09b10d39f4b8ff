//! `eip7702_authority`'s declaration in the registry
//! ([`crate::registry`]): signed authorizations
//! ([`super::sample::authorizations`]) against the reference's
//! authorities.

use super::{AuthorityResult, oracle, sample, signing};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::ecdsa::RecoverItem;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `eip7702_authority`.
pub const EIP7702_AUTHORITY: OpSpec = OpSpec {
    op: Op::Eip7702Authority,
    item: "signed EIP-7702 authorization (chain id 0, 1 or up to 2^64)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// Authorizations, with hostile ones at the configured share (the bench
/// signs 4,096 and repeats them).
fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let distinct = sample::authorizations(0..c.distinct(4096), c.signers, c.seed, c.invalid_share);
    let made: Vec<(Vec<u8>, &'static str)> = distinct.iter().cycle().take(c.n).cloned().collect();
    let (items, expected) = crate::ops::made_batch(&made, oracle::authority);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::authority),
        engine: |e: &Engine, items: &FlatBytes| e.eip7702_authorities(items),
        same: |g: &AuthorityResult, w: &AuthorityResult| g == w,
        // The device's share: the decoded authorizations' recoveries.
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| {
            let signed: Vec<RecoverItem> = (0..items.len()).filter_map(|i| signing(items.get(i)).ok()).collect();
            e.gpu_kernel_times(KernelWork::Ecrecover(&signed), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
