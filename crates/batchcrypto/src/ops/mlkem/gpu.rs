//! Host side of ML-KEM on the GPU (`kem.wgsl`): key generation,
//! encapsulation and decapsulation as staged passes of one kernel file.
//!
//! The host refuses items by their lengths ([`super::keygen_reason`],
//! [`super::encaps_length_reason`], [`super::decaps_length_reason`]),
//! draws m from the operating system for encapsulations without one (as
//! the CPU path does), and packs each distinct key once per sub-batch
//! ([`DistinctKeys`]: a server decapsulates under one key); key generation
//! treats every item as its own key. The device runs everything else: the
//! modulus and hash checks, G, H, J and the PRFs, A-hat, the noise, the
//! NTTs, compression and encoding, and decapsulation's re-encryption and
//! implicit rejection. Per item the output words (key pair without z,
//! ciphertext and secret, or secret) and a status word come back.

use std::sync::Arc;

use rand::TryRng;
use rand::rngs::SysRng;
use rayon::prelude::*;

use super::{
    DecapsItem, EncapsItem, Encapsulated, KeyPair, KeygenItem, SEED_LEN, Set, SharedSecret, decaps_length_reason,
    encaps_length_reason, keygen_reason,
};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::keys::{DistinctKeys, NO_KEY, slotted_items, sub_batch_end};
use crate::gpu::ntt::MLKEM;
use crate::gpu::{Gpu, LOOPS_CUT_FLAG, LoopsCut, check_done, shaders};
use crate::verdict::Reason;

/// Most items per sub-batch.
const MAX_ITEMS: usize = 16_384;

/// Most bytes of either working buffer (keys' or items') per sub-batch.
const WORK_BYTES: u64 = 64 << 20;

/// The kernel's modes (`MODE_*` in kem.wgsl).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Keygen = 0,
    Encaps = 1,
    Decaps = 2,
}

/// What a stage's threads range over.
#[derive(Debug, Clone, Copy)]
enum Threads {
    /// One per item.
    Items,
    /// One per item and row (k).
    Rows,
    /// One per item and row, and one for v (k + 1).
    RowsAndV,
    /// One per item and noise polynomial (2k + 1).
    Noise,
    /// One per key and polynomial of the expansion.
    Expand,
}

/// A stage: its entry point, its bindings (its pipeline's layout holds
/// only those) and its threads.
type Stage = (&'static str, &'static [u32], Threads);

const EXPAND: Stage = ("kem_expand", &[0, 1, 2, 3, 6], Threads::Expand);
const SEED: Stage = ("kem_seed", &[0, 1, 2, 3, 4, 5, 6], Threads::Items);
const NOISE: Stage = ("kem_noise", &[0, 2, 4, 6], Threads::Noise);
const ENCRYPT: Stage = ("kem_encrypt_rows", &[0, 2, 3, 4, 5, 6], Threads::RowsAndV);
const FINAL: Stage = ("kem_final", &[0, 2, 3, 4, 5, 6], Threads::Items);

impl Mode {
    fn stages(self) -> &'static [Stage] {
        match self {
            Mode::Keygen => &[
                ("kem_keygen_seed", &[0, 2, 3, 6], Threads::Items),
                EXPAND,
                ("kem_keygen_rows", &[0, 2, 3, 5, 6], Threads::Rows),
                ("kem_keygen_final", &[0, 2, 3, 5, 6], Threads::Items),
            ],
            Mode::Encaps => &[EXPAND, SEED, NOISE, ENCRYPT, FINAL],
            Mode::Decaps => &[
                EXPAND,
                ("kem_decrypt_u", &[0, 2, 4, 6], Threads::Rows),
                ("kem_decrypt", &[0, 2, 3, 4, 6], Threads::Items),
                SEED,
                NOISE,
                ENCRYPT,
                FINAL,
            ],
        }
    }
}

/// What one operation brings to the kernel.
trait Work: Sync {
    type Out: Send;
    const MODE: Mode;
    fn len(&self) -> usize;
    /// Why the host refuses item `i`, if it does.
    fn early(&self, set: Set, i: usize) -> Option<Reason>;
    /// Item `i`'s key (none for key generation).
    fn key(&self, i: usize) -> Option<&[u8]>;
    /// Bytes of an item after its slot word.
    fn payload_bytes(set: Set) -> usize;
    /// Item `i`'s payload.
    fn payload(&self, i: usize) -> &[u8];
    /// Output words per item.
    fn out_words(set: Set) -> usize;
    /// Item `i`'s answer from the device's status code and output bytes.
    fn answer(&self, set: Set, i: usize, code: u32, out: &[u8]) -> Option<Self::Out>;
}

/// Key generation's items.
struct Keygen<'a>(&'a [KeygenItem]);

impl Work for Keygen<'_> {
    type Out = Result<KeyPair, Reason>;
    const MODE: Mode = Mode::Keygen;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn early(&self, _set: Set, i: usize) -> Option<Reason> {
        keygen_reason(&self.0[i])
    }

    fn key(&self, _i: usize) -> Option<&[u8]> {
        None
    }

    fn payload_bytes(_set: Set) -> usize {
        SEED_LEN
    }

    fn payload(&self, i: usize) -> &[u8] {
        &self.0[i].d
    }

    fn out_words(set: Set) -> usize {
        // dk without z: dk_PKE || ek || H(ek).
        (set.dk_len() - SEED_LEN) / 4
    }

    fn answer(&self, set: Set, i: usize, code: u32, out: &[u8]) -> Option<Self::Out> {
        Some(match (self.early(set, i), code) {
            (Some(reason), 3) => Err(reason),
            (None, 0) => {
                let dk = [out, &self.0[i].z].concat();
                let ek = dk[set.ek_in_dk()].to_vec();
                Ok(KeyPair { ek, dk })
            }
            _ => return None,
        })
    }
}

/// Encapsulation's items, with m drawn for those without one (`None`
/// where the generator failed).
struct Encaps<'a> {
    items: &'a [EncapsItem],
    drawn: Vec<Option<[u8; SEED_LEN]>>,
}

impl Work for Encaps<'_> {
    type Out = Result<Encapsulated, Reason>;
    const MODE: Mode = Mode::Encaps;

    fn len(&self) -> usize {
        self.items.len()
    }

    fn early(&self, set: Set, i: usize) -> Option<Reason> {
        encaps_length_reason(set, &self.items[i])
    }

    fn key(&self, i: usize) -> Option<&[u8]> {
        Some(&self.items[i].ek)
    }

    fn payload_bytes(_set: Set) -> usize {
        SEED_LEN
    }

    fn payload(&self, i: usize) -> &[u8] {
        match (&self.items[i].m, &self.drawn[i]) {
            (Some(m), _) => m,
            (None, Some(m)) => m,
            (None, None) => &[0; SEED_LEN],
        }
    }

    fn out_words(set: Set) -> usize {
        (set.ct_len() + 32) / 4
    }

    fn answer(&self, set: Set, i: usize, code: u32, out: &[u8]) -> Option<Self::Out> {
        let drawn = self.items[i].m.is_some() || self.drawn[i].is_some();
        Some(match (self.early(set, i), code) {
            (Some(reason), 3) => Err(reason),
            (None, 1) => Err(Reason::KeyNotReduced),
            (None, 0) if !drawn => Err(Reason::RandomnessUnavailable),
            (None, 0) => {
                let (ct, ss) = out.split_at(set.ct_len());
                Ok(Encapsulated {
                    ct: ct.to_vec(),
                    ss: ss.try_into().ok()?,
                })
            }
            _ => return None,
        })
    }
}

/// Decapsulation's items.
struct Decaps<'a>(&'a [DecapsItem]);

impl Work for Decaps<'_> {
    type Out = Result<SharedSecret, Reason>;
    const MODE: Mode = Mode::Decaps;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn early(&self, set: Set, i: usize) -> Option<Reason> {
        decaps_length_reason(set, &self.0[i])
    }

    fn key(&self, i: usize) -> Option<&[u8]> {
        Some(&self.0[i].dk)
    }

    fn payload_bytes(set: Set) -> usize {
        set.ct_len()
    }

    fn payload(&self, i: usize) -> &[u8] {
        &self.0[i].ct
    }

    fn out_words(_set: Set) -> usize {
        8
    }

    fn answer(&self, set: Set, i: usize, code: u32, out: &[u8]) -> Option<Self::Out> {
        Some(match (self.early(set, i), code) {
            (Some(reason), 3) => Err(reason),
            (None, 1) => Err(Reason::KeyNotReduced),
            (None, 2) => Err(Reason::KeyHashMismatch),
            (None, 0) => Ok(out.try_into().ok()?),
            _ => return None,
        })
    }
}

/// ML-KEM key pairs of `items` on the GPU: the CPU path's outputs.
pub(crate) fn keygen(gpu: &Gpu, set: Set, items: &[KeygenItem]) -> Streamed<Result<KeyPair, Reason>> {
    driver::run(
        gpu,
        &KemKernel::new(gpu, set, Keygen(items)).map_err(Failure::at_start)?,
    )
}

/// ML-KEM encapsulations of `items` on the GPU: the CPU path's outputs
/// for a given m.
pub(crate) fn encaps(gpu: &Gpu, set: Set, items: &[EncapsItem]) -> Streamed<Result<Encapsulated, Reason>> {
    let drawn = items
        .iter()
        .map(|it| {
            it.m.is_none()
                .then(|| {
                    let mut m = [0u8; SEED_LEN];
                    SysRng.try_fill_bytes(&mut m).ok().map(|()| m)
                })
                .flatten()
        })
        .collect();
    driver::run(
        gpu,
        &KemKernel::new(gpu, set, Encaps { items, drawn }).map_err(Failure::at_start)?,
    )
}

/// ML-KEM decapsulations of `items` on the GPU: the CPU path's outputs.
pub(crate) fn decaps(gpu: &Gpu, set: Set, items: &[DecapsItem]) -> Streamed<Result<SharedSecret, Reason>> {
    driver::run(
        gpu,
        &KemKernel::new(gpu, set, Decaps(items)).map_err(Failure::at_start)?,
    )
}

/// Kernel-only times (seconds) of `runs` runs of key generation (see
/// [`driver::time`]).
pub(crate) fn keygen_kernel_times(gpu: &Gpu, set: Set, items: &[KeygenItem], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &KemKernel::new(gpu, set, Keygen(items))?, runs)
}

/// Kernel-only times of encapsulation (items without m use zeros).
pub(crate) fn encaps_kernel_times(gpu: &Gpu, set: Set, items: &[EncapsItem], runs: usize) -> Result<Vec<f64>, String> {
    let drawn = items.iter().map(|_| Some([0; SEED_LEN])).collect();
    driver::time(gpu, &KemKernel::new(gpu, set, Encaps { items, drawn })?, runs)
}

/// Kernel-only times of decapsulation.
pub(crate) fn decaps_kernel_times(gpu: &Gpu, set: Set, items: &[DecapsItem], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &KemKernel::new(gpu, set, Decaps(items))?, runs)
}

/// One operation's batch for the kernel.
struct KemKernel<W: Work> {
    set: Set,
    work: W,
    stages: Vec<Arc<wgpu::ComputePipeline>>,
    early: Vec<Option<Reason>>,
    /// Each item's key among the sub-batch's distinct keys (none for key
    /// generation, whose items are their own keys).
    keys: Option<DistinctKeys>,
    /// The zetas and base-case gammas for the parameters, computed once
    /// per call.
    tables: Vec<u32>,
    max_binding: u64,
}

/// k, the module rank.
fn rank(set: Set) -> usize {
    set.ek_len() / 384
}

impl<W: Work> KemKernel<W> {
    fn new(gpu: &Gpu, set: Set, work: W) -> Result<KemKernel<W>, String> {
        gpu.require_int64("ML-KEM")?;
        let stages = W::MODE
            .stages()
            .iter()
            .map(|&(entry, _, _)| gpu.pipeline(entry, entry, shaders::mlkem))
            .collect::<Result<_, _>>()?;
        let early: Vec<Option<Reason>> = (0..work.len()).map(|i| work.early(set, i)).collect();
        let keys = (W::MODE != Mode::Keygen)
            .then(|| DistinctKeys::new((0..work.len()).map(|i| work.key(i).filter(|_| early[i].is_none()))));
        Ok(KemKernel {
            set,
            work,
            stages,
            early,
            keys,
            tables: [MLKEM.zetas_mont(), MLKEM.gammas_mont()].concat(),
            max_binding: gpu.max_binding,
        })
    }

    /// Keys in the sub-batch `start..end`.
    fn key_count(&self, start: usize, end: usize) -> usize {
        self.keys.as_ref().map_or(end - start, |k| k.count(start, end))
    }

    fn item_words(&self) -> usize {
        1 + W::payload_bytes(self.set).div_ceil(4)
    }

    fn key_bytes(&self) -> usize {
        match W::MODE {
            Mode::Keygen => 0,
            Mode::Encaps => self.set.ek_len(),
            Mode::Decaps => self.set.dk_len(),
        }
    }

    /// Working bytes per key and per item.
    fn work_bytes(&self) -> (u64, u64) {
        let k = rank(self.set) as u64;
        let per_item = if W::MODE == Mode::Keygen {
            0
        } else {
            ((3 * k + 1) * 256 + 40) * 4
        };
        (((k * k + 2 * k) * 256 + 32) * 4, per_item)
    }

    /// Where the status words start after `n` items' output.
    fn status_at(&self, n: usize) -> u64 {
        (n * W::out_words(self.set) * 4).next_multiple_of(256) as u64
    }
}

impl<W: Work> Kernel for KemKernel<W> {
    type Out = W::Out;

    fn name(&self) -> &'static str {
        match W::MODE {
            Mode::Keygen => "mlkem_keygen",
            Mode::Encaps => "mlkem_encaps",
            Mode::Decaps => "mlkem_decaps",
        }
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.stages[0]
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        &self.stages[pass]
    }

    fn pass_name(&self, pass: usize) -> &'static str {
        W::MODE.stages().get(pass).map_or(self.name(), |stage| stage.0)
    }

    fn units(&self) -> usize {
        self.work.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn end(&self, _gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        let max_end = (start + max).min(self.units());
        let limit = WORK_BYTES.min(self.max_binding);
        Ok(sub_batch_end(
            self.keys.as_ref(),
            start,
            max_end,
            self.work_bytes(),
            limit,
        ))
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let n = end - start;
        let keys = self.key_count(start, end);
        let (per_key, per_item) = self.work_bytes();
        vec![
            Input::uniform(4 * (16 + 256)),
            Input::storage(keys * self.key_bytes()),
            Input::storage(n * self.item_words() * 4),
            Input::storage(0).with_room(keys as u64 * per_key),
            Input::storage(0).with_room(n as u64 * per_item),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        // The two working buffers (the last inputs) are the device's to fill.
        let [params, keys, items, _, _] = driver::inputs(dst);
        let set = self.set;
        let (slots, firsts) = match &self.keys {
            Some(k) => k.slots(start, end),
            None => (
                (start..end)
                    .map(|i| {
                        if self.early[i].is_some() {
                            NO_KEY
                        } else {
                            (i - start) as u32
                        }
                    })
                    .collect(),
                Vec::new(),
            ),
        };
        // On all cores: 4,096 ML-KEM-768 keys and items are 10 MB.
        let key_bytes: Vec<u8> = firsts
            .par_iter()
            .flat_map_iter(|&i| self.work.key(i).unwrap_or_default().iter().copied())
            .collect();
        driver::copy(keys, &key_bytes);
        let item_words = self.item_words();
        let item_bytes = slotted_items(&slots[..end - start], start, item_words, |i| self.work.payload(i));
        driver::copy(items, &item_bytes);

        let k = rank(set);
        let (eta1, du, dv) = match set {
            Set::Mlkem512 => (3, 10, 4),
            Set::Mlkem768 => (2, 10, 4),
            Set::Mlkem1024 => (2, 11, 5),
        };
        let key_count = if self.keys.is_some() { firsts.len() } else { end - start };
        let scalars = [
            (end - start) as u32,
            key_count as u32,
            k as u32,
            eta1,
            du,
            dv,
            W::MODE as u32,
            shaders::LOOP_GUARD,
            item_words as u32,
            (self.key_bytes() / 4) as u32,
            W::out_words(set) as u32,
            0,
            0,
            0,
            0,
            0,
        ];
        params.write_iter(
            scalars
                .into_iter()
                .chain(self.tables.iter().copied())
                .flat_map(|w| w.to_le_bytes()),
        );
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        let n = end - start;
        self.status_at(n) + 4 * (n as u64 + 1)
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
        let k = rank(self.set);
        let keys = self.key_count(start, end);
        let part = |offset: u64, size: u64| {
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: out,
                offset,
                size: wgpu::BufferSize::new(size),
            })
        };
        let data = ((n * W::out_words(self.set) * 4) as u64).max(4);
        W::MODE
            .stages()
            .iter()
            .zip(&self.stages)
            .map(|(&(_, bindings, threads), pipeline)| {
                let entries: Vec<wgpu::BindGroupEntry<'_>> = bindings
                    .iter()
                    .map(|&binding| wgpu::BindGroupEntry {
                        binding,
                        resource: match binding {
                            5 => part(0, data),
                            6 => part(self.status_at(n), 4 * (n as u64 + 1)),
                            b => inputs[b as usize].as_entire_binding(),
                        },
                    })
                    .collect();
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some(self.name()),
                    layout: &pipeline.get_bind_group_layout(0),
                    entries: &entries,
                });
                let count = match threads {
                    Threads::Items => n,
                    Threads::Rows => n * k,
                    Threads::RowsAndV => n * (k + 1),
                    Threads::Noise => n * (2 * k + 1),
                    Threads::Expand => {
                        keys * match W::MODE {
                            Mode::Keygen => k * k + 2 * k,
                            Mode::Encaps => k * k + k + 1,
                            Mode::Decaps => k * k + 2 * k + 1,
                        }
                    }
                };
                (bind_group, count as u32)
            })
            .collect()
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<Self::Out>) -> Result<(), String> {
        let n = end - start;
        let words: Vec<u32> = out[self.status_at(n) as usize..]
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        if words[n] & LOOPS_CUT_FLAG != 0 {
            return Err(LoopsCut(start..end).to_string());
        }
        let stride = W::out_words(self.set) * 4;
        for (i, &status) in (start..end).zip(&words) {
            check_done(status, i, "an answer")?;
        }
        // The answers made on all cores (4,096 ciphertexts are 4.5 MB).
        let made: Vec<Option<W::Out>> = words[..n]
            .par_iter()
            .zip(out.par_chunks_exact(stride))
            .enumerate()
            .map(|(k, (&status, data))| self.work.answer(self.set, start + k, status & 0xff, data))
            .collect();
        let before = answers.len();
        for ((i, answer), status) in (start..end).zip(made).zip(&words) {
            match answer {
                Some(answer) => answers.push(answer),
                None => {
                    answers.truncate(before);
                    return Err(format!("item {i} came back with status {status:#x}"));
                }
            }
        }
        Ok(())
    }
}
