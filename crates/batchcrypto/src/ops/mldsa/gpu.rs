//! Host side of ML-DSA verification on the GPU (`verify.wgsl`, four
//! stages) for the driver.
//!
//! The host makes the checks that need no arithmetic (lengths, context,
//! hint encoding: [`super::decode_reason`]) and packs, per sub-batch, each
//! distinct public key once (keys repeat: a validator set), each item's
//! key slot and signature, and each item's M' = 0 || |ctx| || ctx || M as
//! flat bytes. The device expands every distinct key (A-hat, NTT(t1 2^d),
//! tr) in the first pass, then works per item: z with its norm check, c,
//! mu, the rows of w1' and the final hash. One status word per item comes
//! back, and one word where any pass reports loops cut short.
//!
//! Sub-batches are cut where the device's working memory for keys or
//! items would pass [`WORK_BYTES`] (an ML-DSA-87 key expands to 64 KiB).

use std::sync::Arc;

use rayon::prelude::*;

use super::{Batch, Level, decode_reason};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::keys::{DistinctKeys, NO_KEY, slotted_items, sub_batch_end};
use crate::gpu::ntt::MLDSA;
use crate::gpu::{Gpu, shaders};
use crate::verdict::{Reason, Verdict};

/// Most items per sub-batch.
const MAX_ITEMS: usize = 8192;

/// Most bytes of either working buffer (keys' or items') per sub-batch.
const WORK_BYTES: u64 = 64 << 20;

/// The stages' entry points, in pass order.
const STAGES: [&str; 4] = ["mldsa_keys", "mldsa_items", "mldsa_rows", "mldsa_final"];

/// Verifies every item of `batch` at `level` on the GPU: the CPU path's
/// verdicts.
pub(crate) fn verify(gpu: &Gpu, level: Level, batch: &Batch) -> Streamed<Verdict> {
    driver::run(gpu, &MldsaKernel::new(gpu, level, batch).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `batch` (see
/// [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, level: Level, batch: &Batch, runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &MldsaKernel::new(gpu, level, batch)?, runs)
}

struct MldsaKernel<'a> {
    level: Level,
    batch: &'a Batch,
    stages: Vec<Arc<wgpu::ComputePipeline>>,
    /// Per item: the reason the host found, if any.
    early: Vec<Option<Reason>>,
    /// Each item's key among the sub-batch's distinct keys.
    keys: DistinctKeys,
    /// The zetas for the parameters, computed once per call.
    zetas: Vec<u32>,
    max_binding: u64,
}

/// Bytes of one level's per-key and per-item working memory.
fn work_bytes(level: Level) -> (u64, u64) {
    let p = level.params();
    let (k, l) = (p.k as u64, p.l as u64);
    // Polynomials of 256 words; tr and mu 16 words, w1 256, z flags 8.
    ((k * l + k) * 1024 + 64, (l + 1) * 1024 + 64 + 1024 + 32)
}

impl<'a> MldsaKernel<'a> {
    fn new(gpu: &Gpu, level: Level, batch: &'a Batch) -> Result<MldsaKernel<'a>, String> {
        gpu.require_int64("ML-DSA")?;
        let stages = STAGES
            .iter()
            .map(|&entry| gpu.pipeline(entry, entry, shaders::mldsa_verify))
            .collect::<Result<_, _>>()?;
        let early: Vec<Option<Reason>> = (0..batch.len())
            .into_par_iter()
            .map(|i| decode_reason(level, batch.pk(i), batch.sig(i), batch.ctx(i)))
            .collect();
        let keys = DistinctKeys::new((0..batch.len()).map(|i| early[i].is_none().then(|| batch.pk(i))));
        Ok(MldsaKernel {
            level,
            batch,
            stages,
            early,
            keys,
            zetas: MLDSA.zetas_mont(),
            max_binding: gpu.max_binding,
        })
    }

    /// Bytes of M' for item `i` (none for a skipped item).
    fn mprime_len(&self, i: usize) -> usize {
        if self.early[i].is_some() {
            0
        } else {
            2 + self.batch.ctx(i).len() + self.batch.msg(i).len()
        }
    }

    /// Words per item: the key slot, then the signature padded to words.
    fn item_words(&self) -> usize {
        1 + self.level.sig_len().div_ceil(4)
    }
}

impl Kernel for MldsaKernel<'_> {
    type Out = Verdict;

    fn name(&self) -> &'static str {
        "mldsa_verify"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.stages[0]
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        &self.stages[pass]
    }

    fn pass_name(&self, pass: usize) -> &'static str {
        STAGES.get(pass).copied().unwrap_or(self.name())
    }

    fn units(&self) -> usize {
        self.batch.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn end(&self, _gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        let max_end = (start + max).min(self.units());
        let limit = WORK_BYTES.min(self.max_binding);
        let mut end = sub_batch_end(Some(&self.keys), start, max_end, work_bytes(self.level), limit);
        // And the messages within one storage binding.
        let msg_limit = self.max_binding.min(1 << 30);
        let mut bytes = 0u64;
        for i in start..end {
            bytes += self.mprime_len(i) as u64;
            if bytes > msg_limit {
                if i == start {
                    return Err(format!(
                        "an ML-DSA message of {bytes} bytes exceeds the adapter's storage binding limit"
                    ));
                }
                end = i;
                break;
            }
        }
        Ok(end)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let n = (end - start) as u64;
        let keys = self.keys.count(start, end) as u64;
        let (per_key, per_item) = work_bytes(self.level);
        let mprime: usize = (start..end).map(|i| self.mprime_len(i)).sum();
        vec![
            Input::uniform(4 * (16 + 256)),
            Input::storage(keys as usize * self.level.pk_len()),
            Input::storage((end - start) * self.item_words() * 4),
            Input::storage(mprime),
            Input::storage((end - start + 1) * 4),
            Input::storage(0).with_room(keys * per_key),
            Input::storage(0).with_room(n * per_item),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        // The two working buffers (the last inputs) are the device's to fill.
        let [params, keys, items, mprime, offsets, _, _] = driver::inputs(dst);
        let p = self.level.params();
        let item_words = self.item_words();
        let (slots, firsts) = self.keys.slots(start, end);
        // On all cores: 4,096 ML-DSA-65 signatures are 13.5 MB, and their
        // keys as much again.
        let key_bytes: Vec<u8> = firsts
            .par_iter()
            .flat_map_iter(|&i| self.batch.pk(i).iter().copied())
            .collect();
        driver::copy(keys, &key_bytes);

        let item_bytes = slotted_items(&slots[..end - start], start, item_words, |i| self.batch.sig(i));
        driver::copy(items, &item_bytes);
        // M' = 0 || |ctx| || ctx || M of each item with a key, back to back.
        let mut mprime_offsets = Vec::with_capacity(end - start + 1);
        let mut at = 0u32;
        for (i, &slot) in (start..end).zip(&slots) {
            mprime_offsets.push(at);
            if slot != NO_KEY {
                at += (2 + self.batch.ctx(i).len() + self.batch.msg(i).len()) as u32;
            }
        }
        mprime_offsets.push(at);
        let mut mprime_bytes = vec![0u8; at as usize];
        let mut parts = Vec::with_capacity(end - start);
        let mut rest = &mut mprime_bytes[..];
        for (k, pair) in mprime_offsets.windows(2).enumerate() {
            let (part, tail) = rest.split_at_mut((pair[1] - pair[0]) as usize);
            parts.push((start + k, part));
            rest = tail;
        }
        parts
            .into_par_iter()
            .filter(|(_, part)| !part.is_empty())
            .for_each(|(i, part)| {
                let (ctx, msg) = (self.batch.ctx(i), self.batch.msg(i));
                part[1] = ctx.len() as u8;
                part[2..2 + ctx.len()].copy_from_slice(ctx);
                part[2 + ctx.len()..].copy_from_slice(msg);
            });
        driver::copy(mprime, &mprime_bytes);
        driver::par_fill(offsets, &mprime_offsets, |_, o| o.to_le_bytes());

        let gamma1_bits = if p.gamma1 == 1 << 17 { 18 } else { 20 };
        // w1 coefficients lie below (q - 1) / (2 gamma2): 44 or 16 values.
        let w1_bits = 32 - ((super::Q - 1) / (2 * p.gamma2) - 1).leading_zeros();
        let scalars = [
            (end - start) as u32,
            firsts.len() as u32,
            p.k as u32,
            p.l as u32,
            p.tau,
            p.omega as u32,
            gamma1_bits,
            p.gamma2,
            p.beta,
            p.c_len as u32,
            w1_bits,
            shaders::LOOP_GUARD,
            item_words as u32,
            (p.pk_len / 4) as u32,
            0,
            0,
        ];
        params.write_iter(
            scalars
                .into_iter()
                .chain(self.zetas.iter().copied())
                .flat_map(|w| w.to_le_bytes()),
        );
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start + 1) * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let p = self.level.params();
        let n = end - start;
        let keys = self.keys.count(start, end);
        let buffer = |b: u32| if b == 7 { out } else { &inputs[b as usize] };
        // Each stage's bindings (its pipeline's layout holds only those) and
        // threads.
        let passes: [(&[u32], usize); 4] = [
            (&[0, 1, 5, 7], keys * (p.k * p.l + p.k + 1)),
            (&[0, 2, 3, 4, 5, 6, 7], n * (p.l + 2)),
            (&[0, 2, 5, 6, 7], n * p.k),
            (&[0, 2, 6, 7], n),
        ];
        passes
            .iter()
            .zip(&self.stages)
            .map(|((bindings, threads), pipeline)| {
                let entries: Vec<(u32, &wgpu::Buffer)> = bindings.iter().map(|&b| (b, buffer(b))).collect();
                (gpu.bind(pipeline, "mldsa_verify", &entries), *threads as u32)
            })
            .collect()
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], verdicts: &mut Vec<Verdict>) -> Result<(), String> {
        let statuses = driver::item_statuses(out, start, end, "a verdict")?;
        for (i, &status) in (start..end).zip(&statuses) {
            let verdict = match (self.early[i], status & 0xff) {
                (Some(reason), 3) => Verdict::Invalid(reason),
                (None, 0) => Verdict::Valid,
                (None, 1) => Verdict::Invalid(Reason::ZOutOfRange),
                (None, 2) => Verdict::Invalid(Reason::Equation),
                _ => return Err(format!("item {i} came back with status {status:#x}")),
            };
            verdicts.push(verdict);
        }
        Ok(())
    }
}
