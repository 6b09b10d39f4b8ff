//! `batchcrypto selftest`: a few hundred mixed (valid and hostile) items per
//! backend and per GPU adapter, verified under every policy and compared with
//! the oracle, item by item. Drivers have bugs: this says, per adapter,
//! whether this machine's GPU gives the oracle's answers. Exit status 0 when
//! every target passes, 3 when one fails or none is usable.

use std::process::ExitCode;
use std::time::Instant;

use batchcrypto::ops::ed25519::{Policy, oracle, sample};
use batchcrypto::{Backend, BackendChoice, Engine};

use crate::{EXIT_USAGE, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// What to test: auto (the CPU and every usable adapter), cpu, or gpu (every usable adapter).
    #[arg(long, default_value = "auto")]
    backend: BackendChoice,
    /// Items per policy.
    #[arg(long, default_value_t = 400)]
    count: usize,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let mut targets: Vec<(String, Engine)> = Vec::new();
    if args.backend != BackendChoice::Gpu {
        targets.push(("cpu".to_string(), crate::engine(BackendChoice::Cpu, None)?));
    }
    if args.backend != BackendChoice::Cpu {
        let adapters: Vec<_> = batchcrypto::gpu::adapters().into_iter().filter(|a| a.int64).collect();
        if adapters.is_empty() && args.backend == BackendChoice::Gpu {
            return Err(Fatal(
                "selftest --backend gpu: no usable GPU adapter (see `batchcrypto devices`)".to_string(),
            ));
        }
        for a in adapters {
            let engine = Engine::builder()
                .backend(BackendChoice::Gpu)
                .adapter(a.name.clone())
                .build()?;
            targets.push((format!("gpu {}", a.describe()), engine));
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
    let mut failed = 0;
    for (name, engine) in &targets {
        let start = Instant::now();
        let mut problems = Vec::new();
        for policy in Policy::ALL {
            match engine.verify_ed25519(&batch, policy) {
                Err(e) => problems.push(format!("{policy}: {e}")),
                Ok(outcome) => {
                    let wanted = if name == "cpu" { Backend::Cpu } else { Backend::Gpu };
                    if outcome.selection.backend != wanted {
                        problems.push(format!("{policy}: ran on {}", outcome.selection));
                    }
                    let wrong: Vec<usize> = (0..items.len())
                        .filter(|&i| {
                            let it = &items[i];
                            outcome.output[i].is_valid() != oracle::verify(policy, &it.pk, &it.sig, &it.msg)
                        })
                        .collect();
                    if let Some(&first) = wrong.first() {
                        problems.push(format!(
                            "{policy}: {} of {} verdicts differ from the oracle (first: item {first}, {:?})",
                            wrong.len(),
                            items.len(),
                            items[first].kind
                        ));
                    }
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        if problems.is_empty() {
            println!(
                "PASS {name}: ed25519 {} items x {} policies equal to the oracle ({secs:.2} s)",
                items.len(),
                Policy::ALL.len()
            );
        } else {
            failed += 1;
            println!("FAIL {name}: {}", problems.join("; "));
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_USAGE)
    })
}
