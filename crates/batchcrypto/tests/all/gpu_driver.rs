//! The streaming GPU driver, through every operation with a kernel (the
//! registry's declarations): batches cut into many small sub-batches
//! (more than the driver keeps in flight, so lanes are reused) answer
//! exactly as the oracle; a failure injected at each stage (pack, upload,
//! kernel, readback) of a sub-batch (one operation per kind: parameter
//! sets share their code) keeps the answers of the sub-batches
//! before it and recomputes the rest on the CPU, none lost or twice, and
//! the selection says so, and the next call runs on the GPU again; several
//! threads calling one engine at once (one operation per kind) get the
//! oracle's answers; the bench's kernel-only timing runs over batches of
//! many sub-batches; a call that would wait past its limit for a kernel's
//! compile takes the CPU path, and the calls after the compile run on the
//! GPU.
//!
//! The sub-batch cap and the injected faults hold for the calls of the
//! thread that sets them, so these tests share the harness's GPU engine
//! (and its compiled pipelines) with the others.

use crate::support::gpu_engine as gpu;
use std::time::{Duration, Instant};

use batchcrypto::gpu::FaultStage;
use batchcrypto::registry::{OPS, OpSpec, WorkloadConfig};
use batchcrypto::{Backend, BackendChoice, Engine, Op};

/// Items per sub-batch in these tests.
const CAP: usize = 7;
/// Items per workload: five sub-batches (the last partial), more than
/// the driver keeps in flight (3), so that lanes are reused. Each
/// sub-batch of a pairing costs lavapipe about as much whatever its size
/// up to 8 items (one SIMD group), so these tests' time goes with their
/// number: five, not more, keeps the suite's time in check.
const N: usize = 4 * CAP + 5;

/// The operations with a GPU kernel whose items are the driver's units:
/// not EIP-7594's computing and recovery, whose every item is hundreds of
/// the MSM kernel's sums (at seven sums a sub-batch, a few blobs are
/// hundreds of dispatches; `tests/all/kzg_extend.rs` injects their faults).
fn kernel_ops() -> impl Iterator<Item = &'static OpSpec> {
    OPS.iter()
        .filter(|spec| spec.gpu_kernel && !matches!(spec.op, Op::KzgComputeCells | Op::KzgRecoverCells))
}

fn config() -> WorkloadConfig {
    config_of(N)
}

fn config_of(n: usize) -> WorkloadConfig {
    WorkloadConfig {
        n,
        invalid_share: 0.4,
        signers: 5,
        seed: 14,
        varied: true,
    }
}

#[test]
fn many_sub_batches_match_the_oracle() {
    let Some(engine) = gpu() else { return };
    engine.set_gpu_sub_batch_cap(Some(CAP));
    for spec in kernel_ops() {
        let work = (spec.workload)(&config());
        let selection = work.check(engine).unwrap_or_else(|e| panic!("{}: {e}", spec.name()));
        assert_eq!(selection.backend, Backend::Gpu, "{}: {selection}", spec.name());
    }
    engine.set_gpu_sub_batch_cap(None);
}

#[test]
fn kernel_timing_spans_many_sub_batches() {
    let Some(engine) = gpu() else { return };
    engine.set_gpu_sub_batch_cap(Some(CAP));
    // A sub-batch cut by item (hashes), by item with keys (Ed25519), by
    // polynomial (NTT), and a program of the tower machine in passes (the
    // EIP-2537 pairing's two stages); the batch is eight sub-batches.
    for name in [
        "keccak256_32",
        "ed25519_verify_strict",
        "ntt_goldilocks_16384",
        "eip2537_pairing",
    ] {
        let spec = OPS.iter().find(|s| s.row_name() == name).expect("a registry op");
        let work = (spec.workload)(&config());
        let times = work
            .kernel_times(engine, 3)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap_or_else(|| panic!("{name}: no kernel timing"));
        assert_eq!(times.len(), 3, "{name}");
        assert!(times.iter().all(|t| t.is_finite() && *t > 0.0), "{name}: {times:?}");
    }
    engine.set_gpu_sub_batch_cap(None);
}

#[test]
fn a_compile_past_its_wait_sends_the_call_to_the_cpu_and_later_calls_to_the_gpu() {
    if gpu().is_none() {
        return;
    }
    // An engine of its own: the harness's has its kernels compiled.
    let engine = Engine::builder()
        .backend(BackendChoice::Gpu)
        .build()
        .expect("the harness's adapter opens again");
    engine.set_gpu_compile_wait(Some(Duration::ZERO));
    let spec = OPS
        .iter()
        .find(|s| s.row_name() == "keccak256_32")
        .expect("a registry op");
    let work = (spec.workload)(&config());
    let first = work.check(&engine).expect("the oracle's answers");
    assert_eq!(first.backend, Backend::Cpu, "{first}");
    assert!(first.why.contains("not done after 0 s"), "{first}");
    // The compile goes on; once it is done the calls run on the GPU.
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let later = work.check(&engine).expect("the oracle's answers");
        if later.backend == Backend::Gpu {
            break;
        }
        assert!(later.why.contains("not done after 0 s"), "{later}");
        assert!(Instant::now() < deadline, "the compile never finished: {later}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// One operation per kind (`Op`'s variant): the parameter sets and rules
/// of a kind share their kernel and host code, so their failures take the
/// same path through the driver.
fn one_op_per_kind() -> impl Iterator<Item = &'static OpSpec> {
    let mut seen = Vec::new();
    kernel_ops().filter(move |spec| {
        let kind = std::mem::discriminant(&spec.op);
        let first = !seen.contains(&kind);
        seen.push(kind);
        first
    })
}

#[test]
fn a_fault_at_each_stage_keeps_the_work_before_it_and_recomputes_the_rest() {
    let Some(engine) = gpu() else { return };
    engine.set_gpu_sub_batch_cap(Some(CAP));
    // Poseidon runs each width's items apart, Groth16 its items' pairing
    // checks and Merkle proofs their paths with some items answered on
    // the host, trie proofs their nodes, ordered tries a run per height
    // (and receipts one for their logs before), transactions (Ethereum's
    // and Solana's) and EIP-7702 authorizations their signatures with
    // those that do not decode answered on the host (see the test below).
    for spec in one_op_per_kind().filter(|s| {
        !matches!(
            s.op,
            Op::PoseidonBn254
                | Op::Groth16VerifyBn254
                | Op::Groth16VerifyBls12381
                | Op::MerkleProof(_)
                | Op::MptProof
                | Op::OrderedTrieRoot
                | Op::TxSender
                | Op::Eip7702Authority
                | Op::ReceiptsRoot
                | Op::SolanaTxVerify(_)
        )
    }) {
        let work = (spec.workload)(&config());
        // After each stage's faults the next call runs on the GPU again
        // (one sub-batch's items: whether it runs there is the point).
        let again_work = (spec.workload)(&config_of(CAP));
        // A Merkle tree is one unit: only its first sub-batch can fail.
        let positions: &[usize] = if spec.splittable { &[0, 3, N / CAP] } else { &[0] };
        for stage in [
            FaultStage::Pack,
            FaultStage::Upload,
            FaultStage::Kernel,
            FaultStage::Readback,
        ] {
            for &at in positions {
                let case = format!("{} {stage:?} at sub-batch {at}", spec.name());
                assert!(engine.inject_gpu_fault_at(stage, at));
                // The answers are the oracle's, item by item and in number.
                let selection = work.check(engine).unwrap_or_else(|e| panic!("{case}: {e}"));
                if at == 0 {
                    assert_eq!(selection.backend, Backend::Cpu, "{case}: {selection}");
                    assert!(selection.why.contains("fell back to cpu"), "{case}: {selection}");
                } else {
                    assert_eq!(selection.backend, Backend::Split, "{case}: {selection}");
                    let kept = at * CAP;
                    assert!(
                        selection
                            .why
                            .contains(&format!("gpu failed after {kept} of its {N} items")),
                        "{case}: {selection}"
                    );
                    assert!(
                        selection.why.contains(&format!("the cpu ran the other {}", N - kept)),
                        "{case}: {selection}"
                    );
                }
                // A kernel that never ran is caught by the completion flags.
                let cause = if stage == FaultStage::Kernel {
                    "gpu failed"
                } else {
                    "injected fault"
                };
                assert!(selection.why.contains(cause), "{case}: {selection}");
            }
            let again = again_work
                .check(engine)
                .unwrap_or_else(|e| panic!("{} after {stage:?}: {e}", spec.name()));
            assert_eq!(again.backend, Backend::Gpu, "{} after {stage:?}: {again}", spec.name());
        }
    }
    engine.set_gpu_sub_batch_cap(None);
}

/// The operations whose GPU path is not one driver run in item order:
/// MODEXP (its calls ordered by width and exponent, one run per width),
/// Poseidon (one run per width) and the operations run on another
/// operation's kernel (ECRECOVER, SHA256, P256VERIFY, and Groth16 on
/// ECPAIRING's and on EIP-2537's pairing), Merkle proofs (items read
/// on the host, some answered there), trie proofs (their nodes the
/// hashing kernel's units, each item answered once all its nodes are
/// hashed), ordered tries (a kernel run per height of the tries, an
/// item answered once its root is hashed) and receipts (a run for their
/// logs, then their tries'), Solana transactions (their signatures the
/// Ed25519 kernel's units, a transaction answered once all its
/// signatures are). A fault at
/// any stage leaves every answer the oracle's: at the first sub-batch
/// all on the CPU, at the second the calls answered before it kept and
/// the rest on the CPU (MODEXP keeps the answers before its first call
/// still waiting, in call order: often none, as its runs are in another
/// order; Groth16 none when the fault is in the Miller loops' stage, which
/// runs every pair before any item's final exponentiation; ordered tries
/// none when it is in the run of their leaves, before any root, but the
/// items at the front answered without a run: no values, or no layout).
#[test]
fn ops_on_other_paths_recover_from_faults() {
    let Some(engine) = gpu() else { return };
    engine.set_gpu_sub_batch_cap(Some(CAP));
    for name in [
        "modexp",
        "poseidon_bn254",
        "evm_ecrecover",
        "evm_sha256",
        "evm_p256verify",
        "groth16_verify_bn254",
        "groth16_verify_bls12_381",
        "merkle_proof_keccak256",
        "merkle_proof_poseidon",
        "mpt_proof",
        "ordered_trie_root",
        "tx_sender",
        "eip7702_authority",
        "receipts_root",
        "solana_tx_verify_strict",
    ] {
        let spec = OPS.iter().find(|s| s.name() == name).expect("a registry op");
        // Enough calls for three sub-batches of MODEXP's first width, and
        // items for two of Poseidon's first (every twelfth item has one input).
        let n = if name == "poseidon_bn254" { 16 * CAP } else { 8 * CAP };
        let work = (spec.workload)(&config_of(n));
        for stage in [
            FaultStage::Pack,
            FaultStage::Upload,
            FaultStage::Kernel,
            FaultStage::Readback,
        ] {
            for (at, backend) in [(0, Backend::Cpu), (1, Backend::Split)] {
                let case = format!("{name} {stage:?} at sub-batch {at}");
                assert!(engine.inject_gpu_fault_at(stage, at));
                let selection = work.check(engine).unwrap_or_else(|e| panic!("{case}: {e}"));
                // MODEXP's runs are in another order than its calls, and
                // Groth16's pairing checks finish no item before every
                // pair's Miller loop ran, ordered tries no root before
                // their leaves, receipts none before all their logs: a
                // later fault may keep none.
                let reordered = matches!(
                    name,
                    "modexp"
                        | "groth16_verify_bn254"
                        | "groth16_verify_bls12_381"
                        | "ordered_trie_root"
                        | "receipts_root"
                ) && selection.backend == Backend::Cpu;
                // Ordered tries answer items without values or that do not
                // read before any run: those at the front are kept.
                let kept_unhashed = name == "ordered_trie_root" && selection.backend == Backend::Split;
                assert!(
                    selection.backend == backend || reordered || kept_unhashed,
                    "{case}: {selection}"
                );
            }
        }
        let again = work.check(engine).unwrap_or_else(|e| panic!("{name} again: {e}"));
        assert_eq!(again.backend, Backend::Gpu, "{name} again: {again}");
    }
    engine.set_gpu_sub_batch_cap(None);
}

#[test]
fn concurrent_calls_on_one_engine_match_the_oracle() {
    let Some(engine) = gpu() else { return };
    let works: Vec<_> = one_op_per_kind()
        .filter(|spec| spec.splittable)
        .map(|spec| (spec.name(), (spec.workload)(&config())))
        .collect();
    std::thread::scope(|scope| {
        for thread in 0..4 {
            let works = &works;
            scope.spawn(move || {
                engine.set_gpu_sub_batch_cap(Some(CAP));
                for (name, work) in works.iter().cycle().skip(thread).take(works.len()) {
                    let selection = work
                        .check(engine)
                        .unwrap_or_else(|e| panic!("thread {thread}, {name}: {e}"));
                    assert_eq!(selection.backend, Backend::Gpu, "thread {thread}, {name}: {selection}");
                }
                engine.set_gpu_sub_batch_cap(None);
            });
        }
    });
}

/// A fault injected and a cap set on one thread leave the calls of other
/// threads on the same engine alone.
#[test]
fn faults_and_caps_stay_on_their_thread() {
    let Some(engine) = gpu() else { return };
    let spec = kernel_ops()
        .find(|s| s.splittable)
        .expect("a splittable op with a kernel");
    let work = (spec.workload)(&config());
    engine.set_gpu_sub_batch_cap(Some(CAP));
    assert!(engine.inject_gpu_fault_at(FaultStage::Pack, 0));
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let selection = work.check(engine).unwrap_or_else(|e| panic!("other thread: {e}"));
            assert_eq!(selection.backend, Backend::Gpu, "other thread: {selection}");
        });
    });
    let selection = work.check(engine).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(selection.backend, Backend::Cpu, "{selection}");
    assert!(selection.why.contains("injected fault"), "{selection}");
    // The cap still holds here: a fault at sub-batch 3 keeps 3 CAP items.
    assert!(engine.inject_gpu_fault_at(FaultStage::Pack, 3));
    let selection = work.check(engine).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(selection.backend, Backend::Split, "{selection}");
    assert!(
        selection
            .why
            .contains(&format!("gpu failed after {} of its {N} items", 3 * CAP)),
        "{selection}"
    );
    engine.set_gpu_sub_batch_cap(None);
}
