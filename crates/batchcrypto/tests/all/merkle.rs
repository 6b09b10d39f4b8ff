//! Merkle roots and proofs on every backend (the GPU level reduction
//! included) against a Bitcoin block's known root and against references
//! written here, independently of the library's tree code, from the oracle
//! hash functions: Bitcoin Core's `ComputeMerkleRoot` loop (odd node
//! duplicated) and merkletreejs' `sortPairs` layout (odd node carried up),
//! with proofs checked the way OpenZeppelin's `MerkleProof.processProof`
//! checks them.

use crate::support::engines;
use batchcrypto::Error;
use batchcrypto::ops::hash::{Alg, Digest, oracle};
use batchcrypto::ops::merkle::{self, Rule, verify_proof};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Bitcoin Core's loop: duplicate the last node of an odd level, then hash
/// pairs with double SHA-256.
fn bitcoin_reference(leaves: &[Digest]) -> Digest {
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
fn oz_hash_pair(a: &Digest, b: &Digest) -> Digest {
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

fn reference(rule: Rule, leaves: &[Digest]) -> Digest {
    match rule {
        Rule::Bitcoin => bitcoin_reference(leaves),
        Rule::SortedKeccak256 => sorted_reference(leaves),
    }
}

/// OpenZeppelin `MerkleProof.processProof`.
fn oz_process_proof(proof: &[Digest], leaf: &Digest) -> Digest {
    proof.iter().fold(*leaf, |node, s| oz_hash_pair(&node, s))
}

fn random_leaves(rng: &mut StdRng, n: usize) -> Vec<Digest> {
    (0..n).map(|_| rng.random()).collect()
}

/// The root on every engine equals `want`; with two leaves or more the GPU
/// engine must really have reduced on the GPU.
fn assert_root(rule: Rule, leaves: &[Digest], want: &Digest, what: &str) {
    for (name, engine) in engines() {
        let outcome = engine.merkle_root(rule, leaves).expect("merkle root");
        if leaves.len() > 1 {
            let want = crate::support::expected_backend(name, false);
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
            let leaves = random_leaves(&mut rng, n);
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
            let leaves = random_leaves(&mut rng, n);
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
    let abc = random_leaves(&mut rng, 3);
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
