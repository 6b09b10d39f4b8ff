//! Coverage-guided differential fuzzing of batchcrypto's CPU paths.
//!
//! Each target (`fuzz_targets/<name>.rs`, run with `cargo fuzz run <name>`
//! from `fuzz/`) reads libFuzzer's bytes as a batch, runs it through the
//! engine on the CPU, and compares every answer with the operation's
//! oracle crate, item by item and in number: a disagreement, a refused
//! well-formed batch or a panic is a crash that libFuzzer keeps. The
//! batches start from the sample generators' items (honest and hostile, so
//! that valid signatures are reachable at all) and the fuzzer's bytes edit
//! them: bytes flipped, set, stepped by up to 2 or set to a small value (a
//! recovery id, a flag), runs of bytes filled, fields cut or lengthened,
//! fields copied from another item (repeated keys and signatures exercise
//! the engine's key caches and batch verification's bisection).
//!
//! The CPU paths are not all the oracle: Ed25519 ZIP-215, sr25519 and BLS
//! verify in batches with random linear combinations and bisect failures;
//! ECDSA and BIP-340 keys and ML-DSA matrices are decoded once per batch;
//! hashes run in SIMD lanes grouped by block count; Merkle levels, the
//! NTTs' Montgomery representations and the EIP-2537 MSMs' Pippenger sums
//! are their own. Targets: [`signatures`], [`postquantum`], [`hashes`],
//! [`evm`], [`transforms`] (NTT and MSM), and [`columns`] (the bindings'
//! column layouts: no panic, one answer per item). The tests replay the
//! committed inputs of each (`crates/batchcrypto/tests/all/fuzz.rs`), also
//! on the GPU engine ([`answers`] then requires the GPU to have answered).
//! The [`gpu`] target runs the first five on a GPU engine in a campaign of
//! its own. The `cli` target (`src/cli.rs`, compiled into its entry point
//! only: it needs the CLI crate, feature `cli`) fuzzes the command line's
//! and the service's request path.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use arbitrary::Unstructured;
use batchcrypto::{Backend, BackendChoice, Engine, Outcome};

pub mod bitcoin_blocks;
pub mod columns;
pub mod evm;
pub mod gpu;
pub mod hashes;
pub mod postquantum;
pub mod signatures;
pub mod transforms;

/// The engine every target calls: the CPU path, without a calibration
/// profile, on two threads (so that batches also take the pool's route).
pub fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        Engine::builder()
            .backend(BackendChoice::Cpu)
            .without_profile()
            .threads(2)
            .build()
            .unwrap_or_else(|e| panic!("a CPU engine: {e}"))
    })
}

/// The most items a batch takes, whatever a target allows (see
/// [`cap_items`]).
static ITEM_CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Caps every batch at `cap` items from now on: the tests' replay keeps
/// each input's encodings and edits but not the long batches that reach
/// the batch checks (`bisect::decide` starts them after dozens of items),
/// which cost the campaigns' time, not the test suite's.
pub fn cap_items(cap: usize) {
    ITEM_CAP.store(cap, Ordering::Relaxed);
}

/// Items as fields of bytes (`items[i][f]`); `fixed[f]` says whether field
/// `f` has one width (a key or a signature array), which edits keep.
pub struct Fields {
    /// The items.
    pub items: Vec<Vec<Vec<u8>>>,
    /// Per field: whether its width is fixed.
    pub fixed: &'static [bool],
}

impl Fields {
    /// Up to 8 edits drawn from `u`, then the first `n` items (`n` drawn
    /// from `u`, at most `max`).
    pub fn edited(mut self, u: &mut Unstructured<'_>, max: usize) -> Self {
        let max = max.min(self.items.len()).min(ITEM_CAP.load(Ordering::Relaxed));
        let n = u.int_in_range(0..=max).unwrap_or(0);
        self.items.truncate(n);
        let edits = u.int_in_range(0..=8u8).unwrap_or(0);
        for _ in 0..edits {
            if self.edit(u).is_err() {
                break;
            }
        }
        self
    }

    fn edit(&mut self, u: &mut Unstructured<'_>) -> arbitrary::Result<()> {
        if self.items.is_empty() {
            return Ok(());
        }
        let i = u.choose_index(self.items.len())?;
        let f = u.choose_index(self.fixed.len())?;
        let kind = u.int_in_range(0..=8u8)?;
        let value = u.arbitrary::<u8>()?;
        let at = usize::from(u.arbitrary::<u16>()?);
        let fixed = self.fixed[f];
        if kind == 4 {
            // The field of another item (repeated keys, messages, signatures).
            let j = at % self.items.len();
            let other = self.items[j][f].clone();
            if !fixed || other.len() == self.items[i][f].len() {
                self.items[i][f] = other;
            }
            return Ok(());
        }
        let field = &mut self.items[i][f];
        let len = field.len();
        match kind {
            0 if len > 0 => field[at % len] ^= value.max(1),
            1 if len > 0 => field[at % len] = value,
            2 if !fixed => field.truncate(at % (len + 1)),
            3 if !fixed => field.extend(std::iter::repeat_n(value, 1 + at % 64)),
            5 => field.fill(value),
            6 if len > 0 => {
                // A run of equal bytes (a limb at zero or all ones).
                let start = at % len;
                let end = (start + 1 + usize::from(value % 32)).min(len);
                field[start..end].fill(if value & 0x80 == 0 { 0 } else { 0xff });
            }
            // One step across a boundary: a version or flag byte, a
            // scalar's last byte next to n or n / 2.
            7 if len > 0 => {
                let b = &mut field[at % len];
                *b = b.wrapping_add(value % 5).wrapping_sub(2);
            }
            // A small value (a recovery id, a flag, a length byte).
            8 if len > 0 => field[at % len] = value % 4,
            _ => {}
        }
        Ok(())
    }
}

/// `bytes` as an array of `N` (fields that edits keep at their width).
pub fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes
        .try_into()
        .unwrap_or_else(|_| panic!("a fixed field of {} bytes, expected {N}", bytes.len()))
}

/// Panics (a crash libFuzzer keeps) unless the engine gave one answer per
/// item and each equals the oracle's.
pub fn same<E: std::fmt::Debug + PartialEq>(what: &str, got: &[E], want: &[E]) {
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: {} answers for {} items",
        got.len(),
        want.len()
    );
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: item {i} of {}", want.len());
    }
}

thread_local! {
    /// The backends that may answer a GPU engine's calls on this thread
    /// (see [`on_gpu_expect`]).
    static ON_GPU: std::cell::Cell<&'static [Backend]> = const { std::cell::Cell::new(&[Backend::Gpu]) };
}

/// Sets which backends may answer a GPU engine's calls on this thread
/// (the GPU alone unless set: [`gpu`]'s split and fault modes widen it),
/// returning the previous set.
pub fn on_gpu_expect(backends: &'static [Backend]) -> &'static [Backend] {
    ON_GPU.with(|c| c.replace(backends))
}

/// The output of an engine call. A crash: an error for a well-formed
/// batch, and, on an engine that must run on the GPU, a batch the GPU did
/// not answer (the engine answered it on the CPU after a kernel or driver
/// failure that these inputs caused), unless [`on_gpu_expect`] allowed it.
pub fn answers<T>(engine: &Engine, got: Result<Outcome<T>, batchcrypto::Error>) -> T {
    let outcome = got.unwrap_or_else(|e| panic!("the engine refused a well-formed batch: {e}"));
    if engine.choice() == BackendChoice::Gpu {
        let expected = ON_GPU.with(std::cell::Cell::get);
        assert!(
            expected.contains(&outcome.selection.backend),
            "answered by {}, expected one of {expected:?}",
            outcome.selection
        );
    }
    outcome.output
}

/// [`answers`] for an operation that may have no GPU kernel
/// ([`batchcrypto::registry::OpSpec::gpu_kernel`]): the engine answers
/// such a batch on the CPU whatever the mode.
pub fn answers_of<T>(engine: &Engine, op: batchcrypto::Op, got: Result<Outcome<T>, batchcrypto::Error>) -> T {
    if batchcrypto::registry::spec(op).gpu_kernel {
        return answers(engine, got);
    }
    let outcome = got.unwrap_or_else(|e| panic!("the engine refused a well-formed batch: {e}"));
    assert_eq!(
        outcome.selection.backend,
        Backend::Cpu,
        "{op} has no kernel: {}",
        outcome.selection
    );
    outcome.output
}
