//! Keccak-256, SHA3-256, SHA-256, BLAKE2b-256 and BLAKE3 (the `sha3`,
//! `sha2`, `blake2` and `blake3` crates) of messages of any length, Poseidon over BN254 (`light-poseidon`) of
//! items made from the first [`POSEIDON_ITEMS`] messages, and the Merkle
//! rules' roots and trees (the oracle's levels; lean-imt-poseidon's over
//! leaves made from the drawn ones, [`lean_leaves`]), also as padded trees,
//! and inclusion proofs of their leaves edited as drawn ([`proofs`]),
//! and Ethereum trie proofs in a trie made from the leaves ([`tries`]),
//! and ordered tries' roots of lists of the messages ([`ordered_tries`]),
//! and the senders of Ethereum transactions and the authorities of
//! EIP-7702 authorizations, signed ones edited and the messages themselves
//! ([`tx_senders`], [`authorities`]), and blocks' receipts, a receipt of
//! each edited, and the messages as receipts ([`receipts`]), and whole
//! Bitcoin blocks ([`super::bitcoin_blocks`]), against the oracles.

use std::sync::OnceLock;

use arbitrary::Unstructured;
use batchcrypto::ops::{authority, hash, merkle, mpt, ordered_trie, poseidon, receipts, tx_sender};
use batchcrypto::{Engine, FlatBytes};

use super::{answers, engine, same};

/// The most messages or leaves per call.
const ITEMS: usize = 300;
/// The longest message (several rate blocks of each hash).
const LONGEST: usize = 1_000;
/// Messages that also make a Poseidon item (a hash costs up to 0.2 ms).
const POSEIDON_ITEMS: usize = 48;
/// The most inclusion proofs per tree.
const PROOFS: usize = 64;

/// One fuzz input on the fuzzers' CPU engine.
pub fn run(data: &[u8]) {
    check(engine(), data);
}

/// One fuzz input on `e`: messages for every hash, or leaves for a Merkle
/// rule.
pub fn check(e: &Engine, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(op) = u.int_in_range(0..=1u8) else {
        return;
    };
    if op == 0 {
        let n = u.int_in_range(0..=ITEMS).unwrap_or(0);
        let mut msgs = FlatBytes::new();
        for _ in 0..n {
            let len = u.int_in_range(0..=LONGEST).unwrap_or(0);
            // Whatever the input has left, then zeros: lengths stay as drawn.
            let mut msg = u.bytes(len.min(u.len())).unwrap_or_default().to_vec();
            msg.resize(len, 0);
            assert!(msgs.push(&msg), "messages far below 4 GiB");
        }
        for alg in hash::Alg::ALL {
            let got = answers(e, e.hash(alg, &msgs));
            let want: Vec<hash::Digest> = (0..msgs.len())
                .map(|i| hash::oracle::digest(alg, msgs.get(i)))
                .collect();
            same(&format!("hash {alg:?}"), &got, &want);
        }
        let items = poseidon_items(&msgs);
        let got = answers(e, e.poseidon_bn254(&items));
        let want: Vec<_> = (0..items.len()).map(|i| poseidon::oracle::hash(items.get(i))).collect();
        same("poseidon_bn254", &got, &want);
        ordered_tries(e, &mut u, &msgs);
        tx_senders(e, &mut u, &msgs);
        authorities(e, &mut u, &msgs);
        receipt_blocks(e, &mut u, &msgs);
        super::bitcoin_blocks::check(e, &mut u, &msgs);
    } else {
        let rule = if u.arbitrary().unwrap_or(false) {
            merkle::Rule::Bitcoin
        } else {
            merkle::Rule::SortedKeccak256
        };
        let n = u.int_in_range(0..=ITEMS).unwrap_or(0);
        // Leaves from the input, zeros once it runs out (equal siblings
        // matter to the sorted rule).
        let leaves: Vec<hash::Digest> = (0..n).map(|_| u.arbitrary().unwrap_or_default()).collect();
        let byte_rule = rule;
        let want = merkle::oracle::tree(rule, &leaves);
        let byte_tree = want.clone();
        // No leaves is an error, one leaf its own root (no kernel runs).
        let root = if leaves.len() < 2 {
            e.merkle_root(rule, &leaves).ok().map(|o| o.output)
        } else {
            Some(answers(e, e.merkle_root(rule, &leaves)))
        };
        assert_eq!(
            root,
            merkle::oracle::root(rule, &leaves),
            "merkle root {rule:?} of {n} leaves"
        );
        let tree = e.merkle_tree(rule, &leaves).ok();
        assert_eq!(tree, want, "merkle tree {rule:?} of {n} leaves");
        // The same leaves, made field elements, under lean-imt-poseidon:
        // a leaf not below r is the call's error where the oracle has no
        // tree.
        let rule = merkle::Rule::LeanImtPoseidon;
        let lean = lean_leaves(&leaves);
        let want = merkle::oracle::tree(rule, &lean);
        let root = e.merkle_root(rule, &lean).ok().map(|o| o.output);
        assert_eq!(
            root,
            want.as_ref().map(merkle::Tree::root),
            "lean-imt-poseidon root of {n} leaves"
        );
        let tree = e.merkle_tree(rule, &lean).ok();
        assert_eq!(tree, want, "lean-imt-poseidon tree of {n} leaves");
        let lean_tree = want;
        // Both as padded trees, their shape from the leaves (nothing more
        // drawn): the least depth that holds them, up to two more (now
        // and then one less: too many leaves), the last leaf the zero.
        for (rule, leaves) in [(byte_rule, &leaves), (rule, &lean)] {
            let fit = leaves.len().next_power_of_two().trailing_zeros().max(1);
            let depth = (fit + (leaves.len() % 4) as u32).saturating_sub(u32::from(leaves.len() % 7 == 3));
            let zero = leaves.last().copied().unwrap_or_default();
            let padding = merkle::Padding { depth, zero };
            let want = merkle::oracle::padded_tree(rule, leaves, &padding);
            let root = e.merkle_root_padded(rule, leaves, &padding).ok().map(|o| o.output);
            assert_eq!(
                root,
                want.as_ref().map(merkle::Tree::root),
                "padded {rule} root of {n} leaves"
            );
            let tree = e.merkle_tree_padded(rule, leaves, &padding).ok();
            assert_eq!(tree, want, "padded {rule} tree of {n} leaves");
        }
        // Drawn after everything above (committed inputs keep their meaning).
        for (rule, tree) in [(byte_rule, byte_tree), (rule, lean_tree)] {
            if let Some(tree) = tree {
                proofs(e, &mut u, rule, &tree);
            }
        }
        tries(e, &mut u, &leaves);
    }
}

/// Ethereum trie proofs (drawn after everything above): the trie whose
/// keys are the leaves cut to a drawn length (1 to 32 bytes: short keys
/// and values make nodes embedded in their parents) and whose values are
/// their last bytes (1 to 32 drawn), proofs of drawn keys (an entry's, or
/// drawn bytes: mostly absent) claiming the entry's value, none, or drawn
/// bytes, each kept, a byte changed, cut, grown, a node dropped or
/// repeated; against the oracle.
fn tries(e: &Engine, u: &mut Unstructured, leaves: &[hash::Digest]) {
    let key_len = u.int_in_range(1..=32usize).unwrap_or(32);
    let value_len = u.int_in_range(1..=32usize).unwrap_or(1);
    let entries: Vec<(Vec<u8>, Vec<u8>)> = leaves
        .iter()
        .map(|l| (l[..key_len].to_vec(), l[32 - value_len..].to_vec()))
        .collect();
    let count = u.int_in_range(0..=PROOFS).unwrap_or(0);
    let mut claims = Vec::with_capacity(count);
    for _ in 0..count {
        let (key, value) = match (entries.is_empty(), u.int_in_range(0..=3u8).unwrap_or(0)) {
            (false, 0..=1) => entries[u.choose_index(entries.len()).unwrap_or(0)].clone(),
            _ => {
                let mut key = u.bytes(key_len.min(u.len())).unwrap_or_default().to_vec();
                key.resize(key_len, 0);
                (key, Vec::new())
            }
        };
        let value = match u.int_in_range(0..=3u8).unwrap_or(0) {
            0..=1 if !value.is_empty() => Some(value),
            2 => Some(u.bytes(value_len.min(u.len())).unwrap_or_default().to_vec()),
            _ => None,
        };
        claims.push((key, value));
    }
    let keys: Vec<Vec<u8>> = claims.iter().map(|(k, _)| k.clone()).collect();
    // Keys of one length: none a prefix of another, so the trie is made.
    let Some((root, proofs)) = mpt::sample::prove(&entries, &keys) else {
        return;
    };
    let mut items = FlatBytes::new();
    for ((key, value), mut nodes) in claims.into_iter().zip(proofs) {
        match u.int_in_range(0..=2u8).unwrap_or(0) {
            1 if !nodes.is_empty() => {
                nodes.remove(u.choose_index(nodes.len()).unwrap_or(0));
            }
            2 if !nodes.is_empty() => {
                let node = nodes[u.choose_index(nodes.len()).unwrap_or(0)].clone();
                nodes.insert(u.int_in_range(0..=nodes.len()).unwrap_or(0), node);
            }
            _ => {}
        }
        let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
        let mut item = mpt::encode(&root, &key, value.as_deref(), &nodes).unwrap_or_default();
        edit(u, &mut item, 3);
        assert!(items.push(&item), "items far below 4 GiB");
    }
    let want: Vec<_> = (0..items.len()).map(|j| mpt::oracle::verify(items.get(j))).collect();
    same("mpt proofs", &answers(e, e.verify_mpt_proofs(&items)), &want);
}

/// Inclusion proofs of `tree`'s leaves as drawn: each a leaf's path
/// ([`merkle::Tree::path`]) kept, or a byte changed, its index changed, cut
/// at a drawn length or grown by drawn bytes; checked with no depth, the
/// tree's own or a drawn one (out of range: the call's error), against the
/// oracle.
fn proofs(e: &Engine, u: &mut Unstructured, rule: merkle::Rule, tree: &merkle::Tree) {
    let count = u.int_in_range(0..=PROOFS).unwrap_or(0);
    let mut items = FlatBytes::new();
    for _ in 0..count {
        let i = u.int_in_range(0..=tree.leaves().saturating_sub(1)).unwrap_or(0);
        let (index, siblings) = tree.path(i).unwrap_or_default();
        let mut item = merkle::proof::encode(&tree.root(), &tree.levels()[0][i], index, &siblings);
        match u.int_in_range(0..=4u8).unwrap_or(0) {
            0 => {}
            1 => {
                let at = u.choose_index(item.len()).unwrap_or(0);
                item[at] ^= u.int_in_range(1..=255u8).unwrap_or(1);
            }
            2 => {
                let x: u64 = u.arbitrary().unwrap_or(1);
                item[64..72].copy_from_slice(&(index ^ x).to_be_bytes());
            }
            3 => item.truncate(u.int_in_range(0..=item.len()).unwrap_or(0)),
            _ => {
                let len = u.int_in_range(0..=100usize).unwrap_or(0).min(u.len());
                item.extend_from_slice(u.bytes(len).unwrap_or_default());
            }
        }
        assert!(items.push(&item), "items far below 4 GiB");
    }
    let height = tree.levels().len() as u32 - 1;
    let depth = match u.int_in_range(0..=2u8).unwrap_or(0) {
        0 => None,
        1 => Some(height),
        _ => Some(u.int_in_range(0..=70u32).unwrap_or(0)),
    };
    let got = e.verify_merkle_proofs(rule, depth, &items);
    if merkle::proof::depth_refusal(depth).is_some() {
        assert!(got.is_err(), "merkle proofs {rule}: depth {depth:?} accepted");
        return;
    }
    let want: Vec<_> = (0..items.len())
        .map(|j| merkle::oracle::verify_proof(rule, depth, items.get(j)))
        .collect();
    same(
        &format!("merkle proofs {rule} depth {depth:?}"),
        &answers(e, got),
        &want,
    );
}

/// Leaves for lean-imt-poseidon from the first [`POSEIDON_ITEMS`] drawn
/// ones, drawing nothing more from the input (so that committed inputs
/// keep their meaning): each leaf's top three bits cleared (below r),
/// unless the count is a multiple of 5 (then most leaves are not).
fn lean_leaves(leaves: &[hash::Digest]) -> Vec<hash::Digest> {
    let n = leaves.len().min(POSEIDON_ITEMS);
    leaves[..n]
        .iter()
        .map(|l| {
            let mut l = *l;
            if !n.is_multiple_of(5) {
                l[0] &= 0x1f;
            }
            l
        })
        .collect()
}

/// A Poseidon item of each of the first [`POSEIDON_ITEMS`] messages,
/// drawing nothing more from the input (so that committed inputs keep
/// their meaning): a message whose length is a multiple of 13 as it is
/// (mostly `wrong_input_length`); the others cut or padded with zeros to
/// 1 + len % 12 elements, each element's top three bits cleared (below r)
/// unless the length is a multiple of 7 (then most elements are not).
fn poseidon_items(msgs: &FlatBytes) -> FlatBytes {
    let mut items = FlatBytes::new();
    for i in 0..msgs.len().min(POSEIDON_ITEMS) {
        let msg = msgs.get(i);
        let mut item = msg.to_vec();
        if !msg.len().is_multiple_of(13) {
            item.resize(poseidon::ELEMENT_LEN * (1 + msg.len() % poseidon::MAX_INPUTS), 0);
            if !msg.len().is_multiple_of(7) {
                for element in item.chunks_exact_mut(poseidon::ELEMENT_LEN) {
                    element[0] &= 0x1f;
                }
            }
        }
        assert!(items.push(&item), "items far below 4 GiB");
    }
    items
}

/// The most lists of [`ordered_tries`].
const LISTS: usize = 8;

/// Ordered tries' roots: up to [`LISTS`] lists, each a run of the drawn
/// messages (empty ones among them: `empty_value`), some items then
/// edited (a byte changed, cut, grown), against alloy-trie's
/// `ordered_trie_root_encoded`. Drawn after everything else, so that
/// committed inputs keep their meaning.
fn ordered_tries(e: &Engine, u: &mut Unstructured, msgs: &FlatBytes) {
    let lists = u.int_in_range(0..=LISTS).unwrap_or(0);
    let mut items = FlatBytes::new();
    for _ in 0..lists {
        let start = u.int_in_range(0..=msgs.len()).unwrap_or(0);
        let count = u.int_in_range(0..=msgs.len() - start).unwrap_or(0);
        let values: Vec<&[u8]> = (start..start + count).map(|i| msgs.get(i)).collect();
        let mut item = ordered_trie::encode(&values).unwrap_or_default();
        edit(u, &mut item, 5);
        assert!(items.push(&item), "items far below 4 GiB");
    }
    let want: Vec<_> = (0..items.len())
        .map(|j| ordered_trie::oracle::root(items.get(j)))
        .collect();
    same("ordered trie roots", &answers(e, e.ordered_trie_roots(&items)), &want);
}

/// The most signed items of [`tx_senders`] and [`authorities`].
const SIGNED: usize = 48;
/// The most messages they also take as items.
const RAW_ITEMS: usize = 8;

/// Transactions' senders: up to [`SIGNED`] drawn from signed transactions
/// of every type (made once), and the first [`RAW_ITEMS`] messages, against
/// the oracle (alloy-consensus's decoder, libsecp256k1's recovery) as
/// [`signers`] draws them.
fn tx_senders(e: &Engine, u: &mut Unstructured, msgs: &FlatBytes) {
    static MADE: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        let txs = tx_sender::sample::transactions(SIGNED, 4, 1, 0.0, true);
        txs.into_iter().map(|(tx, _)| tx).collect()
    });
    signers(u, msgs, made, "tx senders", tx_sender::oracle::sender, |items| {
        answers(e, e.tx_senders(items))
    });
}

/// EIP-7702 authorities: as [`tx_senders`] over signed authorizations,
/// against alloy-eips's decoder and libsecp256k1's recovery.
fn authorities(e: &Engine, u: &mut Unstructured, msgs: &FlatBytes) {
    static MADE: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        let auths = authority::sample::authorizations(0..SIGNED, 4, 1, 0.0);
        auths.into_iter().map(|(a, _)| a).collect()
    });
    signers(
        u,
        msgs,
        made,
        "eip7702 authorities",
        authority::oracle::authority,
        |items| answers(e, e.eip7702_authorities(items)),
    );
}

/// Up to [`SIGNED`] items drawn from `made`, each edited as drawn (a byte
/// changed, cut, grown), and the first [`RAW_ITEMS`] messages as they are:
/// `call`'s answers against `oracle`'s. Drawn after everything else, so
/// that committed inputs keep their meaning.
fn signers(
    u: &mut Unstructured,
    msgs: &FlatBytes,
    made: &[Vec<u8>],
    what: &str,
    oracle: fn(&[u8]) -> tx_sender::SenderResult,
    call: impl Fn(&FlatBytes) -> Vec<tx_sender::SenderResult>,
) {
    let n = u.int_in_range(0..=SIGNED).unwrap_or(0);
    let mut items = FlatBytes::new();
    for _ in 0..n {
        let mut item = made[u.choose_index(made.len()).unwrap_or(0)].clone();
        edit(u, &mut item, 4);
        assert!(items.push(&item), "items far below 4 GiB");
    }
    for i in 0..msgs.len().min(RAW_ITEMS) {
        assert!(items.push(msgs.get(i)), "items far below 4 GiB");
    }
    let want: Vec<_> = (0..items.len()).map(|j| oracle(items.get(j))).collect();
    same(what, &call(&items), &want);
}

/// The most blocks of [`receipt_blocks`].
const BLOCKS: usize = 6;

/// Blocks' receipts: up to [`BLOCKS`] drawn from blocks of 0 to 20
/// receipts of every type (made once), one receipt of each edited as drawn
/// (a byte changed, cut, grown), and a block of the first [`RAW_ITEMS`]
/// messages as receipts, against reth's path (alloy-consensus,
/// alloy-primitives' blooms, alloy-trie). Drawn after everything else, so
/// that committed inputs keep their meaning.
fn receipt_blocks(e: &Engine, u: &mut Unstructured, msgs: &FlatBytes) {
    static MADE: OnceLock<Vec<Vec<Vec<u8>>>> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        // The sample's small blocks: items 0 to 2 of every six.
        let small = (0..24).filter(|i| i % 6 < 3);
        small
            .flat_map(|i| receipts::sample::blocks_range(i..i + 1, 4, 0.0))
            .map(|(item, _)| {
                let values = ordered_trie::values(&item).unwrap_or_default();
                values.iter().map(|v| v.to_vec()).collect()
            })
            .collect()
    });
    let n = u.int_in_range(0..=BLOCKS).unwrap_or(0);
    let mut items = FlatBytes::new();
    for _ in 0..n {
        let mut block = made[u.choose_index(made.len()).unwrap_or(0)].clone();
        if !block.is_empty() {
            let j = u.choose_index(block.len()).unwrap_or(0);
            edit(u, &mut block[j], 4);
        }
        assert!(
            items.push(&ordered_trie::encode(&block).unwrap_or_default()),
            "items far below 4 GiB"
        );
    }
    let raw: Vec<&[u8]> = (0..msgs.len().min(RAW_ITEMS)).map(|i| msgs.get(i)).collect();
    assert!(
        items.push(&ordered_trie::encode(&raw).unwrap_or_default()),
        "items far below 4 GiB"
    );
    let want: Vec<_> = (0..items.len())
        .map(|j| receipts::oracle::check(items.get(j)))
        .collect();
    same("receipts roots", &answers(e, e.receipts_roots(&items)), &want);
}

/// An item edited as drawn from 0 to `kinds`: 1 a byte changed, 2 cut, 3
/// grown by up to 100 drawn bytes, anything else left as it is (the trie
/// proofs draw 0 to 3, the transactions 0 to 4, the ordered tries 0 to 5:
/// more items left whole).
pub(crate) fn edit(u: &mut Unstructured, item: &mut Vec<u8>, kinds: u8) {
    match u.int_in_range(0..=kinds).unwrap_or(0) {
        1 if !item.is_empty() => {
            let at = u.choose_index(item.len()).unwrap_or(0);
            item[at] ^= u.int_in_range(1..=255u8).unwrap_or(1);
        }
        2 => item.truncate(u.int_in_range(0..=item.len()).unwrap_or(0)),
        3 => {
            let len = u.int_in_range(0..=100usize).unwrap_or(0).min(u.len());
            item.extend_from_slice(u.bytes(len).unwrap_or_default());
        }
        _ => {}
    }
}
