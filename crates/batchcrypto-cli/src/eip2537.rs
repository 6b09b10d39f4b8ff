//! `batchcrypto eip2537-pairing`: the EIP-2537 pairing-check precompile,
//! one call per line.
//!
//! In `{"input":"<k x 384 bytes hex>"}`; out `{"output":"<32 bytes hex>"}`
//! (…01 when the pairing product is one, …00 otherwise), or
//! `{"output":null,"reason":"<code>"}` when the call fails (the precompile
//! would consume its gas and return nothing): `invalid_length`,
//! `field_top_bytes`, `field_not_below_p`, `not_on_curve`,
//! `g1_not_in_subgroup`, `g2_not_in_subgroup`.

use std::process::ExitCode;

use batchcrypto::ops::bls::eip2537::{self, Eip2537Error};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineVerb, parse_object, push_hex_field, run_lines};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let verb = PairingVerb {
        engine: args.engine.engine()?,
    };
    run_lines(verb, &args.io, "eip2537-pairing")
}

struct PairingVerb {
    engine: Engine,
}

#[derive(serde::Deserialize)]
struct PairingLine<'a> {
    #[serde(borrow, default)]
    input: Field<'a>,
}

impl LineVerb for PairingVerb {
    type Batch = FlatBytes;
    type Out = Result<bool, Eip2537Error>;
    const OK_LABEL: &'static str = "calls that returned";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: PairingLine = parse_object(line)?;
        push_hex_field("input", &item.input, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }

    fn run(&self, batch: &FlatBytes) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = self.engine.eip2537_pairing(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(ok) => {
                writeln!(w, "{{\"output\":\"{}\"}}", hex::encode(eip2537::output(*ok)))?;
                Ok(true)
            }
            Err(e) => {
                writeln!(w, "{{\"output\":null,\"reason\":\"{}\"}}", e.code())?;
                Ok(false)
            }
        }
    }
}
