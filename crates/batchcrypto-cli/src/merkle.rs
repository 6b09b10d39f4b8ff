//! `batchcrypto merkle [--hash keccak256|sha256] [--proof I,J,...]`: one
//! leaf per line in, one line out with the root.
//!
//! In `{"leaf":"<32 bytes hex>"}`; out `{"root":"<32 bytes hex>","leaves":N}`
//! (CLI-FORMATS.md). `--hash sha256` builds under the bitcoin rule,
//! `--hash keccak256` (the default) under sorted-keccak256; see
//! `batchcrypto::ops::merkle` and the README. With `--proof`, the same line
//! also carries `"proofs":[{"index":i,"leaf":"..","proof":[".."]}]`.
//!
//! A root over some of the leaves would be a wrong answer, so any malformed
//! line gives `{"error":"line N: ..."}` lines (one per bad line, in order),
//! no root, and exit status 2. No leaves at all is also an error line.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use batchcrypto::Engine;
use batchcrypto::ops::hash::{Alg, Digest};
use batchcrypto::ops::merkle::Rule;

use crate::lines::{
    Field, Io, hex_fixed, line_text, open_input, open_output, parse_object, progress_bar, read_line_capped,
};
use crate::output::write_failed;
use crate::{EXIT_MALFORMED, Fatal};

#[derive(clap::Args)]
pub struct Args {
    /// keccak256 (sorted pairs, odd node carried up: OpenZeppelin MerkleProof)
    /// or sha256 (double SHA-256, odd node duplicated: Bitcoin).
    #[arg(long, default_value = "keccak256")]
    hash: Alg,
    /// Also give the inclusion proofs of these leaves (0-based, comma-separated).
    #[arg(long, value_delimiter = ',')]
    proof: Vec<usize>,
    #[command(flatten)]
    engine: crate::EngineArgs,
    #[command(flatten)]
    io: Io,
}

#[derive(serde::Deserialize)]
struct LeafLine<'a> {
    #[serde(borrow, default)]
    leaf: Field<'a>,
}

pub fn run(args: Args) -> Result<ExitCode, Fatal> {
    let rule = Rule::for_hash(args.hash).ok_or_else(|| {
        Fatal(format!(
            "no Merkle rule uses {}; use --hash keccak256 or --hash sha256",
            args.hash
        ))
    })?;
    let engine = args.engine.engine()?;
    let (mut input, size) = open_input(&args.io.input)?;
    let mut output = open_output(&args.io)?;
    let progress = progress_bar(size);
    let start = Instant::now();
    let (leaves, errors) = read_leaves(&mut *input, &progress, args.io.max_line_bytes)?;
    progress.finish_and_clear();
    if !errors.is_empty() || leaves.is_empty() {
        let summary = if errors.is_empty() {
            "no leaves in the input: no root".to_string()
        } else {
            format!("{} malformed lines: no root", errors.len())
        };
        let errors = if errors.is_empty() {
            vec!["no leaves: a Merkle tree needs at least one {\"leaf\":...} line".to_string()]
        } else {
            errors
        };
        for e in &errors {
            writeln!(output, "{{\"error\":{}}}", serde_json::to_string(e)?).map_err(write_failed)?;
        }
        output.commit()?;
        eprintln!("batchcrypto merkle --hash {}: {summary}", args.hash);
        return Ok(ExitCode::from(EXIT_MALFORMED));
    }
    if let Some(bad) = args.proof.iter().find(|&&i| i >= leaves.len()) {
        return Err(Fatal(format!(
            "--proof {bad}: there are only {} leaves (indices from 0)",
            leaves.len()
        )));
    }
    let outcome = engine.merkle_root(rule, &leaves)?;
    // Keys in the contract's order: root, leaves (then proofs).
    let mut line = format!(
        "{{\"root\":\"{}\",\"leaves\":{}",
        hex::encode(outcome.output),
        leaves.len()
    );
    if !args.proof.is_empty() {
        let proofs = proofs(&engine, rule, &leaves, &args.proof, &outcome.output)?;
        line.push_str(&format!(",\"proofs\":{proofs}"));
    }
    writeln!(output, "{line}}}").map_err(write_failed)?;
    output.commit()?;
    eprintln!(
        "batchcrypto merkle --hash {} (rule {rule}): {} leaves; backend {}; {:.3} s",
        args.hash,
        leaves.len(),
        outcome.selection,
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Every leaf, and an error text per malformed line.
fn read_leaves(
    input: &mut dyn BufRead,
    progress: &indicatif::ProgressBar,
    max_line: usize,
) -> Result<(Vec<Digest>, Vec<String>), Fatal> {
    let (mut leaves, mut errors) = (Vec::new(), Vec::new());
    let mut raw = Vec::new();
    let mut line_no = 0u64;
    loop {
        let (n, read) =
            read_line_capped(input, &mut raw, max_line).map_err(|e| Fatal(format!("reading input: {e}")))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        progress.inc(n);
        let parsed = line_text(&raw, &read, line_no, max_line).and_then(|line| {
            let item: LeafLine = parse_object(line)?;
            hex_fixed::<32>("leaf", &item.leaf)
        });
        match parsed {
            Ok(leaf) => leaves.push(leaf),
            Err(e) => errors.push(format!("line {line_no}: {e}")),
        }
    }
    Ok((leaves, errors))
}

/// The proofs of `indices`, each checked against `root` before it is printed.
fn proofs(
    engine: &Engine,
    rule: Rule,
    leaves: &[Digest],
    indices: &[usize],
    root: &Digest,
) -> Result<serde_json::Value, Fatal> {
    let tree = engine.merkle_tree(rule, leaves)?;
    if tree.root() != *root {
        return Err(Fatal("the tree built for proofs disagrees with the root".to_string()));
    }
    let items = indices
        .iter()
        .map(|&i| {
            let proof = tree.proof(i).unwrap_or_default();
            let ok = batchcrypto::ops::merkle::verify_proof(rule, &leaves[i], i, leaves.len(), &proof, root);
            if !ok {
                return Err(Fatal(format!("the proof of leaf {i} does not verify")));
            }
            Ok(serde_json::json!({
                "index": i,
                "leaf": hex::encode(leaves[i]),
                "proof": proof.iter().map(hex::encode).collect::<Vec<_>>(),
            }))
        })
        .collect::<Result<Vec<_>, Fatal>>()?;
    Ok(items.into())
}
