//! The CPU path: each level's pairs hashed on every core (runs of pairs per
//! rayon task, as in the hashing CPU path); the small top levels, where
//! scheduling would cost more than the hashes, one after another. Nodes
//! are hashed by the hashing path's routes (several at a time where the
//! CPU allows, see `hash::cpu`).

use super::{Rule, Tree, parent_level};
use crate::cores;
use crate::ops::hash::{self, Alg, Digest};

/// The level above `level` (as `parent_level`), on the calling thread,
/// through the hashing path's interleaved routes.
fn parents(rule: Rule, level: &[Digest]) -> Vec<Digest> {
    // Too few pairs for a lanes call: each node's two SHA-256 hashes one
    // after the other, as `parent_level` does, without the intermediate
    // level (a small tree's levels are all like this).
    if rule == Rule::Bitcoin && level.len() / 2 < hash::cpu::Route::chosen().lanes_from(Alg::Sha256) {
        return parent_level(rule, level);
    }
    let mut up = vec![[0u8; 32]; level.len() / 2];
    let pair = |i: usize| rule.preimage(&level[2 * i], &level[2 * i + 1]);
    match rule {
        Rule::SortedKeccak256 => hash::cpu::digest_into(Alg::Keccak256, pair, &mut up),
        Rule::Bitcoin => {
            let mut once = vec![[0u8; 32]; up.len()];
            hash::cpu::digest_into(Alg::Sha256, pair, &mut once);
            hash::cpu::digest_into(Alg::Sha256, |i| once[i], &mut up);
        }
    }
    if let [.., last] = level
        && level.len() % 2 == 1
    {
        up.push(rule.odd(last));
    }
    up
}

/// Below this many nodes a level is hashed on the calling thread.
const SERIAL_BELOW: usize = 256;

fn up(rule: Rule, level: &[Digest]) -> Vec<Digest> {
    if level.len() < SERIAL_BELOW {
        return parents(rule, level);
    }
    // About four tasks per thread, each an even number of nodes.
    let run = (level.len().div_ceil(cores::threads() * 4)).clamp(128, 4096) & !1;
    cores::map_chunks(level, run, |c| parents(rule, c)).concat()
}

/// The root of `leaves` (not empty) under `rule`.
pub(crate) fn root(rule: Rule, leaves: &[Digest]) -> Digest {
    if leaves.len() == 1 {
        return leaves[0];
    }
    let mut level = up(rule, leaves);
    while level.len() > 1 {
        level = up(rule, &level);
    }
    level[0]
}

/// Every level of the tree of `leaves` (not empty) under `rule`.
pub(crate) fn tree(rule: Rule, leaves: &[Digest]) -> Tree {
    let mut levels = vec![leaves.to_vec()];
    while let Some(level) = levels.last().filter(|l| l.len() > 1) {
        let next = up(rule, level);
        levels.push(next);
    }
    Tree::from_levels(rule, levels)
}
