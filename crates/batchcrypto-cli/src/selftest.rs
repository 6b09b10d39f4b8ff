//! `batchcrypto selftest`: per backend and per GPU adapter, a few hundred
//! mixed (valid and hostile) Ed25519 items under every policy, a few hundred
//! messages of random length under every hash, a Merkle root under every
//! rule and hostile secp256k1, ecrecover and P-256 items, compared with the
//! oracles item by item. Drivers have bugs: this says, per adapter,
//! whether this machine's GPU gives the oracle's answers. Exit status 0 when
//! every target passes, 3 when one fails or none is usable.

use crate::output::outln;
use std::process::ExitCode;
use std::time::Instant;

use batchcrypto::ops::ecdsa;
use batchcrypto::ops::ed25519::{Policy, oracle, sample};
use batchcrypto::ops::hash::{self, Alg, Digest};
use batchcrypto::ops::merkle::{self, Rule};
use batchcrypto::{Backend, BackendChoice, Engine, FlatBytes, Selection};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::{EXIT_USAGE, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// What to test: auto (the CPU and every usable adapter), cpu, or gpu (every usable adapter).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
    /// Items per operation and policy, 1 to 1,000,000.
    #[arg(long, default_value_t = 400, value_parser = crate::limits::in_range::<1, 1_000_000>)]
    count: usize,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let mut targets: Vec<(String, Engine, Backend)> = Vec::new();
    if args.backend != BackendChoice::Gpu {
        targets.push((
            "cpu".to_string(),
            crate::engine(BackendChoice::Cpu, None)?,
            Backend::Cpu,
        ));
    }
    if args.backend != BackendChoice::Cpu {
        let adapters = batchcrypto::gpu::adapters();
        if adapters.is_empty() && args.backend == BackendChoice::Gpu {
            return Err(Fatal(
                "selftest --backend gpu: no GPU adapter (see `batchcrypto devices`)".to_string(),
            ));
        }
        for a in adapters {
            let engine = Engine::builder()
                .backend(BackendChoice::Gpu)
                .adapter(a.name.clone())
                .build()?;
            let name = format!("gpu {}", engine.gpu_adapter().unwrap_or_else(|| a.describe()));
            targets.push((name, engine, Backend::Gpu));
        }
    }
    let items = sample::generate(&sample::Config {
        count: args.count,
        hostile_share: 0.5,
        signers: 16,
        max_msg_len: 300,
        seed: 0x5e1f_7e57,
    });
    let batch = sample::batch(&items);
    let mut rng = StdRng::seed_from_u64(0x5e1f);
    let mut msgs = FlatBytes::new();
    let lens: Vec<usize> = (0..300)
        .chain((0..args.count).map(|_| rng.random_range(0..1000)))
        .collect();
    for n in lens {
        let mut m = vec![0u8; n];
        rng.fill(&mut m[..]);
        // A few hundred short messages: far below the batch limit.
        let _fits = msgs.push(&m);
    }
    let leaves: Vec<Digest> = (0..args.count.max(2) + 1).map(|_| rng.random()).collect();
    let k1_items = ecdsa::sample::secp256k1_verify(args.count, 16, 0.5, 0x5e1f);
    let rec_items = ecdsa::sample::ecrecover(args.count, 16, 0.5, 0x5e1f);
    let p256_items = ecdsa::sample::p256_verify(args.count, 16, 0.5, 0x5e1f);
    let mut failed = 0;
    for (name, engine, wanted) in &targets {
        let start = Instant::now();
        let mut problems = Vec::new();
        let mut ran = |what: &str, selection: &Selection| {
            // Kernels that need SHADER_INT64 (Ed25519, ECDSA) run on the CPU,
            // by design, on a device without it.
            let cpu_by_design = selection.why.contains("SHADER_INT64");
            if selection.backend != *wanted && !cpu_by_design {
                problems.push(format!("{what}: ran on {selection}"));
            }
        };
        let mut wrong_items = Vec::new();
        for policy in Policy::ALL {
            match engine.verify_ed25519(&batch, policy) {
                Err(e) => wrong_items.push(format!("ed25519 {policy}: {e}")),
                Ok(outcome) => {
                    ran(&format!("ed25519 {policy}"), &outcome.selection);
                    let wrong: Vec<usize> = (0..items.len())
                        .filter(|&i| {
                            let it = &items[i];
                            outcome.output[i].is_valid() != oracle::verify(policy, &it.pk, &it.sig, &it.msg)
                        })
                        .collect();
                    if let Some(&first) = wrong.first() {
                        wrong_items.push(format!(
                            "ed25519 {policy}: {} of {} verdicts differ from the oracle (first: item {first}, {:?})",
                            wrong.len(),
                            items.len(),
                            items[first].kind
                        ));
                    }
                }
            }
        }
        for alg in Alg::ALL {
            match engine.hash(alg, &msgs) {
                Err(e) => wrong_items.push(format!("{alg}: {e}")),
                Ok(outcome) => {
                    ran(alg.name(), &outcome.selection);
                    let wrong =
                        (0..msgs.len()).filter(|&i| outcome.output[i] != hash::oracle::digest(alg, msgs.get(i)));
                    if let Some(n) = Some(wrong.count()).filter(|&n| n > 0) {
                        wrong_items.push(format!("{alg}: {n} of {} digests differ from the oracle", msgs.len()));
                    }
                }
            }
        }
        for rule in Rule::ALL {
            match engine.merkle_root(rule, &leaves) {
                Err(e) => wrong_items.push(format!("merkle {rule}: {e}")),
                Ok(outcome) => {
                    ran(&format!("merkle {rule}"), &outcome.selection);
                    if Some(outcome.output) != merkle::oracle::root(rule, &leaves) {
                        wrong_items.push(format!("merkle {rule}: root differs from the reference"));
                    }
                }
            }
        }
        let k1: Vec<_> = k1_items.iter().map(|(i, _)| *i).collect();
        match engine.verify_secp256k1(&k1, false) {
            Err(e) => wrong_items.push(format!("secp256k1: {e}")),
            Ok(outcome) => {
                ran("secp256k1", &outcome.selection);
                let n = k1
                    .iter()
                    .zip(&outcome.output)
                    .filter(|(it, v)| v.is_valid() != ecdsa::oracle::secp256k1_verify(it, false))
                    .count();
                if n > 0 {
                    wrong_items.push(format!(
                        "secp256k1: {n} of {} verdicts differ from the oracle",
                        k1.len()
                    ));
                }
            }
        }
        let rec: Vec<_> = rec_items.iter().map(|(i, _)| *i).collect();
        match engine.ecrecover(&rec, false) {
            Err(e) => wrong_items.push(format!("ecrecover: {e}")),
            Ok(outcome) => {
                ran("ecrecover", &outcome.selection);
                let n = rec
                    .iter()
                    .zip(&outcome.output)
                    .filter(|(it, r)| r.as_ref().ok() != ecdsa::oracle::ecrecover(it, false).as_ref())
                    .count();
                if n > 0 {
                    wrong_items.push(format!(
                        "ecrecover: {n} of {} results differ from the oracle",
                        rec.len()
                    ));
                }
            }
        }
        let p256: Vec<_> = p256_items.iter().map(|(i, _)| *i).collect();
        match engine.verify_p256(&p256) {
            Err(e) => wrong_items.push(format!("p256: {e}")),
            Ok(outcome) => {
                ran("p256", &outcome.selection);
                let n = p256
                    .iter()
                    .zip(&outcome.output)
                    .filter(|(it, v)| v.is_valid() != ecdsa::oracle::p256_verify(it))
                    .count();
                if n > 0 {
                    wrong_items.push(format!("p256: {n} of {} verdicts differ from the oracle", p256.len()));
                }
            }
        }
        problems.extend(wrong_items);
        let secs = start.elapsed().as_secs_f64();
        if problems.is_empty() {
            outln!(
                "PASS {name}: ed25519 {} items x {} policies, {} messages x {} hashes, Merkle roots of {} leaves x {} rules, {} items each of secp256k1, ecrecover and p256 equal to the oracles ({secs:.2} s)",
                items.len(),
                Policy::ALL.len(),
                msgs.len(),
                Alg::ALL.len(),
                leaves.len(),
                Rule::ALL.len(),
                k1.len()
            );
        } else {
            failed += 1;
            outln!("FAIL {name}: {}", problems.join("; "));
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_USAGE)
    })
}
