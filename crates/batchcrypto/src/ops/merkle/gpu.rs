//! Host side of the Merkle kernels for the driver
//! ([`crate::gpu::driver`]), each over its rule's parent of two nodes
//! (`pair.wgsl` for the rules over bytes, `pair_poseidon.wgsl` for
//! lean-imt-poseidon).
//!
//! Roots (`merkle.wgsl`, `poseidon.wgsl`, both over `level.wgsl`): the
//! leaves go into a buffer
//! with room for every level, one pass per level (each its own parameters)
//! runs in one submission, and only the status words and the root come
//! back. The driver's unit is the whole tree. Under lean-imt-poseidon the
//! leaves go in Montgomery form (put there on the host's cores), with the
//! constants of Poseidon's width 3
//! ([`crate::ops::poseidon::gpu::constants`]).

use std::sync::Arc;

use rayon::prelude::*;

use super::Rule;
use super::proof::{self, Proof};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, bigint, shaders};
use crate::ops::hash::Digest;
use crate::ops::poseidon::{self, gpu::Constants};
use crate::verdict::{Reason, Verdict};

/// Bytes between two levels' parameters (the uniform offset alignment).
const PARAM_STRIDE: u64 = 256;
/// Status words read back: cut flag, levels run, 8 root words.
const STATUS_WORDS: u64 = 10;
/// Bytes of one level's parameters (level.wgsl's `Level`): eight words,
/// then the level's zero (a padded tree's).
const LEVEL_BYTES: u64 = 64;
const LEVEL_HEAD: usize = 32;

/// One level: nodes in, where they are, where the parents go (in nodes).
struct LevelPlan {
    n_in: u32,
    in_off: u32,
    out_off: u32,
}

/// The levels of a tree of `n` leaves, bottom up, and the nodes in all:
/// until one node is left, or `depth` levels for a padded tree.
fn plan(n: usize, depth: Option<usize>) -> Result<(Vec<LevelPlan>, usize), String> {
    let mut levels = Vec::new();
    let (mut width, mut off) = (n, 0usize);
    while depth.map_or(width > 1, |d| levels.len() < d) {
        let out = off + width;
        let too_big =
            |v: usize| u32::try_from(v).map_err(|_| format!("{n} leaves are too many for one tree on the GPU"));
        levels.push(LevelPlan {
            n_in: too_big(width)?,
            in_off: too_big(off)?,
            out_off: too_big(out)?,
        });
        off = out;
        width = width.div_ceil(2);
    }
    Ok((levels, off + 1))
}

/// The root of `leaves` (at least two; with `zeros`, a padded tree's of
/// at least one, `zeros` its empty subtrees' roots by height) under
/// `rule`, on the GPU.
pub(crate) fn root(gpu: &Gpu, rule: Rule, leaves: &[Digest], zeros: Option<&[Digest]>) -> Result<Digest, String> {
    let tree = Tree::new(gpu, rule, leaves, zeros)?;
    match driver::run(gpu, &tree) {
        Ok(roots) => roots.first().copied().ok_or_else(|| "no root came back".to_string()),
        Err(Failure { reason, .. }) => Err(reason),
    }
}

/// Kernel-only times (seconds) of `runs` reductions of `leaves`, uploaded
/// once (see [`driver::time`]). For benchmarks.
pub(crate) fn kernel_times(gpu: &Gpu, rule: Rule, leaves: &[Digest], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &Tree::new(gpu, rule, leaves, None)?, runs)
}

/// The lean-imt-poseidon kernel's source (entry point
/// `merkle_poseidon_level`), as [`Tree::new`] compiles it.
#[cfg(test)]
pub(crate) fn poseidon_source() -> Result<String, String> {
    Ok(shaders::merkle_poseidon(poseidon::gpu::constants(2)?.partial))
}

/// The leaves as field elements in Montgomery form, 8 little-endian words
/// each, on all cores; an error for a leaf not below r.
fn montgomery(leaves: &[Digest]) -> Result<Vec<u8>, String> {
    let words: Vec<Result<Vec<u8>, String>> = leaves
        .par_iter()
        .enumerate()
        .map(|(i, leaf)| {
            let x = poseidon::element(leaf).map_err(|_| super::not_a_leaf(i))?;
            Ok(poseidon::gpu::words(&x).flat_map(u32::to_le_bytes).collect())
        })
        .collect();
    let mut bytes = Vec::with_capacity(leaves.len() * 32);
    for w in words {
        bytes.extend(w?);
    }
    Ok(bytes)
}

/// A tree to reduce: one unit for the driver.
struct Tree<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    rule: Rule,
    leaves: &'a [Digest],
    levels: Vec<LevelPlan>,
    tree_bytes: u64,
    /// Under lean-imt-poseidon: Poseidon's constants of width 3 and the
    /// leaves in Montgomery form, as the kernel reads them.
    poseidon: Option<(&'static Constants, Vec<u8>)>,
    /// A padded tree's zero of each height, 32 bytes each as the kernel
    /// holds a node (level.wgsl's `Level.zero`).
    zeros: Option<Vec<u8>>,
}

impl<'a> Tree<'a> {
    fn new(gpu: &Gpu, rule: Rule, leaves: &'a [Digest], zeros: Option<&[Digest]>) -> Result<Tree<'a>, String> {
        if leaves.len() < if zeros.is_some() { 1 } else { 2 } {
            return Err("a GPU reduction needs two leaves or more (a padded tree one)".to_string());
        }
        let depth = zeros.map(|z| z.len().saturating_sub(1));
        let (levels, total_nodes) = plan(leaves.len(), depth)?;
        let tree_bytes = total_nodes as u64 * 32;
        if tree_bytes > gpu.max_binding {
            return Err(format!(
                "a tree of {} leaves needs {tree_bytes} bytes, over the adapter's storage binding limit",
                leaves.len()
            ));
        }
        let (pipeline, poseidon) = match rule {
            Rule::LeanImtPoseidon => {
                gpu.require_int64("merkle_poseidon")?;
                let constants = poseidon::gpu::constants(2)?;
                let source = || shaders::merkle_poseidon(constants.partial);
                let pipeline = gpu.pipeline("merkle_poseidon", "merkle_poseidon_level", source)?;
                (pipeline, Some((constants, montgomery(leaves)?)))
            }
            _ => (
                gpu.pipeline("merkle", "merkle_level", || shaders::merkle(gpu.int64))?,
                None,
            ),
        };
        // Each level's zero as the kernel holds a node.
        let zeros = match zeros {
            None => None,
            Some(z) if poseidon.is_some() => Some(montgomery(z)?),
            Some(z) => Some(z.as_flattened().to_vec()),
        };
        Ok(Tree {
            pipeline,
            rule,
            leaves,
            levels,
            tree_bytes,
            poseidon,
            zeros,
        })
    }
}

impl Kernel for Tree<'_> {
    type Out = Digest;

    fn name(&self) -> &'static str {
        "merkle"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        1
    }

    fn max_units(&self) -> usize {
        1
    }

    fn inputs(&self, _start: usize, _end: usize) -> Vec<Input> {
        let mut inputs = vec![
            Input::uniform(self.levels.len() * PARAM_STRIDE as usize),
            Input::storage(self.leaves.len() * 32).with_room(self.tree_bytes),
        ];
        if let Some((c, _)) = &self.poseidon {
            inputs.push(Input::storage(c.words.len() * 4));
        }
        inputs
    }

    fn pack(&self, _start: usize, _end: usize, dst: Vec<Dst<'_>>) {
        let rule = self.rule as u32;
        let mut param_bytes = vec![0u8; self.levels.len() * PARAM_STRIDE as usize];
        for (l, (level, at)) in self
            .levels
            .iter()
            .zip(param_bytes.chunks_exact_mut(PARAM_STRIDE as usize))
            .enumerate()
        {
            let last = u32::from(l + 1 == self.levels.len());
            let words = [
                level.n_in,
                level.in_off,
                level.out_off,
                rule,
                shaders::LOOP_GUARD,
                last,
                u32::from(self.zeros.is_some()),
                0,
            ];
            for (d, w) in at.chunks_exact_mut(4).zip(words) {
                d.copy_from_slice(&w.to_le_bytes());
            }
            if let Some(zero) = self.zeros.as_ref().and_then(|z| z.get(32 * l..32 * (l + 1))) {
                at[LEVEL_HEAD..LEVEL_BYTES as usize].copy_from_slice(zero);
            }
        }
        match &self.poseidon {
            Some((c, montgomery)) => {
                let [mut params, nodes, constants] = driver::inputs(dst);
                params.copy_from_slice(&param_bytes);
                driver::copy(nodes, montgomery);
                constants.write_iter(c.words.iter().flat_map(|w| w.to_le_bytes()));
            }
            None => {
                let [mut params, mut nodes] = driver::inputs(dst);
                params.copy_from_slice(&param_bytes);
                nodes.copy_from_slice(self.leaves.as_flattened());
            }
        }
    }

    fn out_bytes(&self, _start: usize, _end: usize) -> u64 {
        STATUS_WORDS * 4
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        _start: usize,
        _end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let layout = self.pipeline.get_bind_group_layout(0);
        // level.wgsl: the nodes at 2, the status at 3; the Poseidon
        // kernel's constants at 1.
        let mut rest: Vec<(u32, &wgpu::Buffer)> = vec![(2, &inputs[1]), (3, out)];
        if let Some(constants) = inputs.get(2) {
            rest.push((1, constants));
        }
        self.levels
            .iter()
            .enumerate()
            .map(|(l, level)| {
                let params = wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &inputs[0],
                        offset: l as u64 * PARAM_STRIDE,
                        size: wgpu::BufferSize::new(LEVEL_BYTES),
                    }),
                };
                let entries: Vec<wgpu::BindGroupEntry> = [params]
                    .into_iter()
                    .chain(rest.iter().map(|&(binding, b)| wgpu::BindGroupEntry {
                        binding,
                        resource: b.as_entire_binding(),
                    }))
                    .collect();
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("merkle_level"),
                    layout: &layout,
                    entries: &entries,
                });
                (bind_group, level.n_in.div_ceil(2))
            })
            .collect()
    }

    fn decode(&self, _start: usize, _end: usize, bytes: &[u8], roots: &mut Vec<Digest>) -> Result<(), String> {
        let word = |k: usize| u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
        if word(0) & crate::gpu::LOOPS_CUT_FLAG != 0 {
            return Err("the driver cut a loop short while reducing the tree".to_string());
        }
        if word(1) as usize != self.levels.len() {
            return Err(format!("{} of {} tree levels ran", word(1), self.levels.len()));
        }
        let mut root = [0u8; 32];
        if self.rule == Rule::LeanImtPoseidon {
            // Eight words, least significant first.
            let words: Vec<u32> = (2..10).map(word).collect();
            let be = bigint::to_be::<8>(&words);
            root = be.try_into().map_err(|_| "a root of another length")?;
        } else {
            root.copy_from_slice(&bytes[8..40]);
        }
        roots.push(root);
        Ok(())
    }
}

/// The lean-imt-poseidon proofs' kernel's source (entry point
/// `merkle_proof`), as [`ProofKernel::new`] compiles it.
#[cfg(test)]
pub(crate) fn proof_poseidon_source() -> Result<String, String> {
    Ok(shaders::merkle_proof_poseidon(poseidon::gpu::constants(2)?.partial))
}

/// Most proofs per sub-batch (64 siblings each at most: 64 MiB of them).
const PROOF_MAX_ITEMS: usize = 1 << 15;
/// Words per proof in `heads` (proof.wgsl's `PROOF_HEAD_WORDS`): root,
/// leaf, the index's two words, the siblings' count and first.
const PROOF_HEAD_WORDS: usize = 20;
/// Words per proof in the output: matched, then the completion flag.
const PROOF_OUT_WORDS: usize = 2;

/// The verdict on every inclusion proof of `items` on the GPU: each item
/// read on the host's cores with the CPU path's checks
/// ([`proof::read`]: an item that fails has its reason here), the others'
/// paths folded on the device, a thread per proof (`proof.wgsl`), and a
/// match flag back per proof. Under lean-imt-poseidon the nodes go in
/// Montgomery form; a root not below r matches no path (`root_mismatch`
/// on the host).
pub(crate) fn verify_proofs(gpu: &Gpu, rule: Rule, depth: Option<u32>, items: &FlatBytes) -> Streamed<Verdict> {
    if rule == Rule::LeanImtPoseidon {
        gpu.require_int64("merkle_proof_poseidon").map_err(Failure::at_start)?;
    }
    let split = host_split(rule, depth, items);
    let mut answers: Vec<Option<Verdict>> = split.iter().map(|s| s.err()).collect();
    let mine = device_proofs(&split);
    if !mine.is_empty() {
        let kernel = ProofKernel::new(gpu, rule, &mine).map_err(|reason| Failure::after(&answers, reason))?;
        let results = driver::run(gpu, &kernel);
        let got = match &results {
            Ok(got) => got,
            Err(Failure { done, .. }) => done,
        };
        for ((i, _), &matched) in mine.iter().zip(got) {
            answers[*i] = Some(proof::verdict(matched));
        }
        if let Err(Failure { reason, .. }) = results {
            return Err(Failure::after(&answers, reason));
        }
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| "a proof came back without its verdict".to_string()))
        .collect::<Result<_, _>>()
        .map_err(Failure::at_start)
}

/// Each item read on the host's cores with the CPU path's checks
/// ([`proof::read`]): its proof for the device, or its verdict known here
/// (the check it fails; under lean-imt-poseidon a root not below r, which
/// no path's top equals, `root_mismatch`).
fn host_split<'a>(rule: Rule, depth: Option<u32>, items: &'a FlatBytes) -> Vec<Result<Proof<'a>, Verdict>> {
    cores::map_range(0..items.len(), 256, |i| match proof::read(rule, depth, items.get(i)) {
        Err(reason) => Err(Verdict::Invalid(reason)),
        Ok(p) if rule == Rule::LeanImtPoseidon && poseidon::element(p.root).is_err() => {
            Err(Verdict::Invalid(Reason::RootMismatch))
        }
        Ok(p) => Ok(p),
    })
}

/// The proofs [`host_split`] leaves to the device, with their items' indices.
fn device_proofs<'a>(split: &[Result<Proof<'a>, Verdict>]) -> Vec<(usize, Proof<'a>)> {
    split
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.as_ref().ok().map(|p| (i, *p)))
        .collect()
}

/// Kernel-only times (seconds) of `runs` runs over the proofs of `items`
/// that pass the host's checks (see [`driver::time`]; none without one).
/// For benchmarks.
pub(crate) fn proof_kernel_times(
    gpu: &Gpu,
    rule: Rule,
    depth: Option<u32>,
    items: &FlatBytes,
    runs: usize,
) -> Result<Vec<f64>, String> {
    let mine = device_proofs(&host_split(rule, depth, items));
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    driver::time(gpu, &ProofKernel::new(gpu, rule, &mine)?, runs)
}

/// Proofs that passed the host's checks (their item's index and parts), in
/// order.
struct ProofKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    rule: Rule,
    proofs: &'a [(usize, Proof<'a>)],
    /// Under lean-imt-poseidon: Poseidon's constants of width 3.
    constants: Option<&'static Constants>,
}

impl<'a> ProofKernel<'a> {
    fn new(gpu: &Gpu, rule: Rule, proofs: &'a [(usize, Proof<'a>)]) -> Result<Self, String> {
        let (pipeline, constants) = match rule {
            Rule::LeanImtPoseidon => {
                gpu.require_int64("merkle_proof_poseidon")?;
                let constants = poseidon::gpu::constants(2)?;
                let source = || shaders::merkle_proof_poseidon(constants.partial);
                (
                    gpu.pipeline("merkle_proof_poseidon", "merkle_proof", source)?,
                    Some(constants),
                )
            }
            _ => (
                gpu.pipeline("merkle_proof", "merkle_proof", || shaders::merkle_proof(gpu.int64))?,
                None,
            ),
        };
        Ok(ProofKernel {
            pipeline,
            rule,
            proofs,
            constants,
        })
    }

    /// A node's 32 bytes as the kernel takes it: as they are, or under
    /// lean-imt-poseidon its Montgomery form's words (the host checked it
    /// is below r).
    fn node(&self, d: &Digest) -> [u8; 32] {
        if self.constants.is_none() {
            return *d;
        }
        let mut out = [0u8; 32];
        if let Ok(x) = poseidon::element(d) {
            for (o, w) in out.chunks_exact_mut(4).zip(poseidon::gpu::words(&x)) {
                o.copy_from_slice(&w.to_le_bytes());
            }
        }
        out
    }

    fn siblings(&self, start: usize, end: usize) -> usize {
        self.proofs[start..end].iter().map(|(_, p)| p.siblings.len()).sum()
    }
}

impl Kernel for ProofKernel<'_> {
    type Out = bool;

    fn name(&self) -> &'static str {
        "merkle_proof"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.proofs.len()
    }

    fn max_units(&self) -> usize {
        PROOF_MAX_ITEMS
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let mut inputs = vec![
            Input::uniform(16),
            Input::storage((end - start) * PROOF_HEAD_WORDS * 4),
            // Never empty: proofs of no siblings still bind a buffer.
            Input::storage(self.siblings(start, end).max(1) * 32),
        ];
        if let Some(c) = self.constants {
            inputs.push(Input::storage(c.words.len() * 4));
        }
        inputs
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let mut dst = dst.into_iter();
        let (Some(params), Some(heads), Some(siblings)) = (dst.next(), dst.next(), dst.next()) else {
            return;
        };
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, self.rule as u32, 0]);
        let mut head_bytes = Vec::with_capacity((end - start) * PROOF_HEAD_WORDS * 4);
        let mut first = 0u32;
        for (_, p) in &self.proofs[start..end] {
            head_bytes.extend_from_slice(&self.node(p.root));
            head_bytes.extend_from_slice(&self.node(p.leaf));
            for w in [p.index as u32, (p.index >> 32) as u32, p.siblings.len() as u32, first] {
                head_bytes.extend_from_slice(&w.to_le_bytes());
            }
            first += p.siblings.len() as u32;
        }
        driver::copy(heads, &head_bytes);
        let sibling_bytes: Vec<u8> = self.proofs[start..end]
            .par_iter()
            .flat_map_iter(|(_, p)| p.siblings.iter().flat_map(|s| self.node(s)).collect::<Vec<u8>>())
            .collect();
        if !sibling_bytes.is_empty() {
            driver::copy(siblings, &sibling_bytes);
        }
        if let (Some(c), Some(constants)) = (self.constants, dst.next()) {
            constants.write_iter(c.words.iter().flat_map(|w| w.to_le_bytes()));
        }
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * PROOF_OUT_WORDS * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        // proof.wgsl: parameters 0, heads 2, output 3, siblings 4; the
        // Poseidon permutation's constants 1.
        let mut bindings: Vec<(u32, &wgpu::Buffer)> = vec![(0, &inputs[0]), (2, &inputs[1]), (3, out), (4, &inputs[2])];
        if let Some(constants) = inputs.get(3) {
            bindings.push((1, constants));
        }
        vec![(
            gpu.bind(&self.pipeline, "merkle_proof", &bindings),
            (end - start) as u32,
        )]
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<bool>) -> Result<(), String> {
        let mut results = Vec::new();
        driver::decode_words(out, PROOF_OUT_WORDS, start, "a proof's verdict", &mut results)?;
        answers.extend(results.iter().map(|r| r.first() == Some(&1)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::ops::merkle::{oracle, sample};

    /// Every rule's proofs on the device, plain trees and a padded one,
    /// hostile items among them, in sub-batches of 7 proofs, item by item
    /// against the oracle.
    #[test]
    fn device_proofs_match_the_oracle() {
        let Some(gpu) = test_gpu() else { return };
        gpu.set_sub_batch_cap(Some(7));
        for rule in Rule::ALL {
            for depth in [None, Some(9)] {
                let made = sample::proofs(rule, 90, 31, 0.4, depth);
                let mut items = FlatBytes::new();
                for (item, _) in &made {
                    assert!(items.push(item));
                }
                let got = verify_proofs(&gpu, rule, depth, &items).unwrap_or_else(|f| panic!("{}", f.reason));
                assert_eq!(got.len(), made.len());
                for (i, (g, (item, kind))) in got.iter().zip(&made).enumerate() {
                    assert_eq!(
                        g,
                        &oracle::verify_proof(rule, depth, item),
                        "{rule} {depth:?} item {i} ({kind})"
                    );
                }
                assert!(made.iter().filter(|(_, k)| *k == "valid").count() >= 40);
            }
        }
        gpu.set_sub_batch_cap(None);
    }
}
