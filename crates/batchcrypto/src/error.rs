//! The one error type of the library.
//!
//! Bad *items* are never errors: they get [`Verdict::Invalid`](crate::Verdict)
//! with a reason. An [`Error`] means a whole call could not be served, and
//! every variant names the operation and the backend involved so that a log
//! line alone says what failed where.

use crate::backend::Backend;
use crate::ops::Op;

/// Why a call (not an item) failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The requested backend cannot run here (no adapter, not built in, ...).
    #[error("{op}: backend {backend} is unavailable: {reason}")]
    BackendUnavailable {
        /// The operation that was asked for (`None` when building the engine).
        op: OpName,
        /// The backend that was asked for.
        backend: Backend,
        /// What was looked for and not found.
        reason: String,
    },
    /// A device failed during a call that has no CPU fallback (benchmark timing).
    #[error("{op} on {backend}: device error: {reason}")]
    Device {
        /// The operation that was running.
        op: OpName,
        /// The backend that failed.
        backend: Backend,
        /// The device's error.
        reason: String,
    },
    /// A batch exceeds a size limit of its storage layout.
    #[error("{op} on {backend}: batch too large: {reason}")]
    BatchTooLarge {
        /// The operation the batch was built for.
        op: OpName,
        /// The backend whose layout sets the limit.
        backend: Backend,
        /// The limit that was exceeded.
        reason: String,
    },
    /// The call's input as a whole is unusable, on any backend (e.g. a
    /// Merkle tree of no leaves).
    #[error("{op}: {reason}")]
    InvalidInput {
        /// The operation that was asked for.
        op: OpName,
        /// What is wrong with the input.
        reason: String,
    },
    /// A backend disagreed with the oracle (or ran elsewhere than asked)
    /// while being measured: its figures would be worthless.
    #[error("{op} on {backend}: {reason}")]
    Disagrees {
        /// The operation measured.
        op: OpName,
        /// The backend that disagreed.
        backend: Backend,
        /// Where, and how.
        reason: String,
    },
    /// The CPU thread pool could not be created.
    #[error("{op}: backend {backend}: thread pool: {reason}")]
    ThreadPool {
        /// The operation (or `engine` while building).
        op: OpName,
        /// Always the CPU backend.
        backend: Backend,
        /// The underlying error's text.
        reason: String,
    },
}

/// The operation named in an [`Error`]: one of [`Op`], or the engine itself
/// while it is being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpName {
    /// Building or configuring the engine, before any operation.
    Engine,
    /// Filling a batch of the named scheme (before any operation runs).
    Batch(&'static str),
    /// A specific operation.
    Op(Op),
}

impl std::fmt::Display for OpName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpName::Engine => f.write_str("engine"),
            OpName::Batch(scheme) => write!(f, "{scheme} batch"),
            OpName::Op(op) => op.fmt(f),
        }
    }
}

impl From<Op> for OpName {
    fn from(op: Op) -> Self {
        OpName::Op(op)
    }
}
