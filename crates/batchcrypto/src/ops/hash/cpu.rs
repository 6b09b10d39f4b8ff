//! The CPU path, on every core in runs of up to [`RUN`] items per task (so
//! that short messages, a few hundred nanoseconds each, are not dominated
//! by scheduling).
//!
//! Keccak-256 and SHA3-256 take the fastest route on this CPU
//! ([`KeccakPath`], chosen once per process by timing each on the same
//! messages): one message at a time through `keccak-asm` (CRYPTOGAMS'
//! assembly, as in OpenSSL), or four (AVX2) or eight (AVX-512) at a time
//! through the multi-buffer sponge of `batchcrypto-simd`, messages grouped
//! by block count so that all lanes absorb the same number of blocks. No
//! route wins everywhere: on an AMD Zen 1, which executes each 256-bit
//! operation as two 128-bit halves, the four lanes only match the `sha3`
//! crate while the assembly is 1.2x faster; on a Xeon with AVX-512 the
//! eight lanes are 4.1-5.7x the `sha3` crate per core on 32-byte messages
//! (4.2-6.0x in Merkle trees; docs/bench/xeon-2core-2026-12-03b).
//!
//! SHA-256 likewise ([`Sha256Path`]): the `sha2` oracle one message at a
//! time (on the SHA extensions where the CPU has them); where it has them,
//! two messages' rounds interleaved on them (`batchcrypto-simd`: one
//! message leaves the unit waiting on each instruction's latency; 1.3-1.5x
//! the `sha2` crate on the Zen 1 here, 0.86x on the AVX-512 Xeon); or
//! sixteen (AVX-512) or eight (AVX2) messages in the 32-bit lanes of
//! vector registers, every round on the vector units, which a core has
//! more of than SHA units (on the Xeon 1.6-1.8x the `sha2` crate on SHA-NI
//! per thread for 64-byte messages).

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
    /// [`Level::lanes`] messages at a time (4 or 8), `batchcrypto-simd`
    /// at this level (the few left over in a group of equal block counts
    /// through `keccak-asm`).
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
        static CHOSEN: OnceLock<KeccakPath> = OnceLock::new();
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

    /// Of `routes`, the one fastest on 64 messages of 32 bytes (the
    /// commonest item: a key, a hash, a pair of leaves is 64).
    fn fastest(routes: &[KeccakPath]) -> KeccakPath {
        fastest(routes, 32, |path, msgs, out| {
            digest_on(
                Route::new(path, Sha256Path::Sha2),
                Alg::Keccak256,
                |i| msgs[i].as_slice(),
                out,
            );
        })
        .unwrap_or(KeccakPath::Asm)
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
    /// [`Level::sha256_lanes`] messages at a time (16 AVX-512, 8 AVX2) in
    /// the 32-bit lanes of vector registers, `batchcrypto-simd` (the few
    /// left over in a group of equal block counts through `sha2`).
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
        static CHOSEN: OnceLock<Sha256Path> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            fastest(&Sha256Path::available(), 64, |path, msgs, out| {
                digest_on(
                    Route::new(KeccakPath::Asm, path),
                    Alg::Sha256,
                    |i| msgs[i].as_slice(),
                    out,
                );
            })
            .unwrap_or(Sha256Path::Sha2)
        })
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

/// The routes one call takes: Keccak's and SHA-256's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Route {
    keccak: KeccakPath,
    sha256: Sha256Path,
}

impl Route {
    pub(crate) fn new(keccak: KeccakPath, sha256: Sha256Path) -> Route {
        Route { keccak, sha256 }
    }

    /// The routes this process chose ([`KeccakPath::chosen`],
    /// [`Sha256Path::chosen`]).
    pub(crate) fn chosen() -> Route {
        Route::new(KeccakPath::chosen(), Sha256Path::chosen())
    }
}

/// Of `routes`, the one whose `run` over 64 messages of `len` bytes takes
/// least time: each timed seven times, in turn, the best time of each
/// compared (about a millisecond in all); the first on a tie.
fn fastest<P: Copy>(routes: &[P], len: usize, run: impl Fn(P, &[Vec<u8>], &mut [Digest])) -> Option<P> {
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
    (0..routes.len()).min_by_key(|&i| best[i]).map(|i| routes[i])
}

/// The Keccak sponges the multi-buffer path has.
fn sponge(alg: Alg) -> Option<Hash256> {
    match alg {
        Alg::Keccak256 => Some(Hash256::Keccak256),
        Alg::Sha3_256 => Some(Hash256::Sha3_256),
        Alg::Sha256 => None,
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
    match (sponge(alg), route.keccak) {
        (Some(hash), KeccakPath::Lanes(level)) if level.lanes() == 8 => interleaved(
            out,
            msg,
            blocks,
            |m: [&[u8]; 8]| Some(sponge256_lanes(level, hash, m)),
            |m| asm(hash, m),
        ),
        (Some(hash), KeccakPath::Lanes(level)) => interleaved(
            out,
            msg,
            blocks,
            |m: [&[u8]; 4]| Some(sponge256_lanes(level, hash, m)),
            |m| asm(hash, m),
        ),
        (Some(hash), KeccakPath::Asm) => {
            for (i, d) in out.iter_mut().enumerate() {
                *d = asm(hash, msg(i).as_ref());
            }
        }
        (None, _) => {
            let single = |m: &[u8]| oracle::digest(alg, m);
            match route.sha256 {
                Sha256Path::ShaNiPairs => interleaved(out, msg, sha256_blocks, sha256_x, single),
                Sha256Path::Lanes(level) if level.sha256_lanes() == 16 => {
                    interleaved(out, msg, sha256_blocks, |m: [&[u8]; 16]| sha256_lanes(level, m), single)
                }
                Sha256Path::Lanes(level) => {
                    interleaved(out, msg, sha256_blocks, |m: [&[u8]; 8]| sha256_lanes(level, m), single)
                }
                Sha256Path::Sha2 => {
                    for (i, d) in out.iter_mut().enumerate() {
                        *d = single(msg(i).as_ref());
                    }
                }
            }
        }
    }
}

/// `out[i]` = the digest of `msg(i)`, `L` messages of one block count at
/// a time by `lanes` (which may decline: `None`), the rest by `single`.
/// Messages are grouped by block count first (a stable sort), unless they
/// all have one, as in most batches.
fn interleaved<const L: usize, M: AsRef<[u8]>>(
    out: &mut [Digest],
    msg: impl Fn(usize) -> M,
    blocks: fn(usize) -> usize,
    lanes: impl Fn([&[u8]; L]) -> Option<[Digest; L]>,
    single: impl Fn(&[u8]) -> Digest,
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
    let count = |i: usize| blocks(msg(i).as_ref().len());
    let first = out.first().map(|_| count(0));
    if (1..out.len()).all(|i| Some(count(i)) == first) {
        // One block count (most batches): runs of L in order, no sort.
        let n = out.len() - out.len() % L;
        for start in (0..n).step_by(L) {
            together(out, std::array::from_fn(|l| start + l));
        }
        for (i, d) in out.iter_mut().enumerate().skip(n) {
            *d = single(msg(i).as_ref());
        }
        return;
    }
    let mut order: Vec<(usize, usize)> = (0..out.len()).map(|i| (count(i), i)).collect();
    order.sort_by_key(|&(b, _)| b);
    for group in order.chunk_by(|a, b| a.0 == b.0) {
        let mut runs = group.chunks_exact(L);
        for run in &mut runs {
            together(out, std::array::from_fn(|l| run[l].1));
        }
        for &(_, i) in runs.remainder() {
            out[i] = single(msg(i).as_ref());
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
                let mut out = vec![[0u8; 32]; msgs.len()];
                digest_on(Route::new(keccak, sha256), alg, |i| msgs[i].as_slice(), &mut out);
                for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
                    assert_eq!(
                        got,
                        want,
                        "{alg} by {} / {} item {i} of length {}",
                        keccak.name(),
                        sha256.name(),
                        msgs[i].len()
                    );
                }
            }
        }
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
