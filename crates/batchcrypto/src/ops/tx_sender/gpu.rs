//! The GPU path: the transactions decoded and their signing hashes made on
//! the host's cores, the signatures recovered on the `ecrecover` kernel
//! (one thread per signature, EIP-2's low s) through [`gpu::through`]:
//! when the device stops part way, the items before the first signature
//! it did not reach are answered (none when it recovered none), the rest
//! left to the CPU path. [`signers`] also serves `eip7702_authority`
//! ([`crate::ops::authority`]) over its own signing hashes.

use super::{SenderResult, signing};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{self, GpuRuntime, Streamed};
use crate::ops::ecdsa::RecoverItem;
use crate::verdict::Reason;

/// Fewest items per task of the decoding.
const RUN: usize = 64;

/// The sender of every item of `txs`.
pub(crate) fn senders(gpu: &dyn GpuRuntime, txs: &FlatBytes) -> Streamed<SenderResult> {
    signers(gpu, txs, signing)
}

/// The signer's address of every item of `items`, each read into its
/// `ecrecover` item by `signing` on the cores, recovered on the device.
pub(crate) fn signers(
    gpu: &dyn GpuRuntime,
    items: &FlatBytes,
    signing: fn(&[u8]) -> Result<RecoverItem, Reason>,
) -> Streamed<SenderResult> {
    let signed = cores::map_range(0..items.len(), RUN, |i| signing(items.get(i)).map_err(Err));
    gpu::through(signed, |items| gpu.ecrecover(items, true), |r| r.map(|r| r.address))
}
