//! The GPU paths' target (`fuzz_targets/gpu.rs`, run with
//! `cargo fuzz run --features wgpu gpu`): an input's first byte picks one
//! of the CPU targets ([`TARGETS`], by the byte modulo their number) and
//! the rest is that target's input, run through its `check` on a GPU
//! engine; so the CPU campaigns' corpora seed it (`python3 seed_corpus.py
//! gpu`). Every answer is compared with the oracle item by item and in
//! number, and every call must have run on the GPU ([`answers`]: a kernel
//! or driver failure that the engine answered on the CPU is a crash too).
//!
//! libFuzzer's coverage is the host's side (decoding, packing, routing
//! by length and kind, reading results back); the kernels themselves are
//! not instrumented, so the campaign finds kernel disagreements by the
//! edits' variety, not by coverage. The bindings' columns target has no
//! engine parameter (its calls go through the bindings' own engine) and
//! is not here.

use batchcrypto::Engine;

use super::{evm, hashes, postquantum, signatures, transforms};

/// The targets in the order of the first byte's choice (`seed_corpus.py`
/// writes the same).
pub const TARGETS: [&str; 5] = ["signatures", "postquantum", "hashes", "evm", "transforms"];

/// One input on the GPU engine `e`; BLS12-381's signature inputs only
/// with `bls` (a BLS call costs seconds on a software GPU).
pub fn check(e: &Engine, data: &[u8], bls: bool) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match usize::from(which) % TARGETS.len() {
        0 if bls || !signatures::is_bls(rest) => signatures::check(e, rest),
        0 => {}
        1 => postquantum::check(e, rest),
        2 => hashes::check(e, rest),
        3 => evm::check(e, rest),
        _ => transforms::check(e, rest),
    }
}
