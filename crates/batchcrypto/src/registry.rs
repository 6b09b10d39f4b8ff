//! One declaration per operation: the table [`OPS`] that the engine's
//! dispatch, `bench`, `calibrate`, `selftest` and the CLI read, so that
//! adding an operation is its folder under `ops/`, one [`OpSpec`] here, and
//! its CLI line format.
//!
//! An [`OpSpec`] says what an operation is called (one name: bench rows,
//! profile keys, JSON, `--op`, selftest lines), which engine operation
//! ([`Op`]) it is, whether it has a GPU kernel and whether a batch can be
//! split between CPU and GPU, and how to make a deterministic [`Workload`]
//! of it: honest and hostile items from the op's sample generator with the
//! oracle's answers, which the bench times and every tool checks a backend
//! against, item by item and count included.
//!
//! Names: an operation's name is [`Op::name`]. A bench row of an operation
//! whose workload has a fixed message length appends it
//! ([`OpSpec::row_name`]: `keccak256_32`, as ../shared/CLI-FORMATS.md
//! names the rows); the profile is keyed by the operation's name.

use crate::backend::Selection;
use crate::engine::Engine;
use crate::error::Error;
use crate::ops::{
    Op, authority, bip340, bls, ecdsa, ed25519, evm, groth16, hash, kzg, merkle, mldsa, mlkem, mpt, msm, ntt,
    ordered_trie, poseidon, receipts, slhdsa, solana_tx, sr25519, tx_sender,
};

/// How a workload is made.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorkloadConfig {
    /// Items (for Merkle roots: leaves; for aggregates: keys).
    pub n: usize,
    /// Share of hostile items, 0 to 1 (ops whose items cannot be hostile ignore it).
    pub invalid_share: f64,
    /// Distinct honest signers (keys repeat, as in a validator set).
    pub signers: usize,
    /// Seed: the same config gives the same items everywhere.
    pub seed: u64,
    /// `false`: the bench's shape (fixed message lengths, at most a few
    /// thousand distinct signed items repeated, cheap to make); `true`: the
    /// self-test's (every message length up to past the hash rate blocks,
    /// every item distinct).
    pub varied: bool,
}

impl WorkloadConfig {
    /// How many distinct items to sign: the bench at most `cap` (signing
    /// costs more than verifying; they are repeated up to `n`), the
    /// self-test every one.
    pub fn distinct(&self, cap: usize) -> usize {
        if self.varied { self.n } else { self.n.clamp(1, cap) }
    }
}

/// A disagreement between a backend and the oracle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Items the backend answered (may differ from the count asked for).
    pub answered: usize,
    /// Items asked for.
    pub items: usize,
    /// Indices of the items whose answers differ (the first few).
    pub wrong: Vec<usize>,
    /// How many differ in all.
    pub wrong_count: usize,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.answered != self.items {
            return write!(f, "{} answers for {} items", self.answered, self.items);
        }
        write!(
            f,
            "{} of {} answers differ from the oracle (first: item {})",
            self.wrong_count,
            self.items,
            self.wrong.first().copied().unwrap_or(0)
        )
    }
}

/// Compares answers with the oracle's, count included.
pub(crate) fn compare<G, W>(got: &[G], want: &[W], same: impl Fn(&G, &W) -> bool) -> Result<(), Mismatch> {
    let wrong: Vec<usize> = got
        .iter()
        .zip(want)
        .enumerate()
        .filter(|(_, (g, w))| !same(g, w))
        .map(|(i, _)| i)
        .collect();
    if got.len() == want.len() && wrong.is_empty() {
        return Ok(());
    }
    Err(Mismatch {
        answered: got.len(),
        items: want.len(),
        wrong_count: wrong.len(),
        wrong: wrong.into_iter().take(8).collect(),
    })
}

/// What a check of a backend found.
#[derive(Debug)]
pub enum CheckError {
    /// The engine returned an error.
    Engine(Error),
    /// The answers differ from the oracle's.
    Mismatch(Mismatch),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Engine(e) => write!(f, "{e}"),
            CheckError::Mismatch(m) => write!(f, "{m}"),
        }
    }
}

impl From<Error> for CheckError {
    fn from(e: Error) -> Self {
        CheckError::Engine(e)
    }
}

impl From<Mismatch> for CheckError {
    fn from(m: Mismatch) -> Self {
        CheckError::Mismatch(m)
    }
}

/// The inputs of one operation and the oracle's answers for them.
pub trait Workload: Send + Sync {
    /// Items, in the unit the bench divides by.
    fn len(&self) -> usize;
    /// Whether it holds no item.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The oracle crate over every item on the calling thread (timed by
    /// the bench's `oracle_1t` column).
    fn run_oracle(&self);
    /// The engine over every item, results discarded (timed).
    fn run_engine(&self, engine: &Engine);
    /// The engine over every item, compared with the oracle's answers item
    /// by item and in number; the selection says where it ran.
    fn check(&self, engine: &Engine) -> Result<Selection, CheckError>;
    /// Kernel-only GPU times of `runs` runs (`None`: no kernel for this
    /// workload, e.g. a one-leaf tree or an op without a GPU kernel).
    fn kernel_times(&self, engine: &Engine, runs: usize) -> Result<Option<Vec<f64>>, Error>;
    /// The library a user would otherwise pick for this op, where it is not
    /// the oracle (the bench's `alt_1t` column; issue 19), e.g. `aws-lc-rs`
    /// for P-256.
    fn alternative(&self) -> Option<&'static str> {
        None
    }
    /// That library over every item on the calling thread (timed).
    fn run_alternative(&self) {}
    /// Whether the answer needs no computation (a one-leaf tree is its own
    /// root), so that every backend answers it on the CPU.
    fn trivial(&self) -> bool {
        false
    }
}

/// One operation's declaration.
#[derive(Debug, Clone, Copy)]
pub struct OpSpec {
    /// The engine operation (its [`Op::name`] is the op's name).
    pub op: Op,
    /// For reports: what one item is.
    pub item: &'static str,
    /// Whether the engine has a GPU kernel for it.
    pub gpu_kernel: bool,
    /// Whether a batch can be split between CPU and GPU (independent items
    /// with a GPU kernel; a Merkle root is one answer).
    pub splittable: bool,
    /// The fixed message length of its bench workload, if it has one.
    pub bench_msg_len: Option<usize>,
    /// Makes a workload.
    pub workload: fn(&WorkloadConfig) -> Box<dyn Workload>,
}

impl OpSpec {
    /// The operation's name.
    pub fn name(&self) -> &'static str {
        self.op.name()
    }

    /// Its name in bench rows: the name, and the message length where the
    /// workload fixes one (`keccak256_32`).
    pub fn row_name(&self) -> String {
        match self.bench_msg_len {
            Some(len) => format!("{}_{len}", self.name()),
            None => self.name().to_string(),
        }
    }
}

/// Every operation, in a stable order (the order of reports).
pub static OPS: [OpSpec; 88] = [
    ed25519::workload::STRICT,
    ed25519::workload::ZIP215,
    hash::workload::KECCAK256,
    hash::workload::SHA3_256,
    hash::workload::SHA256,
    merkle::workload::SORTED_KECCAK256,
    merkle::workload::BITCOIN,
    bls::workload::VERIFY,
    bls::workload::BATCH_VERIFY,
    bls::workload::AGGREGATE_VERIFY,
    bls::workload::FAST_AGGREGATE_VERIFY,
    bls::workload::EIP2537_PAIRING,
    ecdsa::workload::SECP256K1_VERIFY,
    ecdsa::workload::SECP256K1_VERIFY_LOW_S,
    ecdsa::workload::ECRECOVER,
    ecdsa::workload::ECRECOVER_LOW_S,
    ecdsa::workload::P256_VERIFY,
    bip340::workload::VERIFY,
    sr25519::workload::VERIFY,
    mldsa::workload::VERIFY_44,
    mldsa::workload::VERIFY_65,
    mldsa::workload::VERIFY_87,
    mlkem::workload::KEYGEN_512,
    mlkem::workload::KEYGEN_768,
    mlkem::workload::KEYGEN_1024,
    mlkem::workload::ENCAPS_512,
    mlkem::workload::ENCAPS_768,
    mlkem::workload::ENCAPS_1024,
    mlkem::workload::DECAPS_512,
    mlkem::workload::DECAPS_768,
    mlkem::workload::DECAPS_1024,
    evm::workload::BN256_ADD,
    evm::workload::BN256_MUL,
    evm::workload::BN256_PAIRING,
    evm::workload::G1MSM,
    evm::workload::G2MSM,
    evm::workload::G1ADD,
    evm::workload::G2ADD,
    evm::workload::MAP_G1,
    evm::workload::MAP_G2,
    evm::workload::POINT_EVALUATION,
    ntt::workload::BN254_FR,
    ntt::workload::BLS12_381_FR,
    ntt::workload::GOLDILOCKS,
    ntt::workload::GOLDILOCKS_NEGACYCLIC,
    ntt::workload::PRIME64_NEGACYCLIC,
    msm::workload::BN254_G1,
    msm::workload::BLS12_381_G1,
    msm::workload::BLS12_381_G2,
    kzg::workload::CELL_VERIFY,
    evm::workload::MODEXP,
    evm::workload::ECRECOVER,
    evm::workload::SHA256,
    evm::workload::RIPEMD160,
    evm::workload::IDENTITY,
    evm::workload::P256VERIFY,
    slhdsa::workload::VERIFY_SHA2_128S,
    slhdsa::workload::VERIFY_SHA2_128F,
    slhdsa::workload::VERIFY_SHA2_192S,
    slhdsa::workload::VERIFY_SHA2_192F,
    slhdsa::workload::VERIFY_SHA2_256S,
    slhdsa::workload::VERIFY_SHA2_256F,
    slhdsa::workload::VERIFY_SHAKE_128S,
    slhdsa::workload::VERIFY_SHAKE_128F,
    slhdsa::workload::VERIFY_SHAKE_192S,
    slhdsa::workload::VERIFY_SHAKE_192F,
    slhdsa::workload::VERIFY_SHAKE_256S,
    slhdsa::workload::VERIFY_SHAKE_256F,
    kzg::workload::COMPUTE_CELLS,
    kzg::workload::RECOVER_CELLS,
    poseidon::workload::POSEIDON_BN254,
    merkle::workload::LEAN_IMT_POSEIDON,
    groth16::workload::VERIFY_BN254,
    groth16::bls12_381::workload::VERIFY,
    hash::workload::BLAKE2B_256,
    hash::workload::BLAKE3,
    merkle::workload::PROOF_SORTED_KECCAK256,
    merkle::workload::PROOF_BITCOIN,
    merkle::workload::PROOF_LEAN_IMT_POSEIDON,
    merkle::workload::SSZ,
    merkle::workload::PROOF_SSZ,
    mpt::workload::MPT_PROOF,
    ordered_trie::workload::ORDERED_TRIE_ROOT,
    tx_sender::workload::TX_SENDER,
    authority::workload::EIP7702_AUTHORITY,
    receipts::workload::RECEIPTS_ROOT,
    solana_tx::workload::STRICT,
    solana_tx::workload::ZIP215,
];

/// The declaration of `op`.
pub fn spec(op: Op) -> &'static OpSpec {
    &OPS[position(op)]
}

/// Where `op` is declared in [`OPS`]: in the order of [`Op::ALL`] (a test
/// checks it).
pub(crate) fn position(op: Op) -> usize {
    op.position()
}

/// The operation named `name`, by its name or its bench row name.
pub fn by_name(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().find(|s| s.name() == name || s.row_name() == name)
}

/// An engine call on a workload's input.
pub(crate) type EngineCall<I, R> = fn(&Engine, &I) -> Result<crate::Outcome<Vec<R>>, Error>;
/// Kernel-only timing of `runs` runs on a workload's input.
pub(crate) type KernelCall<I> = fn(&Engine, &I, usize) -> Result<Vec<f64>, Error>;
/// Another CPU library's loop over a workload's input, with its name.
pub(crate) type Alternative<I> = (&'static str, fn(&I));

/// The usual workload: an input, the oracle's answers for it, and how to
/// run each side; answers compared one by one with `same`.
pub(crate) struct Cases<I, R, A> {
    /// The engine's input.
    pub input: I,
    /// Items, in the bench's unit.
    pub len: usize,
    /// The oracle's answers, one per result the engine gives.
    pub expected: Vec<A>,
    /// The oracle over every item, on the calling thread.
    pub oracle: fn(&I),
    /// The engine's call.
    pub engine: EngineCall<I, R>,
    /// Whether a result agrees with the oracle's answer.
    pub same: fn(&R, &A) -> bool,
    /// The kernel-only timing, where the op has a kernel (no times: no
    /// kernel ran).
    pub kernel: Option<KernelCall<I>>,
    /// See [`Workload::trivial`].
    pub trivial: bool,
    /// See [`Workload::alternative`]: its name and its loop over the input.
    pub alternative: Option<Alternative<I>>,
}

impl<I: Send + Sync, R, A: Send + Sync> Workload for Cases<I, R, A> {
    fn len(&self) -> usize {
        self.len
    }

    fn run_oracle(&self) {
        (self.oracle)(&self.input);
    }

    fn run_engine(&self, engine: &Engine) {
        std::hint::black_box((self.engine)(engine, &self.input).map(|o| o.output.len()).ok());
    }

    fn check(&self, engine: &Engine) -> Result<Selection, CheckError> {
        let outcome = (self.engine)(engine, &self.input)?;
        compare(&outcome.output, &self.expected, self.same)?;
        Ok(outcome.selection)
    }

    fn kernel_times(&self, engine: &Engine, runs: usize) -> Result<Option<Vec<f64>>, Error> {
        let times = self.kernel.map(|k| k(engine, &self.input, runs)).transpose()?;
        Ok(times.filter(|t| !t.is_empty()))
    }

    fn trivial(&self) -> bool {
        self.trivial
    }

    fn alternative(&self) -> Option<&'static str> {
        self.alternative.map(|(name, _)| name)
    }

    fn run_alternative(&self) {
        if let Some((_, run)) = self.alternative {
            run(&self.input);
        }
    }
}

/// Runs `run` on a pool of one thread (an oracle's single-thread timing:
/// arkworks' parallel code would take the whole pool), or on this thread
/// when no pool can be made.
pub(crate) fn on_one_thread(run: impl FnOnce() + Send) {
    match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// The first `n` items of `sample` (kinds dropped), repeated to `n` when
/// the sample is shorter.
pub(crate) fn cycle<T: Clone>(sample: &[(T, &'static str)], n: usize) -> Vec<T> {
    sample.iter().map(|(item, _)| item.clone()).cycle().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_declared_once_with_distinct_names() {
        for (i, op) in Op::ALL.into_iter().enumerate() {
            assert_eq!(OPS.iter().filter(|s| s.op == op).count(), 1, "{op}");
            assert_eq!((OPS[i].op, position(op)), (op, i), "OPS in the order of Op::ALL");
        }
        assert_eq!(OPS.len(), Op::ALL.len());
        let mut names: Vec<String> = OPS.iter().flat_map(|s| [s.name().to_string(), s.row_name()]).collect();
        names.sort();
        names.dedup();
        // A name and its row name coincide unless a length is appended.
        let lengths = OPS.iter().filter(|s| s.bench_msg_len.is_some()).count();
        assert_eq!(names.len(), OPS.len() + lengths);
        assert!(OPS.iter().all(|s| !s.splittable || s.gpu_kernel));
    }

    #[test]
    fn counts_are_part_of_the_comparison() {
        assert!(compare(&[1, 2], &[1, 2], |a, b| a == b).is_ok());
        let short = compare(&[1], &[1, 2], |a, b| a == b).expect_err("a dropped item");
        assert_eq!((short.answered, short.items), (1, 2));
        let wrong = compare(&[1, 3], &[1, 2], |a, b| a == b).expect_err("a wrong item");
        assert_eq!(wrong.wrong, vec![1]);
    }
}
