//! `batchcrypto mlkem keygen|encaps|decaps [--set 512|768|1024]`: ML-KEM
//! (FIPS 203) per line (CLI-FORMATS.md).
//!
//! keygen in `{"d":"<32>","z":"<32>"}`, out `{"ek","dk"}`; encaps in
//! `{"ek"}` and an optional `"m":"<32>"` (without it m comes from the
//! operating system), out `{"ct","ss"}` or `{"ct":null,"reason"}`; decaps in
//! `{"dk","ct"}`, out `{"ss"}` or `{"ss":null,"reason"}`. d, z and m of
//! another length make the line malformed (their length is fixed); a key or
//! ciphertext of the wrong length is the item's reason.

use batchcrypto::ops::mlkem::{self, DecapsItem, EncapsItem, Encapsulated, KeyPair, KeygenItem, Set};
use batchcrypto::{Engine, Reason, Selection};

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, hex_fixed, hex_into, parse_object, write_refused};

#[derive(clap::Subcommand)]
pub enum Mlkem {
    /// Key pairs from seeds (ML-KEM.KeyGen_internal): in {"d":32,"z":32}, out {"ek","dk"}.
    Keygen(Args),
    /// Encapsulation with the key checks: in {"ek"[,"m":32]}, out {"ct","ss"} or {"ct":null,"reason"}.
    Encaps(Args),
    /// Decapsulation with implicit rejection: in {"dk","ct"}, out {"ss"} or {"ss":null,"reason"}.
    Decaps(Args),
}

#[derive(clap::Args)]
pub struct Args {
    /// Parameter set: 512, 768 or 1024.
    #[arg(long, default_value = "768", value_parser = parse_set)]
    set: Set,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

pub fn parse_set(s: &str) -> Result<Set, String> {
    s.parse::<u16>()
        .ok()
        .and_then(Set::from_bits)
        .ok_or_else(|| format!("{s:?} is not 512, 768 or 1024"))
}

pub fn job(cmd: Mlkem) -> LineJob {
    match cmd {
        Mlkem::Keygen(a) => KemVerb::<Keygen>::job("keygen", a),
        Mlkem::Encaps(a) => KemVerb::<Encaps>::job("encaps", a),
        Mlkem::Decaps(a) => KemVerb::<Decaps>::job("decaps", a),
    }
}

/// What differs between the three verbs.
trait KemOp: Send + 'static {
    type Item: Send + Sync + 'static;
    type Out: Send;
    const OK_LABEL: &'static str;
    fn parse(line: &str) -> Result<Self::Item, String>;
    fn bytes(item: &Self::Item) -> usize;
    fn run(engine: &Engine, set: Set, items: &[Self::Item]) -> Result<(Vec<Self::Out>, Selection), Fatal>;
    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool>;
}

struct KemVerb<O> {
    set: Set,
    op: std::marker::PhantomData<fn() -> O>,
}

impl<O: KemOp> KemVerb<O> {
    fn job(name: &str, args: Args) -> LineJob {
        let verb = KemVerb::<O> {
            set: args.set,
            op: std::marker::PhantomData,
        };
        LineJob::new(
            verb,
            format!("mlkem {name} --set {}", args.set.bits()),
            args.engine,
            args.io,
        )
    }
}

impl<O: KemOp> LineVerb for KemVerb<O> {
    type Batch = Vec<O::Item>;
    type Out = O::Out;
    const OK_LABEL: &'static str = O::OK_LABEL;
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        batch.push(O::parse(line)?);
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.iter().map(O::bytes).sum()
    }

    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        O::run(engine, self.set, batch)
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        O::write(out, w)
    }
}

/// A hex field of any length.
fn bytes(name: &str, value: &Field<'_>) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    hex_into(name, value, &mut out)?;
    Ok(out)
}

#[derive(serde::Deserialize)]
struct KemLine<'a> {
    #[serde(borrow, default)]
    d: Field<'a>,
    #[serde(borrow, default)]
    z: Field<'a>,
    #[serde(borrow, default)]
    ek: Field<'a>,
    #[serde(borrow, default)]
    m: Field<'a>,
    #[serde(borrow, default)]
    dk: Field<'a>,
    #[serde(borrow, default)]
    ct: Field<'a>,
}

struct Keygen;

impl KemOp for Keygen {
    type Item = KeygenItem;
    type Out = Result<KeyPair, Reason>;
    const OK_LABEL: &'static str = "generated";

    fn parse(line: &str) -> Result<KeygenItem, String> {
        let l: KemLine = parse_object(line)?;
        Ok(KeygenItem {
            d: hex_fixed::<{ mlkem::SEED_LEN }>("d", &l.d)?.to_vec(),
            z: hex_fixed::<{ mlkem::SEED_LEN }>("z", &l.z)?.to_vec(),
        })
    }

    fn bytes(item: &KeygenItem) -> usize {
        item.d.len() + item.z.len()
    }

    fn run(engine: &Engine, set: Set, items: &[KeygenItem]) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.mlkem_keygen(set, items)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(pair) => {
                writeln!(
                    w,
                    "{{\"ek\":\"{}\",\"dk\":\"{}\"}}",
                    hex::encode(&pair.ek),
                    hex::encode(&pair.dk)
                )?;
                Ok(true)
            }
            Err(reason) => write_refused("ek", reason, w),
        }
    }
}

struct Encaps;

impl KemOp for Encaps {
    type Item = EncapsItem;
    type Out = Result<Encapsulated, Reason>;
    const OK_LABEL: &'static str = "encapsulated";

    fn parse(line: &str) -> Result<EncapsItem, String> {
        let l: KemLine = parse_object(line)?;
        let m = match l.m {
            Field::Missing => None,
            ref m => Some(hex_fixed::<{ mlkem::SEED_LEN }>("m", m)?.to_vec()),
        };
        Ok(EncapsItem {
            ek: bytes("ek", &l.ek)?,
            m,
        })
    }

    fn bytes(item: &EncapsItem) -> usize {
        item.ek.len() + mlkem::SEED_LEN
    }

    fn run(engine: &Engine, set: Set, items: &[EncapsItem]) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.mlkem_encaps(set, items)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(e) => {
                writeln!(
                    w,
                    "{{\"ct\":\"{}\",\"ss\":\"{}\"}}",
                    hex::encode(&e.ct),
                    hex::encode(e.ss)
                )?;
                Ok(true)
            }
            Err(reason) => write_refused("ct", reason, w),
        }
    }
}

struct Decaps;

impl KemOp for Decaps {
    type Item = DecapsItem;
    type Out = Result<mlkem::SharedSecret, Reason>;
    const OK_LABEL: &'static str = "decapsulated";

    fn parse(line: &str) -> Result<DecapsItem, String> {
        let l: KemLine = parse_object(line)?;
        Ok(DecapsItem {
            dk: bytes("dk", &l.dk)?,
            ct: bytes("ct", &l.ct)?,
        })
    }

    fn bytes(item: &DecapsItem) -> usize {
        item.dk.len() + item.ct.len()
    }

    fn run(engine: &Engine, set: Set, items: &[DecapsItem]) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.mlkem_decaps(set, items)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match out {
            Ok(ss) => {
                writeln!(w, "{{\"ss\":\"{}\"}}", hex::encode(ss))?;
                Ok(true)
            }
            Err(reason) => write_refused("ss", reason, w),
        }
    }
}
