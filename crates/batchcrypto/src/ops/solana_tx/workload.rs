//! `solana_tx_verify`'s declarations in the registry
//! ([`crate::registry`]): signed transactions
//! ([`super::sample::transactions`]) against the reference's verdicts
//! under each policy.

use super::{oracle, read, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::ops::ed25519::{Batch, Policy};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `solana_tx_verify_strict`.
pub const STRICT: OpSpec = spec(Policy::Strict);
/// `solana_tx_verify_zip215`.
pub const ZIP215: OpSpec = spec(Policy::Zip215);

const fn spec(policy: Policy) -> OpSpec {
    OpSpec {
        op: Op::SolanaTxVerify(policy),
        item: "legacy transfer, one signer (self-test: legacy, v0 and v1, 1-4 signers)",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload: match policy {
            Policy::Strict => |c| workload(c, Policy::Strict),
            Policy::Zip215 => |c| workload(c, Policy::Zip215),
        },
    }
}

/// Transactions of the bench's shape or every shape, with hostile ones at
/// the configured share.
fn workload(c: &WorkloadConfig, policy: Policy) -> Box<dyn Workload> {
    let made = sample::transactions(c.n, c.signers, c.seed, c.invalid_share, c.varied);
    let (items, expected) = crate::ops::made_batch(&made, |tx| oracle::verify(tx, policy));
    let oracle: fn(&(Policy, FlatBytes)) =
        |(policy, items)| crate::ops::oracle_each(items, |tx| oracle::verify(tx, *policy));
    Box::new(Cases {
        len: items.len(),
        input: (policy, items),
        expected,
        oracle,
        engine: |e: &Engine, (policy, items): &(Policy, FlatBytes)| e.verify_solana_txs(items, *policy),
        same: |g: &Verdict, w: &Verdict| g == w,
        // The device's share: the transactions' signatures.
        kernel: Some(|e: &Engine, (policy, items): &(Policy, FlatBytes), runs| {
            let mut batch = Batch::new();
            for s in (0..items.len()).filter_map(|i| read(items.get(i)).ok()) {
                for (pk, sig) in &s.signatures {
                    let _fits = batch.push(pk, sig, &s.message);
                }
            }
            e.gpu_kernel_times(KernelWork::Ed25519(&batch, *policy), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
