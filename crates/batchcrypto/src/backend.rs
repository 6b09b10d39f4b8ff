//! Backends (where a batch runs) and the user's choice among them.
//!
//! A backend is a substrate with its own implementation of each operation:
//! the CPU (all cores through rayon) and the GPU (wgpu), each one file per
//! operation; [`Backend::Split`] is both at once on parts of one batch.
//! [`BackendChoice::Auto`] lets the engine pick per batch from the
//! calibration profile ([`crate::profile`]); without one it picks the CPU and
//! says so in [`Selection::why`].

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// A substrate that ran (or could run) a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// All CPU cores, through the engine's rayon thread pool.
    Cpu,
    /// A GPU through wgpu (Vulkan, Metal, DX12).
    Gpu,
    /// The CPU and the GPU at once, each on a share of the batch.
    Split,
}

impl Backend {
    /// The lowercase name used by the CLI and in reports.
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Cpu => "cpu",
            Backend::Gpu => "gpu",
            Backend::Split => "split",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the user asked for when building an [`Engine`](crate::Engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BackendChoice {
    /// Pick per batch (the default).
    #[default]
    Auto,
    /// Always the CPU.
    Cpu,
    /// Always the GPU; building the engine fails if none is usable.
    Gpu,
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BackendChoice::Auto => "auto",
            BackendChoice::Cpu => "cpu",
            BackendChoice::Gpu => "gpu",
        })
    }
}

impl FromStr for BackendChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(BackendChoice::Auto),
            "cpu" => Ok(BackendChoice::Cpu),
            "gpu" => Ok(BackendChoice::Gpu),
            other => Err(format!("unknown backend {other:?} (expected auto, cpu or gpu)")),
        }
    }
}

/// Which backend ran a call, and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    /// The backend that produced the results.
    pub backend: Backend,
    /// A short human-readable reason ("requested", "auto: ..."): a
    /// constant where it can be, so that a call of a few items allocates
    /// nothing for it.
    pub why: Cow<'static, str>,
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.backend, self.why)
    }
}
