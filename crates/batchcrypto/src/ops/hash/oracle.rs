//! The oracles, one item at a time: the RustCrypto `sha3`, `sha2` and
//! `blake2` crates, and the `blake3` crate of BLAKE3's authors.

use sha2::Digest as _;

use super::{Alg, Digest};

/// BLAKE2b with a 32-byte digest (RustCrypto's type for it).
type Blake2b256 = blake2::Blake2b<blake2::digest::consts::U32>;

/// The digest of `data` under `alg`.
pub fn digest(alg: Alg, data: &[u8]) -> Digest {
    match alg {
        Alg::Keccak256 => sha3::Keccak256::digest(data).into(),
        Alg::Sha3_256 => sha3::Sha3_256::digest(data).into(),
        Alg::Sha256 => sha2::Sha256::digest(data).into(),
        Alg::Blake2b256 => <Blake2b256 as blake2::Digest>::digest(data).into(),
        Alg::Blake3 => blake3::hash(data).into(),
    }
}
