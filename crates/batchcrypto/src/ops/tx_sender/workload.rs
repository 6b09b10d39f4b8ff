//! `tx_sender`'s declaration in the registry ([`crate::registry`]):
//! signed transactions ([`super::sample::transactions`]) against the
//! reference's senders.

use super::{SenderResult, oracle, sample, signing};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::ecdsa::RecoverItem;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `tx_sender`.
pub const TX_SENDER: OpSpec = OpSpec {
    op: Op::TxSender,
    item: "EIP-1559 transaction, 0-200 bytes of data (self-test: every type and shape)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// Transactions of the bench's shape or every shape, with hostile items
/// at the configured share.
fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::transactions(c.n, c.signers, c.seed, c.invalid_share, c.varied);
    let (items, expected) = crate::ops::made_batch(&made, oracle::sender);
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &FlatBytes| crate::ops::oracle_each(items, oracle::sender),
        engine: |e: &Engine, items: &FlatBytes| e.tx_senders(items),
        same: |g: &SenderResult, w: &SenderResult| g == w,
        // The device's share: the decoded transactions' recoveries.
        kernel: Some(|e: &Engine, items: &FlatBytes, runs| {
            let signed: Vec<RecoverItem> = (0..items.len()).filter_map(|i| signing(items.get(i)).ok()).collect();
            e.gpu_kernel_times(KernelWork::Ecrecover(&signed), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
