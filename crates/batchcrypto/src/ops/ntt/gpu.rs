//! Host side of the 64-bit-field NTT kernel (`ntt64.wgsl`, Goldilocks;
//! needs SHADER_INT64) for the driver ([`crate::gpu::driver`]): a
//! polynomial per workgroup. The host computes the transform's tables with
//! arkworks' field (the twiddles w^j or w^-j for j < n/2, where w is the
//! root of unity `ark-poly`'s domain uses, and the scale factors g^i on a
//! coset, n^-1 g^-i for an inverse), uploads them with each sub-batch, and
//! reads back every polynomial and a status word each (done, or an element
//! not below p). The scalar fields of BN254 and BLS12-381 have no kernel
//! yet.

use std::sync::Arc;

use ark_ff::{FftField, Field as _, One, PrimeField};

use super::fields::Goldilocks;
use super::{Direction, Field, Order, PolyResult, Transform};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, LOOPS_CUT_FLAG, LoopsCut, WORKGROUP_SIZE, check_done, shaders};
use crate::verdict::Reason;

/// Most bytes of polynomials per sub-batch.
const MAX_SUB_BATCH_BYTES: u64 = 1 << 28;

/// Flags of the kernel's parameters (see ntt64.wgsl).
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

/// The little-endian bytes of canonical Goldilocks elements.
fn encode(xs: impl Iterator<Item = Goldilocks>) -> Vec<u8> {
    xs.flat_map(|x| x.into_bigint().0[0].to_le_bytes()).collect()
}

/// `x^0, x^1, ..., x^(count-1)` times `first`.
fn powers(first: Goldilocks, x: Goldilocks, count: usize) -> impl Iterator<Item = Goldilocks> {
    std::iter::successors(Some(first), move |p| Some(*p * x)).take(count)
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
        if t.field != Field::Goldilocks {
            return Err(format!("no GPU kernel for the NTT over {} yet", t.field));
        }
        gpu.require_int64("ntt64")?;
        let n = t.len();
        let w = Goldilocks::get_root_of_unity(n as u64).ok_or("no root of unity of this order")?;
        let shift = match &t.coset {
            None => Goldilocks::one(),
            Some(g) => Goldilocks::from_le_bytes_mod_order(g),
        };
        let inverse = t.direction == Direction::Inverse;
        let invert = |x: Goldilocks| x.inverse().ok_or("a zero shift or size");
        let (twiddle, scale, scaling) = if inverse {
            let n_inv = invert(Goldilocks::from(n as u64))?;
            (invert(w)?, encode(powers(n_inv, invert(shift)?, n)), SCALE_OUTPUT)
        } else if t.coset.is_some() {
            (w, encode(powers(Goldilocks::one(), shift, n)), SCALE_INPUT)
        } else {
            (w, vec![0; 8], 0)
        };
        let mut flags = scaling;
        if t.input_order == Order::BitReversed {
            flags |= INPUT_BIT_REVERSED;
        }
        if t.output_order == Order::BitReversed {
            flags |= OUTPUT_BIT_REVERSED;
        }
        Ok(NttKernel {
            pipeline: gpu.pipeline("ntt64", "ntt64_main", shaders::ntt64)?,
            t,
            polys,
            flags,
            twiddles: encode(powers(Goldilocks::one(), twiddle, n / 2)),
            scale,
        })
    }
}

impl Kernel for NttKernel<'_> {
    type Out = PolyResult;

    fn name(&self) -> &'static str {
        "ntt64"
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
