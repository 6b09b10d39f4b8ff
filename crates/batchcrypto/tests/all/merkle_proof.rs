//! Batches of Merkle inclusion proofs (`merkle_proof_*`) on every engine:
//! generated proofs of plain and padded trees, hostile of every kind,
//! against the oracle item by item and in number; every leaf's path
//! ([`Tree::path`]) of trees of 1 to 70 leaves accepted and, folded as
//! the users' verifiers fold it (written in `merkle.rs` from the oracle
//! hashes: OpenZeppelin's `processProof`, zk-kit's LeanIMT `verifyProof`
//! with its `generateProof` path, Bitcoin Core's
//! `ComputeMerkleRootFromBranch`), giving the root; the SPV branch of a
//! transaction of Bitcoin block 100,000; the proof Semaphore gives in
//! `testdata/poseidon/lean-imt.json`; the reasons and their order at the
//! edges; a depth out of range refused for the whole call.

use batchcrypto::ops::hash::{Alg, Digest, oracle as hashes};
use batchcrypto::ops::merkle::{self, Rule, Tree, proof, sample};
use batchcrypto::{Error, FlatBytes, Op, Reason, Verdict, registry};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::merkle::{
    R_BE, decimal, decimals, lean_path, lean_process_proof, oz_process_proof, random_leaves, reference,
};
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
/// number; the GPU engines' from the GPU (lean-imt-poseidon's kernel needs
/// SHADER_INT64, the others' not).
fn assert_verdicts(rule: Rule, depth: Option<u32>, items: &[Vec<u8>], want: &[Verdict], what: &str) {
    assert!(registry::spec(Op::MerkleProof(rule)).gpu_kernel);
    let b = batch(items);
    for (name, engine) in engines() {
        let out = engine.verify_merkle_proofs(rule, depth, &b).expect("proofs");
        let backend = support::expected_backend(name, rule == Rule::LeanImtPoseidon);
        assert_eq!(out.selection.backend.name(), backend, "{name}: {}", out.selection);
        support::assert_each(&format!("{name}: {rule} {what}"), &out.output, want, |g, w| g == w);
    }
}

/// The oracle's verdicts on `items`.
fn oracle_verdicts(rule: Rule, depth: Option<u32>, items: &[Vec<u8>]) -> Vec<Verdict> {
    items
        .iter()
        .map(|it| merkle::oracle::verify_proof(rule, depth, it))
        .collect()
}

#[test]
fn generated_proofs_match_the_oracle_on_every_engine() {
    for rule in Rule::ALL {
        for (depth, seed) in [(None, 1u64), (Some(12), 2), (Some(64), 3)] {
            let made = sample::proofs(rule, 260, seed, 0.35, depth);
            let items: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
            let want = oracle_verdicts(rule, depth, &items);
            let valid = made.iter().filter(|(_, k)| *k == "valid").count();
            assert_eq!(want.iter().filter(|v| v.is_valid()).count(), valid, "{rule} {depth:?}");
            for kind in sample::HOSTILE {
                // 64 siblings take any index and no more siblings.
                let full = depth == Some(64) && matches!(kind, "index_past_path" | "sibling_added");
                let applies = !full && (kind != "leaf_not_below_r" || rule == Rule::LeanImtPoseidon);
                assert_eq!(
                    made.iter().any(|(_, k)| *k == kind),
                    applies,
                    "{rule} {depth:?}: {kind}"
                );
            }
            assert_verdicts(rule, depth, &items, &want, &format!("depth {depth:?}"));
        }
        // No items: no verdicts.
        assert_verdicts(rule, None, &[], &[], "no items");
    }
}

/// Bitcoin Core's `ComputeMerkleRootFromBranch`: the leaf's side at each
/// level the next bit of its position.
fn core_branch_root(leaf: &Digest, branch: &[Digest], index: u64) -> Digest {
    branch.iter().enumerate().fold(*leaf, |node, (l, s)| {
        let pair = if (index >> l) & 1 == 1 { [*s, node] } else { [node, *s] };
        hashes::digest(Alg::Sha256, &hashes::digest(Alg::Sha256, &pair.concat()))
    })
}

/// The consensus specification's `is_valid_merkle_branch`.
fn is_valid_merkle_branch(leaf: &Digest, branch: &[Digest], depth: usize, index: u64, root: &Digest) -> bool {
    let mut value = *leaf;
    for (i, b) in branch.iter().enumerate().take(depth) {
        let pair = if (index >> i) & 1 == 1 {
            [*b, value]
        } else {
            [value, *b]
        };
        value = hashes::digest(Alg::Sha256, &pair.concat());
    }
    &value == root
}

/// The path of every leaf of trees of 1 to 70 leaves (and a few larger)
/// is accepted on every engine, and the users' verifiers, given it, reach
/// the root: OpenZeppelin's from the siblings alone, Core's from the
/// position, LeanIMT's from `generateProof`'s path bits, which the path's
/// index equals. A padded tree's paths are the leaves' positions.
#[test]
fn every_leaf_path_verifies_as_users_fold_it() {
    let mut rng = StdRng::seed_from_u64(5150);
    let (_, engine) = &engines()[0];
    for rule in Rule::ALL {
        let mut sizes: Vec<usize> = (1..=70).collect();
        sizes.extend([127, 129, 300]);
        let mut items = Vec::new();
        for n in sizes {
            let leaves = random_leaves(&mut rng, rule, n);
            let tree: Tree = engine.merkle_tree(rule, &leaves).expect("tree");
            let root = tree.root();
            assert_eq!(root, reference(rule, &leaves), "{rule} n={n}");
            assert!(tree.path(n).is_none());
            for (i, leaf) in leaves.iter().enumerate() {
                let (index, siblings) = tree.path(i).expect("path");
                assert_eq!(Some(&siblings), tree.proof(i).as_ref(), "{rule} n={n} leaf {i}");
                match rule {
                    Rule::SortedKeccak256 => assert_eq!(oz_process_proof(&siblings, leaf), root),
                    Rule::Bitcoin => {
                        assert_eq!(index, i as u64, "{rule} n={n} leaf {i}");
                        assert_eq!(core_branch_root(leaf, &siblings, index), root);
                    }
                    Rule::LeanImtPoseidon => {
                        assert_eq!(index, lean_path(i, n) as u64, "n={n} leaf {i}");
                        assert_eq!(lean_process_proof(leaf, index as usize, &siblings), root);
                    }
                    Rule::Ssz => {
                        let depth = n.next_power_of_two().trailing_zeros() as usize;
                        assert_eq!((index, siblings.len()), (i as u64, depth), "n={n} leaf {i}");
                        assert!(
                            is_valid_merkle_branch(leaf, &siblings, depth, index, &root),
                            "n={n} leaf {i}"
                        );
                    }
                }
                items.push(proof::encode(&root, leaf, index, &siblings));
            }
        }
        // Poseidon's reference hashes at about 20 µs: every leaf of the
        // small trees, every fifth of the rest on the engines.
        let items: Vec<Vec<u8>> = items
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % 5 == 0)
            .map(|(_, it)| it)
            .collect();
        let want = vec![Verdict::Valid; items.len()];
        assert_verdicts(rule, None, &items, &want, "every leaf's path");
        // A padded tree of depth 10: paths are positions, 10 siblings each.
        let leaves = random_leaves(&mut rng, rule, 37);
        let padding = merkle::Padding {
            depth: 10,
            zero: [0; 32],
        };
        let tree = engine.merkle_tree_padded(rule, &leaves, &padding).expect("padded tree");
        let items: Vec<Vec<u8>> = (0..leaves.len())
            .map(|i| {
                let (index, siblings) = tree.path(i).expect("path");
                assert_eq!((index, siblings.len()), (i as u64, 10));
                assert!(merkle::verify_padded_proof(
                    rule,
                    10,
                    &leaves[i],
                    i,
                    &siblings,
                    &tree.root()
                ));
                proof::encode(&tree.root(), &leaves[i], index, &siblings)
            })
            .collect();
        let want = vec![Verdict::Valid; items.len()];
        assert_verdicts(rule, Some(10), &items, &want, "padded paths");
        assert_verdicts(rule, None, &items, &want, "padded paths, no depth");
        let want = vec![Verdict::Invalid(Reason::WrongProofLength); items.len()];
        assert_verdicts(rule, Some(11), &items, &want, "padded paths, depth 11");
    }
}

/// An SPV proof: transaction 2 of Bitcoin block 100,000 (four
/// transactions), its branch built from the txids, against the header's
/// root; at another position it fails, past its two levels it is out of
/// range.
#[test]
fn bitcoin_block_100000_spv_branch() {
    let internal = |h: &str| -> Digest {
        let mut d: Digest = hex::decode(h).expect("hex").try_into().expect("32");
        d.reverse();
        d
    };
    let txids: Vec<Digest> = [
        "8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
        "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
        "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
        "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d",
    ]
    .iter()
    .map(|h| internal(h))
    .collect();
    let root = internal("f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766");
    let node = |a: &Digest, b: &Digest| hashes::digest(Alg::Sha256, &hashes::digest(Alg::Sha256, &[*a, *b].concat()));
    // Tx 2's branch: its neighbour 3, then the parent of 0 and 1.
    let branch = [txids[3], node(&txids[0], &txids[1])];
    let item = |index: u64| proof::encode(&root, &txids[2], index, &branch);
    let items = vec![item(2), item(3), item(4), item(2 | 1 << 40)];
    let want = [
        Verdict::Valid,
        Verdict::Invalid(Reason::RootMismatch),
        Verdict::Invalid(Reason::LeafIndexOutOfRange),
        Verdict::Invalid(Reason::LeafIndexOutOfRange),
    ];
    assert_verdicts(Rule::Bitcoin, None, &items, &want, "block 100000");
    assert_verdicts(Rule::Bitcoin, Some(2), &items, &want, "block 100000, depth 2");
}

/// The proof of leaf 0 that Semaphore gives for the first group of
/// `testdata/poseidon/lean-imt.json`, as a proof item.
#[test]
fn semaphore_proof_verifies() {
    let Some(json) = support::vectors_json("poseidon/lean-imt.json") else {
        return;
    };
    let cases = json["cases"].as_array().expect("cases");
    let mut checked = 0;
    for case in cases {
        let Some(p) = case.get("proof") else { continue };
        let leaves = decimals(&case["leaves"]);
        let root = decimal(case["root"].as_str().expect("root"));
        let index = p["index"].as_u64().expect("index");
        let siblings = decimals(&p["siblings"]);
        let good = proof::encode(&root, &leaves[index as usize], index, &siblings);
        let mut bad_root = root;
        bad_root[31] ^= 1;
        let bad = proof::encode(&bad_root, &leaves[index as usize], index, &siblings);
        let want = [Verdict::Valid, Verdict::Invalid(Reason::RootMismatch)];
        assert_verdicts(Rule::LeanImtPoseidon, None, &[good, bad], &want, "Semaphore's proof");
        checked += 1;
    }
    assert!(checked >= 1);
}

/// The reasons and their order: the head and whole siblings, at most 64;
/// a fixed depth before the index; the index before the elements; the
/// elements (leaf, then siblings) before the root; a root not below r
/// matches nothing.
#[test]
fn reasons_come_in_order_at_the_edges() {
    let z = [0u8; 32];
    let r = R_BE;
    let p = Rule::LeanImtPoseidon;
    let cases: Vec<(Rule, Option<u32>, Vec<u8>, Verdict)> = vec![
        (p, None, vec![], Verdict::Invalid(Reason::WrongInputLength)),
        (p, None, vec![0; 71], Verdict::Invalid(Reason::WrongInputLength)),
        (p, None, vec![0; 73], Verdict::Invalid(Reason::WrongInputLength)),
        (
            p,
            None,
            vec![0; 72 + 65 * 32],
            Verdict::Invalid(Reason::WrongInputLength),
        ),
        (
            p,
            Some(3),
            proof::encode(&z, &r, 99, &[z; 2]),
            Verdict::Invalid(Reason::WrongProofLength),
        ),
        (
            p,
            None,
            proof::encode(&z, &r, 4, &[z; 2]),
            Verdict::Invalid(Reason::LeafIndexOutOfRange),
        ),
        (
            p,
            None,
            proof::encode(&z, &r, 3, &[z; 2]),
            Verdict::Invalid(Reason::NonCanonicalElement),
        ),
        (
            p,
            None,
            proof::encode(&z, &z, 3, &[z, r]),
            Verdict::Invalid(Reason::NonCanonicalElement),
        ),
        (
            p,
            None,
            proof::encode(&r, &z, 3, &[z; 2]),
            Verdict::Invalid(Reason::RootMismatch),
        ),
        (
            p,
            None,
            proof::encode(&[0xff; 32], &z, 0, &[]),
            Verdict::Invalid(Reason::RootMismatch),
        ),
        (p, None, proof::encode(&z, &z, 0, &[]), Verdict::Valid),
        // r as bytes is a leaf like any other under the rules over bytes.
        (Rule::Bitcoin, None, proof::encode(&r, &r, 0, &[]), Verdict::Valid),
        (
            Rule::SortedKeccak256,
            Some(64),
            proof::encode(&z, &z, u64::MAX, &[z; 64]),
            Verdict::Invalid(Reason::RootMismatch),
        ),
    ];
    for (rule, depth, item, want) in cases {
        assert_eq!(
            merkle::oracle::verify_proof(rule, depth, &item),
            want,
            "oracle: {rule} {depth:?}"
        );
        assert_verdicts(rule, depth, &[item], &[want], "edge");
    }
    // Sorted pairs: the index does not enter; equal nodes hash alike.
    let leaf = [7u8; 32];
    let up = hashes::digest(Alg::Keccak256, &[leaf, leaf].concat());
    let items = vec![
        proof::encode(&up, &leaf, 0, &[leaf]),
        proof::encode(&up, &leaf, 1, &[leaf]),
    ];
    assert_verdicts(Rule::SortedKeccak256, None, &items, &[Verdict::Valid; 2], "equal nodes");
}

/// A depth of 0 or above 64 refuses the whole call, naming the operation,
/// on every engine.
#[test]
fn depth_out_of_range_is_an_error() {
    let items = batch(&[proof::encode(&[0; 32], &[0; 32], 0, &[])]);
    for (name, engine) in engines() {
        for depth in [0, 65, u32::MAX] {
            match engine.verify_merkle_proofs(Rule::Bitcoin, Some(depth), &items) {
                Err(Error::InvalidInput { op, reason }) => {
                    assert_eq!(op.to_string(), "merkle_proof_sha256", "{name}");
                    assert!(reason.contains(&depth.to_string()), "{name}: {reason}");
                }
                other => panic!("{name}: depth {depth}: {other:?}"),
            }
        }
    }
}

/// SSZ (Ethereum consensus): the published empty deposit root (the
/// deposit contract's `get_deposit_root()` with no deposits: the padded
/// tree of depth 32 with no leaves, its count mixed in) and the first
/// zero hash; a list of five chunks under a limit of 2^17 (a blob
/// sidecar's commitments tree's depth) equal to `merkleize` of its 2^17
/// chunks written out, and its branches accepted by
/// `is_valid_merkle_branch` and on every engine under `--depth 17`, failing
/// at a neighbour's position; a plain tree of five chunks is the one of
/// eight with three zero chunks.
#[test]
fn ssz_deposit_root_and_branches() {
    let (_, engine) = &engines()[0];
    let sha = |a: &Digest, b: &Digest| hashes::digest(Alg::Sha256, &[*a, *b].concat());
    let empty = |depth: u32| {
        let padding = merkle::Padding { depth, zero: [0; 32] };
        engine
            .merkle_root_padded(Rule::Ssz, &[], &padding)
            .expect("the empty tree")
            .output
    };
    assert_eq!(
        hex::encode(empty(1)),
        "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b"
    );
    assert_eq!(
        hex::encode(sha(&empty(32), &[0; 32])),
        "d70a234731285c6804c2a4f56711ddb8c82c99740f207854891028af34e27e5e"
    );
    let mut rng = StdRng::seed_from_u64(4844);
    let chunks = random_leaves(&mut rng, Rule::Ssz, 5);
    let mut written = chunks.clone();
    written.resize(1 << 17, [0; 32]);
    let want = crate::merkle::ssz_reference(&written);
    let padding = merkle::Padding {
        depth: 17,
        zero: [0; 32],
    };
    for (name, engine) in engines() {
        let root = engine
            .merkle_root_padded(Rule::Ssz, &chunks, &padding)
            .expect("root")
            .output;
        assert_eq!(root, want, "{name}");
    }
    let tree = engine.merkle_tree_padded(Rule::Ssz, &chunks, &padding).expect("tree");
    let mut items = Vec::new();
    let mut verdicts = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let (index, branch) = tree.path(i).expect("path");
        assert!(is_valid_merkle_branch(chunk, &branch, 17, index, &want), "chunk {i}");
        items.push(proof::encode(&want, chunk, index, &branch));
        verdicts.push(Verdict::Valid);
        items.push(proof::encode(&want, chunk, index ^ 1, &branch));
        verdicts.push(Verdict::Invalid(Reason::RootMismatch));
    }
    assert_verdicts(Rule::Ssz, Some(17), &items, &verdicts, "a list's branches");
    let mut eight = chunks.clone();
    eight.resize(8, [0; 32]);
    assert_eq!(
        engine.merkle_root(Rule::Ssz, &chunks).expect("root").output,
        crate::merkle::ssz_reference(&eight)
    );
}
