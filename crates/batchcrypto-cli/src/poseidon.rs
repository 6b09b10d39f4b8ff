//! `batchcrypto poseidon`: circom's Poseidon over BN254's scalar field,
//! one hash per line (README, "poseidon").
//!
//! In `{"inputs":["<32 bytes hex>", ...]}` (the elements big-endian, as
//! circomlibjs and Solana's syscall take them), out `{"hash":"<32>"}` or
//! `{"hash":null,"reason"}`. An element of another length, or a missing or
//! mistyped field, makes the line malformed; the number of elements (1 to
//! 12: `wrong_input_length`) and their range (below r:
//! `non_canonical_element`) are the item's checks.

use std::io::Write;

use batchcrypto::ops::poseidon::{ELEMENT_LEN, HashResult};
use batchcrypto::{Engine, FlatBytes, Selection};

use crate::Fatal;
use crate::lines::{Field, LineJob, LineVerb, VerbArgs, hex_fixed, parse_object, push_item, write_refused};

pub fn job(args: VerbArgs) -> LineJob {
    args.job(Poseidon, "poseidon")
}

#[derive(serde::Deserialize)]
struct PoseidonLine<'a> {
    #[serde(borrow, default)]
    inputs: Option<Vec<Field<'a>>>,
}

struct Poseidon;

impl LineVerb for Poseidon {
    type Batch = FlatBytes;
    type Out = HashResult;
    const OK_LABEL: &'static str = "hashed";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: PoseidonLine = parse_object(line)?;
        let inputs = l
            .inputs
            .ok_or("field \"inputs\": missing (an array of 32-byte hex field elements)")?;
        scratch.clear();
        for (i, f) in inputs.iter().enumerate() {
            scratch.extend_from_slice(&hex_fixed::<ELEMENT_LEN>(&format!("inputs[{i}]"), f)?);
        }
        push_item(batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        // The elements and each item's hash.
        batch.bytes().len() + batch.len() * ELEMENT_LEN
    }

    fn run(&self, engine: &Engine, batch: &FlatBytes) -> Result<(Vec<HashResult>, Selection), Fatal> {
        let outcome = engine.poseidon_bn254(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &HashResult, w: &mut dyn Write) -> std::io::Result<bool> {
        match out {
            Ok(h) => {
                writeln!(w, "{{\"hash\":\"{}\"}}", hex::encode(h))?;
                Ok(true)
            }
            Err(reason) => write_refused("hash", reason, w),
        }
    }
}
