//! Calibration profiles: what `batchcrypto calibrate` measured on this
//! machine, per operation (items/s of the CPU path and of one GPU adapter
//! at a ladder of batch sizes, the crossover N* where the GPU first beat
//! the CPU, and whether running both at once beat the GPU alone), kept in
//! the user's cache directory and read by [`BackendChoice::Auto`].
//!
//! The decision for a batch of N items of an operation ([`Profile::plan`]):
//!
//! 1. no entry for the operation, or the GPU never beat the CPU: the CPU;
//! 2. N below the crossover N*: the CPU;
//! 3. N at or above the size where calibration measured a CPU+GPU split
//!    faster than the GPU alone (and the operation can be split): both at
//!    once, the CPU taking the measured share of the items;
//! 4. otherwise the GPU.
//!
//! So a software adapter (lavapipe) is only ever chosen where it measured
//! faster than the CPU. The file is JSON (see the README); it is tied to
//! the adapter it names: an engine that opens another adapter ignores it.
//!
//! [`BackendChoice::Auto`]: crate::BackendChoice::Auto

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::ops::Op;

/// The profile format version this build reads and writes.
pub const VERSION: u32 = 1;

/// One calibration: a machine, one adapter, every operation measured.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    /// Format version ([`VERSION`]).
    pub version: u32,
    /// When it was measured (RFC 3339).
    pub created: String,
    /// The commit of the binary that measured it.
    pub commit: String,
    /// CPU model.
    pub cpu: String,
    /// CPU threads the CPU path used.
    pub threads: usize,
    /// The adapter measured ("name (type, backend, driver)"), `None` when
    /// no GPU was usable: then every operation runs on the CPU.
    pub adapter: Option<String>,
    /// The adapter's name alone, which the engine opens (substring match).
    pub adapter_name: Option<String>,
    /// Per operation name (`ed25519_verify_strict`, `keccak256`, ...).
    pub ops: BTreeMap<String, OpProfile>,
}

/// What calibration measured for one operation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OpProfile {
    /// The smallest measured N where the GPU (end to end) beat the CPU;
    /// `None` when it never did.
    pub crossover: Option<usize>,
    /// Items per second at each measured N.
    pub points: Vec<Point>,
    /// A CPU+GPU split measured faster than the GPU alone, if one was.
    pub split: Option<Split>,
}

/// Rates at one batch size.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// Batch size.
    pub n: usize,
    /// CPU path, all threads, items/s.
    pub cpu_items_per_s: f64,
    /// GPU end to end, items/s (`None` without a GPU).
    pub gpu_items_per_s: Option<f64>,
}

/// A measured CPU+GPU split.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Split {
    /// The batch size it was measured at (and from which it is used).
    pub n: usize,
    /// Share of the items given to the CPU (0 to 1).
    pub cpu_share: f64,
    /// The faster backend's time alone over the split's time at `n`
    /// (above 1: the split was faster than either alone).
    pub speedup: f64,
}

/// Where a batch should run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Plan {
    /// The CPU path.
    Cpu,
    /// The GPU.
    Gpu,
    /// Both at once: the CPU takes `cpu_share` of the items, the GPU the rest.
    Split {
        /// Share of the items for the CPU.
        cpu_share: f64,
    },
}

/// A split must have been measured at least this much faster than the
/// faster backend alone to be used (below that, noise decides).
pub const MIN_SPLIT_SPEEDUP: f64 = 1.05;

impl Profile {
    /// The profile's path: `$BATCHCRYPTO_PROFILE`, else
    /// `$XDG_CACHE_HOME/batchcrypto/profile.json`, else
    /// `$HOME/.cache/batchcrypto/profile.json` (on Windows
    /// `%LOCALAPPDATA%\batchcrypto\profile.json`).
    pub fn default_path() -> Option<PathBuf> {
        let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(p) = env("BATCHCRYPTO_PROFILE") {
            return Some(p);
        }
        let cache = env("XDG_CACHE_HOME")
            .or_else(|| env("HOME").map(|h| h.join(".cache")))
            .or_else(|| env("LOCALAPPDATA"))?;
        Some(cache.join("batchcrypto").join("profile.json"))
    }

    /// Reads a profile; `Ok(None)` when the file does not exist.
    pub fn load(path: &Path) -> Result<Option<Profile>, String> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let profile: Profile =
            serde_json::from_str(&text).map_err(|e| format!("{} is not a profile: {e}", path.display()))?;
        if profile.version != VERSION {
            return Err(format!(
                "{} has profile version {}, this build reads {VERSION}; run `batchcrypto calibrate` again",
                path.display(),
                profile.version
            ));
        }
        profile
            .check()
            .map_err(|e| format!("{} is not a usable profile: {e}", path.display()))?;
        Ok(Some(profile))
    }

    /// Values a profile can hold: shares in [0, 1], rates and speedups
    /// positive and finite, crossovers and sizes at least 1.
    fn check(&self) -> Result<(), String> {
        for (op, e) in &self.ops {
            if e.crossover == Some(0) {
                return Err(format!("{op}: crossover 0"));
            }
            for p in &e.points {
                let rates = std::iter::once(p.cpu_items_per_s).chain(p.gpu_items_per_s);
                if p.n == 0 || rates.into_iter().any(|r| !(r.is_finite() && r >= 0.0)) {
                    return Err(format!(
                        "{op}: a point at N={} with a rate that is not a positive number",
                        p.n
                    ));
                }
            }
            if let Some(s) = &e.split {
                if !(0.0..=1.0).contains(&s.cpu_share) {
                    return Err(format!("{op}: CPU share {} is outside 0 to 1", s.cpu_share));
                }
                if s.n == 0 || !(s.speedup.is_finite() && s.speedup > 0.0) {
                    return Err(format!("{op}: split at N={} with speedup {}", s.n, s.speedup));
                }
            }
        }
        Ok(())
    }

    /// Writes the profile (creating its directory) to a temporary file
    /// beside `path`, then renames it into place: a reader never sees half
    /// a profile, and a failed write leaves the old one.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())? + "\n";
        let mut temp = path.as_os_str().to_owned();
        temp.push(format!(".{}.tmp", std::process::id()));
        let temp = PathBuf::from(temp);
        std::fs::write(&temp, text)
            .and_then(|()| std::fs::rename(&temp, path))
            .map_err(|e| {
                let _ = std::fs::remove_file(&temp);
                format!("cannot write {}: {e}", path.display())
            })
    }

    /// A few lines per profile: where it came from and, per operation, the
    /// crossover, the rates at the largest size and any split.
    pub fn describe(&self) -> String {
        let p = self;
        let mut s = format!(
            "profile of {} (commit {}): CPU {} ({} threads), GPU {}\n",
            p.created,
            // A profile is a user's file: cut by characters, never inside one.
            p.commit.chars().take(10).collect::<String>(),
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

    /// Whether any operation ran faster on the GPU (so `auto` opens it).
    pub fn gpu_ever_wins(&self) -> bool {
        self.adapter.is_some() && self.ops.values().any(|o| o.crossover.is_some())
    }

    /// Where `n` items of `op` should run, and why (see the module docs).
    /// `can_split` says whether the operation can be split across backends.
    pub fn plan(&self, op: Op, n: usize, can_split: bool) -> (Plan, String) {
        let Some(entry) = self.ops.get(op.name()) else {
            return (
                Plan::Cpu,
                format!("auto: {op} is not in the profile, the CPU is the default"),
            );
        };
        let Some(crossover) = entry.crossover else {
            return (
                Plan::Cpu,
                format!("auto: the GPU never beat the CPU on {op} when calibrated"),
            );
        };
        if n < crossover {
            return (
                Plan::Cpu,
                format!("auto: N={n} is below the calibrated crossover N*={crossover}"),
            );
        }
        if can_split
            && let Some(split) = entry
                .split
                .as_ref()
                .filter(|s| s.speedup >= MIN_SPLIT_SPEEDUP && n >= s.n)
        {
            return (
                Plan::Split {
                    cpu_share: split.cpu_share,
                },
                format!(
                    "auto: N={n} >= {}, where CPU+GPU measured {:.2}x the faster backend alone; CPU share {:.0}%",
                    split.n,
                    split.speedup,
                    split.cpu_share * 100.0
                ),
            );
        }
        (Plan::Gpu, format!("auto: N={n} >= calibrated crossover N*={crossover}"))
    }
}
