//! Host side of the MSM kernel (`pippenger.wgsl` over a group layer:
//! BN254's G1 on the 256-bit Montgomery layer, BLS12-381's G1 and G2 on
//! its curve layer; SHADER_INT64) for the driver ([`crate::gpu::driver`]):
//! the whole sum is one unit, run in two passes of one submission.
//!
//! The host decodes and checks the points on all cores exactly as the
//! CPU path does (the first bad point in order is the answer), leaves out
//! identities, reduces the scalars mod r and plans the buckets
//! ([`Plan`]): every scalar cut into signed digits of `c` bits (c chosen by
//! the number of terms), the terms sorted by window and bucket (counting
//! sort, one window per core), each bucket's run cut into chunks. The
//! device sums each chunk (one thread each) and reduces each segment of a
//! window's buckets by running sums (one thread each); the host weighs the
//! segments and the windows with arkworks (a few thousand additions) and
//! encodes the sum. Points travel in affine coordinates in Montgomery form,
//! which is both arkworks' and blst's own representation (R = 2^256 for
//! BN254's F_q, 2^384 for BLS12-381's F_p), so no conversion is needed on
//! either side.

use std::sync::Arc;

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInt, BigInteger, Field as _, PrimeField, Zero};
use rayon::prelude::*;

use super::bases::Decoded;
use super::{Bases, Curve, Encoding, MsmResult, SCALAR_LEN};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel};
use crate::gpu::{DONE_FLAG, Gpu, LOOPS_CUT_FLAG, LoopsCut, shaders};
use crate::ops::evm::bn254;

/// Most terms per chunk before a bucket's run is cut again (more when a
/// bucket is so full that it would need more than [`MAX_BUCKET_CHUNKS`]).
const CHUNK_TERMS: usize = 32;
/// Most chunks one segment thread reads for one bucket.
const MAX_BUCKET_CHUNKS: usize = 256;
/// About how many segment threads the reduction is spread over.
const SEGMENT_THREADS: usize = 8192;
/// The widest window: 2^15 buckets per window.
const MAX_WINDOW_BITS: u32 = 16;
/// Bits of a reduced scalar (r < 2^255 on both curves) with room for the
/// signed digits' last carry.
const DIGIT_BITS: u32 = 256;

/// The sum on the GPU, or why not.
pub(crate) fn msm(
    gpu: &Gpu,
    curve: Curve,
    encoding: Encoding,
    points: &[u8],
    scalars: &[u8],
) -> Result<MsmResult, String> {
    gpu.require_int64("msm")?;
    let decoded = match Decoded::new(curve, encoding, points) {
        Ok(decoded) => decoded,
        Err((_, reason)) => return Ok(Err(reason)),
    };
    let words = decoded.words();
    let sum = sum(
        gpu,
        curve,
        Points::Upload(&words),
        &reduced(curve, &decoded.kept_scalars(scalars)),
    )?;
    Ok(Ok(decoded.encode_sum(sum)))
}

/// The sum over `bases` on the GPU (uploaded on the first call), or why not.
pub(crate) fn msm_with(gpu: &Gpu, bases: &Bases, scalars: &[u8]) -> Result<Vec<u8>, String> {
    gpu.require_int64("msm")?;
    let resident = bases
        .device
        .get_or_init(|| upload(gpu, &bases.decoded.words()).map(|r| Box::new(r) as _))
        .as_ref()
        .map_err(Clone::clone)?
        .downcast_ref::<Resident>()
        .ok_or("the bases are held by another kind of device")?;
    if resident.device != gpu.id {
        return Err("the bases were uploaded to another engine's device".to_string());
    }
    let scalars = reduced(bases.curve, &bases.decoded.kept_scalars(scalars));
    let sum = sum(gpu, bases.curve, Points::Resident(&resident.buffer), &scalars)?;
    Ok(bases.decoded.encode_sum(sum))
}

/// Kernel-only times (seconds) of `runs` sums (see [`driver::time`]), the
/// points uncompressed. For benchmarks.
pub(crate) fn kernel_times(
    gpu: &Gpu,
    curve: Curve,
    points: &[u8],
    scalars: &[u8],
    runs: usize,
) -> Result<Vec<f64>, String> {
    let decoded =
        Decoded::new(curve, Encoding::Uncompressed, points).map_err(|(i, r)| format!("point {i}: {}", r.code()))?;
    let words = decoded.words();
    let scalars = reduced(curve, &decoded.kept_scalars(scalars));
    driver::time(
        gpu,
        &MsmKernel::new(gpu, curve, Points::Upload(&words), &scalars)?,
        runs,
    )
}

/// The sum of the terms (uncompressed), the identity for none.
fn sum(gpu: &Gpu, curve: Curve, points: Points<'_>, scalars: &[[u64; 4]]) -> Result<Vec<u8>, String> {
    if scalars.is_empty() {
        return Ok(super::workload::identity(curve));
    }
    match driver::run(gpu, &MsmKernel::new(gpu, curve, points, scalars)?) {
        Ok(mut sums) => sums.pop().ok_or_else(|| "no sum came back".to_string()),
        Err(Failure { reason, .. }) => Err(reason),
    }
}

/// Scalars (32 bytes little-endian each) reduced mod r, as u64 limbs.
fn reduced(curve: Curve, scalars: &[u8]) -> Vec<[u64; 4]> {
    scalars
        .par_chunks_exact(SCALAR_LEN)
        .map(|s| match curve {
            Curve::Bn254G1 => ark_bn254::Fr::from_le_bytes_mod_order(s).into_bigint().0,
            _ => ark_bls12_381::Fr::from_le_bytes_mod_order(s).into_bigint().0,
        })
        .collect()
}

/// Bases kept on a device.
struct Resident {
    /// The [`Gpu::id`] of the device holding them.
    device: u64,
    buffer: wgpu::Buffer,
}

/// `words` in a storage buffer of their own on the device.
fn upload(gpu: &Gpu, words: &[u32]) -> Result<Resident, String> {
    use wgpu::util::DeviceExt;
    let bytes = words.len() as u64 * 4;
    if bytes > gpu.max_binding {
        return Err(format!(
            "{bytes} bytes of bases exceed the adapter's storage binding limit"
        ));
    }
    let oom = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let buffer = gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("msm bases"),
        // At least a word: a binding may not be empty.
        contents: &u32_bytes(words).chain([0; 4]).collect::<Vec<u8>>(),
        usage: wgpu::BufferUsages::STORAGE,
    });
    if let Some(e) = pollster::block_on(oom.pop()) {
        return Err(format!("uploading the bases: {e}"));
    }
    Ok(Resident { device: gpu.id, buffer })
}

/// Where the kernel reads the points.
#[derive(Clone, Copy)]
enum Points<'a> {
    /// Packed with the call.
    Upload(&'a [u32]),
    /// Already on the device.
    Resident(&'a wgpu::Buffer),
}

/// Words per coordinate on the device: an encoded point is two coordinates
/// of the same bytes (8, 12 or 24 words).
fn field_words(curve: Curve) -> usize {
    curve.point_len() / 8
}

/// The kernel source for `curve` (entry points `msm_chunks_main` and
/// `msm_segments_main`).
pub(crate) fn kernel_source(curve: Curve) -> String {
    shaders::msm(curve)
}

/// How the terms go into buckets and the buckets into threads.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Bits per window.
    pub(crate) c: u32,
    pub(crate) windows: usize,
    /// Buckets per window: 2^(c-1), bucket b for digits of magnitude b + 1.
    pub(crate) buckets: usize,
    /// Buckets per segment, and segments per window.
    pub(crate) seg_buckets: usize,
    pub(crate) per_window: usize,
    /// The terms in (window, bucket) order: point index << 1 | negated.
    pub(crate) terms: Vec<u32>,
    /// Chunk k holds terms `chunks[k]..chunks[k + 1]`.
    pub(crate) chunks: Vec<u32>,
    /// Bucket j (window-major) holds chunks `bucket_chunks[j]..bucket_chunks[j + 1]`.
    pub(crate) bucket_chunks: Vec<u32>,
}

/// The window width for `n` terms: the fewest additions, n per window for
/// the buckets and about 2^c per window for their reduction.
fn window_bits(n: usize) -> u32 {
    (2..=MAX_WINDOW_BITS)
        .min_by_key(|&c| DIGIT_BITS.div_ceil(c) as usize * (n + (1usize << c)))
        .unwrap_or(MAX_WINDOW_BITS)
}

/// The signed digits of `s` (< 2^255) in windows of `c` bits, least
/// significant first: each in [-(2^(c-1) - 1), 2^(c-1)], a digit above
/// 2^(c-1) taken as digit - 2^c with a carry into the next window.
fn digits(s: &[u64; 4], c: u32, windows: usize, out: &mut [i32]) {
    let bit = |i: u32| -> u64 {
        if i >= 256 {
            0
        } else {
            (s[(i / 64) as usize] >> (i % 64)) & 1
        }
    };
    let half = 1i64 << (c - 1);
    let mut carry = 0i64;
    for (w, d) in out.iter_mut().enumerate().take(windows) {
        let mut raw = 0i64;
        for k in 0..c {
            raw |= (bit(w as u32 * c + k) as i64) << k;
        }
        raw += carry;
        // raw <= 2^c (c bits plus a carry).
        if raw > half {
            *d = (raw - (1 << c)) as i32;
            carry = 1;
        } else {
            *d = raw as i32;
            carry = 0;
        }
    }
    debug_assert_eq!(carry, 0, "the last window takes the last carry");
}

impl Plan {
    /// The plan for these (reduced) scalars.
    pub(crate) fn new(scalars: &[[u64; 4]]) -> Result<Plan, String> {
        let n = scalars.len();
        if n >= 1 << 31 {
            return Err(format!("{n} terms are too many for one sum on the GPU"));
        }
        let c = window_bits(n);
        let windows = DIGIT_BITS.div_ceil(c) as usize;
        let buckets = 1usize << (c - 1);
        let mut all = vec![0i32; n * windows];
        all.par_chunks_mut(windows)
            .zip(scalars.par_iter())
            .for_each(|(d, s)| digits(s, c, windows, d));
        // Per window: the terms of each bucket, counted and then placed.
        let per_window: Vec<(Vec<u32>, Vec<u32>)> = (0..windows)
            .into_par_iter()
            .map(|w| {
                let mut counts = vec![0u32; buckets + 1];
                for i in 0..n {
                    let d = all[i * windows + w];
                    if d != 0 {
                        counts[d.unsigned_abs() as usize] += 1;
                    }
                }
                // starts[b] for bucket b (magnitude b + 1).
                let mut starts = vec![0u32; buckets + 1];
                for b in 0..buckets {
                    starts[b + 1] = starts[b] + counts[b + 1];
                }
                let mut terms = vec![0u32; starts[buckets] as usize];
                let mut next = starts.clone();
                for i in 0..n {
                    let d = all[i * windows + w];
                    if d != 0 {
                        let b = d.unsigned_abs() as usize - 1;
                        terms[next[b] as usize] = (i as u32) << 1 | u32::from(d < 0);
                        next[b] += 1;
                    }
                }
                (terms, starts)
            })
            .collect();
        let fullest = per_window
            .iter()
            .flat_map(|(_, starts)| starts.windows(2).map(|s| (s[1] - s[0]) as usize))
            .max()
            .unwrap_or(0);
        let chunk = CHUNK_TERMS.max(fullest.div_ceil(MAX_BUCKET_CHUNKS));
        let total: usize = per_window.iter().map(|(t, _)| t.len()).sum();
        let mut terms = Vec::with_capacity(total);
        let mut chunks = Vec::new();
        let mut bucket_chunks = Vec::with_capacity(windows * buckets + 1);
        for (window_terms, starts) in &per_window {
            let base = terms.len() as u32;
            for b in 0..buckets {
                bucket_chunks.push(chunks.len() as u32);
                let mut at = starts[b];
                while at < starts[b + 1] {
                    chunks.push(base + at);
                    at = (at + chunk as u32).min(starts[b + 1]);
                }
            }
            terms.extend_from_slice(window_terms);
        }
        chunks.push(terms.len() as u32);
        bucket_chunks.push(chunks.len() as u32 - 1);
        let seg_buckets = (buckets * windows / SEGMENT_THREADS)
            .clamp(1, buckets)
            .next_power_of_two();
        Ok(Plan {
            c,
            windows,
            buckets,
            seg_buckets,
            per_window: buckets.div_ceil(seg_buckets),
            terms,
            chunks,
            bucket_chunks,
        })
    }

    /// Chunks in all.
    pub(crate) fn chunk_count(&self) -> usize {
        self.chunks.len() - 1
    }

    /// Segments in all.
    pub(crate) fn segments(&self) -> usize {
        self.windows * self.per_window
    }

    /// The sum from every segment's weighted sum T_s = sum_b (b + 1 -
    /// first) B_b and plain sum S_s (b over the segment's buckets, B_b the
    /// bucket's sum): window w's sum is sum_b (b + 1) B_b, which is sum_s
    /// T_s plus G times sum_s s S_s (G buckets per segment); the total is
    /// sum_w 2^(c w) times window w's sum.
    pub(crate) fn combine<P: SWCurveConfig>(&self, segments: &[(Projective<P>, Projective<P>)]) -> Projective<P> {
        let window_sums: Vec<Projective<P>> = segments
            .par_chunks(self.per_window)
            .map(|window| {
                let weighted: Projective<P> = window.iter().map(|(t, _)| t).sum();
                let (mut running, mut ramp) = (Projective::<P>::zero(), Projective::<P>::zero());
                for (_, s) in window.iter().skip(1).rev() {
                    running += s;
                    ramp += running;
                }
                for _ in 0..self.seg_buckets.trailing_zeros() {
                    ramp.double_in_place();
                }
                weighted + ramp
            })
            .collect();
        let mut total = Projective::<P>::zero();
        for w in window_sums.iter().rev() {
            for _ in 0..self.c {
                total.double_in_place();
            }
            total += w;
        }
        total
    }
}

/// The device's projective (X : Y : Z) (x = X/Z, y = Y/Z; Z = 0 is the
/// identity) as arkworks' Jacobian (X Z, Y Z^2, Z).
pub(crate) fn jacobian<P: SWCurveConfig>(x: P::BaseField, y: P::BaseField, z: P::BaseField) -> Projective<P> {
    if z.is_zero() {
        return Projective::zero();
    }
    Projective::new_unchecked(x * z, y * z.square(), z)
}

/// A Montgomery-form element of `N` u64 limbs from its u32 words.
pub(crate) fn limbs<const N: usize>(words: &[u32]) -> BigInt<N> {
    BigInt(std::array::from_fn(|k| {
        u64::from(words[2 * k]) | u64::from(words[2 * k + 1]) << 32
    }))
}

/// The device's segment results (T, S: three coordinates of `fw` words
/// each) as arkworks points of `P`, each coordinate read by `field`.
fn segment_points<P: SWCurveConfig>(
    words: &[u32],
    fw: usize,
    field: impl Fn(&[u32]) -> P::BaseField + Sync,
) -> Vec<(Projective<P>, Projective<P>)> {
    let point = |w: &[u32]| jacobian::<P>(field(&w[..fw]), field(&w[fw..2 * fw]), field(&w[2 * fw..3 * fw]));
    words
        .par_chunks_exact(6 * fw + 1)
        .map(|s| (point(&s[..3 * fw]), point(&s[3 * fw..6 * fw])))
        .collect()
}

fn bls_fp(w: &[u32]) -> ark_bls12_381::Fq {
    ark_bls12_381::Fq::new_unchecked(limbs::<6>(w))
}

/// A BLS12-381 coordinate in blst's (ZCash's) order: big-endian, F_p2's c1
/// first.
fn bls_be(parts: &[ark_bls12_381::Fq]) -> Vec<u8> {
    parts.iter().flat_map(|c| c.into_bigint().to_bytes_be()).collect()
}

/// The sum in the curve's encoding from the segments' words.
fn encode_sum(curve: Curve, plan: &Plan, words: &[u32]) -> Vec<u8> {
    use ark_bls12_381::{Fq2, g1, g2};
    let fw = field_words(curve);
    match curve {
        Curve::Bn254G1 => {
            let field = |w: &[u32]| ark_bn254::Fq::new_unchecked(limbs::<4>(w));
            let sum = plan.combine(&segment_points::<ark_bn254::g1::Config>(words, fw, field));
            bn254::encode_g1(sum.into_affine())
        }
        Curve::Bls12381G1 => {
            let sum = plan.combine(&segment_points::<g1::Config>(words, fw, bls_fp));
            match sum.into_affine().xy() {
                None => super::workload::identity(curve),
                Some((x, y)) => bls_be(&[x, y]),
            }
        }
        Curve::Bls12381G2 => {
            let field = |w: &[u32]| Fq2::new(bls_fp(&w[..12]), bls_fp(&w[12..]));
            let sum = plan.combine(&segment_points::<g2::Config>(words, fw, field));
            match sum.into_affine().xy() {
                None => super::workload::identity(curve),
                Some((x, y)) => bls_be(&[x.c1, x.c0, y.c1, y.c0]),
            }
        }
    }
}

/// One sum: a unit for the driver.
struct MsmKernel<'a> {
    chunks_pass: Arc<wgpu::ComputePipeline>,
    segments_pass: Arc<wgpu::ComputePipeline>,
    curve: Curve,
    points: Points<'a>,
    plan: Plan,
}

impl<'a> MsmKernel<'a> {
    fn new(gpu: &Gpu, curve: Curve, points: Points<'a>, scalars: &[[u64; 4]]) -> Result<MsmKernel<'a>, String> {
        gpu.require_int64("msm")?;
        let plan = Plan::new(scalars)?;
        let kernel = MsmKernel {
            chunks_pass: gpu.pipeline(pipeline_key(curve, 0), "msm_chunks_main", || kernel_source(curve))?,
            segments_pass: gpu.pipeline(pipeline_key(curve, 1), "msm_segments_main", || kernel_source(curve))?,
            curve,
            points,
            plan,
        };
        let largest = [
            kernel.uploaded().len() as u64 * 4,
            kernel.plan.terms.len() as u64 * 4,
            kernel.out_room(0, 1),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        if largest > gpu.max_binding || kernel.sums_at() > u32::MAX as usize {
            return Err(format!(
                "{} terms need a {largest}-byte binding, over the adapter's storage binding limit",
                scalars.len()
            ));
        }
        Ok(kernel)
    }

    /// The points' words packed with the call (none when resident).
    fn uploaded(&self) -> &[u32] {
        match self.points {
            Points::Upload(words) => words,
            Points::Resident(_) => &[],
        }
    }

    /// Words of a point (three coordinates).
    fn point_words(&self) -> usize {
        3 * field_words(self.curve)
    }

    /// Where the chunk sums start in the output, in words.
    fn sums_at(&self) -> usize {
        self.plan.segments() * (2 * self.point_words() + 1)
    }
}

/// The pipeline keys of the two passes per curve.
fn pipeline_key(curve: Curve, pass: usize) -> &'static str {
    match (curve, pass) {
        (Curve::Bn254G1, 0) => "msm_bn254_g1_chunks",
        (Curve::Bn254G1, _) => "msm_bn254_g1_segments",
        (Curve::Bls12381G1, 0) => "msm_bls12_381_g1_chunks",
        (Curve::Bls12381G1, _) => "msm_bls12_381_g1_segments",
        (Curve::Bls12381G2, 0) => "msm_bls12_381_g2_chunks",
        (Curve::Bls12381G2, _) => "msm_bls12_381_g2_segments",
    }
}

fn u32_bytes(words: &[u32]) -> impl Iterator<Item = u8> + '_ {
    words.iter().flat_map(|w| w.to_le_bytes())
}

impl Kernel for MsmKernel<'_> {
    type Out = Vec<u8>;

    fn name(&self) -> &'static str {
        "msm"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.chunks_pass
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        if pass == 0 {
            &self.chunks_pass
        } else {
            &self.segments_pass
        }
    }

    fn units(&self) -> usize {
        1
    }

    fn max_units(&self) -> usize {
        1
    }

    fn inputs(&self, _start: usize, _end: usize) -> Vec<Input> {
        vec![
            Input::uniform(32),
            Input::storage(self.uploaded().len() * 4),
            Input::storage(self.plan.terms.len() * 4),
            Input::storage(self.plan.chunks.len() * 4),
            Input::storage(self.plan.bucket_chunks.len() * 4),
        ]
    }

    fn pack(&self, _start: usize, _end: usize, dst: Vec<Dst<'_>>) {
        let [params, points, terms, chunks, buckets] = driver::inputs(dst);
        let p = &self.plan;
        let values = [
            p.chunk_count(),
            p.segments(),
            p.per_window,
            p.seg_buckets,
            p.buckets,
            self.sums_at(),
            shaders::LOOP_GUARD as usize,
            0,
        ]
        .map(|v| v as u32);
        params.write_iter(u32_bytes(&values));
        points.write_iter(u32_bytes(self.uploaded()));
        terms.write_iter(u32_bytes(&p.terms));
        chunks.write_iter(u32_bytes(&p.chunks));
        buckets.write_iter(u32_bytes(&p.bucket_chunks));
    }

    fn out_bytes(&self, _start: usize, _end: usize) -> u64 {
        self.sums_at() as u64 * 4
    }

    fn out_room(&self, _start: usize, _end: usize) -> u64 {
        (self.sums_at() + self.plan.chunk_count() * (self.point_words() + 1)) as u64 * 4
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        _start: usize,
        _end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let buffer = |b: u32| match (b, self.points) {
            (5, _) => out,
            (1, Points::Resident(bases)) => bases,
            _ => &inputs[b as usize],
        };
        // Each pass's bindings (its pipeline's layout holds only those) and
        // threads.
        let passes: [(&[u32], usize); 2] = [
            (&[0, 1, 2, 3, 5], self.plan.chunk_count()),
            (&[0, 4, 5], self.plan.segments()),
        ];
        passes
            .iter()
            .enumerate()
            .map(|(pass, (bindings, threads))| {
                let entries: Vec<(u32, &wgpu::Buffer)> = bindings.iter().map(|&b| (b, buffer(b))).collect();
                (gpu.bind(self.pass_pipeline(pass), "msm", &entries), *threads as u32)
            })
            .collect()
    }

    fn decode(&self, _start: usize, _end: usize, out: &[u8], sums: &mut Vec<Vec<u8>>) -> Result<(), String> {
        let words: Vec<u32> = out
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let stride = 2 * self.point_words() + 1;
        for (s, segment) in words.chunks_exact(stride).enumerate() {
            match segment[stride - 1] {
                DONE_FLAG => {}
                LOOPS_CUT_FLAG => return Err(format!("{} (segment {s})", LoopsCut(0..1))),
                flag => return Err(format!("segment {s} came back with status {flag:#x}")),
            }
        }
        sums.push(encode_sum(self.curve, &self.plan, &words));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::{Fr, G1Affine, G1Projective};
    use ark_ec::{PrimeGroup, VariableBaseMSM};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// What the kernel's two passes compute, here with arkworks: every
    /// segment's (T, S) from the plan.
    fn segments_on_host(plan: &Plan, points: &[G1Affine]) -> Vec<(G1Projective, G1Projective)> {
        let term = |t: u32| {
            let p = points[(t >> 1) as usize];
            if t & 1 == 1 { -p } else { p }
        };
        let chunk_sums: Vec<G1Projective> = plan
            .chunks
            .windows(2)
            .map(|c| plan.terms[c[0] as usize..c[1] as usize].iter().map(|&t| term(t)).sum())
            .collect();
        (0..plan.segments())
            .map(|s| {
                let (window, first) = (s / plan.per_window, (s % plan.per_window) * plan.seg_buckets);
                let last = (first + plan.seg_buckets).min(plan.buckets);
                let (mut running, mut weighted) = (G1Projective::zero(), G1Projective::zero());
                for b in (first..last).rev() {
                    let j = window * plan.buckets + b;
                    let (from, to) = (plan.bucket_chunks[j] as usize, plan.bucket_chunks[j + 1] as usize);
                    running += chunk_sums[from..to].iter().sum::<G1Projective>();
                    weighted += running;
                }
                (weighted, running)
            })
            .collect()
    }

    /// The plan and the host's weighing, with the device's passes made on
    /// the host: the MSM, at sizes that give every window width up to 9,
    /// with repeated, opposite, zero and largest scalars.
    #[test]
    fn plan_and_combine_give_the_sum() {
        let mut rng = StdRng::seed_from_u64(7);
        for n in [1usize, 2, 3, 7, 40, 100, 300, 1000, 3000] {
            let points: Vec<G1Affine> = (0..n)
                .map(|i| (G1Projective::generator() * Fr::from((i % 5 + 1) as u64 * 977 + 3)).into())
                .collect();
            let scalars: Vec<Fr> = (0..n)
                .map(|i| match i % 9 {
                    2 => Fr::from(0u64),
                    4 => -Fr::from(1u64),
                    6 => Fr::from(5u64),
                    _ => Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>()),
                })
                .collect();
            let limbs: Vec<[u64; 4]> = scalars.iter().map(|s| s.into_bigint().0).collect();
            let plan = Plan::new(&limbs).expect("plan");
            let want = G1Projective::msm(&points, &scalars).expect("msm");
            assert_eq!(
                plan.combine(&segments_on_host(&plan, &points)),
                want,
                "{n} terms: {plan:?}"
            );
        }
    }

    /// Signed digits give the scalar back for every window width.
    #[test]
    fn digits_give_the_scalar_back() {
        let mut rng = StdRng::seed_from_u64(8);
        for c in 2..=MAX_WINDOW_BITS {
            let windows = DIGIT_BITS.div_ceil(c) as usize;
            for _ in 0..20 {
                let s = Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>());
                let mut d = vec![0i32; windows];
                digits(&s.into_bigint().0, c, windows, &mut d);
                let half = 1i32 << (c - 1);
                assert!(d.iter().all(|&x| x > -half && x <= half), "c = {c}: {d:?}");
                let back = d
                    .iter()
                    .rev()
                    .fold(Fr::from(0u64), |acc, &x| acc * Fr::from(1u64 << c) + Fr::from(x as i64));
                assert_eq!(back, s, "c = {c}");
            }
        }
    }
}
