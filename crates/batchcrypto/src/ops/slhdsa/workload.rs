//! SLH-DSA's declarations in the registry ([`crate::registry`]), one per
//! parameter set: generated honest and hostile items ([`super::sample`])
//! against the `slh-dsa` crate, on the CPU and on the GPU kernel.

use super::{Batch, Set, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// The declaration of `set`'s verification.
const fn verify_spec(set: Set, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op: Op::SlhdsaVerify(set),
        item: "(pk, msg, sig, ctx)",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload,
    }
}

/// One [`OpSpec`] per set, in [`Set::ALL`]'s order.
macro_rules! specs {
    ($($name:ident = $set:ident, $doc:literal;)*) => {
        $(
            #[doc = $doc]
            pub const $name: OpSpec = verify_spec(Set::$set, |c| verify(c, Set::$set));
        )*
    };
}

specs! {
    VERIFY_SHA2_128S = Sha2_128s, "`slhdsa_verify_sha2_128s`.";
    VERIFY_SHA2_128F = Sha2_128f, "`slhdsa_verify_sha2_128f`.";
    VERIFY_SHA2_192S = Sha2_192s, "`slhdsa_verify_sha2_192s`.";
    VERIFY_SHA2_192F = Sha2_192f, "`slhdsa_verify_sha2_192f`.";
    VERIFY_SHA2_256S = Sha2_256s, "`slhdsa_verify_sha2_256s`.";
    VERIFY_SHA2_256F = Sha2_256f, "`slhdsa_verify_sha2_256f`.";
    VERIFY_SHAKE_128S = Shake128s, "`slhdsa_verify_shake_128s`.";
    VERIFY_SHAKE_128F = Shake128f, "`slhdsa_verify_shake_128f`.";
    VERIFY_SHAKE_192S = Shake192s, "`slhdsa_verify_shake_192s`.";
    VERIFY_SHAKE_192F = Shake192f, "`slhdsa_verify_shake_192f`.";
    VERIFY_SHAKE_256S = Shake256s, "`slhdsa_verify_shake_256s`.";
    VERIFY_SHAKE_256F = Shake256f, "`slhdsa_verify_shake_256f`.";
}

fn verify(c: &WorkloadConfig, set: Set) -> Box<dyn Workload> {
    // The honest items come from a pool of a few signatures (signing is
    // slow: see `sample`), the hostile ones are each its own.
    let made = sample::generate(set, c.n, c.invalid_share, c.seed);
    let mut batch = Batch::new();
    let mut kept = Vec::with_capacity(c.n);
    for it in &made {
        if batch.push(&it.pk, &it.msg, &it.sig, &it.ctx).is_ok() {
            kept.push(it);
        }
    }
    // The oracle's answers on all cores: a verification is thousands of
    // hashes (about a millisecond).
    let expected = crate::cores::map(&kept, 1, |it| oracle::verify(set, &it.pk, &it.msg, &it.sig, &it.ctx));
    Box::new(Cases {
        len: batch.len(),
        input: (set, batch),
        expected,
        oracle: |(set, b): &(Set, Batch)| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(*set, b.pk(i), b.msg(i), b.sig(i), b.ctx(i)));
            }
        },
        engine: |e: &Engine, (set, b): &(Set, Batch)| e.verify_slhdsa(*set, b),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, (set, b): &(Set, Batch), runs| e.gpu_kernel_times(KernelWork::Slhdsa(*set, b), runs)),
        trivial: false,
        alternative: None,
    })
}
