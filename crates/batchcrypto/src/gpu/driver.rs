//! The one kernel driver: every operation's GPU path streams its batch
//! through [`run`], and its benchmark timings come from [`time`].
//!
//! A batch is cut into sub-batches (each op's [`Kernel::end`] says how far
//! one may reach: a count, or a storage binding's limit for messages), and
//! up to [`DEPTH`] of them are in flight at once, each on its own
//! [`Lane`] of persistent buffers: while the device runs sub-batch k, the
//! host packs k+1 straight into the next lane's mapped staging buffer
//! (on rayon threads where the op's packing is heavy) and reads back k-1.
//! wgpu runs one queue's submissions in order, so the device never waits
//! for the host while packing keeps up.
//!
//! Per lane: a staging buffer (`MAP_WRITE | COPY_SRC`, mapped whenever the
//! lane is idle, so packing writes into it directly), the device-side
//! input buffers the kernel binds, the output buffer (cleared on the device
//! before every run, so a kernel that silently did nothing leaves no
//! completion flag) and a readback buffer (`MAP_READ`) of only the bytes
//! the answer needs. Buffers grow and are kept; lanes go back to the
//! [`Gpu`]'s pool after the call. No lock is held while the device works:
//! concurrent calls on one engine each take their own lanes.
//!
//! Each op supplies only what is its own ([`Kernel`]): the input sizes,
//! `pack`, `bind` and `decode`. `decode` checks every unit's completion and
//! loop-guard flags; the driver checks the count, error scopes, the device's
//! fault flag and a bounded wait. When anything fails, the answers of the
//! sub-batches decoded so far are returned with the reason ([`Failure`]) and
//! the engine recomputes the rest on the CPU, so nothing is lost or
//! duplicated. Tests inject a failure at each stage ([`FaultStage`]).
//!
//! Kernel times use GPU timestamp queries where the adapter has
//! `TIMESTAMP_QUERY` (the span from the first pass's start to the last
//! pass's end), wall time around submit and readback otherwise. Traced
//! runs (`BATCHCRYPTO_GPU_TRACE`) time every pass of a sub-batch apart
//! (up to [`MAX_TIMED_PASSES`]) and print each, so that a staged kernel's
//! device time is split by entry point.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use super::device::{DISPATCH_TIMEOUT, Gpu, WORKGROUP_SIZE};
pub(crate) use super::{Failure, FaultStage, Streamed};

/// Sub-batches in flight at once in one call: one packed by the host, one
/// running on the device, one read back.
pub(crate) const DEPTH: usize = 3;

/// Idle lanes kept per kernel after calls (more are dropped).
const POOL_LANES: usize = 4 * DEPTH;

/// Alignment of each input inside a lane's staging buffer.
const STAGING_ALIGN: u64 = 256;

/// How long a map callback may lag behind the wait that completed its
/// submission before the device counts as failed.
const MAP_GRACE: Duration = Duration::from_secs(5);

/// Most passes of a sub-batch a traced run times one by one (two
/// timestamps each; wgpu allows 4,096 queries per set); a sub-batch of
/// more is timed as a whole.
const MAX_TIMED_PASSES: usize = 1024;

/// How the kernel binds an input buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Usage {
    /// `var<storage>` (read or read-write).
    Storage,
    /// `var<uniform>` (parameters).
    Uniform,
}

/// One input buffer of a sub-batch: the bytes the host packs and the
/// buffer's size (at least those bytes; the rest is the kernel's to write).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input {
    pub(crate) bytes: usize,
    pub(crate) room: u64,
    pub(crate) usage: Usage,
    /// Zeroed on the device before every run (counters a pass adds to).
    pub(crate) cleared: bool,
}

impl Input {
    /// A storage input of `bytes` packed bytes.
    pub(crate) fn storage(bytes: usize) -> Input {
        Input {
            bytes,
            room: bytes as u64,
            usage: Usage::Storage,
            cleared: false,
        }
    }

    /// A uniform input of `bytes` packed bytes.
    pub(crate) fn uniform(bytes: usize) -> Input {
        Input {
            bytes,
            room: bytes as u64,
            usage: Usage::Uniform,
            cleared: false,
        }
    }

    /// The same input in a buffer of at least `room` bytes.
    pub(crate) fn with_room(self, room: u64) -> Input {
        Input {
            room: room.max(self.bytes as u64),
            ..self
        }
    }

    /// Scratch of `room` bytes, nothing packed, zeroed before every run.
    pub(crate) fn cleared(room: u64) -> Input {
        Input {
            cleared: true,
            ..Input::storage(0).with_room(room)
        }
    }
}

/// Where `pack` writes one input: write-only mapped staging memory.
pub(crate) type Dst<'a> = wgpu::WriteOnly<'a, [u8]>;

/// The `N` inputs `pack` was given, as an array.
pub(crate) fn inputs<const N: usize>(dst: Vec<Dst<'_>>) -> [Dst<'_>; N] {
    <[Dst<'_>; N]>::try_from(dst).unwrap_or_else(|d| panic!("{} inputs declared, {N} packed", d.len()))
}

/// Bytes a thread copies at least in [`copy`] and [`copied`].
const COPY_PIECE: usize = 4 << 20;

/// `src` copied into `dst` (as long), in pieces on all cores when large: a
/// large input (an NTT of 2^24 elements is 512 MB) is one sequential copy
/// otherwise, fresh staging memory's first touches included.
pub(crate) fn copy(dst: Dst<'_>, src: &[u8]) {
    use rayon::prelude::*;
    // A view of a slice cannot be sent to another thread, one of an array
    // can: whole pieces go to the pool as arrays, the rest is copied here.
    let (pieces, mut rest) = dst.into_chunks::<COPY_PIECE>();
    let pieces: Vec<wgpu::WriteOnly<'_, [u8; COPY_PIECE]>> = pieces.into_iter().collect();
    let whole = pieces.len() * COPY_PIECE;
    rest.copy_from_slice(&src[whole..]);
    pieces
        .into_par_iter()
        .zip(src[..whole].par_chunks_exact(COPY_PIECE))
        .for_each(|(piece, src)| Dst::from(piece).copy_from_slice(src));
}

/// `src` as a new vector, copied in pieces on all cores when large (a
/// large result read back: see [`copy`]).
pub(crate) fn copied(src: &[u8]) -> Vec<u8> {
    use rayon::prelude::*;
    if src.len() <= COPY_PIECE {
        return src.to_vec();
    }
    let mut out = vec![0u8; src.len()];
    out.par_chunks_mut(COPY_PIECE)
        .zip(src.par_chunks(COPY_PIECE))
        .for_each(|(d, s)| d.copy_from_slice(s));
    out
}

/// A kernel's four u32 parameters as the bytes of its uniform input.
pub(crate) fn params(dst: Dst<'_>, values: [u32; 4]) {
    dst.write_iter(values.iter().flat_map(|v| v.to_le_bytes()));
}

/// Units of `stride` u32 words each, the last the completion flag (checked),
/// appended to `answers` as their other words (`what` names a unit in
/// errors).
pub(crate) fn decode_words(
    out: &[u8],
    stride: usize,
    start: usize,
    what: &str,
    answers: &mut Vec<Vec<u32>>,
) -> Result<(), String> {
    let words: Vec<u32> = out
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    for (i, unit) in words.chunks_exact(stride).enumerate() {
        super::check_done(unit[stride - 1], start + i, what)?;
        answers.push(unit[..stride - 1].to_vec());
    }
    Ok(())
}

/// The status words of items `start..end` (each checked for its completion
/// flag, `what` naming an answer in errors), from an output of one word per
/// item and then the word where any pass reports loops cut short.
pub(crate) fn item_statuses(out: &[u8], start: usize, end: usize, what: &str) -> Result<Vec<u32>, String> {
    let words: Vec<u32> = out
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    if words[end - start] & super::LOOPS_CUT_FLAG != 0 {
        return Err(super::LoopsCut(start..end).to_string());
    }
    for (i, &status) in (start..end).zip(&words) {
        super::check_done(status, i, what)?;
    }
    Ok(words[..end - start].to_vec())
}

/// Items packed by `fill` (item index, item) into `dst`, `N` bytes each,
/// on all cores. Write-only staging memory is written in pieces, so the
/// items are packed into a scratch buffer (kept per calling thread, reused
/// by every later sub-batch) and copied over ([`copy`]).
pub(crate) fn par_fill<T: Sync, const N: usize>(dst: Dst<'_>, items: &[T], fill: impl Fn(usize, &T) -> [u8; N] + Sync) {
    use rayon::prelude::*;
    thread_local! {
        static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    SCRATCH.with_borrow_mut(|scratch| {
        let need = items.len() * N;
        if scratch.len() < need {
            scratch.resize(need, 0);
        }
        scratch[..need]
            .par_chunks_exact_mut(N)
            .zip(items.par_iter())
            .enumerate()
            .for_each(|(i, (slot, item))| slot.copy_from_slice(&fill(i, item)));
        copy(dst, &scratch[..need]);
    });
}

/// The one pass of a one-thread-per-unit kernel: `buffers` bound at
/// bindings 0, 1, 2, ... of group 0 in order, `threads` threads.
pub(crate) fn one_pass<'a>(
    gpu: &Gpu,
    pipeline: &wgpu::ComputePipeline,
    label: &'static str,
    buffers: impl IntoIterator<Item = &'a wgpu::Buffer>,
    threads: usize,
) -> Vec<(wgpu::BindGroup, u32)> {
    let bindings: Vec<(u32, &wgpu::Buffer)> = (0..).zip(buffers).collect();
    vec![(gpu.bind(pipeline, label, &bindings), threads as u32)]
}

/// What one operation's GPU path supplies to the driver. A unit is what the
/// kernel answers one by one: an item, or for Merkle a whole tree.
pub(crate) trait Kernel: Sync {
    /// One unit's answer.
    type Out: Send;

    /// The key of this kernel's lanes in the pool (and its name in traces).
    fn name(&self) -> &'static str;
    /// The compiled pipeline the passes run.
    fn pipeline(&self) -> &wgpu::ComputePipeline;
    /// The pipeline of pass `pass` of [`Kernel::bind`]'s list, for kernels
    /// staged over several entry points; by default [`Kernel::pipeline`].
    fn pass_pipeline(&self, _pass: usize) -> &wgpu::ComputePipeline {
        self.pipeline()
    }
    /// The entry point of pass `pass` in traces; by default the kernel's
    /// name.
    fn pass_name(&self, _pass: usize) -> &'static str {
        self.name()
    }
    /// Units in the batch.
    fn units(&self) -> usize;
    /// Most units per sub-batch.
    fn max_units(&self) -> usize;
    /// Where the sub-batch from `start` ends: at most `start + max` (and at
    /// least `start + 1`), or an error when even one unit cannot fit.
    fn end(&self, _gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        Ok((start + max).min(self.units()))
    }
    /// The input buffers of units `start..end`, in the order `pack` fills
    /// them and `bind` binds them.
    fn inputs(&self, start: usize, end: usize) -> Vec<Input>;
    /// Packs units `start..end` into `dst`, one write-only slice per input
    /// of exactly its `bytes` (see [`inputs`]).
    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>);
    /// Bytes of the output the kernel writes and the host reads back.
    fn out_bytes(&self, start: usize, end: usize) -> u64;
    /// Bytes of the output buffer: the [`Kernel::out_bytes`] read back, then
    /// scratch that one pass writes and a later one reads (the MSM's chunk
    /// sums), cleared with the rest before every run so that nothing of an
    /// earlier run can pass for this one's. By default no scratch.
    fn out_room(&self, start: usize, end: usize) -> u64 {
        self.out_bytes(start, end)
    }
    /// Threads per unit of the default one-pass [`Kernel::bind`] (a
    /// workgroup per unit: [`WORKGROUP_SIZE`]); by default one.
    fn threads_per_unit(&self) -> usize {
        1
    }
    /// The passes of one run, in order: a bind group each and its thread
    /// count; later passes see what earlier ones wrote. By default one pass,
    /// [`Kernel::threads_per_unit`] threads per unit, the inputs bound in
    /// order and then the output.
    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        one_pass(
            gpu,
            self.pipeline(),
            self.name(),
            inputs.iter().chain([out]),
            (end - start) * self.threads_per_unit(),
        )
    }
    /// Appends the answers of units `start..end` from the output bytes; an
    /// error when a unit lacks its completion flag or the loop guard fired.
    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<Self::Out>) -> Result<(), String>;
}

/// Persistent buffers for one sub-batch in flight. Invariant while idle:
/// the staging buffer (if any) is mapped for writing, the readback buffer
/// unmapped.
#[derive(Default)]
pub(crate) struct Lane {
    staging: Option<wgpu::Buffer>,
    inputs: Vec<Option<wgpu::Buffer>>,
    out: Option<wgpu::Buffer>,
    readback: Option<wgpu::Buffer>,
    /// The timestamp queries, their resolve buffer and their count.
    timer: Option<(wgpu::QuerySet, wgpu::Buffer, u32)>,
}

impl Lane {
    /// The bytes of its device buffers (the staging buffer apart).
    fn bytes(&self) -> u64 {
        let size = |b: &Option<wgpu::Buffer>| b.as_ref().map_or(0, wgpu::Buffer::size);
        self.inputs.iter().map(size).sum::<u64>() + size(&self.out) + size(&self.readback)
    }
}

/// The buffer in `slot`, replaced by a new one (of `size` rounded up to an
/// eighth of its next power of two: later sub-batches a little larger
/// reuse it, and a large one is not doubled) when it is smaller than
/// `size` or lacks `usage`. Staging buffers are made mapped (wgpu zeroes
/// a new buffer's memory on its first mapping: one pass over all of it).
fn ensure(
    gpu: &Gpu,
    slot: &mut Option<wgpu::Buffer>,
    label: &'static str,
    size: u64,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let size = size.max(16).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
    match slot {
        Some(b) if b.size() >= size && b.usage().contains(usage) => b.clone(),
        _ => {
            let b = gpu.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.next_multiple_of((size.next_power_of_two() / 8).max(wgpu::COPY_BUFFER_ALIGNMENT)),
                usage,
                mapped_at_creation: usage.contains(wgpu::BufferUsages::MAP_WRITE),
            });
            *slot = Some(b.clone());
            b
        }
    }
}

/// What one submission does.
#[derive(Clone, Copy)]
struct Step {
    /// Pack and upload the inputs.
    upload: bool,
    /// Run the kernel's passes.
    compute: bool,
    /// Write GPU timestamps around the passes.
    timed: bool,
}

/// A submitted sub-batch.
struct InFlight {
    lane: Lane,
    start: usize,
    end: usize,
    submission: wgpu::SubmissionIndex,
    read: Receiver<Result<(), wgpu::BufferAsyncError>>,
    /// The staging buffer's map for the next packing, when it was unmapped.
    write: Option<Receiver<Result<(), wgpu::BufferAsyncError>>>,
    out_bytes: u64,
    /// Where the timestamps sit in the readback, when timed.
    stamps: Option<Stamps>,
    /// Each pass's threads, when its passes were timed one by one.
    timed_passes: Vec<u32>,
    sub_batch: usize,
}

/// A sub-batch's GPU timestamps in its readback: from byte `at`, `queries`
/// u64 ticks, a begin and an end per pass when the passes were timed one
/// by one, else the first pass's begin and the last's end.
#[derive(Clone, Copy)]
struct Stamps {
    at: u64,
    queries: u32,
}

impl Stamps {
    /// The readback's bytes up to the last timestamp's end.
    fn end(self) -> u64 {
        self.at + 8 * u64::from(self.queries)
    }
}

/// Staging offsets of `inputs` and the staging bytes in all.
fn staging_layout(inputs: &[Input]) -> (Vec<u64>, u64) {
    let mut offsets = Vec::with_capacity(inputs.len());
    let mut total = 0u64;
    for input in inputs {
        offsets.push(total);
        total = (total + (input.bytes as u64).next_multiple_of(4)).next_multiple_of(STAGING_ALIGN);
    }
    (offsets, total)
}

/// Packs (when asked), encodes and submits units `start..end` on `lane`.
fn submit<K: Kernel>(
    gpu: &Gpu,
    kernel: &K,
    mut lane: Lane,
    (start, end): (usize, usize),
    sub_batch: usize,
    step: Step,
) -> Result<InFlight, String> {
    let inputs = kernel.inputs(start, end);
    let (offsets, staging_bytes) = staging_layout(&inputs);
    let out_bytes = kernel.out_bytes(start, end).next_multiple_of(4);
    let out_room = kernel.out_room(start, end).next_multiple_of(4).max(out_bytes);

    // Traced runs say what buffers a sub-batch had to allocate, and how
    // long that took (a lane's buffers are kept for the calls after it).
    let (t, before) = (Instant::now(), lane.bytes());
    if lane.inputs.len() < inputs.len() {
        lane.inputs.resize(inputs.len(), None);
    }
    let device_inputs: Vec<wgpu::Buffer> = lane
        .inputs
        .iter_mut()
        .zip(&inputs)
        .map(|(slot, input)| {
            let usage = match input.usage {
                Usage::Storage => wgpu::BufferUsages::STORAGE,
                Usage::Uniform => wgpu::BufferUsages::UNIFORM,
            } | wgpu::BufferUsages::COPY_DST;
            ensure(gpu, slot, kernel.name(), input.room.max(input.bytes as u64), usage)
        })
        .collect();
    let out = ensure(
        gpu,
        &mut lane.out,
        "out",
        out_room,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    );
    let allocated = t.elapsed();
    if step.upload {
        if gpu.injected(FaultStage::Pack, sub_batch) {
            return Err(format!("injected fault packing sub-batch {sub_batch}"));
        }
        let t = Instant::now();
        let staging = ensure(
            gpu,
            &mut lane.staging,
            "staging",
            staging_bytes,
            wgpu::BufferUsages::MAP_WRITE | wgpu::BufferUsages::COPY_SRC,
        );
        {
            let mut view = staging
                .get_mapped_range_mut(..staging_bytes.max(16))
                .map_err(|e| format!("staging buffer: {e}"))?;
            let mut rest = view.slice(..);
            let mut slices = Vec::with_capacity(inputs.len());
            let mut at = 0u64;
            for (input, &offset) in inputs.iter().zip(&offsets) {
                let (_, tail) = rest.split_at((offset - at) as usize);
                let padded = input.bytes.next_multiple_of(4);
                let (slice, tail) = tail.split_at(padded);
                let (data, mut pad) = slice.split_at(input.bytes);
                pad.fill(0);
                slices.push(data);
                rest = tail;
                at = offset + padded as u64;
            }
            kernel.pack(start, end, slices);
        }
        staging.unmap();
        Gpu::trace(
            || {
                format!(
                    "{}: sub-batch {sub_batch} packed ({} units)",
                    kernel.name(),
                    end - start
                )
            },
            t,
        );
        if gpu.injected(FaultStage::Upload, sub_batch) {
            return Err(format!("injected fault uploading sub-batch {sub_batch}"));
        }
    }

    let t = Instant::now();
    let validation = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let oom = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let mut encoder = gpu
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
    if step.upload
        && let Some(staging) = &lane.staging
    {
        for ((input, &offset), buffer) in inputs.iter().zip(&offsets).zip(&device_inputs) {
            if input.bytes > 0 {
                encoder.copy_buffer_to_buffer(staging, offset, buffer, 0, (input.bytes as u64).next_multiple_of(4));
            }
        }
    }
    encoder.clear_buffer(&out, 0, Some(out_room));
    for (input, buffer) in inputs.iter().zip(&device_inputs) {
        if input.cleared {
            encoder.clear_buffer(
                buffer,
                0,
                Some(input.room.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT)),
            );
        }
    }
    let compute = step.compute && !gpu.injected(FaultStage::Kernel, sub_batch);
    let (mut stamps, mut timed_passes) = (None, Vec::new());
    if compute {
        let passes = kernel.bind(gpu, &device_inputs, &out, start, end);
        let per_pass = Gpu::tracing() && passes.len() <= MAX_TIMED_PASSES;
        if step.timed && gpu.timestamps && !passes.is_empty() {
            let queries = if per_pass { 2 * passes.len() as u32 } else { 2 };
            if lane.timer.as_ref().is_none_or(|(_, _, count)| *count < queries) {
                lane.timer = Some((
                    gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("kernel time"),
                        ty: wgpu::QueryType::Timestamp,
                        count: queries,
                    }),
                    gpu.device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("kernel time"),
                        size: 8 * u64::from(queries),
                        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    }),
                    queries,
                ));
            }
            stamps = Some(Stamps {
                at: out_bytes.next_multiple_of(8),
                queries,
            });
            if per_pass {
                timed_passes = passes.iter().map(|(_, threads)| *threads).collect();
            }
        }
        let last = passes.len().saturating_sub(1);
        for (p, (bind_group, threads)) in passes.iter().enumerate() {
            let timestamp_writes = match (&lane.timer, stamps) {
                (Some((set, _, _)), Some(_)) if !timed_passes.is_empty() => Some(wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: Some(2 * p as u32),
                    end_of_pass_write_index: Some(2 * p as u32 + 1),
                }),
                (Some((set, _, _)), Some(_)) if p == 0 || p == last => Some(wgpu::ComputePassTimestampWrites {
                    query_set: set,
                    beginning_of_pass_write_index: (p == 0).then_some(0),
                    end_of_pass_write_index: (p == last).then_some(1),
                }),
                _ => None,
            };
            let groups = threads.div_ceil(WORKGROUP_SIZE).max(1);
            let (gx, gy) = if groups <= 65_535 {
                (groups, 1)
            } else {
                (65_535, groups.div_ceil(65_535))
            };
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes,
            });
            pass.set_pipeline(kernel.pass_pipeline(p));
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(gx, gy, 1);
        }
    }
    // The readback: the answer's bytes, then the timestamps when timed.
    let allocating = Instant::now();
    let read_bytes = stamps.map_or(out_bytes, Stamps::end);
    let readback = ensure(
        gpu,
        &mut lane.readback,
        "readback",
        read_bytes,
        wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
    );
    if lane.bytes() != before {
        Gpu::trace_ms(
            || {
                format!(
                    "{}: sub-batch {sub_batch} allocated {:.1} MiB of buffers",
                    kernel.name(),
                    (lane.bytes() - before) as f64 / f64::from(1u32 << 20)
                )
            },
            (allocated + allocating.elapsed()).as_secs_f64() * 1e3,
        );
    }
    encoder.copy_buffer_to_buffer(&out, 0, &readback, 0, out_bytes);
    if let (Some(s), Some((set, resolve, _))) = (stamps, &lane.timer) {
        encoder.resolve_query_set(set, 0..s.queries, resolve, 0);
        encoder.copy_buffer_to_buffer(resolve, 0, &readback, s.at, 8 * u64::from(s.queries));
    }
    let submission = gpu.queue.submit([encoder.finish()]);
    if let Some(e) = pollster::block_on(oom.pop()) {
        return Err(format!("sub-batch {sub_batch}: out of memory: {e}"));
    }
    if let Some(e) = pollster::block_on(validation.pop()) {
        return Err(format!("sub-batch {sub_batch}: {e}"));
    }
    let (tx, read) = mpsc::channel();
    readback.map_async(wgpu::MapMode::Read, ..read_bytes, move |r| {
        let _ = tx.send(r);
    });
    let write = match (&lane.staging, step.upload) {
        (Some(staging), true) => {
            let (tx, rx) = mpsc::channel();
            staging.map_async(wgpu::MapMode::Write, .., move |r| {
                let _ = tx.send(r);
            });
            Some(rx)
        }
        _ => None,
    };
    Gpu::trace(|| format!("{}: sub-batch {sub_batch} submitted", kernel.name()), t);
    Ok(InFlight {
        lane,
        start,
        end,
        submission,
        read,
        write,
        out_bytes,
        stamps,
        timed_passes,
        sub_batch,
    })
}

/// A map callback's answer, waited for a little.
fn mapped(rx: &Receiver<Result<(), wgpu::BufferAsyncError>>, what: &str) -> Result<(), String> {
    match rx.recv_timeout(MAP_GRACE) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("{what}: {e}")),
        Err(_) => Err(format!("{what}: no answer from the device")),
    }
}

/// Waits for a submitted sub-batch, decodes it into `answers` (when
/// `decode`) and returns its lane (idle again) and its GPU kernel seconds
/// (when timed).
fn finish<K: Kernel>(
    gpu: &Gpu,
    kernel: &K,
    flight: InFlight,
    answers: Option<&mut Vec<K::Out>>,
) -> Result<(Lane, Option<f64>), String> {
    let t = Instant::now();
    gpu.device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(flight.submission),
            timeout: Some(DISPATCH_TIMEOUT),
        })
        .map_err(|e| format!("waiting for the device: {e}"))?;
    mapped(&flight.read, "reading results back")?;
    if let Some(write) = &flight.write {
        mapped(write, "mapping the staging buffer")?;
    }
    Gpu::trace(
        || format!("{}: sub-batch {} waited for", kernel.name(), flight.sub_batch),
        t,
    );
    if gpu.injected(FaultStage::Readback, flight.sub_batch) {
        return Err(format!("injected fault reading back sub-batch {}", flight.sub_batch));
    }
    if let Some(fault) = gpu.fault() {
        return Err(fault);
    }
    let readback = flight.lane.readback.as_ref().ok_or("no readback buffer")?;
    let read_bytes = flight.stamps.map_or(flight.out_bytes, Stamps::end);
    let t = Instant::now();
    let result = (|| {
        let data = readback
            .get_mapped_range(..read_bytes)
            .map_err(|e| format!("reading results back: {e}"))?;
        if let Some(answers) = answers {
            let before = answers.len();
            let decoded = kernel.decode(flight.start, flight.end, &data[..flight.out_bytes as usize], answers);
            if let Err(e) = decoded {
                answers.truncate(before);
                return Err(e);
            }
            if answers.len() - before != flight.end - flight.start {
                let got = answers.len() - before;
                answers.truncate(before);
                return Err(format!(
                    "{}: {got} answers decoded for {} units",
                    kernel.name(),
                    flight.end - flight.start
                ));
            }
        }
        Ok(flight.stamps.map(|s| {
            let word = |k: usize| {
                let at = s.at as usize + 8 * k;
                let mut b = [0u8; 8];
                b.copy_from_slice(&data[at..at + 8]);
                u64::from_le_bytes(b)
            };
            let seconds = |from: usize, to: usize| {
                word(to).saturating_sub(word(from)) as f64 * f64::from(gpu.queue.get_timestamp_period()) * 1e-9
            };
            for (p, threads) in flight.timed_passes.iter().enumerate() {
                Gpu::trace_ms(
                    || {
                        format!(
                            "{}: sub-batch {} pass {p} ({}, {threads} threads) on the device (timestamps)",
                            kernel.name(),
                            flight.sub_batch,
                            kernel.pass_name(p),
                        )
                    },
                    seconds(2 * p, 2 * p + 1) * 1e3,
                );
            }
            seconds(0, s.queries as usize - 1)
        }))
    })();
    readback.unmap();
    Gpu::trace(
        || format!("{}: sub-batch {} decoded", kernel.name(), flight.sub_batch),
        t,
    );
    let seconds = result?;
    if let Some(s) = seconds {
        Gpu::trace_ms(
            || {
                format!(
                    "{}: sub-batch {} ran on the device (timestamps)",
                    kernel.name(),
                    flight.sub_batch
                )
            },
            s * 1e3,
        );
    }
    Ok((flight.lane, seconds))
}

/// Where the sub-batch from `start` ends ([`Kernel::end`], at most `max`
/// units), checked: past `start` while units are left, within the batch.
fn next_end<K: Kernel>(gpu: &Gpu, kernel: &K, start: usize, max: usize) -> Result<usize, String> {
    let (units, end) = (kernel.units(), kernel.end(gpu, start, max)?);
    if end > units || (end <= start && start < units) {
        return Err(format!("{}: sub-batch {start}..{end} of {units}", kernel.name()));
    }
    Ok(end)
}

/// Runs `kernel` over its whole batch, streamed: the answers in order, or
/// the answers decoded before a failure and its reason.
pub(crate) fn run<K: Kernel>(gpu: &Gpu, kernel: &K) -> Streamed<K::Out> {
    let units = kernel.units();
    let mut answers = Vec::with_capacity(units);
    let mut idle = gpu.take_lanes(kernel.name(), DEPTH);
    let mut flights: VecDeque<InFlight> = VecDeque::with_capacity(DEPTH);
    let max = gpu.sub_batch_cap(kernel.max_units());
    let step = Step {
        upload: true,
        compute: true,
        // Traced runs say how long each sub-batch's passes took.
        timed: Gpu::tracing(),
    };
    let streamed = (|| {
        if let Some(fault) = gpu.fault() {
            return Err(fault);
        }
        let (mut start, mut sub_batch) = (0, 0);
        while start < units {
            let end = next_end(gpu, kernel, start, max)?;
            let lane = match idle.pop() {
                Some(lane) => lane,
                None => {
                    let oldest = flights.pop_front().ok_or("no lane free and none in flight")?;
                    finish(gpu, kernel, oldest, Some(&mut answers))?.0
                }
            };
            match submit(gpu, kernel, lane, (start, end), sub_batch, step) {
                Ok(flight) => flights.push_back(flight),
                Err(e) => {
                    // The sub-batches already in flight are earlier ones:
                    // keep what they answer.
                    while let Some(flight) = flights.pop_front() {
                        if finish(gpu, kernel, flight, Some(&mut answers)).is_err() {
                            break;
                        }
                    }
                    return Err(e);
                }
            }
            start = end;
            sub_batch += 1;
        }
        while let Some(flight) = flights.pop_front() {
            idle.push(finish(gpu, kernel, flight, Some(&mut answers))?.0);
        }
        Ok(())
    })();
    match streamed {
        Ok(()) => {
            gpu.return_lanes(kernel.name(), idle, POOL_LANES);
            Ok(answers)
        }
        // The lanes of a failed call are dropped (wgpu keeps what the
        // device still uses alive); the next call makes new ones.
        Err(reason) => Err(Failure { done: answers, reason }),
    }
}

/// Kernel-only seconds of `runs` runs of `kernel` over its batch, its
/// inputs uploaded once beforehand: the batch cut into the sub-batches
/// [`run`] would cut, each keeping a lane of its own (so a batch of many
/// sub-batches holds all their inputs on the device at once), a run's time
/// the sum of its sub-batches' GPU timestamps where the adapter has them,
/// else the wall time of the run's submissions and readbacks. Every run's
/// output is decoded.
pub(crate) fn time<K: Kernel>(gpu: &Gpu, kernel: &K, runs: usize) -> Result<Vec<f64>, String> {
    let units = kernel.units();
    let max = gpu.sub_batch_cap(kernel.max_units());
    let mut cuts = Vec::new();
    let mut start = 0;
    loop {
        let end = next_end(gpu, kernel, start, max)?;
        cuts.push((start, end));
        start = end;
        if start >= units {
            break;
        }
    }
    let upload = Step {
        upload: true,
        compute: false,
        timed: false,
    };
    let mut lanes = Vec::with_capacity(cuts.len());
    for (k, (lane, &cut)) in gpu
        .take_lanes(kernel.name(), cuts.len())
        .into_iter()
        .zip(&cuts)
        .enumerate()
    {
        lanes.push(finish(gpu, kernel, submit(gpu, kernel, lane, cut, k, upload)?, None)?.0);
    }
    let run = Step {
        upload: false,
        compute: true,
        timed: true,
    };
    let mut times = Vec::with_capacity(runs);
    let mut answers = Vec::with_capacity(units);
    for _ in 0..runs {
        answers.clear();
        let t = Instant::now();
        let mut gpu_seconds = Some(0.0);
        for (k, (lane, &cut)) in lanes.iter_mut().zip(&cuts).enumerate() {
            let flight = submit(gpu, kernel, std::mem::take(lane), cut, k, run)?;
            let (idle, seconds) = finish(gpu, kernel, flight, Some(&mut answers))?;
            *lane = idle;
            gpu_seconds = gpu_seconds.zip(seconds).map(|(a, b)| a + b);
        }
        times.push(gpu_seconds.unwrap_or_else(|| t.elapsed().as_secs_f64()));
    }
    gpu.return_lanes(kernel.name(), lanes, POOL_LANES);
    Ok(times)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_in_pieces_are_whole_copies() {
        let src: Vec<u8> = (0..3 * COPY_PIECE + 5).map(|i| (i * 31 + i / 4096) as u8).collect();
        for len in [0, 1, COPY_PIECE - 1, COPY_PIECE, COPY_PIECE + 1, 3 * COPY_PIECE + 5] {
            let mut dst = vec![0u8; len];
            copy(Dst::from(&mut dst[..]), &src[..len]);
            assert!(dst == src[..len], "copy of {len} bytes");
            assert!(copied(&src[..len]) == src[..len], "copied of {len} bytes");
        }
    }
}
