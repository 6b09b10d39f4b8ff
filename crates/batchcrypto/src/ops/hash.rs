//! Batch hashing: Keccak-256 (Ethereum's, original Keccak padding 0x01),
//! SHA3-256 (FIPS 202, padding 0x06) and SHA-256 (FIPS 180-4) over batches of
//! byte strings of any length, stored flat ([`FlatBytes`]). Each item gets
//! its 32-byte digest, equal to the oracle crates' (`sha3`, `sha2`).
//!
//! [`FlatBytes`]: crate::FlatBytes

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub(crate) mod workload;

use std::fmt;
use std::str::FromStr;

pub use cpu::{KeccakPath, Sha256Path};

/// Length of every digest here.
pub const DIGEST_LEN: usize = 32;

/// A 32-byte digest.
pub type Digest = [u8; DIGEST_LEN];

/// The hash function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Alg {
    /// Keccak-256 with the original Keccak padding, as Ethereum uses it.
    Keccak256,
    /// SHA3-256 (FIPS 202).
    Sha3_256,
    /// SHA-256 (FIPS 180-4).
    Sha256,
}

impl Alg {
    /// All three.
    pub const ALL: [Alg; 3] = [Alg::Keccak256, Alg::Sha3_256, Alg::Sha256];

    /// The CLI name: `keccak256`, `sha3-256`, `sha256`.
    pub fn name(&self) -> &'static str {
        match self {
            Alg::Keccak256 => "keccak256",
            Alg::Sha3_256 => "sha3-256",
            Alg::Sha256 => "sha256",
        }
    }
}

impl fmt::Display for Alg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Alg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Alg::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| format!("unknown hash {s:?} (expected keccak256, sha3-256 or sha256)"))
    }
}
