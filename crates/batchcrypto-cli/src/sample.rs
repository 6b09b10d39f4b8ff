//! `batchcrypto sample <op>`: deterministic sample inputs, valid and hostile,
//! in the verb's own line format (with an extra "kind" field that verbs ignore).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::ops::ed25519::sample;

use crate::Fatal;
use crate::lines::open_output;

#[derive(clap::Subcommand)]
pub enum Sample {
    /// Ed25519 items for `verify ed25519`.
    Ed25519 {
        /// Number of lines.
        #[arg(long, default_value_t = 1000)]
        count: usize,
        /// Share of hostile items (small/mixed-order points, non-canonical
        /// encodings, S >= L, off-curve keys, bit flips), 0 to 1.
        #[arg(long, default_value_t = 0.2)]
        hostile_share: f64,
        /// Distinct honest signers.
        #[arg(long, default_value_t = 256)]
        signers: usize,
        /// Largest message length in bytes.
        #[arg(long, default_value_t = 256)]
        max_msg_len: usize,
        /// Seed; the same arguments give the same file everywhere.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file; `-` writes stdout.
        #[arg(long, default_value = "-")]
        output: PathBuf,
    },
}

pub fn run(s: Sample) -> Result<ExitCode, Fatal> {
    match s {
        Sample::Ed25519 {
            count,
            hostile_share,
            signers,
            max_msg_len,
            seed,
            output,
        } => {
            if !(0.0..=1.0).contains(&hostile_share) {
                return Err(Fatal(format!("--hostile-share must be in [0, 1], got {hostile_share}")));
            }
            let items = sample::generate(&sample::Config {
                count,
                hostile_share,
                signers,
                max_msg_len,
                seed,
            });
            let mut out = open_output(&output)?;
            for item in items {
                writeln!(
                    out,
                    "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"kind\":\"{:?}\"}}",
                    hex::encode(item.pk),
                    hex::encode(item.sig),
                    hex::encode(&item.msg),
                    item.kind
                )?;
            }
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
    }
}
