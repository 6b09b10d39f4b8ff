//! The Merkle rules' declarations in the registry ([`crate::registry`]):
//! the root of `n` random leaves (time per leaf) against the reference.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Rule, oracle};
use crate::engine::{Engine, KernelWork, Outcome};
use crate::error::Error;
use crate::ops::hash::Digest;
use crate::ops::{Op, poseidon};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use ark_ff::PrimeField;

/// `merkle_keccak256`.
pub const SORTED_KECCAK256: OpSpec = spec(Rule::SortedKeccak256);
/// `merkle_sha256`.
pub const BITCOIN: OpSpec = spec(Rule::Bitcoin);
/// `merkle_poseidon`.
pub const LEAN_IMT_POSEIDON: OpSpec = spec(Rule::LeanImtPoseidon);

const fn spec(rule: Rule) -> OpSpec {
    OpSpec {
        op: Op::Merkle(rule),
        item: "leaf of 32 bytes (one root per batch)",
        gpu_kernel: true,
        // One answer for the whole batch.
        splittable: false,
        bench_msg_len: None,
        workload: match rule {
            Rule::SortedKeccak256 => |c| workload(c, Rule::SortedKeccak256),
            Rule::Bitcoin => |c| workload(c, Rule::Bitcoin),
            Rule::LeanImtPoseidon => |c| workload(c, Rule::LeanImtPoseidon),
        },
    }
}

/// A random leaf `rule` takes: any 32 bytes, or under lean-imt-poseidon a
/// random field element.
fn random_leaf(rng: &mut StdRng, rule: Rule) -> Digest {
    match rule {
        Rule::LeanImtPoseidon => {
            poseidon::hash_bytes(&ark_bn254::Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>()))
        }
        _ => rng.random(),
    }
}

fn workload(c: &WorkloadConfig, rule: Rule) -> Box<dyn Workload> {
    let mut rng = StdRng::seed_from_u64(c.seed);
    // The self-test takes an odd count, so that the odd-node rule is used.
    let n = if c.varied { c.n.max(2) | 1 } else { c.n.max(1) };
    let leaves: Vec<Digest> = (0..n).map(|_| random_leaf(&mut rng, rule)).collect();
    let expected = oracle::root(rule, &leaves).into_iter().collect();
    Box::new(Cases {
        trivial: leaves.len() == 1,
        alternative: None,
        len: leaves.len(),
        input: (rule, leaves),
        expected,
        oracle: |(rule, l): &(Rule, Vec<Digest>)| {
            std::hint::black_box(oracle::root(*rule, l));
        },
        engine: |e: &Engine, (rule, l): &(Rule, Vec<Digest>)| -> Result<Outcome<Vec<Digest>>, Error> {
            e.merkle_root(*rule, l).map(|o| Outcome {
                output: vec![o.output],
                selection: o.selection,
            })
        },
        same: |d: &Digest, w: &Digest| d == w,
        // A one-leaf tree is its own root: no kernel runs.
        kernel: Some(|e: &Engine, (rule, l): &(Rule, Vec<Digest>), runs| {
            if l.len() < 2 {
                return Ok(Vec::new());
            }
            e.gpu_kernel_times(KernelWork::Merkle(*rule, l), runs)
        }),
    })
}
