//! `groth16_verify_bls12_381`'s declaration in the registry
//! ([`crate::registry`]): one generated key ([`super::sample`]) and its
//! items with the oracle's verdicts. The bench's proofs have five public
//! inputs (a Sapling spend's: the re-randomised key's coordinates, the
//! value commitment's, the anchor, the nullifier's two halves, as bellman
//! packs them into seven; five is the middle of Sapling's and
//! Filecoin's), the self-test's two; hostile items at the configured
//! share.

use rayon::prelude::*;

use super::{VerifyingKey, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::Engine;
use crate::ops::Op;
use crate::ops::groth16::sample::{Item, batch};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `groth16_verify_bls12_381`.
pub const VERIFY: OpSpec = OpSpec {
    op: Op::Groth16VerifyBls12381,
    item: "proof (192, compressed) and 5 public inputs under one key (2 in the self-test)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

/// A key and its items.
struct Input {
    vk: VerifyingKey,
    items: FlatBytes,
}

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let inputs = if c.varied { 2 } else { 5 };
    let made = sample::generate(inputs, c.distinct(1024), c.invalid_share, c.seed);
    let vk = VerifyingKey::from_bytes(&made.vk).unwrap_or_else(|e| unreachable!("the sample's key decodes: {e}"));
    // The oracle once per distinct proof (a few milliseconds each), its
    // answers repeated with the proofs.
    let distinct: Vec<bool> = made.items.par_iter().map(|it| oracle::verify(&vk, &it.bytes)).collect();
    let expected: Vec<bool> = distinct.iter().copied().cycle().take(c.n).collect();
    let items: Vec<Item> = made.items.iter().cycle().take(c.n).cloned().collect();
    let input = Input {
        items: batch(&items),
        vk,
    };
    Box::new(Cases {
        len: input.items.len(),
        input,
        expected,
        oracle: |input: &Input| {
            for i in 0..input.items.len() {
                std::hint::black_box(oracle::verify(&input.vk, input.items.get(i)));
            }
        },
        engine: |e: &Engine, input: &Input| e.verify_groth16_bls12_381(&input.vk, &input.items),
        same: |v: &Verdict, w: &bool| v.is_valid() == *w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}
