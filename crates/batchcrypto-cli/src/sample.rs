//! `batchcrypto sample <op>`: deterministic sample inputs, valid and hostile,
//! in the verb's own line format (with an extra "kind" field that verbs ignore).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::ops::{bls, ecdsa, ed25519};

use crate::Fatal;
use crate::lines::open_output;

/// What every sample takes.
#[derive(clap::Args)]
pub struct Common {
    /// Number of lines.
    #[arg(long, default_value_t = 1000)]
    count: usize,
    /// Share of hostile items, 0 to 1.
    #[arg(long, default_value_t = 0.2)]
    hostile_share: f64,
    /// Distinct honest signers.
    #[arg(long, default_value_t = 256)]
    signers: usize,
    /// Seed; the same arguments give the same file everywhere.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output file; `-` writes stdout.
    #[arg(long, default_value = "-")]
    output: PathBuf,
}

#[derive(clap::Subcommand)]
pub enum Sample {
    /// Ed25519 items for `verify ed25519` (hostile: small/mixed-order points,
    /// non-canonical encodings, S >= L, off-curve keys, bit flips).
    Ed25519 {
        #[command(flatten)]
        common: Common,
        /// Largest message length in bytes.
        #[arg(long, default_value_t = 256)]
        max_msg_len: usize,
    },
    /// Items for `verify secp256k1` (hostile: r or s zero or >= n, high s,
    /// wrong hash, bit flips, keys off the curve or badly prefixed).
    Secp256k1(Common),
    /// Items for `ecrecover` (hostile: every bad v, r or s zero or >= n,
    /// random r, high s, wrong hash, bit flips).
    Ecrecover(Common),
    /// Items for `verify p256` (hostile: r or s zero or >= n, keys off the
    /// curve or at infinity, high s, wrong hash, bit flips).
    P256(Common),
    /// Items for `verify bls` (hostile: wrong message or key, bit flips,
    /// identity key, infinity signature, points outside the subgroup).
    Bls(Common),
}

/// Makes the lines of a sample from its common arguments.
type LineMaker<'a> = Box<dyn Fn(&Common) -> Vec<String> + 'a>;

pub fn run(s: Sample) -> Result<ExitCode, Fatal> {
    let (common, lines): (&Common, LineMaker<'_>) = match &s {
        Sample::Ed25519 { common, max_msg_len } => {
            let max_msg_len = *max_msg_len;
            (
                common,
                Box::new(move |c| {
                    ed25519::sample::generate(&ed25519::sample::Config {
                        count: c.count,
                        hostile_share: c.hostile_share,
                        signers: c.signers,
                        max_msg_len,
                        seed: c.seed,
                    })
                    .iter()
                    .map(|i| {
                        format!(
                            "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"kind\":\"{:?}\"}}",
                            hex::encode(i.pk),
                            hex::encode(i.sig),
                            hex::encode(&i.msg),
                            i.kind
                        )
                    })
                    .collect()
                }),
            )
        }
        Sample::Secp256k1(common) => (
            common,
            Box::new(|c| {
                ecdsa::sample::secp256k1_verify(c.count, c.signers, c.hostile_share, c.seed)
                    .iter()
                    .map(|(i, kind)| {
                        format!(
                            "{{\"hash\":\"{}\",\"sig\":\"{}\",\"pk\":\"{}\",\"kind\":\"{kind}\"}}",
                            hex::encode(i.hash),
                            hex::encode(i.sig),
                            hex::encode(i.pk.as_bytes())
                        )
                    })
                    .collect()
            }),
        ),
        Sample::Ecrecover(common) => (
            common,
            Box::new(|c| {
                ecdsa::sample::ecrecover(c.count, c.signers, c.hostile_share, c.seed)
                    .iter()
                    .map(|(i, kind)| {
                        format!(
                            "{{\"hash\":\"{}\",\"sig\":\"{}\",\"kind\":\"{kind}\"}}",
                            hex::encode(i.hash),
                            hex::encode(i.sig)
                        )
                    })
                    .collect()
            }),
        ),
        Sample::P256(common) => (
            common,
            Box::new(|c| {
                ecdsa::sample::p256_verify(c.count, c.signers, c.hostile_share, c.seed)
                    .iter()
                    .map(|(i, kind)| {
                        format!(
                            "{{\"hash\":\"{}\",\"r\":\"{}\",\"s\":\"{}\",\"x\":\"{}\",\"y\":\"{}\",\"kind\":\"{kind}\"}}",
                            hex::encode(i.hash),
                            hex::encode(i.r),
                            hex::encode(i.s),
                            hex::encode(i.x),
                            hex::encode(i.y)
                        )
                    })
                    .collect()
            }),
        ),
        Sample::Bls(common) => (
            common,
            Box::new(|c| {
                bls::sample::generate(c.count, c.signers, c.hostile_share, c.seed)
                    .iter()
                    .map(|i| {
                        format!(
                            "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"kind\":\"{}\"}}",
                            hex::encode(i.pk),
                            hex::encode(i.sig),
                            hex::encode(&i.msg),
                            i.kind
                        )
                    })
                    .collect()
            }),
        ),
    };
    if !(0.0..=1.0).contains(&common.hostile_share) {
        return Err(Fatal(format!(
            "--hostile-share must be in [0, 1], got {}",
            common.hostile_share
        )));
    }
    let mut out = open_output(&common.output)?;
    for line in lines(common) {
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
