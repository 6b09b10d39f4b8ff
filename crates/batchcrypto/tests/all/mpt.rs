//! Batches of Ethereum trie proofs (`mpt_proof`) on every engine:
//! generated proofs in tries of three shapes (accounts, slots, receipts
//! with embedded nodes), of present and absent keys, hostile of every
//! kind, against the oracle (alloy-trie's `verify_proof`) item by item and
//! in number; the published roots of ethereum/tests' secure
//! `trieanyorder` tries and every key's proof in them; the empty trie;
//! the reasons at the edges.

use batchcrypto::ops::hash::{Alg, oracle as hashes};
use batchcrypto::ops::mpt::{self, EMPTY_ROOT, encode, oracle, sample};
use batchcrypto::{FlatBytes, Op, Reason, Verdict, registry};

use crate::support::{self, engines};

/// A list of items as a batch.
fn batch(items: &[Vec<u8>]) -> FlatBytes {
    let mut b = FlatBytes::new();
    for it in items {
        assert!(b.push(it));
    }
    b
}

/// Every engine's verdicts on `items` equal `want`, item by item and in
/// number; the GPU engines' from the GPU (the hashing kernel needs no
/// SHADER_INT64).
fn assert_verdicts(items: &[Vec<u8>], want: &[Verdict], what: &str) {
    assert!(registry::spec(Op::MptProof).gpu_kernel);
    let b = batch(items);
    for (name, engine) in engines() {
        let out = engine.verify_mpt_proofs(&b).expect("proofs");
        let backend = support::expected_backend(name, false);
        assert_eq!(out.selection.backend.name(), backend, "{name}: {}", out.selection);
        support::assert_each(&format!("{name}: {what}"), &out.output, want, |g, w| g == w);
    }
}

fn oracle_verdicts(items: &[Vec<u8>]) -> Vec<Verdict> {
    items.iter().map(|it| oracle::verify(it)).collect()
}

#[test]
fn generated_proofs_match_the_oracle_on_every_engine() {
    let made = sample::proofs(700, 11, 0.35, true);
    let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want = oracle_verdicts(&items);
    // The honest items are valid, the hostile ones not, and each kind came.
    for ((_, kind), v) in made.iter().zip(&want) {
        assert_eq!(v.is_valid(), matches!(*kind, "valid" | "absent"), "{kind}: {v:?}");
    }
    for kind in sample::HOSTILE.iter().chain(&["valid", "absent"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    let reasons: Vec<Reason> = want.iter().filter_map(|v| v.reason()).collect();
    for r in [
        Reason::WrongInputLength,
        Reason::RootMismatch,
        Reason::MalformedProof,
        Reason::PathMismatch,
    ] {
        assert!(reasons.contains(&r), "{r:?}");
    }
    assert_verdicts(&items, &want, "generated");
    // No items: no verdicts.
    assert_verdicts(&[], &[], "no items");
    // The bench's form: account proofs of one state trie.
    let made = sample::proofs(64, 3, 0.0, false);
    let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    let want = oracle_verdicts(&items);
    assert!(want.iter().all(Verdict::is_valid));
    assert_verdicts(&items, &want, "bench form");
}

/// A string of ethereum/tests' trie files as bytes: `0x…` is hex.
fn bytes_of(s: &str) -> Vec<u8> {
    match s.strip_prefix("0x") {
        Some(h) => hex::decode(h).expect("hex"),
        None => s.as_bytes().to_vec(),
    }
}

/// ethereum/tests `TrieTests/trieanyorder_secureTrie.json` (commit
/// 7d66cbf, as ethereumjs keeps it in `packages/trie/test/fixtures`): the
/// published roots of its seven secure tries (keys hashed with
/// Keccak-256) from their entries, then on every engine every key's proof,
/// the same with another value and with the value denied, and an absent
/// key's proof, claimed absent and claimed present.
#[test]
fn published_trie_roots_and_their_proofs() {
    let tries: [(&[(&str, &str)], &str); 7] = [
        (
            &[("A", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")],
            "e9e2935138352776cad724d31c9fa5266a5c593bb97726dd2a908fe6d53284df",
        ),
        (
            &[("doe", "reindeer"), ("dog", "puppy"), ("dogglesworth", "cat")],
            "d4cd937e4a4368d7931a9cf51686b7e10abb3dce38a39000fd7902a092b64585",
        ),
        (
            &[
                ("do", "verb"),
                ("horse", "stallion"),
                ("doge", "coin"),
                ("dog", "puppy"),
            ],
            "29b235a58c3c25ab83010c327d5932bcf05324b7d6b1185e650798034783ca9d",
        ),
        (
            &[("foo", "bar"), ("food", "bass")],
            "1385f23a33021025d9e87cca5c66c00de06178807b96a9acc92b7d651ccde842",
        ),
        (
            &[("be", "e"), ("dog", "puppy"), ("bed", "d")],
            "826a4f9f9054a3e980e54b20da992c24fa20467f1ca635115ef4917be66e746f",
        ),
        (
            &[("test", "test"), ("te", "testy")],
            "aea54fb6c80499674248a462864c420c9d9f3b3d38c879c12425bade1ad76552",
        ),
        (
            &[("0x0045", "0x0123456789"), ("0x4500", "0x9876543210")],
            "bc11c02c8ab456db0c4d2728b6a2a6210d06f26a2ace4f7d8bdfc72ddf2630ab",
        ),
    ];
    let secure = |k: &[u8]| hashes::digest(Alg::Keccak256, k).to_vec();
    let mut items = Vec::new();
    let mut want = Vec::new();
    for (entries, root_hex) in tries {
        let entries: Vec<(Vec<u8>, Vec<u8>)> = entries
            .iter()
            .map(|(k, v)| (secure(&bytes_of(k)), bytes_of(v)))
            .collect();
        let mut keys: Vec<Vec<u8>> = entries.iter().map(|(k, _)| k.clone()).collect();
        let absent = secure(b"dogs");
        keys.push(absent.clone());
        let (root, proofs) = sample::prove(&entries, &keys).expect("a trie");
        assert_eq!(hex::encode(root), root_hex);
        for ((key, value), nodes) in entries.iter().zip(&proofs) {
            let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
            items.push(encode(&root, key, Some(value), &nodes).expect("fits"));
            want.push(Verdict::Valid);
            items.push(encode(&root, key, Some(b"cat"), &nodes).expect("fits"));
            want.push(if value == b"cat" {
                Verdict::Valid
            } else {
                Verdict::Invalid(Reason::PathMismatch)
            });
            items.push(encode(&root, key, None, &nodes).expect("fits"));
            want.push(Verdict::Invalid(Reason::PathMismatch));
        }
        let nodes: Vec<&[u8]> = proofs[entries.len()].iter().map(Vec::as_slice).collect();
        items.push(encode(&root, &absent, None, &nodes).expect("fits"));
        want.push(Verdict::Valid);
        items.push(encode(&root, &absent, Some(b"puppy"), &nodes).expect("fits"));
        want.push(Verdict::Invalid(Reason::PathMismatch));
    }
    assert_eq!(oracle_verdicts(&items), want);
    assert_verdicts(&items, &want, "trieanyorder_secureTrie");
}

/// Tries the sample cannot make are refused, not panicked on: a key a
/// prefix of another (the plain `trieanyorder` tries), a key over 32
/// bytes, an empty value. A trie whose root node is under 32 bytes (one
/// short entry) is alloy-trie's exception: it compares the node itself
/// with the root's hash reference, so its proofs are `path_mismatch`
/// (geth's `VerifyProof`, which looks the root node up by its hash, takes
/// them); the engine answers as its oracle.
#[test]
fn tries_out_of_reach_and_the_short_root() {
    let e = |k: &[u8], v: &[u8]| (k.to_vec(), v.to_vec());
    assert_eq!(sample::prove(&[e(b"do", b"verb"), e(b"dog", b"puppy")], &[]), None);
    assert_eq!(sample::prove(&[e(&[1; 33], b"x")], &[]), None);
    assert_eq!(sample::prove(&[e(b"a", b"")], &[]), None);
    assert_eq!(sample::prove(&[e(b"a", b"x")], &[vec![0; 33]]), None);
    let (root, proofs) = sample::prove(&[e(&[0x80], &[1])], &[vec![0x80]]).expect("a trie");
    assert!(proofs[0].len() == 1 && proofs[0][0].len() < 32);
    let item = encode(&root, &[0x80], Some(&[1]), &[&proofs[0][0]]).expect("fits");
    let want = [Verdict::Invalid(Reason::PathMismatch)];
    assert_eq!(oracle_verdicts(std::slice::from_ref(&item)), want);
    assert_verdicts(&[item], &want, "short root");
}

/// The empty trie: its root is Keccak-256 of `0x80`; with no node (or the
/// node `0x80`) every key is absent, present nowhere; under another root
/// no node is `root_mismatch`; layouts that do not read are
/// `wrong_input_length`.
#[test]
fn the_empty_trie_and_the_edges() {
    assert_eq!(
        hex::encode(EMPTY_ROOT),
        "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
    );
    assert_eq!(sample::prove(&[], &[]).map(|(r, _)| r), Some(EMPTY_ROOT));
    let empty: &[u8] = &[0x80];
    let cases: Vec<(Vec<u8>, Verdict)> = vec![
        (encode(&EMPTY_ROOT, &[1; 32], None, &[]).expect("fits"), Verdict::Valid),
        (encode(&EMPTY_ROOT, &[], None, &[empty]).expect("fits"), Verdict::Valid),
        (
            encode(&EMPTY_ROOT, &[1; 32], Some(&[1]), &[]).expect("fits"),
            Verdict::Invalid(Reason::PathMismatch),
        ),
        (
            encode(&[1; 32], &[1; 32], None, &[]).expect("fits"),
            Verdict::Invalid(Reason::RootMismatch),
        ),
        (
            encode(&[1; 32], &[1; 32], None, &[empty]).expect("fits"),
            Verdict::Invalid(Reason::RootMismatch),
        ),
        (vec![0; 34], Verdict::Invalid(Reason::WrongInputLength)),
        (Vec::new(), Verdict::Invalid(Reason::WrongInputLength)),
    ];
    let (items, want): (Vec<Vec<u8>>, Vec<Verdict>) = cases.into_iter().unzip();
    assert_eq!(oracle_verdicts(&items), want);
    assert_verdicts(&items, &want, "edges");
    assert_eq!(mpt::read(&items[0]).map(|p| p.nodes.len()), Ok(0));
}
