//! Host side of the Merkle kernels (`merkle.wgsl` for the rules over
//! bytes, `poseidon.wgsl` for lean-imt-poseidon, both over `level.wgsl`)
//! for the driver ([`crate::gpu::driver`]): the leaves go into a buffer
//! with room for every level, one pass per level (each its own parameters)
//! runs in one submission, and only the status words and the root come
//! back. The driver's unit is the whole tree. Under lean-imt-poseidon the
//! leaves go in Montgomery form (put there on the host's cores), with the
//! constants of Poseidon's width 3
//! ([`crate::ops::poseidon::gpu::constants`]).

use std::sync::Arc;

use rayon::prelude::*;

use super::Rule;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel};
use crate::gpu::{Gpu, bigint, shaders};
use crate::ops::hash::Digest;
use crate::ops::poseidon::{self, gpu::Constants};

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
        let rule = match self.rule {
            Rule::SortedKeccak256 => 0,
            Rule::Bitcoin => 1,
            Rule::LeanImtPoseidon => 2,
        };
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
