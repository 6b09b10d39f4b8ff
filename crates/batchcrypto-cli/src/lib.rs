//! `batchcrypto`: batch signature verification and hashing from the command
//! line. Line formats: ../shared/CLI-FORMATS.md, summarised in the README.
//! Exit status: 0 all lines well-formed, 2 some line malformed, 3 usage or
//! device error.
//!
//! A library with a binary (`src/main.rs` calls [`main`]) so that the
//! service's request path can be fuzzed in-process: `fuzzing` exports
//! it (with the `serve` feature) to the `cli` fuzz target and its replay
//! test. The command line is the interface: what else is public here is
//! so for those two, not a library API.

mod authority;
mod bench;
mod bitcoin_block;
mod block;
mod calibrate;
mod devices;
mod ecrecover;
mod evm;
mod hash;
mod interrupt;
mod kzg;
mod limits;
mod lines;
mod merkle;
mod mlkem;
mod msm;
mod ntt;
mod output;
mod poseidon;
mod raw;
mod receipts;
mod sample;
mod selftest;
#[cfg(feature = "serve")]
mod serve;
mod steal;
mod trie_root;
mod tx_sender;
mod verify;

#[cfg(feature = "serve")]
pub use serve::fuzzing;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit status when at least one input line was malformed.
const EXIT_MALFORMED: u8 = 2;
/// Exit status for usage, I/O and device errors.
const EXIT_USAGE: u8 = 3;

#[derive(Parser)]
#[command(
    name = "batchcrypto",
    version,
    about = "Batch signature verification, ecrecover, hashing and Merkle roots on CPU cores and GPUs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Verify signatures, one JSON line in, one JSON line out.
    #[command(subcommand)]
    Verify(verify::Verify),
    /// Hash byte strings, one JSON line in, one digest line out.
    Hash(hash::Args),
    /// Ethereum's ecrecover: the address and public key of each signature.
    Ecrecover(ecrecover::Args),
    /// The EIP-2537 BLS12-381 pairing-check precompile, one call per JSON line.
    #[command(name = "eip2537-pairing")]
    Eip2537Pairing(evm::PairingArgs),
    /// EVM precompiles (EIP-196/197 BN254 add, mul, pairing; EIP-2537 G1/G2 MSM), one call per JSON line.
    Evm(evm::Args),
    /// EIP-7594 blobs: commitments, cells and proofs of blobs, and cells and proofs recovered from half, one JSON line per item.
    #[command(subcommand)]
    Kzg(kzg::Kzg),
    /// Merkle root of 32-byte leaves, one JSON line in per leaf, one line out.
    Merkle(merkle::Args),
    /// ML-KEM (FIPS 203) key generation, encapsulation and decapsulation, one JSON line per item.
    #[command(subcommand)]
    Mlkem(mlkem::Mlkem),
    /// Poseidon hashes over BN254's scalar field (circom's parameters): in {"inputs":[1 to 12 elements]}, out {"hash"} or {"hash":null,"reason"}.
    Poseidon(lines::VerbArgs),
    /// Roots of Ethereum's ordered tries (a block's transactions, receipts or withdrawals root): in {"values":[hex, ...]}, out {"root"} or {"root":null,"reason"}.
    #[command(name = "trie-root")]
    TrieRoot(lines::VerbArgs),
    /// Blocks' receipts checked (eth_getBlockReceipts' objects or raw EIP-2718 bytes): in {"receipts":[...]}, out {"root","logsBloom"} (a header's receiptsRoot and logsBloom) or {"root":null,"reason","receipt"}.
    #[command(name = "receipts-root")]
    ReceiptsRoot(lines::VerbArgs),
    /// Senders of Ethereum transactions (EIP-2718 types 0-4, EIP-2's low s): in {"tx":hex}, out {"sender"} or {"sender":null,"reason"}.
    #[command(name = "tx-sender")]
    TxSender(lines::VerbArgs),
    /// Authorities of EIP-7702 authorizations (EIP-7702's low s): in {"chainId","address","nonce","yParity","r","s"}, out {"authority"} or {"authority":null,"reason"}.
    #[command(name = "eip7702-authority")]
    Eip7702Authority(lines::VerbArgs),
    /// Number-theoretic transforms of polynomials in a binary file (BN254/BLS12-381 scalar fields, Goldilocks).
    Ntt(ntt::Args),
    /// One multi-scalar multiplication of binary files of points and scalars (BN254 G1, BLS12-381 G1/G2).
    Msm(msm::Args),
    /// List the CPU and GPU devices the engine can use.
    Devices(devices::Args),
    /// Measure per-item time of the oracle and of each backend over batch sizes.
    Bench(bench::Args),
    /// Measure a short ladder and write the profile `--backend auto` follows.
    Calibrate(calibrate::Args),
    /// Compare every backend and GPU adapter with the oracle on a few hundred mixed items.
    Selftest(selftest::Args),
    /// Serve every operation over HTTP and gRPC, batching concurrent requests together.
    #[cfg(feature = "serve")]
    Serve(serve::Args),
    /// Load-test `serve`: many clients' small requests against the CLI path's batch throughput.
    #[cfg(feature = "serve")]
    #[command(name = "bench-serve")]
    BenchServe(serve::load::Args),
    /// Write a deterministic sample input (valid and hostile items) as JSON Lines.
    #[command(subcommand)]
    Sample(sample::Sample),
}

impl Command {
    /// The JSON Lines job of a line verb (one output line per input line)
    /// or of `merkle` (all input lines one tree), or the command back when
    /// it is another kind of verb.
    fn line_job(self) -> Result<lines::LineJob, Box<Command>> {
        match self {
            Command::Verify(v) => Ok(verify::job(v)),
            Command::Hash(a) => hash::job(a).map_err(|a| Box::new(Command::Hash(a))),
            Command::Ecrecover(a) => Ok(ecrecover::job(a)),
            Command::Eip2537Pairing(a) => Ok(evm::eip2537_pairing_job(a)),
            Command::Evm(a) => Ok(evm::job(a)),
            Command::Mlkem(m) => Ok(mlkem::job(m)),
            Command::Kzg(k) => Ok(kzg::job(k)),
            Command::Poseidon(a) => Ok(poseidon::job(a)),
            Command::TrieRoot(a) => Ok(trie_root::job(a)),
            Command::ReceiptsRoot(a) => Ok(receipts::job(a)),
            Command::TxSender(a) => Ok(tx_sender::job(a)),
            Command::Eip7702Authority(a) => Ok(authority::job(a)),
            Command::Merkle(a) => Ok(merkle::job(a)),
            other => Err(Box::new(other)),
        }
    }

    /// The verb's name on the command line.
    fn name(&self) -> &'static str {
        match self {
            Command::Verify(_) => "verify",
            Command::Hash(_) => "hash",
            Command::Ecrecover(_) => "ecrecover",
            Command::Eip2537Pairing(_) => "eip2537-pairing",
            Command::Evm(_) => "evm",
            Command::Merkle(_) => "merkle",
            Command::Mlkem(_) => "mlkem",
            Command::Kzg(_) => "kzg",
            Command::Poseidon(_) => "poseidon",
            Command::TrieRoot(_) => "trie-root",
            Command::ReceiptsRoot(_) => "receipts-root",
            Command::TxSender(_) => "tx-sender",
            Command::Eip7702Authority(_) => "eip7702-authority",
            Command::Ntt(_) => "ntt",
            Command::Msm(_) => "msm",
            Command::Devices(_) => "devices",
            Command::Bench(_) => "bench",
            Command::Calibrate(_) => "calibrate",
            Command::Selftest(_) => "selftest",
            Command::Sample(_) => "sample",
            #[cfg(feature = "serve")]
            Command::Serve(_) => "serve",
            #[cfg(feature = "serve")]
            Command::BenchServe(_) => "bench-serve",
        }
    }
}

/// A failure that ends the run with exit status 3.
#[derive(Debug)]
pub struct Fatal(pub String);

impl<E: std::fmt::Display> From<E> for Fatal {
    fn from(e: E) -> Self {
        Fatal(e.to_string())
    }
}

/// `--backend` and `--threads`, shared by the verbs that run an engine.
#[derive(clap::Args)]
pub struct EngineArgs {
    /// auto, cpu or gpu.
    #[arg(long, default_value = "auto")]
    pub backend: batchcrypto::BackendChoice,
    /// CPU threads (default: all cores), 1 to 1024.
    #[arg(long, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_THREADS }>)]
    pub threads: Option<usize>,
}

impl EngineArgs {
    /// The engine these arguments ask for.
    pub fn engine(&self) -> Result<batchcrypto::Engine, Fatal> {
        engine(self.backend, self.threads)
    }
}

/// Builds the engine for a verb; an unusable backend becomes exit status 3.
pub fn engine(backend: batchcrypto::BackendChoice, threads: Option<usize>) -> Result<batchcrypto::Engine, Fatal> {
    let mut builder = batchcrypto::Engine::builder().backend(backend);
    if let Some(t) = threads {
        builder = builder.threads(t);
    }
    Ok(builder.build()?)
}

/// The `batchcrypto` command: parses the process's arguments, runs the verb
/// and returns its exit status (the binary's `main` is this).
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let usage = e.use_stderr();
            let _ = e.print();
            return if usage {
                ExitCode::from(EXIT_USAGE)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let result = match cli.command.line_job().map_err(|c| *c) {
        Ok(job) => job.run(),
        Err(Command::Hash(a)) => hash::run_raw(a),
        Err(Command::Devices(a)) => devices::run(a),
        Err(Command::Ntt(a)) => ntt::run(a),
        Err(Command::Msm(a)) => msm::run(a),
        Err(Command::Bench(a)) => bench::run(a),
        Err(Command::Calibrate(a)) => calibrate::run(a),
        Err(Command::Sample(s)) => sample::run(s),
        Err(Command::Selftest(a)) => selftest::run(a),
        #[cfg(feature = "serve")]
        Err(Command::Serve(a)) => serve::run(a),
        #[cfg(feature = "serve")]
        Err(Command::BenchServe(a)) => serve::load::run(a),
        Err(other) => Err(Fatal(format!("internal: no runner for the line verb {}", other.name()))),
    };
    match result {
        Ok(code) => code,
        Err(Fatal(msg)) => {
            eprintln!("batchcrypto: error: {msg}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
