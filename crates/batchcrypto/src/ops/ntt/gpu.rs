//! Host side of the NTT kernel (`radix2.wgsl` over a field layer:
//! `field64.wgsl` for Goldilocks on u64 lanes, `field256.wgsl` for the
//! scalar fields of BN254 and BLS12-381 in Montgomery form; both need
//! SHADER_INT64) for the driver ([`crate::gpu::driver`]): a polynomial per
//! workgroup. The host computes the transform's tables with arkworks'
//! field (the twiddles w^j or w^-j for j < n/2, where w is the root of
//! unity `ark-poly`'s domain uses, and the scale factors g^i on a coset,
//! n^-1 g^-i for an inverse) in the kernel's working form (canonical for
//! Goldilocks; Montgomery with R = 2^256, arkworks' own representation,
//! for the 256-bit fields), uploads them with each sub-batch, and reads
//! back every polynomial and a status word each (done, or an element not
//! below the modulus).

use std::sync::Arc;

use ark_ff::{BigInteger, FftField, PrimeField};

use super::fields::Goldilocks;
use super::{Direction, Field, Order, PolyResult, Transform};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, LOOPS_CUT_FLAG, LoopsCut, WORKGROUP_SIZE, bigint, check_done, shaders};
use crate::verdict::Reason;

/// Most bytes of polynomials per sub-batch.
const MAX_SUB_BATCH_BYTES: u64 = 1 << 28;

/// Flags of the kernel's parameters (see radix2.wgsl).
const INPUT_BIT_REVERSED: u32 = 2;
const OUTPUT_BIT_REVERSED: u32 = 4;
const SCALE_INPUT: u32 = 8;
const SCALE_OUTPUT: u32 = 16;

/// Every polynomial's transform, on the GPU.
pub(crate) fn ntt(gpu: &Gpu, t: &Transform, polys: &[u8]) -> Streamed<PolyResult> {
    driver::run(gpu, &NttKernel::new(gpu, t, polys).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs (see [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, t: &Transform, polys: &[u8], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &NttKernel::new(gpu, t, polys)?, runs)
}

/// The u32 limbs (least significant first) of a 256-bit integer.
fn limbs(b: impl BigInteger) -> [u32; 8] {
    let bytes = b.to_bytes_le();
    std::array::from_fn(|k| u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]))
}

/// The kernel source over a 256-bit field: its modulus, R^2 mod m and
/// -m^-1 mod 2^32 rendered in.
pub(crate) fn kernel_source(field: Field) -> String {
    fn source<F: PrimeField>() -> String {
        let m = limbs(F::MODULUS);
        // R^2 mod m as an integer, R = 2^256.
        let r2 = limbs(F::from(2u64).pow([512]).into_bigint());
        shaders::ntt_fr256(&m, &r2, bigint::neg_inv32(m[0]))
    }
    match field {
        Field::Bn254Fr => source::<ark_bn254::Fr>(),
        Field::Bls12381Fr => source::<ark_bls12_381::Fr>(),
        Field::Goldilocks => shaders::ntt_goldilocks(),
    }
}

/// `first x^0, first x^1, ..., first x^(count-1)`.
fn powers<F: PrimeField>(first: F, x: F, count: usize) -> impl Iterator<Item = F> {
    std::iter::successors(Some(first), move |p| Some(*p * x)).take(count)
}

/// The tables of `t` over `F`, encoded by `work` (the kernel's working
/// form): the twiddles, the scale factors (one unused element when
/// nothing is scaled) and the scaling flag.
fn tables<F: PrimeField + FftField>(
    t: &Transform,
    work: impl Fn(F) -> Vec<u8>,
) -> Result<(Vec<u8>, Vec<u8>, u32), String> {
    let n = t.len();
    let w = F::get_root_of_unity(n as u64).ok_or("no root of unity of this order")?;
    let shift = t.coset.as_deref().map_or(F::one(), F::from_le_bytes_mod_order);
    let invert = |x: F| x.inverse().ok_or("a zero shift or size");
    let encode = |xs: &mut dyn Iterator<Item = F>| -> Vec<u8> { xs.flat_map(&work).collect() };
    let (twiddle, scale, scaling) = if t.direction == Direction::Inverse {
        let n_inv = invert(F::from(n as u64))?;
        (invert(w)?, encode(&mut powers(n_inv, invert(shift)?, n)), SCALE_OUTPUT)
    } else if t.coset.is_some() {
        (w, encode(&mut powers(F::one(), shift, n)), SCALE_INPUT)
    } else {
        (w, encode(&mut std::iter::once(F::one())), 0)
    };
    Ok((encode(&mut powers(F::one(), twiddle, n / 2)), scale, scaling))
}

struct NttKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    t: &'a Transform,
    polys: &'a [u8],
    flags: u32,
    twiddles: Vec<u8>,
    /// Scale factors (one unused element when the flags scale nothing).
    scale: Vec<u8>,
}

impl<'a> NttKernel<'a> {
    fn new(gpu: &Gpu, t: &'a Transform, polys: &'a [u8]) -> Result<NttKernel<'a>, String> {
        gpu.require_int64("ntt")?;
        // Goldilocks works on canonical u64s; the 256-bit fields in
        // Montgomery form, which is arkworks' own representation (`.0`,
        // R = 2^256).
        let (twiddles, scale, scaling) = match t.field {
            Field::Goldilocks => tables::<Goldilocks>(t, |x| x.into_bigint().0[0].to_le_bytes().to_vec())?,
            Field::Bn254Fr => tables::<ark_bn254::Fr>(t, |x| x.0.to_bytes_le())?,
            Field::Bls12381Fr => tables::<ark_bls12_381::Fr>(t, |x| x.0.to_bytes_le())?,
        };
        let mut flags = scaling;
        if t.input_order == Order::BitReversed {
            flags |= INPUT_BIT_REVERSED;
        }
        if t.output_order == Order::BitReversed {
            flags |= OUTPUT_BIT_REVERSED;
        }
        let key = match t.field {
            Field::Goldilocks => "ntt_goldilocks",
            Field::Bn254Fr => "ntt_bn254_fr",
            Field::Bls12381Fr => "ntt_bls12_381_fr",
        };
        Ok(NttKernel {
            pipeline: gpu.pipeline(key, "ntt_main", || kernel_source(t.field))?,
            t,
            polys,
            flags,
            twiddles,
            scale,
        })
    }
}

impl Kernel for NttKernel<'_> {
    type Out = PolyResult;

    fn name(&self) -> &'static str {
        "ntt"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.polys.len() / self.t.poly_bytes()
    }

    fn max_units(&self) -> usize {
        // Also the workgroups of one dispatch's y spread: far more than needed.
        1 << 20
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        let bytes = gpu.max_binding.min(MAX_SUB_BATCH_BYTES) as usize;
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
            Input::uniform(16),
            Input::storage((end - start) * self.t.poly_bytes()),
            Input::storage(self.twiddles.len()),
            Input::storage(self.scale.len()),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, mut data, mut twiddles, mut scale] = driver::inputs(dst);
        driver::params(
            params,
            [(end - start) as u32, self.t.log_n, self.flags, shaders::LOOP_GUARD],
        );
        let size = self.t.poly_bytes();
        data.copy_from_slice(&self.polys[start * size..end * size]);
        twiddles.copy_from_slice(&self.twiddles);
        scale.copy_from_slice(&self.scale);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * (self.t.poly_bytes() + 4)) as u64
    }

    fn threads_per_unit(&self) -> usize {
        // A workgroup per polynomial.
        WORKGROUP_SIZE as usize
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<PolyResult>) -> Result<(), String> {
        let size = self.t.poly_bytes();
        let status_at = (end - start) * size;
        for (i, poly) in out[..status_at].chunks_exact(size).enumerate() {
            let at = status_at + 4 * i;
            let status = u32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]]);
            if status == LOOPS_CUT_FLAG {
                return Err(LoopsCut(start + i..start + i + 1).to_string());
            }
            check_done(status, start + i, "a transform")?;
            answers.push(match status & 0xff {
                0 => Ok(poly.to_vec()),
                1 => Err(Reason::NonCanonicalElement),
                _ => return Err(format!("polynomial {} came back with status {status:#x}", start + i)),
            });
        }
        Ok(())
    }
}
