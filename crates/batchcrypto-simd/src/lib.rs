//! Several messages per instruction stream, for batchcrypto's CPU hashing
//! path (issue 19).
//!
//! Keccak: a single Keccak-f\[1600\] state does not vectorise (its lanes
//! depend on each other every round); several unrelated messages do, and
//! a batch of hashes is exactly that. [`sponge256_lanes`] runs the
//! Keccak-256 (Ethereum's padding `0x01`) and SHA3-256 (FIPS 202, padding
//! `0x06`) sponges of several messages of equal block count, one state in
//! each 64-bit lane of the vector registers, as XKCP's
//! `KeccakP-1600-times4` and `-times8` do; [`f1600_lanes`] is the bare
//! permutation. Each runs at a [`Level`]: AVX-512 (eight states; rotations
//! and χ one instruction each) and AVX2 (four) where the CPU has them, and
//! everywhere a portable one (the `keccak` crate's permutation, state by
//! state). The rounds are written once (`rounds.rs`) over each level's
//! handful of vector operations. Whether the lanes pay depends on the CPU
//! (an AMD Zen 1 splits every 256-bit operation in two and gains nothing):
//! the library times them against `keccak-asm`.
//!
//! SHA-256: [`sha256_lanes`] runs sixteen (AVX-512) or eight (AVX2)
//! messages of equal block count, one in each 32-bit lane, every round on
//! the vector units (as Intel's multi-buffer `sha256_mb`); [`sha256_x`]
//! interleaves two messages' rounds on the SHA extensions, whose round
//! instruction one message alone leaves waiting on its latency. The
//! library times both against the `sha2` crate.
//!
//! Every function gives the bytes of the `sha3` / `sha2` crates for every
//! message; the tests run each level the machine has.
//!
//! Why a crate of its own: the rest of batchcrypto forbids `unsafe`. Here
//! there is one `unsafe` block per entry point: the call into a
//! `#[target_feature]` function (AVX2; AVX-512F; SHA, SSSE3 and SSE4.1), made only
//! after `is_x86_feature_detected!` said yes at that call. Inside those
//! functions the intrinsics are safe to call, and none takes a pointer.
//! No vetted crate offers this on stable Rust: the `keccak` crate's
//! parallel backends need nightly's `portable_simd` (checked: keccak 0.2).
//!
//! On AArch64 the NEON level runs two Keccak states and four SHA-256
//! messages per 128-bit register (`neon.rs`), from the same rounds; it is
//! tested under QEMU's user-mode emulation (the README's command), and no
//! ARM machine was at hand to time it.

/// Runs `$body` once for each `$i` in `0..16`, `0..25` or `0..64`, with
/// `$i` a `const usize` in each copy: a loop unrolled by construction, so
/// that every index and rotation count computed from `$i` is known when
/// compiling (states then live in registers and spill slots, not in arrays
/// indexed at run time, and SHA-256's shift of its working variables is
/// renaming, not moves). Used for Keccak's 25 lanes, SHA-256's 64 rounds
/// and the SHA-NI rounds' 16 groups of four.
macro_rules! unrolled {
    ($i:ident in 0..16 $body:block) => {
        unrolled!(@ $i $body 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    ($i:ident in 0..25 $body:block) => {
        unrolled!(@ $i $body 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24)
    };
    ($i:ident in 0..64 $body:block) => {
        unrolled!(@ $i $body
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
    };
    (@ $i:ident $body:block $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}

#[macro_use]
mod rounds;
#[macro_use]
mod sha256;
mod spec;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod shani;

pub use sha256::blocks as sha256_blocks;

/// Bytes absorbed per permutation by Keccak-256 and SHA3-256
/// (capacity 512 bits).
pub const RATE: usize = 136;

/// Bytes of the digest.
pub const DIGEST: usize = 32;

/// 64-bit words of a block.
const RATE_WORDS: usize = RATE / 8;

/// A Keccak-f\[1600\] state: lane `x + 5y` at index `x + 5y`.
pub type State = [u64; 25];

/// The two sponges of rate 136 and 32-byte output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hash256 {
    /// Keccak-256 as Ethereum uses it: the original Keccak padding (`0x01`).
    Keccak256,
    /// SHA3-256 (FIPS 202): domain bits `01`, padding `0x06`.
    Sha3_256,
}

impl Hash256 {
    /// The first padding byte (the last block's final byte also gets `0x80`).
    fn pad(self) -> u8 {
        match self {
            Hash256::Keccak256 => 0x01,
            Hash256::Sha3_256 => 0x06,
        }
    }
}

/// An instruction set the permutation runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The `keccak` crate's permutation, one state after another.
    Portable,
    /// Four states in the lanes of AVX2 registers (x86-64).
    Avx2,
    /// Eight states in the lanes of AVX-512 registers (x86-64, AVX-512F).
    Avx512,
    /// Two states in the lanes of NEON registers (AArch64).
    Neon,
}

impl Level {
    /// The widest level this CPU has.
    pub fn best() -> Level {
        Level::available().last().copied().unwrap_or(Level::Portable)
    }

    /// Every level this CPU runs, narrowest first (tests run them all).
    pub fn available() -> Vec<Level> {
        [Level::Portable, Level::Neon, Level::Avx2, Level::Avx512]
            .into_iter()
            .filter(|l| l.detected())
            .collect()
    }

    /// Whether this CPU runs the level (the portable one runs everywhere).
    pub fn detected(self) -> bool {
        match self {
            Level::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => std::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => std::is_x86_feature_detected!("avx512f"),
            #[cfg(target_arch = "aarch64")]
            Level::Neon => std::arch::is_aarch64_feature_detected!("neon"),
            // The other architecture's levels.
            _ => false,
        }
    }

    /// States permuted together: 8 for AVX-512, 2 for NEON, else 4 (the
    /// portable level's four one after another).
    pub fn lanes(self) -> usize {
        match self {
            Level::Avx512 => 8,
            Level::Neon => 2,
            Level::Portable | Level::Avx2 => 4,
        }
    }

    /// Messages per SHA-256 call at this level ([`sha256_lanes`]): one
    /// per 32-bit lane, 16 for AVX-512, 8 for AVX2, 4 for NEON; the
    /// portable level has no multi-buffer SHA-256 (1).
    pub fn sha256_lanes(self) -> usize {
        match self {
            Level::Avx512 => 16,
            Level::Avx2 => 8,
            Level::Neon => 4,
            Level::Portable => 1,
        }
    }

    /// A short name for reports: `portable`, `avx2`, `avx512`, `neon`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
            Level::Avx512 => "avx512",
            Level::Neon => "neon",
        }
    }
}

/// Blocks a message of `len` bytes absorbs once padded (at least one).
pub fn blocks(len: usize) -> usize {
    len / RATE + 1
}

/// The little-endian word at byte `off` of `msg` padded under `hash`:
/// message bytes, then the padding byte at offset `msg.len()`, then zeros
/// (all but the last block's final `0x80`, [`LAST_BYTE`], which the
/// sponges add to the block's last word themselves). Read word by word,
/// one 8-byte load where the message covers it: a padded copy of each
/// block took a third of the AVX-512 sponge's time on 32-byte messages.
#[inline(always)]
fn word(hash: Hash256, msg: &[u8], off: usize) -> u64 {
    if let Some(Ok(bytes)) = msg.get(off..off + 8).map(<[u8; 8]>::try_from) {
        return u64::from_le_bytes(bytes);
    }
    match msg.get(off..) {
        Some(tail) => {
            let partial = tail.iter().rev().fold(0u64, |w, &byte| (w << 8) | u64::from(byte));
            partial ^ (u64::from(hash.pad()) << (8 * tail.len()))
        }
        None => 0,
    }
}

/// Block `b` of `msg` as [`word`]s.
fn block(hash: Hash256, msg: &[u8], b: usize) -> [u64; RATE_WORDS] {
    core::array::from_fn(|i| word(hash, msg, b * RATE + 8 * i))
}

/// The last block's final byte, `0x80`, in its word (the block's last).
const LAST_BYTE: u64 = 0x80 << 56;

/// Words of block `b` that hold message bytes or the padding byte in any
/// of `msgs` (the rest are zero but for [`LAST_BYTE`]): a sponge absorbs
/// only those, so a 32-byte message costs five words, not seventeen.
fn absorbed<const L: usize>(msgs: &[&[u8]; L], b: usize) -> usize {
    let longest = msgs.iter().map(|m| m.len().saturating_sub(b * RATE)).max().unwrap_or(0);
    (longest / 8 + 1).min(RATE_WORDS)
}

/// The digest: the state's first four lanes, little-endian.
fn squeeze(lanes: [u64; DIGEST / 8]) -> [u8; DIGEST] {
    let mut out = [0u8; DIGEST];
    for (chunk, lane) in out.chunks_exact_mut(8).zip(lanes) {
        chunk.copy_from_slice(&lane.to_le_bytes());
    }
    out
}

/// The digest of one message on the portable level.
pub fn sponge256(hash: Hash256, msg: &[u8]) -> [u8; DIGEST] {
    let mut state: State = [0; 25];
    let n = blocks(msg.len());
    for b in 0..n {
        for (s, w) in state.iter_mut().zip(block(hash, msg, b)) {
            *s ^= w;
        }
        if b + 1 == n {
            state[RATE_WORDS - 1] ^= LAST_BYTE;
        }
        keccak::f1600(&mut state);
    }
    squeeze([state[0], state[1], state[2], state[3]])
}

/// The digests of `L` messages at `level`, in its lanes when `L` is its
/// width ([`Level::lanes`]) and the CPU has it. Messages of different
/// block counts ([`blocks`]) cannot share the permutations: those, and any
/// other width, are hashed one by one on the portable level (callers
/// group messages by block count).
pub fn sponge256_lanes<const L: usize>(level: Level, hash: Hash256, msgs: [&[u8]; L]) -> [[u8; DIGEST]; L] {
    let n = msgs.first().map_or(1, |m| blocks(m.len()));
    if msgs.iter().any(|m| blocks(m.len()) != n) || L != level.lanes() || !level.detected() {
        return msgs.map(|m| sponge256(hash, m));
    }
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `avx2::sponge256` only needs the CPU to have
                // AVX2, which `level.detected()` has just confirmed.
                let d = unsafe { avx2::sponge256(hash, m, n) };
                return core::array::from_fn(|l| d[l]);
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `avx512::sponge256` only needs the CPU to have
                // AVX-512F, which `level.detected()` has just confirmed.
                let d = unsafe { avx512::sponge256(hash, m, n) };
                return core::array::from_fn(|l| d[l]);
            }
        }
        #[cfg(target_arch = "aarch64")]
        Level::Neon => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `neon::sponge256` only needs the CPU to have
                // NEON, which `level.detected()` has just confirmed.
                let d = unsafe { neon::sponge256(hash, m, n) };
                return core::array::from_fn(|l| d[l]);
            }
        }
        _ => {}
    }
    msgs.map(|m| sponge256(hash, m))
}

/// Keccak-f\[1600\] applied to each of `L` states, in `level`'s lanes
/// when `L` is its width and the CPU has it, else one after another.
pub fn f1600_lanes<const L: usize>(level: Level, states: &mut [State; L]) {
    if L == level.lanes() && level.detected() {
        match level {
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => {
                if let Ok(s) = states.as_mut_slice().try_into() {
                    #[allow(unsafe_code)]
                    // SAFETY: `avx2::f1600` only needs the CPU to have
                    // AVX2, which `level.detected()` has just confirmed.
                    return unsafe { avx2::f1600(s) };
                }
            }
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => {
                if let Ok(s) = states.as_mut_slice().try_into() {
                    #[allow(unsafe_code)]
                    // SAFETY: `avx512::f1600` only needs the CPU to have
                    // AVX-512F, which `level.detected()` has just confirmed.
                    return unsafe { avx512::f1600(s) };
                }
            }
            #[cfg(target_arch = "aarch64")]
            Level::Neon => {
                if let Ok(s) = states.as_mut_slice().try_into() {
                    #[allow(unsafe_code)]
                    // SAFETY: `neon::f1600` only needs the CPU to have
                    // NEON, which `level.detected()` has just confirmed.
                    return unsafe { neon::f1600(s) };
                }
            }
            _ => {}
        }
    }
    states.iter_mut().for_each(keccak::f1600);
}

/// The SHA-256 digests of `L` messages in the 32-bit lanes of `level`'s
/// registers, every round on the vector ALUs (no SHA extensions needed);
/// `None` where `L` is not the level's width ([`Level::sha256_lanes`]),
/// the CPU does not have it, or the messages' block counts
/// ([`sha256_blocks`]) differ (callers then hash them one by one).
pub fn sha256_lanes<const L: usize>(level: Level, msgs: [&[u8]; L]) -> Option<[[u8; DIGEST]; L]> {
    let n = sha256::blocks(msgs.first().map_or(0, |m| m.len()));
    if msgs.iter().any(|m| sha256::blocks(m.len()) != n) || L != level.sha256_lanes() || !level.detected() {
        return None;
    }
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `avx2::sha256` only needs the CPU to have AVX2,
                // which `level.detected()` has just confirmed.
                let d = unsafe { avx2::sha256(m, n) };
                return Some(core::array::from_fn(|l| d[l]));
            }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `avx512::sha256` only needs the CPU to have
                // AVX-512F, which `level.detected()` has just confirmed.
                let d = unsafe { avx512::sha256(m, n) };
                return Some(core::array::from_fn(|l| d[l]));
            }
        }
        #[cfg(target_arch = "aarch64")]
        Level::Neon => {
            if let Ok(m) = msgs.as_slice().try_into() {
                #[allow(unsafe_code)]
                // SAFETY: `neon::sha256` only needs the CPU to have NEON,
                // which `level.detected()` has just confirmed.
                let d = unsafe { neon::sha256(m, n) };
                return Some(core::array::from_fn(|l| d[l]));
            }
        }
        _ => {}
    }
    None
}

/// Messages whose SHA-256 runs interleaved.
pub const SHA256_LANES: usize = 2;

/// Whether this CPU has the SHA extensions (and the SSE levels the
/// interleaved SHA-256 uses).
pub fn sha_ni_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("sha")
            && std::is_x86_feature_detected!("ssse3")
            && std::is_x86_feature_detected!("sse4.1")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The SHA-256 digests of [`SHA256_LANES`] messages with their rounds
/// interleaved on the SHA extensions; `None` where the CPU has none
/// ([`sha_ni_detected`]) or the messages' block counts
/// ([`sha256_blocks`]) differ (callers then hash them one by one).
pub fn sha256_x(msgs: [&[u8]; SHA256_LANES]) -> Option<[[u8; DIGEST]; SHA256_LANES]> {
    let n = sha256::blocks(msgs[0].len());
    if msgs.iter().any(|m| sha256::blocks(m.len()) != n) || !sha_ni_detected() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[allow(unsafe_code)]
        // SAFETY: `shani::sha256_x` only needs SHA, SSSE3 and SSE4.1,
        // which `sha_ni_detected` has just confirmed.
        Some(unsafe { shani::sha256_x(msgs, n) })
    }
    #[cfg(not(target_arch = "x86_64"))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use sha3::Digest as _;

    fn oracle(hash: Hash256, msg: &[u8]) -> [u8; DIGEST] {
        match hash {
            Hash256::Keccak256 => sha3::Keccak256::digest(msg).into(),
            Hash256::Sha3_256 => sha3::Sha3_256::digest(msg).into(),
        }
    }

    /// Deterministic bytes (a 64-bit LCG), so failures reproduce.
    fn bytes(seed: u64, len: usize) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (x >> 56) as u8
            })
            .collect()
    }

    #[test]
    fn the_levels_are_reported() {
        let levels = Level::available();
        assert_eq!(levels[0], Level::Portable);
        assert_eq!(Level::best(), *levels.last().expect("at least the portable level"));
        eprintln!("levels here: {:?}", levels.iter().map(|l| l.name()).collect::<Vec<_>>());
    }

    /// The Keccak tests run every level at every width: its own and the
    /// others, where the calls fall back to the portable permutation.
    const WIDTHS: [usize; 3] = [2, 4, 8];

    fn permutation_on<const L: usize>(level: Level) {
        for seed in 0..64u64 {
            let mut states: [State; L] = std::array::from_fn(|l| {
                let b = bytes(seed * L as u64 + l as u64, 200);
                std::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes")))
            });
            let mut expected = states;
            expected.iter_mut().for_each(keccak::f1600);
            f1600_lanes(level, &mut states);
            assert_eq!(states, expected, "{} x{L} seed {seed}", level.name());
        }
    }

    #[test]
    fn the_permutation_is_the_keccak_crates_on_every_level() {
        assert!(WIDTHS.iter().all(|w| [2, 4, 8].contains(w)));
        for level in Level::available() {
            assert!(WIDTHS.contains(&level.lanes()), "{}", level.name());
            permutation_on::<2>(level);
            permutation_on::<4>(level);
            permutation_on::<8>(level);
        }
    }

    /// `msgs` at `level` in `L` lanes, each digest compared with the oracle.
    fn lanes_agree<const L: usize>(level: Level, hash: Hash256, msgs: &[Vec<u8>]) -> Result<(), String> {
        let refs: [&[u8]; L] = std::array::from_fn(|l| msgs[l].as_slice());
        let got = sponge256_lanes(level, hash, refs);
        for l in 0..L {
            if got[l] != oracle(hash, refs[l]) {
                return Err(format!("{} x{L} {hash:?} lane {l} len {}", level.name(), refs[l].len()));
            }
        }
        Ok(())
    }

    /// [`lanes_agree`] at 2, 4 and 8 lanes (the first 2 messages, 4, then 8).
    fn every_width_agrees(level: Level, hash: Hash256, msgs: &[Vec<u8>]) -> Result<(), String> {
        lanes_agree::<2>(level, hash, msgs)?;
        lanes_agree::<4>(level, hash, msgs)?;
        lanes_agree::<8>(level, hash, msgs)
    }

    #[test]
    fn every_block_boundary_gives_the_sha3_crates_digest_on_every_level() {
        // Lengths around every multiple of the rate up to four blocks, the
        // byte where padding and 0x80 meet (135), and the empty message.
        let lens: Vec<usize> = (0..=4)
            .flat_map(|k| [k * RATE, k * RATE + 1, (k + 1) * RATE - 2, (k + 1) * RATE - 1])
            .chain([32, 64, 100])
            .collect();
        for level in Level::available() {
            for hash in [Hash256::Keccak256, Hash256::Sha3_256] {
                for (i, &len) in lens.iter().enumerate() {
                    // Eight different messages of the same block count.
                    let lo = len - len % RATE;
                    let msgs: Vec<Vec<u8>> = (0..8)
                        .map(|l| bytes((i * 8 + l) as u64, (len + l).min(lo + RATE - 1)))
                        .collect();
                    every_width_agrees(level, hash, &msgs).unwrap_or_else(|e| panic!("{e}"));
                }
            }
        }
    }

    #[test]
    fn the_empty_message_has_the_published_digests() {
        // Keccak-256("") as Ethereum knows it, SHA3-256("") from FIPS 202's examples.
        let k = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
        let s = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";
        for level in Level::available() {
            let got = sponge256_lanes(level, Hash256::Keccak256, [b""; 8]);
            assert!(got.iter().all(|d| hex(d) == k), "{}", level.name());
            let got = sponge256_lanes(level, Hash256::Sha3_256, [b""; 8]);
            assert!(got.iter().all(|d| hex(d) == s), "{}", level.name());
            let got = sponge256_lanes(level, Hash256::Keccak256, [b""; 4]);
            assert!(got.iter().all(|d| hex(d) == k), "{}", level.name());
            let got = sponge256_lanes(level, Hash256::Sha3_256, [b""; 2]);
            assert!(got.iter().all(|d| hex(d) == s), "{}", level.name());
        }
    }

    fn hex(d: &[u8]) -> String {
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    fn sha256(msg: &[u8]) -> [u8; DIGEST] {
        sha2::Sha256::digest(msg).into()
    }

    #[test]
    fn interleaved_sha256_gives_the_sha2_crates_digests_at_every_length() {
        if !sha_ni_detected() {
            eprintln!("no SHA extensions here: the interleaved SHA-256 is not tested");
            return;
        }
        // Every length to five blocks, each beside the next length of its
        // block count (55/56 and 119/120 are where the padding spills), and
        // beside another message of its own length.
        for len in 0..5 * 64 {
            let a = bytes(len as u64, len);
            let other = if sha256_blocks(len + 1) == sha256_blocks(len) {
                len + 1
            } else {
                len
            };
            let b = bytes(!(len as u64), other);
            let got = sha256_x([&a, &b]).expect("equal block counts on a SHA-NI CPU");
            assert_eq!(got, [sha256(&a), sha256(&b)], "lengths {len} and {other}");
            // Two messages of one length: from 56 bytes past a block, their
            // last block is padding alone, computed once for both.
            let c = bytes(len as u64 ^ 0x5a5a, len);
            let got = sha256_x([&a, &c]).expect("one length");
            assert_eq!(got, [sha256(&a), sha256(&c)], "two of length {len}");
        }
        assert_eq!(
            sha256_x([&[0u8; 55], &[0u8; 56]]),
            None,
            "different block counts are refused"
        );
    }

    /// `msgs` through [`sha256_lanes`] at `level` in `L` lanes, each
    /// digest compared with the `sha2` crate's; `None` where the level
    /// does not run `L` lanes here.
    fn sha256_lanes_agree<const L: usize>(level: Level, msgs: &[Vec<u8>]) -> Result<bool, String> {
        let refs: [&[u8]; L] = std::array::from_fn(|l| msgs[l].as_slice());
        let Some(got) = sha256_lanes(level, refs) else {
            return Ok(false);
        };
        for l in 0..L {
            if got[l] != sha256(refs[l]) {
                return Err(format!("{} x{L} lane {l} len {}", level.name(), refs[l].len()));
            }
        }
        Ok(true)
    }

    /// [`sha256_lanes_agree`] at the level's width, and a check that the
    /// other widths are declined.
    fn sha256_level_agrees(level: Level, msgs: &[Vec<u8>]) -> Result<(), String> {
        let ran = [
            sha256_lanes_agree::<4>(level, msgs)?,
            sha256_lanes_agree::<8>(level, msgs)?,
            sha256_lanes_agree::<16>(level, msgs)?,
        ];
        let width = level.sha256_lanes();
        match ran {
            [four, eight, sixteen] if four == (width == 4) && eight == (width == 8) && sixteen == (width == 16) => {
                Ok(())
            }
            _ => Err(format!("{} ran {ran:?} at width {width}", level.name())),
        }
    }

    #[test]
    fn sha256_lanes_give_the_sha2_crates_digests_at_every_length() {
        // Every length to five blocks, sixteen messages each, their lengths
        // spread over the block count of the first (55/56 and 119/120 are
        // where the padding spills into another block).
        for level in Level::available() {
            for len in 0..5 * 64 {
                let n = sha256_blocks(len);
                let msgs: Vec<Vec<u8>> = (0..16)
                    .map(|l| {
                        let other = (len + 3 * l).min(n * 64 - 9);
                        bytes((len * 16 + l) as u64, other)
                    })
                    .collect();
                sha256_level_agrees(level, &msgs).unwrap_or_else(|e| panic!("{e}"));
                // All of one length: where that length's last block is
                // padding alone (64k and 56..63 past it), its schedule is
                // computed once for every lane.
                let same: Vec<Vec<u8>> = (0..16).map(|l| bytes((len * 16 + l) as u64 ^ 0x5a, len)).collect();
                sha256_level_agrees(level, &same).unwrap_or_else(|e| panic!("{len} bytes each: {e}"));
            }
        }
        let mixed: Vec<Vec<u8>> = (0..16).map(|l| vec![7u8; 50 + l]).collect();
        assert_eq!(
            sha256_lanes(
                Level::best(),
                <[&[u8]; 16]>::try_from(mixed.iter().map(Vec::as_slice).collect::<Vec<_>>()).expect("16")
            ),
            None,
            "55 and 56 bytes differ in block count"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random lengths 0..10,000 rounded into one block count, on every level.
        #[test]
        fn sha256_lanes_on_random_lengths(seed in any::<u64>(), lens in proptest::array::uniform16(0usize..10_000)) {
            let n = sha256_blocks(lens[0]);
            let msgs: Vec<Vec<u8>> = lens
                .iter()
                .enumerate()
                .map(|(l, &len)| bytes(seed ^ l as u64, ((n - 1) * 64 + len % 64).min(n * 64 - 9)))
                .collect();
            for level in Level::available() {
                let agreed = sha256_level_agrees(level, &msgs);
                prop_assert!(agreed.is_ok(), "{:?}", agreed);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random lengths 0..10,000, each pair rounded to one block count.
        #[test]
        fn interleaved_sha256_on_random_lengths(seed in any::<u64>(), len in 0usize..10_000, delta in 0usize..64) {
            let n = sha256_blocks(len);
            let other = (len + delta).min(n * 64 - 9);
            let (a, b) = (bytes(seed, len), bytes(seed ^ 1, other));
            if let Some(got) = sha256_x([&a, &b]) {
                prop_assert_eq!(got, [sha256(&a), sha256(&b)]);
            } else {
                prop_assert!(!sha_ni_detected());
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// Random lengths 0..10,000 (mixed block counts included: those go
        /// one by one), each lane compared with the `sha3` crate.
        #[test]
        fn random_lengths_give_the_sha3_crates_digests(
            seed in any::<u64>(),
            lens in proptest::array::uniform8(0usize..10_000),
            keccak in any::<bool>(),
        ) {
            let hash = if keccak { Hash256::Keccak256 } else { Hash256::Sha3_256 };
            let msgs: Vec<Vec<u8>> = lens.iter().enumerate().map(|(l, &n)| bytes(seed ^ l as u64, n)).collect();
            // Equal block counts too: each length rounded into the first's block count.
            let n = blocks(lens[0]);
            let same: Vec<Vec<u8>> = lens.iter().enumerate()
                .map(|(l, &len)| bytes(seed.wrapping_add(l as u64), (n - 1) * RATE + len % RATE))
                .collect();
            for level in Level::available() {
                for set in [&msgs, &same] {
                    let agreed = every_width_agrees(level, hash, set);
                    prop_assert!(agreed.is_ok(), "{:?}", agreed);
                }
            }
        }
    }
}
