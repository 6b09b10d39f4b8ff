//! BLS12-381's declarations in the registry ([`crate::registry`]):
//! generated honest and hostile `(pk, msg, sig)` items ([`super::sample`]),
//! aggregates of `n` keys, and EIP-2537 pairing checks, against blst.

use blst::min_pk::{AggregateSignature, SecretKey, Signature};
use rayon::prelude::*;

use super::eip2537;
use super::{AggregateItem, Batch, DST, FastAggregateItem, Mode, SIG_LEN, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::evm::PrecompileError;
use crate::ops::{Op, repeated_signed};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// An op whose GPU path runs its kernels over the whole batch
/// (ops/bls/gpu.rs): not split between CPU and GPU yet, since a failure
/// sends every item to the CPU rather than keeping those done.
const fn whole_batch(op: Op, item: &'static str, workload: fn(&WorkloadConfig) -> Box<dyn Workload>) -> OpSpec {
    OpSpec {
        op,
        item,
        gpu_kernel: true,
        splittable: false,
        bench_msg_len: None,
        workload,
    }
}

/// `bls_verify`.
pub const VERIFY: OpSpec = whole_batch(Op::BlsVerify(Mode::Single), "(pk 48, sig 96, msg)", |c| {
    verify(c, Mode::Single)
});
/// `bls_batch_verify`.
pub const BATCH_VERIFY: OpSpec = whole_batch(Op::BlsVerify(Mode::Batch), "(pk 48, sig 96, msg)", |c| {
    verify(c, Mode::Batch)
});
/// `bls_aggregate_verify` (bench unit: one key and message).
pub const AGGREGATE_VERIFY: OpSpec = whole_batch(Op::BlsAggregateVerify, "aggregate of n (pk, msg) pairs", aggregate);
/// `bls_fast_aggregate_verify` (bench unit: one key).
pub const FAST_AGGREGATE_VERIFY: OpSpec = whole_batch(
    Op::BlsFastAggregateVerify,
    "aggregate of n keys over one msg",
    fast_aggregate,
);
/// `eip2537_pairing` (one pair per call).
pub const EIP2537_PAIRING: OpSpec = whole_batch(Op::Eip2537Pairing, "EIP-2537 pairing input", pairing);

fn verify(c: &WorkloadConfig, mode: Mode) -> Box<dyn Workload> {
    let made = sample::generate(c.distinct(512), c.signers, c.invalid_share, c.seed);
    let (batch, expected) = repeated_signed(&made, c.n, |it| oracle::verify(&it.pk, &it.sig, &it.msg));
    Box::new(Cases {
        len: batch.len(),
        input: (mode, batch),
        expected,
        oracle: |(_, b): &(Mode, Batch)| {
            for i in 0..b.len() {
                std::hint::black_box(oracle::verify(b.pk(i), b.sig(i), b.msg(i)));
            }
        },
        engine: |e: &Engine, (mode, b): &(Mode, Batch)| e.verify_bls(b, *mode),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

/// The aggregate of `keys[i]` signing `msg(i)`, signed on all cores.
fn aggregate_signature<'m>(keys: &[SecretKey], msg: impl Fn(usize) -> &'m [u8] + Sync) -> [u8; SIG_LEN] {
    let sigs: Vec<Signature> = keys
        .par_iter()
        .enumerate()
        .map(|(i, k)| k.sign(msg(i), DST, &[]))
        .collect();
    let refs: Vec<&Signature> = sigs.iter().collect();
    AggregateSignature::aggregate(&refs, false)
        .map(|a| a.to_signature().compress())
        .unwrap_or([0u8; SIG_LEN])
}

/// One aggregate of `n` keys over distinct messages (the bench's unit is a
/// key); the self-test adds the same aggregate with one message changed.
fn aggregate(c: &WorkloadConfig) -> Box<dyn Workload> {
    let keys = sample::secret_keys(c.n.max(1), c.seed);
    let msgs: Vec<Vec<u8>> = (0..keys.len()).map(|i| (i as u64).to_le_bytes().repeat(4)).collect();
    let sig = aggregate_signature(&keys, |i| &msgs[i]);
    let valid = AggregateItem {
        pks: keys.iter().map(|k| k.sk_to_pk().compress()).collect(),
        msgs,
        sig,
    };
    let mut items = vec![valid.clone()];
    if c.varied {
        let mut wrong = valid;
        wrong.msgs[0][0] ^= 1;
        items.push(wrong);
    }
    let expected = items.iter().map(oracle::aggregate_verify).collect();
    Box::new(Cases {
        len: keys.len(),
        input: items,
        expected,
        oracle: |items: &Vec<AggregateItem>| {
            for it in items {
                std::hint::black_box(oracle::aggregate_verify(it));
            }
        },
        engine: |e: &Engine, items: &Vec<AggregateItem>| e.bls_aggregate_verify(items),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

/// One aggregate of `n` keys over one message (the bench's unit is a key);
/// the self-test adds it with the message changed.
fn fast_aggregate(c: &WorkloadConfig) -> Box<dyn Workload> {
    let keys = sample::secret_keys(c.n.max(1), c.seed);
    let msg = b"beacon block root of the slot....".to_vec();
    let sig = aggregate_signature(&keys, |_| &msg);
    let valid = FastAggregateItem {
        pks: keys.iter().map(|k| k.sk_to_pk().compress()).collect(),
        msg,
        sig,
    };
    let mut items = vec![valid.clone()];
    if c.varied {
        let mut wrong = valid;
        wrong.msg[0] ^= 1;
        items.push(wrong);
    }
    let expected = items.iter().map(oracle::fast_aggregate_verify).collect();
    Box::new(Cases {
        len: keys.len(),
        input: items,
        expected,
        oracle: |items: &Vec<FastAggregateItem>| {
            for it in items {
                std::hint::black_box(oracle::fast_aggregate_verify(it));
            }
        },
        engine: |e: &Engine, items: &Vec<FastAggregateItem>| e.bls_fast_aggregate_verify(items),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

/// `n` pairing checks of one pair (a G1, b G2) each: one Miller loop and
/// one final exponentiation per call. The self-test cuts every 7th input
/// short by a byte (the call fails with `invalid_length`).
fn pairing(c: &WorkloadConfig) -> Box<dyn Workload> {
    let g1s = sample::secret_keys(16, c.seed);
    let g2s = sample::g2_points(16, c.seed);
    let mut inputs = FlatBytes::with_capacity(c.n, c.n * eip2537::PAIR_LEN);
    for i in 0..c.n {
        let p = eip2537::encode_g1(&g1s[i % 16].sk_to_pk().serialize());
        let q = eip2537::encode_g2(&g2s[i % g2s.len().max(1)]);
        let mut input = [&p[..], &q[..]].concat();
        if c.varied && i % 7 == 3 {
            input.pop();
        }
        // Workloads stay far below the 4 GiB batch limit.
        let _fits = inputs.push(&input);
    }
    let expected = (0..inputs.len())
        .into_par_iter()
        .map(|i| eip2537::pairing_check(inputs.get(i)))
        .collect();
    Box::new(Cases {
        len: inputs.len(),
        input: inputs,
        expected,
        oracle: |inputs: &FlatBytes| {
            for i in 0..inputs.len() {
                std::hint::black_box(eip2537::pairing_check(inputs.get(i)).ok());
            }
        },
        engine: |e: &Engine, inputs: &FlatBytes| e.eip2537_pairing(inputs),
        same: |g: &Result<bool, PrecompileError>, w: &Result<bool, PrecompileError>| g == w,
        kernel: Some(|e: &Engine, inputs: &FlatBytes, runs| {
            e.gpu_kernel_times(KernelWork::Eip2537Pairing(inputs), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
