//! The Merkle rules' declarations in the registry ([`crate::registry`]):
//! the root of `n` random leaves (time per leaf) against the reference;
//! batches of inclusion proofs ([`super::sample::proofs`]) against the
//! reference's verdicts.

use rand::SeedableRng;
use rand::rngs::StdRng;

use super::{Rule, oracle, sample};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork, Outcome};
use crate::error::Error;
use crate::ops::Op;
use crate::ops::hash::Digest;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};
use crate::verdict::Verdict;

/// `merkle_keccak256`.
pub const SORTED_KECCAK256: OpSpec = spec(Rule::SortedKeccak256);
/// `merkle_sha256`.
pub const BITCOIN: OpSpec = spec(Rule::Bitcoin);
/// `merkle_poseidon`.
pub const LEAN_IMT_POSEIDON: OpSpec = spec(Rule::LeanImtPoseidon);
/// `merkle_ssz`.
pub const SSZ: OpSpec = spec(Rule::Ssz);

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
            Rule::Ssz => |c| workload(c, Rule::Ssz),
        },
    }
}

fn workload(c: &WorkloadConfig, rule: Rule) -> Box<dyn Workload> {
    let mut rng = StdRng::seed_from_u64(c.seed);
    // The self-test takes an odd count, so that the odd-node rule is used.
    let n = if c.varied { c.n.max(2) | 1 } else { c.n.max(1) };
    let leaves: Vec<Digest> = (0..n).map(|_| sample::random_node(&mut rng, rule)).collect();
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

/// The depth of the bench's proofs (a Semaphore group's or an airdrop's
/// tree: about a million leaves).
pub const BENCH_DEPTH: u32 = 20;

/// `merkle_proof_keccak256`.
pub const PROOF_SORTED_KECCAK256: OpSpec = proof_spec(Rule::SortedKeccak256);
/// `merkle_proof_sha256`.
pub const PROOF_BITCOIN: OpSpec = proof_spec(Rule::Bitcoin);
/// `merkle_proof_poseidon`.
pub const PROOF_LEAN_IMT_POSEIDON: OpSpec = proof_spec(Rule::LeanImtPoseidon);
/// `merkle_proof_ssz`.
pub const PROOF_SSZ: OpSpec = proof_spec(Rule::Ssz);

const fn proof_spec(rule: Rule) -> OpSpec {
    OpSpec {
        op: Op::MerkleProof(rule),
        item: "inclusion proof of 20 siblings (self-test: trees of 1 to 300 leaves)",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: None,
        workload: match rule {
            Rule::SortedKeccak256 => |c| proof_workload(c, Rule::SortedKeccak256),
            Rule::Bitcoin => |c| proof_workload(c, Rule::Bitcoin),
            Rule::LeanImtPoseidon => |c| proof_workload(c, Rule::LeanImtPoseidon),
            Rule::Ssz => |c| proof_workload(c, Rule::Ssz),
        },
    }
}

/// The engine's input of a proofs workload.
type Proofs = (Rule, Option<u32>, FlatBytes);

/// Proofs of [`BENCH_DEPTH`] siblings in the padded tree the sample makes
/// (the bench), or of plain trees of 1 to 300 leaves (the self-test), with
/// hostile items at the configured share.
fn proof_workload(c: &WorkloadConfig, rule: Rule) -> Box<dyn Workload> {
    let depth = (!c.varied).then_some(BENCH_DEPTH);
    let made = sample::proofs(rule, c.n, c.seed, c.invalid_share, depth);
    let (items, expected) = crate::ops::made_batch(&made, |item| oracle::verify_proof(rule, depth, item));
    Box::new(Cases {
        len: items.len(),
        input: (rule, depth, items),
        expected,
        oracle: |(rule, depth, items): &Proofs| {
            for i in 0..items.len() {
                std::hint::black_box(oracle::verify_proof(*rule, *depth, items.get(i)));
            }
        },
        engine: |e: &Engine, (rule, depth, items): &Proofs| e.verify_merkle_proofs(*rule, *depth, items),
        same: |g: &Verdict, w: &Verdict| g == w,
        kernel: Some(|e: &Engine, (rule, depth, items): &Proofs, runs| {
            e.gpu_kernel_times(KernelWork::MerkleProof(*rule, *depth, items), runs)
        }),
        trivial: false,
        alternative: None,
    })
}
