//! BIP-340's declaration in the registry ([`crate::registry`]).

use super::{Batch, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::{Op, repeated_signed};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `bip340_verify`.
pub const VERIFY: OpSpec = OpSpec {
    op: Op::Bip340Verify,
    item: "(x-only pk 32, sig 64, msg)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::generate(c.distinct(4096), c.signers, c.invalid_share, c.seed);
    let (batch, expected) = repeated_signed(&made, c.n, |it| oracle::verify(&it.pk, &it.sig, &it.msg));
    Box::new(Cases {
        len: batch.len(),
        input: batch,
        expected,
        oracle: |b: &Batch| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(b.pk(i), b.sig(i), b.msg(i)));
            }
        },
        engine: |e: &Engine, b: &Batch| e.verify_bip340(b),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, b: &Batch, runs| e.gpu_kernel_times(KernelWork::Bip340(b), runs)),
        trivial: false,
        alternative: None,
    })
}
