//! `batchcrypto`: batch signature verification and hashing from the command
//! line. Line formats: ../shared/CLI-FORMATS.md, summarised in the README.
//! Exit status: 0 all lines well-formed, 2 some line malformed, 3 usage or
//! device error.

mod bench;
mod calibrate;
mod devices;
mod ecrecover;
mod evm;
mod hash;
mod interrupt;
mod limits;
mod lines;
mod merkle;
mod mlkem;
mod msm;
mod ntt;
mod output;
mod raw;
mod sample;
mod selftest;
mod verify;

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
    /// Merkle root of 32-byte leaves, one JSON line in per leaf, one line out.
    Merkle(merkle::Args),
    /// ML-KEM (FIPS 203) key generation, encapsulation and decapsulation, one JSON line per item.
    #[command(subcommand)]
    Mlkem(mlkem::Mlkem),
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
    /// Write a deterministic sample input (valid and hostile items) as JSON Lines.
    #[command(subcommand)]
    Sample(sample::Sample),
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

fn main() -> ExitCode {
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
    let result = match cli.command {
        Command::Verify(v) => verify::run(v),
        Command::Devices(a) => devices::run(a),
        Command::Hash(a) => hash::run(a),
        Command::Merkle(a) => merkle::run(a),
        Command::Mlkem(m) => mlkem::run(m),
        Command::Eip2537Pairing(a) => evm::run_eip2537_pairing(a),
        Command::Evm(a) => evm::run(a),
        Command::Ntt(a) => ntt::run(a),
        Command::Msm(a) => msm::run(a),
        Command::Ecrecover(a) => ecrecover::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Calibrate(a) => calibrate::run(a),
        Command::Sample(s) => sample::run(s),
        Command::Selftest(a) => selftest::run(a),
    };
    match result {
        Ok(code) => code,
        Err(Fatal(msg)) => {
            eprintln!("batchcrypto: error: {msg}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
