//! The GPU path: the transactions decoded and their signing hashes made on
//! the host's cores, the signatures recovered on the `ecrecover` kernel
//! (one thread per signature, EIP-2's low s) through [`gpu::through`]:
//! when the device stops part way, the items before the first signature
//! it did not reach are answered (none when it recovered none), the rest
//! left to the CPU path.

use super::{SenderResult, signing};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{self, GpuRuntime, Streamed};

/// Fewest items per task of the decoding.
const RUN: usize = 64;

/// The sender of every item of `txs`.
pub(crate) fn senders(gpu: &dyn GpuRuntime, txs: &FlatBytes) -> Streamed<SenderResult> {
    let signed = cores::map_range(0..txs.len(), RUN, |i| signing(txs.get(i)).map_err(Err));
    gpu::through(signed, |items| gpu.ecrecover(items, true), |r| r.map(|r| r.address))
}
