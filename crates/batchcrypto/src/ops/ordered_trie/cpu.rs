//! The CPU path: per task, a run of items' tries built and hashed a
//! height at a time ([`super::build`]), each height's nodes of 32 bytes or
//! more (a transaction's leaf, a branch of 17 references) and its roots
//! hashed at once through the hashing path's interleaved Keccak-256 routes
//! (eight lanes on AVX-512, nodes grouped by block count).

use super::RootResult;
use super::build::Roots;
use crate::batch::FlatBytes;
use crate::cores;

/// Most items per task: a block's trie has a few hundred nodes, and a
/// task's heights are hashed together.
const TASK_ITEMS: usize = 64;

/// The root of every item of `items`, on every core ([`cores`]).
pub(crate) fn roots(items: &FlatBytes) -> Vec<RootResult> {
    let per_task = items.len().div_ceil(4 * cores::threads()).clamp(1, TASK_ITEMS);
    let tasks = items.len().div_ceil(per_task);
    cores::map_range(0..tasks, 1, |t| {
        let range = t * per_task..((t + 1) * per_task).min(items.len());
        let mut roots = Roots::new(range.clone().map(|i| items.get(i)));
        roots.hash_here(|_| {});
        // Every height was hashed whole: every root is known.
        range
            .zip(roots.answers())
            .map(|(i, root)| root.unwrap_or_else(|| super::oracle::root(items.get(i))))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}
