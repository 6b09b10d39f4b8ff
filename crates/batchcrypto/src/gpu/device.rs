//! The wgpu runtime: adapter discovery, one device per engine, the
//! pipeline cache, the driver's lanes, setup dispatches, and the
//! [`GpuRuntime`] implementation that hands each operation to its host
//! file (`ops/<op>/gpu.rs`).

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use super::driver::Lane;
use super::{AdapterSummary, FaultStage, FieldRate, GpuRuntime, Streamed, preferred, wanted_adapter};
use crate::batch::FlatBytes;
use crate::engine::KernelWork;
use crate::ops::ecdsa::{K1VerifyItem, P256Item, RecoverItem, Recovered};
use crate::ops::evm::{self, PrecompileError};
use crate::ops::{bip340, bls, ecdsa, ed25519, hash, kzg, merkle, mldsa, mlkem, msm, ntt, poseidon, slhdsa, sr25519};
use crate::verdict::{Reason, Verdict};

fn summary(adapter: &wgpu::Adapter) -> AdapterSummary {
    let info = adapter.get_info();
    let software = info.device_type == wgpu::DeviceType::Cpu;
    AdapterSummary {
        name: info.name.clone(),
        backend: format!("{:?}", info.backend),
        device_type: if software {
            "software".to_string()
        } else {
            format!("{:?}", info.device_type).to_lowercase()
        },
        driver: format!("{} {}", info.driver, info.driver_info).trim().to_string(),
        int64: adapter.features().contains(wgpu::Features::SHADER_INT64),
        software,
    }
}

fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
}

/// Every adapter wgpu finds on this machine, usable or not.
pub(crate) fn adapters() -> Vec<AdapterSummary> {
    pollster::block_on(instance().enumerate_adapters(wgpu::Backends::all()))
        .iter()
        .map(summary)
        .collect()
}

/// How long one dispatch may take before it counts as a device failure.
pub(super) const DISPATCH_TIMEOUT: Duration = Duration::from_secs(600);

/// A pipeline's creation: when it started, and empty while it runs (on
/// a thread of its own), then its outcome, with the callers waiting for it
/// woken.
struct Creation {
    started: Instant,
    outcome: Mutex<Option<Result<Arc<wgpu::ComputePipeline>, String>>>,
    done: Condvar,
}

type PipelineSlot = Arc<Creation>;

/// How long after a pipeline's creation started its callers wait for it
/// on a hardware adapter before their batches take the CPU path: the
/// creation goes on, and the calls after it is done run on the GPU. On
/// the H200 (driver 580) the BLS12-381 pairing pipeline was not created
/// within 150 s (docs/bench/h200-2026-12-04), which held each call (and
/// `selftest`) that long. A software rasteriser's calls wait for the
/// creation however long (its compile runs on the CPU the fallback would
/// use; a pairing pipeline takes ~30 s on llvmpipe).
const COMPILE_WAIT: Duration = Duration::from_secs(60);

/// An open device with its pipeline cache and the driver's idle lanes.
pub(crate) struct Gpu {
    /// This device's number among those this process opened (resources
    /// made on one device must never reach another's bindings).
    pub(crate) id: u64,
    pub(crate) summary: AdapterSummary,
    /// Whether the device was opened with `SHADER_INT64`.
    pub(crate) int64: bool,
    pub(crate) device: wgpu::Device,
    pub(crate) queue: wgpu::Queue,
    pub(crate) max_binding: u64,
    /// Whether kernels are timed with GPU timestamps (`TIMESTAMP_QUERY`).
    pub(crate) timestamps: bool,
    /// The pipelines, one slot per shader key: the map's lock is held
    /// only to find or add a slot; the first caller of a key starts its
    /// creation on a thread of its own, and every caller waits on the slot
    /// (up to the compile wait after its start), so the callers of one
    /// kernel share its single creation while those of other kernels
    /// create theirs at the same time.
    pipelines: Mutex<HashMap<&'static str, PipelineSlot>>,
    /// How long after a pipeline's creation started its callers wait for
    /// it ([`COMPILE_WAIT`]; as long as it takes on a software rasteriser;
    /// tests lower it).
    compile_wait: Mutex<Option<Duration>>,
    /// Idle lanes of the driver per kernel (see [`driver`]).
    lanes: Mutex<HashMap<&'static str, Vec<Lane>>>,
    /// The most units per sub-batch of the calls a thread makes, where a
    /// test lowered it (other threads: the kernel's own).
    sub_batch_caps: Mutex<HashMap<ThreadId, usize>>,
    /// The one-shot failure a test injects at a stage of a sub-batch of the
    /// next call its thread makes (other threads' calls run as usual).
    injected: Mutex<HashMap<ThreadId, (FaultStage, usize)>>,
    /// Per-operation data computed on the device once (e.g. base-point tables).
    pub(crate) tables: Mutex<HashMap<&'static str, wgpu::Buffer>>,
    /// The last wall time (seconds) of a device stage that a host path
    /// may stand in for, by stage: what an op compares its host estimate
    /// with (BLS's final checks).
    stage_seconds: Mutex<HashMap<&'static str, f64>>,
    /// The first error wgpu reported outside an error scope, or the reason
    /// the device was lost: once set, every dispatch fails (and the engine
    /// uses the CPU) instead of wgpu's default of panicking.
    fault: Arc<Mutex<Option<String>>>,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("adapter", &self.summary)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Opens the best adapter (discrete before integrated before virtual
    /// before software, and within each kind one with `SHADER_INT64` first),
    /// with `SHADER_INT64` when it has it and `use_int64` allows. `wanted`,
    /// else the `BATCHCRYPTO_ADAPTER` variable (a substring of the adapter's
    /// name, any case), picks one explicitly.
    pub(crate) fn open(wanted: Option<&str>, use_int64: bool) -> Result<Gpu, String> {
        let instance = instance();
        let mut found = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()));
        if found.is_empty() {
            return Err("looked for a Vulkan, Metal or DX12 adapter through wgpu and found none".to_string());
        }
        let wanted = wanted_adapter(wanted);
        let summaries: Vec<AdapterSummary> = found.iter().map(summary).collect();
        let listed: Vec<String> = summaries.iter().map(AdapterSummary::describe).collect();
        let adapter = preferred(&summaries, wanted.as_deref())
            .map(|i| found.swap_remove(i))
            .ok_or_else(|| {
                format!(
                    "no adapter{} among: {}",
                    wanted.map(|w| format!(" matching {w:?}")).unwrap_or_default(),
                    listed.join("; ")
                )
            })?;
        let summary = summary(&adapter);
        let int64 = use_int64 && summary.int64;
        let timestamps = adapter.features().contains(wgpu::Features::TIMESTAMP_QUERY);
        let limits = adapter.limits();
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("batchcrypto"),
            required_features: if int64 {
                wgpu::Features::SHADER_INT64
            } else {
                wgpu::Features::empty()
            } | if timestamps {
                wgpu::Features::TIMESTAMP_QUERY
            } else {
                wgpu::Features::empty()
            },
            required_limits: wgpu::Limits {
                max_storage_buffer_binding_size: limits.max_storage_buffer_binding_size,
                max_buffer_size: limits.max_buffer_size,
                max_storage_buffers_per_shader_stage: limits.max_storage_buffers_per_shader_stage.min(8),
                ..wgpu::Limits::default()
            },
            ..Default::default()
        }))
        .map_err(|e| format!("{}: request_device failed: {e}", summary.describe()))?;
        let max_binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        let fault: Arc<Mutex<Option<String>>> = Arc::default();
        let on_error = fault.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            lock(&on_error).get_or_insert_with(|| format!("device error: {e}"));
        }));
        let on_lost = fault.clone();
        device.set_device_lost_callback(move |reason, message| {
            lock(&on_lost).get_or_insert_with(|| format!("device lost ({reason:?}): {message}"));
        });
        static OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let compile_wait = compile_wait(summary.software)?;
        Ok(Gpu {
            id: OPENED.fetch_add(1, Ordering::Relaxed),
            summary,
            int64,
            device,
            queue,
            max_binding,
            timestamps,
            pipelines: Mutex::new(HashMap::new()),
            compile_wait: Mutex::new(compile_wait),
            lanes: Mutex::new(HashMap::new()),
            sub_batch_caps: Mutex::new(HashMap::new()),
            injected: Mutex::new(HashMap::new()),
            tables: Mutex::new(HashMap::new()),
            stage_seconds: Mutex::new(HashMap::new()),
            fault,
        })
    }

    /// `Err` with the reason when the device was opened without
    /// `SHADER_INT64`, which `kernel` needs.
    pub(crate) fn require_int64(&self, kernel: &str) -> Result<(), String> {
        if self.int64 {
            Ok(())
        } else {
            Err(format!(
                "the {kernel} kernel needs SHADER_INT64, which this device was opened without"
            ))
        }
    }

    /// "name (type, backend, driver)", noting when the device runs without `SHADER_INT64`.
    pub(crate) fn describe(&self) -> String {
        let mut d = self.summary.describe();
        if !self.int64 {
            d.push_str(" [without SHADER_INT64: 32-bit Keccak lanes, Ed25519 on the CPU]");
        }
        d
    }

    /// Marks the device as failed, as wgpu's error callbacks do.
    pub(crate) fn set_fault(&self, reason: &str) {
        lock(&self.fault).get_or_insert_with(|| reason.to_string());
    }

    /// The pipeline for `entry` of the shader `key`, compiled on first use
    /// from `source()` and cached for the life of the device; an error when
    /// its creation fails (the next call tries again) or is still running
    /// the compile wait after it started (so that a creation past it holds
    /// no later call).
    pub(crate) fn pipeline(
        &self,
        key: &'static str,
        entry: &'static str,
        source: impl FnOnce() -> String,
    ) -> Result<Arc<wgpu::ComputePipeline>, String> {
        let (slot, first) = {
            let mut pipelines = lock(&self.pipelines);
            match pipelines.get(key) {
                Some(slot) => (slot.clone(), false),
                None => {
                    let slot = Arc::new(Creation {
                        started: Instant::now(),
                        outcome: Mutex::new(None),
                        done: Condvar::new(),
                    });
                    pipelines.insert(key, slot.clone());
                    (slot, true)
                }
            }
        };
        if first {
            let (device, source, done) = (self.device.clone(), source(), slot.clone());
            let started = std::thread::Builder::new()
                .name(format!("compile {key}"))
                .spawn(move || {
                    let created = create_pipeline(&device, key, entry, source);
                    *lock(&done.outcome) = Some(created);
                    done.done.notify_all();
                });
            if let Err(e) = started {
                lock(&self.pipelines).remove(key);
                return Err(format!("compiling {key}: no thread to compile on: {e}"));
            }
        }
        let wait = *lock(&self.compile_wait);
        let created = lock(&slot.outcome);
        let created = match wait {
            Some(wait) => {
                slot.done
                    .wait_timeout_while(
                        created,
                        (slot.started + wait).saturating_duration_since(Instant::now()),
                        |c| c.is_none(),
                    )
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .0
            }
            None => slot
                .done
                .wait_while(created, |c| c.is_none())
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        };
        match created.as_ref() {
            Some(Ok(pipeline)) => Ok(pipeline.clone()),
            Some(Err(e)) => {
                let e = e.clone();
                drop(created);
                // The next caller tries again (unless another already has).
                let mut pipelines = lock(&self.pipelines);
                if pipelines.get(key).is_some_and(|s| Arc::ptr_eq(s, &slot)) {
                    pipelines.remove(key);
                }
                Err(e)
            }
            None => Err(format!(
                "compiling {key}: not done after {} s (the calls after it is done run on the GPU)",
                wait.unwrap_or_default().as_secs_f64()
            )),
        }
    }

    /// The last wall time (seconds) of `stage` on this device, if it ran.
    pub(crate) fn stage_seconds(&self, stage: &'static str) -> Option<f64> {
        lock(&self.stage_seconds).get(stage).copied()
    }

    /// Records a run of `stage` on this device that took `seconds`.
    pub(crate) fn record_stage(&self, stage: &'static str, seconds: f64) {
        lock(&self.stage_seconds).insert(stage, seconds);
    }

    /// Sets how long after a pipeline's creation started its callers wait
    /// for it (`None`: as long as it takes). For tests.
    pub(crate) fn set_compile_wait(&self, wait: Option<Duration>) {
        *lock(&self.compile_wait) = wait;
    }

    /// The failure recorded by wgpu's callbacks or [`Gpu::set_fault`], if any.
    pub(crate) fn fault(&self) -> Option<String> {
        lock(&self.fault).clone()
    }

    /// Up to `n` idle lanes of `kernel` from the pool, new empty ones for
    /// the rest; the pool's lock is held only while taking.
    pub(crate) fn take_lanes(&self, kernel: &'static str, n: usize) -> Vec<Lane> {
        let mut lanes = {
            let mut pool = lock(&self.lanes);
            let idle = pool.entry(kernel).or_default();
            idle.split_off(idle.len().saturating_sub(n))
        };
        lanes.resize_with(n, Lane::default);
        lanes
    }

    /// Gives idle lanes back to the pool, keeping at most `keep` per kernel.
    pub(crate) fn return_lanes(&self, kernel: &'static str, lanes: Vec<Lane>, keep: usize) {
        let mut pool = lock(&self.lanes);
        let idle = pool.entry(kernel).or_default();
        idle.extend(lanes);
        idle.truncate(keep);
    }

    /// The most units per sub-batch of a call on this thread: `kernel_max`,
    /// or less when a test on this thread lowered it.
    pub(crate) fn sub_batch_cap(&self, kernel_max: usize) -> usize {
        match lock(&self.sub_batch_caps).get(&std::thread::current().id()) {
            Some(&cap) => cap.min(kernel_max),
            None => kernel_max,
        }
        .max(1)
    }

    /// Lowers the most units per sub-batch of this thread's calls (tests;
    /// `None` restores it). Other threads' calls keep their kernels' own.
    pub(crate) fn set_sub_batch_cap(&self, cap: Option<usize>) {
        let mut caps = lock(&self.sub_batch_caps);
        let thread = std::thread::current().id();
        match cap {
            Some(cap) => caps.insert(thread, cap),
            None => caps.remove(&thread),
        };
    }

    /// Makes this thread's next call fail at `stage` of sub-batch
    /// `sub_batch` (tests).
    pub(crate) fn inject(&self, stage: FaultStage, sub_batch: usize) {
        lock(&self.injected).insert(std::thread::current().id(), (stage, sub_batch));
    }

    /// Whether an injected failure is due at `stage` of `sub_batch` of a
    /// call on this thread (it fires once).
    pub(crate) fn injected(&self, stage: FaultStage, sub_batch: usize) -> bool {
        let mut injected = lock(&self.injected);
        let thread = std::thread::current().id();
        let due = injected.get(&thread) == Some(&(stage, sub_batch));
        if due {
            injected.remove(&thread);
        }
        due
    }

    /// A bind group for group 0 of `pipeline` with whole buffers at the given bindings.
    pub(crate) fn bind(
        &self,
        pipeline: &wgpu::ComputePipeline,
        label: &'static str,
        buffers: &[(u32, &wgpu::Buffer)],
    ) -> wgpu::BindGroup {
        let entries: Vec<wgpu::BindGroupEntry<'_>> = buffers
            .iter()
            .map(|(binding, buffer)| wgpu::BindGroupEntry {
                binding: *binding,
                resource: buffer.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    /// The end of the largest run of items from `start` (at most
    /// `max_items`) whose message bytes fit in one storage binding.
    pub(crate) fn sub_batch_end(&self, msgs: &FlatBytes, start: usize, max_items: usize) -> Result<usize, String> {
        let max_bytes = usize::try_from(self.max_binding).unwrap_or(usize::MAX).min(1 << 30);
        let offsets = msgs.offsets();
        let mut end = (start + max_items).min(msgs.len());
        while end > start + 1 && (offsets[end] - offsets[start]) as usize > max_bytes {
            end = start + (end - start) / 2;
        }
        if (offsets[end] - offsets[start]) as usize > max_bytes {
            return Err(format!(
                "a message of {} bytes exceeds the adapter's storage binding limit",
                offsets[end] - offsets[start]
            ));
        }
        Ok(end)
    }

    /// Whether BATCHCRYPTO_GPU_TRACE is set (for finding where end-to-end
    /// time goes).
    pub(crate) fn tracing() -> bool {
        static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *ON.get_or_init(|| std::env::var_os("BATCHCRYPTO_GPU_TRACE").is_some())
    }

    /// Prints how long `what` took since `since` to stderr when
    /// [`Gpu::tracing`].
    pub(crate) fn trace(what: impl FnOnce() -> String, since: Instant) {
        Self::trace_ms(what, since.elapsed().as_secs_f64() * 1e3);
    }

    /// Prints `what` and `ms` milliseconds to stderr when [`Gpu::tracing`].
    pub(crate) fn trace_ms(what: impl FnOnce() -> String, ms: f64) {
        if Self::tracing() {
            eprintln!("batchcrypto gpu trace: {} {ms:.3} ms", what());
        }
    }

    /// Runs a one-off setup kernel (e.g. a table computed on the device):
    /// `threads` threads of `pipeline` in workgroups of `workgroup`, waited
    /// for, errors checked.
    pub(crate) fn run_setup(
        &self,
        pipeline: &wgpu::ComputePipeline,
        bind_group: &wgpu::BindGroup,
        threads: u32,
        workgroup: u32,
    ) -> Result<(), String> {
        if let Some(fault) = self.fault() {
            return Err(fault);
        }
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(threads.div_ceil(workgroup), 1, 1);
        }
        let submission = self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(validation.pop()) {
            return Err(format!("setup: {e}"));
        }
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(submission),
                timeout: Some(DISPATCH_TIMEOUT),
            })
            .map_err(|e| format!("waiting for the device: {e}"))?;
        self.fault().map_or(Ok(()), Err)
    }
}

/// Status a kernel writes instead of its completion flag when the driver cut
/// one of its loops short (see `wgsl/guard.wgsl`).
pub(crate) const LOOPS_CUT_FLAG: u32 = 0x200;
/// The bit every kernel sets in an item's status word once it finished the
/// item (a missing flag means the item never ran: the batch goes to the CPU).
pub(crate) const DONE_FLAG: u32 = 0x100;
/// Threads per workgroup of the one-thread-per-item kernels.
pub(crate) const WORKGROUP_SIZE: u32 = 64;

/// `Ok` when a kernel's status word for `item` carries the completion
/// flag; otherwise the loop-guard error, or an error saying the item came
/// back without `what`.
pub(crate) fn check_done(status: u32, item: usize, what: &str) -> Result<(), String> {
    if status == LOOPS_CUT_FLAG {
        return Err(LoopsCut(item..item + 1).to_string());
    }
    if status & DONE_FLAG == 0 {
        return Err(format!("item {item} came back without {what} (status {status:#x})"));
    }
    Ok(())
}

/// Items among which the driver cut a computation short: they go to the CPU.
pub(crate) struct LoopsCut(pub(crate) std::ops::Range<usize>);

impl std::fmt::Display for LoopsCut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self(items) = self;
        if items.len() == 1 {
            write!(f, "the driver cut a loop short on item {}", items.start)?;
        } else {
            write!(f, "the driver cut a loop short in items {}..{}", items.start, items.end)?;
        }
        f.write_str(" (llvmpipe stops loops after 65535 iterations per invocation; long messages need more)")
    }
}

/// How long a kernel's callers wait for its compile ([`COMPILE_WAIT`] on
/// hardware, as long as it takes on a software rasteriser), or the
/// seconds in `BATCHCRYPTO_GPU_COMPILE_WAIT_S` (for finding how long a
/// driver's compile takes: `BATCHCRYPTO_GPU_TRACE=1` prints it).
/// A value that is not a number of seconds is an error naming it.
fn compile_wait(software: bool) -> Result<Option<Duration>, String> {
    parse_compile_wait(std::env::var_os(COMPILE_WAIT_VAR).as_deref(), software)
}

const COMPILE_WAIT_VAR: &str = "BATCHCRYPTO_GPU_COMPILE_WAIT_S";

/// [`compile_wait`] for the variable's value `v`.
fn parse_compile_wait(v: Option<&std::ffi::OsStr>, software: bool) -> Result<Option<Duration>, String> {
    match v {
        None => Ok((!software).then_some(COMPILE_WAIT)),
        Some(v) => v
            .to_str()
            .and_then(|s| s.trim().parse::<f64>().ok())
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .map(Some)
            .ok_or_else(|| format!("{COMPILE_WAIT_VAR}={}: not a number of seconds", v.to_string_lossy())),
    }
}

/// `entry` of the WGSL `source` as a compute pipeline (`key` names it in
/// errors and traces).
fn create_pipeline(
    device: &wgpu::Device,
    key: &'static str,
    entry: &'static str,
    source: String,
) -> Result<Arc<wgpu::ComputePipeline>, String> {
    let started = Instant::now();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(key),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(key),
        layout: None,
        module: &module,
        entry_point: Some(entry),
        compilation_options: Default::default(),
        cache: None,
    });
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(format!("compiling {key}: {e}"));
    }
    // Drivers may compile further on the first dispatch (llvmpipe does).
    Gpu::trace(|| format!("created pipeline {key}"), started);
    Ok(Arc::new(pipeline))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves the data usable.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl GpuRuntime for Gpu {
    fn describe(&self) -> String {
        Gpu::describe(self)
    }

    fn adapter_name(&self) -> String {
        self.summary.name.clone()
    }

    fn timestamps(&self) -> bool {
        self.timestamps
    }

    fn software(&self) -> bool {
        self.summary.software
    }

    fn ed25519_verify(&self, batch: &ed25519::Batch, policy: ed25519::Policy) -> Streamed<Verdict> {
        ed25519::gpu::verify(self, batch, policy)
    }

    fn hash(&self, alg: hash::Alg, msgs: &FlatBytes) -> Streamed<hash::Digest> {
        hash::gpu::hash(self, alg, msgs)
    }

    fn secp256k1_verify(&self, items: &[K1VerifyItem], low_s: bool) -> Streamed<Verdict> {
        ecdsa::gpu::secp256k1_verify(self, items, low_s)
    }

    fn ecrecover(&self, items: &[RecoverItem], low_s: bool) -> Streamed<Result<Recovered, Reason>> {
        ecdsa::gpu::ecrecover(self, items, low_s)
    }

    fn p256_verify(&self, items: &[P256Item]) -> Streamed<Verdict> {
        ecdsa::gpu::p256_verify(self, items)
    }

    fn bip340_verify(&self, batch: &bip340::Batch) -> Streamed<Verdict> {
        bip340::gpu::verify(self, batch)
    }

    fn kzg_cell_verify(&self, items: &[kzg::CellItem]) -> Streamed<Verdict> {
        kzg::gpu::verify(self, items)
    }

    fn kzg_compute_cells(&self, blobs: &[&[u8; kzg::BLOB_LEN]]) -> Streamed<Result<kzg::BlobCells, Reason>> {
        kzg::extend_gpu::compute(self, blobs)
    }

    fn kzg_recover_cells(&self, items: &[kzg::RecoverItem]) -> Streamed<Result<kzg::Extended, Reason>> {
        kzg::extend_gpu::recover(self, items)
    }

    fn poseidon_bn254(&self, items: &FlatBytes) -> Streamed<poseidon::HashResult> {
        poseidon::gpu::hash(self, items)
    }

    fn sr25519_verify(&self, batch: &sr25519::Batch, ctx: &[u8]) -> Streamed<Verdict> {
        sr25519::gpu::verify(self, batch, ctx)
    }

    fn mldsa_verify(&self, level: mldsa::Level, batch: &mldsa::Batch) -> Streamed<Verdict> {
        mldsa::gpu::verify(self, level, batch)
    }

    fn slhdsa_verify(&self, set: slhdsa::Set, batch: &slhdsa::Batch) -> Streamed<Verdict> {
        slhdsa::gpu::verify(self, set, batch)
    }

    fn mlkem_keygen(&self, set: mlkem::Set, items: &[mlkem::KeygenItem]) -> Streamed<Result<mlkem::KeyPair, Reason>> {
        mlkem::gpu::keygen(self, set, items)
    }

    fn mlkem_encaps(
        &self,
        set: mlkem::Set,
        items: &[mlkem::EncapsItem],
    ) -> Streamed<Result<mlkem::Encapsulated, Reason>> {
        mlkem::gpu::encaps(self, set, items)
    }

    fn ntt(&self, transform: &ntt::Transform, polys: &[u8]) -> Streamed<ntt::PolyResult> {
        ntt::gpu::ntt(self, transform, polys)
    }

    fn mlkem_decaps(
        &self,
        set: mlkem::Set,
        items: &[mlkem::DecapsItem],
    ) -> Streamed<Result<mlkem::SharedSecret, Reason>> {
        mlkem::gpu::decaps(self, set, items)
    }

    fn bls_verify(&self, batch: &bls::Batch, mode: bls::Mode) -> Streamed<Verdict> {
        bls::gpu::signatures::verify(self, batch, mode)
    }

    fn bls_aggregate_verify(&self, items: &[bls::AggregateItem]) -> Streamed<Verdict> {
        bls::gpu::signatures::aggregate_verify(self, items)
    }

    fn bls_fast_aggregate_verify(&self, items: &[bls::FastAggregateItem]) -> Streamed<Verdict> {
        bls::gpu::signatures::fast_aggregate_verify(self, items)
    }

    fn eip2537_pairing(&self, inputs: &FlatBytes) -> Streamed<Result<bool, PrecompileError>> {
        bls::gpu::eip2537_pairing(self, inputs)
    }

    fn msm(
        &self,
        curve: msm::Curve,
        encoding: msm::Encoding,
        points: &[u8],
        scalars: &[u8],
    ) -> Result<msm::MsmResult, String> {
        msm::gpu::msm(self, curve, encoding, points, scalars)
    }

    fn msm_with(&self, bases: &msm::Bases, scalars: &[u8]) -> Result<Vec<u8>, String> {
        msm::gpu::msm_with(self, bases, scalars)
    }

    fn evm(&self, precompile: evm::Precompile, inputs: &FlatBytes) -> Streamed<evm::CallResult> {
        evm::gpu::run(self, precompile, inputs)
    }

    fn merkle_root(
        &self,
        rule: merkle::Rule,
        leaves: &[hash::Digest],
        zeros: Option<&[hash::Digest]>,
    ) -> Result<hash::Digest, String> {
        merkle::gpu::root(self, rule, leaves, zeros)
    }

    fn merkle_proofs(&self, rule: merkle::Rule, depth: Option<u32>, items: &FlatBytes) -> Streamed<Verdict> {
        merkle::gpu::verify_proofs(self, rule, depth, items)
    }

    fn kernel_times(&self, work: KernelWork<'_>, runs: usize) -> Result<Vec<f64>, String> {
        match work {
            KernelWork::Ed25519(batch, policy) => ed25519::gpu::kernel_times(self, batch, policy, runs),
            KernelWork::Hash(alg, msgs) => hash::gpu::kernel_times(self, alg, msgs, runs),
            KernelWork::Merkle(rule, leaves) => merkle::gpu::kernel_times(self, rule, leaves, runs),
            KernelWork::MerkleProof(rule, depth, items) => {
                merkle::gpu::proof_kernel_times(self, rule, depth, items, runs)
            }
            KernelWork::Secp256k1(items) => ecdsa::gpu::secp256k1_kernel_times(self, items, runs),
            KernelWork::Ecrecover(items) => ecdsa::gpu::ecrecover_kernel_times(self, items, runs),
            KernelWork::P256(items) => ecdsa::gpu::p256_kernel_times(self, items, runs),
            KernelWork::Bip340(batch) => bip340::gpu::kernel_times(self, batch, runs),
            KernelWork::Sr25519(batch, ctx) => sr25519::gpu::kernel_times(self, batch, ctx, runs),
            KernelWork::Mldsa(level, batch) => mldsa::gpu::kernel_times(self, level, batch, runs),
            KernelWork::Slhdsa(set, batch) => slhdsa::gpu::kernel_times(self, set, batch, runs),
            KernelWork::MlkemKeygen(set, items) => mlkem::gpu::keygen_kernel_times(self, set, items, runs),
            KernelWork::MlkemEncaps(set, items) => mlkem::gpu::encaps_kernel_times(self, set, items, runs),
            KernelWork::MlkemDecaps(set, items) => mlkem::gpu::decaps_kernel_times(self, set, items, runs),
            KernelWork::Ntt(t, polys) => ntt::gpu::kernel_times(self, t, polys, runs),
            KernelWork::Msm(curve, points, scalars) => msm::gpu::kernel_times(self, curve, points, scalars, runs),
            KernelWork::Eip2537Pairing(inputs) => bls::gpu::eip2537_kernel_times(self, inputs, runs),
            KernelWork::Poseidon(items) => poseidon::gpu::kernel_times(self, items, runs),
        }
    }

    fn field_rates(&self, threads: usize, iterations: u32, runs: usize) -> Result<Vec<FieldRate>, String> {
        super::field_bench::rates(self, threads, iterations, runs)
    }

    fn set_fault(&self, reason: &str) {
        Gpu::set_fault(self, reason);
    }

    fn inject(&self, stage: FaultStage, sub_batch: usize) {
        Gpu::inject(self, stage, sub_batch);
    }

    fn set_sub_batch_cap(&self, cap: Option<usize>) {
        Gpu::set_sub_batch_cap(self, cap);
    }

    fn set_compile_wait(&self, wait: Option<Duration>) {
        Gpu::set_compile_wait(self, wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn the_compile_wait_is_a_number_of_seconds_or_an_error() {
        assert_eq!(parse_compile_wait(None, false), Ok(Some(COMPILE_WAIT)));
        assert_eq!(parse_compile_wait(None, true), Ok(None));
        let wait = |v: &str| parse_compile_wait(Some(OsStr::new(v)), true);
        assert_eq!(wait("900"), Ok(Some(Duration::from_secs(900))));
        assert_eq!(wait(" 0.5 "), Ok(Some(Duration::from_millis(500))));
        assert_eq!(wait("0"), Ok(Some(Duration::ZERO)));
        for bad in ["", "-1", "NaN", "inf", "1e300", "soon"] {
            let e = wait(bad).expect_err(bad);
            assert!(
                e.contains("BATCHCRYPTO_GPU_COMPILE_WAIT_S") && e.contains("not a number of seconds"),
                "{e}"
            );
        }
    }
}
