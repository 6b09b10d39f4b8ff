//! EIP-4844's point evaluation precompile (0x0a) on c-kzg-4844, the
//! library Ethereum's clients verify blob proofs with, and the mainnet
//! trusted setup it carries.
//!
//! Input: 192 bytes, `versioned_hash ‖ z ‖ y ‖ commitment ‖ proof` (32,
//! 32, 32, 48 and 48 bytes; z and y big-endian field elements, the points
//! compressed as ZCash writes BLS12-381 G1). The call succeeds when the
//! commitment's versioned hash (SHA-256 of the commitment with its first
//! byte set to 0x01) is `versioned_hash` and the proof shows that the
//! committed polynomial takes the value y at z; it then returns 64 bytes,
//! FIELD_ELEMENTS_PER_BLOB (4096) and BLS_MODULUS as 32-byte big-endian
//! words ([EIP-4844]). Anything else fails the call.
//!
//! The verdict is c-kzg's `verify_kzg_proof`, here both the oracle and,
//! on all cores, the CPU path. When c-kzg refuses an input it does not
//! say why, so the reason comes from the checks it makes, in its order
//! (`verify_kzg_proof` in c-kzg's `eip4844.c`): the commitment, z, y,
//! then the proof; a point must decompress (flags and x below p), lie on
//! the curve and be in G1 (infinity is a point here: the commitment to
//! the zero polynomial).
//!
//! [EIP-4844]: https://eips.ethereum.org/EIPS/eip-4844

use std::sync::OnceLock;

use blst::BLST_ERROR;
use blst::min_pk::PublicKey;
use c_kzg::{Bytes32, Bytes48, KzgSettings};
use sha2::{Digest, Sha256};

use super::{CallResult, PrecompileError};

/// Bytes of the input.
pub(crate) const INPUT_LEN: usize = 192;
/// The versioned hash's version byte (VERSIONED_HASH_VERSION_KZG).
const VERSION: u8 = 0x01;
/// BLS12-381's scalar field modulus r (BLS_MODULUS), big-endian.
pub(crate) const BLS_MODULUS: [u8; 32] = [
    0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8, 0x05, 0x53, 0xbd, 0xa4,
    0x02, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
];
/// FIELD_ELEMENTS_PER_BLOB.
const FIELD_ELEMENTS_PER_BLOB: u16 = 4096;

/// The precompile's output on success.
pub(crate) fn output() -> [u8; 64] {
    let mut out = [0u8; 64];
    out[30..32].copy_from_slice(&FIELD_ELEMENTS_PER_BLOB.to_be_bytes());
    out[32..].copy_from_slice(&BLS_MODULUS);
    out
}

/// The versioned hash of a commitment.
pub(crate) fn versioned_hash(commitment: &[u8]) -> [u8; 32] {
    let mut hash: [u8; 32] = Sha256::digest(commitment).into();
    hash[0] = VERSION;
    hash
}

/// The mainnet trusted setup, loaded on first use (about 0.1 s).
fn settings() -> &'static KzgSettings {
    static SETTINGS: OnceLock<&'static KzgSettings> = OnceLock::new();
    // No precomputed tables: they speed up only EIP-7594's cell proofs.
    SETTINGS.get_or_init(|| c_kzg::ethereum_kzg_settings(0))
}

/// Why c-kzg refused a point (`None`: it is a point of G1 or infinity).
fn point_failure(bytes: &[u8]) -> Option<PrecompileError> {
    match PublicKey::uncompress(bytes) {
        Err(BLST_ERROR::BLST_BAD_ENCODING) => Some(PrecompileError::PointEncoding),
        Err(BLST_ERROR::BLST_POINT_NOT_IN_GROUP) => Some(PrecompileError::G1NotInSubgroup),
        Err(_) => Some(PrecompileError::NotOnCurve),
        Ok(point) => match point.validate() {
            Ok(()) | Err(BLST_ERROR::BLST_PK_IS_INFINITY) => None,
            Err(_) => Some(PrecompileError::G1NotInSubgroup),
        },
    }
}

/// The first of c-kzg's checks that `commitment`, `z`, `y` and `proof`
/// fail.
fn input_failure(commitment: &[u8], z: &[u8], y: &[u8], proof: &[u8]) -> Option<PrecompileError> {
    point_failure(commitment)
        .or_else(|| (z >= &BLS_MODULUS[..]).then_some(PrecompileError::ScalarField))
        .or_else(|| (y >= &BLS_MODULUS[..]).then_some(PrecompileError::ScalarField))
        .or_else(|| point_failure(proof))
}

/// One call.
pub(crate) fn point_evaluation(input: &[u8]) -> CallResult {
    if input.len() != INPUT_LEN {
        return Err(PrecompileError::InvalidLength);
    }
    let (hash, rest) = input.split_at(32);
    let (z, rest) = rest.split_at(32);
    let (y, rest) = rest.split_at(32);
    let (commitment, proof) = rest.split_at(48);
    if versioned_hash(commitment) != hash {
        return Err(PrecompileError::VersionedHash);
    }
    let word = |b: &[u8]| Bytes32::from_bytes(b).map_err(|_| PrecompileError::InvalidLength);
    let point = |b: &[u8]| Bytes48::from_bytes(b).map_err(|_| PrecompileError::InvalidLength);
    match settings().verify_kzg_proof(&point(commitment)?, &word(z)?, &word(y)?, &point(proof)?) {
        Ok(true) => Ok(output().to_vec()),
        Ok(false) => Err(PrecompileError::ProofRejected),
        // c-kzg refuses only inputs that fail one of the checks above;
        // should our reading of them and its ever differ, the call still
        // fails, as c-kzg says.
        Err(_) => Err(input_failure(commitment, z, y, proof).unwrap_or(PrecompileError::PointEncoding)),
    }
}
