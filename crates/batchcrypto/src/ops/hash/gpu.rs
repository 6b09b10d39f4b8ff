//! Host side of the hashing kernel (`hash.wgsl`) for the driver
//! ([`crate::gpu::driver`]): the messages travel as stored (flat bytes
//! and offsets rebased to the sub-batch), one thread per message; eight
//! digest words and a completion flag come back per item.

use std::sync::Arc;

use super::{Alg, Digest};
use crate::batch::FlatBytes;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, shaders};

/// Most items per sub-batch.
const MAX_ITEMS: usize = 1 << 20;
/// u32 words per item in the output: 8 of digest, 1 flag.
const OUT_WORDS: usize = 9;

/// The digest of every item of `msgs` under `alg`, on the GPU.
pub(crate) fn hash(gpu: &Gpu, alg: Alg, msgs: &FlatBytes) -> Streamed<Digest> {
    driver::run(gpu, &HashKernel::new(gpu, alg, msgs).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `msgs`, uploaded once
/// (see [`driver::time`]). For benchmarks; the batch must fit in one
/// sub-batch.
pub(crate) fn kernel_times(gpu: &Gpu, alg: Alg, msgs: &FlatBytes, runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &HashKernel::new(gpu, alg, msgs)?, runs)
}

/// A batch of messages for the hashing kernel.
struct HashKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    alg: u32,
    msgs: &'a FlatBytes,
}

impl<'a> HashKernel<'a> {
    fn new(gpu: &Gpu, alg: Alg, msgs: &'a FlatBytes) -> Result<HashKernel<'a>, String> {
        Ok(HashKernel {
            pipeline: gpu.pipeline("hash", "hash_main", || shaders::hash(gpu.int64))?,
            alg: match alg {
                Alg::Keccak256 => 0,
                Alg::Sha3_256 => 1,
                Alg::Sha256 => 2,
            },
            msgs,
        })
    }
}

impl Kernel for HashKernel<'_> {
    type Out = Digest;

    fn name(&self) -> &'static str {
        "hash"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.msgs.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        gpu.sub_batch_end(self.msgs, start, max)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let offsets = self.msgs.offsets();
        vec![
            Input::uniform(16),
            Input::storage((offsets[end] - offsets[start]) as usize),
            Input::storage((end - start + 1) * 4),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, bytes, offsets] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, self.alg, shaders::LOOP_GUARD, 0]);
        pack_flat(self.msgs, start, end, bytes, offsets);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * OUT_WORDS * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let bindings: Vec<(u32, &wgpu::Buffer)> = inputs.iter().chain([out]).zip(0..).map(|(b, i)| (i, b)).collect();
        vec![(gpu.bind(&self.pipeline, "hash", &bindings), (end - start) as u32)]
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], digests: &mut Vec<Digest>) -> Result<(), String> {
        for (i, item) in out.chunks_exact(OUT_WORDS * 4).enumerate() {
            let flag = u32::from_le_bytes([item[32], item[33], item[34], item[35]]);
            crate::gpu::check_done(flag, start + i, "a digest")?;
            let mut d = [0u8; 32];
            d.copy_from_slice(&item[..32]);
            digests.push(d);
        }
        Ok(())
    }
}

/// Items `start..end` of `msgs` as stored: their bytes, and their offsets
/// rebased to the first item as little-endian u32s.
pub(crate) fn pack_flat(msgs: &FlatBytes, start: usize, end: usize, mut bytes: Dst<'_>, offsets: Dst<'_>) {
    let all = msgs.offsets();
    let first = all[start];
    bytes.copy_from_slice(&msgs.bytes()[first as usize..all[end] as usize]);
    offsets.write_iter(all[start..=end].iter().flat_map(|o| (o - first).to_le_bytes()));
}
