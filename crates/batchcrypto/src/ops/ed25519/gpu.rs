//! Host side of the Ed25519 GPU kernel (`verify.wgsl`): uploads a batch as
//! it is stored (keys, signatures, flat message bytes and offsets), runs one
//! thread per signature, reads back one status word per item and turns it
//! into the same [`Verdict`]s as the CPU path.
//!
//! The table of 1B .. 8B for the fixed-base half of the double-scalar
//! multiplication is computed on the device once per engine (`ed25519_setup`)
//! from encodings that curve25519-dalek provides, and kept.

use curve25519_dalek::Scalar;
use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;

use super::{Batch, Policy};
use crate::gpu::{Dispatch, Gpu, shaders};
use crate::verdict::{Reason, Verdict};

/// Most items per dispatch (bounded work per submission).
const MAX_ITEMS: usize = 1 << 18;

/// Verifies every item of `batch` under `policy` on the GPU.
pub(crate) fn verify(gpu: &Gpu, batch: &Batch, policy: Policy) -> Result<Vec<Verdict>, String> {
    gpu.require_int64("Ed25519")?;
    let pipeline = gpu.pipeline("ed25519_verify", "ed25519_verify", shaders::ed25519_verify)?;
    let mut pool = gpu.pool();
    let base = base_table(gpu, &mut pool)?;
    let mut verdicts = Vec::with_capacity(batch.len());
    let mut start = 0;
    while start < batch.len() {
        let end = gpu.sub_batch_end(batch.msgs(), start, MAX_ITEMS)?;
        let job = Job {
            gpu,
            pipeline: &pipeline,
            base: &base,
            batch,
            start,
            end,
            policy,
        };
        let bind_group = job.upload(&mut pool);
        verdicts.extend(job.execute(&mut pool, &bind_group)?);
        start = end;
    }
    Ok(verdicts)
}

/// Kernel-only times (seconds) of `runs` dispatches over `batch`, its inputs
/// uploaded once beforehand; each run includes the status readback (4 bytes
/// per item). For benchmarks; the batch must fit in one dispatch.
pub(crate) fn kernel_times(gpu: &Gpu, batch: &Batch, policy: Policy, runs: usize) -> Result<Vec<f64>, String> {
    gpu.require_int64("Ed25519")?;
    let pipeline = gpu.pipeline("ed25519_verify", "ed25519_verify", shaders::ed25519_verify)?;
    let mut pool = gpu.pool();
    let base = base_table(gpu, &mut pool)?;
    let end = gpu.sub_batch_end(batch.msgs(), 0, MAX_ITEMS)?;
    if end != batch.len() {
        return Err(format!(
            "kernel timing needs one dispatch; the batch needs {}+",
            batch.len() / end.max(1)
        ));
    }
    let job = Job {
        gpu,
        pipeline: &pipeline,
        base: &base,
        batch,
        start: 0,
        end,
        policy,
    };
    let bind_group = job.upload(&mut pool);
    crate::gpu::time_runs(runs, || job.execute(&mut pool, &bind_group).map(|_| ()))
}

/// Items `start..end` of a batch on their way to the device.
struct Job<'a> {
    gpu: &'a Gpu,
    pipeline: &'a wgpu::ComputePipeline,
    base: &'a wgpu::Buffer,
    batch: &'a Batch,
    start: usize,
    end: usize,
    policy: Policy,
}

impl Job<'_> {
    /// Uploads the items into pooled buffers; returns the bind group.
    fn upload(&self, pool: &mut crate::gpu::BufferPool) -> wgpu::BindGroup {
        let (gpu, batch, start, end) = (self.gpu, self.batch, self.start, self.end);
        let n = (end - start) as u32;
        let params = gpu.params(
            pool,
            "ed25519_params",
            [n, policy_code(self.policy), shaders::LOOP_GUARD, 0],
        );
        let pks = gpu.upload(pool, "ed25519_pks", batch.pks()[start..end].as_flattened());
        let sigs = gpu.upload(pool, "ed25519_sigs", batch.sigs()[start..end].as_flattened());
        let (msgs, offs) = gpu.upload_flat(pool, ("ed25519_msgs", "ed25519_offsets"), batch.msgs(), start, end);
        // Cleared before every run, in `execute`.
        let out = gpu.output(pool, "ed25519_out", u64::from(n) * 4);
        gpu.bind(
            self.pipeline,
            "ed25519_verify",
            &[
                (0, &params),
                (1, &pks),
                (2, &sigs),
                (3, &msgs),
                (4, &offs),
                (5, self.base),
                (6, &out),
            ],
        )
    }

    /// Clears the status words, runs the kernel, reads the statuses back and
    /// decodes them; an item without the completion flag is an error.
    fn execute(&self, pool: &mut crate::gpu::BufferPool, bind_group: &wgpu::BindGroup) -> Result<Vec<Verdict>, String> {
        let gpu = self.gpu;
        let n = self.end - self.start;
        let out_bytes = (n * 4) as u64;
        // Same pooled buffer as bound in `upload`, cleared before each run.
        let out = gpu.cleared_output(pool, "ed25519_out", out_bytes);
        let words = gpu.dispatch(
            pool,
            Dispatch {
                pipeline: self.pipeline,
                steps: &[(bind_group, n as u32)],
                workgroup: crate::gpu::WORKGROUP_SIZE,
                out: &out,
                out_bytes,
            },
        )?;
        words
            .chunks_exact(4)
            .take(n)
            .enumerate()
            .map(|(i, w)| {
                let status = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                decode(status).ok_or_else(|| incomplete(self.start + i, status))
            })
            .collect()
    }
}

/// The error for an item without a verdict.
fn incomplete(item: usize, status: u32) -> String {
    if status == crate::gpu::LOOPS_CUT_FLAG {
        format!("{}", crate::gpu::LoopsCut(item))
    } else {
        format!("item {item} came back without a verdict (status {status:#x})")
    }
}

fn policy_code(policy: Policy) -> u32 {
    match policy {
        Policy::Strict => 0,
        Policy::Zip215 => 1,
    }
}

/// The verdict of one status word, `None` unless the kernel marked it done
/// with a known code.
fn decode(status: u32) -> Option<Verdict> {
    if status & crate::gpu::DONE_FLAG == 0 {
        return None;
    }
    Some(match status & 0xff {
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
fn base_table(gpu: &Gpu, pool: &mut crate::gpu::BufferPool) -> Result<wgpu::Buffer, String> {
    let mut tables = gpu.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = tables.get("ed25519_base") {
        return Ok(t.clone());
    }
    let setup = gpu.pipeline("ed25519_setup", "ed25519_setup", shaders::ed25519_verify)?;
    let encodings: Vec<u8> = (1u64..=8)
        .flat_map(|k| (Scalar::from(k) * ED25519_BASEPOINT_POINT).compress().to_bytes())
        .collect();
    let input = gpu.upload(pool, "ed25519_base_encodings", &encodings);
    let size = 8 * 30 * 4;
    let table = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ed25519_base"),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let bind_group = gpu.bind(&setup, "ed25519_setup", &[(10, &input), (11, &table)]);
    gpu.dispatch(
        pool,
        Dispatch {
            pipeline: &setup,
            steps: &[(&bind_group, 8)],
            workgroup: 8,
            out: &table,
            out_bytes: size,
        },
    )?;
    tables.insert("ed25519_base", table.clone());
    Ok(table)
}
