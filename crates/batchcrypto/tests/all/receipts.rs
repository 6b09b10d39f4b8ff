//! Blocks' receipts (`ops::receipts`, `Engine::receipts_roots`)
//! on every engine: the receipts of a test chain's blocks as execution
//! clients answered `eth_getBlockReceipts` and `debug_getRawReceipts`
//! give the `receiptsRoot` and `logsBloom` of their headers
//! (`testdata/eth-receipts`, held there by py-trie); every RPC receipt of
//! every type encodes to the bytes pyrlp makes of it; generated blocks,
//! hostile of every kind, against the oracle (alloy-consensus,
//! alloy-primitives' blooms, alloy-trie) item by item and in number.

use batchcrypto::ops::ordered_trie::{EMPTY_ROOT, encode};
use batchcrypto::ops::receipts::{self, Receipt, Receipts, ReceiptsResult, Status, oracle, sample};
use batchcrypto::{FlatBytes, Reason};
use serde_json::Value;

use crate::support::{self, engines};

fn bytes(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().expect("hex").trim_start_matches("0x")).expect("hex")
}

fn fixed<const N: usize>(v: &Value) -> [u8; N] {
    bytes(v).try_into().expect("its length")
}

/// An RPC receipt's consensus fields, as the CLI and Python read them.
fn rpc_receipt(r: &Value) -> Receipt {
    receipts::from_rpc(r).expect("an RPC receipt")
}

/// Every engine's answers for `items` equal `want`, item by item and in
/// number, the tries on the GPU for the GPU engines (the hashing kernel
/// needs no SHADER_INT64).
fn assert_receipts(items: &[Vec<u8>], want: &[ReceiptsResult], what: &str) {
    let mut b = FlatBytes::new();
    for it in items {
        assert!(b.push(it));
    }
    for (name, engine) in engines() {
        let out = engine.receipts_roots(&b).expect("receipts");
        assert_eq!(
            out.selection.backend.name(),
            support::expected_backend(name, false),
            "{name}: {}",
            out.selection
        );
        support::assert_each(&format!("{name}: {what}"), &out.output, want, |g, w| g == w);
    }
}

/// `testdata/eth-receipts/receipts.json` (see its PROVENANCE): blocks 1
/// (post-state roots), 54 (statuses, eleven logs) and 3 (raw bytes) give
/// their headers' `receiptsRoot` and `logsBloom` on the oracle and every
/// engine; every RPC receipt (types 0 to 4) encodes to pyrlp's bytes; a
/// changed log, a flipped bloom bit and a receipt dropped are caught.
#[test]
fn execution_clients_receipts_give_their_headers_roots() {
    let Some(data) = support::vectors_json("eth-receipts/receipts.json") else {
        return;
    };
    let mut items = Vec::new();
    let mut want = Vec::new();
    let claims = |b: &Value| Receipts {
        root: fixed(&b["receiptsRoot"]),
        logs_bloom: fixed(&b["logsBloom"]),
    };
    for b in data["blocks"].as_array().expect("blocks") {
        let rpc = b["receipts"].as_array().expect("receipts");
        let encoded: Vec<Vec<u8>> = rpc.iter().map(|r| receipts::encode(&rpc_receipt(r))).collect();
        let pyrlp: Vec<Vec<u8>> = b["encoded"].as_array().expect("encoded").iter().map(bytes).collect();
        assert_eq!(encoded, pyrlp, "block {}", b["number"]);
        // Made from the logs, the blooms are the stated ones.
        for r in rpc {
            let mut made = rpc_receipt(r);
            made.logs_bloom = None;
            assert_eq!(receipts::encode(&made), receipts::encode(&rpc_receipt(r)));
        }
        let item = encode(&encoded).expect("fits");
        assert_eq!(oracle::check(&item), Ok(claims(b)), "block {}", b["number"]);
        items.push(item);
        want.push(Ok(claims(b)));
        // A log's data changed (its bloom holds): another root.
        let mut changed: Vec<Receipt> = rpc.iter().map(rpc_receipt).collect();
        if let Some(l) = changed.iter_mut().flat_map(|r| &mut r.logs).next() {
            l.data.push(1);
            let item = encode(&changed.iter().map(receipts::encode).collect::<Vec<_>>()).expect("fits");
            let got = oracle::check(&item);
            assert!(matches!(got, Ok(r) if r.root != claims(b).root && r.logs_bloom == claims(b).logs_bloom));
            items.push(item);
            want.push(got);
        }
        // The last receipt's bloom with a bit flipped; the last receipt dropped.
        let mut flipped = encoded.clone();
        let last = flipped.len() - 1;
        let mut r = rpc_receipt(&rpc[last]);
        r.logs_bloom.as_mut().expect("stated")[100] ^= 4;
        flipped[last] = receipts::encode(&r);
        items.push(encode(&flipped).expect("fits"));
        want.push(Err((Some(last), Reason::BloomMismatch)));
        let dropped = encode(&encoded[..last]).expect("fits");
        let got = oracle::check(&dropped);
        assert!(matches!(got, Ok(r) if r.root != claims(b).root));
        items.push(dropped);
        want.push(got);
    }
    for b in data["raw"].as_array().expect("raw") {
        let raw: Vec<Vec<u8>> = b["receipts"].as_array().expect("receipts").iter().map(bytes).collect();
        let item = encode(&raw).expect("fits");
        assert_eq!(oracle::check(&item), Ok(claims(b)), "block {}", b["number"]);
        items.push(item);
        want.push(Ok(claims(b)));
    }
    let mut kinds = Vec::new();
    for s in data["single"].as_array().expect("single") {
        let r = rpc_receipt(&s["receipt"]);
        kinds.push(r.tx_type);
        let encoded = receipts::encode(&r);
        assert_eq!(encoded, bytes(&s["encoded"]), "{}", s["source"]);
        // Alone, its bloom is the block's union.
        let item = encode(&[&encoded]).expect("fits");
        let got = oracle::check(&item);
        assert_eq!(got.map(|g| g.logs_bloom), Ok(r.logs_bloom.expect("stated")));
        items.push(item);
        want.push(got);
    }
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds, [0, 1, 2, 3, 4]);
    // Block 1 has no logs to change.
    assert_eq!(items.len(), 3 + 4 + 1 + 7);
    assert_receipts(&items, &want, "execution-apis receipts");
}

#[test]
fn generated_receipts_match_the_oracle_on_every_engine() {
    let made = sample::blocks(160, 17, 0.4, true);
    let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want: Vec<ReceiptsResult> = items.iter().map(|it| oracle::check(it)).collect();
    for ((_, kind), r) in made.iter().zip(&want) {
        assert_eq!(r.is_ok(), *kind == "valid", "{kind}: {r:?}");
    }
    for kind in sample::HOSTILE.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    assert_receipts(&items, &want, "generated");
    assert_receipts(&[], &[], "no items");
}

/// No receipts: the empty trie and an empty bloom; the reasons in their
/// order, each naming the first receipt that fails.
#[test]
fn the_empty_block_and_the_reasons() {
    let none: [&[u8]; 0] = [];
    let ok = receipts::encode(&Receipt {
        tx_type: 2,
        status: Status::Eip658(true),
        cumulative_gas_used: 1,
        logs_bloom: None,
        logs: vec![],
    });
    let typed5 = [&[5u8][..], &ok[1..]].concat();
    let one = encode(&[&ok]).expect("fits");
    let cases: Vec<(Vec<u8>, ReceiptsResult)> = vec![
        (
            encode(&none).expect("fits"),
            Ok(Receipts {
                root: EMPTY_ROOT,
                logs_bloom: [0; 256],
            }),
        ),
        (one[..one.len() - 1].to_vec(), Err((None, Reason::WrongInputLength))),
        (
            encode(&[&ok[..], b""]).expect("fits"),
            Err((Some(1), Reason::EmptyValue)),
        ),
        (
            encode(&[&ok[..], &typed5]).expect("fits"),
            Err((Some(1), Reason::UnsupportedTxType)),
        ),
        (
            encode(&[&ok[..], &ok[..ok.len() - 1]]).expect("fits"),
            Err((Some(1), Reason::MalformedReceipt)),
        ),
        // The first failing receipt is named, whatever the later ones.
        (
            encode(&[&typed5[..], b""]).expect("fits"),
            Err((Some(0), Reason::UnsupportedTxType)),
        ),
    ];
    let (items, want): (Vec<Vec<u8>>, Vec<ReceiptsResult>) = cases.into_iter().unzip();
    assert_eq!(items.iter().map(|it| oracle::check(it)).collect::<Vec<_>>(), want);
    assert_receipts(&items, &want, "edges");
}
