//! The GPU path: the transactions read on the host's cores, their
//! signatures checked as `ed25519_verify` batches on that op's kernel.
//! When the device stops part way, the transactions before the first one
//! whose signatures it did not all answer are kept (see
//! [`super::check_all`]), the rest left to the CPU path.

use crate::batch::FlatBytes;
use crate::gpu::{GpuRuntime, Streamed};
use crate::ops::ed25519::Policy;
use crate::verdict::Verdict;

/// The verdict on every item of `txs` under `policy`.
pub(crate) fn verify(gpu: &dyn GpuRuntime, txs: &FlatBytes, policy: Policy) -> Streamed<Verdict> {
    super::check_all(txs, policy, |batch| gpu.ed25519_verify(batch, policy))
}
