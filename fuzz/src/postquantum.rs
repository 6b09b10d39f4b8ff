//! ML-DSA verification (FIPS 204, the `ml-dsa` crate), ML-KEM key
//! generation, encapsulation and decapsulation (FIPS 203, the `ml-kem`
//! crate) and SLH-DSA verification (FIPS 205, the `slh-dsa` crate, all
//! twelve sets) against the oracles, every field of any length.

use std::sync::OnceLock;

use arbitrary::Unstructured;
use batchcrypto::Engine;
use batchcrypto::ops::{mldsa, mlkem, slhdsa};

use super::{Fields, answers, engine, same};

/// Generated items per seed and parameter set (and the most a batch takes).
const ITEMS: usize = 6;
/// Seeds of generated items.
const SEEDS: usize = 3;
/// Share of hostile items among the generated ones.
const HOSTILE: f64 = 0.3;

/// One fuzz input on the fuzzers' CPU engine.
pub fn run(data: &[u8]) {
    check(engine(), data);
}

/// One fuzz input on `e`: an operation and parameter set, a seed's items,
/// edits.
pub fn check(e: &Engine, data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(op) = u.int_in_range(0..=4u8) else {
        return;
    };
    // SLH-DSA (op 4) has twelve sets, the others three.
    let sets = if op == 4 { slhdsa::Set::ALL.len() } else { 3 };
    let (Ok(set), Ok(seed)) = (u.choose_index(sets), u.choose_index(SEEDS)) else {
        return;
    };
    if op == 4 {
        return slh(e, slhdsa::Set::ALL[set], seed, &mut u);
    }
    let fields = items(usize::from(op), set, seed);
    match op {
        0 => {
            let level = mldsa::Level::ALL[set];
            let items = Fields {
                items: fields,
                fixed: &[false; 4],
            }
            .edited(&mut u, ITEMS)
            .items;
            let mut batch = mldsa::Batch::new();
            let mut want = Vec::new();
            for i in &items {
                // A context over 255 bytes is refused by the batch, not an item.
                if batch.push(&i[0], &i[1], &i[2], &i[3]).is_ok() {
                    want.push(mldsa::oracle::verify(level, &i[0], &i[1], &i[2], &i[3]));
                }
            }
            let got = answers(e, e.verify_mldsa(level, &batch));
            let got: Vec<bool> = got.iter().map(batchcrypto::Verdict::is_valid).collect();
            same(&format!("mldsa {level:?}"), &got, &want);
        }
        1 => {
            let set = mlkem::Set::ALL[set];
            let items: Vec<mlkem::KeygenItem> =
                pairs(fields, &mut u).map(|(d, z)| mlkem::KeygenItem { d, z }).collect();
            let got = answers(e, e.mlkem_keygen(set, &items));
            let want: Vec<_> = items.iter().map(|i| mlkem::oracle::keygen(set, &i.d, &i.z)).collect();
            same(&format!("mlkem_keygen {set:?}"), &oks(got), &want);
        }
        2 => {
            let set = mlkem::Set::ALL[set];
            let items: Vec<mlkem::EncapsItem> = pairs(fields, &mut u)
                .map(|(ek, m)| mlkem::EncapsItem { ek, m: Some(m) })
                .collect();
            let got = answers(e, e.mlkem_encaps(set, &items));
            let want: Vec<_> = items
                .iter()
                .map(|i| mlkem::oracle::encaps(set, &i.ek, i.m.as_deref().unwrap_or_default()))
                .collect();
            same(&format!("mlkem_encaps {set:?}"), &oks(got), &want);
        }
        _ => {
            let set = mlkem::Set::ALL[set];
            let items: Vec<mlkem::DecapsItem> = pairs(fields, &mut u)
                .map(|(dk, ct)| mlkem::DecapsItem { dk, ct })
                .collect();
            let got = answers(e, e.mlkem_decaps(set, &items));
            let want: Vec<_> = items.iter().map(|i| mlkem::oracle::decaps(set, &i.dk, &i.ct)).collect();
            same(&format!("mlkem_decaps {set:?}"), &oks(got), &want);
        }
    }
}

/// SLH-DSA in `set`: a seed's items (made once per process: signing takes
/// up to seconds), edited.
fn slh(e: &Engine, set: slhdsa::Set, seed: usize, u: &mut Unstructured<'_>) {
    type Items = Vec<Vec<Vec<u8>>>;
    static CACHE: [[OnceLock<Items>; SEEDS]; 12] = [const { [const { OnceLock::new() }; SEEDS] }; 12];
    let k = slhdsa::Set::ALL.iter().position(|&s| s == set).unwrap_or(0);
    let fields = CACHE[k][seed]
        .get_or_init(|| {
            slhdsa::sample::generate(set, ITEMS, HOSTILE, seed as u64)
                .into_iter()
                .map(|i| vec![i.pk, i.msg, i.sig, i.ctx])
                .collect()
        })
        .clone();
    let items = Fields {
        items: fields,
        fixed: &[false; 4],
    }
    .edited(u, ITEMS)
    .items;
    let mut batch = slhdsa::Batch::new();
    let mut want = Vec::new();
    for i in &items {
        if batch.push(&i[0], &i[1], &i[2], &i[3]).is_ok() {
            want.push(slhdsa::oracle::verify(set, &i[0], &i[1], &i[2], &i[3]));
        }
    }
    let got = answers(e, e.verify_slhdsa(set, &batch));
    let got: Vec<bool> = got.iter().map(batchcrypto::Verdict::is_valid).collect();
    same(&format!("slhdsa {set:?}"), &got, &want);
}

/// ML-KEM's items (two fields of any length each) after the edits.
fn pairs(fields: Vec<Vec<Vec<u8>>>, u: &mut Unstructured<'_>) -> impl Iterator<Item = (Vec<u8>, Vec<u8>)> {
    let edited = Fields {
        items: fields,
        fixed: &[false; 2],
    }
    .edited(u, ITEMS);
    edited.items.into_iter().map(|mut i| {
        let second = i.pop().unwrap_or_default();
        (i.pop().unwrap_or_default(), second)
    })
}

/// Per operation, parameter set and seed: the generated items as fields,
/// made once per process.
fn items(op: usize, set: usize, seed: usize) -> Vec<Vec<Vec<u8>>> {
    type Items = Vec<Vec<Vec<u8>>>;
    static CACHE: OnceLock<Vec<Vec<Vec<Items>>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        (0..4)
            .map(|op| {
                (0..3)
                    .map(|set| (0..SEEDS).map(|seed| generate(op, set, seed as u64)).collect())
                    .collect()
            })
            .collect()
    });
    all[op][set][seed].clone()
}

fn generate(op: usize, set: usize, seed: u64) -> Vec<Vec<Vec<u8>>> {
    let kem = mlkem::Set::ALL[set];
    match op {
        0 => mldsa::sample::generate(mldsa::Level::ALL[set], ITEMS, 2, HOSTILE, seed)
            .into_iter()
            .map(|i| vec![i.pk, i.msg, i.sig, i.ctx])
            .collect(),
        1 => mlkem::sample::keygen(0..ITEMS, HOSTILE, seed)
            .into_iter()
            .map(|(i, _)| vec![i.d, i.z])
            .collect(),
        2 => mlkem::sample::encaps(kem, &mlkem::sample::key_pool(kem, 2, seed), 0..ITEMS, HOSTILE, seed)
            .into_iter()
            .enumerate()
            // Deterministic encapsulations only: the oracle needs m.
            .map(|(k, (i, _))| vec![i.ek, i.m.unwrap_or_else(|| vec![k as u8; 32])])
            .collect(),
        _ => mlkem::sample::decaps(kem, &mlkem::sample::key_pool(kem, 2, seed), 0..ITEMS, HOSTILE, seed)
            .into_iter()
            .map(|(i, _)| vec![i.dk, i.ct])
            .collect(),
    }
}

fn oks<T, E>(got: Vec<Result<T, E>>) -> Vec<Option<T>> {
    got.into_iter().map(Result::ok).collect()
}
