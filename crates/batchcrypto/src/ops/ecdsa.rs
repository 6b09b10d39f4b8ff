//! ECDSA over short-Weierstrass curves, with the rules of the chains that use
//! them (see ../shared/CLI-FORMATS.md):
//!
//! | op | curve | oracle | rules |
//! |---|---|---|---|
//! | `secp256k1_verify` | secp256k1 | libsecp256k1 (`secp256k1` crate) | key 33 bytes compressed or 65 uncompressed (libsecp's parser); r, s in [1, n-1]; high s accepted (the signature is normalised first) unless `low_s`, then libsecp's own verify, which rejects s > n/2 |
//! | `ecrecover` | secp256k1 | libsecp256k1 recovery | Ethereum's precompile: v in {27, 28} or {0, 1}; r, s in [1, n-1]; high s accepted unless `low_s`; address = last 20 bytes of keccak256(x ‖ y) |
//! | `p256_verify` | P-256 | RustCrypto `p256` | RIP-7212 P256VERIFY: r, s in [1, n-1]; (x, y) on the curve (so not infinity); high s accepted; the hash used as given |
//!
//! Reasons, first failing check in this order — `secp256k1_verify`:
//! `malformed_key`, `r_out_of_range`, `s_out_of_range`, `high_s` (with
//! `low_s`), `equation`; `ecrecover`: `bad_v`, `r_out_of_range`,
//! `s_out_of_range`, `high_s` (with `low_s`), `recovery_failed` (no curve
//! point has x = r); `p256_verify`: `r_out_of_range`, `s_out_of_range`,
//! `not_on_curve`, `equation`.
//!
//! Signatures come as r ‖ s, or in DER ([`der`]: Bitcoin, X.509, WebAuthn,
//! HSMs), read first: one that is not strict DER is `malformed_signature`
//! before any other check.

pub(crate) mod cpu;
pub mod der;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use crate::verdict::Reason;

/// secp256k1's group order n, big-endian.
pub const SECP256K1_N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xba, 0xae, 0xdc,
    0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
];
/// secp256k1's n/2 (rounded down), big-endian: the largest low s.
pub const SECP256K1_HALF_N: [u8; 32] = [
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x5d, 0x57, 0x6e,
    0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0,
];
/// P-256's group order n, big-endian.
pub const P256_N: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa,
    0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
];

/// A secp256k1 public key as given: 33 bytes (compressed) or 65 (uncompressed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct K1Key {
    bytes: [u8; 65],
    len: u8,
}

impl K1Key {
    /// The key of 33 or 65 bytes; `None` for any other length.
    pub fn from_slice(bytes: &[u8]) -> Option<K1Key> {
        if bytes.len() != 33 && bytes.len() != 65 {
            return None;
        }
        let mut k = K1Key {
            bytes: [0; 65],
            len: bytes.len() as u8,
        };
        k.bytes[..bytes.len()].copy_from_slice(bytes);
        Some(k)
    }

    /// The bytes as given.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// One `secp256k1_verify` item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct K1VerifyItem {
    /// The 32-byte message hash.
    pub hash: [u8; 32],
    /// r ‖ s, 32 bytes each, big-endian.
    pub sig: [u8; 64],
    /// The public key.
    pub pk: K1Key,
}

/// One `ecrecover` item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecoverItem {
    /// The 32-byte message hash.
    pub hash: [u8; 32],
    /// r ‖ s ‖ v.
    pub sig: [u8; 65],
}

/// What `ecrecover` returns for a good item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recovered {
    /// The Ethereum address: the last 20 bytes of keccak256(x ‖ y).
    pub address: [u8; 20],
    /// The public key x ‖ y.
    pub pubkey: [u8; 64],
}

/// One `p256_verify` item (RIP-7212's five words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct P256Item {
    /// The 32-byte message hash.
    pub hash: [u8; 32],
    /// r, big-endian.
    pub r: [u8; 32],
    /// s, big-endian.
    pub s: [u8; 32],
    /// The key's x, big-endian.
    pub x: [u8; 32],
    /// The key's y, big-endian.
    pub y: [u8; 32],
}

/// Whether a big-endian scalar is in [1, n-1].
pub(crate) fn in_range(v: &[u8], n: &[u8; 32]) -> bool {
    v.iter().any(|&b| b != 0) && v < &n[..]
}

/// The range and low-s checks on r ‖ s shared by secp256k1 verify and
/// ecrecover, in the documented order.
pub(crate) fn k1_scalar_checks(sig: &[u8], low_s: bool) -> Result<(), Reason> {
    if !in_range(&sig[..32], &SECP256K1_N) {
        return Err(Reason::ROutOfRange);
    }
    if !in_range(&sig[32..64], &SECP256K1_N) {
        return Err(Reason::SOutOfRange);
    }
    if low_s && sig[32..64] > SECP256K1_HALF_N[..] {
        return Err(Reason::HighS);
    }
    Ok(())
}

/// The recovery id of an Ethereum v (27, 28, 0 or 1).
pub(crate) fn recovery_id(v: u8) -> Option<u8> {
    match v {
        27 | 28 => Some(v - 27),
        0 | 1 => Some(v),
        _ => None,
    }
}
