//! The senders of Ethereum transactions (`tx_sender`) on every engine:
//! `testdata/eth-txs/txs.json`'s 83 known answers (mainnet block
//! 15,571,241's transactions and the senders its node recovered; EIP-155's
//! example; every type signed by eth-account) on the oracle and every
//! engine, the GPU ones on the GPU; generated transactions, hostile of
//! every kind, against the oracle item by item and in number; each
//! byte of a real transaction changed, every cut of it, and its high-s
//! twin (EIP-2).

use batchcrypto::ops::ecdsa::SECP256K1_N;
use batchcrypto::ops::ecdsa::sample::negate;
use batchcrypto::ops::tx_sender::{SenderResult, oracle, sample, signing};
use batchcrypto::{FlatBytes, Reason};

use crate::support::{self, engines};

/// Every engine's senders of `txs` equal `want`, item by item and in
/// number; the GPU engines' from the GPU (the `ecrecover` kernel).
fn assert_senders(txs: &[Vec<u8>], want: &[SenderResult], what: &str) {
    support::assert_addresses(txs, want, what, |e, b| e.tx_senders(b).expect("senders"));
}

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim_start_matches("0x")).expect("hex")
}

/// A known answer: its name, the transaction, its sender.
type Known = (String, Vec<u8>, [u8; 20]);

/// `txs.json`'s known answers.
fn known() -> Option<Vec<Known>> {
    let cases = support::vectors_json("eth-txs/txs.json")?;
    Some(
        cases
            .as_array()
            .expect("a list")
            .iter()
            .map(|c| {
                let sender: [u8; 20] = unhex(c["sender"].as_str().expect("sender"))
                    .try_into()
                    .expect("20 bytes");
                (
                    c["name"].as_str().expect("name").to_string(),
                    unhex(c["tx"].as_str().expect("tx")),
                    sender,
                )
            })
            .collect(),
    )
}

#[test]
fn known_senders_on_every_engine() {
    let Some(cases) = known() else {
        return;
    };
    assert_eq!(cases.len(), 83);
    for (name, tx, sender) in &cases {
        assert_eq!(oracle::sender(tx), Ok(*sender), "{name}");
    }
    // Every type among them.
    for ty in 0..5u8 {
        assert!(
            cases
                .iter()
                .any(|(_, tx, _)| if tx[0] >= 0xc0 { ty == 0 } else { tx[0] == ty }),
            "type {ty}"
        );
    }
    let txs: Vec<Vec<u8>> = cases.iter().map(|(_, tx, _)| tx.clone()).collect();
    let want: Vec<SenderResult> = cases.iter().map(|(_, _, s)| Ok(*s)).collect();
    assert_senders(&txs, &want, "known answers");
}

/// The first mainnet transaction's every byte changed (one bit), every
/// cut, a byte added, and its high-s twin: the oracle's answers on every
/// engine, the twin `high_s` (EIP-2) where the precompile's rule would
/// recover the same sender.
#[test]
fn changed_real_transactions() {
    let Some(cases) = known() else {
        return;
    };
    let (_, tx, sender) = &cases[0];
    let mut txs: Vec<Vec<u8>> = (0..tx.len())
        .map(|i| {
            let mut t = tx.clone();
            t[i] ^= 1 << (i % 8);
            t
        })
        .collect();
    txs.extend((0..tx.len()).map(|cut| tx[..cut].to_vec()));
    txs.push([&tx[..], &[0]].concat());
    let want: Vec<SenderResult> = txs.iter().map(|t| oracle::sender(t)).collect();
    assert!(
        want.iter().all(|w| w != &Ok(*sender)),
        "a changed transaction kept its sender"
    );
    let cuts = &want[tx.len()..];
    assert!(cuts.iter().all(|w| w == &Err(Reason::MalformedTransaction)), "{cuts:?}");
    // Its high-s twin: s -> n - s, the parity flipped (v 0x25 <-> 0x26 at
    // chain id 1), the list's length unchanged when n - s has no leading zero.
    let item = signing(tx).expect("signs");
    let twin_s = negate(&item.sig[32..64], &SECP256K1_N);
    assert!(twin_s[0] != 0);
    let at = tx.len() - 32;
    assert_eq!(tx[at - 1], 0xa0, "s is the last field, 32 bytes");
    let v_at = at - 1 - 33 - 1;
    assert!(matches!(tx[v_at], 0x25 | 0x26), "v at chain id 1");
    let mut twin = tx.clone();
    twin[at..].copy_from_slice(&twin_s);
    twin[v_at] ^= 0x25 ^ 0x26;
    let mut precompile = signing(&twin).expect("signs");
    precompile.sig[64] -= 27;
    let recovered = batchcrypto::ops::ecdsa::oracle::ecrecover(&precompile, false).expect("recovers");
    assert_eq!(recovered.address, *sender, "the twin recovers the sender without EIP-2");
    assert_eq!(oracle::sender(&twin), Err(Reason::HighS));
    txs.push(twin);
    let mut want = want;
    want.push(Err(Reason::HighS));
    assert_senders(&txs, &want, "changed real transactions");
}

#[test]
fn generated_transactions_match_the_oracle_on_every_engine() {
    let made = sample::transactions(240, 6, 17, 0.3, true);
    let txs: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want: Vec<SenderResult> = txs.iter().map(|t| oracle::sender(t)).collect();
    for ((_, kind), w) in made.iter().zip(&want) {
        assert_eq!(w.is_ok(), *kind == "valid", "{kind}: {w:?}");
    }
    for kind in sample::HOSTILE.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    assert_senders(&txs, &want, "generated");
    assert_senders(&[], &[], "no items");
    // The bench's form, every signer's address among the answers.
    let made = sample::transactions(24, 3, 5, 0.0, false);
    let txs: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let keys: Vec<[u8; 20]> = sample::signers(3, 5).iter().map(sample::address).collect();
    let want: Vec<SenderResult> = txs.iter().map(|t| oracle::sender(t)).collect();
    assert!(want.iter().all(|w| w.as_ref().is_ok_and(|a| keys.contains(a))));
    assert_senders(&txs, &want, "bench form");
}

/// The type byte's edges: 0 and 5 to 0x7f are `unsupported_tx_type`
/// however the rest reads, 0x80 to 0xbf (an RLP string, no list) and no
/// bytes `malformed_transaction`.
#[test]
fn the_type_byte() {
    let mut txs = Vec::new();
    let mut want = Vec::new();
    for first in [0u8, 5, 0x7e, 0x7f] {
        txs.push(vec![first, 0xc0]);
        want.push(Err(Reason::UnsupportedTxType));
    }
    for t in [
        vec![0x80],
        vec![0xb8, 1, 0],
        vec![0xc0],
        vec![1],
        vec![4, 0xc0],
        Vec::new(),
    ] {
        txs.push(t);
        want.push(Err(Reason::MalformedTransaction));
    }
    let got: Vec<SenderResult> = txs.iter().map(|t| oracle::sender(t)).collect();
    assert_eq!(got, want);
    assert_senders(&txs, &want, "type bytes");
}

/// Whole blocks with their senders (`Engine::verify_blocks_with_senders`)
/// on every engine, the GPU ones on the GPU: mainnet block 15,571,241
/// (`testdata/eth-blocks/raw-blocks.json`) holds to its header and its 58
/// senders are those its node recovered (`txs.json`); the testnet block
/// without its transactions, which does not hold to its header, and bytes
/// that are no block have none.
#[test]
fn blocks_with_their_senders() {
    use batchcrypto::ops::ordered_trie::block::Field;
    let (Some(raws), Some(cases)) = (support::vectors_json("eth-blocks/raw-blocks.json"), known()) else {
        return;
    };
    let mut blocks = FlatBytes::new();
    for raw in raws.as_array().expect("a list") {
        assert!(blocks.push(&unhex(raw["raw"].as_str().expect("hex"))));
    }
    assert!(blocks.push(&[0xc0]));
    assert_eq!(blocks.len(), 3);
    let mainnet: Vec<[u8; 20]> = cases[..58].iter().map(|(_, _, s)| *s).collect();
    for (name, engine) in engines() {
        let out = engine.verify_blocks_with_senders(&blocks).expect("blocks");
        assert_eq!(
            out.selection.backend.name(),
            support::expected_backend(name, true),
            "{name}: {}",
            out.selection
        );
        let [(first, senders), (second, none), (third, no_block)] = &out.output[..] else {
            panic!("{name}: {} answers for 3 blocks", out.output.len());
        };
        assert_eq!(
            first.as_ref().map(|c| (c.number, c.mismatch)),
            Ok((15_571_241, None)),
            "{name}"
        );
        assert_eq!(senders.as_ref(), Some(&Ok(mainnet.clone())), "{name}");
        assert_eq!(
            second.as_ref().map(|c| c.mismatch),
            Ok(Some(Field::TransactionsRoot)),
            "{name}"
        );
        assert_eq!(
            (none, third, no_block),
            (&None, &Err(Reason::MalformedBlock), &None),
            "{name}"
        );
    }
}
