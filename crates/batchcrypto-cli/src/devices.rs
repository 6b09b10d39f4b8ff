//! `batchcrypto devices`: what the engine can use.

use std::process::ExitCode;

use batchcrypto::BackendChoice;

use crate::Fatal;

#[derive(clap::Args)]
pub struct Args {
    /// CPU threads the engine would use (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let engine = crate::engine(BackendChoice::Cpu, args.threads)?;
    for d in engine.devices() {
        let state = if d.usable { "usable" } else { "unavailable" };
        println!("{:<4} {:<11} {} — {}", d.backend.name(), state, d.name, d.detail);
    }
    Ok(ExitCode::SUCCESS)
}
