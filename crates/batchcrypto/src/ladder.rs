//! The bench ladder and calibration, for library users and the CLI alike:
//! per operation of the registry ([`crate::registry`]) and batch size N,
//! the per-item time of the oracle on one thread and of each engine, each
//! the median of repeated runs after a warm-up run, interleaved round by
//! round so that all columns see the same machine noise, and each round
//! at another stack placement (`deeper`) so that they see the same
//! layouts; kernel-only GPU times; a CPU+GPU split where both are
//! measured; the crossover N* where the GPU beats the CPU; and
//! [`calibrate`], which turns a short ladder into the [`Profile`] that
//! `BackendChoice::Auto` follows.
//!
//! Every backend is first checked against the oracle on the cell's inputs
//! (item by item and in number): a ladder never reports a fast wrong answer.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::backend::Backend;
use crate::engine::Engine;
use crate::error::Error;
use crate::profile::{MIN_SPLIT_SPEEDUP, OpProfile, Point, Profile, Split, VERSION};
use crate::registry::{OpSpec, Workload, WorkloadConfig};

/// One measured cell.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// The op's row name ([`OpSpec::row_name`]).
    pub op: String,
    /// Batch size.
    pub n: usize,
    /// `oracle_1t`, `alt_1t`, `cpu`, `gpu`, `gpu_kernel` or `split`.
    pub backend: String,
    /// For `alt_1t`: the library timed, one that users of this op would
    /// otherwise pick (`aws-lc-rs` for P-256, `keccak-asm` for Keccak).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub library: Option<&'static str>,
    /// Median seconds for the whole batch.
    pub median_s: f64,
    /// Items per second at the median.
    pub items_per_s: f64,
    /// Timed runs.
    pub runs: usize,
}

/// What one ladder measures.
pub struct Ladder<'a> {
    /// The operations.
    pub ops: Vec<&'static OpSpec>,
    /// The batch sizes (each op runs them in increasing order).
    pub sizes: Vec<usize>,
    /// The backends besides the oracle; with both cpu and gpu, splittable
    /// ops also get a `split` column.
    pub engines: &'a [(Backend, &'a Engine)],
    /// Time budget for the whole ladder; sizes predicted to overrun an op's
    /// share are skipped (with the larger ones).
    pub max_seconds: f64,
    /// Share of hostile items in the inputs.
    pub invalid_share: f64,
    /// Distinct signers in the inputs.
    pub signers: usize,
    /// Sizes above this are measured without the oracle column.
    pub oracle_max_n: usize,
    /// Where progress lines go (the CLI: stderr).
    pub progress: &'a (dyn Fn(&str) + Sync),
}

/// Every measured cell, and the sizes cut by the budget.
pub struct LadderResult {
    /// Every measured cell.
    pub rows: Vec<Row>,
    /// (op, N) cells cut by the budget.
    pub skipped: Vec<(&'static OpSpec, usize)>,
    /// Per (op, N) where a split was measured: the CPU share and the time of
    /// the faster backend alone over the split time, measured side by side.
    pub splits: Vec<(&'static OpSpec, usize, f64, f64)>,
}

/// Measures every (op, N) cell: the oracle on one thread and each engine,
/// interleaved round by round; kernel-only times; and, with both a CPU and a
/// GPU engine, a CPU+GPU split in proportion to their measured rates, side
/// by side with the GPU alone. Every backend is first checked against the
/// oracle on the cell's inputs.
pub fn ladder(l: &Ladder<'_>) -> Result<LadderResult, Error> {
    let gpu_engine = l.engines.iter().find(|(b, _)| *b == Backend::Gpu).map(|(_, e)| e);
    let has_cpu = l.engines.iter().any(|(b, _)| *b == Backend::Cpu);
    let cells = l.ops.len() * l.sizes.len() * (1 + l.engines.len());
    let per_cell = Duration::from_secs_f64((l.max_seconds / cells.max(1) as f64).max(0.05));
    (l.progress)(&format!(
        "bench: {} ops x {} sizes x {} columns, about {:.2} s per cell",
        l.ops.len(),
        l.sizes.len(),
        1 + l.engines.len(),
        per_cell.as_secs_f64()
    ));
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
                (l.progress)(&format!(
                    "bench: {} n >= {n} skipped: over the time budget",
                    op.row_name()
                ));
                out.skipped.extend(sizes[k..].iter().map(|&n| (*op, n)));
                break;
            }
            let first_row = rows.len();
            let work = (op.workload)(&WorkloadConfig {
                n,
                invalid_share: l.invalid_share,
                signers: l.signers,
                seed: n as u64,
                varied: false,
            });
            // Operations without a GPU kernel are measured on the CPU only.
            let engines: Vec<&(Backend, &Engine)> = l
                .engines
                .iter()
                .filter(|(b, _)| *b != Backend::Gpu || op.gpu_kernel)
                .collect();
            for (backend, engine) in &engines {
                check(op, &*work, engine, *backend)?;
            }
            (l.progress)(&format!("bench: {} n={n}", op.row_name()));
            // The oracle and every backend run in turn within each round, so
            // all columns see the same machine noise.
            let with_oracle = n <= l.oracle_max_n;
            let mut columns: Vec<Column<'_>> = Vec::new();
            let alternative = work.alternative().filter(|_| with_oracle);
            if with_oracle {
                columns.push(Column::new(Duration::ZERO, || work.run_oracle()));
            }
            if alternative.is_some() {
                columns.push(Column::new(Duration::ZERO, || work.run_alternative()));
            }
            for (_, engine) in &engines {
                let work = &work;
                columns.push(Column::new(warm_up(engine), move || work.run_engine(engine)));
            }
            let names = with_oracle
                .then_some("oracle_1t")
                .into_iter()
                .chain(alternative.map(|_| ALT))
                .chain(engines.iter().map(|(b, _)| b.name()));
            let measured = measure(per_cell * columns.len() as u32, &mut columns);
            drop(columns);
            let rounds = measured.first().map_or(3, |m| m.1);
            for (name, (median, runs)) in names.zip(measured) {
                let mut r = row(op, n, name, median, runs);
                r.library = alternative.filter(|_| name == ALT);
                rows.push(r);
            }
            if let Some(gpu) = gpu_engine.filter(|_| op.gpu_kernel) {
                // Kernel only: inputs resident on the device, results read back.
                if let Some(mut times) = work.kernel_times(gpu, rounds + 1)? {
                    times.remove(0); // warm-up
                    times.sort_by(f64::total_cmp);
                    rows.push(row(op, n, "gpu_kernel", times[times.len() / 2], times.len()));
                }
                let median = |b: &str| {
                    rows.iter()
                        .rev()
                        .find(|r| r.op == op.row_name() && r.n == n && r.backend == b)
                };
                if has_cpu
                    && op.splittable
                    && let (Some(c), Some(g)) = (median("cpu"), median("gpu"))
                    && c.median_s > 0.0
                    && g.median_s > 0.0
                {
                    // Shares in proportion to the measured rates.
                    let share = (1.0 / c.median_s) / (1.0 / c.median_s + 1.0 / g.median_s);
                    gpu.set_split_share(Some(share));
                    let checked = check(op, &*work, gpu, Backend::Split);
                    gpu.set_split_share(None);
                    checked?;
                    // Side by side with each backend alone.
                    let work = &*work;
                    let cpu = l.engines.iter().find(|(b, _)| *b == Backend::Cpu).map(|(_, e)| e);
                    let mut trio: Vec<Column<'_>> = vec![
                        Column::new(Duration::ZERO, move || {
                            if let Some(cpu) = cpu {
                                work.run_engine(cpu);
                            }
                        }),
                        Column::new(warm_up(gpu), move || work.run_engine(gpu)),
                        Column::new(warm_up(gpu), move || {
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
                    .filter(|r| !oracle_only || r.backend == "oracle_1t" || r.backend == ALT)
                    .map(|r| r.median_s)
                    .sum::<f64>()
                    / n.max(1) as f64
            };
            round_s_per_item = Some((per_item(false), per_item(true)));
        }
    }
    Ok(out)
}

/// Fails the ladder if the backend disagrees with the oracle on any item (or
/// on the count) or did not run where it was asked to (a GPU that fell back
/// to the CPU).
fn check(op: &OpSpec, work: &dyn Workload, engine: &Engine, backend: Backend) -> Result<(), Error> {
    let disagrees = |reason: String| Error::Disagrees {
        op: op.op.into(),
        backend,
        reason,
    };
    let selection = work.check(engine).map_err(|e| disagrees(e.to_string()))?;
    if selection.backend != backend && !work.trivial() {
        return Err(disagrees(format!("asked for {backend}, ran on {selection}")));
    }
    Ok(())
}

/// Untimed calls before each timed call of a column on a hardware GPU:
/// an idle GPU clocks down, and the columns between two of its calls
/// leave it idle. Measured on an NVIDIA H200 (docs/bench/h200-2026-12-04b,
/// gap.md): with the 16-core CPU column between its calls, the SM clock
/// sat at 345 MHz through the GPU column (1,980 MHz under load) and
/// Ed25519 at 65,536 items took 0.752 µs per item end to end against
/// 0.137 by GPU timestamps; run alone, 0.182. The clock came back within
/// one 200 ms sample of load, so a quarter of a second of the same cell's
/// calls before each timed one measures the engine as a sustained stream
/// of batches runs it.
pub const GPU_CLOCK_WARM_UP: Duration = Duration::from_millis(250);

/// [`GPU_CLOCK_WARM_UP`] for an engine on a hardware GPU, else none.
fn warm_up(engine: &Engine) -> Duration {
    match engine.gpu_software() {
        Some(false) => GPU_CLOCK_WARM_UP,
        _ => Duration::ZERO,
    }
}

/// A column of a round: the call timed, and how long the same call runs
/// untimed just before each timed one ([`GPU_CLOCK_WARM_UP`]).
struct Column<'a> {
    warm_up: Duration,
    call: Box<dyn FnMut() + 'a>,
}

impl<'a> Column<'a> {
    fn new(warm_up: Duration, call: impl FnMut() + 'a) -> Self {
        Column {
            warm_up,
            call: Box::new(call),
        }
    }
}

/// Runs each column once to warm up, then in rounds (each column once per
/// round) until `budget` is spent, with at least 3 and at most 101 rounds;
/// returns each column's median run time and run count. Round `r` runs
/// every column at stack placement `r` ([`deeper`]), so that each
/// column's median is taken over the same placements. A column with a
/// warm-up runs untimed, one call or more, until its warm-up has passed,
/// before each timed call.
fn measure(budget: Duration, columns: &mut [Column<'_>]) -> Vec<(f64, usize)> {
    for c in columns.iter_mut() {
        (c.call)();
    }
    let start = Instant::now();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); columns.len()];
    let mut rounds = 0;
    while rounds < 3 || (start.elapsed() < budget && rounds < 101) {
        for (c, t) in columns.iter_mut().zip(&mut times) {
            if !c.warm_up.is_zero() {
                let warming = Instant::now();
                while warming.elapsed() < c.warm_up {
                    (c.call)();
                }
            }
            let f = &mut c.call;
            let mut timed = || {
                let begin = Instant::now();
                f();
                t.push(begin.elapsed().as_secs_f64());
            };
            deeper(rounds, &mut timed);
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

/// Stack placements the rounds cycle through, [`STACK_STEP`] bytes apart:
/// together they span 4 KiB, the period of the L1 cache's sets and of
/// the CPU's store-to-load address checks.
const PLACEMENTS: usize = 16;

/// Bytes between two stack placements.
const STACK_STEP: usize = 256;

/// Runs `f` with the stack `placement % PLACEMENTS` times [`STACK_STEP`]
/// bytes deeper.
///
/// Where a call's stack lies can change its time: measured on a Zen 4 VM
/// (2026-12-04), one-item Ed25519 ZIP-215 verification through zebra took
/// 36 to 44 µs as the environment's size moved the stack in 256-byte
/// steps (address randomisation off), repeatably at each placement. The
/// engine's column runs deeper than the oracle's, so a ladder that timed
/// both at one placement compared layouts (0.80x to 1.17x) more than
/// work (0.985x averaged over the placements).
fn deeper(placement: usize, f: &mut dyn FnMut()) {
    const BELOW: [fn(&mut dyn FnMut()); PLACEMENTS] = [
        below::<0>,
        below::<STACK_STEP>,
        below::<{ 2 * STACK_STEP }>,
        below::<{ 3 * STACK_STEP }>,
        below::<{ 4 * STACK_STEP }>,
        below::<{ 5 * STACK_STEP }>,
        below::<{ 6 * STACK_STEP }>,
        below::<{ 7 * STACK_STEP }>,
        below::<{ 8 * STACK_STEP }>,
        below::<{ 9 * STACK_STEP }>,
        below::<{ 10 * STACK_STEP }>,
        below::<{ 11 * STACK_STEP }>,
        below::<{ 12 * STACK_STEP }>,
        below::<{ 13 * STACK_STEP }>,
        below::<{ 14 * STACK_STEP }>,
        below::<{ 15 * STACK_STEP }>,
    ];
    BELOW[placement % PLACEMENTS](f);
}

/// Runs `f` below a frame of `BYTES` more bytes (left unwritten).
#[inline(never)]
fn below<const BYTES: usize>(f: &mut dyn FnMut()) {
    let pad = std::mem::MaybeUninit::<[u8; BYTES]>::uninit();
    // The frame's address escapes: it stays allocated while `f` runs.
    std::hint::black_box(&pad);
    f();
    std::hint::black_box(&pad);
}

/// The column of [`Workload::alternative`]'s library on one thread.
pub const ALT: &str = "alt_1t";

fn row(op: &OpSpec, n: usize, backend: &str, median_s: f64, runs: usize) -> Row {
    Row {
        library: None,
        op: op.row_name(),
        n,
        backend: backend.to_string(),
        median_s,
        items_per_s: if median_s > 0.0 { n as f64 / median_s } else { 0.0 },
        runs,
    }
}

/// The smallest measured N where `gpu` beats `cpu` for `op` (`None` when
/// it never does or one of them was not measured).
pub fn crossover(op: &OpSpec, rows: &[Row]) -> Option<usize> {
    let name = op.row_name();
    let time = |n: usize, b: &str| {
        rows.iter()
            .find(|r| r.op == name && r.n == n && r.backend == b)
            .map(|r| r.median_s)
    };
    let mut sizes: Vec<usize> = rows.iter().filter(|r| r.op == name).map(|r| r.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .find(|&n| matches!((time(n, "gpu"), time(n, "cpu")), (Some(g), Some(c)) if g < c))
}

/// What [`calibrate`] measures and records.
pub struct Calibration<'a> {
    /// The operations; those without a GPU kernel are left out (they always
    /// run on the CPU).
    pub ops: Vec<&'static OpSpec>,
    /// The ladder's batch sizes.
    pub sizes: Vec<usize>,
    /// A CPU engine, and a GPU engine when one is usable.
    pub cpu: &'a Engine,
    /// The GPU engine (None: the profile sends everything to the CPU).
    pub gpu: Option<&'a Engine>,
    /// Time budget in seconds.
    pub max_seconds: f64,
    /// When (RFC 3339) and by which build (commit) it is measured.
    pub created: String,
    /// The measuring binary's commit.
    pub commit: String,
    /// Where progress lines go.
    pub progress: &'a (dyn Fn(&str) + Sync),
}

/// Runs a short ladder (CPU and GPU, oracle not timed: the crossovers
/// compare the backends) and makes the profile `Auto` follows: per op the
/// crossover N*, the rates at each size, and a split only where every
/// measured split from some size on beat the faster backend alone by
/// [`MIN_SPLIT_SPEEDUP`].
pub fn calibrate(c: &Calibration<'_>) -> Result<Profile, Error> {
    let ops: Vec<&'static OpSpec> = c.ops.iter().copied().filter(|op| op.gpu_kernel).collect();
    let mut engines = vec![(Backend::Cpu, c.cpu)];
    engines.extend(c.gpu.map(|g| (Backend::Gpu, g)));
    let result = ladder(&Ladder {
        ops: ops.clone(),
        sizes: c.sizes.clone(),
        engines: &engines,
        max_seconds: c.max_seconds,
        invalid_share: 0.0,
        signers: 256,
        // Crossovers compare the backends; the oracle is not timed.
        oracle_max_n: 0,
        progress: c.progress,
    })?;
    let mut profile = Profile {
        version: VERSION,
        created: c.created.clone(),
        commit: c.commit.clone(),
        cpu: crate::engine::cpu_model(),
        threads: c.cpu.cpu_threads(),
        adapter: c.gpu.and_then(Engine::gpu_adapter),
        adapter_name: c.gpu.and_then(Engine::gpu_adapter_name),
        ops: BTreeMap::new(),
    };
    for op in &ops {
        let name = op.row_name();
        let rate = |n: usize, b: &str| {
            result
                .rows
                .iter()
                .find(|r| r.op == name && r.n == n && r.backend == b)
                .map(|r| r.items_per_s)
        };
        let mut sizes: Vec<usize> = result.rows.iter().filter(|r| r.op == name).map(|r| r.n).collect();
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
            op.name().to_string(),
            OpProfile {
                crossover: crossover(op, &result.rows),
                points,
                split: split_from(op, &result.splits),
            },
        );
    }
    Ok(profile)
}

/// The smallest measured N from which every measured split beat the faster
/// backend alone by [`MIN_SPLIT_SPEEDUP`], with its share and speed-up.
fn split_from(op: &OpSpec, splits: &[(&'static OpSpec, usize, f64, f64)]) -> Option<Split> {
    let mine: Vec<&(&OpSpec, usize, f64, f64)> = splits.iter().filter(|s| s.0.op == op.op).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A column with a warm-up runs untimed until it has passed before
    /// every timed call (so at least warm-up / call time calls each
    /// round); one without runs once per round after one warm-up call;
    /// only timed calls are counted in its runs.
    #[test]
    fn warm_up_runs_the_call_untimed_before_each_timed_one() {
        let (mut plain, mut warmed) = (0usize, 0usize);
        let sleep = || std::thread::sleep(Duration::from_millis(2));
        let mut columns = vec![
            Column::new(Duration::ZERO, || {
                plain += 1;
                sleep();
            }),
            Column::new(Duration::from_millis(20), || {
                warmed += 1;
                sleep();
            }),
        ];
        let measured = measure(Duration::ZERO, &mut columns);
        drop(columns);
        let rounds = measured[0].1;
        assert_eq!(rounds, 3);
        assert_eq!(measured[1].1, rounds, "warm-up calls are not timed runs");
        assert_eq!(plain, rounds + 1);
        // At least one untimed call before each timed one; at most ten
        // 2 ms calls fit a 20 ms warm-up.
        assert!(warmed > 2 * rounds, "{warmed} calls");
        assert!(warmed <= 1 + rounds * 10 + rounds, "{warmed} calls");
    }

    /// Each placement runs the closure once, at least [`STACK_STEP`]
    /// bytes below the one before, and the placements repeat after
    /// [`PLACEMENTS`].
    #[test]
    fn placements_move_the_stack_by_steps() {
        let at = |placement: usize| {
            let (mut address, mut calls) = (0usize, 0);
            deeper(placement, &mut || {
                let local = 0u8;
                address = std::hint::black_box(&local) as *const u8 as usize;
                calls += 1;
            });
            assert_eq!(calls, 1);
            address
        };
        let addresses: Vec<usize> = (0..=PLACEMENTS).map(at).collect();
        for pair in addresses[..PLACEMENTS].windows(2) {
            assert!(pair[0] >= pair[1] + STACK_STEP, "{pair:?}");
        }
        assert_eq!(addresses[PLACEMENTS], addresses[0]);
    }
}
