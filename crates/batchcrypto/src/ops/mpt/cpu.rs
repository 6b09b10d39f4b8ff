//! The CPU path: per task, a run of items read, every node of 32 bytes or
//! more among them hashed at once through the hashing path's interleaved
//! Keccak-256 routes (eight lanes on AVX-512; nodes grouped by block count,
//! a branch node's 532 bytes four blocks), then each item walked with its
//! nodes' digests ([`super::walk`]). The GPU path hashes the same nodes on
//! the device and walks alike ([`verdicts`]).

use super::{Proof, read, walk};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::hash::{self, Alg, Digest};
use crate::verdict::{Reason, Verdict};

/// Most items per task: enough nodes (six to nine a state proof) for the
/// lanes to fill at every block count.
const TASK_ITEMS: usize = 256;

/// One verdict per item of `items`, on every core ([`cores`]).
pub(crate) fn verify(items: &FlatBytes) -> Vec<Verdict> {
    let per_task = items.len().div_ceil(4 * cores::threads()).clamp(1, TASK_ITEMS);
    let tasks = items.len().div_ceil(per_task);
    cores::map_range(0..tasks, 1, |t| {
        let read: Vec<Result<Proof<'_>, Reason>> = (t * per_task..((t + 1) * per_task).min(items.len()))
            .map(|i| read(items.get(i)))
            .collect();
        let nodes: Vec<&[u8]> = hashed_nodes(&read).collect();
        let mut digests = vec![[0u8; 32]; nodes.len()];
        hash::cpu::digest_into(Alg::Keccak256, |j| nodes[j], &mut digests);
        verdicts(&read, &digests)
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The nodes whose references are their digests (32 bytes or more), of
/// the items that read, in order.
pub(crate) fn hashed_nodes<'a>(read: &'a [Result<Proof<'a>, Reason>]) -> impl Iterator<Item = &'a [u8]> {
    read.iter()
        .flatten()
        .flat_map(|p| p.nodes.iter().copied().filter(|n| n.len() >= 32))
}

/// The verdicts on items read, `digests` those of their [`hashed_nodes`]
/// in order (fewer: the items past them are not answered).
pub(crate) fn verdicts(read: &[Result<Proof<'_>, Reason>], digests: &[Digest]) -> Vec<Verdict> {
    let mut next = 0;
    let mut out = Vec::with_capacity(read.len());
    for r in read {
        let p = match r {
            Ok(p) => p,
            Err(reason) => {
                out.push(Verdict::Invalid(*reason));
                continue;
            }
        };
        // Node i's digest: at[i] in `digests` (nodes under 32 bytes have none).
        let at: Vec<usize> = p
            .nodes
            .iter()
            .map(|n| {
                let i = next;
                next += usize::from(n.len() >= 32);
                i
            })
            .collect();
        if next > digests.len() {
            break;
        }
        out.push(walk::verdict(p, |i, reference| {
            walk::refers_by(p.nodes[i], digests.get(at[i]), reference)
        }));
    }
    out
}
