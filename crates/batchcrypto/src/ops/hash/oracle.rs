//! The oracles: the RustCrypto `sha3` and `sha2` crates, one item at a time.

use sha2::Digest as _;

use super::{Alg, Digest};

/// The digest of `data` under `alg`.
pub fn digest(alg: Alg, data: &[u8]) -> Digest {
    match alg {
        Alg::Keccak256 => sha3::Keccak256::digest(data).into(),
        Alg::Sha3_256 => sha3::Sha3_256::digest(data).into(),
        Alg::Sha256 => sha2::Sha256::digest(data).into(),
    }
}
