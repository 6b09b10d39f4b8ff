//! BLS signatures on the GPU (issue 15): `bls_verify`, `bls_batch_verify`,
//! `bls_aggregate_verify` and `bls_fast_aggregate_verify`, in kernels run
//! through the driver one after another:
//!
//! 1. `bls_points_g1` and `bls_points_g2` (tower-machine programs,
//!    [`super::programs::points`]): every distinct public key and every
//!    signature decompressed and checked for its subgroup;
//! 2. hash to G2 of every distinct message: `bls_hash` (ops/bls/hash.wgsl,
//!    expand_message_xmd and hash_to_field), then the tower-machine
//!    program [`super::programs::map_to_g2`];
//! 3. `bls_sum_g1` and `bls_sum_g2` (tower-machine programs,
//!    [`super::programs::sum_programs`]): sums of scaled points, for fast
//!    aggregation's key sums and batch verification's random linear
//!    combinations (and, with 256-bit scalars, the KZG point evaluation's
//!    `C + [y](-G1) + [z]pi`: `crate::ops::evm`'s GPU path);
//! 4. `bls_pairs` (the EIP-2537 program, checks off): the Miller loops of
//!    (pk, H(m)) per key and (-G1, sig);
//! 5. `bls_final`: per check the product of its Miller values, the final
//!    exponentiation, compared with one.
//!
//! `bls_verify` makes one check per item. `bls_batch_verify` makes one per
//! set of items, over random linear combinations of the set's equations
//! (keys grouped by message), in passes chosen by
//! [`crate::bisect::passes`]: a set that fails is split until its invalid
//! items stand alone, so the verdicts are `bls_verify`'s.
//!
//! The host reads the encodings' flags as blst does (compression bit, the
//! infinity encoding, x < p; blst also refuses G1's x = 0 while decoding:
//! those points, (0, +-2), have order 3) and gives each item the CPU
//! path's first failing reason ([`super::super`]'s order). Any failure of
//! a kernel fails the whole call (the engine recomputes it on the CPU).

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use rand::RngExt;

use super::{FP12_WORDS, final_check, miller_values, pack_pair, programs};
use crate::batch::FlatBytes;
use crate::bisect::{self, Cost};
use crate::gpu::bigint::{self, Limbs};
use crate::gpu::curve::BLS12_381_P;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::pairing_vm::SUM_RANGE;
use crate::gpu::shaders::{self, Tower};
use crate::gpu::{Gpu, tower_vm};
use crate::ops::bls::{AggregateItem, Batch, DST, FastAggregateItem, Mode, PK_LEN, SIG_LEN};
use crate::ops::hash::gpu::{flat_inputs, pack_flat};
use crate::verdict::{Reason, Verdict};

/// Words per message out of `bls_hash`: u0 and u1 (four F_p elements),
/// completion.
pub(crate) const HASH_OUT: usize = 49;
/// Costs of a batch check in single verifications, in the CPU path's
/// measure ([`crate::ops::bls::cpu::BATCH_COST`]: the device does the same
/// arithmetic, one Miller loop and two 64-bit scalar multiplications per
/// item, a Miller loop and a final exponentiation per set) until GPU
/// figures calibrate it.
pub(crate) const BATCH_COST: Cost = crate::ops::bls::cpu::BATCH_COST;
/// Items below which a batch check pass costs the GPU its latency, not its
/// work, so a batch goes without a probe pass (one pass when honest, not
/// two): on the H200 the EIP-2537 programs took 70 ms for 1,024 pairs and
/// 75 ms for 16,384, 4.6-4.9 µs per pair from there on
/// (docs/bench/h200-2026-12-04b).
const DEVICE_FULL: usize = 16_384;
/// Messages per `bls_hash` sub-batch.
const MAX_MESSAGES: usize = 16_384;

/// G1's generator, big-endian hex (x, y): its negation pairs with the
/// signature.
const G1_X: &str = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const G1_Y: &str = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";

/// DST_prime = DST || I2OSP(len(DST), 1) (RFC 9380 section 5.3.1).
pub(crate) fn dst_prime() -> Vec<u8> {
    let mut d = DST.to_vec();
    d.push(DST.len() as u8);
    d
}

/// What follows the message in b_0's input (after Z_pad, which the device
/// supplies): I2OSP(256, 2) || I2OSP(0, 1) || DST_prime.
fn xmd_tail() -> Vec<u8> {
    let mut t = vec![1, 0, 0];
    t.extend(dst_prime());
    t
}

/// -G1 as the pairing kernel reads it: x, y canonical words.
pub(crate) fn minus_g1() -> Vec<u32> {
    let p: Limbs<12> = bigint::from_hex(BLS12_381_P);
    let y = bigint::sub(&p, &bigint::from_hex(G1_Y)).0;
    let mut w = bigint::from_hex::<12>(G1_X).to_vec();
    w.extend(y);
    w
}

/// A compressed point as the host reads it.
enum Encoded {
    /// blst refuses the encoding.
    Bad,
    /// G1's x = 0, which blst refuses after reading it: (0, +-2) have
    /// order 3.
    ZeroX,
    /// The encoding of the point at infinity.
    Infinity,
    /// x (G1: twelve words then twelve zeros; G2: c0 then c1) and the sort
    /// flag.
    Finite(Vec<u32>, bool),
}

/// A 48-byte (G1) or 96-byte (G2) compressed encoding read as blst's
/// `uncompress` does before its arithmetic.
fn read_compressed(bytes: &[u8]) -> Encoded {
    let top = bytes[0];
    if top & 0x80 == 0 {
        return Encoded::Bad;
    }
    if top & 0x40 != 0 {
        return if top & 0x3f == 0 && bytes[1..].iter().all(|&b| b == 0) {
            Encoded::Infinity
        } else {
            Encoded::Bad
        };
    }
    let mut x = bytes.to_vec();
    x[0] &= 0x1f;
    let p: Limbs<12> = bigint::from_hex(BLS12_381_P);
    // Big-endian: G2's x.c1 comes first.
    let coords: Vec<Limbs<12>> = x.chunks_exact(48).rev().map(bigint::from_be::<12>).collect();
    if coords.iter().any(|c| !bigint::sub(c, &p).1) {
        return Encoded::Bad;
    }
    let mut words: Vec<u32> = coords.concat();
    words.resize(24, 0);
    // blst's G1 decoding refuses x = 0 (the points of order 3).
    if coords.len() == 1 && words.iter().all(|&w| w == 0) {
        return Encoded::ZeroX;
    }
    Encoded::Finite(words, top & 0x20 != 0)
}

/// A point's affine coordinates (canonical words: G1 x, y; G2 x.c0, x.c1,
/// y.c0, y.c1), `None` for the point at infinity.
type Affine = Option<Vec<u32>>;

/// A key or signature as the verifications use it, or why it is refused.
type Decoded = Result<Affine, Reason>;

/// A validated key's affine coordinates (never infinity: `KeyValidate`
/// refuses it), or why it is refused.
type Key = Result<Vec<u32>, Reason>;

/// `bls_hash` over messages with expand_message's tail appended.
struct HashKernel<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    msgs: &'a FlatBytes,
}

impl Kernel for HashKernel<'_> {
    type Out = Vec<u32>;

    fn name(&self) -> &'static str {
        "bls_hash"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.msgs.len()
    }

    fn max_units(&self) -> usize {
        MAX_MESSAGES
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        gpu.sub_batch_end(self.msgs, start, max)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let mut inputs = vec![Input::uniform(16)];
        inputs.extend(flat_inputs(self.msgs, start, end));
        inputs
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, bytes, offsets] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, 0, 0]);
        pack_flat(self.msgs, start, end, bytes, offsets);
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * HASH_OUT * 4) as u64
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<Vec<u32>>) -> Result<(), String> {
        driver::decode_words(out, HASH_OUT, start, "a message", answers)
    }
}

/// The `bls_hash` pipeline.
fn hash_pipeline(gpu: &Gpu) -> Result<Arc<wgpu::ComputePipeline>, String> {
    gpu.require_int64("bls_hash")?;
    gpu.pipeline("bls_hash", "bls_hash", shaders::bls_hash)
}

/// The group of a compressed point: a key's or a signature's.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    G1,
    G2,
}

impl Group {
    /// Words per affine coordinate.
    fn coordinate_words(self) -> usize {
        match self {
            Group::G1 => 12,
            Group::G2 => 24,
        }
    }

    /// The decompression program's name (in traces).
    fn points_kernel(self) -> &'static str {
        match self {
            Group::G1 => "bls_points_g1",
            Group::G2 => "bls_points_g2",
        }
    }

    /// The sum kernel's name.
    fn sum_kernel(self) -> &'static str {
        match self {
            Group::G1 => "bls_sum_g1",
            Group::G2 => "bls_sum_g2",
        }
    }

    /// What the point at infinity decodes to, and the reasons for a
    /// refused encoding (or an x with no point) and for a point outside the
    /// subgroup, as [`crate::ops::bls::decode_key`] and
    /// [`crate::ops::bls::decode_sig`] give them.
    fn rules(self) -> (Decoded, Reason, Reason) {
        match self {
            Group::G1 => (Err(Reason::IdentityKey), Reason::MalformedKey, Reason::KeyNotInSubgroup),
            Group::G2 => (Ok(None), Reason::MalformedSignature, Reason::SignatureNotInSubgroup),
        }
    }
}

/// A compressed point after the device's checks: why blst refuses it
/// (its `uncompress`, then the subgroup check), or the point.
pub(crate) enum Decompressed {
    /// The encoding is refused (its flags, or x not below p).
    Encoding,
    /// G1's x = 0: E's points of order 3, refused by blst's decoding.
    OrderThree,
    /// No point of the curve has this x.
    NotOnCurve,
    /// On the curve, outside the prime-order subgroup.
    NotInGroup,
    /// The point at infinity.
    Infinity,
    /// A point of the subgroup: its affine words (canonical; G1 x, y).
    Point(Vec<u32>),
}

/// Decompresses `encodings` of `group` on the device (the tower machine's
/// [`programs::points`]) with the subgroup check, as blst would.
pub(crate) fn decompress<'a>(
    gpu: &Gpu,
    group: Group,
    encodings: impl Iterator<Item = &'a [u8]>,
) -> Result<Vec<Decompressed>, String> {
    let read: Vec<Encoded> = encodings.map(read_compressed).collect();
    let coords = group.coordinate_words();
    let mut words = Vec::new();
    for e in &read {
        if let Encoded::Finite(x, largest) = e {
            words.extend_from_slice(&x[..coords]);
            words.push(u32::from(*largest));
            words.extend([0; 11]);
        }
    }
    let program = programs::points(group == Group::G2);
    let checked = tower_vm::run(gpu, group.points_kernel(), Tower::Bls12381, program, &words)?;
    let mut checked = checked.into_iter();
    read.into_iter()
        .map(|e| match e {
            Encoded::Bad => Ok(Decompressed::Encoding),
            Encoded::ZeroX => Ok(Decompressed::OrderThree),
            Encoded::Infinity => Ok(Decompressed::Infinity),
            Encoded::Finite(x, _) => {
                let out = checked.next().ok_or("a point without an answer")?;
                let flags = out[0];
                Ok(if flags & programs::FLAG_ON_CURVE == 0 {
                    Decompressed::NotOnCurve
                } else if flags & programs::FLAG_IN_GROUP == 0 {
                    Decompressed::NotInGroup
                } else {
                    Decompressed::Point([&x[..coords], &out[12..12 + coords]].concat())
                })
            }
        })
        .collect()
}

/// Decodes `encodings` of `group` on the device, with the reasons of
/// [`Group::rules`].
fn decode_points<'a>(
    gpu: &Gpu,
    group: Group,
    encodings: impl Iterator<Item = &'a [u8]>,
) -> Result<Vec<Decoded>, String> {
    let (infinity, malformed, subgroup) = group.rules();
    Ok(decompress(gpu, group, encodings)?
        .into_iter()
        .map(|d| match d {
            Decompressed::Encoding | Decompressed::OrderThree | Decompressed::NotOnCurve => Err(malformed),
            Decompressed::NotInGroup => Err(subgroup),
            Decompressed::Infinity => infinity.clone(),
            Decompressed::Point(words) => Ok(Some(words)),
        })
        .collect())
}

/// Every key of `keys` as `KeyValidate` decides.
fn decode_keys<'a>(gpu: &Gpu, keys: impl Iterator<Item = &'a [u8; PK_LEN]>) -> Result<Vec<Key>, String> {
    let decoded = decode_points(gpu, Group::G1, keys.map(|k| &k[..]))?;
    Ok(decoded
        .into_iter()
        .map(|d| d.and_then(|p| p.ok_or(Reason::IdentityKey)))
        .collect())
}

/// Every distinct key of `keys`, decoded once (validator sets repeat
/// keys).
fn key_cache<'a>(
    gpu: &Gpu,
    keys: impl Iterator<Item = &'a [u8; PK_LEN]>,
) -> Result<HashMap<[u8; PK_LEN], Key>, String> {
    let mut distinct: Vec<[u8; PK_LEN]> = keys.copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let decoded = decode_keys(gpu, distinct.iter())?;
    Ok(distinct.into_iter().zip(decoded).collect())
}

/// Every signature of `sigs` as `signature_to_point` with the subgroup
/// check decides (infinity is a valid signature).
fn decode_sigs<'a>(gpu: &Gpu, sigs: impl Iterator<Item = &'a [u8; SIG_LEN]>) -> Result<Vec<Decoded>, String> {
    decode_points(gpu, Group::G2, sigs.map(|s| &s[..]))
}

/// H(m) for every message (affine words; `None` for infinity).
fn hash_to_g2<'a>(gpu: &Gpu, msgs: impl Iterator<Item = &'a [u8]>) -> Result<Vec<Affine>, String> {
    let tail = xmd_tail();
    let mut flat = FlatBytes::default();
    let mut buf = Vec::new();
    for m in msgs {
        buf.clear();
        buf.extend_from_slice(m);
        buf.extend_from_slice(&tail);
        if !flat.push(&buf) {
            return Err("messages too large for the hash kernel".to_string());
        }
    }
    if flat.is_empty() {
        return Ok(Vec::new());
    }
    let kernel = HashKernel {
        pipeline: hash_pipeline(gpu)?,
        msgs: &flat,
    };
    let fields = driver::run(gpu, &kernel).map_err(|f| f.reason)?.concat();
    let out = tower_vm::run(gpu, "bls_map_to_g2", Tower::Bls12381, programs::map_to_g2(), &fields)?;
    Ok(out
        .into_iter()
        .map(|o| (o[0] == 1).then(|| o[12..60].to_vec()))
        .collect())
}

/// One verification's pairs: e(pk_j, H(m_j)) for each (key, hash), then
/// e(-G1, sig).
struct Check {
    /// The item's index.
    item: usize,
    keys: Vec<Vec<u32>>,
    hashes: Vec<usize>,
    sig: Affine,
}

/// H(m) of every message of `msgs`, each distinct message hashed once
/// (validators sign the same attestation data, a sync committee the same
/// block root): per message the index of its hash, and the hashes.
fn hash_distinct(gpu: &Gpu, msgs: &[&[u8]]) -> Result<(Vec<usize>, Vec<Affine>), String> {
    let mut distinct: HashMap<&[u8], usize> = HashMap::new();
    let index: Vec<usize> = msgs
        .iter()
        .map(|m| {
            let next = distinct.len();
            *distinct.entry(m).or_insert(next)
        })
        .collect();
    let mut unique: Vec<&[u8]> = vec![&[]; distinct.len()];
    for (m, &k) in &distinct {
        unique[k] = m;
    }
    Ok((index, hash_to_g2(gpu, unique.into_iter())?))
}

/// Whether each check's product of Miller values over its range of pairs
/// (`bounds`, packed in `words` by [`pack_pair`]), raised to the final
/// exponentiation, is one.
pub(crate) fn pairings_are_one(gpu: &Gpu, words: &[u32], bounds: Vec<usize>) -> Result<Vec<bool>, String> {
    let millers = miller_values(gpu, words)?;
    let mut values = Vec::with_capacity(millers.len() * FP12_WORDS);
    for m in &millers {
        values.extend_from_slice(&m[1..]);
    }
    final_check(gpu, crate::gpu::shaders::Tower::Bls12381, values, bounds)
}

/// The verdicts of `checks` (the items' others already set in `verdicts`):
/// every distinct message hashed, every pair's Miller loop, one final
/// exponentiation per check.
fn run_checks(gpu: &Gpu, checks: &[Check], msgs: &[&[u8]], verdicts: &mut [Verdict]) -> Result<(), String> {
    let (index, hashed) = hash_distinct(gpu, msgs)?;
    let g1 = minus_g1();
    let mut words = Vec::new();
    let mut bounds = vec![0usize];
    for c in checks {
        for (key, &h) in c.keys.iter().zip(&c.hashes) {
            pack_pair(&mut words, Some(key), hashed[index[h]].as_deref(), false);
        }
        pack_pair(&mut words, Some(&g1), c.sig.as_deref(), false);
        bounds.push(bounds.last().unwrap_or(&0) + c.keys.len() + 1);
    }
    let ok = pairings_are_one(gpu, &words, bounds)?;
    for (c, ok) in checks.iter().zip(ok) {
        if !ok {
            verdicts[c.item] = Verdict::Invalid(Reason::Equation);
        }
    }
    Ok(())
}

/// The verdicts of `checks` (one key and message each; the items' others
/// already set in `verdicts`) by batch checks over the sets
/// [`bisect::passes::decide_in_passes`] chooses, every distinct message hashed
/// once for all passes.
fn batch_checks(gpu: &Gpu, checks: &[Check], msgs: &[&[u8]], verdicts: &mut [Verdict]) -> Result<(), String> {
    let (index, hashed) = hash_distinct(gpu, msgs)?;
    let hash_of: Vec<usize> = checks.iter().map(|c| index[c.hashes[0]]).collect();
    let ok = decide_on_device("bls_batch_verify", checks.len(), BATCH_COST, |sets| {
        set_checks(gpu, checks, &hash_of, &hashed, sets)
    })?;
    for (c, ok) in checks.iter().zip(ok) {
        if !ok {
            verdicts[c.item] = Verdict::Invalid(Reason::Equation);
        }
    }
    Ok(())
}

/// The verdicts of items `0..n` by batch checks on the device, in the
/// passes of [`bisect::passes::decide_in_passes`] (a probe pass from
/// [`DEVICE_FULL`] items): `check(sets)` decides one pass's sets. Traced
/// runs say how long each pass took, under `op`'s name.
pub(crate) fn decide_on_device(
    op: &str,
    n: usize,
    cost: Cost,
    mut check: impl FnMut(&[Range<usize>]) -> Result<Vec<bool>, String>,
) -> Result<Vec<bool>, String> {
    let mut pass = 0;
    bisect::passes::decide_in_passes(n, cost, DEVICE_FULL, |sets| {
        let t = std::time::Instant::now();
        let passed = check(sets);
        Gpu::trace(|| format!("{op}: pass {pass} of {} sets", sets.len()), t);
        pass += 1;
        passed
    })
}

/// Whether each set of `checks` passes one batch check (the small
/// exponents test of Bellare, Garay and Rabin, as blst's
/// `Pairing::mul_n_aggregate` makes it):
/// prod_m e(sum_{i in set, m_i = m} [r_i] pk_i, H(m)) e(-G1, sum_i [r_i] sig_i) = 1
/// with fresh random nonzero 64-bit r_i, which a set holding an invalid
/// item passes with probability at most 2^-64; a set of one item takes
/// r = 1: its own verification. `hash_of[i]` is check i's hash in
/// `hashed`. Keys are grouped by message within a set, so a shared message
/// costs one Miller loop per set.
fn set_checks(
    gpu: &Gpu,
    checks: &[Check],
    hash_of: &[usize],
    hashed: &[Affine],
    sets: &[Range<usize>],
) -> Result<Vec<bool>, String> {
    let mut rng = rand::rng();
    let (mut keys, mut key_bounds, mut key_hashes) = (Vec::new(), vec![0usize], Vec::new());
    let (mut sigs, mut sig_bounds, mut groups_per_set) = (Vec::new(), vec![0usize], Vec::new());
    for set in sets {
        let scaled: Vec<(usize, u64)> = set
            .clone()
            .map(|i| {
                (
                    i,
                    if set.len() == 1 {
                        1
                    } else {
                        rng.random_range(1..=u64::MAX)
                    },
                )
            })
            .collect();
        // The set's messages in order of first appearance, with their items.
        let mut groups: Vec<(usize, Vec<(usize, u64)>)> = Vec::new();
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        for &(i, r) in &scaled {
            let g = *group_of.entry(hash_of[i]).or_insert_with(|| {
                groups.push((hash_of[i], Vec::new()));
                groups.len() - 1
            });
            groups[g].1.push((i, r));
        }
        groups_per_set.push(groups.len());
        for (h, members) in groups {
            keys.extend(
                members
                    .iter()
                    .map(|&(i, r)| (Some(checks[i].keys[0].as_slice()), scalar64(r))),
            );
            key_bounds.push(keys.len());
            key_hashes.push(h);
        }
        sigs.extend(scaled.iter().map(|&(i, r)| (checks[i].sig.as_deref(), scalar64(r))));
        sig_bounds.push(sigs.len());
    }
    let key_sums = combine(gpu, Group::G1, &keys, &key_bounds)?;
    let sig_sums = combine(gpu, Group::G2, &sigs, &sig_bounds)?;
    let g1 = minus_g1();
    let (mut words, mut bounds, mut next) = (Vec::new(), vec![0usize], 0);
    for (groups, sig) in groups_per_set.iter().zip(&sig_sums) {
        for (sum, &h) in key_sums[next..next + groups].iter().zip(&key_hashes[next..]) {
            pack_pair(&mut words, sum.as_deref(), hashed[h].as_deref(), false);
        }
        next += groups;
        pack_pair(&mut words, Some(&g1), sig.as_deref(), false);
        bounds.push(bounds.last().unwrap_or(&0) + groups + 1);
    }
    pairings_are_one(gpu, &words, bounds)
}

/// One verdict per item of `batch`, as [`crate::ops::bls::cpu::verify`]
/// gives in `mode`: [`Mode::Single`] verifies each item on its own,
/// [`Mode::Batch`] by random linear combinations ([`batch_checks`]).
pub(crate) fn verify(gpu: &Gpu, batch: &Batch, mode: Mode) -> Streamed<Verdict> {
    let run = || -> Result<Vec<Verdict>, String> {
        let keys = key_cache(gpu, batch.pks().iter())?;
        let sigs = decode_sigs(gpu, (0..batch.len()).map(|i| batch.sig(i)))?;
        let mut verdicts = vec![Verdict::Valid; batch.len()];
        let (mut checks, mut msgs) = (Vec::new(), Vec::new());
        for (i, sig) in sigs.into_iter().enumerate() {
            let key = keys.get(batch.pk(i)).cloned().unwrap_or(Err(Reason::MalformedKey));
            match (key, sig) {
                (Err(r), _) | (Ok(_), Err(r)) => verdicts[i] = Verdict::Invalid(r),
                (Ok(key), Ok(sig)) => {
                    checks.push(Check {
                        item: i,
                        keys: vec![key],
                        hashes: vec![msgs.len()],
                        sig,
                    });
                    msgs.push(batch.msg(i));
                }
            }
        }
        match mode {
            Mode::Single => run_checks(gpu, &checks, &msgs, &mut verdicts)?,
            Mode::Batch => batch_checks(gpu, &checks, &msgs, &mut verdicts)?,
        }
        Ok(verdicts)
    };
    run().map_err(Failure::at_start)
}

/// One verdict per aggregate item, as
/// [`crate::ops::bls::cpu::aggregate_verify`] gives.
pub(crate) fn aggregate_verify(gpu: &Gpu, items: &[AggregateItem]) -> Streamed<Verdict> {
    let run = || -> Result<Vec<Verdict>, String> {
        let keys = decode_keys(gpu, items.iter().flat_map(|it| it.pks.iter()))?;
        let sigs = decode_sigs(gpu, items.iter().map(|it| &it.sig))?;
        let mut verdicts = vec![Verdict::Valid; items.len()];
        let (mut checks, mut msgs) = (Vec::new(), Vec::new());
        let mut keys = keys.into_iter();
        for (i, (item, sig)) in items.iter().zip(sigs).enumerate() {
            let mine: Vec<Key> = keys.by_ref().take(item.pks.len()).collect();
            if item.pks.is_empty() || item.pks.len() != item.msgs.len() {
                verdicts[i] = Verdict::Invalid(Reason::EmptyOrMismatched);
                continue;
            }
            let mine: Result<Vec<Vec<u32>>, Reason> = mine.into_iter().collect();
            match (mine, sig) {
                (Err(r), _) | (Ok(_), Err(r)) => verdicts[i] = Verdict::Invalid(r),
                (Ok(mine), Ok(sig)) => {
                    checks.push(Check {
                        item: i,
                        keys: mine,
                        hashes: (msgs.len()..msgs.len() + item.msgs.len()).collect(),
                        sig,
                    });
                    msgs.extend(item.msgs.iter().map(Vec::as_slice));
                }
            }
        }
        run_checks(gpu, &checks, &msgs, &mut verdicts)?;
        Ok(verdicts)
    };
    run().map_err(Failure::at_start)
}

/// A term's scalar: 256 bits, least significant word first.
pub(crate) type Scalar = [u32; 8];

/// The scalar one: a term added as it is.
pub(crate) const ONE: Scalar = [1, 0, 0, 0, 0, 0, 0, 0];

/// A scalar of 64 bits.
pub(crate) fn scalar64(s: u64) -> Scalar {
    let mut w = [0; 8];
    w[..2].copy_from_slice(&[s as u32, (s >> 32) as u32]);
    w
}

/// The bits of a scalar's words up to its highest set bit.
fn bit_length(words: &[u32]) -> u32 {
    let top = words.iter().rposition(|&w| w != 0);
    top.map_or(0, |k| 32 * k as u32 + 32 - words[k].leading_zeros())
}

/// The sum of the scaled points of each range `bounds[k]..bounds[k + 1]`
/// of `points` (per point its affine words in `group`, then its
/// [`Scalar`]'s words): its affine words, `None` for infinity. On the
/// tower machine ([`programs::sum_programs`]): every point scaled (one
/// thread each, by the program of the fewest bits that holds every
/// scalar: one bit when every scalar is 1, 64 or 256), the ranges
/// summed [`SUM_RANGE`] points per thread over as many rounds as the
/// longest needs, then made affine.
fn scaled_sums(gpu: &Gpu, group: Group, points: &[u32], bounds: &[usize]) -> Result<Vec<Affine>, String> {
    if bounds.len() < 2 {
        return Ok(Vec::new());
    }
    let g2 = group == Group::G2;
    let programs = programs::sum_programs(g2);
    let coords = group.coordinate_words();
    // Per point: x, y, then the scalar as an element (its words, zeros).
    let stride = 2 * coords + 8;
    let mut words = Vec::with_capacity(points.len() / stride * (2 * coords + 12));
    let mut bits = 0;
    for p in points.chunks_exact(stride) {
        words.extend_from_slice(p);
        words.extend([0; 4]);
        bits = bits.max(bit_length(&p[2 * coords..]));
    }
    let scale = match bits {
        0 | 1 => &programs.scale1,
        2..=64 => &programs.scale64,
        _ => &programs.scale256,
    };
    let name = group.sum_kernel();
    // Projective points in Montgomery form, 3 coords each.
    let point_words = 3 * coords;
    let mut values: Vec<u32> = tower_vm::run(gpu, name, Tower::Bls12381, scale, &words)?.concat();
    // (0 : 1 : 0): Y's first element one in Montgomery form.
    let mut infinity = vec![0u32; point_words];
    infinity[coords..coords + 12].copy_from_slice(&super::fp12_one(Tower::Bls12381)[..12]);
    let mut bounds = bounds.to_vec();
    loop {
        let longest = bounds.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        if longest == 1 && bounds.windows(2).all(|w| w[1] - w[0] == 1) {
            break;
        }
        // Every range cut into chunks of at most SUM_RANGE points (an empty
        // range one chunk of infinity), each chunk padded with infinity.
        let (mut input, mut next) = (Vec::new(), vec![0usize]);
        for w in bounds.windows(2) {
            let mut at = w[0];
            loop {
                let end = (at + SUM_RANGE).min(w[1]);
                input.extend_from_slice(&values[at * point_words..end * point_words]);
                for _ in end - at..SUM_RANGE {
                    input.extend_from_slice(&infinity);
                }
                at = end;
                if at >= w[1] {
                    break;
                }
            }
            next.push(input.len() / (SUM_RANGE * point_words));
        }
        values = tower_vm::run(gpu, name, Tower::Bls12381, &programs.sum, &input)?.concat();
        bounds = next;
    }
    let out = tower_vm::run(gpu, name, Tower::Bls12381, &programs.affine, &values)?;
    Ok(out
        .into_iter()
        .map(|o| (o[0] == 1).then(|| o[12..12 + 2 * coords].to_vec()))
        .collect())
}

/// Appends a point and its scalar as [`scaled_sums`] reads them.
fn push_term(words: &mut Vec<u32>, point: &[u32], scalar: &Scalar) {
    words.extend_from_slice(point);
    words.extend_from_slice(scalar);
}

/// sum [s_k] P_k over each group of `terms` (groups `bounds[j]..bounds[j +
/// 1]`; `None` points are infinity) in two passes, so that no thread runs
/// more than one scalar multiplication: the terms with s != 1 scaled one
/// per thread, then each group of more than one term added with s = 1.
pub(crate) fn combine(
    gpu: &Gpu,
    group: Group,
    terms: &[(Option<&[u32]>, Scalar)],
    bounds: &[usize],
) -> Result<Vec<Affine>, String> {
    let mut words = Vec::new();
    for (point, s) in terms {
        if let (Some(p), true) = (point, *s != ONE) {
            push_term(&mut words, p, s);
        }
    }
    let term_words = 2 * group.coordinate_words() + 8;
    let scaled_count = words.len() / term_words;
    let scaled = scaled_sums(gpu, group, &words, &(0..=scaled_count).collect::<Vec<_>>())?;
    let mut scaled = scaled.into_iter();
    let mut term: Vec<Affine> = Vec::with_capacity(terms.len());
    for (point, s) in terms {
        term.push(match (point, *s != ONE) {
            (Some(_), true) => scaled.next().ok_or("a scaled point without an answer")?,
            (p, _) => p.map(<[u32]>::to_vec),
        });
    }
    words.clear();
    let mut sum_bounds = vec![0usize];
    let mut sums: Vec<Option<Affine>> = Vec::with_capacity(bounds.len().saturating_sub(1));
    for w in bounds.windows(2) {
        if w[1] - w[0] == 1 {
            sums.push(Some(term[w[0]].take()));
            continue;
        }
        for p in term[w[0]..w[1]].iter().flatten() {
            push_term(&mut words, p, &ONE);
        }
        sum_bounds.push(words.len() / term_words);
        sums.push(None);
    }
    let mut added = scaled_sums(gpu, group, &words, &sum_bounds)?.into_iter();
    sums.into_iter()
        .map(|s| match s {
            Some(single) => Ok(single),
            None => added.next().ok_or_else(|| "a sum without an answer".to_string()),
        })
        .collect()
}

/// One verdict per fast-aggregate item, as
/// [`crate::ops::bls::cpu::fast_aggregate_verify`] gives: every key
/// validated, their sum (on the device; a sum at infinity fails, as in
/// blst), then one verification.
pub(crate) fn fast_aggregate_verify(gpu: &Gpu, items: &[FastAggregateItem]) -> Streamed<Verdict> {
    let run = || -> Result<Vec<Verdict>, String> {
        let keys = key_cache(gpu, items.iter().flat_map(|it| it.pks.iter()))?;
        let sigs = decode_sigs(gpu, items.iter().map(|it| &it.sig))?;
        let mut verdicts = vec![Verdict::Valid; items.len()];
        // The items whose keys and signature passed, with their keys.
        let (mut ready, mut words, mut bounds) = (Vec::new(), Vec::new(), vec![0usize]);
        for (i, (item, sig)) in items.iter().zip(sigs).enumerate() {
            if item.pks.is_empty() {
                verdicts[i] = Verdict::Invalid(Reason::EmptyOrMismatched);
                continue;
            }
            let mine: Result<Vec<Vec<u32>>, Reason> = item
                .pks
                .iter()
                .map(|k| keys.get(k).cloned().unwrap_or(Err(Reason::MalformedKey)))
                .collect();
            match (mine, sig) {
                (Err(r), _) | (Ok(_), Err(r)) => verdicts[i] = Verdict::Invalid(r),
                (Ok(mine), Ok(sig)) => {
                    words.extend(mine);
                    bounds.push(words.len());
                    ready.push((i, sig));
                }
            }
        }
        let terms: Vec<(Option<&[u32]>, Scalar)> = words.iter().map(|k| (Some(k.as_slice()), ONE)).collect();
        let sums = combine(gpu, Group::G1, &terms, &bounds)?;
        let (mut checks, mut msgs) = (Vec::new(), Vec::new());
        for ((i, sig), sum) in ready.into_iter().zip(sums) {
            match sum {
                None => verdicts[i] = Verdict::Invalid(Reason::Equation),
                Some(sum) => {
                    checks.push(Check {
                        item: i,
                        keys: vec![sum],
                        hashes: vec![msgs.len()],
                        sig,
                    });
                    msgs.push(items[i].msg.as_slice());
                }
            }
        }
        run_checks(gpu, &checks, &msgs, &mut verdicts)?;
        Ok(verdicts)
    };
    run().map_err(Failure::at_start)
}

#[cfg(test)]
mod tests {
    //! This file's stages against blst: the points programs on keys and
    //! signatures with every flag and hostile x, `bls_hash` on messages of
    //! every length near SHA-256's block boundaries. End to end against the
    //! CPU path: tests/bls.rs and the CLI's tests.

    use blst::min_pk::{PublicKey, SecretKey, Signature};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::ops::bls::{decode_key, decode_sig};

    /// The secret key 1: its public key is G1's generator, its signature
    /// of m is H(m).
    fn sk_one() -> SecretKey {
        let mut one = [0u8; 32];
        one[31] = 1;
        SecretKey::from_bytes(&one).expect("sk = 1")
    }

    #[test]
    fn minus_g1_is_blst_generator_negated() {
        let g = sk_one().sk_to_pk().serialize();
        assert_eq!(bigint::from_be::<12>(&g[..48]).to_vec(), minus_g1()[..12]);
        let p: Limbs<12> = bigint::from_hex(BLS12_381_P);
        let y = bigint::from_be::<12>(&g[48..]);
        assert_eq!(
            bigint::add_mod(&y, &minus_g1()[12..].try_into().expect("12"), &p),
            [0; 12]
        );
    }

    /// blst's uncompressed coordinates as the kernels write them.
    fn affine_words(uncompressed: &[u8]) -> Vec<u32> {
        // blst serializes G2 coordinates c1 first.
        let coords: Vec<&[u8]> = uncompressed.chunks_exact(48).collect();
        let order: Vec<&[u8]> = if coords.len() == 2 {
            coords
        } else {
            vec![coords[1], coords[0], coords[3], coords[2]]
        };
        order.iter().flat_map(|c| bigint::from_be::<12>(c)).collect()
    }

    #[test]
    fn points_kernel_matches_blst() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(48_96);
        let mut keys: Vec<[u8; PK_LEN]> = Vec::new();
        let mut sigs: Vec<[u8; SIG_LEN]> = Vec::new();
        for n in 0..48u32 {
            let sk = SecretKey::key_gen(&rng.random::<[u8; 32]>(), &[]).expect("key");
            let (mut k, mut s) = (sk.sk_to_pk().compress(), sk.sign(&n.to_le_bytes(), DST, &[]).compress());
            match n % 8 {
                // Random x below 2^380, either sign: mostly off the curve
                // or outside the subgroup.
                2 | 3 => {
                    rng.fill(&mut k[1..]);
                    rng.fill(&mut s[1..]);
                    k[0] = 0x80 | (k[0] & 0x20) | (rng.random::<u8>() & 0x0f);
                    s[0] = 0x80 | (s[0] & 0x20) | (rng.random::<u8>() & 0x0f);
                    s[48] &= 0x0f;
                }
                // Flags: no compression bit, infinity with junk or with
                // the sign, the canonical infinity.
                4 => {
                    k[0] &= 0x7f;
                    s[0] = 0xc0;
                    s[1..].fill(0);
                }
                5 => {
                    k[0] = 0xe0;
                    k[1..].fill(0);
                    s[0] |= 0x40;
                }
                6 => {
                    k = [0; PK_LEN];
                    k[0] = 0xc0;
                    // x = p (not below p) for the signature's c0.
                    s[48..].copy_from_slice(&bigint::to_be::<12>(&bigint::from_hex::<12>(BLS12_381_P)));
                }
                7 => {
                    // G1's x = 0 (order 3), and a sign flip.
                    k = [0; PK_LEN];
                    k[0] = 0x80 | (n as u8 & 1) << 5;
                    s[0] ^= 0x20;
                }
                _ => {}
            }
            keys.push(k);
            sigs.push(s);
        }
        let got_keys = decode_keys(&gpu, keys.iter()).expect("keys");
        let got_sigs = decode_sigs(&gpu, sigs.iter()).expect("sigs");
        assert_eq!((got_keys.len(), got_sigs.len()), (keys.len(), sigs.len()));
        for (n, (k, got)) in keys.iter().zip(&got_keys).enumerate() {
            let want = decode_key(k).map(|pk| affine_words(&pk.serialize()));
            assert_eq!(*got, want, "key {n}");
        }
        for (n, (s, got)) in sigs.iter().zip(&got_sigs).enumerate() {
            let want = decode_sig(s).map(|sig| {
                let bytes = sig.serialize();
                (bytes[0] & 0x40 == 0).then(|| affine_words(&bytes))
            });
            assert_eq!(*got, want, "signature {n}");
        }
        let seen: std::collections::HashSet<Reason> = got_keys
            .iter()
            .filter_map(|d| d.clone().err())
            .chain(got_sigs.iter().filter_map(|d| d.clone().err()))
            .collect();
        for reason in [
            Reason::MalformedKey,
            Reason::IdentityKey,
            Reason::KeyNotInSubgroup,
            Reason::MalformedSignature,
            Reason::SignatureNotInSubgroup,
        ] {
            assert!(seen.contains(&reason), "{reason:?} not covered");
        }
        assert!(
            got_sigs.iter().any(|s| matches!(s, Ok(None))),
            "infinity signature covered"
        );
        // Untouched: PublicKey and Signature decode here as on the CPU.
        assert!(PublicKey::uncompress(&keys[0]).is_ok() && Signature::uncompress(&sigs[0]).is_ok());
    }

    /// `combine` (both passes of `bls_sum_g1` and `bls_sum_g2`) against
    /// scalar arithmetic: sum [r_i] (sk_i G) is (sum r_i sk_i) G, and
    /// likewise for signatures of one message, so every expected sum is
    /// blst's key or signature of the secret key sum r_i sk_i mod q.
    /// Scalars at the edges (1, 2, 2^32 - 1, 2^32, 2^64 - 1), groups of
    /// one, empty groups, infinity among the terms, a key with its
    /// negation (a sum at infinity), a group of forty (two rounds of sums);
    /// then again with seven terms' scalars of 256 bits (the 256-bit
    /// program: random, 2^256 - 1, q - 1, q, 0).
    #[test]
    fn sums_kernel_matches_scalar_arithmetic() {
        use ark_bls12_381::Fr;
        use ark_ff::{BigInteger, PrimeField};
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(64);
        let msg = b"sums";
        let mut sks: Vec<Fr> = (0..54)
            .map(|_| Fr::from_be_bytes_mod_order(&rng.random::<[u8; 32]>()))
            .collect();
        // Term 5 is term 4's negation, with the same scalar.
        sks[5] = -sks[4];
        let mut narrow: Vec<Scalar> = [1, 2, u64::from(u32::MAX), 1 << 32, 7, 7, u64::MAX]
            .into_iter()
            .map(scalar64)
            .collect();
        narrow.extend((7..14).map(|_| scalar64(rng.random::<u64>() | 1)));
        // Forty terms with s = 1: sums over two rounds (SUM_RANGE 16).
        narrow.extend([ONE; 40]);
        let mut wide = narrow.clone();
        let q: Scalar = bigint::from_ark(Fr::MODULUS);
        let mut q_minus_one = q;
        q_minus_one[0] -= 1;
        // Term 8 is at infinity: its scalar is not used.
        for (k, s) in [
            rng.random(),
            rng.random(),
            [u32::MAX; 8],
            q_minus_one,
            q,
            rng.random(),
            [0; 8],
        ]
        .into_iter()
        .enumerate()
        {
            wide[7 + k] = s;
        }
        let as_fr =
            |s: &Scalar| Fr::from_le_bytes_mod_order(&s.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>());
        let secret = |x: Fr| SecretKey::from_bytes(&x.into_bigint().to_bytes_be()).expect("a nonzero scalar below q");
        let bounds = [0usize, 1, 4, 4, 6, 9, 14, 54];
        for (group, scalars) in [
            (Group::G1, &narrow),
            (Group::G2, &narrow),
            (Group::G1, &wide),
            (Group::G2, &wide),
        ] {
            let point = |x: Fr| match group {
                Group::G1 => affine_words(&secret(x).sk_to_pk().serialize()),
                Group::G2 => affine_words(&secret(x).sign(msg, DST, &[]).serialize()),
            };
            let points: Vec<Vec<u32>> = sks.iter().map(|&x| point(x)).collect();
            // Term 8 is the point at infinity (a signature may be).
            let terms: Vec<(Option<&[u32]>, Scalar)> = points
                .iter()
                .zip(scalars)
                .enumerate()
                .map(|(i, (p, &r))| ((i != 8).then_some(p.as_slice()), r))
                .collect();
            let got = combine(&gpu, group, &terms, &bounds).expect("bls_sum");
            assert_eq!(got.len(), bounds.len() - 1);
            for (k, w) in bounds.windows(2).enumerate() {
                let sum: Fr = (w[0]..w[1])
                    .filter(|&i| i != 8)
                    .map(|i| sks[i] * as_fr(&scalars[i]))
                    .sum();
                let want = (sum != Fr::from(0u64)).then(|| point(sum));
                assert_eq!(got[k], want, "group {k} of G{}", group.coordinate_words() / 12);
            }
            assert_eq!(got[3], None, "a key and its negation");
        }
    }

    #[test]
    fn hash_kernel_matches_blst() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(9380);
        // Lengths around b_0's block boundaries (Z_pad, message, 47-byte
        // tail, 9 bytes of padding), odd ones (unaligned offsets after
        // them), and longer ones: 100,000 bytes take 1,564 blocks, which
        // byte-by-byte reads would not fit in llvmpipe's loop limit.
        let mut msgs: Vec<Vec<u8>> = [0usize, 1, 7, 8, 9, 31, 32, 33, 64, 72, 73, 100, 137, 200, 1000, 100_000]
            .iter()
            .map(|&len| (0..len).map(|_| rng.random()).collect())
            .collect();
        msgs.extend((0..9).map(|_| rng.random::<[u8; 32]>().to_vec()));
        let got = hash_to_g2(&gpu, msgs.iter().map(Vec::as_slice)).expect("bls_hash");
        assert_eq!(got.len(), msgs.len());
        let sk = sk_one();
        for (n, (m, got)) in msgs.iter().zip(&got).enumerate() {
            let bytes = sk.sign(m, DST, &[]).serialize();
            assert_eq!(
                got.as_deref(),
                Some(&affine_words(&bytes)[..]),
                "message {n} ({} bytes)",
                m.len()
            );
        }
    }
}
