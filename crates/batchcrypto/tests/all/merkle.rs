//! Merkle roots and proofs on every backend (the GPU level reduction
//! included) against a Bitcoin block's known root, Semaphore v4 groups'
//! known roots (`testdata/poseidon/lean-imt.json`) and against references
//! written here, independently of the library's tree code, from the oracle
//! hash functions: Bitcoin Core's `ComputeMerkleRoot` loop (odd node
//! duplicated), merkletreejs' `sortPairs` layout (odd node carried up),
//! with proofs checked the way OpenZeppelin's `MerkleProof.processProof`
//! checks them, and zk-kit's LeanIMT (`_insertMany`'s levels: a pair
//! hashed by `poseidon_bn254`'s oracle, a node without a sibling carried
//! up), with proofs checked the way its `verifyProof` checks them.

use crate::support::engines;
use batchcrypto::Error;
use batchcrypto::ops::hash::{Alg, Digest, oracle};
use batchcrypto::ops::merkle::{self, Rule, verify_proof};
use batchcrypto::ops::poseidon;
use num_bigint::BigUint;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Bitcoin Core's loop: duplicate the last node of an odd level, then hash
/// pairs with double SHA-256.
pub(crate) fn bitcoin_reference(leaves: &[Digest]) -> Digest {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        if level.len() % 2 == 1 {
            level.push(*level.last().expect("not empty"));
        }
        level = level
            .chunks(2)
            .map(|p| {
                let once = oracle::digest(Alg::Sha256, &[p[0], p[1]].concat());
                oracle::digest(Alg::Sha256, &once)
            })
            .collect();
    }
    level[0]
}

/// OpenZeppelin's `_hashPair`: keccak256 of the pair, smaller first.
pub(crate) fn oz_hash_pair(a: &Digest, b: &Digest) -> Digest {
    let (x, y) = if a < b { (a, b) } else { (b, a) };
    oracle::digest(Alg::Keccak256, &[*x, *y].concat())
}

/// merkletreejs with `sortPairs: true`: pairs hashed sorted, an odd last
/// node promoted as it is.
fn sorted_reference(leaves: &[Digest]) -> Digest {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        let mut up = Vec::new();
        let mut i = 0;
        while i < level.len() {
            if i + 1 < level.len() {
                up.push(oz_hash_pair(&level[i], &level[i + 1]));
            } else {
                up.push(level[i]);
            }
            i += 2;
        }
        level = up;
    }
    level[0]
}

/// LeanIMT's parent of two nodes: circom's Poseidon of the pair.
pub(crate) fn lean_hash(left: &Digest, right: &Digest) -> Digest {
    poseidon::oracle::hash(&[*left, *right].concat()).expect("nodes below r")
}

/// zk-kit's LeanIMT built from its leaves as `_insertMany` builds it: at
/// each level the pairs hashed, a last node without a sibling carried up.
fn lean_reference(leaves: &[Digest]) -> Digest {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        let mut up = Vec::new();
        for i in (0..level.len()).step_by(2) {
            up.push(match level.get(i + 1) {
                Some(right) => lean_hash(&level[i], right),
                None => level[i],
            });
        }
        level = up;
    }
    level[0]
}

/// LeanIMT's `verifyProof`: the siblings bottom up, the leaf's side at
/// each of them the next bit of `path` (the leaf's index with the bits of
/// the levels where it was carried up removed, as its `generateProof`
/// gives it).
pub(crate) fn lean_process_proof(leaf: &Digest, path: usize, siblings: &[Digest]) -> Digest {
    siblings.iter().enumerate().fold(*leaf, |node, (k, s)| {
        if (path >> k) & 1 == 1 {
            lean_hash(s, &node)
        } else {
            lean_hash(&node, s)
        }
    })
}

/// The path bits LeanIMT's `generateProof` gives leaf `index` of `n`.
pub(crate) fn lean_path(index: usize, n: usize) -> usize {
    let (mut path, mut bit, mut i, mut width) = (0, 0, index, n);
    while width > 1 {
        if i ^ 1 < width {
            path |= (i & 1) << bit;
            bit += 1;
        }
        i /= 2;
        width = width.div_ceil(2);
    }
    path
}

/// The SSZ specification's `merkleize` of chunks without a limit: padded
/// with zero chunks to the next power of two, pairs hashed with SHA-256.
pub(crate) fn ssz_reference(leaves: &[Digest]) -> Digest {
    let mut level = leaves.to_vec();
    level.resize(leaves.len().next_power_of_two(), [0; 32]);
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| oracle::digest(Alg::Sha256, &[p[0], p[1]].concat()))
            .collect();
    }
    level[0]
}

pub(crate) fn reference(rule: Rule, leaves: &[Digest]) -> Digest {
    match rule {
        Rule::Bitcoin => bitcoin_reference(leaves),
        Rule::SortedKeccak256 => sorted_reference(leaves),
        Rule::LeanImtPoseidon => lean_reference(leaves),
        Rule::Ssz => ssz_reference(leaves),
    }
}

/// OpenZeppelin `MerkleProof.processProof`.
pub(crate) fn oz_process_proof(proof: &[Digest], leaf: &Digest) -> Digest {
    proof.iter().fold(*leaf, |node, s| oz_hash_pair(&node, s))
}

/// `n` random leaves `rule` takes: any bytes, or random field elements
/// (below r) under lean-imt-poseidon.
pub(crate) fn random_leaves(rng: &mut StdRng, rule: Rule, n: usize) -> Vec<Digest> {
    (0..n)
        .map(|_| {
            let mut leaf: Digest = rng.random();
            if rule == Rule::LeanImtPoseidon {
                let r = BigUint::from_bytes_be(&R_BE);
                leaf = be32(&(BigUint::from_bytes_be(&leaf) % r));
            }
            leaf
        })
        .collect()
}

/// BN254's scalar field's modulus r, big-endian.
pub(crate) const R_BE: Digest = [
    0x30, 0x64, 0x4e, 0x72, 0xe1, 0x31, 0xa0, 0x29, 0xb8, 0x50, 0x45, 0xb6, 0x81, 0x81, 0x58, 0x5d, 0x28, 0x33, 0xe8,
    0x48, 0x79, 0xb9, 0x70, 0x91, 0x43, 0xe1, 0xf5, 0x93, 0xf0, 0x00, 0x00, 0x01,
];

/// `v` as 32 bytes big-endian (it must fit).
fn be32(v: &BigUint) -> Digest {
    let be = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - be.len()..].copy_from_slice(&be);
    out
}

/// A JSON list of decimal integers as leaves.
pub(crate) fn decimals(v: &serde_json::Value) -> Vec<Digest> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| decimal(x.as_str().expect("decimal")))
        .collect()
}

/// A decimal integer as a leaf.
pub(crate) fn decimal(s: &str) -> Digest {
    be32(&BigUint::parse_bytes(s.as_bytes(), 10).expect("decimal"))
}

/// The root on every engine equals `want`; with two leaves or more the GPU
/// engine must really have reduced on the GPU.
fn assert_root(rule: Rule, leaves: &[Digest], want: &Digest, what: &str) {
    for (name, engine) in engines() {
        let outcome = engine.merkle_root(rule, leaves).expect("merkle root");
        if leaves.len() > 1 {
            let want = crate::support::expected_backend(name, rule == Rule::LeanImtPoseidon);
            assert_eq!(outcome.selection.backend.name(), want, "{name}: {}", outcome.selection);
        }
        assert_eq!(
            hex::encode(outcome.output),
            hex::encode(want),
            "{name} {rule} {what}, {} leaves",
            leaves.len()
        );
    }
}

/// Bitcoin block 100,000: four transactions, txids as explorers show them
/// (byte-reversed), and the header's Merkle root.
#[test]
fn bitcoin_block_100000() {
    let txids = [
        "8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
        "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
        "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
        "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d",
    ];
    let internal = |h: &str| -> Digest {
        let mut d: Digest = hex::decode(h).expect("hex").try_into().expect("32");
        d.reverse();
        d
    };
    let leaves: Vec<Digest> = txids.iter().map(|h| internal(h)).collect();
    let root = internal("f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766");
    assert_root(Rule::Bitcoin, &leaves, &root, "block 100000");
    // Three of them: the odd third is paired with itself.
    assert_root(
        Rule::Bitcoin,
        &leaves[..3],
        &bitcoin_reference(&leaves[..3]),
        "three txids",
    );
}

/// Every size from 1 to 70 leaves and a few large odd ones, both rules,
/// every backend.
#[test]
fn roots_match_the_references() {
    let mut rng = StdRng::seed_from_u64(2459);
    let mut sizes: Vec<usize> = (1..=70).collect();
    sizes.extend([127, 128, 129, 255, 1000, 4097, 65_537]);
    for rule in Rule::ALL {
        for &n in &sizes {
            // Poseidon's trees stop at 4,097 leaves: the reference and the
            // oracle hash at about 20 µs a node.
            if rule == Rule::LeanImtPoseidon && n > 4097 {
                continue;
            }
            let leaves = random_leaves(&mut rng, rule, n);
            let want = reference(rule, &leaves);
            assert_eq!(merkle::oracle::root(rule, &leaves), Some(want), "oracle {rule} n={n}");
            assert_root(rule, &leaves, &want, "random");
        }
        // Equal leaves and leaves that differ in the last byte only (sorting).
        let mut same = vec![[7u8; 32]; 9];
        assert_root(rule, &same, &reference(rule, &same), "equal leaves");
        same[3][31] = 8;
        same[4][0] = 6;
        assert_root(rule, &same, &reference(rule, &same), "near-equal leaves");
    }
}

/// Proofs of every leaf verify; any change to leaf, index, sibling or
/// length makes them fail. Sorted-keccak256 proofs also pass
/// OpenZeppelin's `processProof`.
#[test]
fn proofs_verify_and_corruptions_fail() {
    let mut rng = StdRng::seed_from_u64(7212);
    let (_, engine) = &engines()[0];
    for rule in Rule::ALL {
        for n in [1usize, 2, 3, 5, 6, 7, 8, 13, 33, 100] {
            let leaves = random_leaves(&mut rng, rule, n);
            let tree = engine.merkle_tree(rule, &leaves).expect("tree");
            let root = tree.root();
            assert_eq!(root, reference(rule, &leaves), "{rule} n={n}");
            assert!(tree.proof(n).is_none());
            for (i, leaf) in leaves.iter().enumerate() {
                let proof = tree.proof(i).expect("proof");
                assert!(verify_proof(rule, leaf, i, n, &proof, &root), "{rule} n={n} leaf {i}");
                if rule == Rule::SortedKeccak256 {
                    assert_eq!(oz_process_proof(&proof, leaf), root, "OpenZeppelin n={n} leaf {i}");
                }
                if rule == Rule::LeanImtPoseidon {
                    let path = lean_path(i, n);
                    assert_eq!(lean_process_proof(leaf, path, &proof), root, "LeanIMT n={n} leaf {i}");
                }
                let mut bad_leaf = *leaf;
                bad_leaf[rng.random_range(0..32)] ^= 1 << rng.random_range(0..8);
                assert!(!verify_proof(rule, &bad_leaf, i, n, &proof, &root), "bad leaf");
                let mut bad_root = root;
                bad_root[0] ^= 0x80;
                assert!(!verify_proof(rule, leaf, i, n, &proof, &bad_root), "bad root");
                assert!(!verify_proof(rule, leaf, n, n, &proof, &root), "index out of range");
                if !proof.is_empty() {
                    let mut bad = proof.clone();
                    let k = rng.random_range(0..bad.len());
                    bad[k][rng.random_range(0..32)] ^= 0x10;
                    assert!(!verify_proof(rule, leaf, i, n, &bad, &root), "bad sibling {k}");
                    assert!(
                        !verify_proof(rule, leaf, i, n, &proof[..proof.len() - 1], &root),
                        "short proof"
                    );
                }
                let mut long = proof.clone();
                long.push(root);
                assert!(!verify_proof(rule, leaf, i, n, &long, &root), "long proof");
                // Under the bitcoin rule the position enters every hash.
                if rule == Rule::Bitcoin && n > 1 {
                    let j = (i + 1) % n;
                    if leaves[j] != *leaf {
                        assert!(!verify_proof(rule, leaf, j, n, &proof, &root), "wrong index");
                    }
                }
            }
        }
    }
}

/// The duplication of the bitcoin rule makes [a, b, c] and [a, b, c, c]
/// share a root (CVE-2012-2459); documented, and pinned here.
#[test]
fn bitcoin_rule_duplicate_mutation() {
    let mut rng = StdRng::seed_from_u64(2012);
    let abc = random_leaves(&mut rng, Rule::Bitcoin, 3);
    let abcc = [abc.clone(), vec![abc[2]]].concat();
    let (_, engine) = &engines()[0];
    let r1 = engine.merkle_root(Rule::Bitcoin, &abc).expect("root").output;
    let r2 = engine.merkle_root(Rule::Bitcoin, &abcc).expect("root").output;
    assert_eq!(r1, r2);
    let s1 = engine.merkle_root(Rule::SortedKeccak256, &abc).expect("root").output;
    let s2 = engine.merkle_root(Rule::SortedKeccak256, &abcc).expect("root").output;
    assert_ne!(s1, s2);
}

#[test]
fn no_leaves_is_an_error() {
    for (name, engine) in engines() {
        for rule in Rule::ALL {
            assert!(
                matches!(engine.merkle_root(rule, &[]), Err(Error::InvalidInput { .. })),
                "{name}"
            );
            assert!(matches!(engine.merkle_tree(rule, &[]), Err(Error::InvalidInput { .. })));
        }
    }
}

/// Semaphore v4 groups' roots (`testdata/poseidon/lean-imt.json`, made by
/// the TypeScript implementation) on every engine, and the proof of the
/// first group's leaf 0 as Semaphore gives it.
#[test]
fn semaphore_groups_known_roots() {
    let Some(json) = crate::support::vectors_json("poseidon/lean-imt.json") else {
        return;
    };
    let cases = json["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 4);
    let rule = Rule::LeanImtPoseidon;
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let leaves = decimals(&case["leaves"]);
        let root = decimal(case["root"].as_str().expect("root"));
        assert_eq!(lean_reference(&leaves), root, "reference: {name}");
        assert_eq!(merkle::oracle::root(rule, &leaves), Some(root), "oracle: {name}");
        assert_root(rule, &leaves, &root, name);
        if let Some(proof) = case.get("proof") {
            let index = proof["index"].as_u64().expect("index") as usize;
            let siblings = decimals(&proof["siblings"]);
            for (name, engine) in engines() {
                let tree = engine.merkle_tree(rule, &leaves).expect("tree");
                assert_eq!(tree.proof(index), Some(siblings.clone()), "{name}");
            }
            assert!(verify_proof(
                rule,
                &leaves[index],
                index,
                leaves.len(),
                &siblings,
                &root
            ));
        }
    }
}

/// Under lean-imt-poseidon a leaf not below r makes the whole call an
/// error naming the first such leaf, on every engine (roots and trees);
/// r - 1 and 0 are leaves like any other; proofs with such a leaf or
/// sibling fail.
#[test]
fn lean_imt_leaves_must_be_field_elements() {
    let rule = Rule::LeanImtPoseidon;
    let r = BigUint::from_bytes_be(&R_BE);
    let r_minus_1 = be32(&(&r - 1u32));
    let mut rng = StdRng::seed_from_u64(253);
    for n in [1usize, 2, 3, 9, 64] {
        let leaves = random_leaves(&mut rng, rule, n);
        for (at, bad) in [(n - 1, R_BE), (0, [0xff; 32]), (n / 2, R_BE)] {
            let mut with_bad = leaves.clone();
            with_bad[at] = bad;
            if at != n - 1 {
                // A second bad leaf after it: the first is named.
                with_bad[n - 1] = R_BE;
            }
            assert_eq!(merkle::oracle::root(rule, &with_bad), None);
            assert_eq!(
                merkle::check_leaves(rule, &with_bad),
                Err((at, batchcrypto::Reason::NonCanonicalElement))
            );
            for (name, engine) in engines() {
                let want = format!("leaf {at} is not below");
                match engine.merkle_root(rule, &with_bad) {
                    Err(Error::InvalidInput { reason, .. }) => assert!(reason.starts_with(&want), "{name}: {reason}"),
                    other => panic!("{name}: n={n} bad leaf {at}: {other:?}"),
                }
                assert!(matches!(
                    engine.merkle_tree(rule, &with_bad),
                    Err(Error::InvalidInput { .. })
                ));
            }
        }
        let mut edges = leaves.clone();
        edges[0] = r_minus_1;
        edges[n - 1] = [0; 32];
        assert_root(rule, &edges, &lean_reference(&edges), "edge leaves");
        let root = lean_reference(&edges);
        if n > 1 {
            let (_, engine) = &engines()[0];
            let proof = engine.merkle_tree(rule, &edges).expect("tree").proof(0).expect("proof");
            assert!(verify_proof(rule, &edges[0], 0, n, &proof, &root));
            assert!(!verify_proof(rule, &R_BE, 0, n, &proof, &root), "leaf r");
            let mut bad = proof.clone();
            bad[0] = R_BE;
            assert!(!verify_proof(rule, &edges[0], 0, n, &bad, &root), "sibling r");
        }
    }
    // The other rules hash any bytes.
    for other in [Rule::Bitcoin, Rule::SortedKeccak256] {
        assert_eq!(merkle::check_leaves(other, &[R_BE, [0xff; 32]]), Ok(()));
    }
}

/// A padded tree's root is the root of its 2^depth leaves written out (the
/// given ones, then the zero value) under the rule's reference: every
/// rule, depths 1 to 7, from no leaves to a full tree, random and zero
/// zero values, on every engine; proofs of depth siblings verify and fail
/// when changed.
#[test]
fn padded_roots_match_the_written_out_trees() {
    let mut rng = StdRng::seed_from_u64(26);
    for rule in Rule::ALL {
        for depth in 1..=7u32 {
            let full = 1usize << depth;
            for n in [0, 1, 2, 3, full / 2 + 1, full - 1, full]
                .into_iter()
                .filter(|&n| n <= full)
            {
                let zero = if n % 2 == 0 {
                    [0; 32]
                } else {
                    random_leaves(&mut rng, rule, 1)[0]
                };
                let padding = merkle::Padding { depth, zero };
                let leaves = random_leaves(&mut rng, rule, n);
                let mut written = leaves.clone();
                written.resize(full, zero);
                let want = reference(rule, &written);
                let what = format!("{rule} depth {depth}, {n} leaves");
                assert_eq!(
                    merkle::oracle::padded_root(rule, &leaves, &padding),
                    Some(want),
                    "{what}"
                );
                for (name, engine) in engines() {
                    let outcome = engine.merkle_root_padded(rule, &leaves, &padding).expect("padded root");
                    assert_eq!(outcome.output, want, "{name}: {what}");
                    if n > 0 {
                        let backend = crate::support::expected_backend(name, rule == Rule::LeanImtPoseidon);
                        assert_eq!(outcome.selection.backend.name(), backend, "{name}: {what}");
                    }
                }
                let (_, engine) = &engines()[0];
                let tree = engine.merkle_tree_padded(rule, &leaves, &padding).expect("tree");
                assert_eq!(tree.root(), want, "{what}");
                assert_eq!(tree.leaves(), n);
                assert!(tree.proof(n).is_none());
                for i in [0, n / 2, n.saturating_sub(1)].into_iter().filter(|&i| i < n) {
                    let proof = tree.proof(i).expect("proof");
                    assert_eq!(proof.len(), depth as usize);
                    assert!(
                        merkle::verify_padded_proof(rule, depth, &leaves[i], i, &proof, &want),
                        "{what} leaf {i}"
                    );
                    let mut bad = proof.clone();
                    bad[depth as usize - 1][31] ^= 1;
                    assert!(
                        !merkle::verify_padded_proof(rule, depth, &leaves[i], i, &bad, &want),
                        "{what}"
                    );
                    assert!(!merkle::verify_padded_proof(
                        rule,
                        depth,
                        &leaves[i],
                        i,
                        &proof[1..],
                        &want
                    ));
                    assert!(!merkle::verify_padded_proof(
                        rule, depth, &leaves[i], full, &proof, &want
                    ));
                    // The side enters the hash but under sorted-keccak256.
                    if rule != Rule::SortedKeccak256 && proof[0] != leaves[i] {
                        assert!(!merkle::verify_padded_proof(
                            rule,
                            depth,
                            &leaves[i],
                            i ^ 1,
                            &proof,
                            &want
                        ));
                    }
                }
            }
        }
    }
}

/// Empty Poseidon trees of zero leaves 0 have Light Protocol's roots
/// (`testdata/poseidon/zero-roots.json`) at every height, with no leaves
/// and with one leaf 0 (which runs on the GPU engine's device); a deep
/// tree with a few leaves equals the oracle's on every engine.
#[test]
fn padded_poseidon_trees_have_light_protocols_empty_roots() {
    let Some(json) = crate::support::vectors_json("poseidon/zero-roots.json") else {
        return;
    };
    let roots = json["roots"].as_array().expect("roots");
    assert_eq!(roots.len(), 7);
    let rule = Rule::LeanImtPoseidon;
    for r in roots {
        let depth = r["depth"].as_u64().expect("depth") as u32;
        let want: Digest = hex::decode(r["root"].as_str().expect("root"))
            .expect("hex")
            .try_into()
            .expect("32");
        let padding = merkle::Padding { depth, zero: [0; 32] };
        assert_eq!(
            padding.zeros(rule).expect("zeros")[depth as usize],
            want,
            "depth {depth}"
        );
        for (name, engine) in engines() {
            for leaves in [&[][..], &[[0u8; 32]][..]] {
                let got = engine.merkle_root_padded(rule, leaves, &padding).expect("root").output;
                assert_eq!(got, want, "{name}: depth {depth}, {} leaves", leaves.len());
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(64);
    for depth in [26, 40, 64] {
        let padding = merkle::Padding {
            depth,
            zero: random_leaves(&mut rng, rule, 1)[0],
        };
        let leaves = random_leaves(&mut rng, rule, 5);
        let want = merkle::oracle::padded_root(rule, &leaves, &padding).expect("oracle");
        assert_root_padded(rule, &leaves, &padding, &want);
    }
}

fn assert_root_padded(rule: Rule, leaves: &[Digest], padding: &merkle::Padding, want: &Digest) {
    for (name, engine) in engines() {
        let got = engine.merkle_root_padded(rule, leaves, padding).expect("root").output;
        assert_eq!(&got, want, "{name}: depth {}", padding.depth);
    }
}

/// A padded tree's shape and values are checked: depth 0 and past 64,
/// more leaves than the depth holds, and under lean-imt-poseidon a zero
/// value or leaf not below r are the call's error on every engine.
#[test]
fn padded_trees_refuse_what_they_cannot_hold() {
    let rule = Rule::LeanImtPoseidon;
    let leaf = [[1u8; 32]];
    let cases: [(u32, Digest, Vec<Digest>, &str); 5] = [
        (0, [0; 32], leaf.to_vec(), "depth 0 is not 1 to 64"),
        (65, [0; 32], leaf.to_vec(), "depth 65 is not 1 to 64"),
        (2, [0; 32], vec![[1; 32]; 5], "5 leaves do not fit a tree of depth 2"),
        (3, R_BE, leaf.to_vec(), "the zero value is not below"),
        (3, [0; 32], vec![[1; 32], R_BE], "leaf 1 is not below"),
    ];
    for (depth, zero, leaves, want) in cases {
        let padding = merkle::Padding { depth, zero };
        assert_eq!(merkle::oracle::padded_root(rule, &leaves, &padding), None, "{want}");
        for (name, engine) in engines() {
            for got in [
                engine.merkle_root_padded(rule, &leaves, &padding).map(|o| o.output),
                engine.merkle_tree_padded(rule, &leaves, &padding).map(|t| t.root()),
            ] {
                match got {
                    Err(Error::InvalidInput { reason, .. }) => assert!(reason.starts_with(want), "{name}: {reason}"),
                    other => panic!("{name}: {want}: {other:?}"),
                }
            }
        }
    }
    // The rules over bytes take any zero value.
    let padding = merkle::Padding { depth: 3, zero: R_BE };
    let (_, engine) = &engines()[0];
    assert!(engine.merkle_root_padded(Rule::Bitcoin, &leaf, &padding).is_ok());
}
