//! The [`Engine`]: built once, owns its backends (today the CPU thread pool;
//! GPU devices, compiled pipelines and buffers once the GPU backend lands)
//! and serves one method per operation. Each call returns one verdict per
//! item plus the [`Selection`] saying which backend ran it and why.

use crate::backend::{Backend, BackendChoice, Selection};
use crate::error::{Error, OpName};
use crate::ops::{Op, ed25519};
use crate::verdict::Verdict;

/// Results of one call and the backend that produced them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<T> {
    /// The per-item results, in input order.
    pub output: T,
    /// Which backend ran the call, and why.
    pub selection: Selection,
}

/// Configures and builds an [`Engine`].
#[derive(Debug, Clone, Default)]
pub struct EngineBuilder {
    backend: BackendChoice,
    threads: Option<usize>,
}

impl EngineBuilder {
    /// Which backend to use (default [`BackendChoice::Auto`]).
    pub fn backend(mut self, choice: BackendChoice) -> Self {
        self.backend = choice;
        self
    }

    /// CPU threads (default: one per logical core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Builds the engine: creates the thread pool and, for
    /// [`BackendChoice::Gpu`], fails unless a GPU backend is usable.
    pub fn build(self) -> Result<Engine, Error> {
        if self.backend == BackendChoice::Gpu {
            return Err(Error::BackendUnavailable {
                op: OpName::Engine,
                backend: Backend::Gpu,
                reason: GPU_ABSENT.to_string(),
            });
        }
        let mut pool = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("batchcrypto-cpu-{i}"));
        if let Some(threads) = self.threads {
            pool = pool.num_threads(threads);
        }
        let pool = pool.build().map_err(|e| Error::ThreadPool {
            op: OpName::Engine,
            backend: Backend::Cpu,
            reason: e.to_string(),
        })?;
        Ok(Engine {
            choice: self.backend,
            pool,
        })
    }
}

/// Why no GPU can be used in this build.
const GPU_ABSENT: &str =
    "this build has no GPU backend (looked for: a wgpu adapter; the wgpu backend is not compiled in yet)";

/// A description of one substrate the engine can use, for `devices`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The backend this device belongs to.
    pub backend: Backend,
    /// Human-readable name (CPU model, adapter name).
    pub name: String,
    /// Details: threads, driver, type; or why it is unusable.
    pub detail: String,
    /// Whether the engine can run batches on it.
    pub usable: bool,
}

/// Owns the backends and runs operations on batches.
#[derive(Debug)]
pub struct Engine {
    choice: BackendChoice,
    pool: rayon::ThreadPool,
}

impl Engine {
    /// A builder with default settings (auto backend, all cores).
    pub fn builder() -> EngineBuilder {
        EngineBuilder::default()
    }

    /// The backend choice this engine was built with.
    pub fn choice(&self) -> BackendChoice {
        self.choice
    }

    /// Number of CPU threads in the engine's pool.
    pub fn cpu_threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Every substrate this engine knows of, usable or not.
    pub fn devices(&self) -> Vec<DeviceInfo> {
        vec![
            DeviceInfo {
                backend: Backend::Cpu,
                name: cpu_model(),
                detail: format!("{} threads (rayon)", self.cpu_threads()),
                usable: true,
            },
            DeviceInfo {
                backend: Backend::Gpu,
                name: "none".to_string(),
                detail: GPU_ABSENT.to_string(),
                usable: false,
            },
        ]
    }

    /// Verifies every item of `batch` under `policy`: one verdict per item,
    /// equal to the policy's oracle (see [`ed25519`]).
    pub fn verify_ed25519(
        &self,
        batch: &ed25519::Batch,
        policy: ed25519::Policy,
    ) -> Result<Outcome<Vec<Verdict>>, Error> {
        let selection = self.select(Op::Ed25519Verify(policy), batch.len());
        let output = self.pool.install(|| ed25519::cpu::verify(batch, policy));
        Ok(Outcome { output, selection })
    }

    /// Picks the backend for a batch of `n` items of `op`.
    fn select(&self, _op: Op, _n: usize) -> Selection {
        let why = match self.choice {
            BackendChoice::Cpu => "requested".to_string(),
            // `build` refuses Gpu while no GPU backend exists.
            BackendChoice::Gpu | BackendChoice::Auto => "auto: no GPU backend in this build".to_string(),
        };
        Selection {
            backend: Backend::Cpu,
            why,
        }
    }
}

/// The CPU model from /proc/cpuinfo where there is one, else the architecture.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
