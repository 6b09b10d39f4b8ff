//! `batchcrypto evm <precompile>` (`bn256-add`, `bn256-mul`,
//! `bn256-pairing`, `bls-g1msm`, `bls-g2msm`, `bls-g1add`, `bls-g2add`,
//! `bls-map-g1`, `bls-map-g2`, `point-evaluation`, `modexp`, `ecrecover`,
//! `sha256`, `ripemd160`, `identity`, `p256verify`) and `batchcrypto
//! eip2537-pairing`: EVM precompiles, one call per line.
//!
//! In `{"input":"<precompile input hex>"}`; out `{"output":"<hex>"}` with
//! the bytes the precompile returns (a pairing check: a 32-byte word, …01
//! when the product is one, …00 otherwise), or `{"output":null,"reason":
//! "<code>"}` when the call fails (the precompile consumes its gas and
//! returns nothing): `invalid_length`, `field_top_bytes`,
//! `field_not_below_p`, `not_on_curve`, `g1_not_in_subgroup`,
//! `g2_not_in_subgroup`, and for the point evaluation
//! `versioned_hash_mismatch`, `scalar_not_below_r`, `bad_point_encoding`,
//! `proof_rejected`, and for MODEXP `operand_too_long` (EIP-7823: a
//! length above 1,024 bytes). MODEXP's output is `mod_len` bytes, empty
//! when that is 0; ECRECOVER and P256VERIFY never fail: a signature that
//! does not recover or verify gives an empty output, as the EVM's.

use batchcrypto::ops::evm::{self, CallResult, Precompile};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, parse_object, push_hex_field};

/// `evm <precompile>`.
#[derive(clap::Args)]
pub struct Args {
    /// bn256-add, bn256-mul, bn256-pairing, bls-g1msm, bls-g2msm, bls-g1add,
    /// bls-g2add, bls-map-g1, bls-map-g2, point-evaluation, modexp,
    /// ecrecover, sha256, ripemd160, identity or p256verify, or its address
    /// in hex (0x05).
    precompile: Precompile,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

/// `eip2537-pairing`.
#[derive(clap::Args)]
pub struct PairingArgs {
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

pub fn job(args: Args) -> LineJob {
    let title = format!("evm {}", args.precompile);
    let verb = PrecompileVerb {
        target: Some(args.precompile),
    };
    LineJob::new(verb, title, args.engine, args.io)
}

pub fn eip2537_pairing_job(args: PairingArgs) -> LineJob {
    LineJob::new(PrecompileVerb { target: None }, "eip2537-pairing", args.engine, args.io)
}

struct PrecompileVerb {
    /// `None`: the EIP-2537 pairing check.
    target: Option<Precompile>,
}

#[derive(serde::Deserialize)]
struct CallLine<'a> {
    #[serde(borrow, default)]
    input: Field<'a>,
}

impl LineVerb for PrecompileVerb {
    type Batch = FlatBytes;
    type Out = CallResult;
    const OK_LABEL: &'static str = "calls that returned";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: CallLine = parse_object(line)?;
        push_hex_field("input", &item.input, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        Ok(match self.target {
            Some(precompile) => {
                let outcome = engine.evm(precompile, batch)?;
                (outcome.output, outcome.selection)
            }
            None => {
                let outcome = engine.eip2537_pairing(batch)?;
                let output = outcome
                    .output
                    .into_iter()
                    .map(|r| r.map(|ok| evm::bool_word(ok).to_vec()))
                    .collect();
                (output, outcome.selection)
            }
        })
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(bytes) => {
                writeln!(w, "{{\"output\":\"{}\"}}", hex::encode(bytes))?;
                Ok(true)
            }
            Err(e) => {
                writeln!(w, "{{\"output\":null,\"reason\":\"{}\"}}", e.code())?;
                Ok(false)
            }
        }
    }
}
