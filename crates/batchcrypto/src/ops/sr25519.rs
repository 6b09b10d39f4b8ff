//! sr25519 (Polkadot, Substrate): Schnorr signatures over Ristretto255
//! with merlin transcripts, as the `schnorrkel` crate defines them.
//! Oracle: schnorrkel's `verify_simple(ctx, msg, sig)`, i.e. the transcript
//! `signing_context(ctx).bytes(msg)`; Substrate signs with the context
//! `substrate` ([`DEFAULT_CONTEXT`]).
//!
//! Verify: the key must be a canonical Ristretto encoding; the signature
//! must carry schnorrkel's marker bit (bit 7 of its last byte, which tells
//! it from an Ed25519 signature) and a canonical s < l; then the
//! transcript's challenge k and \[s\]B - \[k\]A must encode to R. Reasons,
//! first failing check in this order: `malformed_key`,
//! `malformed_signature` (marker bit or non-canonical s), `equation`.
//!
//! On the GPU ([`gpu`](self)) the whole check runs on the device: Ristretto
//! decoding (`gpu/wgsl/ristretto.wgsl`), the transcript through a STROBE-128
//! interpreter over the Keccak-f\[1600\] layer (`gpu/wgsl/strobe.wgsl`,
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

/// rand_core 0.6's generator traits (schnorrkel's) over one of ours: the
/// seeded generator of the samples, the thread's CSPRNG for batch
/// verification's coefficients. Only cryptographic generators are wrapped.
pub(crate) struct Rng06<R>(pub(crate) R);

impl<R: rand::RngExt> rand_core_06::RngCore for Rng06<R> {
    fn next_u32(&mut self) -> u32 {
        self.0.random()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.random()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

impl<R: rand::RngExt> rand_core_06::CryptoRng for Rng06<R> {}
