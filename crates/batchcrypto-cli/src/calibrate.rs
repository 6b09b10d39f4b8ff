//! `batchcrypto calibrate`: a short bench ladder of every operation on the
//! CPU path and on the GPU, turned into the profile that `--backend auto`
//! follows (see `batchcrypto::profile`): per operation the crossover N*,
//! items/s of each backend at each size, and a CPU+GPU split where one
//! measured faster than the GPU alone. Written to the user's cache
//! directory (or `--output`); `batchcrypto devices` shows it.

use crate::output::outln;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::profile::{OpProfile, Point, Profile, Split, VERSION};
use batchcrypto::{Backend, BackendChoice, Engine};

use crate::Fatal;
use crate::bench::{BenchOp, Ladder, crossover, ladder, parse_ops, rfc3339_now};

/// A split is recorded only when it measured at least this much faster.
const MIN_SPLIT_SPEEDUP: f64 = 1.05;

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
    // Operations without a GPU kernel always run on the CPU: nothing to calibrate.
    let ops: Vec<BenchOp> = parse_ops(&args.op)?.into_iter().filter(BenchOp::has_gpu).collect();
    let mut engines: Vec<(Backend, Engine)> = vec![(Backend::Cpu, crate::engine(BackendChoice::Cpu, args.threads)?)];
    let mut builder = Engine::builder().backend(BackendChoice::Gpu);
    if let Some(a) = &args.adapter {
        builder = builder.adapter(a.clone());
    }
    if let Some(t) = args.threads {
        builder = builder.threads(t);
    }
    match builder.build() {
        Ok(gpu) => engines.push((Backend::Gpu, gpu)),
        Err(e) => eprintln!("calibrate: no GPU ({e}); the profile will send everything to the CPU"),
    }
    let gpu = engines.iter().find(|(b, _)| *b == Backend::Gpu).map(|(_, e)| e);
    let result = ladder(&Ladder {
        ops: ops.clone(),
        sizes: args.sizes.clone(),
        engines: &engines,
        max_seconds: args.max_seconds,
        invalid_share: 0.0,
        signers: 256,
        // Crossovers compare the backends; the oracle is not timed.
        oracle_max_n: 0,
    })?;
    let mut profile = Profile {
        version: VERSION,
        created: rfc3339_now(),
        commit: env!("BATCHCRYPTO_COMMIT").to_string(),
        cpu: batchcrypto::engine::cpu_model(),
        threads: engines[0].1.cpu_threads(),
        adapter: gpu.and_then(Engine::gpu_adapter),
        adapter_name: gpu.and_then(Engine::gpu_adapter_name),
        ops: BTreeMap::new(),
    };
    for op in &ops {
        let rate = |n: usize, b: &str| {
            result
                .rows
                .iter()
                .find(|r| r.op == op.name() && r.n == n && r.backend == b)
                .map(|r| r.items_per_s)
        };
        let mut sizes: Vec<usize> = result.rows.iter().filter(|r| r.op == op.name()).map(|r| r.n).collect();
        sizes.dedup();
        let points: Vec<Point> = sizes
            .iter()
            .filter_map(|&n| {
                Some(Point {
                    n,
                    cpu_items_per_s: rate(n, "cpu")?,
                    gpu_items_per_s: rate(n, "gpu"),
                })
            })
            .collect();
        profile.ops.insert(
            op.engine_op().name().to_string(),
            OpProfile {
                crossover: crossover(op, &result.rows),
                points,
                split: split_from(op, &result.splits),
            },
        );
    }
    profile.save(&path).map_err(Fatal)?;
    outln!("{}", describe(&profile));
    outln!("profile written to {}", path.display());
    Ok(ExitCode::SUCCESS)
}

/// The smallest measured N from which every measured split beat the faster
/// backend alone by [`MIN_SPLIT_SPEEDUP`], with its share and speed-up.
fn split_from(op: &BenchOp, splits: &[(BenchOp, usize, f64, f64)]) -> Option<Split> {
    let mine: Vec<&(BenchOp, usize, f64, f64)> = splits.iter().filter(|s| s.0 == *op).collect();
    let first_bad_after = mine.iter().rposition(|s| s.3 < MIN_SPLIT_SPEEDUP);
    let from = match first_bad_after {
        Some(i) => mine.get(i + 1)?,
        None => mine.first()?,
    };
    Some(Split {
        n: from.1,
        cpu_share: from.2,
        speedup: from.3,
    })
}

/// A few lines per profile: where it came from and, per operation, the
/// crossover, the rates at the largest size and any split.
pub fn describe(p: &Profile) -> String {
    let mut s = format!(
        "profile of {} (commit {}): CPU {} ({} threads), GPU {}\n",
        p.created,
        &p.commit[..p.commit.len().min(10)],
        p.cpu,
        p.threads,
        p.adapter.as_deref().unwrap_or("none")
    );
    for (op, o) in &p.ops {
        let last = o.points.last();
        let rates = last.map_or("no points".to_string(), |pt| {
            format!(
                "at N={}: cpu {:.0}/s, gpu {}",
                pt.n,
                pt.cpu_items_per_s,
                pt.gpu_items_per_s.map_or("–".to_string(), |g| format!("{g:.0}/s"))
            )
        });
        let split = o.split.as_ref().map_or(String::new(), |sp| {
            format!(
                "; split from N={} (cpu share {:.0}%, {:.2}x the faster backend alone)",
                sp.n,
                sp.cpu_share * 100.0,
                sp.speedup
            )
        });
        s.push_str(&format!(
            "  {op:<22} auto: {}; {rates}{split}\n",
            o.crossover
                .map_or("cpu always (the gpu never beat it)".to_string(), |n| format!(
                    "gpu from N*={n}"
                ))
        ));
    }
    s.pop();
    s
}
