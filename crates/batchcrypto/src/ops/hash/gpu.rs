//! Host side of the hashing kernel (`hash.wgsl`): uploads the messages as
//! stored (flat bytes and offsets), one thread per message, reads back eight
//! digest words and a completion flag per item.

use super::{Alg, Digest};
use crate::batch::FlatBytes;
use crate::gpu::{BufferPool, Dispatch, Gpu, shaders};

/// Most items per dispatch.
const MAX_ITEMS: usize = 1 << 20;
/// u32 words per item in the output: 8 of digest, 1 flag.
const OUT_WORDS: usize = 9;

/// The digest of every item of `msgs` under `alg`, on the GPU.
pub(crate) fn hash(gpu: &Gpu, alg: Alg, msgs: &FlatBytes) -> Result<Vec<Digest>, String> {
    let pipeline = gpu.pipeline("hash", "hash_main", || shaders::hash(gpu.int64))?;
    let mut pool = gpu.pool();
    let mut digests = Vec::with_capacity(msgs.len());
    let mut start = 0;
    while start < msgs.len() {
        let end = gpu.sub_batch_end(msgs, start, MAX_ITEMS)?;
        let job = Job::upload(gpu, &mut pool, &pipeline, alg, msgs, start, end);
        job.execute(&mut pool, &mut digests)?;
        start = end;
    }
    Ok(digests)
}

/// Kernel-only times (seconds) of `runs` dispatches over `msgs`, uploaded
/// once; each run includes reading the digests back. For benchmarks; the
/// batch must fit in one dispatch.
pub(crate) fn kernel_times(gpu: &Gpu, alg: Alg, msgs: &FlatBytes, runs: usize) -> Result<Vec<f64>, String> {
    let pipeline = gpu.pipeline("hash", "hash_main", || shaders::hash(gpu.int64))?;
    let mut pool = gpu.pool();
    let end = gpu.sub_batch_end(msgs, 0, MAX_ITEMS)?;
    if end != msgs.len() {
        return Err(format!(
            "kernel timing needs one dispatch; {} items need more",
            msgs.len()
        ));
    }
    let job = Job::upload(gpu, &mut pool, &pipeline, alg, msgs, 0, end);
    let mut digests = Vec::with_capacity(msgs.len());
    crate::gpu::time_runs(runs, || {
        digests.clear();
        job.execute(&mut pool, &mut digests)
    })
}

/// Items `start..end` uploaded and bound.
struct Job<'a> {
    gpu: &'a Gpu,
    pipeline: &'a wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    start: usize,
    n: usize,
}

impl<'a> Job<'a> {
    fn upload(
        gpu: &'a Gpu,
        pool: &mut BufferPool,
        pipeline: &'a wgpu::ComputePipeline,
        alg: Alg,
        msgs: &FlatBytes,
        start: usize,
        end: usize,
    ) -> Job<'a> {
        let n = end - start;
        let alg_code: u32 = match alg {
            Alg::Keccak256 => 0,
            Alg::Sha3_256 => 1,
            Alg::Sha256 => 2,
        };
        let params = gpu.params(pool, "hash_params", [n as u32, alg_code, shaders::LOOP_GUARD, 0]);
        let (bytes, offsets) = gpu.upload_flat(pool, ("hash_msgs", "hash_offsets"), msgs, start, end);
        // Cleared before every run, in `execute`.
        let out = gpu.output(pool, "hash_out", (n * OUT_WORDS * 4) as u64);
        let bind_group = gpu.bind(pipeline, "hash", &[(0, &params), (1, &bytes), (2, &offsets), (3, &out)]);
        Job {
            gpu,
            pipeline,
            bind_group,
            start,
            n,
        }
    }

    /// Runs the kernel and appends the digests; an item without the
    /// completion flag is an error.
    fn execute(&self, pool: &mut BufferPool, digests: &mut Vec<Digest>) -> Result<(), String> {
        let out_bytes = (self.n * OUT_WORDS * 4) as u64;
        let out = self.gpu.cleared_output(pool, "hash_out", out_bytes);
        let words = self.gpu.dispatch(
            pool,
            Dispatch {
                pipeline: self.pipeline,
                steps: &[(&self.bind_group, self.n as u32)],
                workgroup: crate::gpu::WORKGROUP_SIZE,
                out: &out,
                out_bytes,
            },
        )?;
        for (i, item) in words.chunks_exact(OUT_WORDS * 4).take(self.n).enumerate() {
            let flag = u32::from_le_bytes([item[32], item[33], item[34], item[35]]);
            if flag == crate::gpu::LOOPS_CUT_FLAG {
                return Err(crate::gpu::LoopsCut(self.start + i).to_string());
            }
            if flag != crate::gpu::DONE_FLAG {
                return Err(format!(
                    "item {} came back without a digest (flag {flag:#x})",
                    self.start + i
                ));
            }
            let mut d = [0u8; 32];
            d.copy_from_slice(&item[..32]);
            digests.push(d);
        }
        Ok(())
    }
}
