//! sr25519's declaration in the registry ([`crate::registry`]).

use super::{Batch, DEFAULT_CONTEXT, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::{Op, repeated_signed};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `sr25519_verify` (context `substrate`).
pub const VERIFY: OpSpec = OpSpec {
    op: Op::Sr25519Verify,
    item: "(pk 32, sig 64, msg)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::generate(c.distinct(4096), c.signers, c.invalid_share, c.seed);
    let (batch, expected) = repeated_signed(&made, c.n, |it| {
        oracle::verify(DEFAULT_CONTEXT, &it.pk, &it.sig, &it.msg)
    });
    Box::new(Cases {
        len: batch.len(),
        input: batch,
        expected,
        oracle: |b: &Batch| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(DEFAULT_CONTEXT, b.pk(i), b.sig(i), b.msg(i)));
            }
        },
        engine: |e: &Engine, b: &Batch| e.verify_sr25519(b, DEFAULT_CONTEXT),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, b: &Batch, runs| e.gpu_kernel_times(KernelWork::Sr25519(b, DEFAULT_CONTEXT), runs)),
        trivial: false,
        alternative: None,
    })
}
