//! Host side of the sr25519 GPU kernel (`verify.wgsl`): the batch travels
//! as Ed25519's does (keys, signatures, flat messages; [`EdwardsKernel`]),
//! with the signing context as one more input and the device's table of B
//! shared with the Ed25519 kernel (Ristretto255's base point is
//! edwards25519's). One status word per item comes back.
//!
//! The device runs the whole verification: Ristretto decoding of the key,
//! the marker bit and s < l, the merlin transcript (STROBE-128 over
//! Keccak-f[1600], [`transcript_program`]), [s]B - [k]A and its Ristretto
//! encoding against R.

use super::Batch;
use crate::gpu::driver::{self, Failure, Streamed};
use crate::gpu::merlin::{Bytes, Call, SRC_ITEM, render};
use crate::gpu::{Gpu, shaders};
use crate::ops::ed25519::gpu::EdwardsKernel;
use crate::verdict::{Reason, Verdict};

/// The kernel's per-item transcript sources (verify.wgsl).
const SRC_CTX: u32 = SRC_ITEM;
const SRC_MSG: u32 = SRC_ITEM + 1;
const SRC_PK: u32 = SRC_ITEM + 2;
const SRC_R: u32 = SRC_ITEM + 3;

/// schnorrkel's verification transcript as merlin calls:
/// `signing_context(ctx)` (Transcript::new("SigningContext"),
/// append_message("", ctx)), `.bytes(msg)` (append_message("sign-bytes",
/// msg)), then `verify`'s proto_name("Schnorr-sig"), commit_point("sign:pk",
/// A), commit_point("sign:R", R) and challenge_scalar("sign:c") (64
/// bytes); rendered as WGSL with the kernel's source numbers.
pub(crate) fn transcript_program() -> String {
    let program = render(
        b"SigningContext",
        &[
            Call::Append(b"", Bytes::Item(SRC_CTX)),
            Call::Append(b"sign-bytes", Bytes::Item(SRC_MSG)),
            Call::Append(b"proto-name", Bytes::Const(b"Schnorr-sig")),
            Call::Append(b"sign:pk", Bytes::Item(SRC_PK)),
            Call::Append(b"sign:R", Bytes::Item(SRC_R)),
            Call::Challenge(b"sign:c", 64),
        ],
    );
    format!(
        "const SR25519_SRC_CTX: u32 = {SRC_CTX}u;\nconst SR25519_SRC_MSG: u32 = {SRC_MSG}u;\nconst SR25519_SRC_PK: u32 = {SRC_PK}u;\nconst SR25519_SRC_R: u32 = {SRC_R}u;\n{program}"
    )
}

fn kernel<'a>(gpu: &Gpu, batch: &'a Batch, ctx: &'a [u8]) -> Result<EdwardsKernel<'a>, String> {
    let ctx_len = u32::try_from(ctx.len()).map_err(|_| "a signing context over 4 GiB".to_string())?;
    EdwardsKernel::new(
        gpu,
        "sr25519_verify",
        shaders::sr25519_verify,
        batch,
        ctx_len,
        Some(ctx),
        decode,
    )
}

/// Verifies every item of `batch` under the signing context `ctx` on the
/// GPU: the CPU path's verdicts.
pub(crate) fn verify(gpu: &Gpu, batch: &Batch, ctx: &[u8]) -> Streamed<Verdict> {
    driver::run(gpu, &kernel(gpu, batch, ctx).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `batch` (see
/// [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, batch: &Batch, ctx: &[u8], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &kernel(gpu, batch, ctx)?, runs)
}

/// The verdict of one status code, `None` for an unknown one.
fn decode(code: u32) -> Option<Verdict> {
    Some(match code {
        0 => Verdict::Valid,
        1 => Verdict::Invalid(Reason::MalformedKey),
        2 => Verdict::Invalid(Reason::MalformedSignature),
        3 => Verdict::Invalid(Reason::Equation),
        _ => return None,
    })
}
