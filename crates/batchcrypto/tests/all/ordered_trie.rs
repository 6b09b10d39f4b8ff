//! The roots of ordered tries (`ordered_trie_root`) on every engine: the
//! transactions root of mainnet block 15,571,241 and the withdrawals root
//! of a testnet block as their headers state them (`testdata/eth-blocks`);
//! the roots py-trie (ethereum's Python trie, independent of alloy-trie)
//! finds for lists of every shape up to 1,000 values; generated lists,
//! hostile of every kind, against the oracle (alloy-trie's
//! `ordered_trie_root_encoded`) item by item and in number; the empty
//! trie and the reasons at the edges.

use batchcrypto::ops::hash::{Alg, oracle as hashes};
use batchcrypto::ops::ordered_trie::{EMPTY_ROOT, RootResult, encode, oracle, sample};
use batchcrypto::{FlatBytes, Op, Reason, registry};

use crate::support::{self, engines};

/// A list of items as a batch.
fn batch(items: &[Vec<u8>]) -> FlatBytes {
    let mut b = FlatBytes::new();
    for it in items {
        assert!(b.push(it));
    }
    b
}

/// Every engine's roots of `items` equal `want`, item by item and in
/// number; the GPU engines' from the GPU (the hashing kernel needs no
/// SHADER_INT64).
fn assert_roots(items: &[Vec<u8>], want: &[RootResult], what: &str) {
    assert!(registry::spec(Op::OrderedTrieRoot).gpu_kernel);
    let b = batch(items);
    for (name, engine) in engines() {
        let out = engine.ordered_trie_roots(&b).expect("roots");
        let backend = support::expected_backend(name, false);
        assert_eq!(out.selection.backend.name(), backend, "{name}: {}", out.selection);
        support::assert_each(&format!("{name}: {what}"), &out.output, want, |g, w| g == w);
    }
}

fn oracle_roots(items: &[Vec<u8>]) -> Vec<RootResult> {
    items.iter().map(|it| oracle::root(it)).collect()
}

fn hex32(s: &str) -> [u8; 32] {
    hex::decode(s.trim_start_matches("0x"))
        .expect("hex")
        .try_into()
        .expect("32 bytes")
}

/// `testdata/eth-blocks/blocks.json` (see its PROVENANCE): each block's
/// values give the root its header states, on the oracle and every
/// engine; the same values reordered, one dropped, or one byte changed
/// give other roots.
#[test]
fn real_blocks_give_their_headers_roots() {
    let Some(blocks) = support::vectors_json("eth-blocks/blocks.json") else {
        return;
    };
    let mut items = Vec::new();
    let mut want = Vec::new();
    for block in blocks.as_array().expect("a list") {
        let values: Vec<Vec<u8>> = block["values"]
            .as_array()
            .expect("values")
            .iter()
            .map(|v| hex::decode(v.as_str().expect("hex").trim_start_matches("0x")).expect("hex"))
            .collect();
        let root = hex32(block["root"].as_str().expect("root"));
        let what = format!("block {} {}", block["block"], block["trie"]);
        assert_eq!(oracle::root(&encode(&values).expect("fits")), Ok(root), "{what}");
        items.push(encode(&values).expect("fits"));
        want.push(Ok(root));
        // Changed bodies: two values swapped, the last dropped, a byte changed.
        let mut swapped = values.clone();
        swapped.swap(0, 1);
        let mut changed = values.clone();
        changed[values.len() / 2][0] ^= 1;
        for other in [swapped, values[..values.len() - 1].to_vec(), changed] {
            let item = encode(&other).expect("fits");
            let got = oracle::root(&item);
            assert!(got.is_ok() && got != Ok(root), "{what}: a changed body kept the root");
            items.push(item);
            want.push(got);
        }
    }
    assert_eq!(items.len(), 8, "two blocks, four items each");
    assert_roots(&items, &want, "real blocks");
}

/// `make.py`'s `shape_value`: SHA-256 of "n/i/style" is the seed; the
/// value is the stream SHA-256(seed ‖ k) for k = 0, 1, … cut to a length
/// the style and seed choose.
fn shape_value(n: usize, i: usize, style: &str) -> Vec<u8> {
    let seed = hashes::digest(Alg::Sha256, format!("{n}/{i}/{style}").as_bytes());
    let len = match style {
        "short" => 1 + usize::from(seed[0]) % 31,
        "byte" => 1,
        _ => 1 + usize::from(u16::from_be_bytes([seed[0], seed[1]])) % 300,
    };
    let stream: Vec<u8> = (0..=len / 32)
        .flat_map(|k| hashes::digest(Alg::Sha256, &[&seed[..], &[k as u8]].concat()))
        .collect();
    stream[..len].to_vec()
}

/// `testdata/eth-blocks/shapes.json`: py-trie's roots of 39 lists of 1 to
/// 1,000 values in three styles (embedded leaves, one-byte values, 1-300
/// bytes), on the oracle and every engine.
#[test]
fn py_trie_roots_of_every_shape() {
    let Some(shapes) = support::vectors_json("eth-blocks/shapes.json") else {
        return;
    };
    let mut items = Vec::new();
    let mut want = Vec::new();
    for shape in shapes.as_array().expect("a list") {
        let n = shape["n"].as_u64().expect("n") as usize;
        let style = shape["style"].as_str().expect("style");
        let values: Vec<Vec<u8>> = (0..n).map(|i| shape_value(n, i, style)).collect();
        let item = encode(&values).expect("fits");
        let root = Ok(hex32(shape["root"].as_str().expect("root")));
        assert_eq!(oracle::root(&item), root, "{n} values, {style}");
        items.push(item);
        want.push(root);
    }
    assert_eq!(items.len(), 39);
    assert_roots(&items, &want, "py-trie shapes");
}

#[test]
fn generated_lists_match_the_oracle_on_every_engine() {
    let made = sample::lists(500, 13, 0.3, true);
    let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want = oracle_roots(&items);
    for ((_, kind), r) in made.iter().zip(&want) {
        assert_eq!(r.is_ok(), *kind == "valid", "{kind}: {r:?}");
    }
    for kind in sample::HOSTILE.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    assert_roots(&items, &want, "generated");
    // No items: no roots.
    assert_roots(&[], &[], "no items");
    // The bench's form: blocks of transactions.
    let made = sample::lists(16, 3, 0.0, false);
    let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want = oracle_roots(&items);
    assert!(want.iter().all(Result::is_ok));
    assert_roots(&items, &want, "bench form");
}

/// No values is the empty trie (its root Keccak-256 of `0x80`); one value
/// of one byte under 0x80 makes a root node under 32 bytes, still hashed;
/// layouts that do not read are `wrong_input_length`, a value of no bytes
/// `empty_value`, wherever it is.
#[test]
fn the_empty_trie_and_the_edges() {
    assert_eq!(EMPTY_ROOT, hashes::digest(Alg::Keccak256, &[0x80]));
    let none: [&[u8]; 0] = [];
    let one = encode(&[[1u8]]).expect("fits");
    let cases: Vec<(Vec<u8>, RootResult)> = vec![
        (encode(&none).expect("fits"), Ok(EMPTY_ROOT)),
        // One leaf, the root: key RLP(0) = 0x80 whole (a leaf's even
        // path: 0x20 ‖ 0x80) and the value 0x01, RLP([0x2080, 0x01]).
        (
            one.clone(),
            Ok(hashes::digest(Alg::Keccak256, &[0xc4, 0x82, 0x20, 0x80, 0x01])),
        ),
        (encode(&[&b"a"[..], b""]).expect("fits"), Err(Reason::EmptyValue)),
        (encode(&[&b""[..], b"a"]).expect("fits"), Err(Reason::EmptyValue)),
        (one[..one.len() - 1].to_vec(), Err(Reason::WrongInputLength)),
        ([&one[..], &[0]].concat(), Err(Reason::WrongInputLength)),
        (vec![0, 0, 0], Err(Reason::WrongInputLength)),
        (Vec::new(), Err(Reason::WrongInputLength)),
    ];
    let (items, want): (Vec<Vec<u8>>, Vec<RootResult>) = cases.into_iter().unzip();
    assert_eq!(oracle_roots(&items), want);
    assert_roots(&items, &want, "edges");
}

/// `testdata/eth-blocks/raw-blocks.json` (made by `make.py`: mainnet block
/// 15,571,241 as `debug_getRawBlock` gives it, its header's Keccak-256
/// and its length checked there against the RPC answer's `hash` and
/// `size`; a testnet block's header and withdrawals without its
/// transactions): `block::read` finds the number, the header whose hash
/// is the block's, no ommers under the empty list's hash; on every engine
/// the transactions' root is the header's `transactionsRoot`, the
/// withdrawals' its `withdrawalsRoot`, and the block without its
/// transactions has the empty trie's root, not its header's.
#[test]
fn raw_blocks_hold_their_headers_roots() {
    use batchcrypto::ops::ordered_trie::block;
    let Some(raws) = support::vectors_json("eth-blocks/raw-blocks.json") else {
        return;
    };
    let mut items = Vec::new();
    let mut want = Vec::new();
    for raw in raws.as_array().expect("a list") {
        let bytes = hex::decode(raw["raw"].as_str().expect("hex").trim_start_matches("0x")).expect("hex");
        let b = block::read(&bytes).expect("a block");
        assert_eq!(Some(b.number), raw["block"].as_u64());
        assert_eq!(
            hashes::digest(Alg::Keccak256, b.header),
            hex32(raw["hash"].as_str().expect("hash"))
        );
        assert_eq!(b.ommers, [0xc0]);
        assert_eq!(hashes::digest(Alg::Keccak256, b.ommers), b.ommers_hash);
        if raw["whole"].as_bool() == Some(true) {
            assert_eq!((b.transactions.len(), b.withdrawals_root), (58, None));
            items.push(encode(&b.transactions).expect("fits"));
            want.push(Ok(b.transactions_root));
        } else {
            assert!(b.transactions.is_empty());
            assert_ne!(b.transactions_root, EMPTY_ROOT);
            items.push(encode(&b.transactions).expect("fits"));
            want.push(Ok(EMPTY_ROOT));
            let withdrawals = b.withdrawals.expect("withdrawals");
            assert_eq!(withdrawals.len(), 16);
            items.push(encode(&withdrawals).expect("fits"));
            want.push(Ok(b.withdrawals_root.expect("a withdrawals root")));
        }
    }
    assert_eq!(items.len(), 3);
    assert_eq!(oracle_roots(&items), want);
    assert_roots(&items, &want, "raw blocks");
    // Whole: the mainnet block holds its header, the other block (no
    // transactions) fails at its transactionsRoot, bytes that are no block
    // are malformed; on every engine, the GPU's lists on the GPU.
    let mut blocks = FlatBytes::new();
    for raw in raws.as_array().expect("a list") {
        assert!(blocks.push(&hex::decode(raw["raw"].as_str().expect("hex").trim_start_matches("0x")).expect("hex")));
    }
    assert!(blocks.push(&[0xc0]));
    let hash = |k: usize| hex32(raws[k]["hash"].as_str().expect("hash"));
    let want = vec![
        Ok(block::Checked {
            number: 15_571_241,
            hash: hash(0),
            mismatch: None,
        }),
        Ok(block::Checked {
            number: 8_705_029,
            hash: hash(1),
            mismatch: Some(block::Field::TransactionsRoot),
        }),
        Err(Reason::MalformedBlock),
    ];
    for (name, engine) in engines() {
        let out = engine.verify_blocks(&blocks).expect("blocks");
        assert_eq!(
            out.selection.backend.name(),
            support::expected_backend(name, false),
            "{name}"
        );
        assert_eq!(out.output, want, "{name}");
    }
}

/// `testdata/eth-receipts/chain.json` (see its PROVENANCE): the 54 blocks
/// of the execution-apis test chain whole, from Homestead's rules to
/// Osaka's (every transaction type, withdrawals, blocks of 21 header
/// fields), each holds to its header on every engine with the hash the
/// next block's `parentHash` states, and its senders are the `from` the
/// clients' receipts name.
#[test]
fn a_test_chain_holds_its_headers_and_senders() {
    use batchcrypto::ops::ordered_trie::block;
    let Some(chain) = support::vectors_json("eth-receipts/chain.json") else {
        return;
    };
    let chain = chain["blocks"].as_array().expect("blocks");
    let mut blocks = FlatBytes::new();
    for b in chain {
        assert!(blocks.push(&hex::decode(b["block"].as_str().expect("hex")).expect("hex")));
    }
    let mut known = 0;
    for (name, engine) in engines() {
        let out = engine.verify_blocks_with_senders(&blocks).expect("blocks");
        assert_eq!(out.output.len(), chain.len(), "{name}");
        for (b, (checked, senders)) in chain.iter().zip(&out.output) {
            let want = block::Checked {
                number: b["number"].as_u64().expect("number"),
                hash: hex32(b["hash"].as_str().expect("hash")),
                mismatch: None,
            };
            assert_eq!(checked, &Ok(want), "{name}: block {}", want.number);
            let senders = senders.as_ref().expect("holds").as_ref().expect("every sender");
            for s in b["senders"].as_array().expect("senders") {
                let i = s["index"].as_u64().expect("index") as usize;
                assert_eq!(
                    hex::encode(senders[i]),
                    s["from"].as_str().expect("from").trim_start_matches("0x"),
                    "{name}: block {} transaction {i}",
                    want.number
                );
                known += 1;
            }
        }
    }
    assert_eq!(known, engines().len() * 13, "blocks 1 and 54 whole, five single");
}
