//! Host side of the Poseidon kernel (`hash.wgsl` over the permutation
//! `poseidon.wgsl`) for the driver ([`crate::gpu::driver`]): the items are
//! read on all cores with the CPU path's checks ([`super::elements`]; an
//! item that fails has its reason here), then each width's items run on
//! that width's kernel, a thread
//! per item: their elements go in Montgomery form (arkworks' own limbs),
//! with the width's constants from `light-poseidon`'s parameters (written
//! once, in the crate; rewritten here once per width into the schedule
//! with sparse partial rounds, [`super::schedule`]); the canonical hash
//! comes back with a completion flag per item.

use std::sync::{Arc, OnceLock};

use ark_bn254::Fr;
use light_poseidon::parameters::bn254_x5;
use rayon::prelude::*;

use super::schedule::{Schedule, schedule};
use super::{ELEMENT_LEN, Hash, HashResult, MAX_INPUTS, elements};
use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, bigint, shaders};
use crate::verdict::Reason;

/// Most items per sub-batch (12 inputs each: 24 MiB of elements).
const MAX_ITEMS: usize = 1 << 16;
/// Words per item in the output: the hash, then the completion flag.
const OUT_WORDS: usize = 9;

/// The pipeline key of each width's kernel, by inputs - 1.
const KEYS: [&str; MAX_INPUTS] = [
    "poseidon_t2",
    "poseidon_t3",
    "poseidon_t4",
    "poseidon_t5",
    "poseidon_t6",
    "poseidon_t7",
    "poseidon_t8",
    "poseidon_t9",
    "poseidon_t10",
    "poseidon_t11",
    "poseidon_t12",
    "poseidon_t13",
];

/// A width's constants as the kernels read them.
pub(crate) struct Constants {
    /// The width and its partial rounds.
    pub(crate) t: usize,
    pub(crate) partial: usize,
    /// The width's [`Schedule`]: the full rounds' constants, the partial
    /// rounds', the matrix, the last full round's before the partial
    /// ones, the sparse matrices (poseidon.wgsl's `POS_*_AT`); Montgomery
    /// form, 8 little-endian words each.
    pub(crate) words: Vec<u32>,
}

/// An element's Montgomery limbs as 8 words, least significant first.
pub(crate) fn words(x: &Fr) -> impl Iterator<Item = u32> + '_ {
    x.0.0.iter().flat_map(|l| [*l as u32, (*l >> 32) as u32])
}

/// The constants of the width for `inputs` inputs, made on its first use
/// (a width's schedule costs milliseconds: the wide ones invert dozens of
/// matrices of up to 12 x 12).
pub(crate) fn constants(inputs: usize) -> Result<&'static Constants, String> {
    static WIDTHS: [OnceLock<Result<Constants, String>>; MAX_INPUTS] = [const { OnceLock::new() }; MAX_INPUTS];
    let slot = WIDTHS
        .get(inputs.wrapping_sub(1))
        .ok_or_else(|| format!("no Poseidon kernel for {inputs} inputs"))?;
    slot.get_or_init(|| {
        let p = bn254_x5::get_poseidon_parameters::<Fr>(inputs as u8 + 1)
            .map_err(|e| format!("no Poseidon parameters for {inputs} inputs: {e}"))?;
        let s: Schedule = schedule(&p)?;
        let words = [&s.full_constants, &s.partial_constants, &s.mds, &s.pre, &s.sparse]
            .into_iter()
            .flatten()
            .flat_map(words)
            .collect();
        Ok(Constants {
            t: s.t,
            partial: s.partial,
            words,
        })
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// The kernel for `inputs` inputs (entry point `poseidon_main`), as
/// [`PoseidonKernel::new`] compiles it.
#[cfg(test)]
pub(crate) fn kernel_source(inputs: usize) -> Result<String, String> {
    let constants = constants(inputs)?;
    Ok(shaders::poseidon(constants.t, constants.partial))
}

/// Every item's hash on the GPU (see the module's docs).
pub(crate) fn hash(gpu: &Gpu, items: &FlatBytes) -> Streamed<HashResult> {
    gpu.require_int64("poseidon_bn254").map_err(Failure::at_start)?;
    let read: Vec<Result<Vec<Fr>, Reason>> = cores::map_range(0..items.len(), 64, |i| elements(items.get(i)));
    let mut answers: Vec<Option<HashResult>> = read.iter().map(|r| r.as_ref().err().map(|e| Err(*e))).collect();
    for inputs in 1..=MAX_INPUTS {
        let mine: Vec<(usize, &[Fr])> = read
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.as_ref().ok().filter(|x| x.len() == inputs).map(|x| (i, &x[..])))
            .collect();
        if mine.is_empty() {
            continue;
        }
        let kernel = PoseidonKernel::new(gpu, inputs, &mine).map_err(|reason| Failure::after(&answers, reason))?;
        let results = driver::run(gpu, &kernel);
        let got = match &results {
            Ok(got) => got,
            Err(Failure { done, .. }) => done,
        };
        for ((i, _), h) in mine.iter().zip(got) {
            answers[*i] = Some(Ok(*h));
        }
        if let Err(Failure { reason, .. }) = results {
            return Err(Failure::after(&answers, reason));
        }
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| "an item came back without its hash".to_string()))
        .collect::<Result<_, _>>()
        .map_err(Failure::at_start)
}

/// Kernel-only times (seconds) of `runs` runs over the valid items of the
/// commonest width among `items` (see [`driver::time`]; none without a
/// valid item). For benchmarks.
pub(crate) fn kernel_times(gpu: &Gpu, items: &FlatBytes, runs: usize) -> Result<Vec<f64>, String> {
    gpu.require_int64("poseidon_bn254")?;
    let read: Vec<Vec<Fr>> = cores::map_range(0..items.len(), 64, |i| elements(items.get(i)).unwrap_or_default());
    let Some(inputs) = (1..=MAX_INPUTS).max_by_key(|&n| read.iter().filter(|x| x.len() == n).count()) else {
        return Ok(Vec::new());
    };
    let mine: Vec<(usize, &[Fr])> = read
        .iter()
        .enumerate()
        .filter(|(_, x)| x.len() == inputs)
        .map(|(i, x)| (i, &x[..]))
        .collect();
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    driver::time(gpu, &PoseidonKernel::new(gpu, inputs, &mine)?, runs)
}

/// One width's items (their index and elements), in order.
struct PoseidonKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    inputs: usize,
    constants: &'static Constants,
    items: &'a [(usize, &'a [Fr])],
}

impl<'a> PoseidonKernel<'a> {
    fn new(gpu: &Gpu, inputs: usize, items: &'a [(usize, &'a [Fr])]) -> Result<Self, String> {
        let constants = constants(inputs)?;
        let key = KEYS[inputs - 1];
        let pipeline = gpu.pipeline(key, "poseidon_main", || {
            shaders::poseidon(constants.t, constants.partial)
        })?;
        Ok(PoseidonKernel {
            pipeline,
            inputs,
            constants,
            items,
        })
    }
}

impl Kernel for PoseidonKernel<'_> {
    type Out = Hash;

    fn name(&self) -> &'static str {
        "poseidon_bn254"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.items.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![
            Input::uniform(16),
            Input::storage(self.constants.words.len() * 4),
            Input::storage((end - start) * self.inputs * ELEMENT_LEN),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, constants, elements] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, 0, 0]);
        constants.write_iter(self.constants.words.iter().flat_map(|w| w.to_le_bytes()));
        let bytes: Vec<u8> = self.items[start..end]
            .par_iter()
            .flat_map_iter(|(_, xs)| {
                xs.iter()
                    .flat_map(words)
                    .flat_map(u32::to_le_bytes)
                    .collect::<Vec<u8>>()
            })
            .collect();
        driver::copy(elements, &bytes);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * OUT_WORDS * 4) as u64
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<Hash>) -> Result<(), String> {
        let mut results = Vec::with_capacity(end - start);
        driver::decode_words(out, OUT_WORDS, start, "a hash", &mut results)?;
        for result in results {
            let be = bigint::to_be::<8>(&result);
            answers.push(be.try_into().map_err(|_| "a hash of another length")?);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::ops::poseidon::{oracle, sample};

    /// Every width on the device, with edge elements and hostile items
    /// among them, item by item against the oracle.
    #[test]
    fn device_hashes_match_the_oracle() {
        let Some(gpu) = test_gpu() else { return };
        let made = sample::items(96, 152, 0.2, |i| 1 + i % MAX_INPUTS);
        let mut items = FlatBytes::new();
        for (item, _) in &made {
            assert!(items.push(item));
        }
        let got = hash(&gpu, &items).unwrap_or_else(|f| panic!("{}", f.reason));
        assert_eq!(got.len(), made.len());
        for (i, (g, (item, kind))) in got.iter().zip(&made).enumerate() {
            assert_eq!(g, &oracle::hash(item), "item {i} ({kind})");
        }
        assert!(made.iter().filter(|(_, k)| *k == "valid").count() >= 60);
    }
}
