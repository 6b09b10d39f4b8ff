//! BIP-340 Schnorr signatures over secp256k1 (Bitcoin Taproot):
//! 32-byte x-only public keys, 64-byte signatures (R.x ‖ s), messages of
//! any length (BIP-340 as amended for variable-length messages).
//! Oracle: libsecp256k1's `schnorrsig` through the `secp256k1` crate
//! ([`oracle`]).
//!
//! Verify (BIP-340): P = lift_x(pk) (fails unless pk < p and x^3 + 7 is a
//! square), r = sig[0..32] < p, s = sig[32..64] < n,
//! e = H_BIP0340/challenge(r ‖ pk ‖ m) mod n, R = s G - e P; valid iff R
//! is not infinity, has even y and x(R) = r. Reasons, first failing check
//! in this order: `malformed_key`, `r_out_of_range`, `s_out_of_range`,
//! `equation`.
//!
//! On the GPU ([`gpu`](self)): the secp256k1 kernel's `bip340_verify` entry
//! point (fixed-base table, GLV), the challenge hashed on the host while
//! packing.

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use crate::batch::SignedBatch;
use crate::ops::ecdsa::SECP256K1_N;
use crate::verdict::Reason;

/// Length of an x-only public key.
pub const PK_LEN: usize = 32;
/// Length of a signature (R.x ‖ s).
pub const SIG_LEN: usize = 64;

/// A batch of `(x-only key, signature, message)` items.
pub type Batch = SignedBatch<PK_LEN, SIG_LEN>;

/// secp256k1's field prime p, big-endian.
pub const SECP256K1_P: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xfc, 0x2f,
];

/// Why a signature whose key decoded fails, by BIP-340's checks in order:
/// r < p, s < n, then the equation.
pub(crate) fn scalar_checks(sig: &[u8; SIG_LEN]) -> Result<(), Reason> {
    // r may be 0 (any x < p); s may be 0.
    if !below(&sig[..32], &SECP256K1_P) {
        return Err(Reason::ROutOfRange);
    }
    if !below(&sig[32..], &SECP256K1_N) {
        return Err(Reason::SOutOfRange);
    }
    Ok(())
}

/// Whether the 32 big-endian bytes `v` are below `bound`.
fn below(v: &[u8], bound: &[u8; 32]) -> bool {
    v < &bound[..]
}
