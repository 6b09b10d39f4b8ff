//! `batchcrypto ntt`: number-theoretic transforms of polynomials in a
//! binary file (raw mode, no JSON): the input is polynomials of 2^log_n
//! elements back to back, each element the field's canonical
//! little-endian encoding (32 bytes for `bn254-fr` and `bls12-381-fr`, 8
//! for `goldilocks`, `goldilocks-negacyclic` and `prime64-negacyclic`, the
//! latter two the FHE ring modulo X^n + 1 as `tfhe-ntt` transforms it, over
//! Goldilocks or over the prime `--modulus` names); the output is their
//! transforms in the same layout and order. A polynomial with an element not below the modulus is named
//! on stderr (`non_canonical_element`) and its output bytes are zeros;
//! a trailing partial polynomial is reported and not transformed; both
//! give exit status 2. See the library's `ops::ntt` for the definition.

use std::io::Write;
use std::process::ExitCode;

use batchcrypto::ops::ntt::{Direction, Field, MAX_LOG_N, Order, Transform};
use batchcrypto::{Engine, Selection};

use crate::Fatal;
use crate::lines::Io;
use crate::output::write_failed;
use crate::raw::Refused;

#[derive(clap::Args)]
pub struct Args {
    /// bn254-fr, bls12-381-fr, goldilocks, goldilocks-negacyclic or
    /// prime64-negacyclic (the negacyclic ones: log-n from 4, no coset).
    #[arg(long)]
    field: Field,
    /// prime64-negacyclic's prime p (decimal, or hex after 0x): p < 2^64,
    /// p = 1 mod 2^(log-n + 1).
    #[arg(long, value_parser = parse_modulus)]
    modulus: Option<u64>,
    /// log2 of the polynomials' size, 1 to 24.
    #[arg(long, value_parser = crate::limits::in_range::<1, { MAX_LOG_N as usize }>)]
    log_n: usize,
    /// The inverse transform (evaluations to coefficients).
    #[arg(long)]
    inverse: bool,
    /// Order of the input's elements: natural or bit-reversed.
    #[arg(long, default_value = "natural", value_parser = str::parse::<Order>)]
    input_order: Order,
    /// Order of the output's elements: natural or bit-reversed.
    #[arg(long, default_value = "natural", value_parser = str::parse::<Order>)]
    output_order: Order,
    /// Transform on the coset g<w>: g as the hex of its canonical
    /// little-endian encoding (nonzero).
    #[arg(long, value_name = "HEX")]
    coset: Option<String>,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

/// A 64-bit integer in decimal, or in hex after `0x`.
fn parse_modulus(s: &str) -> Result<u64, String> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    }
    .map_err(|e| format!("{s:?}: {e} (a prime below 2^64, decimal or 0x hex)"))
}

/// The transform the options ask for; refused (with why) before any input
/// is read when the field cannot do it.
fn transform(args: &Args) -> Result<Transform, String> {
    let coset = match &args.coset {
        None => None,
        Some(h) => Some(hex::decode(h.strip_prefix("0x").unwrap_or(h)).map_err(|e| format!("--coset: {e}"))?),
    };
    let t = Transform {
        direction: if args.inverse {
            Direction::Inverse
        } else {
            Direction::Forward
        },
        input_order: args.input_order,
        output_order: args.output_order,
        coset,
        modulus: args.modulus,
        // `log_n` is within 1..=24.
        ..Transform::new(args.field, args.log_n as u32)
    };
    t.polys_in(0).map_err(|e| format!("ntt: {e}"))?;
    Ok(t)
}

/// Transforms the polynomials `bytes` (whole ones) and writes each result
/// to `output` (zeros for a refused one); returns what ran them and the
/// refused polynomials.
fn transform_into(
    engine: &Engine,
    t: &Transform,
    bytes: &[u8],
    output: &mut dyn Write,
) -> Result<(Selection, Vec<Refused>), Fatal> {
    let outcome = engine.ntt(t, bytes)?;
    let mut refused = Vec::new();
    for (i, r) in outcome.output.iter().enumerate() {
        match r {
            Ok(poly) => output.write_all(poly),
            Err(reason) => {
                refused.push((i, reason.code().to_string()));
                output.write_all(&vec![0u8; t.poly_bytes()])
            }
        }
        .map_err(write_failed)?;
    }
    Ok((outcome.selection, refused))
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    // A transform the field cannot do is refused before any input is read.
    let t = transform(&args).map_err(Fatal)?;
    let engine = args.engine.engine()?;
    let label = title(&t);
    let size = t.poly_bytes();
    crate::raw::run_raw(&label, size, size, &args.io, |chunk, output| {
        transform_into(&engine, &t, chunk.bytes(), output)
    })
}

/// The verb with its field, prime and size, as messages name it (the
/// service's lane title adds the options that change the answer).
fn title(t: &Transform) -> String {
    match t.modulus {
        Some(p) => format!("ntt --field {} --modulus {p} --log-n {}", t.field, t.log_n),
        None => format!("ntt --field {} --log-n {}", t.field, t.log_n),
    }
}

/// `ntt` as the service runs it: requests of whole polynomials, batched
/// with others of the same transform into one engine call.
#[cfg(feature = "serve")]
pub fn served(args: Args) -> Result<crate::serve::Served, String> {
    let t = transform(&args)?;
    // Every option that changes the answer is in the title (the lane's key).
    let mut title = title(&t);
    for (on, option) in [
        (args.inverse, "--inverse".to_string()),
        (
            args.input_order != Order::Natural,
            format!("--input-order {}", args.input_order),
        ),
        (
            args.output_order != Order::Natural,
            format!("--output-order {}", args.output_order),
        ),
        // The coset as its bytes' lowercase hex, however the caller spelt
        // it (`0x`, capitals): one transform, one lane.
        (
            t.coset.is_some(),
            format!("--coset {}", hex::encode(t.coset.as_deref().unwrap_or_default())),
        ),
    ] {
        if on {
            title.push(' ');
            title.push_str(&option);
        }
    }
    Ok(crate::serve::Served {
        verb: Box::new(NttVerb(t)),
        title,
        whole: false,
    })
}

#[cfg(feature = "serve")]
struct NttVerb(Transform);

#[cfg(feature = "serve")]
impl crate::serve::ServeVerb for NttVerb {
    fn record(&self) -> Option<usize> {
        Some(self.0.poly_bytes())
    }

    fn answer(&self, engine: &Engine, requests: &[&crate::serve::Payload]) -> Result<crate::serve::Outputs, Fatal> {
        let size = self.0.poly_bytes();
        let (bytes, counts) = crate::serve::concatenated(requests, size)?;
        let mut out = Vec::with_capacity(bytes.len());
        let (selection, refused) = transform_into(engine, &self.0, &bytes, &mut out)?;
        Ok((
            crate::serve::split_records(&out, &counts, size, refused)?,
            Some(selection),
        ))
    }
}
