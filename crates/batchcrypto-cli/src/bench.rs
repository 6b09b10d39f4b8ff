//! `batchcrypto bench`: per operation and batch size N, the per-item time of
//! the oracle on one thread and of each requested backend, each the median of
//! repeated runs after a warm-up run, interleaved round by round in one
//! process so that the ratios are side by side. Prints a
//! Markdown table (stdout), progress (stderr) and optionally JSON in the
//! format of CLI-FORMATS.md `bench --json`.
//!
//! Every backend is first checked against the oracle's verdicts on the
//! measured batch: a bench never reports a fast wrong answer.

use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::ladder::{Ladder, ladder};
use batchcrypto::registry::{OPS, OpSpec};
use batchcrypto::{Backend, BackendChoice, Engine};

use crate::Fatal;
use crate::output::outln;

mod plot;
mod report;

pub use report::rfc3339_now;
use report::{crossover_json, machine, markdown};

#[derive(clap::Args)]
pub struct Args {
    /// Operations, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    op: Vec<String>,
    /// Batch sizes, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1,16,64,256,1024,4096,16384,65536,262144",
        value_parser = crate::limits::in_range::<1, { crate::limits::MAX_ITEMS }>
    )]
    sizes: Vec<usize>,
    /// Backends to measure besides the oracle, comma-separated (cpu, gpu).
    #[arg(long, value_delimiter = ',', default_value = "cpu")]
    backend: Vec<String>,
    /// Share of invalid (hostile) items in the inputs, 0 to 1.
    #[arg(long, default_value_t = 0.0)]
    invalid_share: f64,
    /// Distinct signers in the inputs (keys repeat, as in a validator set).
    #[arg(long, default_value_t = 256, value_parser = crate::limits::in_range::<1, 65_536>)]
    signers: usize,
    /// Time budget for the whole run, in seconds; the time per cell is cut to fit.
    #[arg(long, default_value_t = 60.0, value_parser = crate::limits::seconds)]
    max_seconds: f64,
    /// Largest N at which the oracle is timed (default: every size). Larger
    /// sizes get no oracle_1t column and no ratios: for GPU-sized batches whose
    /// single-thread oracle would take minutes. Every backend is still checked
    /// against the oracle's answers.
    #[arg(long)]
    oracle_max_n: Option<usize>,
    /// CPU threads for the cpu backend (default: all cores), 1 to 1024.
    #[arg(long, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_THREADS }>)]
    threads: Option<usize>,
    /// Also write the results as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also draw time per item against N (log-log, one line per backend,
    /// crossover marked) as SVG to this file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Instead of the ladder: the GPU field-multiplication microbenchmark
    /// (multiplications per second of the Ed25519, secp256k1 and P-256
    /// kernels' field layers beside the adapter's u32 multiply-add rate),
    /// with this many threads.
    #[arg(long, value_parser = crate::limits::in_range::<1, { crate::limits::MAX_ITEMS }>)]
    field_rates: Option<usize>,
}

/// Chained multiplications per thread in `--field-rates`.
const FIELD_ITERATIONS: u32 = 1024;

/// `bench --field-rates THREADS`: one table, GPU-timed medians of 5 runs.
fn field_rates(args: &Args, threads: usize) -> Result<ExitCode, Fatal> {
    let engine = crate::engine(BackendChoice::Gpu, args.threads)?;
    let rates = engine.gpu_field_rates(threads, FIELD_ITERATIONS, 5)?;
    let machine = machine(engine.cpu_threads(), &[(Backend::Gpu, engine)]);
    let imad = rates.iter().find(|r| r.name == "u32_mul_add").map(|r| r.per_second);
    let mut md = format!(
        "## batchcrypto field-multiplication rates\n\nadapter: {}; commit {}; {}\n{threads} threads x {FIELD_ITERATIONS} chained operations, medians of 5 runs timed by {}\n\n| operation | per second | u32 multiply-adds in the same time |\n|---|---:|---:|\n",
        machine["adapters"][0].as_str().unwrap_or("?"),
        machine["commit"].as_str().unwrap_or("?"),
        machine["date"].as_str().unwrap_or("?"),
        machine["gpu_kernel_clock"].as_str().unwrap_or("?"),
    );
    for r in &rates {
        let ratio = imad.map_or("–".to_string(), |i| format!("{:.0}", i / r.per_second));
        md += &format!("| {} | {:.4e} | {ratio} |\n", r.name, r.per_second);
    }
    crate::output::print_str(&md)?;
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    if let Some(threads) = args.field_rates {
        return field_rates(&args, threads);
    }
    let ops = parse_ops(&args.op)?;
    let mut engines: Vec<(Backend, Engine)> = Vec::new();
    for name in &args.backend {
        let choice: BackendChoice = name.parse().map_err(Fatal)?;
        let backend = match choice {
            BackendChoice::Cpu => Backend::Cpu,
            BackendChoice::Gpu => Backend::Gpu,
            BackendChoice::Auto => return Err(Fatal("bench measures cpu and gpu, not auto".to_string())),
        };
        engines.push((backend, crate::engine(choice, args.threads)?));
    }
    if !(0.0..=1.0).contains(&args.invalid_share) {
        return Err(Fatal(format!(
            "--invalid-share must be in [0, 1], got {}",
            args.invalid_share
        )));
    }
    let threads = engines.first().map_or(0, |(_, e)| e.cpu_threads());
    let mut machine = machine(threads, &engines);
    let steal_before = crate::steal::cpu_times();
    let engine_refs: Vec<(Backend, &Engine)> = engines.iter().map(|(b, e)| (*b, e)).collect();
    let result = ladder(&Ladder {
        ops: ops.clone(),
        sizes: args.sizes.clone(),
        engines: &engine_refs,
        max_seconds: args.max_seconds,
        invalid_share: args.invalid_share,
        signers: args.signers,
        oracle_max_n: args.oracle_max_n.unwrap_or(usize::MAX),
        progress: &|line| eprintln!("{line}"),
    })?;
    let rows = result.rows;
    // How much of the machine the run had: on a shared VM the host's steal
    // moves absolute times (the ratios are side by side).
    machine["host_steal"] = crate::steal::since(steal_before).into();
    let skipped_json: serde_json::Map<String, serde_json::Value> = ops
        .iter()
        .map(|op| {
            let ns: Vec<usize> = result
                .skipped
                .iter()
                .filter(|(o, _)| o.op == op.op)
                .map(|(_, n)| *n)
                .collect();
            (op.row_name(), ns.into())
        })
        .collect();
    crate::output::print_str(&markdown(&machine, &args, &rows))?;
    for (op, ns) in &skipped_json {
        if let Some(ns) = ns.as_array().filter(|ns| !ns.is_empty()) {
            let ns: Vec<String> = ns.iter().map(ToString::to_string).collect();
            outln!(
                "\nskipped (over the {} s budget): {op} at N = {}",
                args.max_seconds,
                ns.join(", ")
            );
        }
    }
    let crossover = crossover_json(&ops, &rows);
    if let Some(path) = &args.plot {
        plot::plot(path, &ops, &rows, &crossover, &machine)
            .map_err(|e| Fatal(format!("cannot draw {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "machine": machine,
            "settings": {"invalid_share": args.invalid_share, "signers": args.signers, "threads": threads},
            "rows": rows,
            "crossover": crossover,
            "skipped": skipped_json,
        });
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .map_err(|e| Fatal(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The ops named on the command line, by name or row name (all when none).
pub fn parse_ops(names: &[String]) -> Result<Vec<&'static OpSpec>, Fatal> {
    if names.is_empty() {
        return Ok(OPS.iter().collect());
    }
    names
        .iter()
        .map(|name| {
            batchcrypto::registry::by_name(name)
                .ok_or_else(|| Fatal(format!("unknown op {name:?}; known: {}", op_names())))
        })
        .collect()
}

fn op_names() -> String {
    OPS.iter().map(OpSpec::row_name).collect::<Vec<_>>().join(", ")
}
