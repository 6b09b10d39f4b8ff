//! The CPU path: each level's pairs hashed on every core (runs of pairs per
//! rayon task, as in the hashing CPU path); the small top levels, where
//! scheduling would cost more than the hashes, one after another. Nodes
//! are hashed by the hashing path's routes (several at a time where the
//! CPU allows, see `hash::cpu`). Under lean-imt-poseidon the leaves are
//! decoded once and the levels kept as field elements, each task hashing
//! its pairs with one `light-poseidon` hasher of two inputs.

use ark_bn254::Fr;
use light_poseidon::{Poseidon, PoseidonHasher};

use super::proof::{self, Proof};
use super::{Rule, Tree, parent_level};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::hash::{self, Alg, Digest};
use crate::ops::poseidon;
use crate::verdict::{Reason, Verdict};

/// The parents of pairs under a rule over bytes, `pair(i)` (the 64 bytes
/// [`Rule::preimage`] gives) hashed into `up[i]` through the hashing
/// path's interleaved routes: twice with SHA-256 (bitcoin), once
/// (ssz), or with Keccak-256 (sorted-keccak256).
fn hash_pairs(rule: Rule, pair: impl Fn(usize) -> [u8; 64], up: &mut [Digest]) {
    match rule {
        Rule::Bitcoin => {
            let mut once = vec![[0u8; 32]; up.len()];
            hash::cpu::digest_into(Alg::Sha256, pair, &mut once);
            hash::cpu::digest_into(Alg::Sha256, |i| once[i], up);
        }
        Rule::Ssz => hash::cpu::digest_into(Alg::Sha256, pair, up),
        _ => hash::cpu::digest_into(Alg::Keccak256, pair, up),
    }
}

/// The level above `level` under a rule over bytes (bitcoin,
/// sorted-keccak256, ssz; as `parent_level`), on the calling thread,
/// through the hashing path's interleaved routes.
fn parents(rule: Rule, level: &[Digest]) -> Vec<Digest> {
    // Too few pairs for a lanes call: each node's two SHA-256 hashes one
    // after the other, as `parent_level` does, without the intermediate
    // level (a small tree's levels are all like this).
    if rule == Rule::Bitcoin
        && level.len() / 2 < hash::cpu::Route::chosen().lanes_from(Alg::Sha256)
        && let Some(up) = parent_level(rule, level)
    {
        return up;
    }
    let mut up = vec![[0u8; 32]; level.len() / 2];
    hash_pairs(rule, |i| rule.preimage(&level[2 * i], &level[2 * i + 1]), &mut up);
    if let [.., last] = level
        && level.len() % 2 == 1
    {
        // Duplicated (bitcoin) or carried up (sorted-keccak256; ssz's
        // levels come here padded to an even count).
        up.push(match rule {
            Rule::Bitcoin => {
                let once = hash::oracle::digest(Alg::Sha256, &rule.preimage(last, last));
                hash::oracle::digest(Alg::Sha256, &once)
            }
            _ => *last,
        });
    }
    up
}

/// Below this many nodes a level is hashed on the calling thread.
const SERIAL_BELOW: usize = 256;
/// The same under lean-imt-poseidon, whose hash costs microseconds.
const POSEIDON_SERIAL_BELOW: usize = 16;
/// Most nodes per task under lean-imt-poseidon.
const POSEIDON_TASK_NODES: usize = 128;

fn up(rule: Rule, level: &[Digest]) -> Vec<Digest> {
    if level.len() < SERIAL_BELOW {
        return parents(rule, level);
    }
    // About four tasks per thread, each an even number of nodes.
    let run = (level.len().div_ceil(cores::threads() * 4)).clamp(128, 4096) & !1;
    cores::map_chunks(level, run, |c| parents(rule, c)).concat()
}

/// A hasher of two inputs (making one costs about a tenth of a hash).
fn poseidon_hasher() -> Result<Poseidon<Fr>, String> {
    Poseidon::<Fr>::new_circom(2).map_err(|e| e.to_string())
}

/// The nodes above `nodes` under lean-imt-poseidon (pairs hashed, a last
/// node without a sibling carried up), on the calling thread.
fn poseidon_parents(hasher: &mut Poseidon<Fr>, nodes: &[Fr]) -> Result<Vec<Fr>, String> {
    nodes
        .chunks(2)
        .map(|p| match p {
            [l, r] => hasher.hash(&[*l, *r]).map_err(|e| e.to_string()),
            _ => Ok(p[0]),
        })
        .collect()
}

/// The level above `level` under lean-imt-poseidon, on every core.
fn poseidon_up(level: &[Fr]) -> Result<Vec<Fr>, String> {
    let parents = |nodes: &[Fr]| poseidon_parents(&mut poseidon_hasher()?, nodes);
    if level.len() < POSEIDON_SERIAL_BELOW {
        return parents(level);
    }
    let run = (level.len().div_ceil(cores::threads() * 4)).clamp(2, POSEIDON_TASK_NODES) & !1;
    let runs = cores::map_chunks(level, run, parents);
    let mut up = Vec::with_capacity(level.len().div_ceil(2));
    for r in runs {
        up.extend(r?);
    }
    Ok(up)
}

/// The root of the LeanIMT over `nodes` (not empty), on the calling
/// thread with one hasher.
fn poseidon_subtree(nodes: &[Fr]) -> Result<Fr, String> {
    let mut hasher = poseidon_hasher()?;
    let mut level = nodes.to_vec();
    while level.len() > 1 {
        level = poseidon_parents(&mut hasher, &level)?;
    }
    level.first().copied().ok_or_else(|| super::NO_LEAVES.to_string())
}

/// The root of the LeanIMT over `leaves` (not empty) in one call of the
/// pool: blocks of 2^k leaves, aligned, each a task that reduces it to its
/// own root, then those roots on the calling thread. The same root as level
/// by level: in every level below k the blocks before the last hold an
/// even number of nodes, so the last node of a level (the one carried up
/// when the count is odd) is the last block's own, and each block's
/// subtree is the LeanIMT of its leaves. One hand-off to the pool instead
/// of one per level.
fn poseidon_root(leaves: &[Fr]) -> Result<Fr, String> {
    // About four blocks per thread (fewer leaves than eight per thread:
    // one block).
    let target = leaves.len() / (4 * cores::threads());
    let block = if target < 2 {
        leaves.len().max(1)
    } else {
        1 << target.ilog2()
    };
    let roots = cores::map_chunks(leaves, block, poseidon_subtree)
        .into_iter()
        .collect::<Result<Vec<Fr>, String>>()?;
    poseidon_subtree(&roots)
}

/// The leaves as field elements: the first not below r is the error.
fn poseidon_leaves(leaves: &[Digest]) -> Result<Vec<Fr>, String> {
    cores::map(leaves, 1024, |l| poseidon::element(l))
        .into_iter()
        .enumerate()
        .map(|(i, e)| e.map_err(|_| super::not_a_leaf(i)))
        .collect()
}

/// The root of `leaves` (not empty) under `rule`; an error only for a
/// leaf the rule cannot hash ([`super::check_leaves`]).
pub(crate) fn root(rule: Rule, leaves: &[Digest]) -> Result<Digest, String> {
    if rule == Rule::LeanImtPoseidon {
        return poseidon_root(&poseidon_leaves(leaves)?).map(|r| poseidon::hash_bytes(&r));
    }
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = up(rule, &level);
    }
    level.first().copied().ok_or_else(|| super::NO_LEAVES.to_string())
}

/// Every level of the tree of `leaves` (not empty) under `rule`; an error
/// as [`root`].
pub(crate) fn tree(rule: Rule, leaves: &[Digest]) -> Result<Tree, String> {
    let mut levels = vec![leaves.to_vec()];
    if rule == Rule::LeanImtPoseidon {
        let mut level = poseidon_leaves(leaves)?;
        while level.len() > 1 {
            level = poseidon_up(&level)?;
            levels.push(cores::map(&level, 1024, poseidon::hash_bytes));
        }
    } else {
        while let Some(level) = levels.last().filter(|l| l.len() > 1) {
            let next = up(rule, level);
            levels.push(next);
        }
    }
    Ok(Tree::from_levels(rule, levels))
}

/// The levels of the padded tree of `leaves` under `rule` whose empty
/// subtrees' roots are `zeros` (z_0 to z_depth, [`super::Padding::zeros`]),
/// leaves first and the root last (with `keep` false, the root's level
/// alone: a root needs no other, and copying each level for the tree cost
/// a root of 65,536 leaves a third of its time): each odd level's last
/// node paired with the zero of its height, on every core. An error only
/// for a leaf the rule cannot hash.
fn padded_levels(rule: Rule, leaves: &[Digest], zeros: &[Digest], keep: bool) -> Result<Vec<Vec<Digest>>, String> {
    let depth = zeros.len() - 1;
    let mut levels = Vec::new();
    if keep {
        levels.push(leaves.to_vec());
    }
    if rule == Rule::LeanImtPoseidon {
        let element = |z: &Digest| poseidon::element(z).map_err(|_| "a zero value not below r".to_string());
        let mut level = poseidon_leaves(leaves)?;
        for (height, zero) in zeros[..depth].iter().enumerate() {
            if level.len() % 2 == 1 {
                level.push(element(zero)?);
            }
            level = poseidon_up(&level)?;
            if keep || height + 1 == depth {
                levels.push(cores::map(&level, 1024, poseidon::hash_bytes));
            }
        }
    } else {
        let mut level = leaves.to_vec();
        for zero in &zeros[..depth] {
            if level.len() % 2 == 1 {
                level.push(*zero);
            }
            level = up(rule, &level);
            if keep {
                levels.push(level.clone());
            }
        }
        if !keep {
            levels.push(level);
        }
    }
    if let Some(top) = levels.last_mut().filter(|l| l.is_empty()) {
        top.push(zeros[depth]);
    }
    Ok(levels)
}

/// The root of the padded tree (see [`padded_levels`]).
pub(crate) fn padded_root(rule: Rule, leaves: &[Digest], zeros: &[Digest]) -> Result<Digest, String> {
    let levels = padded_levels(rule, leaves, zeros, false)?;
    levels
        .last()
        .and_then(|l| l.first())
        .copied()
        .ok_or_else(|| "a padded tree without a root".to_string())
}

/// Every level of the padded tree (see [`padded_levels`]).
pub(crate) fn padded_tree(rule: Rule, leaves: &[Digest], zeros: &[Digest]) -> Result<Tree, String> {
    Ok(Tree::padded(
        rule,
        padded_levels(rule, leaves, zeros, true)?,
        zeros.to_vec(),
    ))
}

/// Most inclusion proofs per task.
const PROOF_TASK_ITEMS: usize = 256;

/// The verdict on every inclusion proof of `items` ([`super::proof`]), in
/// order: the items of a task read, then their paths folded together level
/// by level, each level's nodes hashed at once through the hashing path's
/// interleaved routes (under lean-imt-poseidon one item after another with
/// the task's hasher of two inputs).
pub(crate) fn verify_proofs(rule: Rule, depth: Option<u32>, items: &FlatBytes) -> Vec<Verdict> {
    let per_task = items.len().div_ceil(4 * cores::threads()).clamp(1, PROOF_TASK_ITEMS);
    let tasks = items.len().div_ceil(per_task);
    cores::map_range(0..tasks, 1, |t| {
        let read: Vec<Result<Proof<'_>, Reason>> = (t * per_task..((t + 1) * per_task).min(items.len()))
            .map(|i| proof::read(rule, depth, items.get(i)))
            .collect();
        let tops = match rule {
            Rule::LeanImtPoseidon => poseidon_tops(&read),
            _ => byte_tops(rule, &read),
        };
        read.iter()
            .zip(tops)
            .map(|(r, top)| match (r, top) {
                (Ok(p), Some(top)) => proof::verdict(&top == p.root),
                (Err(reason), _) => Verdict::Invalid(*reason),
                (Ok(_), None) => Verdict::Invalid(Reason::NonCanonicalElement),
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The top of each read item's path under a rule over bytes (`None` for
/// an item that did not read), the items' nodes of a level hashed at once.
fn byte_tops(rule: Rule, read: &[Result<Proof<'_>, Reason>]) -> Vec<Option<Digest>> {
    let mut nodes: Vec<Option<Digest>> = read.iter().map(|r| r.as_ref().ok().map(|p| *p.leaf)).collect();
    let height = read.iter().flatten().map(|p| p.siblings.len()).max().unwrap_or(0);
    for l in 0..height {
        // The items whose path goes past level l, and their pairs.
        let active: Vec<(usize, [u8; 64])> = read
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let p = r.as_ref().ok()?;
                let (node, s) = (nodes[i].as_ref()?, p.siblings.get(l)?);
                let pair = if p.right_at(l) {
                    rule.preimage(s, node)
                } else {
                    rule.preimage(node, s)
                };
                Some((i, pair))
            })
            .collect();
        let mut up = vec![[0u8; 32]; active.len()];
        hash_pairs(rule, |k| active[k].1, &mut up);
        for ((i, _), u) in active.iter().zip(up) {
            nodes[*i] = Some(u);
        }
    }
    nodes
}

/// The top of each read item's path under lean-imt-poseidon, with one
/// hasher (`None` for an item that did not read).
fn poseidon_tops(read: &[Result<Proof<'_>, Reason>]) -> Vec<Option<Digest>> {
    let Ok(mut hasher) = poseidon_hasher() else {
        return vec![None; read.len()];
    };
    read.iter()
        .map(|r| {
            let p = r.as_ref().ok()?;
            let mut node = poseidon::element(p.leaf).ok()?;
            for (l, s) in p.siblings.iter().enumerate() {
                let s = poseidon::element(s).ok()?;
                let pair = if p.right_at(l) { [s, node] } else { [node, s] };
                node = hasher.hash(&pair).ok()?;
            }
            Some(poseidon::hash_bytes(&node))
        })
        .collect()
}
