//! The GPU paths' target (`fuzz_targets/gpu.rs`, run with
//! `cargo fuzz run --features wgpu gpu`): an input's first byte picks one
//! of the CPU targets ([`TARGETS`], by the byte modulo their number) and a
//! [`Mode`] of the engine's GPU path; the rest is that target's input
//! (after one parameter byte in the modes other than the plain one), run
//! through its `check` on a GPU engine. Bytes 0 to 4 are the plain mode,
//! so the CPU campaigns' corpora seed it as they are (`python3
//! seed_corpus.py gpu`). Every answer is compared with the oracle item by
//! item and in number; in the plain and streamed modes every call must
//! have run on the GPU ([`answers`]: a kernel or driver failure that the
//! engine answered on the CPU is a crash too).
//!
//! The modes are the engine's test hooks, set for the calling thread only
//! and undone after the input: many small sub-batches through the
//! streaming driver (several in flight, packed while others run); the
//! split of a batch between the CPU and the GPU (answers concatenated in
//! order); and a fault injected at one stage (pack, upload, kernel,
//! readback) of one sub-batch, after which the answers of the sub-batches
//! decoded before it are kept and the rest computed on the CPU: none lost,
//! none twice.
//!
//! libFuzzer's coverage is the host's side (decoding, packing, routing
//! by length and kind, reading results back); the kernels themselves are
//! not instrumented, so the campaign finds kernel disagreements by the
//! edits' variety, not by coverage. The bindings' columns target has no
//! engine parameter (its calls go through the bindings' own engine) and
//! is not here.

use batchcrypto::gpu::FaultStage;
use batchcrypto::{Backend, Engine};

use super::{evm, hashes, on_gpu_expect, postquantum, signatures, transforms};

/// The targets in the order of the first byte's choice (`seed_corpus.py`
/// writes the same).
pub const TARGETS: [&str; 5] = ["signatures", "postquantum", "hashes", "evm", "transforms"];

/// How the engine runs an input's calls (the first byte divided by the
/// number of targets, modulo 4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// As it is.
    Plain,
    /// Sub-batches of at most this many items (1 to 8).
    Streamed(usize),
    /// The CPU takes this share of a splittable batch (1/8 to 7/8), the
    /// GPU the rest, at once.
    Split(f64),
    /// Sub-batches of at most 4 items, the first call failing at this
    /// stage of this sub-batch (0 to 3).
    Fault(FaultStage, usize),
}

const STAGES: [FaultStage; 4] = [
    FaultStage::Pack,
    FaultStage::Upload,
    FaultStage::Kernel,
    FaultStage::Readback,
];

impl Mode {
    /// The mode the first byte `which` and the parameter byte `p` say.
    pub fn new(which: u8, p: u8) -> Self {
        match (usize::from(which) / TARGETS.len()) % 4 {
            0 => Mode::Plain,
            1 => Mode::Streamed(1 + usize::from(p % 8)),
            2 => Mode::Split(f64::from(1 + p % 7) / 8.0),
            _ => Mode::Fault(STAGES[usize::from(p % 4)], usize::from((p / 4) % 4)),
        }
    }
}

/// Undoes a mode's settings when the input ends (also when it panics, so
/// that the tests' replay, which goes on after a failure, starts clean).
struct Settings<'a> {
    engine: &'a Engine,
    expected: &'static [Backend],
}

impl Drop for Settings<'_> {
    fn drop(&mut self) {
        self.engine.set_gpu_sub_batch_cap(None);
        self.engine.set_split_share(None);
        // A fault not reached stays armed for this thread's later calls:
        // one at a sub-batch no call reaches takes its place.
        self.engine.inject_gpu_fault_at(FaultStage::Pack, usize::MAX);
        on_gpu_expect(self.expected);
    }
}

/// One input on the GPU engine `e`; BLS12-381's signature inputs only
/// with `bls` (a BLS call costs seconds on a software GPU).
pub fn check(e: &Engine, data: &[u8], bls: bool) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let (mode, rest) = match rest.split_first() {
        Some((&p, tail)) if Mode::new(which, p) != Mode::Plain => (Mode::new(which, p), tail),
        _ => (Mode::Plain, rest),
    };
    let target = usize::from(which) % TARGETS.len();
    if target == 0 && !bls && signatures::is_bls(rest) {
        return;
    }
    let _settings = Settings {
        engine: e,
        expected: on_gpu_expect(match mode {
            Mode::Plain | Mode::Streamed(_) => &[Backend::Gpu],
            // Operations that do not split run on the GPU alone.
            Mode::Split(_) => &[Backend::Split, Backend::Gpu],
            Mode::Fault(..) => &[Backend::Gpu, Backend::Cpu, Backend::Split],
        }),
    };
    match mode {
        Mode::Plain => {}
        Mode::Streamed(cap) => e.set_gpu_sub_batch_cap(Some(cap)),
        Mode::Split(share) => e.set_split_share(Some(share)),
        Mode::Fault(stage, sub_batch) => {
            e.set_gpu_sub_batch_cap(Some(4));
            e.inject_gpu_fault_at(stage, sub_batch);
        }
    }
    match target {
        0 => signatures::check(e, rest),
        1 => postquantum::check(e, rest),
        2 => hashes::check(e, rest),
        3 => evm::check(e, rest),
        _ => transforms::check(e, rest),
    }
}
