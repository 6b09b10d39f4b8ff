//! `batchcrypto selftest`: per backend and per GPU adapter, every
//! operation of the registry ([`batchcrypto::registry::OPS`]), or those
//! named by `--op`, on a few hundred mixed items (half hostile where items
//! can be; every message length past the hash rate blocks; aggregates
//! valid and corrupted; pairing inputs well-formed and cut short),
//! compared with the oracles
//! item by item and in number. Drivers have bugs: this says, per adapter,
//! whether this machine's GPU gives the oracle's answers. The operations
//! of a target run at once, a thread each (so a GPU's pipelines compile
//! side by side). Exit status 0 when every target passes, 3 when one fails
//! or none is usable.

use std::process::ExitCode;
use std::time::Instant;

use batchcrypto::registry::{OpSpec, Workload, WorkloadConfig};
use batchcrypto::{Backend, BackendChoice, Engine};

use crate::output::outln;
use crate::{EXIT_USAGE, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// What to test: auto (the CPU and every usable adapter), cpu, or gpu (every usable adapter).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
    /// Items per operation, 1 to 1,000,000.
    #[arg(long, default_value_t = 400, value_parser = crate::limits::in_range::<1, 1_000_000>)]
    count: usize,
    /// Operations, comma-separated bench names (default: all).
    #[arg(long, value_delimiter = ',')]
    op: Vec<String>,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let ops = crate::bench::parse_ops(&args.op)?;
    let mut targets: Vec<(String, Engine, Backend)> = Vec::new();
    if args.backend != BackendChoice::Gpu {
        targets.push((
            "cpu".to_string(),
            crate::engine(BackendChoice::Cpu, None)?,
            Backend::Cpu,
        ));
    }
    if args.backend != BackendChoice::Cpu {
        let adapters = batchcrypto::gpu::adapters();
        if adapters.is_empty() && args.backend == BackendChoice::Gpu {
            return Err(Fatal(
                "selftest --backend gpu: no GPU adapter (see `batchcrypto devices`)".to_string(),
            ));
        }
        for a in adapters {
            let engine = Engine::builder()
                .backend(BackendChoice::Gpu)
                .adapter(a.name.clone())
                .build()?;
            let name = format!("gpu {}", engine.gpu_adapter().unwrap_or_else(|| a.describe()));
            targets.push((name, engine, Backend::Gpu));
        }
    }
    // Made once (signing costs), checked on every target.
    let workloads: Vec<_> = ops
        .into_iter()
        .map(|spec| {
            let work = (spec.workload)(&WorkloadConfig {
                n: args.count,
                invalid_share: 0.5,
                signers: 16,
                seed: 0x5e1f_7e57,
                varied: true,
            });
            (spec, work)
        })
        .collect();
    let mut failed = 0;
    for (name, engine, wanted) in &targets {
        let start = Instant::now();
        // The operations at once, a thread each (an engine takes calls from
        // many threads): a GPU's pipelines compile side by side, where one
        // after another a cold NVIDIA driver took 4-15 s for each large
        // kernel (docs/bench/h200-2026-12-04b).
        let problems: Vec<String> = std::thread::scope(|scope| {
            let checks: Vec<_> = workloads
                .iter()
                .map(|(spec, work)| scope.spawn(move || problem(spec, work.as_ref(), engine, *wanted)))
                .collect();
            checks
                .into_iter()
                .zip(&workloads)
                .filter_map(|(check, (spec, _))| {
                    check
                        .join()
                        .unwrap_or_else(|_| Some(format!("{}: the check panicked", spec.name())))
                })
                .collect()
        });
        let secs = start.elapsed().as_secs_f64();
        if problems.is_empty() {
            let items: usize = workloads.iter().map(|(_, w)| w.len()).sum();
            outln!(
                "PASS {name}: {} operations ({}), {items} items in all, equal to the oracles ({secs:.2} s)",
                workloads.len(),
                workloads.iter().map(|(s, _)| s.name()).collect::<Vec<_>>().join(", ")
            );
        } else {
            failed += 1;
            outln!("FAIL {name}: {}", problems.join("; "));
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_USAGE)
    })
}

/// What is wrong with `spec`'s answers on `engine`, whose backend is
/// `wanted`, if anything.
fn problem(spec: &OpSpec, work: &dyn Workload, engine: &Engine, wanted: Backend) -> Option<String> {
    match work.check(engine) {
        Err(e) => Some(format!("{}: {e}", spec.name())),
        Ok(selection) => {
            // Ops without a GPU kernel, kernels that need SHADER_INT64 on a
            // device without it, and answers that need no computation run
            // on the CPU by design.
            let expected = if spec.gpu_kernel { wanted } else { Backend::Cpu };
            let cpu_by_design = selection.why.contains("SHADER_INT64") || work.trivial();
            (selection.backend != expected && !cpu_by_design).then(|| format!("{}: ran on {selection}", spec.name()))
        }
    }
}
