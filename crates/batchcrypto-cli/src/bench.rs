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
use std::time::{SystemTime, UNIX_EPOCH};

use batchcrypto::ladder::{Ladder, Row, crossover, ladder};
use batchcrypto::registry::{OPS, OpSpec};
use batchcrypto::{Backend, BackendChoice, Engine};

use crate::Fatal;
use crate::output::outln;

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

/// One panel per op: µs per item against N, log-log, a line per backend,
/// the crossover (first N where gpu beats cpu) as a vertical line.
fn plot(
    path: &std::path::Path,
    ops: &[&'static OpSpec],
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
        let name = op.row_name();
        let mine: Vec<&Row> = rows.iter().filter(|r| r.op == name).collect();
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
            "{name} — {} ({} cores), {}",
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
        if let Some(n) = crossover[name.as_str()].as_u64() {
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
    OPS.iter().map(OpSpec::row_name).collect::<Vec<_>>().join(", ")
}

/// Per op, [`crossover`] (null when none).
fn crossover_json(ops: &[&'static OpSpec], rows: &[Row]) -> serde_json::Value {
    let map: serde_json::Map<String, serde_json::Value> = ops
        .iter()
        .map(|op| {
            (
                op.row_name(),
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
