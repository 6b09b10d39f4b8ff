//! Host side of the Merkle kernel (`merkle.wgsl`) for the driver
//! ([`crate::gpu::driver`]): the leaves go into a buffer with room for
//! every level, one pass per level (each its own parameters) runs in one
//! submission, and only the status words and the root come back. The
//! driver's unit is the whole tree.

use std::sync::Arc;

use super::Rule;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel};
use crate::gpu::{Gpu, shaders};
use crate::ops::hash::Digest;

/// Bytes between two levels' parameters (the uniform offset alignment).
const PARAM_STRIDE: u64 = 256;
/// Status words read back: cut flag, levels run, 8 root words.
const STATUS_WORDS: u64 = 10;

/// One level: nodes in, where they are, where the parents go (in nodes).
struct LevelPlan {
    n_in: u32,
    in_off: u32,
    out_off: u32,
}

/// The levels of a tree of `n` leaves, bottom up, and the nodes in all.
fn plan(n: usize) -> Result<(Vec<LevelPlan>, usize), String> {
    let mut levels = Vec::new();
    let (mut width, mut off) = (n, 0usize);
    while width > 1 {
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

/// The root of `leaves` (at least two) under `rule`, on the GPU.
pub(crate) fn root(gpu: &Gpu, rule: Rule, leaves: &[Digest]) -> Result<Digest, String> {
    let tree = Tree::new(gpu, rule, leaves)?;
    match driver::run(gpu, &tree) {
        Ok(roots) => roots.first().copied().ok_or_else(|| "no root came back".to_string()),
        Err(Failure { reason, .. }) => Err(reason),
    }
}

/// Kernel-only times (seconds) of `runs` reductions of `leaves`, uploaded
/// once (see [`driver::time`]). For benchmarks.
pub(crate) fn kernel_times(gpu: &Gpu, rule: Rule, leaves: &[Digest], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &Tree::new(gpu, rule, leaves)?, runs)
}

/// A tree to reduce: one unit for the driver.
struct Tree<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    rule: u32,
    leaves: &'a [Digest],
    levels: Vec<LevelPlan>,
    tree_bytes: u64,
}

impl<'a> Tree<'a> {
    fn new(gpu: &Gpu, rule: Rule, leaves: &'a [Digest]) -> Result<Tree<'a>, String> {
        if leaves.len() < 2 {
            return Err("a GPU reduction needs two leaves or more".to_string());
        }
        let (levels, total_nodes) = plan(leaves.len())?;
        let tree_bytes = total_nodes as u64 * 32;
        if tree_bytes > gpu.max_binding {
            return Err(format!(
                "a tree of {} leaves needs {tree_bytes} bytes, over the adapter's storage binding limit",
                leaves.len()
            ));
        }
        Ok(Tree {
            pipeline: gpu.pipeline("merkle", "merkle_level", || shaders::merkle(gpu.int64))?,
            rule: match rule {
                Rule::SortedKeccak256 => 0,
                Rule::Bitcoin => 1,
            },
            leaves,
            levels,
            tree_bytes,
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
        vec![
            Input::uniform(self.levels.len() * PARAM_STRIDE as usize),
            Input::storage(self.leaves.len() * 32).with_room(self.tree_bytes),
        ]
    }

    fn pack(&self, _start: usize, _end: usize, dst: Vec<Dst<'_>>) {
        let [mut params, mut nodes] = driver::inputs(dst);
        let mut param_bytes = vec![0u8; params.len()];
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
                self.rule,
                shaders::LOOP_GUARD,
                last,
                0,
                0,
            ];
            for (d, w) in at.chunks_exact_mut(4).zip(words) {
                d.copy_from_slice(&w.to_le_bytes());
            }
        }
        params.copy_from_slice(&param_bytes);
        nodes.copy_from_slice(self.leaves.as_flattened());
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
        self.levels
            .iter()
            .enumerate()
            .map(|(l, level)| {
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("merkle_level"),
                    layout: &layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                                buffer: &inputs[0],
                                offset: l as u64 * PARAM_STRIDE,
                                size: wgpu::BufferSize::new(32),
                            }),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: inputs[1].as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: out.as_entire_binding(),
                        },
                    ],
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
        root.copy_from_slice(&bytes[8..40]);
        roots.push(root);
        Ok(())
    }
}
