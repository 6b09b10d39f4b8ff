//! ML-KEM's declarations in the registry ([`crate::registry`]), three
//! operations per parameter set: generated honest and hostile items
//! ([`super::sample`]) against the `ml-kem` crate, outputs compared byte
//! for byte. Encapsulation items carry m, so that their outputs are
//! deterministic.

use super::{DecapsItem, EncapsItem, KeygenItem, Set, oracle, sample};
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig, cycle};

const fn spec(op: Op, item: &'static str, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op,
        item,
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload,
    }
}

/// `mlkem_keygen_512`.
pub const KEYGEN_512: OpSpec = spec(Op::MlkemKeygen(Set::Mlkem512), "(d, z)", |c| keygen(c, Set::Mlkem512));
/// `mlkem_keygen_768`.
pub const KEYGEN_768: OpSpec = spec(Op::MlkemKeygen(Set::Mlkem768), "(d, z)", |c| keygen(c, Set::Mlkem768));
/// `mlkem_keygen_1024`.
pub const KEYGEN_1024: OpSpec = spec(Op::MlkemKeygen(Set::Mlkem1024), "(d, z)", |c| keygen(c, Set::Mlkem1024));
/// `mlkem_encaps_512`.
pub const ENCAPS_512: OpSpec = spec(Op::MlkemEncaps(Set::Mlkem512), "(ek, m)", |c| encaps(c, Set::Mlkem512));
/// `mlkem_encaps_768`.
pub const ENCAPS_768: OpSpec = spec(Op::MlkemEncaps(Set::Mlkem768), "(ek, m)", |c| encaps(c, Set::Mlkem768));
/// `mlkem_encaps_1024`.
pub const ENCAPS_1024: OpSpec = spec(Op::MlkemEncaps(Set::Mlkem1024), "(ek, m)", |c| {
    encaps(c, Set::Mlkem1024)
});
/// `mlkem_decaps_512`.
pub const DECAPS_512: OpSpec = spec(Op::MlkemDecaps(Set::Mlkem512), "(dk, ct)", |c| decaps(c, Set::Mlkem512));
/// `mlkem_decaps_768`.
pub const DECAPS_768: OpSpec = spec(Op::MlkemDecaps(Set::Mlkem768), "(dk, ct)", |c| decaps(c, Set::Mlkem768));
/// `mlkem_decaps_1024`.
pub const DECAPS_1024: OpSpec = spec(Op::MlkemDecaps(Set::Mlkem1024), "(dk, ct)", |c| {
    decaps(c, Set::Mlkem1024)
});

/// Generated items cut or repeated to `n` ([`cycle`]), and the oracle's answers.
fn repeat<T: Clone, A>(made: &[(T, &'static str)], n: usize, answer: impl Fn(&T) -> A) -> (Vec<T>, Vec<A>) {
    let items = cycle(made, n);
    let expected = items.iter().map(answer).collect();
    (items, expected)
}

fn keygen(c: &WorkloadConfig, set: Set) -> Box<dyn Workload> {
    let made = sample::keygen(0..c.distinct(1024), c.invalid_share, c.seed);
    let (items, expected) = repeat(&made, c.n, |it: &KeygenItem| oracle::keygen(set, &it.d, &it.z));
    Box::new(Cases {
        len: items.len(),
        input: (set, items),
        expected,
        oracle: |(set, items): &(Set, Vec<KeygenItem>)| {
            for it in items {
                std::hint::black_box(oracle::keygen(*set, &it.d, &it.z));
            }
        },
        engine: |e: &Engine, (set, items): &(Set, Vec<KeygenItem>)| e.mlkem_keygen(*set, items),
        same: |got, want| got.as_ref().ok() == want.as_ref(),
        kernel: Some(|e: &Engine, (set, items): &(Set, Vec<KeygenItem>), runs| {
            e.gpu_kernel_times(KernelWork::MlkemKeygen(*set, items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}

fn encaps(c: &WorkloadConfig, set: Set) -> Box<dyn Workload> {
    let pool = sample::key_pool(set, c.signers.min(c.n.max(1)), c.seed);
    let made = sample::encaps(set, &pool, 0..c.distinct(1024), c.invalid_share, c.seed);
    let (items, expected) = repeat(&made, c.n, |it: &EncapsItem| {
        it.m.as_ref().and_then(|m| oracle::encaps(set, &it.ek, m))
    });
    Box::new(Cases {
        len: items.len(),
        input: (set, items),
        expected,
        oracle: |(set, items): &(Set, Vec<EncapsItem>)| {
            for it in items {
                std::hint::black_box(it.m.as_ref().and_then(|m| oracle::encaps(*set, &it.ek, m)));
            }
        },
        engine: |e: &Engine, (set, items): &(Set, Vec<EncapsItem>)| e.mlkem_encaps(*set, items),
        same: |got, want| got.as_ref().ok() == want.as_ref(),
        kernel: Some(|e: &Engine, (set, items): &(Set, Vec<EncapsItem>), runs| {
            e.gpu_kernel_times(KernelWork::MlkemEncaps(*set, items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}

fn decaps(c: &WorkloadConfig, set: Set) -> Box<dyn Workload> {
    let pool = sample::key_pool(set, c.signers.min(c.n.max(1)), c.seed);
    let made = sample::decaps(set, &pool, 0..c.distinct(1024), c.invalid_share, c.seed);
    let (items, expected) = repeat(&made, c.n, |it: &DecapsItem| oracle::decaps(set, &it.dk, &it.ct));
    Box::new(Cases {
        len: items.len(),
        input: (set, items),
        expected,
        oracle: |(set, items): &(Set, Vec<DecapsItem>)| {
            for it in items {
                std::hint::black_box(oracle::decaps(*set, &it.dk, &it.ct));
            }
        },
        engine: |e: &Engine, (set, items): &(Set, Vec<DecapsItem>)| e.mlkem_decaps(*set, items),
        same: |got, want| got.as_ref().ok() == want.as_ref(),
        kernel: Some(|e: &Engine, (set, items): &(Set, Vec<DecapsItem>), runs| {
            e.gpu_kernel_times(KernelWork::MlkemDecaps(*set, items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
