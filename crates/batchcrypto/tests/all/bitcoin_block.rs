//! Bitcoin blocks checked against their own headers
//! (`Engine::verify_bitcoin_blocks`, `ops::merkle::block`) on every
//! engine, the GPU ones on the GPU (the SHA-256 kernel), against an
//! oracle built on rust-bitcoin (its consensus decoding, txids, wtxids,
//! Merkle roots, witness commitment and targets), with Bitcoin Core's
//! rules written beside where rust-bitcoin does not have them (the
//! mutated tree, the nonce's size and the unexpected witness as
//! `CheckWitnessMalleation` orders them, BIP-34 heights written as
//! opcodes): the real blocks in `testdata/bitcoin-blocks` and every
//! network's genesis; generated regtest blocks, valid and broken in every
//! way the checks name, item by item and in number; every cut of a real
//! block; Core's reading where rust-bitcoin's differs; `nBits` at Core's
//! edges.

use batchcrypto::ops::merkle::block::{self, Failure, Network};
use batchcrypto::{Engine, FlatBytes, Reason};
use bitcoin::consensus::{deserialize, serialize};
use bitcoin::{Block, Transaction};

use crate::fuzz::targets::bitcoin_blocks::{KINDS, Kind, Rng, generated, height_script, oracle, rust_network};
use crate::support::{self, assert_each, engines, expected_backend};

/// Every engine's answers on `blocks` under `network` equal `want`, item
/// by item and in number, each engine having run where it should.
fn assert_blocks(blocks: &[Vec<u8>], network: Network, want: &[block::BlockResult], what: &str) {
    let mut b = FlatBytes::new();
    for x in blocks {
        assert!(b.push(x));
    }
    for (name, engine) in engines() {
        let out = engine.verify_bitcoin_blocks(&b, network).expect("blocks checked");
        if blocks.iter().any(|x| deserialize::<Block>(x).is_ok()) {
            assert_eq!(
                out.selection.backend.name(),
                expected_backend(name, false),
                "{name}: {what}"
            );
        }
        assert_each(&format!("{name}: {what}"), &out.output, want, |g, w| g == w);
    }
}

/// The real blocks in `testdata/bitcoin-blocks`: file name, network, bytes.
fn real_blocks() -> Option<Vec<(String, Network, Vec<u8>)>> {
    let dir = support::vectors_dir()?.join("bitcoin-blocks");
    let mut out = Vec::new();
    for (file, network) in [
        (
            "mainnet_block_000000000000000000000c835b2adcaedc20fdf6ee440009c249452c726dafae.raw",
            Network::Main,
        ),
        (
            "testnet_block_000000000000045e0b1660b6445b5e5c5ab63c9a4f956be7e1e69be04fa4497b.raw",
            Network::Testnet3,
        ),
        ("block_13b8a.hex", Network::Main),
    ] {
        let raw = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let bytes = if file.ends_with(".hex") {
            hex::decode(String::from_utf8(raw).expect("text").trim()).expect("hex")
        } else {
            raw
        };
        out.push((file.to_string(), network, bytes));
    }
    Some(out)
}

/// The hex Bitcoin shows for a hash.
fn shown(hash: &[u8; 32]) -> String {
    let mut h = *hash;
    h.reverse();
    hex::encode(h)
}

/// The real blocks and every network's genesis hold to their headers on
/// every engine, with the hashes their names and rust-bitcoin give; the
/// mainnet block commits to its witnesses (checked, from segwit's height
/// on), and the same block read as testnet3's (below its segwit height)
/// still holds: its commitment is then not checked, its witnesses allowed
/// by none.
#[test]
fn real_blocks_and_every_genesis_hold_to_their_headers() {
    let Some(real) = real_blocks() else {
        return;
    };
    let mut cases: Vec<(String, Network, Vec<u8>)> = real;
    for network in Network::ALL {
        let genesis = bitcoin::blockdata::constants::genesis_block(rust_network(network));
        cases.push((format!("{} genesis", network.name()), network, serialize(&genesis)));
    }
    for (name, network, bytes) in &cases {
        let want = oracle(bytes, *network);
        let checked = want.unwrap_or_else(|r| panic!("{name}: {r:?}"));
        assert_eq!(checked.failure, None, "{name}");
        if let Some(hash) = name.split('_').nth(2).and_then(|h| h.strip_suffix(".raw")) {
            assert_eq!(shown(&checked.hash), hash, "{name}");
        }
        assert_blocks(std::slice::from_ref(bytes), *network, &[want], name);
    }
    let mainnet = &cases[0].2;
    let checked = oracle(mainnet, Network::Main).expect("reads");
    let height = checked.height.expect("a BIP-34 height");
    assert!(height >= Network::Main.segwit_height(), "{height}");
    assert_eq!(
        shown(&oracle(&cases[2].2, Network::Main).expect("reads").hash)[..18],
        *"0000000000013b8ab2"
    );
    // Every real block together, and twice, in one batch.
    let all: Vec<Vec<u8>> = cases
        .iter()
        .take(3)
        .chain(cases.iter().take(3))
        .map(|c| c.2.clone())
        .collect();
    let want: Vec<_> = all.iter().map(|b| oracle(b, Network::Main)).collect();
    assert_blocks(&all, Network::Main, &want, "the real blocks on mainnet's parameters");
    // Past one group of messages (16 MiB hashed per pair of engine calls):
    // the mainnet block seven times, each after a cut copy of itself.
    let many: Vec<Vec<u8>> = (0..14)
        .map(|i| {
            if i % 2 == 0 {
                mainnet[..mainnet.len() - i - 1].to_vec()
            } else {
                mainnet.clone()
            }
        })
        .collect();
    let want: Vec<_> = many.iter().map(|b| oracle(b, Network::Main)).collect();
    assert_eq!(want.iter().filter(|w| w.is_ok_and(|c| c.failure.is_none())).count(), 7);
    assert_blocks(&many, Network::Main, &want, "seven mainnet blocks and seven cut ones");
}

/// Every cut of the testnet block and of block 13b8a, and each with a
/// byte added, are `malformed_block`; a byte changed in its header or
/// transactions is caught by some check, as the oracle says.
#[test]
fn cut_and_changed_real_blocks() {
    let Some(real) = real_blocks() else {
        return;
    };
    for (name, network, bytes) in &real[1..] {
        let mut blocks: Vec<Vec<u8>> = (0..bytes.len()).map(|cut| bytes[..cut].to_vec()).collect();
        blocks.push([&bytes[..], &[0]].concat());
        let want = vec![Err(Reason::MalformedBlock); blocks.len()];
        assert_eq!(blocks.iter().map(|b| oracle(b, *network)).collect::<Vec<_>>(), want);
        assert_blocks(&blocks, *network, &want, &format!("{name} cut"));
        let changed: Vec<Vec<u8>> = (0..bytes.len())
            .step_by(7)
            .map(|i| {
                let mut b = bytes.clone();
                b[i] ^= 1 << (i % 8);
                b
            })
            .collect();
        let want: Vec<_> = changed.iter().map(|b| oracle(b, *network)).collect();
        assert!(
            want.iter().all(|w| w.is_err() || w.is_ok_and(|c| c.failure.is_some())),
            "{name}: a change held"
        );
        assert_blocks(&changed, *network, &want, &format!("{name} changed"));
    }
}

/// Generated regtest blocks of every kind, and the same blocks under
/// mainnet's and testnet3's parameters (their work is too little; below
/// testnet3's segwit height their commitments are not checked): every
/// engine agrees with the oracle item by item and in number, and every
/// kind gives the check it breaks.
#[test]
fn generated_blocks_match_the_oracle_on_every_engine() {
    let mut rng = Rng(0x6269_7463_6f69_6e21);
    let mut blocks = Vec::new();
    let mut kinds = Vec::new();
    for round in 0..6 {
        for kind in KINDS {
            blocks.push(generated(&mut rng, kind));
            kinds.push(kind);
        }
        let _ = round;
    }
    let want: Vec<_> = blocks.iter().map(|b| oracle(b, Network::Regtest)).collect();
    for ((kind, w), b) in kinds.iter().zip(&want).zip(&blocks) {
        let c = w.unwrap_or_else(|r| panic!("{kind:?}: {r:?}"));
        let expected = match kind {
            Kind::Valid | Kind::ValidSegwit | Kind::SmallHeight | Kind::NoHeightVersion1 => None,
            Kind::BadNonce | Kind::TargetAboveLimit | Kind::NegativeTarget => Some(Failure::HighHash),
            Kind::WrongRoot => Some(Failure::MerkleRoot),
            Kind::Duplicated => Some(Failure::DuplicateTransactions),
            Kind::NonceTwoItems | Kind::NonceShort => Some(Failure::WitnessNonceSize),
            Kind::WrongCommitment => Some(Failure::WitnessCommitment),
            Kind::WitnessWithoutCommitment => Some(Failure::UnexpectedWitness),
        };
        assert_eq!(c.failure, expected, "{kind:?}");
        let stated = deserialize::<Block>(b).expect("reads").bip34_block_height().ok();
        match kind {
            Kind::NoHeightVersion1 => assert_eq!(c.height, None),
            Kind::SmallHeight => assert!(c.height.is_some_and(|h| h <= 16), "{:?}", c.height),
            _ => assert_eq!(c.height.map(u64::from), stated, "{kind:?}"),
        }
    }
    assert_blocks(&blocks, Network::Regtest, &want, "generated blocks on regtest");
    for network in [Network::Main, Network::Testnet3, Network::Signet] {
        let want: Vec<_> = blocks.iter().map(|b| oracle(b, network)).collect();
        assert!(
            want.iter()
                .all(|w| w.is_ok_and(|c| c.failure == Some(Failure::HighHash)))
        );
        assert_blocks(
            &blocks,
            network,
            &want,
            &format!("generated blocks on {}", network.name()),
        );
    }
}

/// Bytes Core reads otherwise than rust-bitcoin does (the oracle as Core),
/// and bytes neither reads: a transaction with no inputs and a `00` flag (Core: no inputs,
/// no outputs), a segwit flag whose witnesses are all empty or whose
/// inputs are none ("Superfluous witness record"), flags other than 1,
/// `CompactSize`s not in their shortest form or past 2^25, no
/// transactions at all.
#[test]
fn bytes_as_core_reads_them() {
    let mut rng = Rng(7);
    let valid = generated(&mut rng, Kind::Valid);
    let b: Block = deserialize(&valid).expect("reads");
    let header = serialize(&b.header);
    let coinbase = serialize(&b.txdata[0]);
    let engine: &Engine = &engines()[0].1;
    let check = |txs: &[&[u8]], count: &[u8]| {
        let mut block = header.clone();
        block.extend(count);
        for t in txs {
            block.extend(*t);
        }
        let mut batch = FlatBytes::new();
        assert!(batch.push(&block));
        let got = engine
            .verify_bitcoin_blocks(&batch, Network::Regtest)
            .expect("checked")
            .output[0];
        // The oracle reads as Core does here too (`core_read`).
        assert_eq!(got, oracle(&block, Network::Regtest));
        got
    };
    // Core reads it: version, no inputs, flag 0, lock time; the root then
    // differs (the header commits to the coinbase alone).
    let empty: &[u8] = &[2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let got = check(&[&coinbase, empty], &[2]).expect("Core reads it");
    assert_eq!(got.failure, Some(Failure::MerkleRoot));
    assert!(deserialize::<Transaction>(empty).is_err(), "rust-bitcoin does not");
    // Flag 1 and no inputs: rust-bitcoin reads it, Core does not.
    let no_inputs: &[u8] = &[2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    assert!(deserialize::<Transaction>(no_inputs).is_ok());
    assert_eq!(check(&[&coinbase, no_inputs], &[2]), Err(Reason::MalformedBlock));
    // Flag 1 with one input whose witness is empty; flag 2 and 3.
    let input = [&[0u8; 36][..], &[0], &[0xff; 4]].concat();
    let output = [&[0u8; 8][..], &[1, 0x51]].concat();
    let with =
        |flag: u8, witness: &[u8]| [&[2, 0, 0, 0, 0, flag, 1][..], &input, &[1], &output, witness, &[0; 4]].concat();
    assert!(check(&[&coinbase, &with(1, &[1, 1, 7])], &[2]).is_ok());
    assert_eq!(check(&[&coinbase, &with(1, &[0])], &[2]), Err(Reason::MalformedBlock));
    assert_eq!(check(&[&coinbase, &with(2, &[])], &[2]), Err(Reason::MalformedBlock));
    assert_eq!(
        check(&[&coinbase, &with(3, &[1, 1, 7])], &[2]),
        Err(Reason::MalformedBlock)
    );
    // The count: shortest form only, at most 2^25, at least one.
    assert!(check(&[&coinbase], &[1]).is_ok());
    assert_eq!(check(&[&coinbase], &[0xfd, 1, 0]), Err(Reason::MalformedBlock));
    assert_eq!(check(&[], &[0]), Err(Reason::MalformedBlock));
    assert_eq!(check(&[&coinbase], &[0xfe, 0, 0, 0, 0x02]), Err(Reason::MalformedBlock));
    assert_eq!(check(&[], &[0xfe, 1, 0, 0, 0x02]), Err(Reason::MalformedBlock));
}

/// `nBits` as Core's `SetCompact` and `CheckProofOfWork` read it: sizes up
/// to 3 shifting the word down, the sign bit, the overflows, zero, and
/// each network's limit.
#[test]
fn targets_at_cores_edges() {
    let be = |hex: &str| -> [u8; 32] { hex::decode(format!("{hex:0>64}")).expect("hex").try_into().expect("32") };
    assert_eq!(
        block::target(0x1d00_ffff),
        Some(be("ffff0000000000000000000000000000000000000000000000000000"))
    );
    assert_eq!(block::target(0x0312_3456), Some(be("123456")));
    assert_eq!(block::target(0x0212_3456), Some(be("1234")));
    assert_eq!(block::target(0x0112_3456), Some(be("12")));
    assert_eq!(block::target(0x0012_3456), None, "zero");
    assert_eq!(block::target(0x0180_0000), None, "zero, the sign bit set");
    assert_eq!(block::target(0x0492_3456), None, "negative");
    assert_eq!(block::target(0x0100_0080), None, "shifted to zero");
    assert_eq!(block::target(0x0400_0000), None, "zero");
    assert_eq!(block::target(0x2200_00ff), Some(be(&format!("ff{}", "0".repeat(62)))));
    assert_eq!(block::target(0x2200_0100), None, "past 256 bits");
    assert_eq!(block::target(0x2100_ffff), Some(be(&format!("ffff{}", "0".repeat(60)))));
    assert_eq!(block::target(0x2101_0000), None, "past 256 bits");
    assert_eq!(
        block::target(0x2101_7fff),
        None,
        "past 256 bits, what is left under regtest's limit"
    );
    assert_eq!(block::target(0x2300_0001), None, "past 256 bits");
    assert_eq!(block::target(0xff00_0000), None, "zero");
    let regtest = Network::Regtest.pow_limit();
    assert!(block::target(0x207f_ffff).is_some_and(|t| t <= regtest));
    assert!(block::target(0x2080_0000).is_none());
    assert!(block::target(0x2100_8000).is_some_and(|t| t > regtest));
    let main = Network::Main.pow_limit();
    assert!(block::target(0x1d00_ffff).is_some_and(|t| t <= main));
    assert!(block::target(0x1d01_0000).is_some_and(|t| t > main));
    assert!(block::target(0x1e03_77ae).is_some_and(|t| t == Network::Signet.pow_limit()));
    // A hash at the target holds, one above it does not.
    let mut at = be("ffff0000000000000000000000000000000000000000000000000000");
    at.reverse();
    assert!(block::pow_holds(&at, 0x1d00_ffff, Network::Main));
    at[0] = 1;
    assert!(!block::pow_holds(&at, 0x1d00_ffff, Network::Main));
    // Heights as CScript() << h writes them, and nothing else.
    for h in [
        0u32,
        1,
        16,
        17,
        127,
        128,
        255,
        256,
        32_767,
        32_768,
        481_824,
        8_388_607,
        8_388_608,
        i32::MAX as u32,
    ] {
        assert_eq!(block::coinbase_height(&height_script(h)), Some(h), "{h}");
    }
    for bad in [
        &[][..],
        &[0x01],
        &[0x01, 0x05],
        &[0x01, 0x80],
        &[0x02, 0x11, 0x00],
        &[0x01, 0x00],
        &[0x05, 1, 2, 3, 4, 5],
        &[0x4f],
        &[0x03, 1, 2],
    ] {
        assert_eq!(block::coinbase_height(bad), None, "{bad:?}");
    }
    assert_eq!(block::coinbase_height(&[0x02, 0x80, 0x00]), Some(128));
}
