//! The fuzz targets (`fuzz/`, run with `cargo fuzz run <target>`) on
//! their committed inputs, so that what the campaigns found runs in every
//! test run: `fuzz/regressions/<target>.hex`, one input per line in hex,
//! each a campaign's minimised corpus plus every input that once failed.
//! Each input runs the target's own comparison with the oracle (the
//! targets' code is compiled in here as it is, from `fuzz/src`): on the
//! fuzzers' CPU engine as it is and in [`MUTANTS`] random variants (bytes
//! flipped, set, inserted, removed, copied), and on the GPU engine as it
//! is (through the `gpu` target's dispatch, `fuzz/src/gpu.rs`; every input
//! that once failed and every [`GPU_EVERY`]th of the corpus), every call
//! asserted to have run on the GPU.
//!
//! A corpus keeps inputs for the code they reach, not for the values that
//! break it: the variants widen it a little (a seeded ecrecover change
//! that a campaign found within seconds was found here with 30 variants
//! per input, not with 3), but finding is the campaigns' work, keeping
//! what they found is this module's. `BATCHCRYPTO_FUZZ_MUTANTS=n` and
//! `BATCHCRYPTO_FUZZ_SEED=s` replay more or other variants (a failure
//! names both, the line and the input).

use std::path::Path;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::support;

#[path = "../../../../fuzz/src/lib.rs"]
pub(crate) mod targets;

#[path = "../../../../fuzz/src/regressions.rs"]
mod regressions;

/// Variants of each committed input, unless the environment says.
const MUTANTS: usize = 4;
/// The GPU engine's replays take every input that once failed (above the
/// file's marker) and of the campaigns' corpus every this many, unless
/// `BATCHCRYPTO_FUZZ_GPU_EVERY` says (1: all). On lavapipe they cost
/// about 520 s of a cold run's test time on the 2-vCPU VM (2026-12-07:
/// `fuzz::gpu` 259 s), more than the CI's 30 minutes had room for (every
/// second input until the Bitcoin blocks' test dependency lengthened the
/// build, 2026-12-07: the rehearsal at 33.7 minutes); the CPU replays keep
/// every input, and tests/all's own modules hold every kernel to its
/// oracle on generated hostile items.
const GPU_EVERY: usize = 3;
/// The most items of a replayed batch (the campaigns' longer batches,
/// which reach the batch checks, cost minutes here; tests/all's own
/// modules check the batch checks with long batches).
const REPLAY_ITEMS: usize = 24;

/// `target`'s committed inputs and their variants through `run` (the
/// target on the fuzzers' CPU engine).
fn replay(target: &str, run: fn(&[u8])) {
    replay_on(target, run, |_| None, |_| true);
}

/// [`replay`] on a GPU engine (`None`: no adapter, skipped with a
/// notice), each committed input as it is, through the `gpu` fuzz target's
/// dispatch (`fuzz/src/gpu.rs`: the input behind the byte that picks
/// `target`, BLS12-381's inputs left out): the kernels against the oracles
/// on the inputs the CPU campaigns kept, every call asserted to have run on
/// the GPU.
fn replay_gpu(target: &str) {
    replay_gpu_of(target, |_| true);
}

/// [`replay_gpu`] of the inputs `keep` takes.
fn replay_gpu_of(target: &str, keep: impl Fn(&[u8]) -> bool) {
    let choice = targets::gpu::TARGETS
        .iter()
        .position(|&t| t == target)
        .unwrap_or_else(|| panic!("{target} is not one of the gpu target's"));
    let choice = u8::try_from(choice).expect("a byte");
    if let Some(gpu) = support::gpu_engine() {
        replay_on(
            target,
            |data| {
                if keep(data) {
                    targets::gpu::check(gpu, &[&[choice], data].concat(), false)
                }
            },
            |_| Some(0),
            gpu_share(target),
        );
    }
}

/// Which lines of `target`'s file the GPU replays take ([`GPU_EVERY`]).
fn gpu_share(target: &str) -> impl Fn(usize) -> bool {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../fuzz/regressions/{target}.hex"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let marker = 1 + text
        .lines()
        .position(|l| l.starts_with("# corpus:"))
        .unwrap_or_else(|| panic!("{target}.hex has no marker"));
    let every = std::env::var("BATCHCRYPTO_FUZZ_GPU_EVERY")
        .ok()
        .map(|v| {
            v.parse::<usize>()
                .unwrap_or_else(|e| panic!("BATCHCRYPTO_FUZZ_GPU_EVERY={v}: {e}"))
        })
        .unwrap_or(GPU_EVERY)
        .max(1);
    move |line| line < marker || (line - marker).is_multiple_of(every)
}

/// Runs `run` on every input of `fuzz/regressions/<target>.hex` whose
/// line `lines` takes and on `mutants(input)` variants of each (`None`:
/// `BATCHCRYPTO_FUZZ_MUTANTS`, else [`MUTANTS`]); a failure names the
/// line, the variant and its bytes.
fn replay_on(target: &str, run: impl Fn(&[u8]), mutants: impl Fn(&[u8]) -> Option<u64>, lines: impl Fn(usize) -> bool) {
    targets::cap_items(REPLAY_ITEMS);
    let number = |var: &str, default: u64| {
        std::env::var(var)
            .ok()
            .map(|v| v.parse::<u64>().unwrap_or_else(|e| panic!("{var}={v}: {e}")))
            .unwrap_or(default)
    };
    let default = number("BATCHCRYPTO_FUZZ_MUTANTS", MUTANTS as u64);
    let seed = number("BATCHCRYPTO_FUZZ_SEED", 1);
    let mut rng = StdRng::seed_from_u64(seed);
    let inputs = committed(target);
    assert!(!inputs.is_empty(), "{target}.hex holds no input");
    for (line, input) in inputs.into_iter().filter(|(line, _)| lines(*line)) {
        for variant in 0..=mutants(&input).unwrap_or(default) {
            let data = if variant == 0 {
                input.clone()
            } else {
                mutant(&input, &mut rng)
            };
            // The test fails at the first panic: nothing runs after it.
            let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&data)));
            assert!(
                ran.is_ok(),
                "{target}.hex line {line}, variant {variant} (seed {seed}, input {}): the target failed (above)",
                hex::encode(&data)
            );
        }
    }
}

/// The inputs of `fuzz/regressions/<target>.hex` with their line numbers
/// (`fuzz/src/regressions.rs`, which the CLI's replay reads them with too).
fn committed(target: &str) -> Vec<(usize, Vec<u8>)> {
    regressions::committed(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz"), target)
}

/// `input` with one to four random edits.
fn mutant(input: &[u8], rng: &mut StdRng) -> Vec<u8> {
    let mut m = input.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let at = rng.random_range(0..=m.len());
        match rng.random_range(0..5) {
            0 if at < m.len() => m[at] ^= 1 << rng.random_range(0..8),
            1 if at < m.len() => m[at] = rng.random(),
            2 => m.insert(at, rng.random()),
            3 if at < m.len() => {
                m.remove(at);
            }
            _ if !m.is_empty() => {
                // A copy of a run of the input elsewhere in it.
                let from = rng.random_range(0..m.len());
                let run: Vec<u8> = m[from..m.len().min(from + rng.random_range(1..=8))].to_vec();
                let at = at.min(m.len());
                m.splice(at..at, run);
            }
            _ => {}
        }
    }
    m
}

/// Groth16's inputs as they are, without variants: they took half of
/// this replay's time with them (a proof costs a millisecond, the oracle's
/// as much: 120 of 240 s on the 2-core VM), and tests/all/groth16.rs and
/// groth16_bls12_381.rs check both curves' paths on generated hostile
/// items.
#[test]
fn signatures() {
    replay_on(
        "signatures",
        targets::signatures::run,
        |input| targets::signatures::is_groth16(input).then_some(0),
        |_| true,
    );
}

#[test]
fn postquantum() {
    replay("postquantum", targets::postquantum::run);
}

#[test]
fn hashes() {
    replay("hashes", targets::hashes::run);
}

#[test]
fn evm() {
    replay("evm", targets::evm::run);
}

#[test]
fn transforms() {
    replay("transforms", targets::transforms::run);
}

#[test]
fn columns() {
    replay("columns", targets::columns::run);
}

/// BLS12-381's inputs left out: a BLS call costs seconds on lavapipe, and
/// tests/all/bls.rs checks every BLS operation's kernels against blst on
/// generated hostile items. Of Groth16's, over BN254 and BLS12-381 (a
/// proof costs about 20 ms there, 26 on BLS12-381: 389 inputs took two
/// minutes) every twelfth: tests/all/groth16.rs, groth16_bls12_381.rs and
/// gpu_driver.rs check both GPU paths on generated hostile items.
#[test]
fn signatures_on_the_gpu() {
    let seen = std::sync::atomic::AtomicUsize::new(0);
    replay_gpu_of("signatures", |data| {
        !targets::signatures::is_groth16(data)
            || seen
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                .is_multiple_of(12)
    });
}

#[test]
fn postquantum_on_the_gpu() {
    replay_gpu("postquantum");
}

#[test]
fn hashes_on_the_gpu() {
    replay_gpu("hashes");
}

#[test]
fn evm_on_the_gpu() {
    replay_gpu("evm");
}

#[test]
fn transforms_on_the_gpu() {
    replay_gpu("transforms");
}

/// The `gpu` target's own committed inputs (`fuzz/regressions/gpu.hex`:
/// what its campaigns kept beyond the CPU targets' inputs, in every mode)
/// on the GPU engine, each as it is.
#[test]
fn gpu() {
    if let Some(gpu) = support::gpu_engine() {
        replay_on(
            "gpu",
            |data| targets::gpu::check(gpu, data, false),
            |_| Some(0),
            gpu_share("gpu"),
        );
    }
}

/// The `gpu` target's other modes on the GPU engine, on the two longest
/// committed inputs of each target (the most items: several sub-batches;
/// BLS12-381's aside):
/// sub-batches of 3 items, half of a batch on the CPU, a fault in the
/// kernel of sub-batch 1 and in the upload of sub-batch 3. Each answer
/// equal to the oracle's and one per item, whichever backend answered
/// (campaigns: `cargo fuzz run --features wgpu gpu`).
#[test]
fn gpu_target_modes() {
    let Some(gpu) = support::gpu_engine() else {
        return;
    };
    targets::cap_items(REPLAY_ITEMS);
    let count = targets::gpu::TARGETS.len();
    for (target, name) in targets::gpu::TARGETS.iter().enumerate() {
        let mut inputs: Vec<Vec<u8>> = committed(name)
            .into_iter()
            .map(|(_, input)| input)
            // BLS12-381's are left out on lavapipe (seconds a call).
            .filter(|i| target != 0 || !targets::signatures::is_bls(i))
            .collect();
        inputs.sort_by_key(|i| std::cmp::Reverse(i.len()));
        // (mode, parameter byte): see fuzz/src/gpu.rs's Mode::new.
        for (mode, p) in [(1, 2u8), (2, 3), (3, 6), (3, 13)] {
            let which = u8::try_from(target + count * mode).expect("a byte");
            let expected = targets::gpu::Mode::new(which, p);
            assert_ne!(expected, targets::gpu::Mode::Plain);
            for input in inputs.iter().take(2) {
                let data = [&[which, p][..], input].concat();
                let ran =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| targets::gpu::check(gpu, &data, false)));
                assert!(ran.is_ok(), "{name} in {expected:?}: input {}", hex::encode(input));
            }
        }
    }
}
