//! Host side of the hashing kernels (`hash.wgsl` with `sha.wgsl` for
//! Keccak, SHA3 and SHA-2, with `blake.wgsl` for BLAKE2b and BLAKE3: two
//! pipelines, so that neither family's registers weigh on the other's) for the driver
//! ([`crate::gpu::driver`]): the messages travel as stored (flat bytes
//! and offsets rebased to the sub-batch), one thread per message; the 32
//! digest bytes of each item come back, then a bitmap of the items that
//! finished and a loop-guard word.

use std::sync::Arc;

use rayon::prelude::*;

use super::{Alg, Digest};
use crate::batch::FlatBytes;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, shaders};

/// Most items per sub-batch.
const MAX_ITEMS: usize = 1 << 20;
/// Digest bytes per item in the output.
const DIGEST_BYTES: usize = 32;
/// Where the status words start after `n` digests: a storage binding's
/// offset alignment (256 on every adapter wgpu supports).
fn status_at(n: usize) -> u64 {
    (n * DIGEST_BYTES).next_multiple_of(256) as u64
}

/// Status bytes for `n` items: a bit per item, then the loop-guard word.
fn status_bytes(n: usize) -> u64 {
    4 * (n.div_ceil(32) as u64 + 1)
}

/// The digest of every item of `msgs` under `alg`, on the GPU.
pub(crate) fn hash(gpu: &Gpu, alg: Alg, msgs: &FlatBytes) -> Streamed<Digest> {
    driver::run(gpu, &HashKernel::new(gpu, alg, msgs).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `msgs`, uploaded once
/// (see [`driver::time`]). For benchmarks.
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
        let pipeline = match alg {
            Alg::Keccak256 | Alg::Sha3_256 | Alg::Sha256 => {
                gpu.pipeline("hash", "hash_main", || shaders::hash(gpu.int64))?
            }
            Alg::Blake2b256 | Alg::Blake3 => {
                gpu.pipeline("hash_blake", "hash_main", || shaders::hash_blake(gpu.int64))?
            }
        };
        Ok(HashKernel {
            pipeline,
            // The kernels' ALG_ constants (shaders::hash_algs).
            alg: alg as u32,
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
        let mut inputs = vec![Input::uniform(16)];
        inputs.extend(flat_inputs(self.msgs, start, end));
        inputs
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, bytes, offsets] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, self.alg, shaders::LOOP_GUARD, 0]);
        pack_flat(self.msgs, start, end, bytes, offsets);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        status_at(end - start) + status_bytes(end - start)
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let n = end - start;
        let part = |offset: u64, size: u64| {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: out,
                offset,
                size: wgpu::BufferSize::new(size),
            })
        };
        let mut entries: Vec<wgpu::BindGroupEntry<'_>> = inputs
            .iter()
            .zip(0..)
            .map(|(b, binding)| wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            })
            .collect();
        // The digests, and apart the status words, in one output buffer.
        entries.push(wgpu::BindGroupEntry {
            binding: 3,
            resource: part(0, (n * DIGEST_BYTES).max(4) as u64),
        });
        entries.push(wgpu::BindGroupEntry {
            binding: 4,
            resource: part(status_at(n), status_bytes(n)),
        });
        let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("hash"),
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        vec![(bind_group, n as u32)]
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], digests: &mut Vec<Digest>) -> Result<(), String> {
        let n = end - start;
        let words: Vec<u32> = out[status_at(n) as usize..]
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if words[n.div_ceil(32)] & crate::gpu::LOOPS_CUT_FLAG != 0 {
            return Err(crate::gpu::LoopsCut(start..end).to_string());
        }
        if let Some(i) = (0..n).find(|i| words[i / 32] >> (i % 32) & 1 == 0) {
            return Err(format!("item {} came back without a digest", start + i));
        }
        // On all cores: 2^20 digests are 32 MB.
        digests.par_extend(out[..n * DIGEST_BYTES].par_chunks_exact(DIGEST_BYTES).map(|d| {
            let mut digest = [0u8; 32];
            digest.copy_from_slice(d);
            digest
        }));
        Ok(())
    }
}

/// The two inputs of items `start..end` of `msgs` as [`pack_flat`] packs
/// them: bytes and offsets.
pub(crate) fn flat_inputs(msgs: &FlatBytes, start: usize, end: usize) -> [Input; 2] {
    let offsets = msgs.offsets();
    [
        Input::storage((offsets[end] - offsets[start]) as usize),
        Input::storage((end - start + 1) * 4),
    ]
}

/// Items `start..end` of `msgs` as stored: their bytes, and their offsets
/// rebased to the first item as little-endian u32s.
/// Both on all cores (2^20 messages of 32 bytes are 36 MB).
pub(crate) fn pack_flat(msgs: &FlatBytes, start: usize, end: usize, bytes: Dst<'_>, offsets: Dst<'_>) {
    let all = msgs.offsets();
    let first = all[start];
    driver::copy(bytes, &msgs.bytes()[first as usize..all[end] as usize]);
    driver::par_fill(offsets, &all[start..=end], |_, o| (o - first).to_le_bytes());
}
