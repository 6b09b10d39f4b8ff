//! Batch hashing: Keccak-256 (Ethereum's, original Keccak padding 0x01),
//! SHA3-256 (FIPS 202, padding 0x06), SHA-256 (FIPS 180-4), BLAKE2b-256
//! (RFC 7693, unkeyed, 32-byte output: Substrate's and Polkadot's
//! `blake2_256`, Filecoin's CIDs, Cardano's transaction ids) and BLAKE3
//! (its specification's default hash, 32 bytes) over batches of byte
//! strings of any length, stored flat ([`FlatBytes`]). Each item gets its
//! 32-byte digest, equal to the oracle crates' (`sha3`, `sha2`, `blake2`,
//! `blake3`).
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
    /// BLAKE2b with a 32-byte digest, unkeyed, no salt or personalisation
    /// (RFC 7693; the digest length is in its parameter block, so this is
    /// not BLAKE2b-512 cut short).
    Blake2b256,
    /// BLAKE3's default hash (32 bytes of its extendable output).
    Blake3,
}

impl Alg {
    /// All five.
    pub const ALL: [Alg; 5] = [Alg::Keccak256, Alg::Sha3_256, Alg::Sha256, Alg::Blake2b256, Alg::Blake3];

    /// The CLI name: `keccak256`, `sha3-256`, `sha256`, `blake2b-256`,
    /// `blake3`.
    pub fn name(&self) -> &'static str {
        match self {
            Alg::Keccak256 => "keccak256",
            Alg::Sha3_256 => "sha3-256",
            Alg::Sha256 => "sha256",
            Alg::Blake2b256 => "blake2b-256",
            Alg::Blake3 => "blake3",
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
        Alg::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Alg::ALL.iter().map(Alg::name).collect();
            format!("unknown hash {s:?} (expected one of {})", names.join(", "))
        })
    }
}
