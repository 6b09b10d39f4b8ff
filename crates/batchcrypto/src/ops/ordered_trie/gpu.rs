//! The GPU path: the tries built and each height's nodes encoded on the
//! host's cores (in chunks of items), every node of one height of the
//! whole batch hashed in one run of the hashing kernel (a thread per
//! node: a transaction's leaf of a few blocks, a branch's four), as the
//! CPU path hashes a task's ([`super::build`]): one round trip per height,
//! a block's trie having four or five. When the device stops part way,
//! the items before the first whose root it did not reach are answered,
//! the rest left to the CPU path.

use super::RootResult;
use super::build::{Level, Roots};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{Failure, GpuRuntime, Streamed};
use crate::ops::hash::Alg;

/// Items per chunk of the host's work (building, encoding).
const CHUNK_ITEMS: usize = 256;

/// The root of every item of `items`.
pub(crate) fn roots(gpu: &dyn GpuRuntime, items: &FlatBytes) -> Streamed<RootResult> {
    let starts: Vec<usize> = (0..items.len()).step_by(CHUNK_ITEMS).collect();
    let mut chunks = cores::map(&starts, 1, |&s| {
        Roots::new((s..(s + CHUNK_ITEMS).min(items.len())).map(|i| items.get(i)))
    });
    let mut failed = None;
    while failed.is_none() && !chunks.iter().all(Roots::done) {
        let levels: Vec<Level> = cores::map(&chunks, 1, Roots::encode);
        let Some(nodes) = node_batch(&levels) else {
            failed = Some("a height's nodes pass the hashing batch's 4 GiB".to_string());
            break;
        };
        let digests = match gpu.hash(Alg::Keccak256, &nodes) {
            Ok(digests) if digests.len() == nodes.len() => digests,
            Ok(digests) => {
                failed = Some("the device answered fewer nodes than it was given".into());
                digests
            }
            Err(Failure { done, reason }) => {
                failed = Some(reason);
                done
            }
        };
        // The digests in the levels' order; a short run leaves the rest unknown.
        let mut rest = &digests[..];
        for (chunk, level) in chunks.iter_mut().zip(&levels) {
            let (mine, later) = rest.split_at(level.to_hash().min(rest.len()));
            chunk.store(level, mine);
            rest = later;
        }
    }
    // The answers up to the first unknown root (all, when nothing failed:
    // every height was hashed whole).
    let mut done = Vec::with_capacity(items.len());
    for answer in chunks.into_iter().flat_map(Roots::answers) {
        match answer {
            Some(root) => done.push(root),
            None => break,
        }
    }
    match failed {
        None if done.len() == items.len() => Ok(done),
        None => Err(Failure {
            done,
            reason: "a root was not reached".into(),
        }),
        Some(reason) => Err(Failure { done, reason }),
    }
}

/// The nodes to hash of the chunks' levels, in order, as one batch of
/// messages; `None` past a batch's 4 GiB (a height's encodings are a few
/// bytes over its values each: only for batches near that limit).
pub(crate) fn node_batch(levels: &[Level]) -> Option<FlatBytes> {
    let count = levels.iter().map(Level::to_hash).sum();
    let bytes = levels
        .iter()
        .map(|l| (0..l.to_hash()).map(|j| l.message(j).len()).sum::<usize>())
        .sum();
    let mut nodes = FlatBytes::with_capacity(count, bytes);
    for level in levels {
        for j in 0..level.to_hash() {
            if !nodes.push(level.message(j)) {
                return None;
            }
        }
    }
    Some(nodes)
}
