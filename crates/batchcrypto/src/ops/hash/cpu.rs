//! The CPU path, on every core in runs of up to [`RUN`] items per task (so
//! that short messages, a few hundred nanoseconds each, are not dominated
//! by scheduling).
//!
//! Keccak-256 and SHA3-256 take the faster of two routes on this CPU
//! ([`KeccakPath`], chosen once per process by timing both on the same
//! messages): one message at a time through `keccak-asm` (CRYPTOGAMS'
//! assembly, as in OpenSSL), or four at a time through the multi-buffer
//! sponge of `batchcrypto-simd` (AVX2), messages grouped by block count so
//! that all four lanes absorb the same number of blocks. Neither wins
//! everywhere: on an AMD Zen 1, which executes each 256-bit operation as
//! two 128-bit halves, the four lanes only match the `sha3` crate while the
//! assembly is 1.2x faster; on CPUs with full-width AVX2 the lanes are the
//! faster. SHA-256 takes the SHA extensions where the CPU has them, two
//! messages' rounds interleaved (`batchcrypto-simd`: one message leaves
//! the unit waiting on each instruction's latency; 1.3-1.5x the `sha2`
//! crate, itself on SHA-NI, on the Zen 1 here), else the `sha2` oracle.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use batchcrypto_simd::{Hash256, LANES, Level, blocks, sha_ni_detected, sha256_blocks, sha256_x, sponge256_x4};

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
    /// Four messages at a time, `batchcrypto-simd` at this level (the few
    /// left over in a group of equal block counts through `keccak-asm`).
    Lanes(Level),
}

impl KeccakPath {
    /// Every route this CPU can run (the tests check each).
    pub fn available() -> Vec<KeccakPath> {
        std::iter::once(KeccakPath::Asm)
            .chain(Level::available().into_iter().map(KeccakPath::Lanes))
            .collect()
    }

    /// The route this process uses: the faster of the assembly and the
    /// best SIMD level, timed once on the first call (about a millisecond).
    pub fn chosen() -> KeccakPath {
        static CHOSEN: OnceLock<KeccakPath> = OnceLock::new();
        *CHOSEN.get_or_init(|| match Level::best() {
            // Four portable permutations are four scalar ones: never faster.
            Level::Portable => KeccakPath::Asm,
            level => KeccakPath::faster(KeccakPath::Asm, KeccakPath::Lanes(level)),
        })
    }

    /// Of two routes, the one faster on 64 messages of 32 bytes (the
    /// commonest item: a key, a hash, a pair of leaves is 64): each timed
    /// seven times, alternating, the best time of each compared.
    fn faster(a: KeccakPath, b: KeccakPath) -> KeccakPath {
        let msgs: Vec<[u8; 32]> = (0u8..64).map(|i| [i; 32]).collect();
        let mut out = [[0u8; 32]; 64];
        let mut best = [Duration::MAX; 2];
        for _ in 0..7 {
            for (path, best) in [a, b].into_iter().zip(&mut best) {
                let start = Instant::now();
                digest_on(path, Alg::Keccak256, |i| msgs[i], &mut out);
                *best = (*best).min(start.elapsed());
            }
        }
        if best[1] < best[0] { b } else { a }
    }

    /// A short name for reports: `keccak-asm`, `avx2 x4`, `portable x4`.
    pub fn name(&self) -> String {
        match self {
            KeccakPath::Asm => "keccak-asm".to_string(),
            KeccakPath::Lanes(level) => format!("{} x{LANES}", level.name()),
        }
    }
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

/// `out[i]` = the digest of message `msg(i)` for every `i` of `out`, on
/// the calling thread, by the chosen route ([`KeccakPath::chosen`]).
pub(crate) fn digest_into<M: AsRef<[u8]>>(alg: Alg, msg: impl Fn(usize) -> M, out: &mut [Digest]) {
    let path = if sponge(alg).is_some() {
        KeccakPath::chosen()
    } else {
        KeccakPath::Asm
    };
    digest_on(path, alg, msg, out);
}

/// [`digest_into`] by the given route (`msg` may build its message: on
/// the interleaved routes it is called twice per item, for the length and
/// for the bytes). SHA-256 takes the SHA extensions two messages at a
/// time where the CPU has them, whatever the route.
pub(crate) fn digest_on<M: AsRef<[u8]>>(path: KeccakPath, alg: Alg, msg: impl Fn(usize) -> M, out: &mut [Digest]) {
    match (sponge(alg), path) {
        (Some(hash), KeccakPath::Lanes(level)) => interleaved(
            out,
            msg,
            blocks,
            |m: [&[u8]; LANES]| Some(sponge256_x4(level, hash, m)),
            |m| asm(hash, m),
        ),
        (Some(hash), KeccakPath::Asm) => {
            for (i, d) in out.iter_mut().enumerate() {
                *d = asm(hash, msg(i).as_ref());
            }
        }
        (None, _) if sha_ni_detected() => interleaved(out, msg, sha256_blocks, sha256_x, |m| oracle::digest(alg, m)),
        (None, _) => {
            for (i, d) in out.iter_mut().enumerate() {
                *d = oracle::digest(alg, msg(i).as_ref());
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
        for path in KeccakPath::available() {
            let mut out = vec![[0u8; 32]; msgs.len()];
            digest_on(path, alg, |i| msgs[i].as_slice(), &mut out);
            for (i, (got, want)) in out.iter().zip(&expected).enumerate() {
                assert_eq!(
                    got,
                    want,
                    "{alg} by {} item {i} of length {}",
                    path.name(),
                    msgs[i].len()
                );
            }
        }
    }

    #[test]
    fn the_chosen_route_is_one_this_cpu_has() {
        let chosen = KeccakPath::chosen();
        assert!(KeccakPath::available().contains(&chosen));
        eprintln!("routes here: {:?}; chosen: {}", KeccakPath::available(), chosen.name());
    }

    #[test]
    fn every_route_gives_the_oracles_digests_around_the_rate() {
        // Every length from 0 to three blocks and a little more, several
        // messages per length (full groups of four and remainders).
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
        for (len, count) in [(32, 7), (64, 9), (135, 4), (136, 5), (0, 3), (200, 1), (32, 0)] {
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
            for alg in [Alg::Keccak256, Alg::Sha3_256] {
                check_every_route(alg, &msgs);
            }
        }
    }
}
