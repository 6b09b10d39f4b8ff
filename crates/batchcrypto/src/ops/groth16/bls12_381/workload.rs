//! `groth16_verify_bls12_381`'s declaration in the registry
//! ([`crate::registry`]): one generated key ([`super::sample`]) and its
//! items with the oracle's verdicts ([`crate::ops::groth16::workload`]'s
//! cases). The bench's proofs have five public inputs (a Sapling output
//! proof's: the value commitment's coordinates, the ephemeral key's, the
//! note commitment; a spend proof has seven), the self-test's two;
//! hostile items at the configured share.

use super::{VerifyingKey, oracle, sample};
use crate::engine::Engine;
use crate::ops::Op;
use crate::ops::groth16::workload::cases;
use crate::registry::{OpSpec, Workload, WorkloadConfig};

/// `groth16_verify_bls12_381`.
pub const VERIFY: OpSpec = OpSpec {
    op: Op::Groth16VerifyBls12381,
    item: "proof (192, compressed) and 5 public inputs under one key (2 in the self-test)",
    gpu_kernel: true,
    splittable: true,
    bench_msg_len: None,
    workload,
};

fn workload(c: &WorkloadConfig) -> Box<dyn Workload> {
    let inputs = if c.varied { 2 } else { 5 };
    let made = sample::generate(inputs, c.distinct(1024), c.invalid_share, c.seed);
    let vk = VerifyingKey::from_bytes(&made.vk).unwrap_or_else(|e| unreachable!("the sample's key decodes: {e}"));
    cases(c, &made, vk, oracle::verify, Engine::verify_groth16_bls12_381)
}
