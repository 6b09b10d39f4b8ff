//! `groth16_verify_bn254`'s declaration in the registry
//! ([`crate::registry`]): one generated key ([`super::sample`]) and its
//! items with the oracle's verdicts. The bench's proofs have four public
//! inputs (a Semaphore v4 proof's: the tree's root, the nullifier, the
//! message's and the scope's hashes), the self-test's seven; hostile
//! items at the configured share.

use rayon::prelude::*;

use super::sample::Sample;
use super::{VerifyingKey, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `groth16_verify_bn254`.
pub const VERIFY_BN254: OpSpec = OpSpec {
    op: Op::Groth16VerifyBn254,
    item: "proof (256) and 4 public inputs under one key (7 in the self-test)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// The engine's verification of a batch under a key of type `K`.
pub(crate) type Run<K> = fn(&Engine, &K, &FlatBytes) -> Result<Outcome<Vec<Verdict>>, Error>;

/// A key on either curve and its items, with the curve's oracle and
/// engine call.
pub(crate) struct Input<K> {
    pub(crate) vk: K,
    pub(crate) items: FlatBytes,
    pub(crate) oracle: fn(&K, &[u8]) -> bool,
    pub(crate) run: Run<K>,
}

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let inputs = if c.varied { 7 } else { 4 };
    let made = sample::generate(inputs, c.distinct(1024), c.invalid_share, c.seed);
    let vk = VerifyingKey::from_bytes(&made.vk).unwrap_or_else(|e| unreachable!("the sample's key decodes: {e}"));
    cases(c, &made, vk, oracle::verify, Engine::verify_groth16)
}

/// The workload of a sample's items under `vk`, on either curve: the
/// oracle once per distinct proof (a millisecond or two each), its answers
/// repeated with the proofs to `c.n` items.
pub(crate) fn cases<K: Send + Sync + 'static>(
    c: &WorkloadConfig,
    made: &Sample,
    vk: K,
    oracle: fn(&K, &[u8]) -> bool,
    run: Run<K>,
) -> Box<dyn Workload> {
    let distinct: Vec<bool> = made.items.par_iter().map(|it| oracle(&vk, &it.bytes)).collect();
    let expected: Vec<bool> = distinct.iter().copied().cycle().take(c.n).collect();
    let items: Vec<sample::Item> = made.items.iter().cycle().take(c.n).cloned().collect();
    let input = Input {
        items: sample::batch(&items),
        vk,
        oracle,
        run,
    };
    Box::new(Cases {
        len: input.items.len(),
        input,
        expected,
        oracle: |input: &Input<K>| {
            for i in 0..input.items.len() {
                std::hint::black_box((input.oracle)(&input.vk, input.items.get(i)));
            }
        },
        engine: |e: &Engine, input: &Input<K>| (input.run)(e, &input.vk, &input.items),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}
