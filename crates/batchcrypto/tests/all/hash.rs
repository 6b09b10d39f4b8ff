//! Batch hashing on every backend (the GPU kernel included, on whatever
//! adapter exists) against known answers and the oracles:
//! the Keccak team's KATs (Keccak-256), NIST CAVP and XKCP (SHA3-256), the
//! FIPS 180-2 examples (SHA-256), BLAKE3's official vectors, BLAKE2b-256
//! answers from CPython's reference copy and four published ones, every
//! rate, block and chunk boundary and random lengths.

use crate::support::{engines, vectors_dir};
use batchcrypto::FlatBytes;
use batchcrypto::ops::hash::{Alg, Digest, oracle};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Hashes `msgs` on every engine and asserts each digest equals `expected`.
/// Only with `allow_loop_cut` (very long messages) may the GPU engine hand
/// the batch to the CPU, and only because its loop guard fired.
fn assert_digests(alg: Alg, msgs: &[Vec<u8>], expected: &[Digest], what: &str, allow_loop_cut: bool) {
    let mut flat = FlatBytes::new();
    for m in msgs {
        assert!(flat.push(m));
    }
    for (name, engine) in engines() {
        let outcome = engine.hash(alg, &flat).expect("hash");
        let ran = outcome.selection.backend.name();
        // A driver that cuts long loops short (llvmpipe: 65535 iterations per
        // invocation) must be caught by the kernel's guard and the batch rerun
        // on the CPU; any other fallback is a failure.
        if allow_loop_cut && name.starts_with("gpu") && outcome.selection.why.contains("cut a loop short") {
            crate::support::notice(&format!(
                "{alg} {what}: the GPU driver cut loops short; checked the CPU rerun"
            ));
        } else {
            assert_eq!(
                ran,
                crate::support::expected_backend(name, false),
                "{name} ran on {}",
                outcome.selection
            );
        }
        let got = outcome.output;
        assert_eq!(got.len(), msgs.len(), "{name}");
        for (i, (g, e)) in got.iter().zip(expected).enumerate() {
            assert_eq!(
                hex::encode(g),
                hex::encode(e),
                "{name} {alg} {what} item {i} ({} bytes)",
                msgs[i].len()
            );
        }
    }
}

/// `Len = bits` / `Msg = hex` / `MD = hex` records, byte-aligned ones only.
fn kat(path: &str) -> Option<(Vec<Vec<u8>>, Vec<Digest>)> {
    let dir = vectors_dir()?;
    let text = std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut msgs, mut mds) = (Vec::new(), Vec::new());
    let mut len = None;
    let mut msg = None;
    for line in text.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("Len = ") {
            len = v.parse::<usize>().ok();
        } else if let Some(v) = line.strip_prefix("Msg = ") {
            msg = Some(hex::decode(v).expect("hex msg"));
        } else if let Some(v) = line.strip_prefix("MD = ") {
            let (Some(bits), Some(mut m)) = (len.take(), msg.take()) else {
                continue;
            };
            if bits % 8 != 0 {
                continue;
            }
            m.truncate(bits / 8); // Len = 0 comes with Msg = 00
            msgs.push(m);
            mds.push(hex::decode(v).expect("hex md").try_into().expect("32-byte digest"));
        }
    }
    assert!(!msgs.is_empty(), "{path}: no records");
    Some((msgs, mds))
}

#[test]
fn keccak256_kats() {
    for file in [
        "keccak-sha3/keccak-kat3/ShortMsgKAT_256.txt",
        "keccak-sha3/keccak-kat3/LongMsgKAT_256.txt",
    ] {
        let Some((msgs, mds)) = kat(file) else { return };
        assert_digests(Alg::Keccak256, &msgs, &mds, file, false);
    }
}

#[test]
fn sha3_256_kats() {
    for file in [
        "keccak-sha3/nist-cavp/SHA3_256ShortMsg.rsp",
        "keccak-sha3/nist-cavp/SHA3_256LongMsg.rsp",
        "keccak-sha3/xkcp/ShortMsgKAT_SHA3-256.txt",
    ] {
        let Some((msgs, mds)) = kat(file) else { return };
        assert_digests(Alg::Sha3_256, &msgs, &mds, file, false);
    }
}

/// FIPS 180-2 appendix B examples (in the source, so a plain clone has them).
#[test]
fn sha256_fips_examples() {
    let cases: [(&[u8], &str); 4] = [
        (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        ),
        (
            &[b'a'; 1_000_000],
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
        ),
    ];
    assert_answers(Alg::Sha256, &cases, "FIPS 180-2", true);
}

/// [`assert_digests`] over (message, digest in hex) pairs.
fn assert_answers(alg: Alg, cases: &[(&[u8], &str)], what: &str, allow_loop_cut: bool) {
    let msgs: Vec<Vec<u8>> = cases.iter().map(|(m, _)| m.to_vec()).collect();
    let mds: Vec<Digest> = cases
        .iter()
        .map(|(_, d)| hex::decode(d).expect("hex").try_into().expect("32"))
        .collect();
    assert_digests(alg, &msgs, &mds, what, allow_loop_cut);
}

/// `{"cases": [{"input_len": n, "hash": hex}]}` records over the BLAKE3
/// vectors' inputs (byte i is i mod 251): the messages and the first 32
/// bytes of each hash (BLAKE3's default digest; BLAKE2b-256's whole).
fn patterned_kat(path: &str) -> Option<(Vec<Vec<u8>>, Vec<Digest>)> {
    let dir = vectors_dir()?;
    let text = std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases = json["cases"].as_array().expect("cases");
    assert!(!cases.is_empty(), "{path}: no cases");
    let msgs = cases
        .iter()
        .map(|c| {
            (0..c["input_len"].as_u64().expect("input_len"))
                .map(|i| (i % 251) as u8)
                .collect()
        })
        .collect();
    let mds = cases
        .iter()
        .map(|c| {
            let hash = hex::decode(c["hash"].as_str().expect("hash")).expect("hex");
            hash[..32].try_into().expect("at least 32 bytes")
        })
        .collect();
    Some((msgs, mds))
}

/// The `count` records of [`patterned_kat`] file `path` on every engine
/// (long messages may trip llvmpipe's loop cap on the GPU: then the CPU
/// rerun is what is checked).
fn assert_patterned_kat(alg: Alg, path: &str, count: usize) {
    let Some((msgs, mds)) = patterned_kat(path) else {
        return;
    };
    assert_eq!(msgs.len(), count, "{path}");
    assert_digests(alg, &msgs, &mds, path, true);
}

/// BLAKE3's own test vectors (35 lengths up to 102,400 bytes: trees of
/// up to 101 chunks).
#[test]
fn blake3_official_vectors() {
    assert_patterned_kat(Alg::Blake3, "blake3/test_vectors.json", 35);
}

/// BLAKE2b-256 from CPython's copy of the reference implementation (321
/// lengths up to 102,400 bytes), and four published answers (in the
/// source, so a plain clone has them).
#[test]
fn blake2b_256_known_answers() {
    let published: [(&[u8], &str); 4] = [
        (b"", "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"),
        (
            b"abc",
            "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
        ),
        (
            b"The quick brown fox jumps over the lazy dog",
            "01718cec35cd3d796dd00020e0bfecb473ad23457d063b75eff29c0ffa2e58a9",
        ),
        (
            b"\0",
            "03170a2e7597b7b7e3d84c05391d139a62b157e78786d8c082f29dcf4c111314",
        ),
    ];
    assert_answers(Alg::Blake2b256, &published, "published", false);
    assert_patterned_kat(Alg::Blake2b256, "blake2b/blake2b-256.json", 321);
}

/// Every length around the sponge rate (136 bytes) and the SHA-256 block
/// (55/56 bytes fit or spill the length field), plus random lengths up to
/// several blocks, against the oracle.
#[test]
fn rate_boundaries_and_random_lengths() {
    let mut rng = StdRng::seed_from_u64(15);
    for alg in Alg::ALL {
        let mut lens: Vec<usize> = match alg {
            Alg::Keccak256 | Alg::Sha3_256 => vec![0, 1, 135, 136, 137, 271, 272, 273, 408],
            Alg::Sha256 => vec![0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128],
            Alg::Blake2b256 => vec![0, 1, 127, 128, 129, 255, 256, 257, 384],
            // Blocks, chunks, and trees whose stacks merge (2, 3, 4, 5 and
            // 9 chunks).
            Alg::Blake3 => vec![0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 3073, 4096, 5000, 9217],
        };
        lens.extend((0..300).map(|_| rng.random_range(0..1200)));
        let msgs: Vec<Vec<u8>> = lens
            .iter()
            .map(|&n| {
                let mut m = vec![0u8; n];
                rng.fill(&mut m[..]);
                m
            })
            .collect();
        let mds: Vec<Digest> = msgs.iter().map(|m| oracle::digest(alg, m)).collect();
        assert_digests(alg, &msgs, &mds, "random", false);
    }
}

#[test]
fn empty_batch_gives_no_digests() {
    for (name, engine) in engines() {
        for alg in Alg::ALL {
            assert!(
                engine.hash(alg, &FlatBytes::new()).expect("hash").output.is_empty(),
                "{name}"
            );
        }
    }
}
