//! ML-DSA's declarations in the registry ([`crate::registry`]), one per
//! level: generated honest and hostile items ([`super::sample`]) against
//! the `ml-dsa` crate, on the CPU and on the GPU kernel.

use super::{Batch, Level, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

const fn verify_spec(level: Level, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op: Op::MldsaVerify(level),
        item: "(pk, msg, sig, ctx)",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload,
    }
}

/// `mldsa_verify_44`.
pub const VERIFY_44: OpSpec = verify_spec(Level::Mldsa44, |c| verify(c, Level::Mldsa44));
/// `mldsa_verify_65`.
pub const VERIFY_65: OpSpec = verify_spec(Level::Mldsa65, |c| verify(c, Level::Mldsa65));
/// `mldsa_verify_87`.
pub const VERIFY_87: OpSpec = verify_spec(Level::Mldsa87, |c| verify(c, Level::Mldsa87));

fn verify(c: &WorkloadConfig, level: Level) -> Box<dyn Workload> {
    // Signing costs a few verifications: a few hundred distinct items,
    // repeated.
    let made = sample::generate(level, c.distinct(512), c.signers, c.invalid_share, c.seed);
    let mut batch = Batch::new();
    let mut expected = Vec::with_capacity(c.n);
    for it in made.iter().cycle().take(c.n) {
        if batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).is_ok() {
            expected.push(oracle::verify(level, &it.pk, &it.msg, &it.sig, &it.ctx));
        }
    }
    Box::new(Cases {
        len: batch.len(),
        input: (level, batch),
        expected,
        oracle: |(level, b): &(Level, Batch)| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(*level, b.pk(i), b.msg(i), b.sig(i), b.ctx(i)));
            }
        },
        engine: |e: &Engine, (level, b): &(Level, Batch)| e.verify_mldsa(*level, b),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, (level, b): &(Level, Batch), runs| {
            e.gpu_kernel_times(KernelWork::Mldsa(*level, b), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
