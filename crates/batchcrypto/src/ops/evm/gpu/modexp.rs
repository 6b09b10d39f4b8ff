//! MODEXP on the device (`../modexp.wgsl`): a thread per call whose
//! modulus is odd, above 1 and at most 512 bits long and whose exponent
//! is not zero, in two widths (256-bit moduli on 8 limbs, 512-bit ones on
//! 16). The host reads every call on all cores (`super::super::modexp`:
//! the bound, the lengths, the padding) and answers with the CPU path the
//! calls that fail, answer nothing, or that the kernel does not take (an
//! even modulus, 0 or 1, a zero exponent, a modulus over 512 bits); for
//! the others it reduces the base and puts it in Montgomery form with
//! `num-bigint`, and the kernel does the exponentiation. A width's calls
//! run in the order of their exponents' lengths, so that the threads of
//! a workgroup loop alike; each answer is left-padded to the call's
//! `mod_len`, as the CPU path pads it.

use std::sync::Arc;

use num_bigint::BigUint;
use rayon::prelude::*;

use super::super::CallResult;
use super::super::modexp::{self, Operands};
use crate::batch::FlatBytes;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, bigint, shaders};

/// The kernel's widths: 32-bit limbs of the modulus.
pub(crate) const LIMBS: [usize; 2] = [8, 16];
/// Most calls per sub-batch (an exponent is at most 256 words: 64 MiB of
/// exponents at worst).
const MAX_CALLS: usize = 1 << 16;

/// A call as the kernel takes it.
struct DeviceCall {
    /// The width: an index into [`LIMBS`].
    width: usize,
    /// m's limbs, least significant first ([`LIMBS`]`[width]` of them).
    modulus: Vec<u32>,
    /// base R mod m, likewise.
    base: Vec<u32>,
    /// The exponent's little-endian words (its top one not zero).
    exp: Vec<u32>,
    /// The exponent's bit count (at least 1).
    bits: u32,
    /// Bytes of the answer.
    mod_len: usize,
}

/// A call's way: answered on the host, or a kernel's.
enum Plan {
    Answered(CallResult),
    Device(DeviceCall),
}

/// `v`'s limbs zero-extended to `n` (`v` has at most `n`).
fn limbs(v: &BigUint, n: usize) -> Vec<u32> {
    let mut l = v.to_u32_digits();
    l.resize(n, 0);
    l
}

/// Where `input` goes.
fn plan(input: &[u8]) -> Plan {
    let operands: Operands = match modexp::read(input) {
        Err(e) => return Plan::Answered(Err(e)),
        Ok(None) => return Plan::Answered(Ok(Vec::new())),
        Ok(Some(o)) => o,
    };
    let (m, e) = (
        BigUint::from_bytes_be(&operands.modulus),
        BigUint::from_bytes_be(&operands.exp),
    );
    let width = LIMBS.iter().position(|&n| m.bits() <= 32 * n as u64);
    let (Some(width), true, true, false) = (width, m.bit(0), m.bits() > 1, e.bits() == 0) else {
        return Plan::Answered(Ok(modexp::answer(&operands)));
    };
    let n = LIMBS[width];
    let base = (BigUint::from_bytes_be(&operands.base) << (32 * n)) % &m;
    Plan::Device(DeviceCall {
        width,
        modulus: limbs(&m, n),
        base: limbs(&base, n),
        bits: e.bits() as u32,
        exp: e.to_u32_digits(),
        mod_len: operands.modulus.len(),
    })
}

/// Every MODEXP call of `inputs` (see the module's docs).
pub(super) fn calls(gpu: &Gpu, inputs: &FlatBytes) -> Streamed<CallResult> {
    gpu.require_int64("modexp").map_err(Failure::at_start)?;
    let plans: Vec<Plan> = (0..inputs.len()).into_par_iter().map(|i| plan(inputs.get(i))).collect();
    let mut answers: Vec<Option<CallResult>> = plans
        .iter()
        .map(|p| match p {
            Plan::Answered(a) => Some(a.clone()),
            Plan::Device(_) => None,
        })
        .collect();
    for width in 0..LIMBS.len() {
        let mut mine: Vec<(usize, &DeviceCall)> = plans
            .iter()
            .enumerate()
            .filter_map(|(i, p)| match p {
                Plan::Device(c) if c.width == width => Some((i, c)),
                _ => None,
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        mine.sort_by_key(|(_, c)| c.bits);
        let kernel = ModexpKernel::new(gpu, width, &mine).map_err(|reason| Failure::after(&answers, reason))?;
        let results = driver::run(gpu, &kernel);
        let got = match &results {
            Ok(got) => got,
            Err(Failure { done, .. }) => done,
        };
        for ((i, _), answer) in mine.iter().zip(got) {
            answers[*i] = Some(Ok(answer.clone()));
        }
        if let Err(Failure { reason, .. }) = results {
            return Err(Failure::after(&answers, reason));
        }
    }
    answers
        .into_iter()
        .map(|a| a.ok_or_else(|| "a call came back without its answer".to_string()))
        .collect::<Result<_, _>>()
        .map_err(Failure::at_start)
}

/// One width's calls, in the order the kernel runs them.
struct ModexpKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    limbs: usize,
    calls: &'a [(usize, &'a DeviceCall)],
    /// Where each call's exponent starts among all of them (and, last,
    /// their total), in words.
    exp_at: Vec<usize>,
}

impl<'a> ModexpKernel<'a> {
    fn new(gpu: &Gpu, width: usize, calls: &'a [(usize, &'a DeviceCall)]) -> Result<Self, String> {
        let limbs = LIMBS[width];
        let pipeline = match width {
            0 => gpu.pipeline("evm_modexp_8", "modexp_main", || shaders::evm_modexp(LIMBS[0]))?,
            _ => gpu.pipeline("evm_modexp_16", "modexp_main", || shaders::evm_modexp(LIMBS[1]))?,
        };
        let mut exp_at = Vec::with_capacity(calls.len() + 1);
        exp_at.push(0);
        for (_, c) in calls {
            exp_at.push(exp_at[exp_at.len() - 1] + c.exp.len());
        }
        Ok(ModexpKernel {
            pipeline,
            limbs,
            calls,
            exp_at,
        })
    }

    /// Words per call in (`MODEXP_IN_WORDS`) and out (`MODEXP_OUT_WORDS`).
    fn in_words(&self) -> usize {
        2 * self.limbs + 3
    }
    fn out_words(&self) -> usize {
        self.limbs + 1
    }
}

impl Kernel for ModexpKernel<'_> {
    type Out = Vec<u8>;

    fn name(&self) -> &'static str {
        "evm_modexp"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.calls.len()
    }

    fn max_units(&self) -> usize {
        MAX_CALLS
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let exps = (self.exp_at[end] - self.exp_at[start]).max(1);
        vec![
            Input::uniform(16),
            Input::storage((end - start) * self.in_words() * 4),
            Input::storage(exps * 4),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, calls, exps] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, 0, 0]);
        let mut words = vec![0u32; (end - start) * self.in_words()];
        words
            .par_chunks_exact_mut(self.in_words())
            .zip(&self.calls[start..end])
            .zip(&self.exp_at[start..end])
            .for_each(|((w, (_, c)), at)| {
                let n = self.limbs;
                w[..n].copy_from_slice(&c.modulus);
                w[n] = bigint::neg_inv32(c.modulus[0]);
                w[n + 1..2 * n + 1].copy_from_slice(&c.base);
                w[2 * n + 1] = (at - self.exp_at[start]) as u32;
                w[2 * n + 2] = c.bits;
            });
        calls.write_iter(words.iter().flat_map(|w| w.to_le_bytes()));
        let mut exp_words: Vec<u32> = self.calls[start..end]
            .iter()
            .flat_map(|(_, c)| c.exp.iter().copied())
            .collect();
        exp_words.resize(exp_words.len().max(1), 0);
        exps.write_iter(exp_words.iter().flat_map(|w| w.to_le_bytes()));
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.out_words() * 4) as u64
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<Vec<u8>>) -> Result<(), String> {
        let mut results = Vec::with_capacity(end - start);
        driver::decode_words(out, self.out_words(), start, "a call", &mut results)?;
        for (result, (_, call)) in results.iter().zip(&self.calls[start..end]) {
            let be: Vec<u8> = result.iter().rev().flat_map(|w| w.to_be_bytes()).collect();
            answers.push(super::super::left_padded(&be, call.mod_len));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::probe::test_gpu;

    /// Calls at the kernel's edges: moduli of every byte length up to 64,
    /// with the top bit set (256 and 512 bits exactly) or not, the
    /// smallest (3), leading zero bytes; exponents 1, powers of two, all
    /// ones, up to 512 bits; bases 0, 1, m - 1, m, m + 1 and longer than
    /// m. Each against the oracle, and most of them on the device.
    #[test]
    fn device_calls_match_the_oracle() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(7823);
        let bytes = |rng: &mut StdRng, n: usize| (0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>();
        let mut calls = Vec::new();
        for i in 0..320 {
            let len = 1 + i % 64;
            let mut m = bytes(&mut rng, len);
            m[len - 1] |= 1;
            match i % 5 {
                0 => m[0] |= 0x80,
                1 => m[0] &= 0x7f,
                _ => {}
            }
            if i == 7 {
                m = vec![3];
            }
            let m_int = BigUint::from_bytes_be(&m);
            let exp = match i % 6 {
                0 => vec![1],
                1 => vec![0x80, 0, 0],
                2 => vec![0xff; 1 + i % 64],
                3 => [vec![0; 5], bytes(&mut rng, 16)].concat(),
                _ => bytes(&mut rng, 1 + i % 64),
            };
            let base = match i % 7 {
                0 => vec![],
                1 => vec![1],
                2 => (&m_int - 1u32).to_bytes_be(),
                3 => m.clone(),
                4 => (&m_int + 1u32).to_bytes_be(),
                5 => bytes(&mut rng, 100),
                _ => bytes(&mut rng, len),
            };
            let modulus = if i % 11 == 4 { [vec![0; 9], m].concat() } else { m };
            calls.push(modexp::encode(&base, &exp, &modulus));
        }
        let on_device = calls.iter().filter(|c| matches!(plan(c), Plan::Device(_))).count();
        assert!(on_device >= 300, "{on_device} calls for the kernel");
        let mut inputs = FlatBytes::new();
        for c in &calls {
            assert!(inputs.push(c));
        }
        let got = calls_or_panic(&gpu, &inputs);
        assert_eq!(got.len(), calls.len());
        for (i, (g, c)) in got.iter().zip(&calls).enumerate() {
            assert_eq!(g, &modexp::call(c), "call {i}");
        }
    }

    fn calls_or_panic(gpu: &Gpu, inputs: &FlatBytes) -> Vec<CallResult> {
        calls(gpu, inputs).unwrap_or_else(|f| panic!("{}", f.reason))
    }
}
