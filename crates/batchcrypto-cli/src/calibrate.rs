//! `batchcrypto calibrate`: a short bench ladder of every operation on the
//! CPU path and on the GPU, turned into the profile that `--backend auto`
//! follows (see `batchcrypto::profile`): per operation the crossover N*,
//! items/s of each backend at each size, and a CPU+GPU split where one
//! measured faster than the GPU alone. Written to the user's cache
//! directory (or `--output`); `batchcrypto devices` shows it.

use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::ladder::{Calibration, calibrate};
use batchcrypto::profile::Profile;
use batchcrypto::{BackendChoice, Engine};

use crate::Fatal;
use crate::bench::{parse_ops, rfc3339_now};
use crate::output::outln;

#[derive(clap::Args)]
pub struct Args {
    /// Operations, comma-separated bench names (default: all).
    #[arg(long, value_delimiter = ',')]
    op: Vec<String>,
    /// Batch sizes of the ladder, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "64,256,1024,4096,16384,65536",
          value_parser = crate::limits::in_range::<1, { crate::limits::MAX_ITEMS }>)]
    sizes: Vec<usize>,
    /// Time budget in seconds; larger sizes are cut to fit.
    #[arg(long, default_value_t = 60.0, value_parser = crate::limits::seconds)]
    max_seconds: f64,
    /// CPU threads (default: all cores), 1 to 1024.
    #[arg(long, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_THREADS }>)]
    threads: Option<usize>,
    /// The GPU adapter to calibrate, by a substring of its name (default: the best).
    #[arg(long)]
    adapter: Option<String>,
    /// Where to write the profile (default: $BATCHCRYPTO_PROFILE, else the cache directory).
    #[arg(long)]
    output: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let path = args.output.clone().or_else(Profile::default_path).ok_or_else(|| {
        Fatal("no cache directory (set HOME, XDG_CACHE_HOME or BATCHCRYPTO_PROFILE, or pass --output)".to_string())
    })?;
    let cpu = crate::engine(BackendChoice::Cpu, args.threads)?;
    let mut builder = Engine::builder().backend(BackendChoice::Gpu);
    if let Some(a) = &args.adapter {
        builder = builder.adapter(a.clone());
    }
    if let Some(t) = args.threads {
        builder = builder.threads(t);
    }
    let gpu = builder
        .build()
        .inspect_err(|e| eprintln!("calibrate: no GPU ({e}); the profile will send everything to the CPU"))
        .ok();
    // Operations without a GPU kernel always run on the CPU: the library
    // leaves them out.
    let profile = calibrate(&Calibration {
        ops: parse_ops(&args.op)?,
        sizes: args.sizes.clone(),
        cpu: &cpu,
        gpu: gpu.as_ref(),
        max_seconds: args.max_seconds,
        created: rfc3339_now(),
        commit: env!("BATCHCRYPTO_COMMIT").to_string(),
        progress: &|line| eprintln!("{line}"),
    })?;
    profile.save(&path).map_err(Fatal)?;
    outln!("{}", profile.describe());
    outln!("profile written to {}", path.display());
    Ok(ExitCode::SUCCESS)
}
