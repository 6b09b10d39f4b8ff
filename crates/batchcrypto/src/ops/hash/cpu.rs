//! The CPU path, on every core in runs of up to [`RUN`] items per task (so
//! that short messages, a few hundred nanoseconds each, are not dominated
//! by scheduling).
//!
//! Keccak-256 and SHA3-256 take the fastest route on this CPU
//! ([`KeccakPath`], chosen once per process by timing each on the same
//! messages): one message at a time through `keccak-asm` (CRYPTOGAMS'
//! assembly, as in OpenSSL), or two (NEON), four (AVX2) or eight
//! (AVX-512) at a time through the multi-buffer sponge of
//! `batchcrypto-simd`, messages grouped by block count so that all lanes
//! absorb the same number of blocks. No
//! route wins everywhere: on an AMD Zen 1, which executes each 256-bit
//! operation as two 128-bit halves, the four lanes only match the `sha3`
//! crate while the assembly is 1.2x faster; on a Xeon with AVX-512 the
//! eight lanes are 5.4-7.5x the `sha3` crate per core on 32-byte messages
//! from 4,096 on (4.8-6.3x in Merkle trees; docs/bench/xeon-2core-2026-12-03b
//! and -03c).
//!
//! SHA-256 likewise ([`Sha256Path`]): the `sha2` oracle one message at a
//! time (on the SHA extensions where the CPU has them); where it has them,
//! two messages' rounds interleaved on them (`batchcrypto-simd`: one
//! message leaves the unit waiting on each instruction's latency; 1.3-1.5x
//! the `sha2` crate on the Zen 1 here; for 64-byte messages, whose shared
//! padding block skips the schedule, 0.90-0.94x on the AVX-512 Xeon and
//! 0.95-1.22x on a Zen 4, 0.73-0.86x there before the skip); or
//! sixteen (AVX-512), eight (AVX2) or four (NEON) messages in the 32-bit
//! lanes of vector registers, every round on the vector units, which a
//! core has more of than SHA units (on the Xeon 1.4-1.9x the `sha2` crate on SHA-NI
//! per thread for 64-byte messages: docs/bench/xeon-2core-2026-12-03c).
//!
//! BLAKE2b-256 goes through `blake2b_simd`'s `hash_many`, four messages
//! at a time in AVX2 lanes whatever their lengths (one at a time without
//! AVX2); BLAKE3 through its authors' crate one message at a time (its
//! SIMD spreads a long message's chunks over lanes; no public call hashes
//! several short messages together).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use batchcrypto_simd::{
    Hash256, Level, blocks, sha_ni_detected, sha256_blocks, sha256_lanes, sha256_x, sponge256_lanes,
};

use super::{Alg, Digest, oracle};
use crate::batch::FlatBytes;
use crate::cores;

/// Most items per rayon task.
const RUN: usize = 2048;

/// Digests of every item of `msgs`, in order ([`cores`]).
pub(crate) fn hash(alg: Alg, msgs: &FlatBytes) -> Vec<Digest> {
    let mut out = vec![[0u8; 32]; msgs.len()];
    // About four tasks per thread, 16 to RUN items each (16 short
    // messages take about 10 µs: more than a task costs to schedule).
    let run = msgs.len().div_ceil(cores::threads() * 4).clamp(16, RUN);
    cores::for_chunks_mut(&mut out, run, |start, chunk| {
        digest_into(alg, |i| msgs.get(start + i), chunk);
    });
    out
}

/// How Keccak-256 and SHA3-256 run on the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeccakPath {
    /// One message at a time, `keccak-asm`.
    Asm,
    /// [`Level::lanes`] messages at a time (2, 4 or 8), `batchcrypto-simd`
    /// at this level (the few left over in a group of equal block counts
    /// through `keccak-asm`, or in one more lanes call where that is
    /// cheaper: `pad_from`).
    Lanes(Level),
}

impl KeccakPath {
    /// Every route this CPU can run (the tests check each).
    pub fn available() -> Vec<KeccakPath> {
        std::iter::once(KeccakPath::Asm)
            .chain(Level::available().into_iter().map(KeccakPath::Lanes))
            .collect()
    }

    /// The route this process uses: the fastest of the assembly and each
    /// SIMD level (AVX-512 is not always faster than AVX2: some CPUs slow
    /// their clock for it), timed once on the first call (about a
    /// millisecond).
    pub fn chosen() -> KeccakPath {
        KeccakPath::timed().0
    }

    /// [`KeccakPath::chosen`] and the fewest messages left over worth a
    /// lanes call of their own (`pad_from`).
    fn timed() -> (KeccakPath, usize) {
        static CHOSEN: OnceLock<(KeccakPath, usize)> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            // Portable lanes are scalar permutations one after another:
            // never faster than the assembly.
            let routes: Vec<KeccakPath> = KeccakPath::available()
                .into_iter()
                .filter(|p| *p != KeccakPath::Lanes(Level::Portable))
                .collect();
            KeccakPath::fastest(&routes)
        })
    }

    /// Of `routes` (the assembly first), the one fastest on 64 messages of
    /// 32 bytes (the commonest item: a key, a hash, a pair of leaves is
    /// 64), with its `pad_from`.
    fn fastest(routes: &[KeccakPath]) -> (KeccakPath, usize) {
        let (path, ratio) = fastest(routes, 32, |path, msgs, out| {
            digest_on(
                Route::new(path, Sha256Path::Sha2),
                Alg::Keccak256,
                |i| msgs[i].as_slice(),
                out,
            );
        })
        .unwrap_or((KeccakPath::Asm, 1.0));
        (path, pad_from(path.width(), ratio))
    }

    /// Messages per call: the level's lanes, or 1 for the assembly.
    fn width(self) -> usize {
        match self {
            KeccakPath::Asm => 1,
            KeccakPath::Lanes(level) => level.lanes(),
        }
    }

    /// A short name for reports: `keccak-asm`, `avx2 x4`, `avx512 x8`.
    pub fn name(&self) -> String {
        match self {
            KeccakPath::Asm => "keccak-asm".to_string(),
            KeccakPath::Lanes(level) => format!("{} x{}", level.name(), level.lanes()),
        }
    }
}

/// How SHA-256 runs on the CPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sha256Path {
    /// One message at a time, the `sha2` crate (on the SHA extensions
    /// where the CPU has them).
    Sha2,
    /// Two messages' rounds interleaved on the SHA extensions,
    /// `batchcrypto-simd` (only where the CPU has them).
    ShaNiPairs,
    /// [`Level::sha256_lanes`] messages at a time (16 AVX-512, 8 AVX2, 4
    /// NEON) in
    /// the 32-bit lanes of vector registers, `batchcrypto-simd` (the few
    /// left over in a group of equal block counts through `sha2`, or in
    /// one more lanes call where that is cheaper: `pad_from`).
    Lanes(Level),
}

impl Sha256Path {
    /// Every route this CPU can run (the tests check each).
    pub fn available() -> Vec<Sha256Path> {
        std::iter::once(Sha256Path::Sha2)
            .chain(sha_ni_detected().then_some(Sha256Path::ShaNiPairs))
            .chain(
                Level::available()
                    .into_iter()
                    .filter(|l| l.sha256_lanes() > 1)
                    .map(Sha256Path::Lanes),
            )
            .collect()
    }

    /// The route this process uses: the faster on 64 messages of 64 bytes
    /// (two 32-byte nodes), timed once on the first call.
    pub fn chosen() -> Sha256Path {
        Sha256Path::timed().0
    }

    /// [`Sha256Path::chosen`] and the fewest messages left over worth a
    /// lanes call of their own (`pad_from`).
    fn timed() -> (Sha256Path, usize) {
        static CHOSEN: OnceLock<(Sha256Path, usize)> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let run = |path, msgs: &[Vec<u8>], out: &mut [Digest]| {
                digest_on(
                    Route::new(KeccakPath::Asm, path),
                    Alg::Sha256,
                    |i| msgs[i].as_slice(),
                    out,
                );
            };
            let (path, ratio) = fastest(&Sha256Path::available(), 64, run).unwrap_or((Sha256Path::Sha2, 1.0));
            // Padding must pay for one-block messages too (a Bitcoin tree's
            // second hashes are 32 bytes), where the lanes gain less than
            // at 64 bytes, whose padding block they compute once (on the
            // Xeon 1.7x `sha2` against 2.1x): the worse ratio decides.
            let one_block = match path {
                Sha256Path::Sha2 => 1.0,
                _ => fastest(&[Sha256Path::Sha2, path], 32, run).map_or(1.0, |(_, r)| r),
            };
            (path, pad_from(path.width(), ratio.max(one_block)))
        })
    }

    /// Messages per call.
    fn width(self) -> usize {
        match self {
            Sha256Path::Sha2 => 1,
            Sha256Path::ShaNiPairs => batchcrypto_simd::SHA256_LANES,
            Sha256Path::Lanes(level) => level.sha256_lanes(),
        }
    }

    /// A short name for reports: `sha2`, `sha-ni x2`, `avx512 x16`.
    pub fn name(&self) -> String {
        match self {
            Sha256Path::Sha2 => "sha2".to_string(),
            Sha256Path::ShaNiPairs => "sha-ni x2".to_string(),
            Sha256Path::Lanes(level) => format!("{} x{}", level.name(), level.sha256_lanes()),
        }
    }
}

/// The routes one call takes: Keccak's and SHA-256's, each with the fewest
/// messages left over in a group of one block count that get a lanes call
/// of their own ([`interleaved`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Route {
    keccak: KeccakPath,
    sha256: Sha256Path,
    keccak_pad_from: usize,
    sha256_pad_from: usize,
}

impl Route {
    /// The routes, left-over messages one at a time.
    pub(crate) fn new(keccak: KeccakPath, sha256: Sha256Path) -> Route {
        Route {
            keccak,
            sha256,
            keccak_pad_from: usize::MAX,
            sha256_pad_from: usize::MAX,
        }
    }

    /// The routes this process chose ([`KeccakPath::chosen`],
    /// [`Sha256Path::chosen`]) with their measured `pad_from`.
    pub(crate) fn chosen() -> Route {
        let ((keccak, keccak_pad_from), (sha256, sha256_pad_from)) = (KeccakPath::timed(), Sha256Path::timed());
        Route {
            keccak,
            sha256,
            keccak_pad_from,
            sha256_pad_from,
        }
    }

    /// The fewest messages of `alg` of one block count that get a lanes
    /// call: fewer are hashed one at a time (`usize::MAX` on the
    /// one-at-a-time routes).
    pub(crate) fn lanes_from(self, alg: Alg) -> usize {
        let (width, pad_from) = match alg {
            Alg::Keccak256 | Alg::Sha3_256 => (self.keccak.width(), self.keccak_pad_from),
            Alg::Sha256 => (self.sha256.width(), self.sha256_pad_from),
            // Lanes of their own crates, whatever the route.
            Alg::Blake2b256 | Alg::Blake3 => (1, usize::MAX),
        };
        if width > 1 { width.min(pad_from) } else { usize::MAX }
    }
}

/// The fewest messages left over (fewer than a lanes call takes, all of
/// one block count) that a lanes call of `width` messages hashes faster
/// than the one-at-a-time route would, the other lanes repeating a
/// message: the call costs `width` lanes whatever their use, so it pays
/// from `width` x `ratio` messages on, `ratio` being the lanes' time per
/// message over the one-at-a-time route's (measured when the route is
/// chosen; on the AVX-512 Xeon about 0.2 for Keccak's 8 lanes, from 2
/// messages on, and 0.6 for SHA-256's 16, from 10). `usize::MAX`: never.
fn pad_from(width: usize, ratio: f64) -> usize {
    if width <= 1 || !(ratio > 0.0 && ratio < 1.0) {
        return usize::MAX;
    }
    (width as f64 * ratio).floor() as usize + 1
}

/// Of `routes`, the one whose `run` over 64 messages of `len` bytes takes
/// least time, and its time over the first route's: each timed seven
/// times, in turn, the best time of each compared (about a millisecond in
/// all); the first on a tie.
fn fastest<P: Copy>(routes: &[P], len: usize, run: impl Fn(P, &[Vec<u8>], &mut [Digest])) -> Option<(P, f64)> {
    let msgs: Vec<Vec<u8>> = (0u8..64).map(|i| vec![i; len]).collect();
    let mut out = [[0u8; 32]; 64];
    let mut best = vec![Duration::MAX; routes.len()];
    for _ in 0..7 {
        for (path, best) in routes.iter().zip(&mut best) {
            let start = Instant::now();
            run(*path, &msgs, &mut out);
            *best = (*best).min(start.elapsed());
        }
    }
    let first = best.first().copied()?;
    (0..routes.len())
        .min_by_key(|&i| best[i])
        .map(|i| (routes[i], best[i].as_secs_f64() / first.as_secs_f64().max(1e-12)))
}

/// The Keccak sponges the multi-buffer path has.
fn sponge(alg: Alg) -> Option<Hash256> {
    match alg {
        Alg::Keccak256 => Some(Hash256::Keccak256),
        Alg::Sha3_256 => Some(Hash256::Sha3_256),
        Alg::Sha256 | Alg::Blake2b256 | Alg::Blake3 => None,
    }
}

/// One digest through `keccak-asm` (on other architectures than x86-64
/// and AArch64, which it has no assembly for: the `sha3` oracle).
fn asm(hash: Hash256, msg: &[u8]) -> Digest {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    match hash {
        Hash256::Keccak256 => keccak_asm::Keccak256::digest(msg).into(),
        Hash256::Sha3_256 => keccak_asm::Sha3_256::digest(msg).into(),
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    match hash {
        Hash256::Keccak256 => oracle::digest(Alg::Keccak256, msg),
        Hash256::Sha3_256 => oracle::digest(Alg::Sha3_256, msg),
    }
}

/// Whether `keccak-asm` has assembly for this target (elsewhere [`asm`] is
/// the oracle).
pub(crate) const ASM: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));

/// Every message through `keccak-asm`, one at a time, digests discarded:
/// the bench's `alt_1t` column for Keccak-256 and SHA3-256, what a user
/// would otherwise write (SHA-256 has none: `sha2` is the oracle).
pub(crate) fn asm_each(alg: Alg, msgs: &FlatBytes) {
    if let Some(hash) = sponge(alg) {
        for i in 0..msgs.len() {
            std::hint::black_box(asm(hash, msgs.get(i)));
        }
    }
}

/// `out[i]` = the digest of message `msg(i)` for every `i` of `out`, on
/// the calling thread, by the chosen routes ([`Route::chosen`]).
pub(crate) fn digest_into<M: AsRef<[u8]>>(alg: Alg, msg: impl Fn(usize) -> M, out: &mut [Digest]) {
    digest_on(Route::chosen(), alg, msg, out);
}

/// [`digest_into`] by the given routes (`msg` may build its message: on
/// the interleaved routes it is called twice per item, for the length and
/// for the bytes).
pub(crate) fn digest_on<M: AsRef<[u8]>>(route: Route, alg: Alg, msg: impl Fn(usize) -> M, out: &mut [Digest]) {
    match alg {
        Alg::Blake2b256 => return blake2b_many(msg, out),
        Alg::Blake3 => {
            for (i, d) in out.iter_mut().enumerate() {
                *d = blake3::hash(msg(i).as_ref()).into();
            }
            return;
        }
        Alg::Keccak256 | Alg::Sha3_256 | Alg::Sha256 => {}
    }
    match (sponge(alg), route.keccak) {
        (Some(hash), KeccakPath::Lanes(level)) => {
            let pad = route.keccak_pad_from;
            match level.lanes() {
                8 => sponge_lanes::<8, M>(level, hash, msg, out, pad),
                2 => sponge_lanes::<2, M>(level, hash, msg, out, pad),
                _ => sponge_lanes::<4, M>(level, hash, msg, out, pad),
            }
        }
        (Some(hash), KeccakPath::Asm) => {
            for (i, d) in out.iter_mut().enumerate() {
                *d = asm(hash, msg(i).as_ref());
            }
        }
        (None, _) => {
            let pad = route.sha256_pad_from;
            match route.sha256 {
                Sha256Path::ShaNiPairs => interleaved(out, msg, sha256_blocks, sha256_x, sha2_one, pad),
                Sha256Path::Lanes(level) => match level.sha256_lanes() {
                    16 => sha256_in_lanes::<16, M>(level, msg, out, pad),
                    4 => sha256_in_lanes::<4, M>(level, msg, out, pad),
                    _ => sha256_in_lanes::<8, M>(level, msg, out, pad),
                },
                Sha256Path::Sha2 => {
                    for (i, d) in out.iter_mut().enumerate() {
                        *d = sha2_one(msg(i).as_ref());
                    }
                }
            }
        }
    }
}

/// Messages per [`blake2b_many`] call: enough for the AVX2 lanes to stay
/// full across different lengths.
const BLAKE2B_RUN: usize = 16;

/// The messages `blake2b_simd`'s `hash_many` hashes at once (AVX2's four
/// 64-bit lanes): fewer go one at a time.
const BLAKE2B_LANES: usize = 4;

/// `out[i]` = the BLAKE2b-256 digest of `msg(i)`, by `blake2b_simd`'s
/// `hash_many` ([`BLAKE2B_RUN`] messages a call: four at a time in AVX2
/// lanes, whatever their lengths; one at a time without AVX2), or for
/// fewer than [`BLAKE2B_LANES`] by the oracle crate, faster one at a time
/// (on the Zen 4 here 0.11 µs a 32-byte message against `blake2b_simd`'s
/// 0.17, whose call also builds its parameters: a one-message call took
/// 1.8 times the oracle's).
fn blake2b_many<M: AsRef<[u8]>>(msg: impl Fn(usize) -> M, out: &mut [Digest]) {
    if out.len() < BLAKE2B_LANES {
        for (i, d) in out.iter_mut().enumerate() {
            *d = oracle::digest(Alg::Blake2b256, msg(i).as_ref());
        }
        return;
    }
    let mut params = blake2b_simd::Params::new();
    params.hash_length(32);
    for (run, digests) in out.chunks_mut(BLAKE2B_RUN).enumerate() {
        let owned: Vec<M> = (0..digests.len()).map(|k| msg(run * BLAKE2B_RUN + k)).collect();
        let mut jobs: Vec<blake2b_simd::many::HashManyJob<'_>> = owned
            .iter()
            .map(|m| blake2b_simd::many::HashManyJob::new(&params, m.as_ref()))
            .collect();
        blake2b_simd::many::hash_many(jobs.iter_mut());
        for (d, job) in digests.iter_mut().zip(&jobs) {
            d.copy_from_slice(job.to_hash().as_bytes());
        }
    }
}

/// One SHA-256 by the oracle crate (`sha2`).
fn sha2_one(msg: &[u8]) -> Digest {
    oracle::digest(Alg::Sha256, msg)
}

/// [`digest_on`]'s Keccak sponges in `L` lanes at `level` (its width).
fn sponge_lanes<const L: usize, M: AsRef<[u8]>>(
    level: Level,
    hash: Hash256,
    msg: impl Fn(usize) -> M,
    out: &mut [Digest],
    pad_from: usize,
) {
    let lanes = |m: [&[u8]; L]| Some(sponge256_lanes(level, hash, m));
    interleaved(out, msg, blocks, lanes, |m| asm(hash, m), pad_from);
}

/// [`digest_on`]'s SHA-256 in `L` lanes at `level` (its width).
fn sha256_in_lanes<const L: usize, M: AsRef<[u8]>>(
    level: Level,
    msg: impl Fn(usize) -> M,
    out: &mut [Digest],
    pad_from: usize,
) {
    let lanes = |m: [&[u8]; L]| sha256_lanes(level, m);
    interleaved(out, msg, sha256_blocks, lanes, sha2_one, pad_from);
}

/// `out[i]` = the digest of `msg(i)`, `L` messages of one block count at
/// a time by `lanes` (which may decline: `None`), the rest by `single`;
/// but `pad_from` or more left over in a group take one more lanes call,
/// its spare lanes repeating the group's last message (`pad_from`).
/// Messages are grouped by block count first (a stable sort), unless they
/// all have one, as in most batches.
fn interleaved<const L: usize, M: AsRef<[u8]>>(
    out: &mut [Digest],
    msg: impl Fn(usize) -> M,
    blocks: fn(usize) -> usize,
    lanes: impl Fn([&[u8]; L]) -> Option<[Digest; L]>,
    single: impl Fn(&[u8]) -> Digest,
    pad_from: usize,
) {
    // Items `run` (of one block count) together.
    let together = |out: &mut [Digest], run: [usize; L]| {
        let owned: [M; L] = run.map(&msg);
        match lanes(std::array::from_fn(|l| owned[l].as_ref())) {
            Some(digests) => run.into_iter().zip(digests).for_each(|(i, d)| out[i] = d),
            None => run
                .into_iter()
                .zip(&owned)
                .for_each(|(i, m)| out[i] = single(m.as_ref())),
        }
    };
    // One group of `len` items of one block count, its k-th item at
    // `at.index(k)`: runs of L, then the rest in one padded lanes call or
    // one at a time.
    let group = |out: &mut [Digest], len: usize, at: Order<'_>| {
        let whole = len - len % L;
        for start in (0..whole).step_by(L) {
            together(out, std::array::from_fn(|l| at.index(start + l)));
        }
        let left = len - whole;
        if left > 0 && left >= pad_from {
            // A repeated message writes its own digest again.
            together(out, std::array::from_fn(|l| at.index(whole + l.min(left - 1))));
            return;
        }
        for k in whole..len {
            let i = at.index(k);
            out[i] = single(msg(i).as_ref());
        }
    };
    let count = |i: usize| blocks(msg(i).as_ref().len());
    let one_count = || {
        let first = count(0);
        (1..out.len()).all(|i| count(i) == first)
    };
    // Too few for any lanes call (their blocks not even counted: a Merkle
    // level's pairs are built by `msg`), or one block count (most
    // batches): in order, no sort.
    if (out.len() < L && out.len() < pad_from) || one_count() {
        group(out, out.len(), Order::InPlace);
        return;
    }
    let mut order: Vec<(usize, usize)> = (0..out.len()).map(|i| (count(i), i)).collect();
    order.sort_by_key(|&(b, _)| b);
    for run in order.chunk_by(|a, b| a.0 == b.0) {
        group(out, run.len(), Order::Sorted(run));
    }
}

/// Where a group's items are in [`interleaved`]'s output: in place, or
/// listed as (block count, index) pairs.
#[derive(Clone, Copy)]
enum Order<'a> {
    InPlace,
    Sorted(&'a [(usize, usize)]),
}

impl Order<'_> {
    /// The output index of the group's `k`-th item.
    fn index(self, k: usize) -> usize {
        match self {
            Order::InPlace => k,
            Order::Sorted(run) => run[k].1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check_every_route(alg: Alg, msgs: &[Vec<u8>]) {
        let expected: Vec<Digest> = msgs.iter().map(|m| oracle::digest(alg, m)).collect();
        let sha256 = Sha256Path::available();
        let lanes = Level::available().iter().filter(|l| l.sha256_lanes() > 1).count();
        assert_eq!(sha256.len(), 1 + usize::from(sha_ni_detected()) + lanes);
        for keccak in KeccakPath::available() {
            for &sha256 in &sha256 {
                // Left-over messages one at a time, and every left-over
                // group padded into a lanes call.
                let padded = Route {
                    keccak_pad_from: 1,
                    sha256_pad_from: 1,
                    ..Route::new(keccak, sha256)
                };
                for route in [Route::new(keccak, sha256), padded] {
                    let mut out = vec![[0u8; 32]; msgs.len()];
                    digest_on(route, alg, |i| msgs[i].as_slice(), &mut out);
                    for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
                        assert_eq!(
                            got,
                            want,
                            "{alg} by {} / {} (pad from {}) item {i} of length {}",
                            keccak.name(),
                            sha256.name(),
                            route.keccak_pad_from,
                            msgs[i].len()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn left_over_messages_take_a_lanes_call_where_it_is_cheaper() {
        // 8 lanes at a fifth of the one-at-a-time time per message: a call
        // costs 1.6 messages' time, so 2 left over pay for it.
        assert_eq!(pad_from(8, 0.2), 2);
        assert_eq!(pad_from(16, 0.55), 9);
        assert_eq!(pad_from(4, 0.99), 4);
        // Lanes no faster, one message per call, or no measurement: never.
        for (width, ratio) in [(8, 1.0), (8, 1.3), (1, 0.5), (16, f64::NAN), (16, 0.0)] {
            assert_eq!(pad_from(width, ratio), usize::MAX, "{width} {ratio}");
        }
        let chosen = Route::chosen();
        eprintln!(
            "here: {} pads from {}, {} from {}",
            chosen.keccak.name(),
            chosen.keccak_pad_from,
            chosen.sha256.name(),
            chosen.sha256_pad_from
        );
    }

    #[test]
    fn the_chosen_route_is_one_this_cpu_has() {
        let chosen = KeccakPath::chosen();
        assert!(KeccakPath::available().contains(&chosen));
        eprintln!("routes here: {:?}; chosen: {}", KeccakPath::available(), chosen.name());
        let chosen = Sha256Path::chosen();
        assert!(Sha256Path::available().contains(&chosen));
        eprintln!(
            "SHA-256 routes here: {:?}; chosen: {}",
            Sha256Path::available(),
            chosen.name()
        );
    }

    #[test]
    fn every_route_gives_the_oracles_digests_around_the_rate() {
        // Every length from 0 to three blocks and a little more, several
        // messages per length (full groups of four or eight, and remainders).
        let msgs: Vec<Vec<u8>> = (0..3 * 136 + 10)
            .flat_map(|len| (0..5u8).map(move |k| (0..len).map(|j| (j as u8).wrapping_mul(31) ^ k).collect()))
            .collect();
        for alg in Alg::ALL {
            check_every_route(alg, &msgs);
        }
    }

    #[test]
    fn every_route_gives_the_oracles_digests_when_every_length_is_one() {
        // The path without grouping: one block count throughout, counts
        // that leave remainders, and none at all.
        for (len, count) in [
            (32, 7),
            (64, 9),
            (32, 17),
            (135, 4),
            (136, 5),
            (0, 3),
            (200, 1),
            (32, 0),
        ] {
            let msgs: Vec<Vec<u8>> = (0..count).map(|k| vec![k as u8 ^ 0x5a; len]).collect();
            for alg in Alg::ALL {
                check_every_route(alg, &msgs);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        /// Random batches of random lengths 0..10,000, in random order.
        #[test]
        fn every_route_gives_the_oracles_digests_on_random_batches(
            lens in proptest::collection::vec(0usize..10_000, 0..24),
            seed in any::<u8>(),
        ) {
            let msgs: Vec<Vec<u8>> = lens
                .iter()
                .enumerate()
                .map(|(i, &n)| (0..n).map(|j| (j as u8) ^ seed ^ (i as u8)).collect())
                .collect();
            for alg in Alg::ALL {
                check_every_route(alg, &msgs);
            }
        }
    }
}
