//! `batchcrypto devices`: what the engine can use.

use std::process::ExitCode;

use batchcrypto::Engine;

use crate::Fatal;

#[derive(clap::Args)]
pub struct Args {
    /// CPU threads the engine would use (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let mut builder = Engine::builder().backend(batchcrypto::BackendChoice::Cpu);
    if let Some(t) = args.threads {
        builder = builder.threads(t);
    }
    let engine = builder.build()?;
    for d in engine.devices() {
        let state = if d.usable { "usable" } else { "unavailable" };
        println!("{:<4} {:<11} {} — {}", d.backend.name(), state, d.name, d.detail);
    }
    Ok(ExitCode::SUCCESS)
}
