//! The GPU path: the receipts read on the host's cores, every log's
//! address and topics of the batch hashed in one run of the hashing
//! kernel for the blooms, and the tries' heights hashed on the device as
//! `ordered_trie_root`'s GPU path does ([`crate::ops::ordered_trie`]).
//! When the device stops part way, the items whose roots it reached are
//! answered if it hashed every log (none otherwise), the rest left to the
//! CPU path.

use super::{ReceiptsResult, bloom_inputs, finish, read_all};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{Failure, GpuRuntime, Streamed};
use crate::ops::hash::Alg;
use crate::ops::ordered_trie;

/// Fewest items per task of the reading.
const RUN: usize = 4;

/// The answer of every item of `items`.
pub(crate) fn check_all(gpu: &dyn GpuRuntime, items: &FlatBytes) -> Streamed<ReceiptsResult> {
    let read: super::Read = cores::map_range(0..items.len(), RUN, |i| read_all(items.get(i)));
    let mut messages = FlatBytes::new();
    for m in read.iter().flatten().flatten().flat_map(bloom_inputs) {
        if !messages.push(m) {
            return Err(Failure {
                done: Vec::new(),
                reason: "the logs' addresses and topics pass the hashing batch's 4 GiB".into(),
            });
        }
    }
    let digests = match gpu.hash(Alg::Keccak256, &messages) {
        Ok(digests) if digests.len() == messages.len() => digests,
        Ok(_) => {
            return Err(Failure {
                done: Vec::new(),
                reason: "the device answered fewer logs than it was given".into(),
            });
        }
        Err(Failure { reason, .. }) => {
            return Err(Failure {
                done: Vec::new(),
                reason,
            });
        }
    };
    match ordered_trie::gpu::roots(gpu, items) {
        Ok(roots) => Ok(finish(read, &digests, roots)),
        // The answered prefix (its receipts' digests come first).
        Err(Failure { done, reason }) => Err(Failure {
            done: finish(read, &digests, done),
            reason,
        }),
    }
}
