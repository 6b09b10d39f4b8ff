//! ECDSA's declarations in the registry ([`crate::registry`]): generated
//! honest and hostile items ([`super::sample`]) against libsecp256k1 and
//! the `p256` crate.

use rayon::prelude::*;

use super::{K1VerifyItem, P256Item, RecoverItem, Recovered, cpu, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig, cycle};
use crate::verdict::{Reason, Verdict};

const fn ecdsa(op: Op, item: &'static str, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op,
        item,
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload,
    }
}

/// `secp256k1_verify`.
pub const SECP256K1_VERIFY: OpSpec = ecdsa(
    Op::Secp256k1Verify { low_s: false },
    "(hash 32, sig 64, pk 33|65)",
    |c| secp256k1(c, false),
);
/// `secp256k1_verify_low_s`.
pub const SECP256K1_VERIFY_LOW_S: OpSpec = ecdsa(
    Op::Secp256k1Verify { low_s: true },
    "(hash 32, sig 64, pk 33|65)",
    |c| secp256k1(c, true),
);
/// `ecrecover`.
pub const ECRECOVER: OpSpec = ecdsa(Op::Ecrecover { low_s: false }, "(hash 32, sig 65)", |c| {
    ecrecover(c, false)
});
/// `ecrecover_low_s`.
pub const ECRECOVER_LOW_S: OpSpec = ecdsa(Op::Ecrecover { low_s: true }, "(hash 32, sig 65)", |c| {
    ecrecover(c, true)
});
/// `p256_verify`.
pub const P256_VERIFY: OpSpec = ecdsa(Op::P256Verify, "(hash, r, s, x, y: 32 each)", p256);

fn secp256k1(c: &WorkloadConfig, low_s: bool) -> Box<dyn Workload> {
    let made = sample::secp256k1_verify(c.distinct(4096), c.signers, c.invalid_share, c.seed);
    let items = cycle(&made, c.n);
    let expected = items.par_iter().map(|i| oracle::secp256k1_verify(i, low_s)).collect();
    Box::new(Cases {
        len: items.len(),
        input: (low_s, items),
        expected,
        oracle: |(low_s, items): &(bool, Vec<K1VerifyItem>)| {
            for i in items {
                std::hint::black_box(oracle::secp256k1_verify(i, *low_s));
            }
        },
        engine: |e: &Engine, (low_s, items): &(bool, Vec<K1VerifyItem>)| e.verify_secp256k1(items, *low_s),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, (_, items): &(bool, Vec<K1VerifyItem>), runs| {
            e.gpu_kernel_times(KernelWork::Secp256k1(items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}

fn ecrecover(c: &WorkloadConfig, low_s: bool) -> Box<dyn Workload> {
    let made = sample::ecrecover(c.distinct(4096), c.signers, c.invalid_share, c.seed);
    let items = cycle(&made, c.n);
    let expected = items.par_iter().map(|i| oracle::ecrecover(i, low_s)).collect();
    Box::new(Cases {
        len: items.len(),
        input: (low_s, items),
        expected,
        oracle: |(low_s, items): &(bool, Vec<RecoverItem>)| {
            for i in items {
                std::hint::black_box(oracle::ecrecover(i, *low_s));
            }
        },
        engine: |e: &Engine, (low_s, items): &(bool, Vec<RecoverItem>)| e.ecrecover(items, *low_s),
        same: |g: &Result<Recovered, Reason>, w: &Option<Recovered>| g.as_ref().ok() == w.as_ref(),
        kernel: Some(|e: &Engine, (_, items): &(bool, Vec<RecoverItem>), runs| {
            e.gpu_kernel_times(KernelWork::Ecrecover(items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}

fn p256(c: &WorkloadConfig) -> Box<dyn Workload> {
    let made = sample::p256_verify(c.distinct(4096), c.signers, c.invalid_share, c.seed);
    let items = cycle(&made, c.n);
    let expected = items.par_iter().map(oracle::p256_verify).collect();
    Box::new(Cases {
        len: items.len(),
        input: items,
        expected,
        oracle: |items: &Vec<P256Item>| {
            for i in items {
                std::hint::black_box(oracle::p256_verify(i));
            }
        },
        engine: |e: &Engine, items: &Vec<P256Item>| e.verify_p256(items),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: Some(|e: &Engine, items: &Vec<P256Item>, runs| e.gpu_kernel_times(KernelWork::P256(items), runs)),
        trivial: false,
        alternative: Some(("aws-lc-rs", |items: &Vec<P256Item>| cpu::p256_each(items))),
    })
}
