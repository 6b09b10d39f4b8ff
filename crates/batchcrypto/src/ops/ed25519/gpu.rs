//! Host side of the Ed25519 GPU kernel (`verify.wgsl`) for the driver
//! ([`crate::gpu::driver`]): a batch travels as it is stored (keys,
//! signatures, flat message bytes and offsets), one thread per signature;
//! one status word per item comes back and becomes the same [`Verdict`]s
//! as the CPU path's. [`EdwardsKernel`] is that host side for any
//! edwards25519 kernel of this shape (sr25519's too).
//!
//! The table of 1B .. 8B for the fixed-base half of the double-scalar
//! multiplication is computed on the device once per engine (`ed25519_setup`)
//! from encodings that curve25519-dalek provides, and kept.

use std::sync::Arc;

use curve25519_dalek::Scalar;
use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;

use super::{Batch, Policy};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, shaders};
use crate::ops::hash::gpu::{flat_inputs, pack_flat};
use crate::verdict::{Reason, Verdict};

/// Most items per sub-batch.
const MAX_ITEMS: usize = 1 << 18;

/// Verifies every item of `batch` under `policy` on the GPU.
pub(crate) fn verify(gpu: &Gpu, batch: &Batch, policy: Policy) -> Streamed<Verdict> {
    driver::run(gpu, &kernel(gpu, batch, policy).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `batch`, uploaded once
/// (see [`driver::time`]). For benchmarks.
pub(crate) fn kernel_times(gpu: &Gpu, batch: &Batch, policy: Policy, runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &kernel(gpu, batch, policy)?, runs)
}

fn kernel<'a>(gpu: &Gpu, batch: &'a Batch, policy: Policy) -> Result<EdwardsKernel<'a>, String> {
    let policy = match policy {
        Policy::Strict => 0,
        Policy::Zip215 => 1,
    };
    EdwardsKernel::new(
        gpu,
        "ed25519_verify",
        shaders::ed25519_verify,
        batch,
        policy,
        None,
        decode,
    )
}

/// A signed batch (32-byte keys, 64-byte signatures, flat messages) for an
/// edwards25519 verification kernel: Ed25519's, and sr25519's with its
/// signing context as an `extra` input. Bindings: 0 the parameters (n,
/// `param`, the loop guard), 1 keys, 2 signatures, 3-4 messages and
/// offsets, then `extra` if any, the device's table of B, one status word
/// per item, which `decode` turns into a verdict. The entry point and
/// the pipeline's cache key are `name`.
pub(crate) struct EdwardsKernel<'a> {
    name: &'static str,
    pipeline: Arc<wgpu::ComputePipeline>,
    base: wgpu::Buffer,
    batch: &'a Batch,
    param: u32,
    extra: Option<&'a [u8]>,
    decode: fn(u32) -> Option<Verdict>,
}

impl<'a> EdwardsKernel<'a> {
    pub(crate) fn new(
        gpu: &Gpu,
        name: &'static str,
        shader: fn() -> String,
        batch: &'a Batch,
        param: u32,
        extra: Option<&'a [u8]>,
        decode: fn(u32) -> Option<Verdict>,
    ) -> Result<EdwardsKernel<'a>, String> {
        gpu.require_int64(name)?;
        Ok(EdwardsKernel {
            name,
            pipeline: gpu.pipeline(name, name, shader)?,
            base: base_table(gpu)?,
            batch,
            param,
            extra,
            decode,
        })
    }
}

impl Kernel for EdwardsKernel<'_> {
    type Out = Verdict;

    fn name(&self) -> &'static str {
        self.name
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.batch.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        gpu.sub_batch_end(self.batch.msgs(), start, max)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let n = end - start;
        let mut inputs = vec![Input::uniform(16), Input::storage(n * 32), Input::storage(n * 64)];
        inputs.extend(flat_inputs(self.batch.msgs(), start, end));
        inputs.extend(self.extra.map(|e| Input::storage(e.len())));
        inputs
    }

    fn pack(&self, start: usize, end: usize, mut dst: Vec<Dst<'_>>) {
        if let Some(extra) = self.extra {
            dst.pop()
                .unwrap_or_else(|| unreachable!("the extra input is declared"))
                .copy_from_slice(extra);
        }
        let [params, mut pks, mut sigs, msgs, offsets] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, self.param, shaders::LOOP_GUARD, 0]);
        pks.copy_from_slice(self.batch.pks()[start..end].as_flattened());
        sigs.copy_from_slice(self.batch.sigs()[start..end].as_flattened());
        pack_flat(self.batch.msgs(), start, end, msgs, offsets);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        driver::one_pass(
            gpu,
            &self.pipeline,
            self.name,
            inputs.iter().chain([&self.base, out]),
            end - start,
        )
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], verdicts: &mut Vec<Verdict>) -> Result<(), String> {
        for (i, w) in out.chunks_exact(4).enumerate() {
            let status = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
            crate::gpu::check_done(status, start + i, "a verdict")?;
            verdicts.push(
                (self.decode)(status & 0xff)
                    .ok_or_else(|| format!("item {} came back with status {status:#x}", start + i))?,
            );
        }
        Ok(())
    }
}

/// The verdict of one status code, `None` for an unknown one.
fn decode(code: u32) -> Option<Verdict> {
    Some(match code {
        0 => Verdict::Valid,
        1 => Verdict::Invalid(Reason::MalformedKey),
        2 => Verdict::Invalid(Reason::MalformedR),
        3 => Verdict::Invalid(Reason::NonCanonicalS),
        4 => Verdict::Invalid(Reason::SmallOrderKey),
        5 => Verdict::Invalid(Reason::SmallOrderR),
        6 => Verdict::Invalid(Reason::Equation),
        _ => return None,
    })
}

/// The device-resident table of 1B .. 8B in affine Niels form, computed
/// once per device by `ed25519_setup`.
pub(crate) fn base_table(gpu: &Gpu) -> Result<wgpu::Buffer, String> {
    let mut tables = gpu.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = tables.get("ed25519_base") {
        return Ok(t.clone());
    }
    let setup = gpu.pipeline("ed25519_setup", "ed25519_setup", shaders::ed25519_verify)?;
    let encodings: Vec<u8> = (1u64..=8)
        .flat_map(|k| (Scalar::from(k) * ED25519_BASEPOINT_POINT).compress().to_bytes())
        .collect();
    let input = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ed25519_base_encodings"),
        size: encodings.len() as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue.write_buffer(&input, 0, &encodings);
    let table = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ed25519_base"),
        size: 8 * 30 * 4,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let bind_group = gpu.bind(&setup, "ed25519_setup", &[(10, &input), (11, &table)]);
    // The setup kernel's workgroup holds the table's eight points.
    gpu.run_setup(&setup, &bind_group, 8, 8)?;
    tables.insert("ed25519_base", table.clone());
    Ok(table)
}
