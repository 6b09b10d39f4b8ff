#![doc = include_str!("../../../README.md")]
#![forbid(unsafe_code)]

pub mod backend;
pub mod batch;
mod bisect;
mod cores;
pub mod engine;
pub mod error;
pub mod flat;
pub mod gpu;
pub mod ladder;
pub mod ops;
pub mod profile;
mod recent;
pub mod registry;
pub mod verdict;

pub use backend::{Backend, BackendChoice, Selection};
pub use batch::FlatBytes;
pub use engine::{Engine, EngineBuilder, KernelWork, Outcome};
pub use error::{Error, OpName};
pub use ops::Op;
pub use verdict::{Reason, Verdict};
