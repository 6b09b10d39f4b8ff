//! `batchcrypto verify <scheme>`: one verdict line per input line.

use std::process::ExitCode;

use batchcrypto::batch::SignedBatch;
use batchcrypto::ops::bls::{self, AggregateItem, FastAggregateItem};
use batchcrypto::ops::ecdsa::{K1Key, K1VerifyItem, P256Item};
use batchcrypto::ops::ed25519::Policy;
use batchcrypto::{Engine, Error, Outcome, Selection, Verdict};

use crate::Fatal;
use crate::lines::{Field, Io, LineVerb, hex_fixed, hex_into, parse_object, run_lines, write_verdict};

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
    /// BLS12-381, Ethereum consensus (min_pk, PoP DST): in {"pk":48,"sig":96,"msg"}, out {"valid":bool[,"reason"]}.
    Bls {
        /// Verify each chunk with one random-linear-combination multi-pairing
        /// (bisected on failure) instead of item by item: same verdicts, faster.
        #[arg(long)]
        batch: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// secp256k1 ECDSA: in {"hash":32,"sig":64 r||s,"pk":33|65}, out {"valid":bool[,"reason"]}.
    Secp256k1 {
        /// Reject s > n/2 (BIP-62 / EIP-2), as libsecp256k1's own verify does.
        #[arg(long)]
        low_s: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// P-256 ECDSA under RIP-7212: in {"hash","r","s","x","y"} (32 bytes each), out {"valid":bool[,"reason"]}.
    P256 {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// BLS aggregate verify: in {"pks":[48..],"msgs":[..],"sig":96}, out {"valid":bool[,"reason"]}.
    BlsAggregate {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// BLS fast aggregate verify: in {"pks":[48..],"msg","sig":96}, out {"valid":bool[,"reason"]}.
    BlsFastAggregate {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
}

pub fn run(verify: Verify) -> Result<ExitCode, Fatal> {
    match verify {
        Verify::Ed25519 { policy, engine, io } => {
            let verb = SignedVerb {
                engine: engine.engine()?,
                run: Box::new(move |e, b| e.verify_ed25519(b, policy)),
            };
            run_lines(verb, &io, &format!("verify ed25519 --policy {policy}"))
        }
        Verify::Bls { batch, engine, io } => {
            let mode = if batch { bls::Mode::Batch } else { bls::Mode::Single };
            let verb = SignedVerb {
                engine: engine.engine()?,
                run: Box::new(move |e, b| e.verify_bls(b, mode)),
            };
            run_lines(verb, &io, if batch { "verify bls --batch" } else { "verify bls" })
        }
        Verify::Secp256k1 { low_s, engine, io } => {
            let verb = K1Verb {
                engine: engine.engine()?,
                low_s,
            };
            run_lines(
                verb,
                &io,
                if low_s {
                    "verify secp256k1 --low-s"
                } else {
                    "verify secp256k1"
                },
            )
        }
        Verify::P256 { engine, io } => {
            let verb = P256Verb {
                engine: engine.engine()?,
            };
            run_lines(verb, &io, "verify p256")
        }
        Verify::BlsAggregate { engine, io } => {
            let verb = AggregateVerb {
                engine: engine.engine()?,
            };
            run_lines(verb, &io, "verify bls-aggregate")
        }
        Verify::BlsFastAggregate { engine, io } => {
            let verb = FastAggregateVerb {
                engine: engine.engine()?,
            };
            run_lines(verb, &io, "verify bls-fast-aggregate")
        }
    }
}

type RunSigned<const PK: usize, const SIG: usize> =
    Box<dyn Fn(&Engine, &SignedBatch<PK, SIG>) -> Result<Outcome<Vec<Verdict>>, Error> + Send>;

/// Any `{"pk","sig","msg"}` scheme with keys of `PK` and signatures of `SIG` bytes.
struct SignedVerb<const PK: usize, const SIG: usize> {
    engine: Engine,
    run: RunSigned<PK, SIG>,
}

#[derive(serde::Deserialize)]
struct SignedLine<'a> {
    #[serde(borrow, default)]
    pk: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
    #[serde(borrow, default)]
    msg: Field<'a>,
}

impl<const PK: usize, const SIG: usize> LineVerb for SignedVerb<PK, SIG> {
    type Batch = SignedBatch<PK, SIG>;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: SignedLine = parse_object(line)?;
        let pk = hex_fixed::<PK>("pk", &item.pk)?;
        let sig = hex_fixed::<SIG>("sig", &item.sig)?;
        hex_into("msg", &item.msg, scratch)?;
        batch.push(&pk, &sig, scratch).map_err(|e| e.to_string())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.msgs().bytes().len()
    }

    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = (self.run)(&self.engine, batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}

#[derive(serde::Deserialize)]
struct AggregateLine<'a> {
    #[serde(borrow)]
    pks: Option<Vec<Field<'a>>>,
    #[serde(borrow)]
    msgs: Option<Vec<Field<'a>>>,
    #[serde(borrow, default)]
    msg: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
}

/// The keys and signature of an aggregate line.
fn keys_and_sig(item: &AggregateLine<'_>) -> Result<(Vec<[u8; bls::PK_LEN]>, [u8; bls::SIG_LEN]), String> {
    let pks = item
        .pks
        .as_ref()
        .ok_or("missing field \"pks\"")?
        .iter()
        .enumerate()
        .map(|(i, k)| hex_fixed::<{ bls::PK_LEN }>(&format!("pks[{i}]"), k))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((pks, hex_fixed::<{ bls::SIG_LEN }>("sig", &item.sig)?))
}

/// Bytes held by aggregate items (for chunking).
fn aggregate_bytes(keys: usize, msg_bytes: usize) -> usize {
    keys * bls::PK_LEN + msg_bytes + bls::SIG_LEN
}

struct AggregateVerb {
    engine: Engine,
}

impl LineVerb for AggregateVerb {
    type Batch = Vec<AggregateItem>;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: AggregateLine = parse_object(line)?;
        let (pks, sig) = keys_and_sig(&item)?;
        let msgs = item
            .msgs
            .as_ref()
            .ok_or("missing field \"msgs\"")?
            .iter()
            .enumerate()
            .map(|(i, m)| hex_into(&format!("msgs[{i}]"), m, scratch).map(|()| scratch.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        batch.push(AggregateItem { pks, msgs, sig });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch
            .iter()
            .map(|i| aggregate_bytes(i.pks.len(), i.msgs.iter().map(Vec::len).sum()))
            .sum()
    }

    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = self.engine.bls_aggregate_verify(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}

struct FastAggregateVerb {
    engine: Engine,
}

impl LineVerb for FastAggregateVerb {
    type Batch = Vec<FastAggregateItem>;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: AggregateLine = parse_object(line)?;
        let (pks, sig) = keys_and_sig(&item)?;
        hex_into("msg", &item.msg, scratch)?;
        batch.push(FastAggregateItem {
            pks,
            msg: scratch.clone(),
            sig,
        });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.iter().map(|i| aggregate_bytes(i.pks.len(), i.msg.len())).sum()
    }

    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = self.engine.bls_fast_aggregate_verify(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}

#[derive(serde::Deserialize)]
struct EcdsaLine<'a> {
    #[serde(borrow, default)]
    hash: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
    #[serde(borrow, default)]
    pk: Field<'a>,
    #[serde(borrow, default)]
    r: Field<'a>,
    #[serde(borrow, default)]
    s: Field<'a>,
    #[serde(borrow, default)]
    x: Field<'a>,
    #[serde(borrow, default)]
    y: Field<'a>,
}

struct K1Verb {
    engine: Engine,
    low_s: bool,
}

impl LineVerb for K1Verb {
    type Batch = Vec<K1VerifyItem>;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: EcdsaLine = parse_object(line)?;
        let hash = hex_fixed::<32>("hash", &item.hash)?;
        let sig = hex_fixed::<64>("sig", &item.sig)?;
        hex_into("pk", &item.pk, scratch)?;
        let pk = K1Key::from_slice(scratch)
            .ok_or_else(|| format!("field \"pk\": expected 33 or 65 bytes, got {} bytes", scratch.len()))?;
        batch.push(K1VerifyItem { hash, sig, pk });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * std::mem::size_of::<K1VerifyItem>()
    }

    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = self.engine.verify_secp256k1(batch, self.low_s)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}

struct P256Verb {
    engine: Engine,
}

impl LineVerb for P256Verb {
    type Batch = Vec<P256Item>;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: EcdsaLine = parse_object(line)?;
        batch.push(P256Item {
            hash: hex_fixed::<32>("hash", &item.hash)?,
            r: hex_fixed::<32>("r", &item.r)?,
            s: hex_fixed::<32>("s", &item.s)?,
            x: hex_fixed::<32>("x", &item.x)?,
            y: hex_fixed::<32>("y", &item.y)?,
        });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * std::mem::size_of::<P256Item>()
    }

    fn run(&self, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = self.engine.verify_p256(batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}
