//! The CPU path: per task, a run of items' receipts read (alloy-consensus,
//! as the reference reads them), every log's address and topics of the
//! run hashed at once through the interleaved Keccak-256 routes for the
//! blooms, and the run's tries built and hashed a height at a time as
//! `ordered_trie_root`'s CPU path does ([`crate::ops::ordered_trie`]).

use super::{ReceiptsResult, bloom_inputs, finish, read_all};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::hash::{Alg, cpu::digest_into};
use crate::ops::ordered_trie::build::Roots;
use crate::ops::ordered_trie::oracle;

/// Most items per task: a block's receipts are some hundred kilobytes
/// to read and hash.
const TASK_ITEMS: usize = 16;

/// The answer of every item of `items`, on every core ([`cores`]).
pub(crate) fn check_all(items: &FlatBytes) -> Vec<ReceiptsResult> {
    let per_task = items.len().div_ceil(4 * cores::threads()).clamp(1, TASK_ITEMS);
    let tasks = items.len().div_ceil(per_task);
    cores::map_range(0..tasks, 1, |t| {
        let range = t * per_task..((t + 1) * per_task).min(items.len());
        let read: super::Read = range.clone().map(|i| read_all(items.get(i))).collect();
        let messages: Vec<&[u8]> = read.iter().flatten().flatten().flat_map(bloom_inputs).collect();
        let mut digests = vec![[0u8; 32]; messages.len()];
        digest_into(Alg::Keccak256, |k| messages[k], &mut digests);
        let mut roots = Roots::new(range.clone().map(|i| items.get(i)));
        roots.hash_here(|_| {});
        // Every height was hashed whole: every root is known.
        let roots = range
            .zip(roots.answers())
            .map(|(i, root)| root.unwrap_or_else(|| oracle::root(items.get(i))));
        finish(read, &digests, roots)
    })
    .into_iter()
    .flatten()
    .collect()
}
