//! `batchcrypto devices`: what the engine can use, and the calibration
//! profile `--backend auto` follows.

use crate::output::outln;
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
        outln!("{:<4} {:<11} {} — {}", d.backend.name(), state, d.name, d.detail);
    }
    match batchcrypto::profile::Profile::default_path() {
        None => outln!("auto: no cache directory, so no calibration profile; auto uses the CPU"),
        Some(path) => match batchcrypto::profile::Profile::load(&path) {
            Ok(None) => outln!(
                "auto: no calibration profile at {} (run `batchcrypto calibrate`); auto uses the CPU",
                path.display()
            ),
            Ok(Some(p)) => outln!(
                "auto: {}
{}",
                path.display(),
                p.describe()
            ),
            Err(e) => outln!("auto: {e}; auto uses the CPU"),
        },
    }
    Ok(ExitCode::SUCCESS)
}
