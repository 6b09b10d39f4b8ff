//! BLS12-381 signatures as Ethereum's consensus layer uses them: the
//! proof-of-possession ciphersuite with public keys in G1 (48-byte
//! compressed), signatures in G2 (96-byte compressed), hash to G2 with the
//! domain separation tag [`DST`], key validation and signature subgroup
//! checks on (the consensus specs' `KeyValidate` and `signature_to_point`).
//! Oracle: [blst](https://github.com/supranational/blst) ([`oracle`]).
//! The CPU path is blst on all cores (`cpu.rs`); every operation also runs
//! on the GPU (`gpu.rs`, `gpu/signatures.rs`: decompression, subgroup
//! checks, hash to G2 and pairings in WGSL) with the same answers.
//!
//! Operations, each one verdict per item:
//!
//! | op | item | rule |
//! |---|---|---|
//! | `bls_verify` | (pk, msg, sig) | blst `Signature::verify`, each item on its own |
//! | `bls_batch_verify` | (pk, msg, sig) | the same verdicts, found with one multi-pairing over random linear combinations (64-bit scalars) of the whole batch; a failing batch is bisected |
//! | `bls_aggregate_verify` | (`pks[k]`, `msgs[k]`, aggregate sig) | blst `aggregate_verify` (every pk validated; messages need not be distinct: PoP scheme) |
//! | `bls_fast_aggregate_verify` | (`pks[k]`, msg, aggregate sig) | every pk `KeyValidate`d, then blst `fast_aggregate_verify` |
//! | `eip2537_pairing` | EIP-2537 input | the precompile at 0x0f ([`eip2537`]) |
//!
//! Reasons, first failing check in this order: `malformed_key` (no curve
//! point), `identity_key`, `key_not_in_subgroup`, `malformed_signature`,
//! `signature_not_in_subgroup`, then `equation`; aggregates with no keys or
//! with unequal numbers of keys and messages get `empty_or_mismatched`.
//!
//! A batch check accepts an invalid item with probability at most 2^-64
//! (the random scalars are drawn afresh per check), as in the consensus
//! clients that verify this way; `bls_verify` has no such error.

pub(crate) mod cpu;
pub mod eip2537;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey, Signature};

use crate::batch::SignedBatch;
use crate::verdict::Reason;

/// The Ethereum consensus domain separation tag (proof-of-possession scheme).
pub const DST: &[u8] = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_";
/// Length of a compressed G1 public key.
pub const PK_LEN: usize = 48;
/// Length of a compressed G2 signature.
pub const SIG_LEN: usize = 96;

/// A batch of `(public key, signature, message)` items.
pub type Batch = SignedBatch<PK_LEN, SIG_LEN>;

/// How a batch of `(pk, msg, sig)` items is verified (same verdicts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// Each item on its own (`bls_verify`).
    #[default]
    Single,
    /// One multi-pairing over random linear combinations, bisected on
    /// failure (`bls_batch_verify`).
    Batch,
}

/// One aggregate signature over distinct (or not) messages, one per key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AggregateItem {
    /// The signers' public keys.
    pub pks: Vec<[u8; PK_LEN]>,
    /// The messages, `msgs[i]` signed by `pks[i]`.
    pub msgs: Vec<Vec<u8>>,
    /// The aggregate signature.
    pub sig: [u8; SIG_LEN],
}

/// One aggregate signature of many keys over one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FastAggregateItem {
    /// The signers' public keys.
    pub pks: Vec<[u8; PK_LEN]>,
    /// The message they all signed.
    pub msg: Vec<u8>,
    /// The aggregate signature.
    pub sig: [u8; SIG_LEN],
}

/// `KeyValidate`: the key as a point, or why it is rejected.
pub(crate) fn decode_key(bytes: &[u8; PK_LEN]) -> Result<PublicKey, Reason> {
    let pk = PublicKey::from_bytes(bytes).map_err(|_| Reason::MalformedKey)?;
    match pk.validate() {
        Ok(()) => Ok(pk),
        Err(BLST_ERROR::BLST_PK_IS_INFINITY) => Err(Reason::IdentityKey),
        Err(_) => Err(Reason::KeyNotInSubgroup),
    }
}

/// `signature_to_point` with the subgroup check: the signature as a point,
/// or why it is rejected. (The point at infinity is a valid encoding.)
pub(crate) fn decode_sig(bytes: &[u8; SIG_LEN]) -> Result<Signature, Reason> {
    let sig = Signature::from_bytes(bytes).map_err(|_| Reason::MalformedSignature)?;
    sig.validate(false).map_err(|_| Reason::SignatureNotInSubgroup)?;
    Ok(sig)
}
