//! `batchcrypto bench`: per operation and batch size N, the per-item time of
//! the oracle on one thread and of each requested backend, each the median of
//! repeated runs after a warm-up run, interleaved round by round in one
//! process so that the ratios are side by side. Prints a
//! Markdown table (stdout), progress (stderr) and optionally JSON in the
//! format of CLI-FORMATS.md `bench --json`.
//!
//! Every backend is first checked against the oracle's verdicts on the
//! measured batch: a bench never reports a fast wrong answer.

use crate::output::outln;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use batchcrypto::ops::bls::eip2537::Eip2537Error;
use batchcrypto::ops::ed25519::{self, oracle, sample};
use batchcrypto::ops::{bls, ecdsa, hash, merkle};
use batchcrypto::{Backend, BackendChoice, Engine, FlatBytes, KernelWork};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use crate::Fatal;

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
}

/// One measured cell.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    pub op: String,
    pub n: usize,
    pub backend: String,
    pub median_s: f64,
    pub items_per_s: f64,
    pub runs: usize,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
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
    let machine = machine(threads, &engines);
    let result = ladder(&Ladder {
        ops: ops.clone(),
        sizes: args.sizes.clone(),
        engines: &engines,
        max_seconds: args.max_seconds,
        invalid_share: args.invalid_share,
        signers: args.signers,
        oracle_max_n: args.oracle_max_n.unwrap_or(usize::MAX),
    })?;
    let rows = result.rows;
    let skipped_json: serde_json::Map<String, serde_json::Value> = ops
        .iter()
        .map(|op| {
            let ns: Vec<usize> = result
                .skipped
                .iter()
                .filter(|(o, _)| o == op)
                .map(|(_, n)| *n)
                .collect();
            (op.name().to_string(), ns.into())
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
        plot(path, &ops, &rows, &crossover, &machine)
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

/// The ops named on the command line (all when none).
pub fn parse_ops(names: &[String]) -> Result<Vec<BenchOp>, Fatal> {
    if names.is_empty() {
        return Ok(BenchOp::ALL.to_vec());
    }
    names
        .iter()
        .map(|name| {
            BenchOp::from_name(name).ok_or_else(|| Fatal(format!("unknown op {name:?}; known: {}", op_names())))
        })
        .collect()
}

/// What one ladder measures.
pub struct Ladder<'a> {
    pub ops: Vec<BenchOp>,
    pub sizes: Vec<usize>,
    /// The backends besides the oracle; with both cpu and gpu, splittable
    /// ops also get a `split` column.
    pub engines: &'a [(Backend, Engine)],
    pub max_seconds: f64,
    pub invalid_share: f64,
    pub signers: usize,
    /// Sizes above this are measured without the oracle column.
    pub oracle_max_n: usize,
}

/// Every measured cell, and the sizes cut by the budget.
pub struct LadderResult {
    pub rows: Vec<Row>,
    pub skipped: Vec<(BenchOp, usize)>,
    /// Per (op, N) where a split was measured: the CPU share and the time of
    /// the faster backend alone over the split time, measured side by side.
    pub splits: Vec<(BenchOp, usize, f64, f64)>,
}

/// Measures every (op, N) cell: the oracle on one thread and each engine,
/// interleaved round by round; kernel-only times; and, with both a CPU and a
/// GPU engine, a CPU+GPU split in proportion to their measured rates, side
/// by side with the GPU alone. Every backend is first checked against the
/// oracle on the cell's inputs.
pub fn ladder(l: &Ladder<'_>) -> Result<LadderResult, Fatal> {
    let gpu_engine = l.engines.iter().find(|(b, _)| *b == Backend::Gpu).map(|(_, e)| e);
    let has_cpu = l.engines.iter().any(|(b, _)| *b == Backend::Cpu);
    let cells = l.ops.len() * l.sizes.len() * (1 + l.engines.len());
    let per_cell = Duration::from_secs_f64((l.max_seconds / cells.max(1) as f64).max(0.05));
    eprintln!(
        "bench: {} ops x {} sizes x {} columns, about {:.2} s per cell",
        l.ops.len(),
        l.sizes.len(),
        1 + l.engines.len(),
        per_cell.as_secs_f64()
    );
    let mut out = LadderResult {
        rows: Vec::new(),
        skipped: Vec::new(),
        splits: Vec::new(),
    };
    let rows = &mut out.rows;
    let start = Instant::now();
    for (op_index, op) in l.ops.iter().enumerate() {
        // Each op gets an equal share of the budget; a size whose predicted
        // cost (from the previous size's per-item times: the check, a
        // warm-up and at least 3 rounds of every column, kernel runs) would
        // overrun its share is skipped, and so are the larger ones.
        let op_deadline = l.max_seconds * (op_index + 1) as f64 / l.ops.len() as f64;
        // Per item at the previous size: every column, and the oracle's part
        // (left out of the prediction for sizes above --oracle-max-n).
        let mut round_s_per_item: Option<(f64, f64)> = None;
        let mut sizes = l.sizes.clone();
        sizes.sort_unstable();
        for (k, &n) in sizes.iter().enumerate() {
            if let Some((all, oracle)) = round_s_per_item
                && start.elapsed().as_secs_f64()
                    + (all - if n > l.oracle_max_n { oracle } else { 0.0 }) * n as f64 * 7.0
                    > op_deadline
            {
                eprintln!("bench: {op} n >= {n} skipped: over the --max-seconds budget");
                out.skipped.extend(sizes[k..].iter().map(|&n| (*op, n)));
                break;
            }
            let first_row = rows.len();
            let work = Workload::new(*op, n, l.invalid_share, l.signers);
            // Operations without a GPU kernel are measured on the CPU only.
            let engines: Vec<&(Backend, Engine)> = l
                .engines
                .iter()
                .filter(|(b, _)| *b != Backend::Gpu || op.has_gpu())
                .collect();
            for (backend, engine) in &engines {
                work.check(engine, *backend)?;
            }
            eprintln!("bench: {op} n={n}");
            // The oracle and every backend run in turn within each round, so
            // all columns see the same machine noise.
            let with_oracle = n <= l.oracle_max_n;
            let mut columns: Vec<Box<dyn FnMut() + '_>> = Vec::new();
            if with_oracle {
                columns.push(Box::new(|| work.run_oracle()));
            }
            for (_, engine) in &engines {
                let work = &work;
                columns.push(Box::new(move || work.run_engine(engine)));
            }
            let names = with_oracle
                .then_some("oracle_1t")
                .into_iter()
                .chain(engines.iter().map(|(b, _)| b.name()));
            let measured = measure(per_cell * columns.len() as u32, &mut columns);
            drop(columns);
            let rounds = measured.first().map_or(3, |m| m.1);
            for (name, (median, runs)) in names.zip(measured) {
                rows.push(row(op, n, name, median, runs));
            }
            if let Some(gpu) = gpu_engine.filter(|_| op.has_gpu()) {
                // Kernel only: inputs resident on the device, results read back.
                if let Some(mut times) = work.kernel_times(gpu, rounds + 1)? {
                    times.remove(0); // warm-up
                    times.sort_by(f64::total_cmp);
                    rows.push(row(op, n, "gpu_kernel", times[times.len() / 2], times.len()));
                }
                let median = |b: &str| {
                    rows.iter()
                        .rev()
                        .find(|r| r.op == op.name() && r.n == n && r.backend == b)
                };
                if has_cpu
                    && op.splittable()
                    && let (Some(c), Some(g)) = (median("cpu"), median("gpu"))
                    && c.median_s > 0.0
                    && g.median_s > 0.0
                {
                    // Shares in proportion to the measured rates.
                    let share = (1.0 / c.median_s) / (1.0 / c.median_s + 1.0 / g.median_s);
                    gpu.set_split_share(Some(share));
                    let checked = work.check(gpu, Backend::Split);
                    gpu.set_split_share(None);
                    checked?;
                    // Side by side with each backend alone.
                    let work = &work;
                    let cpu = l.engines.iter().find(|(b, _)| *b == Backend::Cpu).map(|(_, e)| e);
                    let mut trio: Vec<Box<dyn FnMut() + '_>> = vec![
                        Box::new(move || {
                            if let Some(cpu) = cpu {
                                work.run_engine(cpu);
                            }
                        }),
                        Box::new(move || work.run_engine(gpu)),
                        Box::new(move || {
                            gpu.set_split_share(Some(share));
                            work.run_engine(gpu);
                            gpu.set_split_share(None);
                        }),
                    ];
                    let m = measure(per_cell * 3, &mut trio);
                    rows.push(row(op, n, "split", m[2].0, m[2].1));
                    out.splits.push((*op, n, share, m[0].0.min(m[1].0) / m[2].0));
                }
            }
            let per_item = |oracle_only: bool| {
                rows[first_row..]
                    .iter()
                    .filter(|r| !oracle_only || r.backend == "oracle_1t")
                    .map(|r| r.median_s)
                    .sum::<f64>()
                    / n.max(1) as f64
            };
            round_s_per_item = Some((per_item(false), per_item(true)));
        }
    }
    Ok(out)
}

/// One panel per op: µs per item against N, log-log, a line per backend,
/// the crossover (first N where gpu beats cpu) as a vertical line.
fn plot(
    path: &std::path::Path,
    ops: &[BenchOp],
    rows: &[Row],
    crossover: &serde_json::Value,
    machine: &serde_json::Value,
) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let root = SVGBackend::new(path, (900, 380 * ops.len().max(1) as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    let panels = root.split_evenly((ops.len().max(1), 1));
    let colors = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    for (op, panel) in ops.iter().zip(panels) {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.op == op.name()).collect();
        let per_item = |r: &Row| r.median_s / r.n.max(1) as f64 * 1e6;
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, 0f64, f64::MAX, 0f64);
        for r in &mine {
            x0 = x0.min(r.n as f64);
            x1 = x1.max(r.n as f64);
            y0 = y0.min(per_item(r));
            y1 = y1.max(per_item(r));
        }
        if mine.is_empty() {
            continue;
        }
        let title = format!(
            "{op} — {} ({} cores), {}",
            machine["cpu"].as_str().unwrap_or("?"),
            machine["cores"],
            machine["adapters"][0].as_str().unwrap_or("no GPU")
        );
        let mut chart = ChartBuilder::on(&panel)
            .caption(title, ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 / 1.5..x1 * 1.5).log_scale(), (y0 / 1.5..y1 * 1.5).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("batch size N")
            .y_desc("µs per item (median)")
            .draw()?;
        let mut backends: Vec<&str> = Vec::new();
        for r in &mine {
            if !backends.contains(&r.backend.as_str()) {
                backends.push(&r.backend);
            }
        }
        for (i, backend) in backends.iter().enumerate() {
            let color = colors[i % colors.len()];
            let points: Vec<(f64, f64)> = mine
                .iter()
                .filter(|r| r.backend == *backend)
                .map(|r| (r.n as f64, per_item(r)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?
                .label(*backend)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
        }
        if let Some(n) = crossover[op.name()].as_u64() {
            let n = n as f64;
            chart
                .draw_series(LineSeries::new(
                    vec![(n, y0 / 1.4), (n, y1 * 1.4)],
                    BLACK.stroke_width(1),
                ))?
                .label(format!("crossover N* = {n}"))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

fn op_names() -> String {
    BenchOp::ALL.iter().map(BenchOp::name).collect::<Vec<_>>().join(", ")
}

/// What the bench measures: an operation on inputs of a given shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchOp {
    /// Ed25519 verification of generated items (see `--invalid-share`, `--signers`).
    Ed25519(ed25519::Policy),
    /// Hashing messages of a fixed length (random bytes).
    Hash(hash::Alg, usize),
    /// A Merkle root of N random leaves (time per leaf).
    Merkle(merkle::Rule),
    /// BLS verification of N items (time per signature).
    Bls(bls::Mode),
    /// One BLS aggregate signature over N distinct messages (time per message).
    BlsAggregate,
    /// One BLS aggregate signature of N keys over one message (time per key).
    BlsFastAggregate,
    /// N EIP-2537 pairing checks of one pair each (time per call).
    Eip2537,
    /// secp256k1 ECDSA verification, high s accepted.
    Secp256k1,
    /// Ethereum's ecrecover.
    Ecrecover,
    /// P-256 verification (RIP-7212).
    P256,
}

impl BenchOp {
    const ALL: [BenchOp; 15] = [
        BenchOp::Ed25519(ed25519::Policy::Strict),
        BenchOp::Ed25519(ed25519::Policy::Zip215),
        BenchOp::Hash(hash::Alg::Keccak256, 32),
        BenchOp::Hash(hash::Alg::Sha3_256, 32),
        BenchOp::Hash(hash::Alg::Sha256, 64),
        BenchOp::Merkle(merkle::Rule::SortedKeccak256),
        BenchOp::Merkle(merkle::Rule::Bitcoin),
        BenchOp::Bls(bls::Mode::Single),
        BenchOp::Bls(bls::Mode::Batch),
        BenchOp::BlsAggregate,
        BenchOp::BlsFastAggregate,
        BenchOp::Eip2537,
        BenchOp::Secp256k1,
        BenchOp::Ecrecover,
        BenchOp::P256,
    ];

    /// Whether its items are independent (so a batch can be split
    /// between CPU and GPU); a Merkle root is one answer.
    fn splittable(&self) -> bool {
        self.has_gpu() && !matches!(self, BenchOp::Merkle(_))
    }

    /// Whether the engine has a GPU kernel for it.
    pub fn has_gpu(&self) -> bool {
        matches!(
            self,
            BenchOp::Ed25519(_)
                | BenchOp::Hash(..)
                | BenchOp::Merkle(_)
                | BenchOp::Secp256k1
                | BenchOp::Ecrecover
                | BenchOp::P256
        )
    }

    /// The engine operation it measures (its name in profiles).
    pub fn engine_op(&self) -> batchcrypto::Op {
        match self {
            BenchOp::Ed25519(policy) => batchcrypto::Op::Ed25519Verify(*policy),
            BenchOp::Hash(alg, _) => batchcrypto::Op::Hash(*alg),
            BenchOp::Merkle(rule) => batchcrypto::Op::Merkle(*rule),
            BenchOp::Bls(mode) => batchcrypto::Op::BlsVerify(*mode),
            BenchOp::BlsAggregate => batchcrypto::Op::BlsAggregateVerify,
            BenchOp::BlsFastAggregate => batchcrypto::Op::BlsFastAggregateVerify,
            BenchOp::Eip2537 => batchcrypto::Op::Eip2537Pairing,
            BenchOp::Secp256k1 => batchcrypto::Op::Secp256k1Verify { low_s: false },
            BenchOp::Ecrecover => batchcrypto::Op::Ecrecover { low_s: false },
            BenchOp::P256 => batchcrypto::Op::P256Verify,
        }
    }

    /// The name in reports (CLI-FORMATS.md `bench --json`).
    pub fn name(&self) -> &'static str {
        match self {
            BenchOp::Ed25519(ed25519::Policy::Strict) => "ed25519_verify_strict",
            BenchOp::Ed25519(ed25519::Policy::Zip215) => "ed25519_verify_zip215",
            BenchOp::Hash(hash::Alg::Keccak256, _) => "keccak256_32",
            BenchOp::Hash(hash::Alg::Sha3_256, _) => "sha3_256_32",
            BenchOp::Hash(hash::Alg::Sha256, _) => "sha256_64",
            BenchOp::Merkle(merkle::Rule::SortedKeccak256) => "merkle_keccak256",
            BenchOp::Merkle(merkle::Rule::Bitcoin) => "merkle_sha256",
            BenchOp::Bls(bls::Mode::Single) => "bls_verify",
            BenchOp::Bls(bls::Mode::Batch) => "bls_batch_verify",
            BenchOp::BlsAggregate => "bls_aggregate_verify",
            BenchOp::BlsFastAggregate => "bls_fast_aggregate_verify",
            BenchOp::Eip2537 => "eip2537_pairing",
            BenchOp::Secp256k1 => "secp256k1_verify",
            BenchOp::Ecrecover => "ecrecover",
            BenchOp::P256 => "p256_verify",
        }
    }

    fn from_name(name: &str) -> Option<BenchOp> {
        BenchOp::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl std::fmt::Display for BenchOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The inputs of one (op, N) cell and the oracle's answers for them.
enum Workload {
    Ed25519 {
        policy: ed25519::Policy,
        batch: ed25519::Batch,
        expected: Vec<bool>,
    },
    Hash {
        alg: hash::Alg,
        msgs: FlatBytes,
        expected: Vec<hash::Digest>,
    },
    Merkle {
        rule: merkle::Rule,
        leaves: Vec<hash::Digest>,
        expected: hash::Digest,
    },
    Bls {
        mode: bls::Mode,
        batch: bls::Batch,
        expected: Vec<bool>,
    },
    BlsAggregate {
        item: bls::AggregateItem,
        expected: bool,
    },
    BlsFast {
        item: bls::FastAggregateItem,
        expected: bool,
    },
    Eip2537 {
        inputs: FlatBytes,
        expected: Vec<Result<bool, Eip2537Error>>,
    },
    Secp256k1 {
        items: Vec<ecdsa::K1VerifyItem>,
        expected: Vec<bool>,
    },
    Ecrecover {
        items: Vec<ecdsa::RecoverItem>,
        expected: Vec<Option<ecdsa::Recovered>>,
    },
    P256 {
        items: Vec<ecdsa::P256Item>,
        expected: Vec<bool>,
    },
}

impl Workload {
    fn new(op: BenchOp, n: usize, invalid_share: f64, signers: usize) -> Workload {
        match op {
            BenchOp::Ed25519(policy) => {
                let items = sample::generate(&sample::Config {
                    count: n,
                    hostile_share: invalid_share,
                    signers,
                    seed: n as u64,
                    ..Default::default()
                });
                let batch = sample::batch(&items);
                let expected = (0..n)
                    .into_par_iter()
                    .map(|i| oracle::verify(policy, batch.pk(i), batch.sig(i), batch.msg(i)))
                    .collect();
                Workload::Ed25519 {
                    policy,
                    batch,
                    expected,
                }
            }
            BenchOp::Hash(alg, len) => {
                let mut rng = StdRng::seed_from_u64(n as u64);
                let mut msgs = FlatBytes::with_capacity(n, n * len);
                let mut buf = vec![0u8; len];
                for _ in 0..n {
                    rng.fill(&mut buf[..]);
                    // Bench sizes stay far below the 4 GiB batch limit.
                    let _fits = msgs.push(&buf);
                }
                let expected = (0..n)
                    .into_par_iter()
                    .map(|i| hash::oracle::digest(alg, msgs.get(i)))
                    .collect();
                Workload::Hash { alg, msgs, expected }
            }
            BenchOp::Merkle(rule) => {
                let mut rng = StdRng::seed_from_u64(n as u64);
                let leaves: Vec<hash::Digest> = (0..n.max(1)).map(|_| rng.random()).collect();
                let expected = merkle::oracle::root(rule, &leaves).unwrap_or_default();
                Workload::Merkle { rule, leaves, expected }
            }
            BenchOp::Bls(mode) => {
                // At most 512 distinct signed items, repeated up to N
                // (signing costs more than verifying).
                let distinct = bls::sample::generate(n.clamp(1, 512), signers, invalid_share, n as u64);
                let items: Vec<bls::sample::Item> = distinct.iter().cycle().take(n).cloned().collect();
                let batch = bls::sample::batch(&items);
                let expected = items
                    .iter()
                    .map(|it| bls::oracle::verify(&it.pk, &it.sig, &it.msg))
                    .collect();
                Workload::Bls { mode, batch, expected }
            }
            BenchOp::BlsAggregate => {
                let keys = bls::sample::secret_keys(n.max(1), n as u64);
                let msgs: Vec<Vec<u8>> = (0..keys.len()).map(|i| (i as u64).to_le_bytes().repeat(4)).collect();
                let sig = aggregate_signature(&keys, |i| &msgs[i]);
                let item = bls::AggregateItem {
                    pks: keys.iter().map(|k| k.sk_to_pk().compress()).collect(),
                    msgs,
                    sig,
                };
                let expected = bls::oracle::aggregate_verify(&item);
                Workload::BlsAggregate { item, expected }
            }
            BenchOp::BlsFastAggregate => {
                let keys = bls::sample::secret_keys(n.max(1), n as u64);
                let msg = b"beacon block root of the slot....".to_vec();
                let sig = aggregate_signature(&keys, |_| &msg);
                let item = bls::FastAggregateItem {
                    pks: keys.iter().map(|k| k.sk_to_pk().compress()).collect(),
                    msg,
                    sig,
                };
                let expected = bls::oracle::fast_aggregate_verify(&item);
                Workload::BlsFast { item, expected }
            }
            BenchOp::Eip2537 => {
                // One pair (a G1, b G2) per call: one Miller loop and one
                // final exponentiation.
                let g1s = bls::sample::secret_keys(16, n as u64);
                let g2s = blst_g2_points(16, n as u64);
                let mut inputs = FlatBytes::with_capacity(n, n * bls::eip2537::PAIR_LEN);
                for i in 0..n {
                    let p = bls::eip2537::encode_g1(&g1s[i % 16].sk_to_pk().serialize());
                    let q = bls::eip2537::encode_g2(&g2s[i % 16]);
                    // Bench sizes stay far below the 4 GiB batch limit.
                    let _fits = inputs.push(&[&p[..], &q[..]].concat());
                }
                let expected = (0..n).map(|i| bls::eip2537::pairing_check(inputs.get(i))).collect();
                Workload::Eip2537 { inputs, expected }
            }
            // At most 4096 distinct signed items, repeated up to N.
            BenchOp::Secp256k1 => {
                let items = cycle(
                    ecdsa::sample::secp256k1_verify(n.clamp(1, 4096), signers, invalid_share, n as u64),
                    n,
                );
                let expected = items
                    .par_iter()
                    .map(|i| ecdsa::oracle::secp256k1_verify(i, false))
                    .collect();
                Workload::Secp256k1 { items, expected }
            }
            BenchOp::Ecrecover => {
                let items = cycle(
                    ecdsa::sample::ecrecover(n.clamp(1, 4096), signers, invalid_share, n as u64),
                    n,
                );
                let expected = items.par_iter().map(|i| ecdsa::oracle::ecrecover(i, false)).collect();
                Workload::Ecrecover { items, expected }
            }
            BenchOp::P256 => {
                let items = cycle(
                    ecdsa::sample::p256_verify(n.clamp(1, 4096), signers, invalid_share, n as u64),
                    n,
                );
                let expected = items.par_iter().map(ecdsa::oracle::p256_verify).collect();
                Workload::P256 { items, expected }
            }
        }
    }

    fn run_oracle(&self) {
        match self {
            Workload::Ed25519 { policy, batch, .. } => {
                for i in 0..batch.len() {
                    std::hint::black_box(oracle::verify(*policy, batch.pk(i), batch.sig(i), batch.msg(i)));
                }
            }
            Workload::Hash { alg, msgs, .. } => {
                for i in 0..msgs.len() {
                    std::hint::black_box(hash::oracle::digest(*alg, msgs.get(i)));
                }
            }
            Workload::Merkle { rule, leaves, .. } => {
                std::hint::black_box(merkle::oracle::root(*rule, leaves));
            }
            Workload::Bls { batch, .. } => {
                for i in 0..batch.len() {
                    std::hint::black_box(bls::oracle::verify(batch.pk(i), batch.sig(i), batch.msg(i)));
                }
            }
            Workload::BlsAggregate { item, .. } => {
                std::hint::black_box(bls::oracle::aggregate_verify(item));
            }
            Workload::BlsFast { item, .. } => {
                std::hint::black_box(bls::oracle::fast_aggregate_verify(item));
            }
            Workload::Eip2537 { inputs, .. } => {
                for i in 0..inputs.len() {
                    std::hint::black_box(bls::eip2537::pairing_check(inputs.get(i)).ok());
                }
            }
            Workload::Secp256k1 { items, .. } => {
                for i in items {
                    std::hint::black_box(ecdsa::oracle::secp256k1_verify(i, false));
                }
            }
            Workload::Ecrecover { items, .. } => {
                for i in items {
                    std::hint::black_box(ecdsa::oracle::ecrecover(i, false));
                }
            }
            Workload::P256 { items, .. } => {
                for i in items {
                    std::hint::black_box(ecdsa::oracle::p256_verify(i));
                }
            }
        }
    }

    fn run_engine(&self, engine: &Engine) {
        match self {
            Workload::Ed25519 { policy, batch, .. } => {
                std::hint::black_box(engine.verify_ed25519(batch, *policy).map(|o| o.output.len()).ok());
            }
            Workload::Hash { alg, msgs, .. } => {
                std::hint::black_box(engine.hash(*alg, msgs).map(|o| o.output.len()).ok());
            }
            Workload::Merkle { rule, leaves, .. } => {
                std::hint::black_box(engine.merkle_root(*rule, leaves).map(|o| o.output).ok());
            }
            Workload::Bls { mode, batch, .. } => {
                std::hint::black_box(engine.verify_bls(batch, *mode).map(|o| o.output.len()).ok());
            }
            Workload::BlsAggregate { item, .. } => {
                std::hint::black_box(engine.bls_aggregate_verify(std::slice::from_ref(item)).ok());
            }
            Workload::BlsFast { item, .. } => {
                std::hint::black_box(engine.bls_fast_aggregate_verify(std::slice::from_ref(item)).ok());
            }
            Workload::Eip2537 { inputs, .. } => {
                std::hint::black_box(engine.eip2537_pairing(inputs).map(|o| o.output.len()).ok());
            }
            Workload::Secp256k1 { items, .. } => {
                std::hint::black_box(engine.verify_secp256k1(items, false).map(|o| o.output.len()).ok());
            }
            Workload::Ecrecover { items, .. } => {
                std::hint::black_box(engine.ecrecover(items, false).map(|o| o.output.len()).ok());
            }
            Workload::P256 { items, .. } => {
                std::hint::black_box(engine.verify_p256(items).map(|o| o.output.len()).ok());
            }
        }
    }

    /// Fails the bench if the backend disagrees with the oracle on any item
    /// or did not run where it was asked to (a GPU that fell back to the CPU).
    fn check(&self, engine: &Engine, backend: Backend) -> Result<(), Fatal> {
        let (selection, wrong) = match self {
            Workload::Ed25519 {
                policy,
                batch,
                expected,
            } => {
                let outcome = engine.verify_ed25519(batch, *policy)?;
                let wrong = outcome
                    .output
                    .iter()
                    .zip(expected)
                    .position(|(v, e)| v.is_valid() != *e);
                (outcome.selection, wrong)
            }
            Workload::Hash { alg, msgs, expected } => {
                let outcome = engine.hash(*alg, msgs)?;
                let wrong = outcome.output.iter().zip(expected).position(|(d, e)| d != e);
                (outcome.selection, wrong)
            }
            Workload::Merkle { rule, leaves, expected } => {
                let outcome = engine.merkle_root(*rule, leaves)?;
                // A single leaf is its own root on every backend.
                if leaves.len() == 1 {
                    return Ok(());
                }
                (outcome.selection, (outcome.output != *expected).then_some(0))
            }
            Workload::Bls { mode, batch, expected } => {
                let outcome = engine.verify_bls(batch, *mode)?;
                let wrong = outcome
                    .output
                    .iter()
                    .zip(expected)
                    .position(|(v, e)| v.is_valid() != *e);
                (outcome.selection, wrong)
            }
            Workload::BlsAggregate { item, expected } => {
                let outcome = engine.bls_aggregate_verify(std::slice::from_ref(item))?;
                (
                    outcome.selection,
                    (outcome.output[0].is_valid() != *expected).then_some(0),
                )
            }
            Workload::BlsFast { item, expected } => {
                let outcome = engine.bls_fast_aggregate_verify(std::slice::from_ref(item))?;
                (
                    outcome.selection,
                    (outcome.output[0].is_valid() != *expected).then_some(0),
                )
            }
            Workload::Eip2537 { inputs, expected } => {
                let outcome = engine.eip2537_pairing(inputs)?;
                let wrong = outcome.output.iter().zip(expected).position(|(v, e)| v != e);
                (outcome.selection, wrong)
            }
            Workload::Secp256k1 { items, expected } => {
                let outcome = engine.verify_secp256k1(items, false)?;
                let wrong = outcome
                    .output
                    .iter()
                    .zip(expected)
                    .position(|(v, e)| v.is_valid() != *e);
                (outcome.selection, wrong)
            }
            Workload::Ecrecover { items, expected } => {
                let outcome = engine.ecrecover(items, false)?;
                let wrong = outcome
                    .output
                    .iter()
                    .zip(expected)
                    .position(|(v, e)| v.as_ref().ok() != e.as_ref());
                (outcome.selection, wrong)
            }
            Workload::P256 { items, expected } => {
                let outcome = engine.verify_p256(items)?;
                let wrong = outcome
                    .output
                    .iter()
                    .zip(expected)
                    .position(|(v, e)| v.is_valid() != *e);
                (outcome.selection, wrong)
            }
        };
        if selection.backend != backend {
            return Err(Fatal(format!("asked for {backend}, ran on {selection}: bench aborted")));
        }
        match wrong {
            None => Ok(()),
            Some(i) => Err(Fatal(format!(
                "{backend} disagrees with the oracle on item {i}: bench aborted"
            ))),
        }
    }

    /// Kernel-only times (none for a one-leaf tree, which has no kernel).
    fn kernel_times(&self, engine: &Engine, runs: usize) -> Result<Option<Vec<f64>>, Fatal> {
        let work = match self {
            Workload::Ed25519 { policy, batch, .. } => KernelWork::Ed25519(batch, *policy),
            Workload::Hash { alg, msgs, .. } => KernelWork::Hash(*alg, msgs),
            Workload::Merkle { leaves, .. } if leaves.len() < 2 => return Ok(None),
            Workload::Merkle { rule, leaves, .. } => KernelWork::Merkle(*rule, leaves),
            Workload::Secp256k1 { items, .. } => KernelWork::Secp256k1(items),
            Workload::Ecrecover { items, .. } => KernelWork::Ecrecover(items),
            Workload::P256 { items, .. } => KernelWork::P256(items),
            _ => return Ok(None),
        };
        Ok(Some(engine.gpu_kernel_times(work, runs)?))
    }
}

/// The items of a sample (kinds dropped), repeated up to `n`.
fn cycle<T: Copy>(sample: Vec<(T, &'static str)>, n: usize) -> Vec<T> {
    sample.iter().map(|(item, _)| *item).cycle().take(n).collect()
}

/// The aggregate of `keys[i]` signing `msg(i)`, signed on all cores.
fn aggregate_signature<'m>(keys: &[blst::min_pk::SecretKey], msg: impl Fn(usize) -> &'m [u8] + Sync) -> [u8; 96] {
    let sigs: Vec<blst::min_pk::Signature> = keys
        .par_iter()
        .enumerate()
        .map(|(i, k)| k.sign(msg(i), bls::DST, &[]))
        .collect();
    let refs: Vec<&blst::min_pk::Signature> = sigs.iter().collect();
    blst::min_pk::AggregateSignature::aggregate(&refs, false)
        .map(|a| a.to_signature().compress())
        .unwrap_or([0u8; 96])
}

/// `count` G2 points (blst's uncompressed form): public keys of the
/// min_sig variant, which live in G2.
fn blst_g2_points(count: usize, seed: u64) -> Vec<[u8; 192]> {
    bls::sample::secret_keys(count, seed)
        .iter()
        .map(|k| {
            let k2 = blst::min_sig::SecretKey::from_bytes(&k.to_bytes()).expect("a valid scalar stays valid");
            k2.sk_to_pk().serialize()
        })
        .collect()
}

/// Runs each column once to warm up, then in rounds (each column once per
/// round) until `budget` is spent, with at least 3 and at most 101 rounds;
/// returns each column's median run time and run count.
fn measure(budget: Duration, columns: &mut [Box<dyn FnMut() + '_>]) -> Vec<(f64, usize)> {
    for f in columns.iter_mut() {
        f();
    }
    let start = Instant::now();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); columns.len()];
    let mut rounds = 0;
    while rounds < 3 || (start.elapsed() < budget && rounds < 101) {
        for (f, t) in columns.iter_mut().zip(&mut times) {
            let begin = Instant::now();
            f();
            t.push(begin.elapsed().as_secs_f64());
        }
        rounds += 1;
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            (t[t.len() / 2], t.len())
        })
        .collect()
}

fn row(op: &BenchOp, n: usize, backend: &str, median_s: f64, runs: usize) -> Row {
    Row {
        op: op.name().to_string(),
        n,
        backend: backend.to_string(),
        median_s,
        items_per_s: if median_s > 0.0 { n as f64 / median_s } else { 0.0 },
        runs,
    }
}

/// The smallest measured N where `gpu` beats `cpu` for `op` (`None` when
/// it never does or one of them was not measured).
pub fn crossover(op: &BenchOp, rows: &[Row]) -> Option<usize> {
    let time = |n: usize, b: &str| {
        rows.iter()
            .find(|r| r.op == op.name() && r.n == n && r.backend == b)
            .map(|r| r.median_s)
    };
    let mut sizes: Vec<usize> = rows.iter().filter(|r| r.op == op.name()).map(|r| r.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .find(|&n| matches!((time(n, "gpu"), time(n, "cpu")), (Some(g), Some(c)) if g < c))
}

/// Per op, [`crossover`] (null when none).
fn crossover_json(ops: &[BenchOp], rows: &[Row]) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> = ops
        .iter()
        .map(|op| {
            (
                op.name().to_string(),
                crossover(op, rows).map_or(serde_json::Value::Null, Into::into),
            )
        })
        .collect();
    map.into()
}

fn markdown(machine: &serde_json::Value, args: &Args, rows: &[Row]) -> String {
    let mut md = format!(
        "## batchcrypto bench\n\nmachine: {}, {} cores; adapters: {}; commit {}; {}\ninputs: invalid share {}, {} signers; times are medians after warm-up, per item\n\n",
        machine["cpu"].as_str().unwrap_or("?"),
        machine["cores"],
        machine["adapters"]
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect::<Vec<_>>().join("; "))
            .filter(|a| !a.is_empty())
            .unwrap_or_else(|| "none".to_string()),
        machine["commit"].as_str().unwrap_or("?"),
        machine["date"].as_str().unwrap_or("?"),
        args.invalid_share,
        args.signers,
    );
    let backends: Vec<String> = {
        // The oracle first: the ratio columns are against it.
        let mut b: Vec<String> = vec!["oracle_1t".to_string()];
        for r in rows {
            if !b.contains(&r.backend) {
                b.push(r.backend.clone());
            }
        }
        b
    };
    md.push_str("| op | N |");
    for b in &backends {
        md.push_str(&format!(" {b} µs/item |"));
    }
    for b in backends.iter().skip(1) {
        md.push_str(&format!(" {b} / oracle_1t |"));
    }
    md.push_str("\n|---|---:|");
    md.push_str(&"---:|".repeat(2 * backends.len() - 1));
    md.push('\n');
    let mut keys: Vec<(String, usize)> = Vec::new();
    for r in rows {
        if !keys.contains(&(r.op.clone(), r.n)) {
            keys.push((r.op.clone(), r.n));
        }
    }
    for (op, n) in keys {
        let per_item = |b: &str| {
            rows.iter()
                .find(|r| r.op == op && r.n == n && r.backend == b)
                .map(|r| r.median_s / r.n.max(1) as f64 * 1e6)
        };
        md.push_str(&format!("| {op} | {n} |"));
        for b in &backends {
            md.push_str(&per_item(b).map_or(" – |".to_string(), |t| format!(" {} |", micros(t))));
        }
        let base = per_item("oracle_1t");
        for b in backends.iter().skip(1) {
            md.push_str(&match (base, per_item(b)) {
                (Some(o), Some(t)) if t > 0.0 => format!(" {:.2}x |", o / t),
                _ => " – |".to_string(),
            });
        }
        md.push('\n');
    }
    md
}

/// A per-item time in µs with at least three significant digits (hashing
/// on a GPU runs at nanoseconds per item).
fn micros(t: f64) -> String {
    if t >= 1.0 || t == 0.0 {
        format!("{t:.2}")
    } else {
        let decimals = (2 - t.log10().floor() as i32).clamp(2, 6) as usize;
        format!("{t:.decimals$}")
    }
}

/// The machine: CPU model and cores, the adapters measured (or, without a
/// GPU column, every usable one found), commit and date.
pub fn machine(threads: usize, engines: &[(Backend, Engine)]) -> serde_json::Value {
    let mut adapters: Vec<String> = engines.iter().filter_map(|(_, e)| e.gpu_adapter()).collect();
    if adapters.is_empty() {
        adapters = batchcrypto::gpu::adapters().into_iter().map(|a| a.describe()).collect();
    }
    serde_json::json!({
        "cpu": batchcrypto::engine::cpu_model(),
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "threads": threads,
        "adapters": adapters,
        "commit": env!("BATCHCRYPTO_COMMIT"),
        "date": rfc3339_now(),
    })
}

/// The current UTC time as RFC 3339 (no date crate needed for one line).
pub fn rfc3339_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
