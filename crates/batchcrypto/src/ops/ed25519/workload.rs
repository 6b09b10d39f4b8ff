//! Ed25519's declarations in the registry ([`crate::registry`]): generated
//! honest and hostile items ([`super::sample`]) with the policy's oracle.

use rayon::prelude::*;

use super::{Batch, Policy, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `ed25519_verify_strict`.
pub const STRICT: OpSpec = spec(Policy::Strict);
/// `ed25519_verify_zip215`.
pub const ZIP215: OpSpec = spec(Policy::Zip215);

const fn spec(policy: Policy) -> OpSpec {
    OpSpec {
        op: Op::Ed25519Verify(policy),
        item: "(pk 32, sig 64, msg)",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload: match policy {
            Policy::Strict => |c| workload(c, Policy::Strict),
            Policy::Zip215 => |c| workload(c, Policy::Zip215),
        },
    }
}

fn workload(c: &WorkloadConfig, policy: Policy) -> Box<dyn Workload> {
    let items = sample::generate(&sample::Config {
        count: c.n,
        hostile_share: c.invalid_share,
        signers: c.signers,
        max_msg_len: if c.varied { 300 } else { 256 },
        seed: c.seed,
    });
    let batch = sample::batch(&items);
    let expected = (0..batch.len())
        .into_par_iter()
        .map(|i| oracle::verify(policy, batch.pk(i), batch.sig(i), batch.msg(i)))
        .collect();
    Box::new(Cases {
        len: batch.len(),
        input: (policy, batch),
        expected,
        oracle: |(policy, b): &(Policy, Batch)| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(*policy, b.pk(i), b.sig(i), b.msg(i)));
            }
        },
        engine: |e: &Engine, (policy, b): &(Policy, Batch)| e.verify_ed25519(b, *policy),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, (policy, b): &(Policy, Batch), runs| {
            e.gpu_kernel_times(KernelWork::Ed25519(b, *policy), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
