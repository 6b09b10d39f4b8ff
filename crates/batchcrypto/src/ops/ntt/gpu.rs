//! Host side of the NTT kernels over a field layer (`field64.wgsl` with
//! `goldilocks.wgsl` for Goldilocks on u64 lanes, with `prime64.wgsl` for
//! any 64-bit prime in Montgomery form (R = 2^64; the prime and its
//! constants go with the parameters), `field256.wgsl` for the scalar
//! fields of BN254 and BLS12-381 in Montgomery form; all need
//! SHADER_INT64) for the
//! driver ([`crate::gpu::driver`]). Both kernels run the first stages in
//! workgroup memory (`block.wgsl`, [`BLOCK_BYTES`] a workgroup: 2^9
//! elements of a 256-bit field, 2^11 of a 64-bit one): below 2^13 elements
//! `radix2.wgsl`, a polynomial per workgroup; from 2^13 `passes.wgsl`, a
//! workgroup per block, then a dispatch per two later stages (radix 4),
//! then the finish, each with its own parameters, in one submission. The
//! host computes the transform's tables with arkworks' field, or for any
//! 64-bit prime with [`Mod64`] (the twiddles w^j or w^-j for j < n/2,
//! where w is the root of unity `ark-poly`'s domain uses, and the scale
//! factors g^i on a coset, n^-1 g^-i for an inverse; in full for the
//! workgroups, in two levels for the passes) in the kernel's working form
//! (canonical for Goldilocks; Montgomery with R = 2^64 for any 64-bit
//! prime; with R = 2^256, arkworks' own representation, for the 256-bit
//! fields), uploads them with each sub-batch, and reads
//! back every polynomial and a status word each (done, or an element not
//! below the modulus).

use std::ops::Mul;
use std::sync::Arc;

use ark_ff::{BigInteger, FftField, PrimeField};

use super::fields::Goldilocks;
use super::{Direction, Field, Order, PolyResult, Transform, oracle};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, LOOPS_CUT_FLAG, LoopsCut, WORKGROUP_SIZE, bigint, check_done, shaders};
use crate::verdict::Reason;

/// Most bytes of polynomials per sub-batch.
const MAX_SUB_BATCH_BYTES: u64 = 1 << 28;

/// Workgroup memory of a block (`block.wgsl`), in which the kernels run
/// the stages whose butterflies stay within it: WebGPU's default limit
/// (`max_compute_workgroup_storage_size`), which every adapter offers.
const BLOCK_BYTES: u32 = 16 << 10;

/// log2 of the elements of `field` a block holds.
fn block_bits(field: Field) -> u32 {
    (BLOCK_BYTES / field.element_len() as u32).ilog2()
}

/// Flags of the kernel's parameters (see radix2.wgsl).
const INPUT_BIT_REVERSED: u32 = 2;
const OUTPUT_BIT_REVERSED: u32 = 4;
const SCALE_INPUT: u32 = 8;
const SCALE_OUTPUT: u32 = 16;

/// Every polynomial's transform, on the GPU.
pub(crate) fn ntt(gpu: &Gpu, t: &Transform, polys: &[u8]) -> Streamed<PolyResult> {
    let start = std::time::Instant::now();
    let kernel = NttKernel::new(gpu, t, polys).map_err(Failure::at_start)?;
    // Traced runs say what the tables and pipelines cost before the driver.
    Gpu::trace(|| "ntt: tables and pipelines ready".to_string(), start);
    driver::run(gpu, &kernel)
}

/// Kernel-only times (seconds) of `runs` runs (see [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, t: &Transform, polys: &[u8], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &NttKernel::new(gpu, t, polys)?, runs)
}

/// The kernel source over `field` (for a 256-bit field its modulus, R^2
/// mod m and -m^-1 mod 2^32 rendered in): the one-workgroup-per-polynomial
/// kernel (entry point `ntt_main`), or with `passes` the passes (entry
/// points `ntt_block`, `ntt_stage`, `ntt_finish`).
pub(crate) fn kernel_source(field: Field, passes: bool) -> String {
    let kernel = format!(
        "const BLOCK_WORDS: u32 = {}u;\nconst BLOCK_BITS: u32 = {}u;\n{}\n{}",
        BLOCK_BYTES / 4,
        block_bits(field),
        shaders::NTT_BLOCK,
        if passes {
            shaders::NTT_PASSES
        } else {
            shaders::NTT_RADIX2
        }
    );
    let kernel = kernel.as_str();
    fn source<F: PrimeField>(kernel: &str) -> String {
        let m = bigint::from_ark(F::MODULUS);
        // R^2 mod m as an integer, R = 2^256.
        let r2 = bigint::from_ark(F::from(2u64).pow([512]).into_bigint());
        shaders::ntt_fr256(&m, &r2, bigint::neg_inv32(m[0]), kernel)
    }
    match field {
        Field::Bn254Fr => source::<ark_bn254::Fr>(kernel),
        Field::Bls12381Fr => source::<ark_bls12_381::Fr>(kernel),
        Field::Goldilocks | Field::GoldilocksNegacyclic => shaders::ntt_goldilocks(kernel),
        Field::Prime64Negacyclic => shaders::ntt_prime64(kernel),
    }
}

/// What the tables need of a field element: arkworks' fields, and
/// [`Mod64`] for a prime given at run time.
trait TableElem: Copy + Mul<Output = Self> {
    /// self^e.
    fn power(self, e: u64) -> Self;
    /// self^-1 (`None` for 0).
    fn invert(self) -> Option<Self>;
    /// x in self's field.
    fn of(self, x: u64) -> Self;
}

impl<F: PrimeField> TableElem for F {
    fn power(self, e: u64) -> Self {
        self.pow([e])
    }
    fn invert(self) -> Option<Self> {
        self.inverse()
    }
    fn of(self, x: u64) -> Self {
        F::from(x)
    }
}

/// An element of Z_p for a prime p < 2^64 known at run time
/// (prime64-negacyclic's), canonical, multiplied through u128.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mod64 {
    x: u64,
    p: u64,
}

impl Mul for Mod64 {
    type Output = Mod64;
    fn mul(self, other: Mod64) -> Mod64 {
        self.of_wide(u128::from(self.x) * u128::from(other.x))
    }
}

impl Mod64 {
    /// x mod p in the same field.
    fn of_wide(self, x: u128) -> Mod64 {
        Mod64 {
            x: (x % u128::from(self.p)) as u64,
            p: self.p,
        }
    }

    /// The kernel's working form: x 2^64 mod p (prime64.wgsl).
    fn montgomery(self) -> u64 {
        self.of_wide(u128::from(self.x) << 64).x
    }
}

impl TableElem for Mod64 {
    fn power(self, mut e: u64) -> Self {
        let (mut acc, mut base) = (self.of(1), self);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * base;
            }
            base = base * base;
            e >>= 1;
        }
        acc
    }
    fn invert(self) -> Option<Self> {
        // Fermat: x^(p-2) (p prime).
        (self.x != 0).then(|| self.power(self.p - 2))
    }
    fn of(self, x: u64) -> Self {
        self.of_wide(u128::from(x))
    }
}

/// `first x^0, first x^1, ..., first x^(count-1)`.
fn powers<F: TableElem>(first: F, x: F, count: usize) -> impl Iterator<Item = F> {
    std::iter::successors(Some(first), move |p| Some(*p * x)).take(count)
}

/// The tables of `t` over `F` as two geometric sequences: the twiddles
/// w^j (or w^-j) for j < n/2, and the scale factors c x^i for i < n (for
/// an inverse c = n^-1 and x = g^-1, for a forward transform on a coset c
/// = 1 and x = g; one unused 1 when nothing is scaled), with the flag.
struct Sequences<F> {
    twiddle: F,
    scale: (F, F, usize),
    scaling: u32,
}

/// The root of unity w of `t` and its shift (`None`: 1) over an arkworks
/// field: `ark-poly`'s root and the coset's shift; for a negacyclic
/// transform psi^2 on the coset of psi (the cyclic transform of root
/// psi^2 with the input scaled by psi^j; psi from tfhe-ntt's plan).
fn roots<F: PrimeField + FftField>(t: &Transform) -> Result<(F, Option<F>), String> {
    if t.field.negacyclic() {
        return Ok(negacyclic_roots(F::from(oracle::negacyclic_root(t))));
    }
    let w = F::get_root_of_unity(t.len() as u64).ok_or("no root of unity of this order")?;
    Ok((w, t.coset.as_deref().map(F::from_le_bytes_mod_order)))
}

/// A negacyclic transform's root and shift: psi^2 on the coset of psi.
fn negacyclic_roots<F: TableElem>(psi: F) -> (F, Option<F>) {
    (psi * psi, Some(psi))
}

fn sequences<F: TableElem>(t: &Transform, (w, shift): (F, Option<F>)) -> Result<Sequences<F>, String> {
    let n = t.len();
    let one = w.of(1);
    let invert = |x: F| x.invert().ok_or("a zero shift or size");
    Ok(if t.direction == Direction::Inverse {
        Sequences {
            twiddle: invert(w)?,
            scale: (invert(w.of(n as u64))?, invert(shift.unwrap_or(one))?, n),
            scaling: SCALE_OUTPUT,
        }
    } else if let Some(shift) = shift {
        Sequences {
            twiddle: w,
            scale: (one, shift, n),
            scaling: SCALE_INPUT,
        }
    } else {
        Sequences {
            twiddle: w,
            scale: (one, one, 1),
            scaling: 0,
        }
    })
}

/// One sequence c x^i, i < count, as a table: every term (one workgroup
/// per polynomial), or in two levels (the passes): x^i for i < 2^lo_bits,
/// then c x^(2^lo_bits k), so that term i is table[hi + (i >> lo_bits)]
/// times table[i & (2^lo_bits - 1)]. With the low part's bits and where
/// the high part starts (0, 0 for a full table).
fn table<F: TableElem>((c, x, count): (F, F, usize), two_level: bool) -> (Vec<F>, u32, u32) {
    if !two_level {
        return (powers(c, x, count).collect(), 0, 0);
    }
    let lo_bits = count.max(1).next_power_of_two().trailing_zeros().div_ceil(2);
    let lo = 1usize << lo_bits;
    let step = x.power(lo as u64);
    let terms: Vec<F> = powers(x.of(1), x, lo)
        .chain(powers(c, step, count.div_ceil(lo)))
        .collect();
    (terms, lo_bits, lo as u32)
}

/// Polynomials of 2^this elements and more take the passes (a thread per
/// butterfly); smaller ones a workgroup each.
const PASSES_LOG_N: u32 = 13;

/// The pass layout's three pipelines, its block and its tables' shape.
struct Passes {
    block: Arc<wgpu::ComputePipeline>,
    stage: Arc<wgpu::ComputePipeline>,
    finish: Arc<wgpu::ComputePipeline>,
    /// log2 of the elements of the first dispatch's block: the stages it
    /// runs.
    block_bits: u32,
    /// The stage passes after the block's stages ([`stage_passes`]).
    stage_passes: Vec<(u32, u32)>,
    /// (lo_bits, hi) of the twiddles' and the scale's tables.
    twiddle_shape: (u32, u32),
    scale_shape: (u32, u32),
}

/// Bytes between two passes' parameters (the uniform offset alignment),
/// and the bytes of one pass's (`PassParams` in passes.wgsl: 12 words,
/// then the field's).
const PASS_PARAM_STRIDE: u64 = 256;
const PASS_PARAM_BYTES: u64 = 48 + 4 * FIELD_PARAM_WORDS as u64;

/// Words of the field's part of the parameters (`FieldParams` in
/// block.wgsl), after the kernel's own.
const FIELD_PARAM_WORDS: usize = 8;

/// Bytes of the one-workgroup kernel's parameters (`Params` in
/// radix2.wgsl: 4 words, then the field's).
const WORKGROUP_PARAM_BYTES: usize = 16 + 4 * FIELD_PARAM_WORDS;

struct NttKernel<'a> {
    /// The one-workgroup-per-polynomial kernel, or the passes.
    layout: Layout,
    t: &'a Transform,
    polys: &'a [u8],
    flags: u32,
    /// The parameters' `field` (block.wgsl's FieldParams).
    field_params: [u32; FIELD_PARAM_WORDS],
    twiddles: Vec<u8>,
    /// Scale factors (one unused element when the flags scale nothing).
    scale: Vec<u8>,
}

enum Layout {
    Workgroup(Arc<wgpu::ComputePipeline>),
    Passes(Passes),
}

impl<'a> NttKernel<'a> {
    fn new(gpu: &Gpu, t: &'a Transform, polys: &'a [u8]) -> Result<NttKernel<'a>, String> {
        gpu.require_int64("ntt")?;
        let two_level = t.log_n >= PASSES_LOG_N;
        // Goldilocks works on canonical u64s; any other 64-bit prime in
        // Montgomery form (R = 2^64); the 256-bit fields in Montgomery
        // form, which is arkworks' own representation (`.0`, R = 2^256).
        fn encoded<F: TableElem>(
            t: &Transform,
            two_level: bool,
            roots: (F, Option<F>),
            work: impl Fn(&F) -> Vec<u8>,
        ) -> Result<EncodedTables, String> {
            let seq = sequences::<F>(t, roots)?;
            let (tw, tw_lo, tw_hi) = table((seq.twiddle.of(1), seq.twiddle, t.len() / 2), two_level);
            let (sc, sc_lo, sc_hi) = table(seq.scale, two_level);
            Ok(EncodedTables {
                twiddles: tw.iter().flat_map(&work).collect(),
                scale: sc.iter().flat_map(&work).collect(),
                scaling: seq.scaling,
                twiddle_shape: (tw_lo, tw_hi),
                scale_shape: (sc_lo, sc_hi),
            })
        }
        let mut field_params = [0u32; FIELD_PARAM_WORDS];
        let tables = match (t.field, t.modulus) {
            (Field::Goldilocks | Field::GoldilocksNegacyclic, _) => {
                encoded::<Goldilocks>(t, two_level, roots(t)?, |x| x.into_bigint().0[0].to_le_bytes().to_vec())?
            }
            (Field::Bn254Fr, _) => encoded::<ark_bn254::Fr>(t, two_level, roots(t)?, |x| x.0.to_bytes_le())?,
            (Field::Bls12381Fr, _) => encoded::<ark_bls12_381::Fr>(t, two_level, roots(t)?, |x| x.0.to_bytes_le())?,
            (Field::Prime64Negacyclic, Some(p)) => {
                // FieldParams (block.wgsl): p, -p^-1 mod 2^64, 2^128 mod p.
                let r = Mod64 { x: 0, p }.of_wide(1 << 64);
                for (at, v) in field_params
                    .chunks_exact_mut(2)
                    .zip([p, bigint::neg_inv64(p), (r * r).x])
                {
                    at.copy_from_slice(&[v as u32, (v >> 32) as u32]);
                }
                let psi = Mod64 { x: 0, p }.of(oracle::negacyclic_root(t));
                encoded::<Mod64>(t, two_level, negacyclic_roots(psi), |x| {
                    x.montgomery().to_le_bytes().to_vec()
                })?
            }
            (Field::Prime64Negacyclic, None) => return Err("prime64-negacyclic without its modulus".into()),
        };
        let mut flags = tables.scaling;
        if t.input_order == Order::BitReversed {
            flags |= INPUT_BIT_REVERSED;
        }
        if t.output_order == Order::BitReversed {
            flags |= OUTPUT_BIT_REVERSED;
        }
        let (key, passes): (&'static str, [&'static str; 3]) = match t.field {
            // The same prime and layer: the same pipelines.
            Field::Goldilocks | Field::GoldilocksNegacyclic => (
                "ntt_goldilocks",
                ["ntt_goldilocks_block", "ntt_goldilocks_stage", "ntt_goldilocks_finish"],
            ),
            Field::Bn254Fr => (
                "ntt_bn254_fr",
                ["ntt_bn254_fr_block", "ntt_bn254_fr_stage", "ntt_bn254_fr_finish"],
            ),
            Field::Bls12381Fr => (
                "ntt_bls12_381_fr",
                [
                    "ntt_bls12_381_fr_block",
                    "ntt_bls12_381_fr_stage",
                    "ntt_bls12_381_fr_finish",
                ],
            ),
            // Every prime: the prime is a parameter.
            Field::Prime64Negacyclic => (
                "ntt_prime64",
                ["ntt_prime64_block", "ntt_prime64_stage", "ntt_prime64_finish"],
            ),
        };
        let layout = if two_level {
            let pipeline = |k, entry| gpu.pipeline(k, entry, || kernel_source(t.field, true));
            let bits = block_bits(t.field).min(t.log_n);
            Layout::Passes(Passes {
                block: pipeline(passes[0], "ntt_block")?,
                stage: pipeline(passes[1], "ntt_stage")?,
                finish: pipeline(passes[2], "ntt_finish")?,
                block_bits: bits,
                stage_passes: stage_passes(bits, t.log_n),
                twiddle_shape: tables.twiddle_shape,
                scale_shape: tables.scale_shape,
            })
        } else {
            Layout::Workgroup(gpu.pipeline(key, "ntt_main", || kernel_source(t.field, false))?)
        };
        Ok(NttKernel {
            layout,
            t,
            polys,
            flags,
            field_params,
            twiddles: tables.twiddles,
            scale: tables.scale,
        })
    }

    /// Bytes of one pass's parameters in the uniform buffer (for the
    /// passes, from one pass's to the next's).
    fn param_stride(&self) -> usize {
        match self.layout {
            Layout::Workgroup(_) => WORKGROUP_PARAM_BYTES,
            Layout::Passes(_) => PASS_PARAM_STRIDE as usize,
        }
    }

    /// The passes of one run: the block (the first stages), the stage
    /// passes, the finish (one pass for the one-workgroup kernel).
    fn pass_count(&self) -> usize {
        match &self.layout {
            Layout::Workgroup(_) => 1,
            Layout::Passes(p) => p.stage_passes.len() + 2,
        }
    }
}

/// The stage passes of a transform of 2^log_n elements after a block's
/// `block_bits` stages, (first stage, stages) each: two stages a pass
/// (radix 4), but for a first one alone when the stages left are odd in
/// number.
fn stage_passes(block_bits: u32, log_n: u32) -> Vec<(u32, u32)> {
    let odd = (log_n - block_bits) % 2;
    let single = (odd == 1).then_some((block_bits, 1));
    let pairs = (block_bits + odd..log_n).step_by(2).map(|s| (s, 2));
    single.into_iter().chain(pairs).collect()
}

/// A transform's tables in the kernel's working form.
struct EncodedTables {
    twiddles: Vec<u8>,
    scale: Vec<u8>,
    scaling: u32,
    twiddle_shape: (u32, u32),
    scale_shape: (u32, u32),
}

impl Kernel for NttKernel<'_> {
    type Out = PolyResult;

    fn name(&self) -> &'static str {
        "ntt"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        match &self.layout {
            Layout::Workgroup(pipeline) => pipeline,
            Layout::Passes(p) => &p.block,
        }
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        match &self.layout {
            Layout::Workgroup(pipeline) => pipeline,
            Layout::Passes(p) if pass == 0 => &p.block,
            Layout::Passes(p) if pass + 1 == self.pass_count() => &p.finish,
            Layout::Passes(p) => &p.stage,
        }
    }

    fn pass_name(&self, pass: usize) -> &'static str {
        match &self.layout {
            Layout::Workgroup(_) => "ntt_main",
            Layout::Passes(_) if pass == 0 => "ntt_block",
            Layout::Passes(_) if pass + 1 == self.pass_count() => "ntt_finish",
            Layout::Passes(_) => "ntt_stage",
        }
    }

    fn units(&self) -> usize {
        self.polys.len() / self.t.poly_bytes()
    }

    fn max_units(&self) -> usize {
        // Also the workgroups of one dispatch's y spread: far more than needed.
        1 << 20
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        // A polynomial larger than the usual sub-batch goes alone.
        let one = (self.t.poly_bytes() + 4) as u64;
        let bytes = gpu.max_binding.min(MAX_SUB_BATCH_BYTES.max(one)) as usize;
        // The output also holds a status word per polynomial.
        let fit = bytes / (self.t.poly_bytes() + 4);
        if fit == 0 {
            return Err(format!(
                "a polynomial of {} bytes exceeds the device's storage binding of {bytes} bytes",
                self.t.poly_bytes()
            ));
        }
        Ok((start + max.min(fit)).min(self.units()))
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![
            Input::uniform(self.pass_count() * self.param_stride()),
            Input::storage((end - start) * self.t.poly_bytes()),
            Input::storage(self.twiddles.len()),
            Input::storage(self.scale.len()),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, data, mut twiddles, mut scale] = driver::inputs(dst);
        let polys = (end - start) as u32;
        // Each pass's words, the field's after them.
        let words: Vec<Vec<u32>> = match &self.layout {
            Layout::Workgroup(_) => vec![vec![polys, self.t.log_n, self.flags, shaders::LOOP_GUARD]],
            Layout::Passes(p) => (0..self.pass_count())
                .map(|pass| {
                    // Passes 1 ..= the stage passes' count run them.
                    let (stage, stages) = p.stage_passes.get(pass.wrapping_sub(1)).copied().unwrap_or((0, 0));
                    vec![
                        polys,
                        self.t.log_n,
                        self.flags,
                        stage,
                        p.twiddle_shape.0,
                        p.twiddle_shape.1,
                        p.scale_shape.0,
                        p.scale_shape.1,
                        shaders::LOOP_GUARD,
                        p.block_bits,
                        stages,
                        0,
                    ]
                })
                .collect(),
        };
        let stride = self.param_stride();
        let mut bytes = vec![0u8; words.len() * stride];
        for (at, own) in bytes.chunks_exact_mut(stride).zip(words) {
            for (word, v) in at.chunks_exact_mut(4).zip(own.into_iter().chain(self.field_params)) {
                word.copy_from_slice(&v.to_le_bytes());
            }
        }
        params.write_iter(bytes);
        let size = self.t.poly_bytes();
        driver::copy(data, &self.polys[start * size..end * size]);
        twiddles.copy_from_slice(&self.twiddles);
        scale.copy_from_slice(&self.scale);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * (self.t.poly_bytes() + 4)) as u64
    }

    fn out_room(&self, start: usize, end: usize) -> u64 {
        // The passes' progress words after the status words.
        self.out_bytes(start, end) + 4 * (end - start) as u64
    }

    fn threads_per_unit(&self) -> usize {
        // A workgroup per polynomial.
        WORKGROUP_SIZE as usize
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let passes = match &self.layout {
            Layout::Workgroup(pipeline) => {
                let threads = (end - start) * self.threads_per_unit();
                return driver::one_pass(gpu, pipeline, self.name(), inputs.iter().chain([out]), threads);
            }
            Layout::Passes(p) => p,
        };
        let elements = (end - start) * self.t.len();
        (0..self.pass_count())
            .map(|pass| {
                // Each pass's bindings (its pipeline's layout holds only
                // those) and threads.
                let (bindings, threads): (&[u32], usize) = match pass {
                    // A workgroup per block.
                    0 => (&[1, 2, 3, 4], (elements >> passes.block_bits) * WORKGROUP_SIZE as usize),
                    p if p + 1 == self.pass_count() => (&[3, 4], elements),
                    // A thread per butterfly, or per four elements.
                    p => (&[2, 4], elements >> passes.stage_passes[p - 1].1),
                };
                let params = wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                        buffer: &inputs[0],
                        offset: pass as u64 * PASS_PARAM_STRIDE,
                        size: wgpu::BufferSize::new(PASS_PARAM_BYTES),
                    }),
                };
                let entries: Vec<wgpu::BindGroupEntry<'_>> = std::iter::once(params)
                    .chain(bindings.iter().map(|&b| wgpu::BindGroupEntry {
                        binding: b,
                        resource: if b == 4 { out } else { &inputs[b as usize] }.as_entire_binding(),
                    }))
                    .collect();
                let bind_group = gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("ntt_pass"),
                    layout: &self.pass_pipeline(pass).get_bind_group_layout(0),
                    entries: &entries,
                });
                (bind_group, threads as u32)
            })
            .collect()
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<PolyResult>) -> Result<(), String> {
        use rayon::prelude::*;
        let size = self.t.poly_bytes();
        let status_at = (end - start) * size;
        let mut canonical = Vec::with_capacity(end - start);
        for (i, status) in out[status_at..].chunks_exact(4).take(end - start).enumerate() {
            let status = u32::from_le_bytes([status[0], status[1], status[2], status[3]]);
            if status == LOOPS_CUT_FLAG {
                return Err(LoopsCut(start + i..start + i + 1).to_string());
            }
            check_done(status, start + i, "a transform")?;
            canonical.push(match status & 0xff {
                0 => true,
                1 => false,
                _ => return Err(format!("polynomial {} came back with status {status:#x}", start + i)),
            });
        }
        // The polynomials copied out on all cores (1,024 of 2^14 elements
        // are 128 MB; one of 2^24, 512 MB, is copied in pieces).
        answers.par_extend(
            out[..status_at]
                .par_chunks_exact(size)
                .zip(canonical)
                .map(|(poly, ok)| {
                    if ok {
                        Ok(driver::copied(poly))
                    } else {
                        Err(Reason::NonCanonicalElement)
                    }
                }),
        );
        Ok(())
    }
}
