//! Host side of the Merkle kernel (`merkle.wgsl`): uploads the leaves into a
//! buffer with room for every level, records one pass per level (each its
//! own parameters) in one submission, and reads back only the status words
//! and the root.

use super::Rule;
use crate::gpu::{BufferPool, Dispatch, Gpu, shaders};
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
    let pipeline = gpu.pipeline("merkle", "merkle_level", || shaders::merkle(gpu.int64))?;
    let mut pool = gpu.pool();
    let job = Job::upload(gpu, &mut pool, &pipeline, rule, leaves)?;
    job.execute(&mut pool)
}

/// Kernel-only times (seconds) of `runs` reductions of `leaves`, uploaded
/// once; each run includes reading the root back. For benchmarks.
pub(crate) fn kernel_times(gpu: &Gpu, rule: Rule, leaves: &[Digest], runs: usize) -> Result<Vec<f64>, String> {
    let pipeline = gpu.pipeline("merkle", "merkle_level", || shaders::merkle(gpu.int64))?;
    let mut pool = gpu.pool();
    let job = Job::upload(gpu, &mut pool, &pipeline, rule, leaves)?;
    crate::gpu::time_runs(runs, || job.execute(&mut pool).map(|_| ()))
}

/// A tree uploaded and ready to reduce.
struct Job<'a> {
    gpu: &'a Gpu,
    pipeline: &'a wgpu::ComputePipeline,
    steps: Vec<(wgpu::BindGroup, u32)>,
}

impl<'a> Job<'a> {
    fn upload(
        gpu: &'a Gpu,
        pool: &mut BufferPool,
        pipeline: &'a wgpu::ComputePipeline,
        rule: Rule,
        leaves: &[Digest],
    ) -> Result<Job<'a>, String> {
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
        let nodes = gpu.upload_with_room(pool, "merkle_nodes", leaves.as_flattened(), tree_bytes);
        let rule_code: u32 = match rule {
            Rule::SortedKeccak256 => 0,
            Rule::Bitcoin => 1,
        };
        let mut param_bytes = vec![0u8; levels.len() * PARAM_STRIDE as usize];
        for (l, level) in levels.iter().enumerate() {
            let last = u32::from(l + 1 == levels.len());
            let words = [
                level.n_in,
                level.in_off,
                level.out_off,
                rule_code,
                shaders::LOOP_GUARD,
                last,
                0,
                0,
            ];
            let at = l * PARAM_STRIDE as usize;
            for (k, w) in words.iter().enumerate() {
                param_bytes[at + 4 * k..at + 4 * k + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        let params = pool.get(
            &gpu.device,
            "merkle_params",
            param_bytes.len() as u64,
            wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        );
        gpu.queue.write_buffer(&params, 0, &param_bytes);
        let status = gpu.output(pool, "merkle_status", STATUS_WORDS * 4);
        let layout = pipeline.get_bind_group_layout(0);
        let steps = levels
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
                                buffer: &params,
                                offset: l as u64 * PARAM_STRIDE,
                                size: wgpu::BufferSize::new(32),
                            }),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: nodes.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: status.as_entire_binding(),
                        },
                    ],
                });
                (bind_group, level.n_in.div_ceil(2))
            })
            .collect();
        Ok(Job { gpu, pipeline, steps })
    }

    /// Clears the status, reduces every level, checks the status and
    /// returns the root.
    fn execute(&self, pool: &mut BufferPool) -> Result<Digest, String> {
        let status = self.gpu.cleared_output(pool, "merkle_status", STATUS_WORDS * 4);
        let steps: Vec<(&wgpu::BindGroup, u32)> = self.steps.iter().map(|(b, n)| (b, *n)).collect();
        let bytes = self.gpu.dispatch(
            pool,
            Dispatch {
                pipeline: self.pipeline,
                steps: &steps,
                workgroup: crate::gpu::WORKGROUP_SIZE,
                out: &status,
                out_bytes: STATUS_WORDS * 4,
            },
        )?;
        let word = |k: usize| u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
        if word(0) & crate::gpu::LOOPS_CUT_FLAG != 0 {
            return Err("the driver cut a loop short while reducing the tree".to_string());
        }
        if word(1) as usize != self.steps.len() {
            return Err(format!("{} of {} tree levels ran", word(1), self.steps.len()));
        }
        let mut root = [0u8; 32];
        root.copy_from_slice(&bytes[8..40]);
        Ok(root)
    }
}
