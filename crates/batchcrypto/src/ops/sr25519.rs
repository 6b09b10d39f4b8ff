//! sr25519 (Polkadot, Substrate): Schnorr signatures over Ristretto255
//! with merlin transcripts, as the `schnorrkel` crate defines them.
//! Oracle: schnorrkel's `verify_simple(ctx, msg, sig)`, i.e. the transcript
//! `signing_context(ctx).bytes(msg)`; Substrate signs with the context
//! `substrate` ([`DEFAULT_CONTEXT`]).
//!
//! Verify: the key must be a canonical Ristretto encoding; the signature
//! must carry schnorrkel's marker bit (bit 7 of its last byte, which tells
//! it from an Ed25519 signature) and a canonical s < l; then the
//! transcript's challenge k and [s]B - [k]A must encode to R. Reasons,
//! first failing check in this order: `malformed_key`,
//! `malformed_signature` (marker bit or non-canonical s), `equation`.
//!
//! On the GPU ([`gpu`](self)) the whole check runs on the device: Ristretto
//! decoding (`gpu/wgsl/ristretto.wgsl`), the transcript through a STROBE-128
//! interpreter over the Keccak-f[1600] layer (`gpu/wgsl/strobe.wgsl`,
//! programs from `gpu/merlin.rs`), and the Ed25519 kernel's double-scalar
//! multiplication.

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use crate::batch::SignedBatch;

/// Length of a public key (a compressed Ristretto point).
pub const PK_LEN: usize = 32;
/// Length of a signature (R ‖ s, marker bit in the last byte).
pub const SIG_LEN: usize = 64;
/// The signing context Substrate uses.
pub const DEFAULT_CONTEXT: &[u8] = b"substrate";

/// A batch of `(public key, signature, message)` items (one context for
/// the batch).
pub type Batch = SignedBatch<PK_LEN, SIG_LEN>;
