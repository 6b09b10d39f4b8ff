//! `batchcrypto sample <op>`: deterministic sample inputs, valid and hostile,
//! in the verb's own line format (with an extra "kind" field that verbs ignore).

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;

use batchcrypto::ops::{
    bip340, bls, ecdsa, ed25519, groth16, kzg, merkle, mldsa, mlkem, mpt, ordered_trie, poseidon, receipts, slhdsa,
    solana_tx, sr25519, tx_sender,
};

use crate::Fatal;
use crate::output::{Output, write_failed};

/// What every sample takes.
#[derive(clap::Args)]
pub struct Common {
    /// Number of lines (written as they are made: memory stays small).
    #[arg(long, default_value_t = 1000, value_parser = crate::limits::in_range::<0, { crate::limits::MAX_SAMPLE_LINES }>)]
    count: usize,
    /// Share of hostile items, 0 to 1.
    #[arg(long, default_value_t = 0.2)]
    hostile_share: f64,
    /// Distinct honest signers, 1 to 65,536.
    #[arg(long, default_value_t = 256, value_parser = crate::limits::in_range::<1, 65_536>)]
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
        /// Largest message length in bytes, up to 1 MiB.
        #[arg(long, default_value_t = 256, value_parser = crate::limits::in_range::<0, { 1 << 20 }>)]
        max_msg_len: usize,
    },
    /// Items for `verify secp256k1` (hostile: r or s zero or >= n, high s,
    /// wrong hash, bit flips, keys off the curve or badly prefixed).
    Secp256k1 {
        #[command(flatten)]
        common: Common,
        /// Signatures in DER, for `verify secp256k1 --der` (also hostile:
        /// encodings that are not strict DER, r negative or wider than 32
        /// bytes).
        #[arg(long)]
        der: bool,
    },
    /// Items for `ecrecover` (hostile: every bad v, r or s zero or >= n,
    /// random r, high s, wrong hash, bit flips).
    Ecrecover(Common),
    /// Items for `verify p256` (hostile: r or s zero or >= n, keys off the
    /// curve or at infinity, high s, wrong hash, bit flips).
    P256 {
        #[command(flatten)]
        common: Common,
        /// Signatures in DER, for `verify p256 --der` (also hostile as
        /// `secp256k1 --der`'s).
        #[arg(long)]
        der: bool,
    },
    /// Items for `verify bip340` (hostile: wrong message or key, bit flips,
    /// r >= p, s >= n, keys off the curve or not below p).
    Bip340(Common),
    /// Items for `verify sr25519` under the context `substrate` (hostile:
    /// wrong message, context or key, bit flips, marker bit cleared, s >= l,
    /// non-canonical keys).
    Sr25519(Common),
    /// Items for `verify bls` (hostile: wrong message or key, bit flips,
    /// identity key, infinity signature, points outside the subgroup).
    Bls(Common),
    /// Items for `verify kzg-cell`: the cells of random blobs (every eighth
    /// the zero blob) with their commitments and proofs, 128 per blob
    /// (hostile: index past 127 or another index, a changed bit, an element
    /// not below r, points badly flagged or changed, another blob's proof or
    /// commitment). `--signers` is not used.
    KzgCell(Common),
    /// Blobs for `kzg compute-cells`: random field elements, every eighth
    /// the zero blob, every fourth of the rest all r - 1 (hostile: an
    /// element at or above r). `--signers` is not used.
    KzgBlob(Common),
    /// Items for `kzg recover-cells`: 64 to 128 of a random blob's cells in
    /// ascending order, eight recoveries per blob (hostile: indices and
    /// cells in different numbers, over 128 or under 64 cells, an index
    /// past 127, indices repeated or out of order, an element at or above r,
    /// cells of another blob, which are recovered all the same). `--signers`
    /// is not used.
    KzgRecover(Common),
    /// Items for `poseidon`: random elements below r (and 0 and r - 1), the
    /// widths 1 to 12 inputs in turn (hostile: an element at or above r,
    /// a short element, which the verb reports as a malformed line, 13
    /// inputs, none). `--signers` is not used.
    Poseidon(Common),
    /// Proofs for `verify merkle-proof` with the same `--hash` and
    /// `--depth`: of leaves of plain trees of 1 to 300 random leaves, or
    /// with `--depth` of a padded tree of that depth (hostile: a sibling,
    /// the leaf or the root changed, an index past the path, a sibling
    /// dropped or added, a ragged end, which the verb reports as a
    /// malformed line, under poseidon a leaf not below r). `--signers` is
    /// not used.
    #[command(name = "merkle-proof")]
    MerkleProof {
        #[command(flatten)]
        common: Common,
        #[command(flatten)]
        rule: crate::merkle::RuleArg,
        /// Proofs of a padded tree of this depth (1 to 64).
        #[arg(long, value_parser = crate::limits::in_range::<1, 64>)]
        depth: Option<usize>,
    },
    /// Proofs for `verify mpt-proof` (without `--secure`: the keys are
    /// the tries' paths): in tries of accounts, storage slots and receipts
    /// (whose short values make embedded nodes) of 1 to 600 entries, of
    /// present keys and of absent ones (hostile: the value changed or
    /// denied, the root, a node or the key changed, a node dropped or
    /// added, no nodes, a root node that does not decode, a path past 64
    /// nibbles, a ragged end, which the verb reports as a malformed line).
    /// `--signers` is not used.
    #[command(name = "mpt-proof")]
    MptProof(Common),
    /// Lists for `trie-root`: 0 to 400 values in five length styles (one
    /// byte, embedded leaves, withdrawals, transactions); hostile: a value
    /// of no bytes, or a layout that does not read, which the verb reports
    /// as a malformed line (`"values"` not a list). `--signers` is not used.
    #[command(name = "trie-root")]
    TrieRoot(Common),
    /// Blocks' receipts for `receipts-root`, as `debug_getRawReceipts`
    /// gives them: 0 to 300 receipts of every type (post-state roots among
    /// the legacy ones), 0 to 12 logs each; hostile: a stated bloom's bit
    /// flipped, a log added under its receipt's stated bloom, a receipt
    /// cut short, a byte added, of type 5, of no bytes, or a layout that
    /// does not read, which the verb reports as a malformed line
    /// (`"receipts"` not a list). `--signers` is not used.
    #[command(name = "receipts-root")]
    ReceiptsRoot(Common),
    /// Transactions for `tx-sender`: every type (legacy with and without
    /// a chain id, EIP-2930, EIP-1559, EIP-4844, EIP-7702) and shape
    /// (creations, call data up to 2,000 bytes, access lists, blob hashes,
    /// authorizations) signed by `--signers` keys; hostile: a type byte
    /// other than 1 to 4, cut short, a byte added, no bytes, s above n/2,
    /// r zero, s at or above n, an r that is no point's x.
    #[command(name = "tx-sender")]
    TxSender(Common),
    /// Transactions for `verify solana-tx`: legacy, v0 (address lookup
    /// tables) and v1 messages, one to four signers, one to three
    /// instructions, signed by `--signers` keys; hostile: a signature's
    /// bit flipped, the blockhash changed after signing, another key's
    /// signature, S + L, a signer key of small or mixed order (valid under
    /// zip215 only) or off the curve, a signature missing, a header
    /// without a writable signer, a message version past 1, cut short, a
    /// byte added, no bytes.
    #[command(name = "solana-tx")]
    SolanaTx(Common),
    /// Proofs for `verify groth16` under one key made with its trapdoor
    /// (written to `--vk-output` as the key's hex; also with A or B at
    /// infinity, inputs 0 and r - 1; hostile: a wrong input, A and C
    /// swapped, C negated, an input plus r, A off its curve, a coordinate
    /// of B not below p, B outside G2's subgroup, A at infinity, an input
    /// missing). `--signers` is not used.
    Groth16(Groth16Common),
    /// Proofs for `verify groth16-bls12-381` under one key made with its
    /// trapdoor (written to `--vk-output` as the key's compressed form in
    /// hex; inputs 0 and r - 1; hostile: a wrong input, A and C swapped,
    /// C negated, an input plus r, A's x off the curve, a coordinate of B
    /// not below p, A or B outside the subgroup, A or B at infinity, A's
    /// compression flag cleared, an input missing). `--signers` is not
    /// used.
    #[command(name = "groth16-bls12-381")]
    Groth16Bls12381(Groth16Common),
    /// Items for `verify ml-dsa-44` (hostile: wrong message, context or
    /// key, bit flips, malformed hints, z out of range, short key or
    /// signature, a context over 255 bytes).
    #[command(name = "ml-dsa-44")]
    MlDsa44(Common),
    /// Items for `verify ml-dsa-65` (hostile as for ML-DSA-44).
    #[command(name = "ml-dsa-65")]
    MlDsa65(Common),
    /// Items for `verify ml-dsa-87` (hostile as for ML-DSA-44).
    #[command(name = "ml-dsa-87")]
    MlDsa87(Common),
    /// Items for `verify slh-dsa --set <SET>` (honest: a pool of four
    /// signatures per set, made once, since signing takes up to seconds;
    /// hostile: wrong message, context or key, a flipped bit in R, the
    /// FORS or the hypertree signature, a short key, a short or long
    /// signature, a context over 255 bytes). `--signers` is not used.
    #[command(name = "slh-dsa")]
    SlhDsa(SlhCommon),
    /// Seeds for `mlkem keygen` (hostile: d or z of the wrong length, which
    /// the verb reports as malformed lines).
    #[command(name = "ml-kem-keygen")]
    MlKemKeygen(Common),
    /// Items for `mlkem encaps` under `--signers` keys (hostile: a key
    /// failing the modulus check, a key of the wrong length, an m of the
    /// wrong length, which the verb reports as a malformed line).
    #[command(name = "ml-kem-encaps")]
    MlKemEncaps(KemCommon),
    /// Items for `mlkem decaps` under `--signers` keys (hostile: a flipped
    /// ciphertext bit or another key's ciphertext, answered by implicit
    /// rejection; a ciphertext or key of the wrong length; a key failing the
    /// hash check or the modulus check).
    #[command(name = "ml-kem-decaps")]
    MlKemDecaps(KemCommon),
}

/// An ML-KEM sample: what every sample takes, and the parameter set.
#[derive(clap::Args)]
pub struct KemCommon {
    #[command(flatten)]
    common: Common,
    /// Parameter set: 512, 768 or 1024.
    #[arg(long, default_value = "768", value_parser = crate::mlkem::parse_set)]
    set: mlkem::Set,
}

/// A Groth16 sample: what every sample takes, the key's inputs, and where
/// the key goes.
#[derive(clap::Args)]
pub struct Groth16Common {
    #[command(flatten)]
    common: Common,
    /// Public inputs per proof, 1 to 64.
    #[arg(long, default_value_t = 4, value_parser = crate::limits::in_range::<1, 64>)]
    inputs: usize,
    /// File for the verifying key (in hex: its EIP-197 bytes for `verify
    /// groth16 --vk`, its compressed form for `verify groth16-bls12-381
    /// --vk`).
    #[arg(long)]
    vk_output: PathBuf,
}

/// An SLH-DSA sample: what every sample takes, and the parameter set.
#[derive(clap::Args)]
pub struct SlhCommon {
    #[command(flatten)]
    common: Common,
    /// Parameter set (as `verify slh-dsa --set`).
    #[arg(long, value_parser = crate::verify::parse_slhdsa_set)]
    set: slhdsa::Set,
}

/// Lines made per step: the output streams, memory stays small.
const STEP: usize = 16_384;

/// The lines of a sample, made step by step.
type Lines<'a> = Box<dyn Iterator<Item = String> + 'a>;

/// Blobs and recoveries made per step (each line is 256 KiB or more).
const BLOB_STEP: usize = 64;

/// The lines of `count` items made `STEP` at a time by `make` (items that
/// depend only on their index).
fn by_steps<'a, T: 'a>(count: usize, make: impl Fn(Range<usize>) -> Vec<T> + 'a, line: fn(T) -> String) -> Lines<'a> {
    by_steps_of(STEP, count, make, line)
}

/// [`by_steps`], `step` at a time.
fn by_steps_of<'a, T: 'a>(
    step: usize,
    count: usize,
    make: impl Fn(Range<usize>) -> Vec<T> + 'a,
    line: fn(T) -> String,
) -> Lines<'a> {
    Box::new(
        (0..count)
            .step_by(step)
            .flat_map(move |start| make(start..(start + step).min(count)).into_iter().map(line)),
    )
}

/// The line of an ordered-trie item (`trie-root`'s values, a block's
/// receipts): its values as hex strings under `key`, or, for an item that
/// does not read, its bytes as one string (a malformed line).
fn values_line(key: &str, item: &[u8], kind: &str) -> String {
    match ordered_trie::values(item) {
        Ok(values) => {
            let values: Vec<String> = values.iter().map(|v| format!("\"{}\"", hex::encode(v))).collect();
            format!("{{\"{key}\":[{}],\"kind\":\"{kind}\"}}", values.join(","))
        }
        Err(_) => format!("{{\"{key}\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(item)),
    }
}

/// `f` of each item and its index (the first `start`).
fn numbered<T, U>(start: usize, items: Vec<T>, f: impl Fn(usize, T) -> U) -> Vec<U> {
    items.into_iter().enumerate().map(|(k, t)| f(start + k, t)).collect()
}

/// Item `n`'s signature in DER (at the hostile share spoiled, then its
/// kind the spoiling's) and its kind.
fn der_sig(n: usize, sig: &[u8; 64], kind: &'static str, c: &Common) -> (Vec<u8>, &'static str) {
    match ecdsa::sample::der_of(n, sig, c.hostile_share, c.seed) {
        (der, "der") => (der, kind),
        spoiled => spoiled,
    }
}

pub fn run(s: Sample) -> Result<ExitCode, Fatal> {
    let common = match &s {
        Sample::Ed25519 { common, .. }
        | Sample::Secp256k1 { common, .. }
        | Sample::Ecrecover(common)
        | Sample::P256 { common, .. }
        | Sample::Bip340(common)
        | Sample::Sr25519(common)
        | Sample::Bls(common)
        | Sample::KzgCell(common)
        | Sample::KzgBlob(common)
        | Sample::KzgRecover(common)
        | Sample::Poseidon(common)
        | Sample::MerkleProof { common, .. }
        | Sample::MptProof(common)
        | Sample::TrieRoot(common)
        | Sample::ReceiptsRoot(common)
        | Sample::TxSender(common)
        | Sample::SolanaTx(common)
        | Sample::Groth16(Groth16Common { common, .. })
        | Sample::Groth16Bls12381(Groth16Common { common, .. })
        | Sample::MlDsa44(common)
        | Sample::MlDsa65(common)
        | Sample::MlDsa87(common)
        | Sample::SlhDsa(SlhCommon { common, .. })
        | Sample::MlKemKeygen(common)
        | Sample::MlKemEncaps(KemCommon { common, .. })
        | Sample::MlKemDecaps(KemCommon { common, .. }) => common,
    };
    if !(0.0..=1.0).contains(&common.hostile_share) {
        return Err(Fatal(format!(
            "--hostile-share must be in [0, 1], got {}",
            common.hostile_share
        )));
    }
    let c = common;
    let trapdoor = match &s {
        Sample::Groth16(g) => {
            let trapdoor = groth16::sample::Trapdoor::new(g.inputs, c.seed);
            let mut out = Output::open(&g.vk_output, None)?;
            writeln!(out, "{}", hex::encode(trapdoor.key())).map_err(write_failed)?;
            out.commit()?;
            Some(trapdoor)
        }
        _ => None,
    };
    let bls_trapdoor = match &s {
        Sample::Groth16Bls12381(g) => {
            let trapdoor = groth16::bls12_381::sample::Trapdoor::new(g.inputs, c.seed);
            let mut out = Output::open(&g.vk_output, None)?;
            writeln!(out, "{}", hex::encode(trapdoor.key())).map_err(write_failed)?;
            out.commit()?;
            Some(trapdoor)
        }
        _ => None,
    };
    let pool = match &s {
        Sample::MlKemEncaps(k) | Sample::MlKemDecaps(k) => mlkem::sample::key_pool(k.set, c.signers, c.seed),
        _ => Vec::new(),
    };
    let lines: Lines<'_> = match &s {
        Sample::Ed25519 { max_msg_len, .. } => Box::new(
            ed25519::sample::items(&ed25519::sample::Config {
                count: c.count,
                hostile_share: c.hostile_share,
                signers: c.signers,
                max_msg_len: *max_msg_len,
                seed: c.seed,
            })
            .map(|i| {
                format!(
                    "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"kind\":\"{}\"}}",
                    hex::encode(i.pk),
                    hex::encode(i.sig),
                    hex::encode(&i.msg),
                    i.kind.name()
                )
            }),
        ),
        Sample::Secp256k1 { der: true, .. } => by_steps(
            c.count,
            |r| {
                let start = r.start;
                let items = ecdsa::sample::secp256k1_verify_range(r, c.signers, c.hostile_share, c.seed);
                numbered(start, items, |n, (i, kind)| (i, der_sig(n, &i.sig, kind, c)))
            },
            |(i, (der, kind))| {
                format!(
                    "{{\"hash\":\"{}\",\"sig\":\"{}\",\"pk\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.hash),
                    hex::encode(der),
                    hex::encode(i.pk.as_bytes())
                )
            },
        ),
        Sample::Secp256k1 { der: false, .. } => by_steps(
            c.count,
            |r| ecdsa::sample::secp256k1_verify_range(r, c.signers, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"hash\":\"{}\",\"sig\":\"{}\",\"pk\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.hash),
                    hex::encode(i.sig),
                    hex::encode(i.pk.as_bytes())
                )
            },
        ),
        Sample::Ecrecover(_) => by_steps(
            c.count,
            |r| ecdsa::sample::ecrecover_range(r, c.signers, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"hash\":\"{}\",\"sig\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.hash),
                    hex::encode(i.sig)
                )
            },
        ),
        Sample::P256 { der: true, .. } => by_steps(
            c.count,
            |r| {
                let start = r.start;
                let items = ecdsa::sample::p256_verify_range(r, c.signers, c.hostile_share, c.seed);
                numbered(start, items, |n, (i, kind)| {
                    let mut sig = [0u8; 64];
                    sig[..32].copy_from_slice(&i.r);
                    sig[32..].copy_from_slice(&i.s);
                    (i, der_sig(n, &sig, kind, c))
                })
            },
            |(i, (der, kind))| {
                format!(
                    "{{\"hash\":\"{}\",\"sig\":\"{}\",\"x\":\"{}\",\"y\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.hash),
                    hex::encode(der),
                    hex::encode(i.x),
                    hex::encode(i.y)
                )
            },
        ),
        Sample::P256 { der: false, .. } => by_steps(
            c.count,
            |r| ecdsa::sample::p256_verify_range(r, c.signers, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"hash\":\"{}\",\"r\":\"{}\",\"s\":\"{}\",\"x\":\"{}\",\"y\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.hash),
                    hex::encode(i.r),
                    hex::encode(i.s),
                    hex::encode(i.x),
                    hex::encode(i.y)
                )
            },
        ),
        Sample::Bip340(_) => by_steps(
            c.count,
            |r| bip340::sample::generate_range(r, c.signers, c.hostile_share, c.seed),
            |i| signed_line(&i.pk, &i.sig, &i.msg, i.kind),
        ),
        Sample::Sr25519(_) => by_steps(
            c.count,
            |r| sr25519::sample::generate_range(r, c.signers, c.hostile_share, c.seed),
            |i| signed_line(&i.pk, &i.sig, &i.msg, i.kind),
        ),
        Sample::Bls(_) => by_steps(
            c.count,
            |r| bls::sample::generate_range(r, c.signers, c.hostile_share, c.seed),
            |i| signed_line(&i.pk, &i.sig, &i.msg, i.kind),
        ),
        Sample::KzgCell(_) => by_steps(
            c.count,
            |r| kzg::sample::generate_range(r, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"commitment\":\"{}\",\"index\":{},\"cell\":\"{}\",\"proof\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(i.commitment),
                    i.index,
                    hex::encode(&i.cell[..]),
                    hex::encode(i.proof)
                )
            },
        ),
        Sample::KzgBlob(_) => by_steps_of(
            BLOB_STEP,
            c.count,
            |r| kzg::sample::blobs_range(r, c.hostile_share, c.seed),
            |(blob, kind)| format!("{{\"blob\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(&blob[..])),
        ),
        Sample::KzgRecover(_) => by_steps_of(
            BLOB_STEP,
            c.count,
            |r| kzg::sample::recover_range(r, c.hostile_share, c.seed),
            |(i, kind)| {
                let indices: Vec<String> = i.indices.iter().map(u64::to_string).collect();
                let cells: Vec<String> = i.cells.iter().map(|c| format!("\"{}\"", hex::encode(c))).collect();
                format!(
                    "{{\"cell_indices\":[{}],\"cells\":[{}],\"kind\":\"{kind}\"}}",
                    indices.join(","),
                    cells.join(",")
                )
            },
        ),
        Sample::Poseidon(_) => by_steps(
            c.count,
            |r| poseidon::sample::items_range(r, c.seed, c.hostile_share, |i| 1 + i % poseidon::MAX_INPUTS),
            |(item, kind)| {
                // A short last element stays short: a malformed line.
                let inputs: Vec<String> = item
                    .chunks(poseidon::ELEMENT_LEN)
                    .map(|x| format!("\"{}\"", hex::encode(x)))
                    .collect();
                format!("{{\"inputs\":[{}],\"kind\":\"{kind}\"}}", inputs.join(","))
            },
        ),
        Sample::MerkleProof { rule, depth, .. } => {
            // The depth fits u32 (at most 64, by its parser).
            let (rule, depth) = (rule.rule(), depth.map(|d| d as u32));
            by_steps(
                c.count,
                move |r| merkle::sample::proofs_range(rule, r, c.seed, c.hostile_share, depth),
                |(item, kind)| {
                    let node = |k: usize| hex::encode(item.get(k..(k + 32).min(item.len())).unwrap_or_default());
                    if item.len() < merkle::proof::HEAD_LEN {
                        // A ragged head: a root of another length, a malformed line.
                        return format!("{{\"root\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(&item));
                    }
                    let index = u64::from_be_bytes(item[64..72].try_into().unwrap_or_default());
                    // A short last sibling stays short: a malformed line.
                    let siblings: Vec<String> = (merkle::proof::HEAD_LEN..item.len())
                        .step_by(32)
                        .map(|k| format!("\"{}\"", node(k)))
                        .collect();
                    format!(
                        "{{\"root\":\"{}\",\"leaf\":\"{}\",\"index\":{index},\"proof\":[{}],\"kind\":\"{kind}\"}}",
                        node(0),
                        node(32),
                        siblings.join(",")
                    )
                },
            )
        }
        Sample::MptProof(_) => by_steps(
            c.count,
            move |r| mpt::sample::proofs_range(r, c.seed, c.hostile_share),
            |(item, kind)| match mpt::read(&item) {
                Ok(p) => {
                    let value = p.value.map(|v| format!("\"value\":\"{}\",", hex::encode(v)));
                    let nodes: Vec<String> = p.nodes.iter().map(|n| format!("\"{}\"", hex::encode(n))).collect();
                    format!(
                        "{{\"root\":\"{}\",\"key\":\"{}\",{}\"proof\":[{}],\"kind\":\"{kind}\"}}",
                        hex::encode(p.root),
                        hex::encode(p.key),
                        value.unwrap_or_default(),
                        nodes.join(",")
                    )
                }
                // A ragged item: its bytes as a root of another length, a malformed line.
                Err(_) => format!("{{\"root\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(&item)),
            },
        ),
        Sample::TrieRoot(_) => by_steps(
            c.count,
            move |r| ordered_trie::sample::lists_range(r, c.seed, c.hostile_share),
            |(item, kind)| values_line("values", &item, kind),
        ),
        Sample::ReceiptsRoot(_) => by_steps(
            c.count,
            move |r| receipts::sample::blocks_range(r, c.seed, c.hostile_share),
            |(item, kind)| values_line("receipts", &item, kind),
        ),
        Sample::TxSender(_) => by_steps(
            c.count,
            move |r| tx_sender::sample::transactions_range(r, c.signers, c.seed, c.hostile_share),
            |(tx, kind)| format!("{{\"tx\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(tx)),
        ),
        Sample::SolanaTx(_) => by_steps(
            c.count,
            move |r| solana_tx::sample::transactions_range(r, c.signers, c.seed, c.hostile_share),
            |(tx, kind)| format!("{{\"tx\":\"{}\",\"kind\":\"{kind}\"}}", hex::encode(tx)),
        ),
        Sample::Groth16(_) => {
            let trapdoor = trapdoor.as_ref().unwrap_or_else(|| unreachable!("made above"));
            by_steps(
                c.count,
                move |r| trapdoor.items(r, c.hostile_share),
                |i| {
                    let (proof, inputs) = i.bytes.split_at(groth16::PROOF_LEN);
                    let public: Vec<String> = inputs.chunks(32).map(|x| format!("\"0x{}\"", hex::encode(x))).collect();
                    format!(
                        "{{\"proof\":\"{}\",\"public\":[{}],\"kind\":\"{}\"}}",
                        hex::encode(proof),
                        public.join(","),
                        i.kind
                    )
                },
            )
        }
        Sample::Groth16Bls12381(_) => {
            let trapdoor = bls_trapdoor.as_ref().unwrap_or_else(|| unreachable!("made above"));
            by_steps(
                c.count,
                move |r| trapdoor.items(r, c.hostile_share),
                |i| {
                    let (proof, inputs) = i.bytes.split_at(groth16::bls12_381::PROOF_LEN);
                    // The inputs are little-endian; the line's numbers are written big-endian.
                    let public: Vec<String> = inputs
                        .chunks(groth16::bls12_381::SCALAR_LEN)
                        .map(|x| {
                            let be: Vec<u8> = x.iter().rev().copied().collect();
                            format!("\"0x{}\"", hex::encode(be))
                        })
                        .collect();
                    format!(
                        "{{\"proof\":\"{}\",\"public\":[{}],\"kind\":\"{}\"}}",
                        hex::encode(proof),
                        public.join(","),
                        i.kind
                    )
                },
            )
        }
        Sample::MlDsa44(_) | Sample::MlDsa65(_) | Sample::MlDsa87(_) => {
            let level = match &s {
                Sample::MlDsa44(_) => mldsa::Level::Mldsa44,
                Sample::MlDsa65(_) => mldsa::Level::Mldsa65,
                _ => mldsa::Level::Mldsa87,
            };
            by_steps(
                c.count,
                move |r| mldsa::sample::generate_range(level, r, c.signers, c.hostile_share, c.seed),
                |i| context_line(&i.pk, &i.msg, &i.sig, &i.ctx, i.kind),
            )
        }
        Sample::SlhDsa(SlhCommon { set, .. }) => {
            let set = *set;
            by_steps(
                c.count,
                move |r| slhdsa::sample::generate_range(set, r, c.hostile_share, c.seed),
                |i| context_line(&i.pk, &i.msg, &i.sig, &i.ctx, i.kind),
            )
        }
        Sample::MlKemKeygen(_) => by_steps(
            c.count,
            |r| mlkem::sample::keygen(r, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"d\":\"{}\",\"z\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(&i.d),
                    hex::encode(&i.z)
                )
            },
        ),
        Sample::MlKemEncaps(k) => by_steps(
            c.count,
            |r| mlkem::sample::encaps(k.set, &pool, r, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"ek\":\"{}\",\"m\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(&i.ek),
                    hex::encode(i.m.unwrap_or_default())
                )
            },
        ),
        Sample::MlKemDecaps(k) => by_steps(
            c.count,
            |r| mlkem::sample::decaps(k.set, &pool, r, c.hostile_share, c.seed),
            |(i, kind)| {
                format!(
                    "{{\"dk\":\"{}\",\"ct\":\"{}\",\"kind\":\"{kind}\"}}",
                    hex::encode(&i.dk),
                    hex::encode(&i.ct)
                )
            },
        ),
    };
    let mut out = Output::open(&common.output, None)?;
    for line in lines {
        writeln!(out, "{line}").map_err(write_failed)?;
    }
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// A line of `verify ml-dsa-*` and `verify slh-dsa`.
fn context_line(pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8], kind: &str) -> String {
    format!(
        "{{\"pk\":\"{}\",\"msg\":\"{}\",\"sig\":\"{}\",\"ctx\":\"{}\",\"kind\":\"{kind}\"}}",
        hex::encode(pk),
        hex::encode(msg),
        hex::encode(sig),
        hex::encode(ctx)
    )
}

/// A `{"pk","sig","msg","kind"}` line (BLS, BIP-340, sr25519).
fn signed_line(pk: &[u8], sig: &[u8], msg: &[u8], kind: &str) -> String {
    format!(
        "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\",\"kind\":\"{kind}\"}}",
        hex::encode(pk),
        hex::encode(sig),
        hex::encode(msg)
    )
}
