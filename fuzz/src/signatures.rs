//! Signature verification against the oracles: Ed25519 (strict and
//! ZIP-215; ed25519-dalek, ed25519-zebra), BIP-340 and secp256k1 ECDSA
//! and ecrecover (libsecp256k1), sr25519 (schnorrkel), P-256 (`p256`),
//! BLS12-381 one by one and in batches (blst), EIP-7594's KZG cell
//! proofs (c-kzg-4844), Groth16 proofs over BN254 and BLS12-381
//! (`ark-groth16`), secp256k1 and P-256 signatures in DER
//! (libsecp256k1's and `p256`'s DER paths), and Solana transactions
//! (solana-transaction's reader and sanitize rules, the Ed25519 oracles).

use std::sync::OnceLock;

use arbitrary::Unstructured;
use batchcrypto::Engine;
use batchcrypto::batch::SignedBatch;
use batchcrypto::ops::groth16::bls12_381;
use batchcrypto::ops::{SignedItem, bip340, bls, ecdsa, ed25519, groth16, kzg, solana_tx, sr25519};

use super::{Fields, answers, array, engine, same};

/// Generated items per seed (and the most a batch takes): enough for the
/// batch checks, which the engine starts only after a run of valid items
/// (`bisect::decide`: Ed25519 ZIP-215, sr25519, BLS in batches).
const ITEMS: usize = 160;
/// BLS costs a millisecond per item: one by one, small batches.
const BLS_ITEMS: usize = 8;
/// BLS as a batch: enough for its batch checks (from 80 items on two
/// threads).
const BLS_BATCH_ITEMS: usize = 96;
/// KZG cells: a c-kzg check costs milliseconds a cell, and enough for a
/// batch check and its bisection.
const CELL_ITEMS: usize = 16;
/// Groth16: a proof costs a millisecond, and enough for the combinations
/// (`bisect::decide` probes with 8 items per thread).
const GROTH16_ITEMS: usize = 40;
/// Public inputs of the Groth16 keys.
const GROTH16_INPUTS: usize = 3;
/// Seeds of generated items.
const SEEDS: usize = 4;
/// The operations (an input's first choice; Groth16 over BLS12-381, the
/// fourteenth, ECDSA in DER, the fifteenth, and Solana transactions, the
/// sixteenth, came last: the committed inputs' first bytes were
/// rewritten to keep their operation).
const OPS: u8 = 16;

/// Share of hostile items among seed `s`'s generated ones: a third for
/// the first two, none for the others (batches that the edits alone make
/// fail, which the batch checks then bisect).
fn hostile(s: u64) -> f64 {
    if s < 2 { 0.3 } else { 0.0 }
}

const KEY_SIG_MSG: &[bool] = &[true, true, false];

/// One fuzz input on the fuzzers' CPU engine.
pub fn run(data: &[u8]) {
    check(engine(), data);
}

/// Whether `data` is a BLS12-381 input (9: one by one, 10: as a batch).
pub fn is_bls(data: &[u8]) -> bool {
    Unstructured::new(data)
        .int_in_range(0..=OPS - 1)
        .is_ok_and(|op| op == 9 || op == 10)
}

/// Whether `data` is a Groth16 input (12: BN254, 13: BLS12-381).
pub fn is_groth16(data: &[u8]) -> bool {
    Unstructured::new(data)
        .int_in_range(0..=OPS - 1)
        .is_ok_and(|op| op == 12 || op == 13)
}

/// One fuzz input on `e`: an operation, a seed's items, edits.
pub fn check(e: &Engine, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let (Ok(op), Ok(seed)) = (u.int_in_range(0..=OPS - 1), u.choose_index(SEEDS)) else {
        return;
    };
    match op {
        0 | 1 => {
            let policy = ed25519::Policy::ALL[usize::from(op)];
            let fields = cached(&ED25519, seed, |s| {
                ed25519::sample::generate(&ed25519::sample::Config {
                    count: ITEMS,
                    hostile_share: hostile(s),
                    signers: 4,
                    max_msg_len: 80,
                    seed: s,
                })
                .into_iter()
                .map(|i| vec![i.pk.to_vec(), i.sig.to_vec(), i.msg])
                .collect()
            });
            let items = Fields {
                items: fields,
                fixed: KEY_SIG_MSG,
            }
            .edited(&mut u, ITEMS)
            .items;
            let batch = signed::<32, 64>(&items);
            let got = valid(&answers(e, e.verify_ed25519(&batch, policy)));
            let want = items
                .iter()
                .map(|i| ed25519::oracle::verify(policy, &array(&i[0]), &array(&i[1]), &i[2]))
                .collect::<Vec<_>>();
            same(&format!("ed25519 {policy:?}"), &got, &want);
        }
        2 => {
            let fields = cached(&BIP340, seed, |s| {
                signed_fields(bip340::sample::generate(ITEMS, 4, hostile(s), s))
            });
            let items = Fields {
                items: fields,
                fixed: KEY_SIG_MSG,
            }
            .edited(&mut u, ITEMS)
            .items;
            let got = valid(&answers(e, e.verify_bip340(&signed::<32, 64>(&items))));
            let want = items
                .iter()
                .map(|i| bip340::oracle::verify(&array(&i[0]), &array(&i[1]), &i[2]))
                .collect::<Vec<_>>();
            same("bip340", &got, &want);
        }
        3 => {
            let fields = cached(&SR25519, seed, |s| {
                signed_fields(sr25519::sample::generate(ITEMS, 4, hostile(s), s))
            });
            // The generator's context, or another the fuzzer writes.
            let ctx: Vec<u8> = if u.ratio(1, 4).unwrap_or(false) {
                u.arbitrary().unwrap_or_default()
            } else {
                sr25519::DEFAULT_CONTEXT.to_vec()
            };
            let items = Fields {
                items: fields,
                fixed: KEY_SIG_MSG,
            }
            .edited(&mut u, ITEMS)
            .items;
            let got = valid(&answers(e, e.verify_sr25519(&signed::<32, 64>(&items), &ctx)));
            let want = items
                .iter()
                .map(|i| sr25519::oracle::verify(&ctx, &array(&i[0]), &array(&i[1]), &i[2]))
                .collect::<Vec<_>>();
            same("sr25519", &got, &want);
        }
        4 | 5 => {
            let low_s = op == 5;
            let fields = cached(&SECP256K1, seed, |s| {
                ecdsa::sample::secp256k1_verify(ITEMS, 4, hostile(s), s)
                    .into_iter()
                    .map(|(i, _)| vec![i.hash.to_vec(), i.sig.to_vec(), i.pk.as_bytes().to_vec()])
                    .collect()
            });
            // Keys keep their length (33 or 65 bytes) under every edit.
            let items = Fields {
                items: fields,
                fixed: &[true, true, true],
            }
            .edited(&mut u, ITEMS)
            .items;
            let items: Vec<ecdsa::K1VerifyItem> = items
                .iter()
                .filter_map(|i| {
                    Some(ecdsa::K1VerifyItem {
                        hash: array(&i[0]),
                        sig: array(&i[1]),
                        pk: ecdsa::K1Key::from_slice(&i[2])?,
                    })
                })
                .collect();
            let got = valid(&answers(e, e.verify_secp256k1(&items, low_s)));
            let want = items
                .iter()
                .map(|i| ecdsa::oracle::secp256k1_verify(i, low_s))
                .collect::<Vec<_>>();
            same("secp256k1_verify", &got, &want);
        }
        6 | 7 => {
            let low_s = op == 7;
            let fields = cached(&ECRECOVER, seed, |s| {
                ecdsa::sample::ecrecover(ITEMS, 4, hostile(s), s)
                    .into_iter()
                    .map(|(i, _)| vec![i.hash.to_vec(), i.sig.to_vec()])
                    .collect()
            });
            let items = Fields {
                items: fields,
                fixed: &[true, true],
            }
            .edited(&mut u, ITEMS)
            .items;
            let items: Vec<ecdsa::RecoverItem> = items
                .iter()
                .map(|i| ecdsa::RecoverItem {
                    hash: array(&i[0]),
                    sig: array(&i[1]),
                })
                .collect();
            let got: Vec<_> = answers(e, e.ecrecover(&items, low_s))
                .into_iter()
                .map(Result::ok)
                .collect();
            let want = items
                .iter()
                .map(|i| ecdsa::oracle::ecrecover(i, low_s))
                .collect::<Vec<_>>();
            same("ecrecover", &got, &want);
        }
        8 => {
            let fields = cached(&P256, seed, |s| {
                ecdsa::sample::p256_verify(ITEMS, 4, hostile(s), s)
                    .into_iter()
                    .map(|(i, _)| vec![i.hash.to_vec(), i.r.to_vec(), i.s.to_vec(), i.x.to_vec(), i.y.to_vec()])
                    .collect()
            });
            let items = Fields {
                items: fields,
                fixed: &[true; 5],
            }
            .edited(&mut u, ITEMS)
            .items;
            let items: Vec<ecdsa::P256Item> = items
                .iter()
                .map(|i| ecdsa::P256Item {
                    hash: array(&i[0]),
                    r: array(&i[1]),
                    s: array(&i[2]),
                    x: array(&i[3]),
                    y: array(&i[4]),
                })
                .collect();
            let got = valid(&answers(e, e.verify_p256(&items)));
            let want = items.iter().map(ecdsa::oracle::p256_verify).collect::<Vec<_>>();
            same("p256_verify", &got, &want);
        }
        11 => {
            let fields = cached(&CELLS, seed, cell_fields);
            let items = Fields {
                items: fields,
                fixed: &[true; 4],
            }
            .edited(&mut u, CELL_ITEMS)
            .items;
            let items: Vec<kzg::CellItem> = items
                .iter()
                .map(|i| kzg::CellItem {
                    commitment: array(&i[0]),
                    index: u64::from_le_bytes(array(&i[1])),
                    cell: Box::new(array(&i[2])),
                    proof: array(&i[3]),
                })
                .collect();
            let got = answers(e, e.verify_kzg_cells(&items));
            let want = items.iter().map(kzg::oracle::verify_cell).collect::<Vec<_>>();
            same("kzg_cell_verify", &got, &want);
        }
        12 => groth16_case(
            e,
            &mut u,
            &GROTH16,
            seed,
            |s| {
                let items = groth16::sample::Trapdoor::new(GROTH16_INPUTS, s).items(0..GROTH16_ITEMS, hostile(s));
                proof_fields(items, groth16::G1_LEN, groth16::G2_LEN)
            },
            groth16_key(seed),
            Engine::verify_groth16,
            groth16::oracle::verify,
            "groth16_verify_bn254",
        ),
        13 => groth16_case(
            e,
            &mut u,
            &GROTH16_BLS,
            seed,
            |s| {
                let items = bls12_381::sample::Trapdoor::new(GROTH16_INPUTS, s).items(0..GROTH16_ITEMS, hostile(s));
                proof_fields(items, bls12_381::G1_LEN, bls12_381::G2_LEN)
            },
            groth16_bls_key(seed),
            Engine::verify_groth16_bls12_381,
            bls12_381::oracle::verify,
            "groth16_verify_bls12_381",
        ),
        14 => der_case(e, &mut u, seed),
        15 => solana_case(e, &mut u, seed),
        _ => {
            let mode = if op == 9 { bls::Mode::Single } else { bls::Mode::Batch };
            let fields = cached(&BLS, seed, |s| {
                signed_fields(bls::sample::generate(BLS_BATCH_ITEMS, 2, hostile(s), s))
            });
            let items = Fields {
                items: fields,
                fixed: KEY_SIG_MSG,
            }
            .edited(&mut u, if op == 9 { BLS_ITEMS } else { BLS_BATCH_ITEMS })
            .items;
            let got = valid(&answers(e, e.verify_bls(&signed::<48, 96>(&items), mode)));
            let want = items
                .iter()
                .map(|i| bls::oracle::verify(&array(&i[0]), &array(&i[1]), &i[2]))
                .collect::<Vec<_>>();
            same(&format!("bls {mode:?}"), &got, &want);
        }
    }
}

/// ECDSA signatures in DER (`ecdsa::der`): secp256k1 with or without
/// low s, or P-256 (the input's next choice), seed `seed`'s items with
/// their signatures in DER (a share spoiled at hostile seeds) edited by
/// the input, the DER at any length; each verdict against libsecp256k1's
/// or `p256`'s DER path.
fn der_case(e: &Engine, u: &mut Unstructured, seed: usize) {
    let Ok(which) = u.choose_index(3) else {
        return;
    };
    let generate: fn(u64) -> Vec<Vec<Vec<u8>>> = if which < 2 {
        |s| {
            let items = ecdsa::sample::secp256k1_verify(ITEMS, 4, hostile(s), s);
            let sigs: Vec<[u8; 64]> = items.iter().map(|(i, _)| i.sig).collect();
            let der = ecdsa::sample::der(&sigs, hostile(s), s);
            items
                .iter()
                .zip(der)
                .map(|((i, _), (d, _))| vec![i.hash.to_vec(), d, i.pk.as_bytes().to_vec()])
                .collect()
        }
    } else {
        |s| {
            let items = ecdsa::sample::p256_verify(ITEMS, 4, hostile(s), s);
            let sigs: Vec<[u8; 64]> = items.iter().map(|(i, _)| array(&[i.r, i.s].concat())).collect();
            let der = ecdsa::sample::der(&sigs, hostile(s), s);
            items
                .iter()
                .zip(der)
                .map(|((i, _), (d, _))| vec![i.hash.to_vec(), d, [i.x, i.y].concat()])
                .collect()
        }
    };
    let items = Fields {
        items: cached(if which < 2 { &SECP256K1_DER } else { &P256_DER }, seed, generate),
        fixed: &[true, false, true],
    }
    .edited(u, ITEMS)
    .items;
    if which < 2 {
        let low_s = which == 1;
        let (read, want): (Vec<_>, Vec<_>) = items
            .iter()
            .filter_map(|i| {
                let (hash, pk) = (array(&i[0]), ecdsa::K1Key::from_slice(&i[2])?);
                let want = ecdsa::oracle::secp256k1_verify_der(&hash, &i[1], &pk, low_s);
                Some((ecdsa::K1VerifyItem::from_der(hash, &i[1], pk), want))
            })
            .unzip();
        let got = valid(&answers(e, e.verify_secp256k1_read(&read, low_s)));
        same("secp256k1_verify (DER)", &got, &want);
    } else {
        let (read, want): (Vec<_>, Vec<_>) = items
            .iter()
            .map(|i| {
                let (hash, x, y) = (array(&i[0]), array(&i[2][..32]), array(&i[2][32..]));
                let want = ecdsa::oracle::p256_verify_der(&hash, &i[1], &x, &y);
                (ecdsa::P256Item::from_der(hash, &i[1], x, y), want)
            })
            .unzip();
        let got = valid(&answers(e, e.verify_p256_read(&read)));
        same("p256_verify (DER)", &got, &want);
    }
}

/// Solana transactions under either policy (the input's next choice):
/// seed `seed`'s generated transactions (every version and shape, a
/// share hostile at hostile seeds) edited by the input as bytes (bits
/// flipped, bytes cut, added, another transaction's bytes), each
/// verdict, reason and all, against the oracle's.
fn solana_case(e: &Engine, u: &mut Unstructured, seed: usize) {
    let Ok(which) = u.choose_index(2) else {
        return;
    };
    let policy = ed25519::Policy::ALL[which];
    let items = Fields {
        items: cached(&SOLANA, seed, |s| {
            solana_tx::sample::transactions(ITEMS, 4, s, hostile(s), true)
                .into_iter()
                .map(|(tx, _)| vec![tx])
                .collect()
        }),
        fixed: &[false],
    }
    .edited(u, ITEMS)
    .items;
    let mut txs = batchcrypto::FlatBytes::new();
    for i in &items {
        assert!(txs.push(&i[0]));
    }
    let got = answers(e, e.verify_solana_txs(&txs, policy));
    let want: Vec<_> = items.iter().map(|i| solana_tx::oracle::verify(&i[0], policy)).collect();
    same(&format!("solana_tx_verify {policy:?}"), &got, &want);
}

/// A Groth16 input on either curve: seed `seed`'s trapdoor items (`generate`)
/// edited by the input, the points at their widths and the public inputs
/// in bytes and number (`wrong_input_length`), each verdict against
/// `oracle`'s under the seed's key.
#[allow(clippy::too_many_arguments)]
fn groth16_case<K>(
    e: &Engine,
    u: &mut Unstructured,
    cache: &Cache,
    seed: usize,
    generate: fn(u64) -> Vec<Vec<Vec<u8>>>,
    vk: &K,
    run: Run<K>,
    oracle: fn(&K, &[u8]) -> bool,
    name: &str,
) {
    let items = Fields {
        items: cached(cache, seed, generate),
        fixed: &[true, true, true, false],
    }
    .edited(u, GROTH16_ITEMS)
    .items;
    let mut batch = batchcrypto::FlatBytes::new();
    for i in &items {
        assert!(batch.push(&i.concat()), "a short batch");
    }
    let got = valid(&answers(e, run(e, vk, &batch)));
    let want = items.iter().map(|i| oracle(vk, &i.concat())).collect::<Vec<_>>();
    same(name, &got, &want);
}

/// Generated Groth16 items as fields: A, B, C (`g1` and `g2` bytes each)
/// and the public inputs.
fn proof_fields(items: Vec<groth16::sample::Item>, g1: usize, g2: usize) -> Vec<Vec<Vec<u8>>> {
    items
        .into_iter()
        .map(|i| {
            let (a, rest) = i.bytes.split_at(g1);
            let (b, rest) = rest.split_at(g2);
            let (c, inputs) = rest.split_at(g1);
            vec![a.to_vec(), b.to_vec(), c.to_vec(), inputs.to_vec()]
        })
        .collect()
}

/// The engine's verification of a batch under a key of type `K`.
type Run<K> = fn(
    &Engine,
    &K,
    &batchcrypto::FlatBytes,
) -> Result<batchcrypto::Outcome<Vec<batchcrypto::Verdict>>, batchcrypto::Error>;

type Cache = OnceLock<Vec<Vec<Vec<Vec<u8>>>>>;
static ED25519: Cache = OnceLock::new();
static BIP340: Cache = OnceLock::new();
static SR25519: Cache = OnceLock::new();
static SECP256K1: Cache = OnceLock::new();
static ECRECOVER: Cache = OnceLock::new();
static P256: Cache = OnceLock::new();
static BLS: Cache = OnceLock::new();
static CELLS: Cache = OnceLock::new();
static GROTH16: Cache = OnceLock::new();
static GROTH16_BLS: Cache = OnceLock::new();
static SECP256K1_DER: Cache = OnceLock::new();
static P256_DER: Cache = OnceLock::new();
static SOLANA: Cache = OnceLock::new();

/// Seed `seed`'s Groth16 key over BLS12-381 (made once per process).
fn groth16_bls_key(seed: usize) -> &'static bls12_381::VerifyingKey {
    static KEYS: OnceLock<Vec<bls12_381::VerifyingKey>> = OnceLock::new();
    &KEYS.get_or_init(|| {
        (0..SEEDS as u64)
            .map(|s| {
                let bytes = bls12_381::sample::Trapdoor::new(GROTH16_INPUTS, s).key();
                bls12_381::VerifyingKey::from_bytes(&bytes).unwrap_or_else(|e| panic!("the sample's key: {e}"))
            })
            .collect()
    })[seed]
}

/// Seed `seed`'s Groth16 key (made once per process).
fn groth16_key(seed: usize) -> &'static groth16::VerifyingKey {
    static KEYS: OnceLock<Vec<groth16::VerifyingKey>> = OnceLock::new();
    &KEYS.get_or_init(|| {
        (0..SEEDS as u64)
            .map(|s| {
                let bytes = groth16::sample::Trapdoor::new(GROTH16_INPUTS, s).key();
                groth16::VerifyingKey::from_bytes(&bytes).unwrap_or_else(|e| panic!("the sample's key: {e}"))
            })
            .collect()
    })[seed]
}

/// Seed `s`'s cells as fields (commitment, index as 8 bytes little-endian,
/// cell, proof): every eighth cell of a blob (indices 0, 8, ... 120, so
/// that a batch spans cosets), a third hostile for seeds 0 and 1, the zero
/// blob's (commitment and proofs at infinity) for seed 2.
fn cell_fields(s: u64) -> Vec<Vec<Vec<u8>>> {
    let per_blob = kzg::CELLS_PER_EXT_BLOB as usize;
    let blob = if s == 2 { 1 } else { 0 };
    kzg::sample::generate_range(blob * per_blob..(blob + 1) * per_blob, hostile(s), s)
        .into_iter()
        .step_by(per_blob / CELL_ITEMS)
        .map(|(i, _)| {
            vec![
                i.commitment.to_vec(),
                i.index.to_le_bytes().to_vec(),
                i.cell.to_vec(),
                i.proof.to_vec(),
            ]
        })
        .collect()
}

/// Seed `seed`'s generated items as fields (every seed generated once per
/// process).
fn cached(cache: &Cache, seed: usize, generate: fn(u64) -> Vec<Vec<Vec<u8>>>) -> Vec<Vec<Vec<u8>>> {
    cache.get_or_init(|| (0..SEEDS as u64).map(generate).collect())[seed].clone()
}

fn signed_fields<const PK: usize, const SIG: usize>(items: Vec<SignedItem<PK, SIG>>) -> Vec<Vec<Vec<u8>>> {
    items
        .into_iter()
        .map(|i| vec![i.pk.to_vec(), i.sig.to_vec(), i.msg])
        .collect()
}

fn signed<const PK: usize, const SIG: usize>(items: &[Vec<Vec<u8>>]) -> SignedBatch<PK, SIG> {
    let mut batch = SignedBatch::new();
    for i in items {
        batch
            .push(&array(&i[0]), &array(&i[1]), &i[2])
            .unwrap_or_else(|e| panic!("a short batch: {e}"));
    }
    batch
}

fn valid(verdicts: &[batchcrypto::Verdict]) -> Vec<bool> {
    verdicts.iter().map(batchcrypto::Verdict::is_valid).collect()
}
