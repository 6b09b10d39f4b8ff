//! `bench`'s reports: the Markdown table, the JSON crossovers and the
//! machine's description.

use std::time::{SystemTime, UNIX_EPOCH};

use batchcrypto::ladder::{Row, crossover};
use batchcrypto::registry::OpSpec;
use batchcrypto::{Backend, Engine};

use super::Args;

/// Per op, [`crossover`] (null when none).
pub(super) fn crossover_json(ops: &[&'static OpSpec], rows: &[Row]) -> serde_json::Value {
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

pub(super) fn markdown(machine: &serde_json::Value, args: &Args, rows: &[Row]) -> String {
    let mut md = format!(
        "## batchcrypto bench\n\nmachine: {}, {} cores (Keccak on the CPU by {}, SHA-256 by {}); adapters: {}; commit {}; {}\ninputs: invalid share {}, {} signers; times are medians after warm-up, per item\n\n",
        machine["cpu"].as_str().unwrap_or("?"),
        machine["cores"],
        machine["cpu_keccak"].as_str().unwrap_or("?"),
        machine["cpu_sha256"].as_str().unwrap_or("?"),
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
    if let Some(steal) = machine["host_steal"].as_f64() {
        md = md.trim_end().to_string()
            + &format!(
                "\nhost steal during the run: {:.1}% of the CPU time (given by the hypervisor to other guests)\n\n",
                steal * 100.0
            );
    }
    if let Some(clock) = machine["gpu_kernel_clock"].as_str()
        && rows.iter().any(|r| r.backend == "gpu_kernel")
    {
        md = md.trim_end().to_string()
            + &format!("\ngpu_kernel: the kernel alone, inputs uploaded once, timed by {clock}\n\n");
    }
    if let Some(s) = machine["gpu_warm_up_s"].as_f64()
        && rows.iter().any(|r| r.backend == "gpu" || r.backend == "split")
    {
        md = md.trim_end().to_string()
            + &format!(
                "\ngpu, split: each timed call after {s:.2} s of untimed calls of the same cell (an idle GPU clocks down; a sustained stream keeps it up)\n\n"
            );
    }
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
    let kernel_clock = engines.iter().find_map(|(_, e)| e.gpu_kernel_clock());
    // The GPU columns' warm-up before each timed call (hardware GPUs only).
    let warm_up = engines
        .iter()
        .any(|(_, e)| e.gpu_software() == Some(false))
        .then(|| batchcrypto::ladder::GPU_CLOCK_WARM_UP.as_secs_f64());
    serde_json::json!({
        "cpu": batchcrypto::engine::cpu_model(),
        "cores": std::thread::available_parallelism().map_or(0, |n| n.get()),
        "threads": threads,
        // The route Keccak-256 and SHA3-256 take on this CPU (timed at start).
        "cpu_keccak": batchcrypto::ops::hash::KeccakPath::chosen().name(),
        "cpu_sha256": batchcrypto::ops::hash::Sha256Path::chosen().name(),
        "adapters": adapters,
        "gpu_kernel_clock": kernel_clock,
        "gpu_warm_up_s": warm_up,
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
