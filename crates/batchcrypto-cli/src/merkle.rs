//! `batchcrypto merkle [--hash keccak256|sha256|poseidon] [--proof I,J,...]
//! [--depth D [--zero HEX]]`: one leaf per line in, one line out with the
//! root (with `--depth`, a padded tree's: `batchcrypto::ops::merkle::Padding`;
//! no leaves is then the empty tree, not an error).
//!
//! In `{"leaf":"<32 bytes hex>"}`; out `{"root":"<32 bytes hex>","leaves":N}`
//! (CLI-FORMATS.md). `--hash sha256` builds under the bitcoin rule,
//! `--hash keccak256` (the default) under sorted-keccak256, `--hash
//! poseidon` under lean-imt-poseidon (a leaf not below BN254's r is a
//! malformed line); see `batchcrypto::ops::merkle` and the README. With
//! `--proof`, the same line also carries
//! `"proofs":[{"index":i,"leaf":"..","proof":[".."],"path":p}]`: `path` the
//! sides of the leaf's path as bits (`Tree::path`; the leaf's index but
//! where a level carried the node up), which `verify merkle-proof` takes as
//! its `index`.
//!
//! A root over some of the leaves would be a wrong answer, so any malformed
//! line gives `{"error":"line N: ..."}` lines (one per bad line, in order),
//! no root, and exit status 2. No leaves at all is also an error line.
//!
//! `serve` answers `POST /v1/merkle` the same way, a request's lines being
//! one tree (`MerkleVerb::answer`); there a --proof index past the tree's
//! leaves is the request's error line rather than the run's error.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use batchcrypto::ops::hash::Digest;
use batchcrypto::ops::merkle::{self, Padding, Rule};
use batchcrypto::{Engine, Selection};

#[cfg(feature = "serve")]
use crate::lines::RequestLine;
use crate::lines::{
    DynVerb, Field, Io, LineJob, hex_fixed, line_text, open_input, open_output, parse_object, progress_bar,
    read_line_capped,
};
use crate::output::write_failed;
use crate::{EXIT_MALFORMED, Fatal};

/// `--hash` or `--rule`: the Merkle rule of `merkle`, `verify
/// merkle-proof` and `sample merkle-proof`.
#[derive(clap::Args, Clone, Copy)]
pub struct RuleArg {
    /// keccak256 (sorted pairs, odd node carried up: OpenZeppelin
    /// MerkleProof), sha256 (double SHA-256, odd node duplicated: Bitcoin)
    /// or poseidon (circom's Poseidon over BN254, odd node carried up:
    /// zk-kit LeanIMT, Semaphore v4).
    #[arg(long = "hash", value_name = "HASH", default_value = "keccak256", value_parser = merkle_rule)]
    by_hash: Rule,
    /// The rule by its name instead: bitcoin, sorted-keccak256,
    /// lean-imt-poseidon, or ssz (Ethereum consensus's SSZ merkleize: one
    /// SHA-256 of the pair, zero chunks up to a power of two).
    #[arg(long = "rule", value_name = "RULE", conflicts_with = "by_hash")]
    by_name: Option<Rule>,
}

impl RuleArg {
    /// The rule asked for.
    pub fn rule(&self) -> Rule {
        self.by_name.unwrap_or(self.by_hash)
    }
}

/// The option naming `rule` on a command line (titles, which are the
/// service's batching keys, and summaries): `--hash H`, or `--rule ssz`
/// for the rule no hash names.
pub fn rule_option(rule: Rule) -> String {
    if Rule::for_hash(rule.hash()) == Some(rule) {
        format!("--hash {}", rule.hash())
    } else {
        format!("--rule {}", rule.name())
    }
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    rule: RuleArg,
    /// Also give the inclusion proofs of these leaves (0-based, comma-separated).
    #[arg(long, value_delimiter = ',')]
    proof: Vec<usize>,
    /// A padded tree of this depth (1 to 64): 2^depth leaves, those not
    /// given --zero (zk-kit IncrementalMerkleTree, Semaphore v1-v3,
    /// Tornado-style pools, Light Protocol); no leaves is the empty tree.
    #[arg(long, value_parser = crate::limits::in_range::<1, 64>)]
    depth: Option<usize>,
    /// A padded tree's missing leaves (32 bytes hex; 0 by default).
    #[arg(long, requires = "depth", value_name = "HEX", value_parser = zero_value)]
    zero: Option<Digest>,
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

/// The job of `merkle`: a CLI run, or the service's answer to whole
/// requests (each request one tree).
pub fn job(args: Args) -> LineJob {
    let mut title = format!("merkle {}", rule_option(args.rule.rule()));
    if !args.proof.is_empty() {
        let list: Vec<String> = args.proof.iter().map(usize::to_string).collect();
        title.push_str(&format!(" --proof {}", list.join(",")));
    }
    // The depth fits u32 (at most 64, by its parser).
    let padding = args.depth.map(|depth| Padding {
        depth: depth as u32,
        zero: args.zero.unwrap_or_default(),
    });
    if let Some(p) = &padding {
        title.push_str(&format!(" --depth {} --zero {}", p.depth, hex::encode(p.zero)));
    }
    let verb = MerkleVerb {
        rule: args.rule.rule(),
        proof: args.proof,
        padding,
    };
    LineJob::whole(Box::new(verb), title, args.engine, args.io)
}

/// `--hash`: the Merkle rule that uses the named hash.
fn merkle_rule(name: &str) -> Result<Rule, String> {
    Rule::for_hash(name).ok_or_else(|| format!("no Merkle rule uses {name:?}; use keccak256, sha256 or poseidon"))
}

/// `--zero`: 32 bytes of hex (a `0x` prefix allowed).
fn zero_value(s: &str) -> Result<Digest, String> {
    let bytes = hex::decode(s.strip_prefix("0x").unwrap_or(s)).map_err(|e| format!("not hex: {e}"))?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("{} bytes; expected 32", b.len()))
}

/// `merkle` with its options.
struct MerkleVerb {
    rule: Rule,
    proof: Vec<usize>,
    padding: Option<Padding>,
}

impl MerkleVerb {
    /// The output line of a tree over `leaves` (at least one): the root,
    /// the number of leaves, and the proofs asked for, with what ran them;
    /// `Err` when the engine fails, `Ok(Err(message))` (nothing computed)
    /// when a --proof index is past the leaves.
    fn root_line(
        &self,
        engine: &Engine,
        rule: Rule,
        leaves: &[Digest],
    ) -> Result<Result<(String, Selection), String>, Fatal> {
        if let Some(bad) = self.proof.iter().find(|&&i| i >= leaves.len()) {
            let message = format!("--proof {bad}: there are only {} leaves (indices from 0)", leaves.len());
            return Ok(Err(message));
        }
        let outcome = match &self.padding {
            Some(p) => engine.merkle_root_padded(rule, leaves, p)?,
            None => engine.merkle_root(rule, leaves)?,
        };
        // Keys in the contract's order: root, leaves (then proofs).
        let mut line = format!(
            "{{\"root\":\"{}\",\"leaves\":{}",
            hex::encode(outcome.output),
            leaves.len()
        );
        if !self.proof.is_empty() {
            let proofs = proofs(
                engine,
                rule,
                leaves,
                &self.proof,
                self.padding.as_ref(),
                &outcome.output,
            )?;
            line.push_str(&format!(",\"proofs\":{proofs}"));
        }
        line.push('}');
        Ok(Ok((line, outcome.selection)))
    }
}

/// The error lines of a tree with malformed lines or no leaves.
fn error_lines(errors: Vec<String>) -> Result<String, Fatal> {
    let errors = if errors.is_empty() {
        vec!["no leaves: a Merkle tree needs at least one {\"leaf\":...} line".to_string()]
    } else {
        errors
    };
    let mut out = String::new();
    for e in &errors {
        out.push_str(&format!("{{\"error\":{}}}\n", serde_json::to_string(e)?));
    }
    Ok(out)
}

impl DynVerb for MerkleVerb {
    fn run_cli(self: Box<Self>, engine: Engine, io: &Io, _title: &str) -> Result<ExitCode, Fatal> {
        let rule = self.rule;
        let (mut input, size) = open_input(&io.input)?;
        let mut output = open_output(io)?;
        let progress = progress_bar(size);
        let start = Instant::now();
        let (leaves, errors) = read_leaves(rule, &mut *input, &progress, io.max_line_bytes)?;
        progress.finish_and_clear();
        if !errors.is_empty() || (leaves.is_empty() && self.padding.is_none()) {
            let summary = if errors.is_empty() {
                "no leaves in the input: no root".to_string()
            } else {
                format!("{} malformed lines: no root", errors.len())
            };
            output
                .write_all(error_lines(errors)?.as_bytes())
                .map_err(write_failed)?;
            output.commit()?;
            eprintln!("batchcrypto merkle {}: {summary}", rule_option(rule));
            return Ok(ExitCode::from(EXIT_MALFORMED));
        }
        let (line, selection) = self.root_line(&engine, rule, &leaves)?.map_err(Fatal)?;
        writeln!(output, "{line}").map_err(write_failed)?;
        output.commit()?;
        eprintln!(
            "batchcrypto merkle {} (rule {rule}): {} leaves; backend {}; {:.3} s",
            rule_option(rule),
            leaves.len(),
            selection,
            start.elapsed().as_secs_f64()
        );
        Ok(ExitCode::SUCCESS)
    }

    #[cfg(feature = "serve")]
    /// Each request is one tree: its output is the CLI's for those lines
    /// (the root line, or an error line per malformed line, numbered
    /// within the request); a --proof index past a request's leaves is
    /// that request's error line.
    fn answer(&self, engine: &Engine, requests: &[&[RequestLine]]) -> Result<(Vec<Vec<u8>>, Option<Selection>), Fatal> {
        let rule = self.rule;
        let mut selection = None;
        let mut bodies = Vec::with_capacity(requests.len());
        for lines in requests {
            let (mut leaves, mut errors) = (Vec::with_capacity(lines.len()), Vec::new());
            for (i, line) in lines.iter().enumerate() {
                match line.as_deref().map_err(String::clone).and_then(|l| leaf(rule, l)) {
                    Ok(leaf) => leaves.push(leaf),
                    Err(e) => errors.push(format!("line {}: {e}", i + 1)),
                }
            }
            let body = if !errors.is_empty() || (leaves.is_empty() && self.padding.is_none()) {
                error_lines(errors)?
            } else {
                match self.root_line(engine, rule, &leaves)? {
                    Ok((line, ran)) => {
                        selection = Some(ran);
                        line + "\n"
                    }
                    Err(message) => error_lines(vec![message])?,
                }
            };
            bodies.push(body.into_bytes());
        }
        Ok((bodies, selection))
    }
}

/// A leaf line's leaf, one `rule` can hash.
fn leaf(rule: Rule, line: &str) -> Result<Digest, String> {
    let item: LeafLine = parse_object(line)?;
    let leaf = hex_fixed::<32>("leaf", &item.leaf)?;
    match merkle::check_leaves(rule, &[leaf]) {
        Ok(()) => Ok(leaf),
        Err(_) => Err(format!(
            "field \"leaf\" is not below BN254's scalar field modulus r ({} hashes field elements)",
            rule_option(rule)
        )),
    }
}

/// Every leaf, and an error text per malformed line.
fn read_leaves(
    rule: Rule,
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
        let parsed = line_text(&raw, &read, line_no, max_line).and_then(|l| leaf(rule, l));
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
    padding: Option<&Padding>,
    root: &Digest,
) -> Result<serde_json::Value, Fatal> {
    let tree = match padding {
        Some(p) => engine.merkle_tree_padded(rule, leaves, p)?,
        None => engine.merkle_tree(rule, leaves)?,
    };
    if tree.root() != *root {
        return Err(Fatal("the tree built for proofs disagrees with the root".to_string()));
    }
    let items = indices
        .iter()
        .map(|&i| {
            let (path, proof) = tree.path(i).unwrap_or_default();
            let ok = match padding {
                Some(p) => merkle::verify_padded_proof(rule, p.depth, &leaves[i], i, &proof, root),
                None => merkle::verify_proof(rule, &leaves[i], i, leaves.len(), &proof, root),
            };
            if !ok {
                return Err(Fatal(format!("the proof of leaf {i} does not verify")));
            }
            Ok(serde_json::json!({
                "index": i,
                "leaf": hex::encode(leaves[i]),
                "proof": proof.iter().map(hex::encode).collect::<Vec<_>>(),
                "path": path,
            }))
        })
        .collect::<Result<Vec<_>, Fatal>>()?;
    Ok(items.into())
}
