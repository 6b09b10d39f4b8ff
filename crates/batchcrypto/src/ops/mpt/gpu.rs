//! The GPU path: the nodes' Keccak-256 on the device, through the hashing
//! kernel (one thread per node: a branch node's four blocks), and the walk
//! on the host's cores, as the CPU path walks ([`super::cpu::verdicts`]):
//! the hashes are most of an item's work (four fifths of the oracle's
//! time on the bench's account proofs), the walk a read of each node. When the device stops part way, the items whose nodes it all
//! hashed are answered, the rest left to the CPU path.

use super::cpu::{hashed_nodes, verdicts};
use super::{Proof, read};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{Failure, GpuRuntime, Streamed};
use crate::ops::hash::Alg;
use crate::verdict::{Reason, Verdict};

/// Items per task of the reading and the walks on the host.
const TASK_ITEMS: usize = 1024;

/// One verdict per item of `items`.
pub(crate) fn verify(gpu: &dyn GpuRuntime, items: &FlatBytes) -> Streamed<Verdict> {
    let read: Vec<Result<Proof<'_>, Reason>> = cores::map_range(0..items.len(), TASK_ITEMS, |i| read(items.get(i)));
    let nodes = node_batch(&read);
    let (digests, failed) = match gpu.hash(Alg::Keccak256, &nodes) {
        Ok(digests) => (digests, None),
        Err(Failure { done, reason }) if done.is_empty() => {
            return Err(Failure {
                done: Vec::new(),
                reason,
            });
        }
        Err(Failure { done, reason }) => (done, Some(reason)),
    };
    // Each task's first digest: its items' hashed nodes counted before it.
    let chunks: Vec<&[Result<Proof<'_>, Reason>]> = read.chunks(TASK_ITEMS).collect();
    let mut starts = Vec::with_capacity(chunks.len());
    let mut at = 0;
    for chunk in &chunks {
        starts.push(at);
        at += hashed_nodes(chunk).count();
    }
    let tasks: Vec<(usize, &[Result<Proof<'_>, Reason>])> = starts.into_iter().zip(chunks).collect();
    let answers = cores::map(&tasks, 1, |(start, chunk)| {
        verdicts(chunk, digests.get(*start..).unwrap_or(&[]))
    });
    let mut done = Vec::with_capacity(read.len());
    for ((_, chunk), answered) in tasks.iter().zip(answers) {
        let whole = answered.len() == chunk.len();
        done.extend(answered);
        if !whole {
            // Cut short by missing digests: so are the later tasks.
            break;
        }
    }
    match failed {
        None if done.len() == read.len() => Ok(done),
        None => Err(Failure {
            done,
            reason: "the device answered fewer nodes than it was given".into(),
        }),
        Some(reason) => Err(Failure { done, reason }),
    }
}

/// The hashed nodes of the items read, as one batch of messages.
pub(crate) fn node_batch(read: &[Result<Proof<'_>, Reason>]) -> FlatBytes {
    let (count, bytes) = hashed_nodes(read).fold((0, 0), |(c, b), n| (c + 1, b + n.len()));
    let mut nodes = FlatBytes::with_capacity(count, bytes);
    for node in hashed_nodes(read) {
        // The nodes are parts of items of one batch: they fit its limit.
        let _fits = nodes.push(node);
    }
    nodes
}
