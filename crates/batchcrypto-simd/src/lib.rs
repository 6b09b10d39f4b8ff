//! Several messages per instruction stream, for batchcrypto's CPU hashing
//! path (issue 19).
//!
//! Keccak: a single Keccak-f\[1600\] state does not vectorise (its lanes
//! depend on each other every round); four unrelated messages do, and a
//! batch of hashes is exactly that. [`sponge256_x4`] runs the Keccak-256
//! (Ethereum's padding `0x01`) and SHA3-256 (FIPS 202, padding `0x06`)
//! sponges of four messages of equal block count, one state in each 64-bit
//! lane of AVX2's 256-bit registers, as XKCP's `KeccakP-1600-times4` does;
//! [`f1600_x4`] is the bare permutation of four states. Each runs at a
//! [`Level`]: AVX2 where the CPU has it, and everywhere a portable one (the
//! `keccak` crate's permutation, state by state). Whether the lanes pay
//! depends on the CPU (an AMD Zen 1 splits every 256-bit operation in two
//! and gains nothing): the library times them against `keccak-asm`.
//!
//! SHA-256: [`sha256_x`] interleaves two messages' rounds on the SHA
//! extensions, whose round instruction one message alone leaves waiting on
//! its latency.
//!
//! Every function gives the bytes of the `sha3` / `sha2` crates for every
//! message; the tests run each level the machine has.
//!
//! Why a crate of its own: the rest of batchcrypto forbids `unsafe`. Here
//! there is one `unsafe` block per entry point: the call into a
//! `#[target_feature]` function (AVX2; SHA, SSSE3 and SSE4.1), made only
//! after `is_x86_feature_detected!` said yes at that call. Inside those
//! functions the intrinsics are safe to call, and none takes a pointer.
//! No vetted crate offers this on stable Rust: the `keccak` crate's
//! parallel backends need nightly's `portable_simd` (checked: keccak 0.2).
//! AVX-512 (eight states, rotations in one instruction) is not written:
//! no machine here has it to test it on.

mod sha256;
mod spec;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod shani;

pub use sha256::blocks as sha256_blocks;

/// Bytes absorbed per permutation by Keccak-256 and SHA3-256
/// (capacity 512 bits).
pub const RATE: usize = 136;

/// Bytes of the digest.
pub const DIGEST: usize = 32;

/// States permuted together.
pub const LANES: usize = 4;

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
    /// Four states in the lanes of AVX2 registers (x86-64). Asked for on a
    /// CPU without AVX2, the portable level runs instead.
    Avx2,
}

impl Level {
    /// The fastest level this CPU has.
    pub fn best() -> Level {
        if avx2_detected() { Level::Avx2 } else { Level::Portable }
    }

    /// Every level this CPU runs, slowest first (tests run them all).
    pub fn available() -> Vec<Level> {
        let mut levels = vec![Level::Portable];
        if avx2_detected() {
            levels.push(Level::Avx2);
        }
        levels
    }

    /// A short name for reports: `portable`, `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::Avx2 => "avx2",
        }
    }
}

fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Blocks a message of `len` bytes absorbs once padded (at least one).
pub fn blocks(len: usize) -> usize {
    len / RATE + 1
}

/// Block `b` of `msg` padded under `hash`, as little-endian words: bytes
/// past the message are zero, the first of them gets the padding byte and
/// the block's last byte `0x80` (one byte may get both).
fn block(hash: Hash256, msg: &[u8], b: usize) -> [u64; RATE_WORDS] {
    let start = (b * RATE).min(msg.len());
    let end = (start + RATE).min(msg.len());
    let mut bytes = [0u8; RATE];
    bytes[..end - start].copy_from_slice(&msg[start..end]);
    if end - start < RATE {
        bytes[end - start] ^= hash.pad();
        bytes[RATE - 1] ^= 0x80;
    }
    let mut words = [0u64; RATE_WORDS];
    for (w, chunk) in words.iter_mut().zip(bytes.chunks_exact(8)) {
        *w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
    }
    words
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
    for b in 0..blocks(msg.len()) {
        for (s, w) in state.iter_mut().zip(block(hash, msg, b)) {
            *s ^= w;
        }
        keccak::f1600(&mut state);
    }
    squeeze([state[0], state[1], state[2], state[3]])
}

/// The digests of four messages. Messages of different block counts
/// ([`blocks`]) cannot share the permutations: they are hashed one by one
/// on the portable level (callers group messages by block count).
pub fn sponge256_x4(level: Level, hash: Hash256, msgs: [&[u8]; LANES]) -> [[u8; DIGEST]; LANES] {
    let n = blocks(msgs[0].len());
    if msgs.iter().any(|m| blocks(m.len()) != n) {
        return msgs.map(|m| sponge256(hash, m));
    }
    #[cfg(target_arch = "x86_64")]
    if level == Level::Avx2 && avx2_detected() {
        #[allow(unsafe_code)]
        // SAFETY: `avx2::sponge256_x4` only needs the CPU to have AVX2,
        // which `avx2_detected` has just confirmed.
        return unsafe { avx2::sponge256_x4(hash, msgs, n) };
    }
    let _ = level;
    msgs.map(|m| sponge256(hash, m))
}

/// Keccak-f\[1600\] applied to each of four states.
pub fn f1600_x4(level: Level, states: &mut [State; LANES]) {
    #[cfg(target_arch = "x86_64")]
    if level == Level::Avx2 && avx2_detected() {
        #[allow(unsafe_code)]
        // SAFETY: `avx2::f1600_x4` only needs the CPU to have AVX2, which
        // `avx2_detected` has just confirmed.
        return unsafe { avx2::f1600_x4(states) };
    }
    let _ = level;
    states.iter_mut().for_each(keccak::f1600);
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

    #[test]
    fn the_permutation_is_the_keccak_crates_on_every_level() {
        for level in Level::available() {
            for seed in 0..64u64 {
                let mut states: [State; LANES] = std::array::from_fn(|l| {
                    let b = bytes(seed * 4 + l as u64, 200);
                    std::array::from_fn(|i| u64::from_le_bytes(b[8 * i..8 * i + 8].try_into().expect("8 bytes")))
                });
                let mut expected = states;
                expected.iter_mut().for_each(keccak::f1600);
                f1600_x4(level, &mut states);
                assert_eq!(states, expected, "{} seed {seed}", level.name());
            }
        }
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
                    // Four different messages of the same block count.
                    let lo = len - len % RATE;
                    let msgs: Vec<Vec<u8>> = (0..LANES)
                        .map(|l| bytes((i * LANES + l) as u64, (len + l).min(lo + RATE - 1)))
                        .collect();
                    let refs: [&[u8]; LANES] = std::array::from_fn(|l| msgs[l].as_slice());
                    let got = sponge256_x4(level, hash, refs);
                    for l in 0..LANES {
                        assert_eq!(
                            got[l],
                            oracle(hash, refs[l]),
                            "{} {hash:?} len {}",
                            level.name(),
                            refs[l].len()
                        );
                    }
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
            let got = sponge256_x4(level, Hash256::Keccak256, [b""; LANES]);
            assert!(got.iter().all(|d| hex(d) == k), "{}", level.name());
            let got = sponge256_x4(level, Hash256::Sha3_256, [b""; LANES]);
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
        // block count (55/56 and 119/120 are where the padding spills).
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
        }
        assert_eq!(
            sha256_x([&[0u8; 55], &[0u8; 56]]),
            None,
            "different block counts are refused"
        );
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
            lens in proptest::array::uniform4(0usize..10_000),
            keccak in any::<bool>(),
        ) {
            let hash = if keccak { Hash256::Keccak256 } else { Hash256::Sha3_256 };
            let msgs: Vec<Vec<u8>> = lens.iter().enumerate().map(|(l, &n)| bytes(seed ^ l as u64, n)).collect();
            let refs: [&[u8]; LANES] = std::array::from_fn(|l| msgs[l].as_slice());
            // Equal block counts too: each length rounded into the first's block count.
            let n = blocks(lens[0]);
            let same: Vec<Vec<u8>> = lens.iter().enumerate()
                .map(|(l, &len)| bytes(seed.wrapping_add(l as u64), (n - 1) * RATE + len % RATE))
                .collect();
            let same_refs: [&[u8]; LANES] = std::array::from_fn(|l| same[l].as_slice());
            for level in Level::available() {
                for set in [refs, same_refs] {
                    let got = sponge256_x4(level, hash, set);
                    for l in 0..LANES {
                        prop_assert_eq!(got[l], oracle(hash, set[l]), "{} len {}", level.name(), set[l].len());
                    }
                }
            }
        }
    }
}
