//! Ordered tries built and hashed a height at a time, for many tries at
//! once: each number of values' trie is laid out once ([`Shape`]: leaves,
//! extensions and branches over the keys `RLP(i)`), then [`Roots`] encodes every node of
//! one height of all its tries (alloy-trie's `LeafNodeRef`,
//! `ExtensionNodeRef` and `BranchNodeRef`, as its `HashBuilder` encodes
//! them), the caller hashes those of 32 bytes or more (and every root) in
//! one call — the CPU path through the interleaved Keccak routes, the GPU
//! path on the hashing kernel — and the digests become the references the
//! next height's nodes hold (a node under 32 bytes is embedded, its own
//! reference). Heights run from the leaves (0) to the highest root.

use alloy_primitives::B256;
use alloy_trie::nodes::{BranchNodeRef, ExtensionNodeRef, LeafNodeRef, RlpNode};
use alloy_trie::root::adjust_index_for_rlp;
use alloy_trie::{Nibbles, TrieMask};
use std::collections::HashMap;

use super::{EMPTY_ROOT, RootResult, read};
use crate::ops::hash::{self, Alg, Digest};

/// A node of a trie's shape.
#[derive(Debug)]
enum Node {
    /// The rest of a key and the index of its value.
    Leaf { path: Nibbles, value: u32 },
    /// A shared stretch of keys and the node below it.
    Extension { path: Nibbles, child: u32 },
    /// The nodes below, by the next nibble (a bit of `mask` each, in order).
    Branch { mask: TrieMask, children: Vec<u32> },
}

/// The shape of the trie of n values at keys `RLP(i)`, which depends on n
/// only (a batch's lists of one length share it): its nodes, children
/// before parents, the root last; and each node's height (a leaf 0,
/// another one more than its highest child).
#[derive(Debug)]
struct Shape {
    nodes: Vec<Node>,
    heights: Vec<u8>,
}

impl Shape {
    /// The shape for `n` values (at least one).
    fn of(n: usize) -> Self {
        // The keys in order: alloy-trie's order of the indices (1 to 127,
        // 0, then 128 up: RLP(i) sorted), which leaves no key a prefix of
        // another, so no branch holds a value.
        let keyed: Vec<(Nibbles, u32)> = (0..n)
            .map(|i| {
                let index = adjust_index_for_rlp(i, n);
                (Nibbles::unpack(alloy_rlp::encode_fixed_size(&index)), index as u32)
            })
            .collect();
        debug_assert!(keyed.windows(2).all(|w| w[0].0 < w[1].0));
        let mut shape = Shape {
            nodes: Vec::with_capacity(2 * n),
            heights: Vec::with_capacity(2 * n),
        };
        shape.add(&keyed, 0);
        shape
    }

    /// Adds the subtrie of `keyed` (sorted, no key a prefix of another,
    /// all sharing their first `depth` nibbles) and returns its root's index.
    fn add(&mut self, keyed: &[(Nibbles, u32)], depth: usize) -> u32 {
        let (first, last) = (&keyed[0].0, &keyed[keyed.len() - 1].0);
        let (node, height) = if keyed.len() == 1 {
            let path = first.slice(depth..);
            (
                Node::Leaf {
                    path,
                    value: keyed[0].1,
                },
                0,
            )
        } else {
            // The sorted keys' common prefix is the first's and the last's.
            let shared = first.common_prefix_length(last);
            if shared > depth {
                let child = self.add(keyed, shared);
                let path = first.slice(depth..shared);
                (Node::Extension { path, child }, self.heights[child as usize] + 1)
            } else {
                let mut mask = TrieMask::default();
                let mut children = Vec::new();
                let mut rest = keyed;
                while let Some((key, _)) = rest.first() {
                    let nibble = key.get_unchecked(depth);
                    let run = rest.partition_point(|(k, _)| k.get_unchecked(depth) == nibble);
                    mask.set_bit(nibble);
                    children.push(self.add(&rest[..run], depth + 1));
                    rest = &rest[run..];
                }
                let height = children.iter().map(|&c| self.heights[c as usize]).max().unwrap_or(0) + 1;
                (Node::Branch { mask, children }, height)
            }
        };
        self.nodes.push(node);
        self.heights.push(height);
        (self.nodes.len() - 1) as u32
    }

    /// The root's height.
    fn height(&self) -> u8 {
        self.heights.last().copied().unwrap_or(0)
    }

    /// Node `i`'s encoding over `values`, appended to `out`, its
    /// children's references taken from `refs` (a branch's gathered in
    /// `stack`, the caller's buffer kept across nodes).
    fn encode(&self, i: usize, values: &[&[u8]], refs: &[RlpNode], stack: &mut Vec<RlpNode>, out: &mut Vec<u8>) {
        use alloy_rlp::Encodable;
        match &self.nodes[i] {
            Node::Leaf { path, value } => LeafNodeRef::new(path, values[*value as usize]).encode(out),
            Node::Extension { path, child } => ExtensionNodeRef::new(path, &refs[*child as usize]).encode(out),
            Node::Branch { mask, children } => {
                stack.clear();
                stack.extend(children.iter().map(|&c| refs[c as usize].clone()));
                BranchNodeRef::new(stack, *mask).encode(out);
            }
        }
    }
}

/// A node encoded at the current height: whose, where its bytes are, and
/// whether its reference is its digest.
struct Encoded {
    item: u32,
    node: u32,
    end: usize,
    hashed: bool,
}

/// The nodes of one height of many tries, encoded back to back.
pub(crate) struct Level {
    bytes: Vec<u8>,
    nodes: Vec<Encoded>,
    /// `hashed[j]`: the index in `nodes` of the j-th node to hash.
    hashed: Vec<usize>,
}

impl Level {
    /// The bytes of node `j` of [`Level::hashed`]'s order.
    pub(crate) fn message(&self, j: usize) -> &[u8] {
        let at = self.hashed[j];
        let start = if at == 0 { 0 } else { self.nodes[at - 1].end };
        &self.bytes[start..self.nodes[at].end]
    }

    /// How many nodes to hash.
    pub(crate) fn to_hash(&self) -> usize {
        self.hashed.len()
    }
}

/// Many items' tries being hashed a height at a time.
pub(crate) struct Roots<'a> {
    /// Each item's values, or its answer already known (a reason, or the
    /// empty trie's root).
    tries: Vec<Result<Vec<&'a [u8]>, RootResult>>,
    /// The shape of each number of values the items have.
    shapes: HashMap<usize, Shape>,
    /// Each item's nodes' references so far.
    refs: Vec<Vec<RlpNode>>,
    roots: Vec<Option<Digest>>,
    /// The next height to encode.
    height: u8,
    /// The highest root's height.
    top: u8,
}

impl<'a> Roots<'a> {
    /// The tries of `items` (each read as in [`super::read`]).
    pub(crate) fn new(items: impl Iterator<Item = &'a [u8]>) -> Self {
        let tries: Vec<Result<Vec<&'a [u8]>, RootResult>> = items
            .map(|item| match read(item) {
                Err(reason) => Err(Err(reason)),
                Ok(values) if values.is_empty() => Err(Ok(EMPTY_ROOT)),
                Ok(values) => Ok(values),
            })
            .collect();
        let mut shapes = HashMap::new();
        for values in tries.iter().flatten() {
            shapes.entry(values.len()).or_insert_with(|| Shape::of(values.len()));
        }
        let top = shapes.values().map(Shape::height).max().unwrap_or(0);
        let refs = tries
            .iter()
            .map(|t| {
                t.as_ref()
                    .map_or(Vec::new(), |v| vec![RlpNode::default(); shapes[&v.len()].nodes.len()])
            })
            .collect();
        Roots {
            roots: vec![None; tries.len()],
            tries,
            shapes,
            refs,
            height: 0,
            top,
        }
    }

    /// Whether every height has been hashed.
    pub(crate) fn done(&self) -> bool {
        self.tries.iter().all(|t| t.is_err()) || self.height > self.top
    }

    /// The nodes of the next height, encoded.
    pub(crate) fn encode(&self) -> Level {
        let mut level = Level {
            bytes: Vec::new(),
            nodes: Vec::new(),
            hashed: Vec::new(),
        };
        let mut stack = Vec::with_capacity(16);
        for (item, values) in self.tries.iter().enumerate() {
            let Ok(values) = values else { continue };
            let shape = &self.shapes[&values.len()];
            let root = shape.nodes.len() - 1;
            for (node, _) in shape.heights.iter().enumerate().filter(|(_, h)| **h == self.height) {
                let start = level.bytes.len();
                shape.encode(node, values, &self.refs[item], &mut stack, &mut level.bytes);
                let hashed = node == root || level.bytes.len() - start >= 32;
                if hashed {
                    level.hashed.push(level.nodes.len());
                }
                level.nodes.push(Encoded {
                    item: item as u32,
                    node: node as u32,
                    end: level.bytes.len(),
                    hashed,
                });
            }
        }
        level
    }

    /// Takes the digests of `level`'s hashed nodes (in its order) as their
    /// references, the others' encodings as theirs, and moves to the next
    /// height. With fewer digests than hashed nodes, the nodes past them
    /// stay unknown: then no further height may be encoded (its nodes
    /// would hold wrong references), and the roots known are right.
    pub(crate) fn store(&mut self, level: &Level, digests: &[Digest]) {
        let mut next = digests.iter();
        let mut start = 0;
        for e in &level.nodes {
            let bytes = &level.bytes[start..e.end];
            start = e.end;
            let (item, node) = (e.item as usize, e.node as usize);
            let reference = if e.hashed {
                let Some(digest) = next.next() else { break };
                if node + 1 == self.refs[item].len() {
                    self.roots[item] = Some(*digest);
                }
                RlpNode::word_rlp(&B256::from(*digest))
            } else {
                // Under 32 bytes: fits an RlpNode.
                RlpNode::from_raw(bytes).unwrap_or_default()
            };
            self.refs[item][node] = reference;
        }
        self.height += 1;
    }

    /// Hashes every height left on the calling thread through the
    /// interleaved Keccak-256 routes (the CPU path), each height's
    /// [`Level`] shown to `seen` first.
    pub(crate) fn hash_here(&mut self, mut seen: impl FnMut(&Level)) {
        while !self.done() {
            let level = self.encode();
            seen(&level);
            let mut digests = vec![[0u8; 32]; level.to_hash()];
            hash::cpu::digest_into(Alg::Keccak256, |j| level.message(j), &mut digests);
            self.store(&level, &digests);
        }
    }

    /// Each item's root, or its reason; `None` where its root was not
    /// hashed (heights left, or digests missing).
    pub(crate) fn answers(self) -> Vec<Option<RootResult>> {
        self.tries
            .into_iter()
            .zip(self.roots)
            .map(|(trie, root)| match trie {
                Err(known) => Some(known),
                Ok(_) => root.map(Ok),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ordered_trie::{encode, oracle};

    /// alloy-trie's index order is the keys' order at every length where
    /// RLP(i) grows a byte (128, 256, 65,536), and the roots of lists that
    /// long are the oracle's (keys of one to four bytes in one trie).
    #[test]
    fn shapes_past_every_key_length() {
        for n in [1, 2, 127, 128, 129, 255, 256, 257, 65_535, 65_536, 65_537] {
            let keys: Vec<Nibbles> = (0..n)
                .map(|i| Nibbles::unpack(alloy_rlp::encode_fixed_size(&adjust_index_for_rlp(i, n))))
                .collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "{n} keys out of order");
            let mut seen: Vec<u32> = (0..n).map(|i| adjust_index_for_rlp(i, n) as u32).collect();
            seen.sort_unstable();
            assert!(
                seen.iter().enumerate().all(|(i, &v)| v as usize == i),
                "{n}: not each index once"
            );
        }
        for n in [255, 65_537] {
            let values: Vec<Vec<u8>> = (0..n).map(|i: usize| vec![(i % 251) as u8 + 1; 1 + i % 40]).collect();
            let item = encode(&values).expect("fits");
            let mut roots = Roots::new(std::iter::once(&item[..]));
            roots.hash_here(|_| {});
            assert_eq!(roots.answers(), vec![Some(oracle::root(&item))], "{n} values");
        }
    }
}
