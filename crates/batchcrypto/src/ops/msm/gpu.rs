//! Host side of the MSM kernel (`pippenger.wgsl` over a group layer:
//! BN254's G1 on the 256-bit Montgomery layer, BLS12-381's G1 and G2 on
//! its curve layer; SHADER_INT64) for the driver ([`crate::gpu::driver`]):
//! each sum is one unit and a sub-batch of sums one plan, run in one
//! submission. A large MSM is one sum alone; many small independent sums
//! (EIP-2537's MSM calls, [`many`]) share a plan in which each sum has
//! windows and buckets of its own.
//!
//! The host decodes and checks the points on all cores exactly as the
//! CPU path does (the first bad point in order is the answer) and leaves
//! out identities. The plan ([`Plan`]): every scalar reduced mod r and cut
//! into signed digits of `c` bits (c chosen by the number of terms), the
//! terms sorted by window and bucket, each bucket's run cut into chunks,
//! written as a table (`params.wgsl`). A sum alone is planned on the device
//! (`plan.wgsl`: digits counted per bucket with atomics, the counts
//! scanned in tiles, the terms placed with atomics), so the host only
//! copies the scalars' bytes; many small sums are planned here (a counting
//! sort, one window per core). The device then sums each chunk (one thread
//! each), reduces each segment of a window's buckets by running sums (one
//! thread each) and each group of [`GROUP_SEGMENTS`] segments the same way;
//! the host weighs the groups and the windows with arkworks (a few hundred
//! additions per window: 0.41 ms at 2^20 terms on 2 vCPUs, where weighing
//! the segments took 7.7 ms) and encodes the sum. Points travel
//! in affine coordinates in Montgomery form, which is both arkworks' and
//! blst's own representation (R = 2^256 for BN254's F_q, 2^384 for
//! BLS12-381's F_p), so no conversion is needed on either side.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{BigInt, BigInteger, Field as _, PrimeField, Zero};
use rayon::prelude::*;

use super::bases::{Affine, Decoded};
use super::scalars::{reduced, scalar_modulus};
use super::{Bases, Curve, Encoding, MsmResult, SCALAR_LEN};
use crate::cores;
use crate::gpu::bigint::from_ark;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{DONE_FLAG, Gpu, LOOPS_CUT_FLAG, LoopsCut, WORKGROUP_SIZE, shaders};
use crate::ops::evm::bn254;

/// Most terms per chunk of a bucket of up to CHUNK_TERMS^2 terms (see
/// [`chunk_terms`]).
pub(crate) const CHUNK_TERMS: usize = 32;
/// About how many segment threads the reduction is spread over.
const SEGMENT_THREADS: usize = 8192;
/// Most segments a group thread reduces further (so that the host weighs
/// a sixteenth of the segments).
const GROUP_SEGMENTS: usize = 16;
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
    let bytes = decoded.points.device_bytes();
    let sum = sum(gpu, curve, Points::Upload(&bytes), &decoded.kept_scalars(scalars))?;
    Ok(Ok(decoded.encode_sum(sum)))
}

/// The sum over `bases` on the GPU (uploaded on the first call), or why not.
pub(crate) fn msm_with(gpu: &Gpu, bases: &Bases, scalars: &[u8]) -> Result<Vec<u8>, String> {
    gpu.require_int64("msm")?;
    let resident = bases
        .device
        .get_or_init(|| upload(gpu, &bases.decoded.points.device_bytes()).map(|r| Box::new(r) as _))
        .as_ref()
        .map_err(Clone::clone)?
        .downcast_ref::<Resident>()
        .ok_or("the bases are held by another kind of device")?;
    if resident.device != gpu.id {
        return Err("the bases were uploaded to another engine's device".to_string());
    }
    let scalars = bases.decoded.kept_scalars(scalars);
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
    let bytes = decoded.points.device_bytes();
    let scalars = decoded.kept_scalars(scalars);
    let bounds = vec![0, scalars.len() / SCALAR_LEN];
    driver::time(
        gpu,
        &MsmKernel::new(gpu, curve, Points::Upload(&bytes), &scalars, bounds)?,
        runs,
    )
}

/// Independent sums on the GPU, each a unit for the driver: sum k over the
/// terms `bounds[k]..bounds[k + 1]` of `points` (checked, identities left
/// out) and of `scalars` (32 bytes little-endian each), uncompressed. Many
/// small sums share a plan: EIP-2537's MSM calls.
pub(crate) fn many(gpu: &Gpu, points: &Affine, scalars: &[u8], bounds: Vec<usize>) -> Streamed<Vec<u8>> {
    let curve = points.curve();
    let bytes = points.device_bytes();
    let kernel = MsmKernel::new(gpu, curve, Points::Upload(&bytes), scalars, bounds).map_err(Failure::at_start)?;
    driver::run(gpu, &kernel)
}

/// The sum of the terms (uncompressed), the identity for none.
fn sum(gpu: &Gpu, curve: Curve, points: Points<'_>, scalars: &[u8]) -> Result<Vec<u8>, String> {
    if scalars.is_empty() {
        return Ok(super::sample::identity(curve));
    }
    let kernel = MsmKernel::new(gpu, curve, points, scalars, vec![0, scalars.len() / SCALAR_LEN])?;
    match driver::run(gpu, &kernel) {
        Ok(mut sums) => sums.pop().ok_or_else(|| "no sum came back".to_string()),
        Err(Failure { reason, .. }) => Err(reason),
    }
}

/// Bases kept on a device.
struct Resident {
    /// The [`Gpu::id`] of the device holding them.
    device: u64,
    buffer: wgpu::Buffer,
}

/// The points' `bytes` ([`Affine::device_bytes`]) in a storage buffer of
/// their own on the device.
fn upload(gpu: &Gpu, bytes: &[u8]) -> Result<Resident, String> {
    use wgpu::util::DeviceExt;
    if bytes.len() as u64 > gpu.max_binding {
        return Err(format!(
            "{} bytes of bases exceed the adapter's storage binding limit",
            bytes.len()
        ));
    }
    let oom = gpu.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let buffer = gpu.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("msm bases"),
        // At least a word: a binding may not be empty.
        contents: if bytes.is_empty() { &[0; 4] } else { bytes },
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
    /// Packed with the call: [`Affine::device_bytes`].
    Upload(&'a [u8]),
    /// Already on the device.
    Resident(&'a wgpu::Buffer),
}

/// Words per coordinate on the device: an encoded point is two coordinates
/// of the same bytes (8, 12 or 24 words).
fn field_words(curve: Curve) -> usize {
    curve.point_len() / 8
}

/// The kernel source for `curve` (entry points [`SUM_PASSES`]).
pub(crate) fn kernel_source(curve: Curve) -> String {
    shaders::msm(curve)
}

/// How the terms go into buckets and the buckets into threads: the
/// shape, and for many small sums the host's table (params.wgsl); a sum
/// alone is planned on the device (plan.wgsl) into the same table.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Bits per window.
    pub(crate) c: u32,
    /// Independent sums, each over its own terms, and windows per sum (the
    /// device sees `sums * windows` windows, sum-major).
    pub(crate) sums: usize,
    pub(crate) windows: usize,
    /// Buckets per window: 2^(c-1), bucket b for digits of magnitude b + 1.
    pub(crate) buckets: usize,
    /// Buckets per segment, and segments per window.
    pub(crate) seg_buckets: usize,
    pub(crate) per_window: usize,
    /// Segments per group (a power of two dividing `per_window`): the
    /// groups' sums are what the host weighs.
    pub(crate) group_segments: usize,
    /// The terms the plan takes (their scalars).
    pub(crate) n: usize,
    /// Most placed terms and most chunks: exact when the host plans.
    pub(crate) term_bound: usize,
    pub(crate) chunk_bound: usize,
    /// The host's plan: the terms in (window, bucket) order (point index
    /// << 1 | negated) and the table; both empty when the device plans.
    pub(crate) terms: Vec<u32>,
    pub(crate) table: Vec<u32>,
    /// Whether the device plans.
    pub(crate) on_device: bool,
}

/// Words of the plan table's header (params.wgsl): the chunks in all, then
/// unused words.
pub(crate) const TABLE_HEAD: usize = 4;
/// Buckets per thread of the device plan's scans (plan.wgsl).
pub(crate) const TILE_RUN: usize = 16;

/// Terms per chunk of a bucket of `count` terms (params.wgsl
/// `msm_chunk_terms`, the same integer arithmetic): [`CHUNK_TERMS`], or
/// for a fuller bucket ceil(sqrt(count)), so that neither a chunk's
/// thread (its terms) nor the segment's (the bucket's chunks) adds more
/// than about sqrt(count) points in a row: a bucket that holds most terms
/// (equal or small scalars) is spread over as many threads as it has terms
/// per thread.
fn chunk_terms(count: usize) -> usize {
    let root = count.isqrt();
    CHUNK_TERMS.max(if root * root < count { root + 1 } else { root })
}

/// The window width for `n` terms in `sums` sums: the fewest additions, n
/// per window for the buckets and about 2^c per window of each sum for
/// their reduction.
fn window_bits(n: usize, sums: usize) -> u32 {
    (2..=MAX_WINDOW_BITS)
        .min_by_key(|&c| DIGIT_BITS.div_ceil(c) as usize * (n + sums * (1usize << c)))
        .unwrap_or(MAX_WINDOW_BITS)
}

/// The signed digits of `s` (< 2^255) in windows of `c` bits, least
/// significant first: each in [-(2^(c-1) - 1), 2^(c-1)], a digit above
/// 2^(c-1) taken as digit - 2^c with a carry into the next window.
fn digits(s: &[u64; 4], c: u32, windows: usize, out: &mut [i32]) {
    // The c bits from bit `at` (zeros past bit 255).
    let bits = |at: u32| -> i64 {
        let (word, shift) = ((at / 64) as usize, at % 64);
        let low = s.get(word).map_or(0, |w| w >> shift);
        let high = match s.get(word + 1) {
            Some(w) if shift + c > 64 => w << (64 - shift),
            _ => 0,
        };
        ((low | high) & ((1u64 << c) - 1)) as i64
    };
    let half = 1i64 << (c - 1);
    let mut carry = 0i64;
    for (w, d) in out.iter_mut().enumerate().take(windows) {
        let raw = bits(w as u32 * c) + carry;
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

/// Every scalar's signed digits ([`digits`]), window-major: window w's
/// digit of scalar i at `w * n + i` (n scalars). Scalars are cut into parts
/// on all cores; each part writes its own piece of every window.
fn window_major_digits(scalars: &[[u64; 4]], c: u32, windows: usize) -> Vec<i32> {
    let n = scalars.len();
    let mut all = vec![0i32; n * windows];
    let part = n.div_ceil(4 * cores::threads()).max(1024);
    let mut pieces: Vec<Vec<&mut [i32]>> = (0..n.div_ceil(part)).map(|_| Vec::with_capacity(windows)).collect();
    for window in all.chunks_mut(n.max(1)) {
        for (piece, to) in window.chunks_mut(part).zip(&mut pieces) {
            to.push(piece);
        }
    }
    pieces
        .into_par_iter()
        .zip(scalars.par_chunks(part))
        .for_each(|(mut pieces, scalars)| {
            let mut d = vec![0i32; windows];
            for (i, s) in scalars.iter().enumerate() {
                digits(s, c, windows, &mut d);
                for (piece, &x) in pieces.iter_mut().zip(&d) {
                    piece[i] = x;
                }
            }
        });
    all
}

impl Plan {
    /// The shape of a plan of `sums` sums over `n` terms in all: one
    /// window width serves them all; buckets per segment chosen to spread
    /// the reduction over about [`SEGMENT_THREADS`] threads.
    fn shape(n: usize, sums: usize) -> Result<Plan, String> {
        if n >= 1 << 31 {
            return Err(format!("{n} terms are too many for one plan on the GPU"));
        }
        let c = window_bits(n, sums);
        let windows = DIGIT_BITS.div_ceil(c) as usize;
        let buckets = 1usize << (c - 1);
        let seg_buckets = (buckets * windows * sums / SEGMENT_THREADS)
            .clamp(1, buckets)
            .next_power_of_two();
        Ok(Plan {
            c,
            sums,
            windows,
            buckets,
            seg_buckets,
            per_window: buckets.div_ceil(seg_buckets),
            group_segments: GROUP_SEGMENTS.min(buckets.div_ceil(seg_buckets)),
            n,
            ..Plan::default()
        })
    }

    /// The plan of one sum over `n` terms, made on the device: the bounds
    /// of what it can place (every digit of every term not zero) and of
    /// its chunks (a bucket of k terms has at most k / CHUNK_TERMS + 1).
    pub(crate) fn on_device(n: usize) -> Result<Plan, String> {
        let mut plan = Plan::shape(n, 1)?;
        plan.term_bound = n * plan.windows;
        plan.chunk_bound = plan.term_bound / CHUNK_TERMS + plan.entries().min(plan.term_bound);
        plan.on_device = true;
        Ok(plan)
    }

    /// The plan of independent sums: sum k over the terms
    /// `bounds[k]..bounds[k + 1]` (`bounds` rises from 0 to the number of
    /// terms), its scalars reduced mod r. Each sum has its own windows.
    pub(crate) fn many(scalars: &[[u64; 4]], bounds: &[usize]) -> Result<Plan, String> {
        let n = scalars.len();
        let sums = bounds.len().saturating_sub(1);
        if bounds.first() != Some(&0) || bounds.last() != Some(&n) || bounds.windows(2).any(|b| b[0] > b[1]) {
            return Err(format!("sum bounds {bounds:?} do not cut {n} terms"));
        }
        let mut plan = Plan::shape(n, sums)?;
        let (c, windows, buckets) = (plan.c, plan.windows, plan.buckets);
        let all = window_major_digits(scalars, c, windows);
        // Each window of each sum (v = sum * windows + window) reads its
        // terms' digits in order.
        let digits_of = |v: usize| -> (usize, &[i32]) {
            let (first, last) = (bounds[v / windows], bounds[v / windows + 1]);
            (first, &all[(v % windows) * n..][first..last])
        };
        // Per window of each sum: where each bucket's terms start (bucket
        // b for magnitude b + 1), the end last.
        let starts: Vec<Vec<u32>> = (0..sums * windows)
            .into_par_iter()
            .map(|v| {
                let mut starts = vec![0u32; buckets + 1];
                for &d in digits_of(v).1 {
                    if d != 0 {
                        starts[d.unsigned_abs() as usize] += 1;
                    }
                }
                for b in 0..buckets {
                    starts[b + 1] += starts[b];
                }
                starts
            })
            .collect();
        // The terms, each window of each sum a run of its own, placed in
        // parallel.
        let mut terms = vec![0u32; starts.iter().map(|s| s[buckets] as usize).sum()];
        let mut runs = Vec::with_capacity(starts.len());
        let mut rest = terms.as_mut_slice();
        for s in &starts {
            let (run, tail) = rest.split_at_mut(s[buckets] as usize);
            runs.push(run);
            rest = tail;
        }
        runs.into_par_iter()
            .zip(&starts)
            .enumerate()
            .for_each(|(v, (run, starts))| {
                let mut next = starts.clone();
                let (first, digits) = digits_of(v);
                for (i, &d) in (first..).zip(digits) {
                    if d != 0 {
                        let b = d.unsigned_abs() as usize - 1;
                        run[next[b] as usize] = (i as u32) << 1 | u32::from(d < 0);
                        next[b] += 1;
                    }
                }
            });
        // The table: each bucket's end and where its chunks start.
        let entries = plan.entries();
        let mut table = vec![0u32; TABLE_HEAD + 2 * entries + 1];
        let (mut end, mut chunks) = (0usize, 0usize);
        for (e, count) in starts
            .iter()
            .flat_map(|s| s.windows(2).map(|b| (b[1] - b[0]) as usize))
            .enumerate()
        {
            table[TABLE_HEAD + entries + e] = chunks as u32;
            chunks += count.div_ceil(chunk_terms(count));
            end += count;
            table[TABLE_HEAD + e] = end as u32;
        }
        table[TABLE_HEAD + 2 * entries] = chunks as u32;
        table[0] = chunks as u32;
        plan.term_bound = terms.len();
        plan.chunk_bound = chunks;
        plan.terms = terms;
        plan.table = table;
        Ok(plan)
    }

    /// Buckets in all: the table's entries.
    pub(crate) fn entries(&self) -> usize {
        self.sums * self.windows * self.buckets
    }

    /// Tiles of the device plan's scans.
    fn tiles(&self) -> usize {
        self.entries().div_ceil(TILE_RUN * WORKGROUP_SIZE as usize)
    }

    /// Words of the table: the host's, or the device's with room for its
    /// tiles' totals.
    fn table_words(&self) -> usize {
        TABLE_HEAD + 2 * self.entries() + 1 + if self.on_device { 2 * self.tiles() } else { 0 }
    }

    /// Segments in all.
    pub(crate) fn segments(&self) -> usize {
        self.sums * self.windows * self.per_window
    }

    /// Groups of segments per window.
    fn groups_per_window(&self) -> usize {
        self.per_window / self.group_segments.max(1)
    }

    /// Groups in all.
    pub(crate) fn groups(&self) -> usize {
        self.sums * self.windows * self.groups_per_window()
    }

    /// Every sum from its groups' sums (see [`Plan::combine`]).
    pub(crate) fn combine_all<P: SWCurveConfig>(
        &self,
        groups: &[(Projective<P>, Projective<P>)],
    ) -> Vec<Projective<P>> {
        groups
            .chunks(self.windows * self.groups_per_window())
            .map(|one| self.combine(one))
            .collect()
    }

    /// One sum from its groups' weighted sums T_g = sum_b (b + 1 - first)
    /// B_b and plain sums S_g (b over the group's buckets, B_b the bucket's
    /// sum): window w's sum is sum_b (b + 1) B_b, which is sum_g T_g plus
    /// G times sum_g g S_g (G buckets per group); the total is sum_w 2^(c w)
    /// times window w's sum.
    pub(crate) fn combine<P: SWCurveConfig>(&self, groups: &[(Projective<P>, Projective<P>)]) -> Projective<P> {
        let window_sums: Vec<Projective<P>> = groups
            .par_chunks(self.groups_per_window())
            .map(|window| {
                let weighted: Projective<P> = window.iter().map(|(t, _)| t).sum();
                let (mut running, mut ramp) = (Projective::<P>::zero(), Projective::<P>::zero());
                for (_, s) in window.iter().skip(1).rev() {
                    running += s;
                    ramp += running;
                }
                for _ in 0..(self.seg_buckets * self.group_segments).trailing_zeros() {
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

/// The sums in the curve's uncompressed encoding from the segments'
/// words.
fn encode_sums(curve: Curve, plan: &Plan, words: &[u32]) -> Vec<Vec<u8>> {
    use ark_bls12_381::{Fq2, g1, g2};
    let fw = field_words(curve);
    let bls = |xy: Option<Vec<ark_bls12_381::Fq>>| match xy {
        None => super::sample::identity(curve),
        Some(parts) => bls_be(&parts),
    };
    match curve {
        Curve::Bn254G1 => {
            let field = |w: &[u32]| ark_bn254::Fq::new_unchecked(limbs::<4>(w));
            let sums = plan.combine_all(&segment_points::<ark_bn254::g1::Config>(words, fw, field));
            let sums = CurveGroup::normalize_batch(&sums);
            sums.into_iter().map(bn254::encode_g1).collect()
        }
        Curve::Bls12381G1 => {
            let sums = plan.combine_all(&segment_points::<g1::Config>(words, fw, bls_fp));
            let sums = CurveGroup::normalize_batch(&sums);
            sums.iter().map(|p| bls(p.xy().map(|(x, y)| vec![x, y]))).collect()
        }
        Curve::Bls12381G2 => {
            let field = |w: &[u32]| Fq2::new(bls_fp(&w[..12]), bls_fp(&w[12..]));
            let sums = plan.combine_all(&segment_points::<g2::Config>(words, fw, field));
            let sums = CurveGroup::normalize_batch(&sums);
            sums.iter()
                .map(|q| bls(q.xy().map(|(x, y)| vec![x.c1, x.c0, y.c1, y.c0])))
                .collect()
        }
    }
}

/// Sums for the driver, each a unit: a sub-batch of sums is one [`Plan`]
/// (its terms' points back to back), run in one submission: a sum alone
/// planned on the device (five passes, plan.wgsl), many small ones on the
/// host; then the chunk sums, the segments and their groups
/// (pippenger.wgsl). Bases kept on the device make one sum.
struct MsmKernel<'a> {
    /// The device plan's passes (none when the host plans), then the sum
    /// passes.
    passes: Vec<Arc<wgpu::ComputePipeline>>,
    curve: Curve,
    points: Points<'a>,
    /// Every sum's scalars (32 bytes little-endian each, not reduced),
    /// back to back.
    scalars: &'a [u8],
    /// Sum k over the terms `bounds[k]..bounds[k + 1]`.
    bounds: Vec<usize>,
    /// The plan of each sub-batch (`start`, `end`), made when the driver
    /// cuts it ([`Kernel::end`]).
    plans: Mutex<HashMap<(usize, usize), Arc<Plan>>>,
}

/// The device plan's entry points (plan.wgsl), in order.
const PLAN_PASSES: [&str; 5] = [
    "msm_count_main",
    "msm_tiles_main",
    "msm_offsets_main",
    "msm_scan_main",
    "msm_place_main",
];

/// The sum passes' entry points (pippenger.wgsl), in order.
const SUM_PASSES: [&str; 3] = ["msm_chunks_main", "msm_segments_main", "msm_groups_main"];

/// The bindings of each of the device plan's passes, then of the sum
/// passes (a pipeline's layout holds only those it uses). The table is
/// binding 6 while the device plans (atomic), 4 after.
const PASS_BINDINGS: [&[u32]; 8] = [
    &[0, 3, 6],
    &[0, 6],
    &[0, 6],
    &[0, 6],
    &[0, 2, 3, 6],
    &[0, 1, 2, 4, 5],
    &[0, 4, 5],
    &[0, 5],
];

impl<'a> MsmKernel<'a> {
    fn new(
        gpu: &Gpu,
        curve: Curve,
        points: Points<'a>,
        scalars: &'a [u8],
        bounds: Vec<usize>,
    ) -> Result<MsmKernel<'a>, String> {
        gpu.require_int64("msm")?;
        if matches!(points, Points::Resident(_)) && bounds.len() != 2 {
            return Err("bases on the device make one sum".to_string());
        }
        let mut passes = Vec::with_capacity(PASS_BINDINGS.len());
        if bounds.len() == 2 {
            let keys = plan_keys(curve);
            for (key, entry) in keys.into_iter().zip(PLAN_PASSES) {
                passes.push(gpu.pipeline(key, entry, || shaders::msm_plan(&from_ark(scalar_modulus(curve))))?);
            }
        }
        for (key, entry) in sum_keys(curve).into_iter().zip(SUM_PASSES) {
            passes.push(gpu.pipeline(key, entry, || kernel_source(curve))?);
        }
        Ok(MsmKernel {
            passes,
            curve,
            points,
            scalars,
            bounds,
            plans: Mutex::new(HashMap::new()),
        })
    }

    /// The terms of sums `start..end`.
    fn terms(&self, start: usize, end: usize) -> std::ops::Range<usize> {
        self.bounds[start]..self.bounds[end]
    }

    /// The scalars' bytes of sums `start..end`.
    fn scalar_bytes(&self, start: usize, end: usize) -> &[u8] {
        let terms = self.terms(start, end);
        &self.scalars[terms.start * SCALAR_LEN..terms.end * SCALAR_LEN]
    }

    /// The plan of sums `start..end`, made (and its bindings checked
    /// against the adapter's limit) on the first call: a sum alone is
    /// planned on the device (when the kernel was made for one).
    fn plan(&self, gpu: Option<&Gpu>, start: usize, end: usize) -> Result<Arc<Plan>, String> {
        let mut plans = self.plans.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(plan) = plans.get(&(start, end)) {
            return Ok(plan.clone());
        }
        let gpu = gpu.ok_or_else(|| format!("sums {start}..{end} were never planned"))?;
        let terms = self.terms(start, end);
        let plan = Arc::new(if self.device_plans() {
            Plan::on_device(terms.len())?
        } else {
            let bounds: Vec<usize> = self.bounds[start..=end].iter().map(|b| b - terms.start).collect();
            Plan::many(&reduced(self.curve, self.scalar_bytes(start, end)), &bounds)?
        });
        let point_bytes = self.uploaded(start, end).len() as u64;
        let largest = [
            point_bytes,
            plan.term_bound as u64 * 4,
            self.scalar_bytes(start, end).len() as u64,
            plan.table_words() as u64 * 4,
            Self::room(&plan, self.point_words()),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        if largest > gpu.max_binding || sums_at(&plan, self.point_words()) > u32::MAX as usize {
            return Err(format!(
                "{} terms need a {largest}-byte binding, over the adapter's storage binding limit",
                terms.len()
            ));
        }
        plans.insert((start, end), plan.clone());
        Ok(plan)
    }

    /// Whether the device plans: the kernel was made for one sum.
    fn device_plans(&self) -> bool {
        self.passes.len() > SUM_PASSES.len()
    }

    /// The points' bytes of sums `start..end` packed with the call (none
    /// when resident).
    fn uploaded(&self, start: usize, end: usize) -> &[u8] {
        match self.points {
            Points::Upload(bytes) => {
                let terms = self.terms(start, end);
                let per = self.curve.point_len();
                &bytes[terms.start * per..terms.end * per]
            }
            Points::Resident(_) => &[],
        }
    }

    /// Words of a point (three coordinates).
    fn point_words(&self) -> usize {
        3 * field_words(self.curve)
    }

    /// Bytes of the output buffer for `plan`: the segments' results, then
    /// the chunk sums.
    fn room(plan: &Plan, point_words: usize) -> u64 {
        (sums_at(plan, point_words) + plan.chunk_bound * (point_words + 1)) as u64 * 4
    }

    /// A plan that was made; an empty one otherwise (never the case: the
    /// driver cuts every sub-batch with [`Kernel::end`] first, and
    /// [`Kernel::decode`] refuses an unplanned one).
    fn planned(&self, start: usize, end: usize) -> Arc<Plan> {
        self.plan(None, start, end).unwrap_or_default()
    }
}

/// Where the segments' results start in the output, in words: after every
/// group's T, S and flag.
fn segments_at(plan: &Plan, point_words: usize) -> usize {
    plan.groups() * (2 * point_words + 1)
}

/// Where the chunk sums start in the output, in words: after every
/// group's and segment's T, S and flag.
fn sums_at(plan: &Plan, point_words: usize) -> usize {
    (plan.groups() + plan.segments()) * (2 * point_words + 1)
}

/// Most terms a sub-batch of several sums plans at once.
const MAX_PLAN_TERMS: usize = 1 << 16;

/// Where a sub-batch of the sums cut by `bounds` that starts at `start`
/// ends: at most `max` sums, as many as hold at most `limit` terms, at least
/// one.
fn cut(bounds: &[usize], start: usize, max: usize, limit: usize) -> usize {
    let last = (start + max.max(1)).min(bounds.len() - 1);
    let mut end = start + 1;
    while end < last && bounds[end + 1] - bounds[start] <= limit {
        end += 1;
    }
    end
}

/// The pipeline keys of the sum passes per curve.
fn sum_keys(curve: Curve) -> [&'static str; 3] {
    match curve {
        Curve::Bn254G1 => ["msm_bn254_g1_chunks", "msm_bn254_g1_segments", "msm_bn254_g1_groups"],
        Curve::Bls12381G1 => [
            "msm_bls12_381_g1_chunks",
            "msm_bls12_381_g1_segments",
            "msm_bls12_381_g1_groups",
        ],
        Curve::Bls12381G2 => [
            "msm_bls12_381_g2_chunks",
            "msm_bls12_381_g2_segments",
            "msm_bls12_381_g2_groups",
        ],
    }
}

/// The pipeline keys of the device plan's passes, per scalar field (G1 and
/// G2 of BLS12-381 share theirs).
fn plan_keys(curve: Curve) -> [&'static str; 5] {
    match curve {
        Curve::Bn254G1 => [
            "msm_plan_bn254_count",
            "msm_plan_bn254_tiles",
            "msm_plan_bn254_offsets",
            "msm_plan_bn254_scan",
            "msm_plan_bn254_place",
        ],
        Curve::Bls12381G1 | Curve::Bls12381G2 => [
            "msm_plan_bls12_381_count",
            "msm_plan_bls12_381_tiles",
            "msm_plan_bls12_381_offsets",
            "msm_plan_bls12_381_scan",
            "msm_plan_bls12_381_place",
        ],
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
        &self.passes[0]
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        &self.passes[pass.min(self.passes.len() - 1)]
    }

    /// The passes run the plan's entry points (a sum alone) and then the
    /// sums', as [`MsmKernel::new`] made their pipelines.
    fn pass_name(&self, pass: usize) -> &'static str {
        let first = PLAN_PASSES.len() + SUM_PASSES.len() - self.passes.len();
        PLAN_PASSES
            .iter()
            .chain(&SUM_PASSES)
            .nth(first + pass)
            .copied()
            .unwrap_or(self.name())
    }

    fn units(&self) -> usize {
        self.bounds.len() - 1
    }

    fn max_units(&self) -> usize {
        self.units().max(1)
    }

    /// As many sums as fit [`MAX_PLAN_TERMS`] terms (at least one), planned;
    /// halved while their plan needs a binding over the adapter's limit
    /// (many small sums take many windows each: 1,024 sums of 64 terms
    /// needed 137 MB on lavapipe, whose limit is 128 MiB).
    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        let mut end = cut(&self.bounds, start, max, MAX_PLAN_TERMS);
        loop {
            match self.plan(Some(gpu), start, end) {
                Ok(_) => return Ok(end),
                Err(_) if end - start > 1 => end = start + (end - start) / 2,
                Err(e) => return Err(e),
            }
        }
    }

    /// The parameters, the points (unless resident), the terms (the host's,
    /// or room for the device's), the scalars (when the device plans) and
    /// the table (the host's, or zeros the device plans in).
    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let plan = self.planned(start, end);
        let points = Input::storage(self.uploaded(start, end).len());
        if plan.on_device {
            vec![
                Input::uniform(64),
                points,
                Input::storage(0).with_room(plan.term_bound as u64 * 4),
                Input::storage(self.scalar_bytes(start, end).len()),
                Input::cleared(plan.table_words() as u64 * 4),
            ]
        } else {
            vec![
                Input::uniform(64),
                points,
                Input::storage(plan.terms.len() * 4),
                Input::storage(0),
                Input::storage(plan.table.len() * 4),
            ]
        }
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, points, terms, mut scalars, table] = driver::inputs(dst);
        let p = self.planned(start, end);
        let values = [
            p.n,
            p.segments(),
            p.per_window,
            p.seg_buckets,
            p.buckets,
            sums_at(&p, self.point_words()),
            shaders::LOOP_GUARD as usize,
            p.windows,
            p.c as usize,
            p.entries(),
            p.groups(),
            p.group_segments,
            p.groups_per_window(),
            segments_at(&p, self.point_words()),
            p.seg_buckets.trailing_zeros() as usize,
            0,
        ]
        .map(|v| v as u32);
        params.write_iter(u32_bytes(&values));
        driver::copy(points, self.uploaded(start, end));
        terms.write_iter(u32_bytes(&p.terms));
        if p.on_device {
            scalars.copy_from_slice(self.scalar_bytes(start, end));
        }
        table.write_iter(u32_bytes(&p.table));
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        segments_at(&self.planned(start, end), self.point_words()) as u64 * 4
    }

    fn out_room(&self, start: usize, end: usize) -> u64 {
        Self::room(&self.planned(start, end), self.point_words())
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let plan = self.planned(start, end);
        let buffer = |b: u32| match (b, self.points) {
            (5, _) => out,
            (4 | 6, _) => &inputs[4],
            (1, Points::Resident(bases)) => bases,
            _ => &inputs[b as usize],
        };
        let tile_threads = plan.tiles() * WORKGROUP_SIZE as usize;
        let threads = [
            plan.n,
            tile_threads,
            WORKGROUP_SIZE as usize,
            tile_threads,
            plan.n,
            plan.chunk_bound,
            plan.segments(),
            plan.groups(),
        ];
        // The host's plan runs the last two passes only.
        let first = if plan.on_device { 0 } else { PLAN_PASSES.len() };
        (first..PASS_BINDINGS.len())
            .zip(0..)
            .map(|(pass, at)| {
                let entries: Vec<(u32, &wgpu::Buffer)> = PASS_BINDINGS[pass].iter().map(|&b| (b, buffer(b))).collect();
                (gpu.bind(self.pass_pipeline(at), "msm", &entries), threads[pass] as u32)
            })
            .collect()
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], sums: &mut Vec<Vec<u8>>) -> Result<(), String> {
        let plan = self.plan(None, start, end)?;
        let words: Vec<u32> = out
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let stride = 2 * self.point_words() + 1;
        if words.len() != plan.groups() * stride || plan.sums != end - start {
            return Err(format!("sums {start}..{end}: {} words came back", words.len()));
        }
        for (s, segment) in words.chunks_exact(stride).enumerate() {
            match segment[stride - 1] {
                DONE_FLAG => {}
                LOOPS_CUT_FLAG => return Err(format!("{} (segment {s})", LoopsCut(start..end))),
                flag => return Err(format!("segment {s} came back with status {flag:#x}")),
            }
        }
        sums.extend(encode_sums(self.curve, &plan, &words));
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

    /// The chunks of a plan's table, bucket by bucket: each bucket's terms
    /// (from the previous bucket's end to its own) cut into runs of
    /// `chunk_terms` terms, as many as the table's chunk starts give.
    fn chunk_ranges(plan: &Plan) -> Vec<std::ops::Range<usize>> {
        let (entries, table) = (plan.entries(), &plan.table);
        let mut ranges = Vec::new();
        let mut start = 0;
        for e in 0..entries {
            let end = table[TABLE_HEAD + e] as usize;
            let per = chunk_terms(end - start);
            let (first, last) = (table[TABLE_HEAD + entries + e], table[TABLE_HEAD + entries + e + 1]);
            for k in 0..(last - first) as usize {
                ranges.push(start + k * per..(start + (k + 1) * per).min(end));
            }
            assert_eq!(
                ranges.last().map_or(start, |r| r.end.max(start)),
                end,
                "bucket {e} covered"
            );
            start = end;
        }
        assert_eq!((ranges.len(), table[0] as usize), (plan.chunk_bound, ranges.len()));
        assert_eq!(start, plan.terms.len());
        ranges
    }

    /// What the kernel's two passes compute, here with arkworks: every
    /// segment's (T, S) from the plan.
    fn segments_on_host(plan: &Plan, points: &[G1Affine]) -> Vec<(G1Projective, G1Projective)> {
        let term = |t: u32| {
            let p = points[(t >> 1) as usize];
            if t & 1 == 1 { -p } else { p }
        };
        let chunk_sums: Vec<G1Projective> = chunk_ranges(plan)
            .into_iter()
            .map(|c| plan.terms[c].iter().map(|&t| term(t)).sum())
            .collect();
        let chunks_at = TABLE_HEAD + plan.entries();
        (0..plan.segments())
            .map(|s| {
                let (window, first) = (s / plan.per_window, (s % plan.per_window) * plan.seg_buckets);
                let last = (first + plan.seg_buckets).min(plan.buckets);
                let (mut running, mut weighted) = (G1Projective::zero(), G1Projective::zero());
                for b in (first..last).rev() {
                    let j = chunks_at + window * plan.buckets + b;
                    let (from, to) = (plan.table[j] as usize, plan.table[j + 1] as usize);
                    running += chunk_sums[from..to].iter().sum::<G1Projective>();
                    weighted += running;
                }
                (weighted, running)
            })
            .collect()
    }

    /// What the group pass computes from the segments, here with
    /// arkworks: each group's (T, S).
    fn groups_on_host(plan: &Plan, segments: &[(G1Projective, G1Projective)]) -> Vec<(G1Projective, G1Projective)> {
        assert_eq!(segments.len(), plan.segments());
        (0..plan.groups())
            .map(|g| {
                let first = (g / plan.groups_per_window()) * plan.per_window
                    + (g % plan.groups_per_window()) * plan.group_segments;
                let group = &segments[first..first + plan.group_segments];
                let weighted: G1Projective = group.iter().map(|(t, _)| t).sum();
                let (mut running, mut ramp) = (G1Projective::zero(), G1Projective::zero());
                for (k, (_, s)) in group.iter().enumerate().rev() {
                    running += s;
                    ramp += running * Fr::from(u64::from(k > 0));
                }
                (weighted + ramp * Fr::from(plan.seg_buckets as u64), running)
            })
            .collect()
    }

    /// The sums the host weighs from what the device's passes compute.
    fn on_host(plan: &Plan, points: &[G1Affine]) -> Vec<G1Projective> {
        plan.combine_all(&groups_on_host(plan, &segments_on_host(plan, points)))
    }

    /// The plan and the host's weighing, with the device's passes made on
    /// the host: the MSM, at sizes that give every window width up to 9,
    /// with repeated, opposite, zero and largest scalars; as one sum and cut
    /// into several.
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
            let plan = Plan::many(&limbs, &[0, n]).expect("plan");
            let want = G1Projective::msm(&points, &scalars).expect("msm");
            assert_eq!(on_host(&plan, &points), [want], "{n} terms: {plan:?}");
            // The same terms cut into independent sums, empty ones among
            // them (at the start, between and at the end).
            for cuts in [vec![0, 0, n], vec![0, n / 3, n / 3, n / 2, n, n], vec![0, 1.min(n), n]] {
                let plan = Plan::many(&limbs, &cuts).expect("plan");
                let want: Vec<G1Projective> = cuts
                    .windows(2)
                    .map(|c| G1Projective::msm(&points[c[0]..c[1]], &scalars[c[0]..c[1]]).expect("msm"))
                    .collect();
                assert_eq!(on_host(&plan, &points), want, "{n} terms cut {cuts:?}");
            }
        }
        // Every scalar equal: each window's one bucket holds more than
        // CHUNK_TERMS^2 terms, so its chunks grow.
        let n = CHUNK_TERMS * CHUNK_TERMS + 100;
        assert_eq!(chunk_terms(n), 34);
        let points: Vec<G1Affine> = (0..n)
            .map(|i| (G1Projective::generator() * Fr::from(i as u64 + 1)).into())
            .collect();
        let same = Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>());
        let plan = Plan::many(&vec![same.into_bigint().0; n], &[0, n]).expect("plan");
        assert_eq!(
            on_host(&plan, &points),
            [G1Projective::msm(&points, &vec![same; n]).expect("msm")]
        );
        // Bounds that do not cut the terms.
        for bad in [vec![], vec![1, 2], vec![0, 2, 1, 3], vec![0, 2]] {
            assert!(Plan::many(&[[1, 0, 0, 0]; 3], &bad).is_err(), "{bad:?}");
        }
    }

    /// Chunks of CHUNK_TERMS up to CHUNK_TERMS^2 terms a bucket, then of
    /// ceil(sqrt(count)) terms, up to the largest count a plan holds.
    #[test]
    fn chunks_grow_with_the_square_root() {
        for count in (0..5000).chain([(1 << 31) - 1, 1 << 30, 46_340 * 46_340, 46_340 * 46_340 + 1]) {
            let per = chunk_terms(count);
            let root = (count as f64).sqrt().ceil() as usize;
            assert_eq!(per, root.max(CHUNK_TERMS), "{count}");
            assert!(
                count <= CHUNK_TERMS * CHUNK_TERMS || count.div_ceil(per) <= per,
                "{count}"
            );
        }
    }

    /// Sub-batches of sums: at most `max` sums, at most `limit` terms unless
    /// one sum alone holds more.
    #[test]
    fn sub_batches_of_sums() {
        let bounds = [0, 3, 3, 10, 11, 30, 31];
        assert_eq!(cut(&bounds, 0, 10, 100), 6);
        assert_eq!(cut(&bounds, 0, 2, 100), 2);
        assert_eq!(cut(&bounds, 0, 10, 10), 3);
        assert_eq!(cut(&bounds, 0, 10, 9), 2);
        assert_eq!(cut(&bounds, 3, 10, 5), 4, "one sum over the limit goes alone");
        assert_eq!(cut(&bounds, 4, 10, 5), 5);
        assert_eq!(cut(&bounds, 5, 10, 0), 6);
        assert_eq!(cut(&bounds, 5, 0, 100), 6);
    }

    /// The scalars' reduction is arkworks' `from_le_bytes_mod_order` on
    /// both curves: zero, r - 1, r, r + 1, multiples of r, 2^256 - 1 and
    /// random values.
    /// Signed digits give the scalar back for every window width: random
    /// scalars, r - 1, and scalars whose every window (below bit 252) is
    /// 2^(c-1) or 2^c - 1, which carry from window to window.
    #[test]
    fn digits_give_the_scalar_back() {
        let mut rng = StdRng::seed_from_u64(8);
        for c in 2..=MAX_WINDOW_BITS {
            let windows = DIGIT_BITS.div_ceil(c) as usize;
            let every_window = |digit: u64| -> Fr {
                (0..252 / c).fold(Fr::from(0u64), |acc, _| acc * Fr::from(1u64 << c) + Fr::from(digit))
            };
            let edges = [-Fr::from(1u64), every_window(1 << (c - 1)), every_window((1 << c) - 1)];
            let random = (0..20).map(|_| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>()));
            for s in edges.into_iter().chain(random) {
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
