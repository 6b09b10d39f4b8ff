//! `batchcrypto verify <scheme>`: one verdict line per input line.

use std::borrow::Cow;
use std::process::ExitCode;

use batchcrypto::ops::ed25519::{self, Policy};
use batchcrypto::{Engine, Selection, Verdict};

use crate::Fatal;
use crate::lines::{Io, LineVerb, hex_fixed, hex_into, parse_object, run_lines, write_verdict};

#[derive(clap::Subcommand)]
pub enum Verify {
    /// Ed25519: in {"pk","sig","msg"} (hex), out {"valid":bool[,"reason"]}.
    Ed25519 {
        /// strict = ed25519-dalek verify_strict; zip215 = ed25519-zebra (ZIP-215).
        #[arg(long, default_value = "strict")]
        policy: Policy,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
}

pub fn run(verify: Verify) -> Result<ExitCode, Fatal> {
    match verify {
        Verify::Ed25519 { policy, engine, io } => {
            let verb = Ed25519Verb {
                engine: engine.engine()?,
                policy,
            };
            run_lines(&verb, &io, &format!("verify ed25519 --policy {policy}"))
        }
    }
}

struct Ed25519Verb {
    engine: Engine,
    policy: Policy,
}

#[derive(serde::Deserialize)]
struct Ed25519Line<'a> {
    #[serde(borrow)]
    pk: Option<Cow<'a, str>>,
    #[serde(borrow)]
    sig: Option<Cow<'a, str>>,
    #[serde(borrow)]
    msg: Option<Cow<'a, str>>,
}

impl LineVerb for Ed25519Verb {
    type Batch = ed25519::Batch;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut ed25519::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: Ed25519Line = parse_object(line)?;
        let pk = hex_fixed::<{ ed25519::PK_LEN }>("pk", item.pk.as_ref())?;
        let sig = hex_fixed::<{ ed25519::SIG_LEN }>("sig", item.sig.as_ref())?;
        hex_into("msg", item.msg.as_ref(), scratch)?;
        batch.push(&pk, &sig, scratch).map_err(|e| e.to_string())
    }

    fn batch_bytes(batch: &ed25519::Batch) -> usize {
        batch.msgs().bytes().len()
    }

    fn run(&self, batch: &ed25519::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = self.engine.verify_ed25519(batch, self.policy)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}
