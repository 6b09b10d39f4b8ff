//! Merkle roots and inclusion proofs over 32-byte leaves, under named rules
//! that users' consensus code and contracts already follow:
//!
//! | rule | op name | node of (left, right) | odd node at the end of a level |
//! |---|---|---|---|
//! | [`Rule::Bitcoin`] (`bitcoin`) | `merkle_sha256` | `SHA-256(SHA-256(left ‖ right))` | paired with itself (duplicated) |
//! | [`Rule::SortedKeccak256`] (`sorted-keccak256`) | `merkle_keccak256` | `keccak256(min ‖ max)` of the two, compared as bytes | carried up unchanged |
//! | [`Rule::LeanImtPoseidon`] (`lean-imt-poseidon`) | `merkle_poseidon` | `Poseidon(left, right)`: circom's Poseidon of two inputs over BN254's r ([`poseidon`]) | carried up unchanged |
//! | [`Rule::Ssz`] (`ssz`) | `merkle_ssz` | `SHA-256(left ‖ right)` | paired with the root of an empty subtree of its height |
//!
//! - **bitcoin** is Bitcoin's block Merkle root (Bitcoin Core
//!   `ComputeMerkleRoot`): leaves are txids in internal byte order (the
//!   reverse of the hex that explorers show), levels are built left to right,
//!   an odd last node is hashed with a copy of itself. The duplication makes
//!   two leaf lists share a root (CVE-2012-2459: `[a, b, c]` and
//!   `[a, b, c, c]`); Bitcoin rejects the mutated block elsewhere, and so
//!   must a user of this rule.
//! - **sorted-keccak256** is the tree that OpenZeppelin's `MerkleProof.verify`
//!   and `processProof` accept (merkletreejs with `sortPairs: true`): each
//!   pair is hashed smaller first, so a proof is a plain list of siblings
//!   with no left/right bits; an odd last node moves up a level as it is.
//!   Leaves are used as given (hash your leaf data first, as OpenZeppelin's
//!   `StandardMerkleTree` does with a double keccak).
//! - **lean-imt-poseidon** is the Lean Incremental Merkle Tree of zk-kit
//!   (`@zk-kit/lean-imt`, its Solidity `InternalLeanIMT` and the Rust
//!   `lean-imt`) with the hash Semaphore v4 gives it, `poseidon2([left,
//!   right])`: the tree of every Semaphore group, whose root a member's
//!   proof commits to. A node without a right sibling moves up a level as
//!   it is, so the depth is the ceiling of log2 of the leaves. Leaves and
//!   nodes are elements of BN254's scalar field, 32 bytes big-endian; a
//!   leaf not below r is refused ([`check_leaves`]: zk-kit's contract
//!   reverts on such a leaf, `LeafGreaterThanSnarkScalarField`). Zero
//!   leaves (a removed Semaphore member) are hashed like any other.
//! - **ssz** is Ethereum consensus's `merkleize` (the [SSZ
//!   specification]): the chunks padded with zero chunks to the next power
//!   of two, pairs hashed with one SHA-256. A tree of n leaves is the
//!   padded tree (below) of depth ceil(log2 n) with zero value 0; with a
//!   depth it is `merkleize` with a limit of 2^depth chunks (a list's
//!   root before its length is mixed in: `mix_in_length` is one more
//!   SHA-256 of the root and the length, 32 bytes little-endian). Its
//!   proofs are the consensus specification's `is_valid_merkle_branch`
//!   branches (blob sidecars' commitment proofs, light clients' branches,
//!   deposit proofs), their index the generalized index less 2^depth.
//!
//! Under every rule one leaf is its own root and no leaves is an error.
//!
//! **Padded trees** ([`Padding`]): the trees of fixed depth d whose
//! missing leaves are a zero value z (zk-kit's `IncrementalMerkleTree` and
//! Semaphore v1-v3's groups, Tornado-style pools, Light Protocol's state
//! trees, Worldcoin's identity tree, OpenZeppelin's `MerkleTree` library):
//! the root of the 2^d leaves given first and z after them. Every level is
//! then even: the last node of an odd level is paired with the root of an
//! empty subtree of its height (z_0 = z, z_{l+1} = node(z_l, z_l)), and no
//! rule's odd-node case arises. No leaves is the empty tree (its root is
//! z_d); more than 2^d leaves is an error; under lean-imt-poseidon z must
//! be below r too. A proof holds d siblings, the leaf's index bits its
//! sides.
//! A proof for leaf `i` lists, bottom up, the sibling of the node on `i`'s
//! path at each level where one exists (under the bitcoin rule a duplicated
//! node is its own sibling; under the others a carried node has none).
//!
//! **Batches of proofs** ([`proof`]; the operations `merkle_proof_*`):
//! one verdict per item `(root, leaf, index, siblings)`, the path folded
//! by the index's bits as OpenZeppelin's, Bitcoin Core's, Electrum's and
//! zk-kit's verifiers fold it.
//!
//! [SSZ specification]: https://github.com/ethereum/consensus-specs/blob/dev/ssz/simple-serialize.md#merkleization
//!
//! Oracle: the levels built one after another with the `sha2` / `sha3`
//! crates and `light-poseidon` ([`oracle`]); the CPU path builds each level
//! on all cores (a lean-imt-poseidon root: aligned blocks of leaves reduced
//! as tasks, then their roots); the GPU path reduces every level on the
//! device in one submission and reads back only the root.

pub mod block;
pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod proof;
pub mod sample;
pub(crate) mod workload;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::hash::{self, Alg, Digest};
use super::poseidon;
use crate::recent::Recent;
use crate::verdict::Reason;

/// A Merkle tree rule (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Bitcoin: double SHA-256 of left ‖ right, odd last node duplicated.
    Bitcoin,
    /// OpenZeppelin `MerkleProof`: keccak256 of the sorted pair, odd last node carried up.
    SortedKeccak256,
    /// zk-kit's LeanIMT (Semaphore v4): circom's Poseidon of the pair over
    /// BN254's scalar field, a node without a sibling carried up.
    LeanImtPoseidon,
    /// Ethereum consensus's SSZ `merkleize`: SHA-256 of the pair, the
    /// leaves padded with zero chunks to a power of two.
    Ssz,
}

impl Rule {
    /// Every rule.
    pub const ALL: [Rule; 4] = [Rule::SortedKeccak256, Rule::Bitcoin, Rule::LeanImtPoseidon, Rule::Ssz];

    /// The rule's name: `bitcoin`, `sorted-keccak256`, `lean-imt-poseidon`
    /// or `ssz`.
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Bitcoin => "bitcoin",
            Rule::SortedKeccak256 => "sorted-keccak256",
            Rule::LeanImtPoseidon => "lean-imt-poseidon",
            Rule::Ssz => "ssz",
        }
    }

    /// The name of the hash the rule uses: `sha256`, `keccak256` or
    /// `poseidon` (`merkle --hash` takes the first three rules by it).
    pub fn hash(&self) -> &'static str {
        match self {
            Rule::Bitcoin | Rule::Ssz => Alg::Sha256.name(),
            Rule::SortedKeccak256 => Alg::Keccak256.name(),
            Rule::LeanImtPoseidon => "poseidon",
        }
    }

    /// The rule for a hash's name (see [`Rule::hash`]): sha256 -> bitcoin,
    /// keccak256 -> sorted-keccak256, poseidon -> lean-imt-poseidon; `None`
    /// for any other (sha3-256: no rule in use). (ssz is named by its
    /// rule's name.)
    pub fn for_hash(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.hash() == name)
    }

    /// Whether a tree's missing nodes are the roots of empty subtrees
    /// (ssz): its plain trees are padded ones ([`Rule::padding`]).
    pub fn pads(&self) -> bool {
        *self == Rule::Ssz
    }

    /// The padding of a plain tree of `leaves` leaves under a rule that
    /// [`pads`](Rule::pads): depth ceil(log2 leaves), zero value 0; `None`
    /// for the other rules and for fewer than two leaves.
    pub fn padding(&self, leaves: usize) -> Option<Padding> {
        (self.pads() && leaves >= 2).then(|| Padding {
            depth: leaves.next_power_of_two().trailing_zeros(),
            zero: [0; 32],
        })
    }

    /// The 64 bytes hashed into the parent of `left` and `right`: the two
    /// in order (bitcoin), or the smaller first (sorted-keccak256).
    pub(crate) fn preimage(&self, left: &Digest, right: &Digest) -> [u8; 64] {
        let (a, b) = match self {
            Rule::SortedKeccak256 if left > right => (right, left),
            _ => (left, right),
        };
        let mut pair = [0u8; 64];
        pair[..32].copy_from_slice(a);
        pair[32..].copy_from_slice(b);
        pair
    }

    /// The parent node of `left` and `right` (the oracle's hash); `None`
    /// only under lean-imt-poseidon, for a node not below r.
    pub fn node(&self, left: &Digest, right: &Digest) -> Option<Digest> {
        let pair = self.preimage(left, right);
        Some(match self {
            Rule::Bitcoin => hash::oracle::digest(Alg::Sha256, &hash::oracle::digest(Alg::Sha256, &pair)),
            Rule::SortedKeccak256 => hash::oracle::digest(Alg::Keccak256, &pair),
            Rule::LeanImtPoseidon => return poseidon::oracle::hash(&pair).ok(),
            Rule::Ssz => hash::oracle::digest(Alg::Sha256, &pair),
        })
    }

    /// The parent of an odd last node: its own hash with itself (bitcoin)
    /// or the node itself (sorted-keccak256, lean-imt-poseidon); `None` as
    /// [`Rule::node`], and under ssz, whose odd nodes are paired with the
    /// empty subtrees' roots of their padded trees ([`Rule::padding`]).
    pub fn odd(&self, last: &Digest) -> Option<Digest> {
        match self {
            Rule::Bitcoin => self.node(last, last),
            Rule::SortedKeccak256 => Some(*last),
            Rule::LeanImtPoseidon => poseidon::element(last).ok().map(|_| *last),
            Rule::Ssz => None,
        }
    }
}

/// The most levels of a padded tree.
pub const MAX_DEPTH: u32 = 64;

/// A padded tree's shape (see the module documentation): its depth and the
/// value of its missing leaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Padding {
    /// Levels above the leaves (the tree holds 2^depth leaves), 1 to
    /// [`MAX_DEPTH`].
    pub depth: u32,
    /// The value of a missing leaf.
    pub zero: Digest,
}

impl Padding {
    /// The roots of empty subtrees of height 0 to `depth` under `rule`
    /// (the oracle's hash): `zero`, then each the node of two of the one
    /// before; `None` when `zero` cannot be hashed (lean-imt-poseidon: not
    /// below r).
    pub fn zeros(&self, rule: Rule) -> Option<Vec<Digest>> {
        let mut zeros = vec![self.zero];
        check_leaves(rule, &zeros).ok()?;
        for _ in 0..self.depth.min(MAX_DEPTH) {
            let z = zeros[zeros.len() - 1];
            zeros.push(rule.node(&z, &z)?);
        }
        Some(zeros)
    }

    /// [`Padding::zeros`], shared with the calls that asked for the same
    /// rule, depth and zero value recently (the process keeps 16 such
    /// chains): a padded tree's call otherwise hashes its whole chain
    /// again, which for a tree of a few leaves is most of the call (depth
    /// 20 under lean-imt-poseidon: 20 Poseidon hashes, 0.44 ms of a 0.90
    /// ms root of four leaves on the 2-vCPU Zen 4 VM).
    pub(crate) fn zeros_cached(&self, rule: Rule) -> Option<Arc<Vec<Digest>>> {
        static CHAINS: Recent<Vec<Digest>, 16> = Recent::new();
        let mut key = Vec::with_capacity(6 + self.zero.len());
        key.push(rule as u8);
        key.extend_from_slice(&self.depth.to_le_bytes());
        key.extend_from_slice(&self.zero);
        CHAINS.get(&key, |_| self.zeros(rule).ok_or(())).ok()
    }

    /// Whether `leaves` leaves fit (at most 2^depth).
    pub fn holds(&self, leaves: usize) -> bool {
        self.depth >= usize::BITS || leaves <= 1usize << self.depth
    }

    /// Why a padded tree of `leaves` leaves under `rule` cannot be built,
    /// if it cannot (the leaves themselves apart).
    pub(crate) fn refusal(&self, rule: Rule, leaves: usize) -> Option<String> {
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            Some(format!("depth {} is not 1 to {MAX_DEPTH}", self.depth))
        } else if !self.holds(leaves) {
            Some(format!(
                "{leaves} leaves do not fit a tree of depth {} (2^{} leaves)",
                self.depth, self.depth
            ))
        } else if check_leaves(rule, &[self.zero]).is_err() {
            Some(
                "the zero value is not below BN254's scalar field modulus r (lean-imt-poseidon hashes field elements)"
                    .to_string(),
            )
        } else {
            None
        }
    }
}

/// What a tree of no leaves is refused with.
pub(crate) const NO_LEAVES: &str = "a Merkle tree needs at least one leaf";

/// What a tree with leaf `i` not below r is refused with (lean-imt-poseidon).
pub(crate) fn not_a_leaf(i: usize) -> String {
    format!("leaf {i} is not below BN254's scalar field modulus r (lean-imt-poseidon hashes field elements)")
}

/// Whether every leaf is one `rule` can hash: the first that is not, with
/// why (only lean-imt-poseidon refuses any: a leaf not below BN254's r).
pub fn check_leaves(rule: Rule, leaves: &[Digest]) -> Result<(), (usize, Reason)> {
    if rule != Rule::LeanImtPoseidon {
        return Ok(());
    }
    match leaves.iter().position(|l| poseidon::element(l).is_err()) {
        Some(i) => Err((i, Reason::NonCanonicalElement)),
        None => Ok(()),
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            format!("unknown Merkle rule {s:?} (expected bitcoin, sorted-keccak256, lean-imt-poseidon or ssz)")
        })
    }
}

/// The level above `level` under `rule`, one node at a time (an even-length
/// slice of a level gives the matching slice of the level above); `None`
/// where a node cannot be hashed ([`Rule::node`]).
pub(crate) fn parent_level(rule: Rule, level: &[Digest]) -> Option<Vec<Digest>> {
    level
        .chunks(2)
        .map(|p| match p {
            [l, r] => rule.node(l, r),
            [last] => rule.odd(last),
            _ => None,
        })
        .collect()
}

/// Every level of a tree, leaves first, root last, with proofs for any leaf.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    rule: Rule,
    levels: Vec<Vec<Digest>>,
    /// A padded tree's empty subtrees' roots by height ([`Padding::zeros`]).
    zeros: Option<Vec<Digest>>,
}

impl Tree {
    /// Wraps levels built elsewhere (leaves first, one node last).
    pub(crate) fn from_levels(rule: Rule, levels: Vec<Vec<Digest>>) -> Tree {
        debug_assert!(levels.last().is_some_and(|l| l.len() == 1));
        Tree {
            rule,
            levels,
            zeros: None,
        }
    }

    /// Wraps a padded tree's levels (leaves first, as many as given; the
    /// root last) with its empty subtrees' roots by height.
    pub(crate) fn padded(rule: Rule, levels: Vec<Vec<Digest>>, zeros: Vec<Digest>) -> Tree {
        debug_assert!(levels.len() == zeros.len() && levels.last().is_some_and(|l| l.len() == 1));
        Tree {
            rule,
            levels,
            zeros: Some(zeros),
        }
    }

    /// The rule the tree was built under.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The root.
    pub fn root(&self) -> Digest {
        self.levels.last().and_then(|l| l.first()).copied().unwrap_or_default()
    }

    /// Number of leaves.
    pub fn leaves(&self) -> usize {
        self.levels.first().map_or(0, Vec::len)
    }

    /// The levels, leaves first, root last.
    pub fn levels(&self) -> &[Vec<Digest>] {
        &self.levels
    }

    /// The inclusion proof of leaf `index` (siblings bottom up), `None`
    /// when there is no such leaf.
    pub fn proof(&self, index: usize) -> Option<Vec<Digest>> {
        self.path(index).map(|(_, siblings)| siblings)
    }

    /// The inclusion proof of leaf `index` as [`proof`] items take it: the
    /// path's sides as bits, least significant first (1: the node is the
    /// right one of its pair), and the siblings, bottom up. A level where
    /// the node is carried up has no bit and no sibling (zk-kit's LeanIMT
    /// proofs' `index`); under the bitcoin rule a duplicated node is its own
    /// sibling. `None` when there is no such leaf.
    pub fn path(&self, index: usize) -> Option<(u64, Vec<Digest>)> {
        if index >= self.leaves() {
            return None;
        }
        let (mut bits, mut siblings) = (0u64, Vec::new());
        let mut i = index;
        for (l, level) in self.levels[..self.levels.len() - 1].iter().enumerate() {
            let zero = self.zeros.as_ref().map(|z| z[l]);
            let sibling = match (level.get(i ^ 1).or(zero.as_ref()), self.rule) {
                (Some(s), _) => Some(*s),
                // An odd last node: paired with itself, or carried up.
                (None, Rule::Bitcoin) => Some(level[i]),
                (None, Rule::SortedKeccak256 | Rule::LeanImtPoseidon | Rule::Ssz) => None,
            };
            if let Some(s) = sibling {
                bits |= ((i & 1) as u64) << siblings.len().min(63);
                siblings.push(s);
            }
            i /= 2;
        }
        Some((bits, siblings))
    }
}

/// Whether `proof` shows that `leaf` is leaf `index` of the padded tree of
/// depth `depth` with root `root` under `rule`: `depth` siblings, bottom
/// up, the leaf's side at each the next bit of `index`. (The zero value
/// does not enter: a missing sibling is in the proof as the empty
/// subtree's root.)
pub fn verify_padded_proof(
    rule: Rule,
    depth: u32,
    leaf: &Digest,
    index: usize,
    proof: &[Digest],
    root: &Digest,
) -> bool {
    let fits = depth >= usize::BITS || index < 1usize << depth;
    if !fits || proof.len() != depth as usize || check_leaves(rule, std::slice::from_ref(leaf)).is_err() {
        return false;
    }
    let mut node = *leaf;
    for (l, s) in proof.iter().enumerate() {
        let left = l >= usize::BITS as usize || (index >> l) & 1 == 0;
        let up = if left { rule.node(&node, s) } else { rule.node(s, &node) };
        let Some(up) = up else {
            return false;
        };
        node = up;
    }
    &node == root
}

/// Whether `proof` shows that `leaf` is leaf `index` of a tree of `leaves`
/// leaves with root `root` under `rule`. (Under sorted-keccak256 the
/// position does not enter the hashes; `index` and `leaves` only check the
/// proof's length, as OpenZeppelin's `verify` does not. Under
/// lean-imt-poseidon a leaf or sibling not below r fails.)
pub fn verify_proof(rule: Rule, leaf: &Digest, index: usize, leaves: usize, proof: &[Digest], root: &Digest) -> bool {
    if index >= leaves || check_leaves(rule, std::slice::from_ref(leaf)).is_err() {
        return false;
    }
    if let Some(padding) = rule.padding(leaves) {
        return verify_padded_proof(rule, padding.depth, leaf, index, proof, root);
    }
    let mut node = *leaf;
    let (mut i, mut width) = (index, leaves);
    let mut siblings = proof.iter();
    while width > 1 {
        let has_sibling = i ^ 1 < width;
        let up = match (has_sibling, rule) {
            (false, Rule::SortedKeccak256 | Rule::LeanImtPoseidon | Rule::Ssz) => rule.odd(&node),
            (false, Rule::Bitcoin) => match siblings.next() {
                Some(s) if s == &node => rule.node(&node, s),
                _ => None,
            },
            (true, _) => match siblings.next() {
                Some(s) if i % 2 == 0 => rule.node(&node, s),
                Some(s) => rule.node(s, &node),
                None => None,
            },
        };
        let Some(up) = up else {
            return false;
        };
        node = up;
        i /= 2;
        width = width.div_ceil(2);
    }
    siblings.next().is_none() && &node == root
}
