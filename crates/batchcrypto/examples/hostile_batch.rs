//! Can invalid items make batch verification slower than verifying item by
//! item? Times BLS `verify_bls(.., Mode::Batch)` against `Mode::Single`, and
//! Ed25519 ZIP-215 (batched with bisection) against the ZIP-215 oracle run
//! item by item on all cores with every key decoded beforehand (and, for an
//! invalid item, R decoded for its reason, as the engine does), on batches
//! whose invalid items (a flipped message bit: every other check passes, so
//! only the equation fails) are spread evenly or clustered in one block, at
//! shares 0, 1, 10, 50 and 100%. Both sides get the same items in the same
//! process, alternating, median of `RUNS` runs after a warm-up; the verdicts
//! of the two sides are compared item by item.
//!
//! ```sh
//! cargo run --release --example hostile_batch -p batchcrypto [-- BLS_N ED25519_N RUNS]
//! ```

use std::collections::HashMap;
use std::time::Instant;

use batchcrypto::ops::bls;
use batchcrypto::ops::ed25519::{self, Policy};
use batchcrypto::{BackendChoice, Engine, Reason, Verdict};
use curve25519_dalek::edwards::CompressedEdwardsY;
use rayon::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse()).collect::<Result<_, _>>()?;
    let bls_n = args.first().copied().unwrap_or(2000);
    let ed_n = args.get(1).copied().unwrap_or(16384);
    let runs = args.get(2).copied().unwrap_or(5);
    let engine = Engine::builder().backend(BackendChoice::Cpu).build()?;
    println!(
        "cores: {}, runs: {runs} (median after one warm-up run)\n",
        engine.cpu_threads()
    );
    println!("| op | N | invalid | placement | item by item (s) | batched (s) | batched / item by item |");
    println!("|---|---|---|---|---|---|---|");

    let bls_items = bls::sample::generate(bls_n, 256, 0.0, 11);
    for (share, placement, bad) in placements(bls_n) {
        let mut items = bls_items.clone();
        for &i in &bad {
            items[i].msg[0] ^= 1;
        }
        let batch = bls::sample::batch(&items);
        let single = || engine.verify_bls(&batch, bls::Mode::Single).map(|o| o.output);
        let batched = || engine.verify_bls(&batch, bls::Mode::Batch).map(|o| o.output);
        let (t1, t2) = side_by_side(runs, single, batched, bad.len())?;
        println!(
            "| bls_batch_verify | {bls_n} | {share} | {placement} | {t1:.4} | {t2:.4} | {:.3} |",
            t2 / t1
        );
    }

    let ed_items = ed25519::sample::generate(&ed25519::sample::Config {
        count: ed_n,
        hostile_share: 0.0,
        signers: 256,
        max_msg_len: 64,
        seed: 11,
    });
    for (share, placement, bad) in placements(ed_n) {
        let mut items = ed_items.clone();
        for &i in &bad {
            items[i].msg.push(0);
        }
        let batch = ed25519::sample::batch(&items);
        let keys: HashMap<[u8; 32], ed25519_zebra::VerificationKey> = items
            .iter()
            .filter_map(|i| Some((i.pk, ed25519_zebra::VerificationKey::try_from(i.pk).ok()?)))
            .collect();
        let single = || {
            Ok::<_, batchcrypto::Error>(
                items
                    .par_iter()
                    .map(|i| {
                        let sig = ed25519_zebra::Signature::from_bytes(&i.sig);
                        if keys.get(&i.pk).is_some_and(|k| k.verify(&sig, &i.msg).is_ok()) {
                            return Verdict::Valid;
                        }
                        // The reason costs what the engine pays for it: R decoded.
                        let r = CompressedEdwardsY(i.sig[..32].try_into().unwrap_or_default());
                        Verdict::Invalid(match r.decompress() {
                            Some(_) => Reason::Equation,
                            None => Reason::MalformedR,
                        })
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let batched = || engine.verify_ed25519(&batch, Policy::Zip215).map(|o| o.output);
        let (t1, t2) = side_by_side(runs, single, batched, bad.len())?;
        println!(
            "| ed25519_verify_zip215 | {ed_n} | {share} | {placement} | {t1:.4} | {t2:.4} | {:.3} |",
            t2 / t1
        );
    }
    Ok(())
}

/// (share, placement, indices of the invalid items) for every case measured.
fn placements(n: usize) -> Vec<(String, &'static str, Vec<usize>)> {
    let mut out = vec![("0%".to_string(), "-", Vec::new())];
    for pct in [1, 10, 50, 100] {
        let k = n * pct / 100;
        out.push((format!("{pct}%"), "spread", (0..k).map(|j| j * n / k).collect()));
        if pct < 100 {
            out.push((
                format!("{pct}%"),
                "clustered",
                (n / 2 - k / 2..n / 2 - k / 2 + k).collect(),
            ));
        }
    }
    out
}

/// Median seconds of `a` and `b`, run alternately; their verdicts must
/// agree on validity, with `bad` invalid items.
fn side_by_side(
    runs: usize,
    a: impl Fn() -> Result<Vec<Verdict>, batchcrypto::Error>,
    b: impl Fn() -> Result<Vec<Verdict>, batchcrypto::Error>,
    bad: usize,
) -> Result<(f64, f64), batchcrypto::Error> {
    let (va, vb) = (a()?, b()?);
    assert_eq!(va.len(), vb.len());
    for (i, (x, y)) in va.iter().zip(&vb).enumerate() {
        assert_eq!(x.is_valid(), y.is_valid(), "item {i}");
    }
    assert_eq!(va.iter().filter(|v| !v.is_valid()).count(), bad);
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(a()?);
        ta.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        std::hint::black_box(b()?);
        tb.push(t.elapsed().as_secs_f64());
    }
    Ok((median(ta), median(tb)))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
