//! `batchcrypto verify <scheme>`: one verdict line per input line.

use batchcrypto::batch::SignedBatch;
use batchcrypto::ops::bls::{self, AggregateItem, FastAggregateItem};
use batchcrypto::ops::ecdsa::{K1Key, K1VerifyItem, P256Item};
use batchcrypto::ops::ed25519::Policy;
use batchcrypto::ops::groth16::{self, VerifyingKey, bls12_381};
use batchcrypto::ops::kzg::{self, CellItem};
use batchcrypto::ops::merkle::block::Network;
use batchcrypto::ops::merkle::{self, proof};
use batchcrypto::ops::{bip340, mldsa, mpt, slhdsa, sr25519};
use batchcrypto::{Engine, Error, FlatBytes, Outcome, Reason, Selection, Verdict};

use std::sync::Arc;

use crate::Fatal;
use crate::lines::{Field, Io, LineJob, LineVerb, hex_fixed, hex_into, parse_object, push_item, word, write_verdict};

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
    /// secp256k1 ECDSA: in {"hash":32,"sig":64 r||s (DER with --der),"pk":33|65}, out {"valid":bool[,"reason"]}.
    Secp256k1 {
        /// Reject s > n/2 (BIP-62 / EIP-2), as libsecp256k1's own verify does.
        #[arg(long)]
        low_s: bool,
        /// Signatures in DER (X.690's strict encoding: Bitcoin's BIP-66 with the sighash byte removed, X.509, HSMs and cloud KMS); one that is not strict DER is {"valid":false,"reason":"malformed_signature"}.
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// P-256 ECDSA under RIP-7212: in {"hash","r","s","x","y"} (32 bytes each; {"hash","sig","x","y"} with --der), out {"valid":bool[,"reason"]}.
    P256 {
        /// Signatures in DER, one field "sig" for r and s (WebAuthn authenticators, X.509, HSMs and cloud KMS, Hyperledger Fabric); one that is not strict DER is {"valid":false,"reason":"malformed_signature"}.
        #[arg(long)]
        der: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// BIP-340 Schnorr (Bitcoin Taproot): in {"pk":32 x-only,"sig":64,"msg"}, out {"valid":bool[,"reason"]}.
    Bip340 {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// sr25519 (Polkadot, Substrate): in {"pk":32,"sig":64,"msg"}, out {"valid":bool[,"reason"]}.
    Sr25519 {
        /// The signing context (its bytes as given; Substrate's is `substrate`).
        #[arg(long, default_value = "substrate")]
        context: String,
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
    /// KZG cell proofs (EIP-7594, PeerDAS): in {"commitment":48,"index":number,"cell":2048,"proof":48}, out {"valid":bool[,"reason"]}.
    KzgCell {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// ML-DSA-44 (FIPS 204, pure): in {"pk":1312,"msg","sig":2420[,"ctx"]}, out {"valid":bool[,"reason"]}.
    #[command(name = "ml-dsa-44")]
    MlDsa44 {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// ML-DSA-65 (FIPS 204, pure): in {"pk":1952,"msg","sig":3309[,"ctx"]}, out {"valid":bool[,"reason"]}.
    #[command(name = "ml-dsa-65")]
    MlDsa65 {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// ML-DSA-87 (FIPS 204, pure): in {"pk":2592,"msg","sig":4627[,"ctx"]}, out {"valid":bool[,"reason"]}.
    #[command(name = "ml-dsa-87")]
    MlDsa87 {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Groth16 over BN254 (circom, snarkjs) under one key: in {"proof": snarkjs's proof object or 256 bytes hex (A, B, C as EIP-197 encodes them), "public": [numbers]}, out {"valid":bool[,"reason"]}.
    Groth16 {
        /// The verifying key: snarkjs's verification_key.json, or a file
        /// holding the key's EIP-197 bytes in hex.
        #[arg(long, value_parser = parse_key_file, required_unless_present = "vk_hex", conflicts_with = "vk_hex")]
        vk: Option<Groth16Key>,
        /// The verifying key's EIP-197 bytes in hex (alpha, beta, gamma,
        /// delta, then IC_0 to IC_l), as the service takes it.
        #[arg(long, value_parser = parse_key_hex)]
        vk_hex: Option<Groth16Key>,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Groth16 over BLS12-381 (bellman: Zcash, Filecoin; Sui; snarkjs --curve bls12381) under one key: in {"proof": 192 bytes hex (A, B, C compressed) or snarkjs's proof object, "public": [numbers]}, out {"valid":bool[,"reason"]}.
    #[command(name = "groth16-bls12-381")]
    Groth16Bls12381 {
        /// The verifying key: a file holding it in either form (arkworks'
        /// compressed, bellman's uncompressed: Zcash's and Filecoin's
        /// `.vk` files) as raw bytes or hex, or snarkjs's
        /// verification_key.json.
        #[arg(long, value_parser = parse_bls12_key_file, required_unless_present = "vk_hex", conflicts_with = "vk_hex")]
        vk: Option<Bls12Key>,
        /// The verifying key's bytes in hex, either form, as the service
        /// takes it.
        #[arg(long, value_parser = parse_bls12_key_hex)]
        vk_hex: Option<Bls12Key>,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Merkle inclusion proofs: in {"root","leaf","index","proof":[siblings]} (32-byte nodes in hex, siblings bottom up; index a number, the path's sides as bits: the leaf's position in a Bitcoin or padded tree, the `path` that `merkle --proof` gives, zk-kit LeanIMT's proof index; optional under keccak256), out {"valid":bool[,"reason"]}.
    #[command(name = "merkle-proof")]
    MerkleProof {
        #[command(flatten)]
        rule: crate::merkle::RuleArg,
        /// Every proof must have this many siblings (a padded tree's depth,
        /// 1 to 64): a shorter proof cannot pass an inner node off as a leaf.
        #[arg(long, value_parser = crate::limits::in_range::<1, 64>)]
        depth: Option<usize>,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Ethereum Merkle-Patricia trie proofs (eth_getProof's accountProof and storageProof, transaction and receipt proofs): in {"root","key","value","proof":[nodes]} (hex: the trie's root, the key as the trie's path, the value the leaf holds, absent or null for a proof of absence, the RLP nodes root first; "index": i, a number, instead of the key in a block's transactions, receipts or withdrawals trie), out {"valid":bool[,"reason"]}.
    #[command(name = "mpt-proof")]
    MptProof {
        /// The keys are hashed with Keccak-256 first, as the state trie
        /// (an address's 20 bytes) and storage tries (a slot's 32 bytes)
        /// hash them.
        #[arg(long)]
        secure: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// eth_getProof answers (EIP-1186), each checked whole: in the answer's object with the block's "stateRoot" added ({"stateRoot","address","nonce","balance","codeHash","storageHash","accountProof":[..],"storageProof":[{"key","value","proof"}]}), out {"valid":bool[,"reason","proof"]}, "proof" naming the first proof that failed ("accountProof" or "storageProof[i]").
    #[command(name = "eth-proof")]
    EthProof {
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Whole Ethereum blocks (debug_getRawBlock's bytes) checked against their own headers: in {"block":"<hex>"}, out {"valid":bool,"number","hash"[,"reason","field"]}, "field" naming the first of ommersHash, transactionsRoot, withdrawalsRoot the body does not match; "hash" the header's Keccak-256, to hold to the chain.
    Block {
        /// Also recover each valid block's transactions' senders (EIP-2's low s): out "senders":["0x<20>",..] in the body's order, or "valid":false with the first transaction's "reason" and its index as "transaction".
        #[arg(long)]
        senders: bool,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Whole Bitcoin blocks (getblock's hex at verbosity 0) checked against their own headers as Bitcoin Core checks them: in {"block":"<hex>"}, out {"valid":bool,"hash","height"[,"reason","field"]}: high_hash (proof of work), root_mismatch ("field": merkleRoot or witnessCommitment), duplicate_transactions (CVE-2012-2459), bad_witness_nonce_size, unexpected_witness, or malformed_block; "hash" as Bitcoin shows it and "height" as the coinbase states it (BIP-34; null where none), to hold to the chain.
    #[command(name = "bitcoin-block")]
    BitcoinBlock {
        /// The consensus parameters: main, test (testnet3), testnet4, signet or regtest (the proof-of-work limit, the segwit height).
        #[arg(long, default_value = "main")]
        network: Network,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// Solana transactions (wire format: legacy, v0, v1), every signature over the message under one Ed25519 policy: in {"tx":"<hex>"}, out {"valid":bool[,"reason"]}: malformed_transaction, sanitize_failure, or the first failing signature's Ed25519 reason.
    #[command(name = "solana-tx")]
    SolanaTx {
        /// strict = Solana's rule today (verify_strict); zip215 = SIMD-0376's (ed25519-zebra).
        #[arg(long, default_value = "strict")]
        policy: Policy,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
    /// SLH-DSA (FIPS 205, pure) in one of the twelve sets: in {"pk","msg","sig"[,"ctx"]}, out {"valid":bool[,"reason"]}.
    #[command(name = "slh-dsa")]
    SlhDsa {
        /// Parameter set: sha2-128s, sha2-128f, sha2-192s, sha2-192f,
        /// sha2-256s, sha2-256f, or the same with shake (FIPS 205's names,
        /// with or without the `slh-dsa-` prefix, in any case).
        #[arg(long, value_parser = parse_slhdsa_set)]
        set: slhdsa::Set,
        #[command(flatten)]
        engine: crate::EngineArgs,
        #[command(flatten)]
        io: Io,
    },
}

/// An SLH-DSA parameter set by name (`sha2-128s` or
/// `SLH-DSA-SHA2-128s`).
pub fn parse_slhdsa_set(s: &str) -> Result<slhdsa::Set, String> {
    slhdsa::Set::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = slhdsa::Set::ALL.iter().map(|set| set.short_name()).collect();
        format!("unknown SLH-DSA set {s:?}; one of {}", names.join(", "))
    })
}

/// A Groth16 verifying key given on the command line, decoded once: a
/// service's requests naming the same key share it (the library's
/// `from_bytes_cached`).
#[derive(Clone)]
pub struct Key<K>(Arc<K>);

/// A key over BN254.
pub type Groth16Key = Key<VerifyingKey>;
/// A key over BLS12-381.
pub type Bls12Key = Key<bls12_381::VerifyingKey>;

/// A key from its EIP-197 bytes in hex (whitespace ignored, `0x` allowed).
pub fn parse_key_hex(text: &str) -> Result<Groth16Key, String> {
    VerifyingKey::from_bytes_cached(&key_hex(text)?)
        .map(Key)
        .map_err(|e| e.to_string())
}

/// A key file's bytes, at most 4 MiB.
fn read_key_file(path: &str) -> Result<Vec<u8>, String> {
    // A key of the most inputs is under 200 KiB as hex, snarkjs's JSON a
    // few times that: a larger file is not a key.
    const MAX_KEY_FILE: u64 = 4 << 20;
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_KEY_FILE + 1), &mut bytes)
        .map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() as u64 > MAX_KEY_FILE {
        return Err(format!("{path}: over {MAX_KEY_FILE} bytes: not a verifying key"));
    }
    Ok(bytes)
}

/// Hex digits as bytes (whitespace ignored, `0x` allowed).
fn key_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let digits = digits.strip_prefix("0x").unwrap_or(&digits);
    hex::decode(digits).map_err(|e| format!("the key is not hex: {e}"))
}

/// A key from a file: snarkjs's `verification_key.json`, or the key's
/// EIP-197 bytes in hex.
pub fn parse_key_file(path: &str) -> Result<Groth16Key, String> {
    let text = String::from_utf8(read_key_file(path)?).map_err(|_| format!("{path}: neither JSON nor hex"))?;
    let bytes = if text.trim_start().starts_with('{') {
        groth16::snarkjs::verifying_key(&text).map_err(|e| format!("{path}: {e}"))?
    } else {
        key_hex(&text).map_err(|e| format!("{path}: {e}"))?
    };
    VerifyingKey::from_bytes_cached(&bytes)
        .map(Key)
        .map_err(|e| format!("{path}: {e}"))
}

/// A BLS12-381 key from its bytes in hex, either form.
pub fn parse_bls12_key_hex(text: &str) -> Result<Bls12Key, String> {
    bls12_381::VerifyingKey::from_bytes_cached(&key_hex(text)?)
        .map(Key)
        .map_err(|e| e.to_string())
}

/// A BLS12-381 key from a file: snarkjs's `verification_key.json`, the
/// key's bytes in hex, or the raw bytes (bellman's `.vk` files).
pub fn parse_bls12_key_file(path: &str) -> Result<Bls12Key, String> {
    let bytes = read_key_file(path)?;
    let text = std::str::from_utf8(&bytes).ok().map(str::trim);
    let key = match text {
        Some(t) if t.starts_with('{') => bls12_381::snarkjs::verifying_key(t).map_err(|e| format!("{path}: {e}"))?,
        Some(t)
            if !t.is_empty()
                && t.chars()
                    .all(|c| c.is_ascii_hexdigit() || c.is_whitespace() || c == 'x') =>
        {
            key_hex(t).map_err(|e| format!("{path}: {e}"))?
        }
        _ => bytes,
    };
    bls12_381::VerifyingKey::from_bytes_cached(&key)
        .map(Key)
        .map_err(|e| format!("{path}: {e}"))
}

pub fn job(verify: Verify) -> LineJob {
    match verify {
        Verify::Ed25519 { policy, engine, io } => LineJob::new(
            VerdictVerb::<SignedFormat<32, 64>>::new(move |e, b| e.verify_ed25519(b, policy)),
            format!("verify ed25519 --policy {policy}"),
            engine,
            io,
        ),
        Verify::Bls { batch, engine, io } => {
            let mode = if batch { bls::Mode::Batch } else { bls::Mode::Single };
            LineJob::new(
                VerdictVerb::<SignedFormat<{ bls::PK_LEN }, { bls::SIG_LEN }>>::new(move |e, b| e.verify_bls(b, mode)),
                if batch { "verify bls --batch" } else { "verify bls" },
                engine,
                io,
            )
        }
        Verify::Secp256k1 {
            low_s,
            der: false,
            engine,
            io,
        } => LineJob::new(
            VerdictVerb::<K1Format>::new(move |e, b| e.verify_secp256k1(b, low_s)),
            if low_s {
                "verify secp256k1 --low-s"
            } else {
                "verify secp256k1"
            },
            engine,
            io,
        ),
        Verify::Secp256k1 {
            low_s,
            der: true,
            engine,
            io,
        } => LineJob::new(
            VerdictVerb::<K1DerFormat>::new(move |e, b| e.verify_secp256k1_read(b, low_s)),
            if low_s {
                "verify secp256k1 --der --low-s"
            } else {
                "verify secp256k1 --der"
            },
            engine,
            io,
        ),
        Verify::P256 { der: false, engine, io } => LineJob::new(
            VerdictVerb::<P256Format>::new(|e, b| e.verify_p256(b)),
            "verify p256",
            engine,
            io,
        ),
        Verify::P256 { der: true, engine, io } => LineJob::new(
            VerdictVerb::<P256DerFormat>::new(|e, b| e.verify_p256_read(b)),
            "verify p256 --der",
            engine,
            io,
        ),
        Verify::Bip340 { engine, io } => LineJob::new(
            VerdictVerb::<SignedFormat<{ bip340::PK_LEN }, { bip340::SIG_LEN }>>::new(|e, b| e.verify_bip340(b)),
            "verify bip340",
            engine,
            io,
        ),
        Verify::Sr25519 { context, engine, io } => {
            // The context's bytes as given, quoted as JSON so that the title
            // (the service's batching key) tells contexts apart.
            let title = format!(
                "verify sr25519 --context {}",
                serde_json::to_string(&context).unwrap_or_default()
            );
            LineJob::new(
                VerdictVerb::<SignedFormat<{ sr25519::PK_LEN }, { sr25519::SIG_LEN }>>::new(move |e, b| {
                    e.verify_sr25519(b, context.as_bytes())
                }),
                title,
                engine,
                io,
            )
        }
        Verify::BlsAggregate { engine, io } => LineJob::new(
            VerdictVerb::<AggregateFormat>::new(|e, b| e.bls_aggregate_verify(b)),
            "verify bls-aggregate",
            engine,
            io,
        ),
        Verify::BlsFastAggregate { engine, io } => LineJob::new(
            VerdictVerb::<FastAggregateFormat>::new(|e, b| e.bls_fast_aggregate_verify(b)),
            "verify bls-fast-aggregate",
            engine,
            io,
        ),
        Verify::KzgCell { engine, io } => LineJob::new(
            VerdictVerb::<CellFormat>::new(|e, b| e.verify_kzg_cells(b)),
            "verify kzg-cell",
            engine,
            io,
        ),
        Verify::MlDsa44 { engine, io } => mldsa_job(mldsa::Level::Mldsa44, engine, io),
        Verify::MlDsa65 { engine, io } => mldsa_job(mldsa::Level::Mldsa65, engine, io),
        Verify::MlDsa87 { engine, io } => mldsa_job(mldsa::Level::Mldsa87, engine, io),
        Verify::Groth16 { vk, vk_hex, engine, io } => {
            // clap requires one of the two.
            let Some(Key(key)) = vk.or(vk_hex) else {
                unreachable!("--vk or --vk-hex is required")
            };
            // The title is the service's batching key: the key's bytes, by
            // their SHA-256.
            let digest = batchcrypto::ops::hash::oracle::digest(batchcrypto::ops::hash::Alg::Sha256, &key.to_bytes());
            LineJob::new(
                VerdictVerb::<Groth16Format>::new(move |e, b| e.verify_groth16(&key, b)),
                format!("verify groth16 (key sha256 {})", hex::encode(digest)),
                engine,
                io,
            )
        }
        Verify::Groth16Bls12381 { vk, vk_hex, engine, io } => {
            // clap requires one of the two.
            let Some(Key(key)) = vk.or(vk_hex) else {
                unreachable!("--vk or --vk-hex is required")
            };
            // The title is the service's batching key: the key's compressed
            // form, by its SHA-256.
            let digest = batchcrypto::ops::hash::oracle::digest(batchcrypto::ops::hash::Alg::Sha256, &key.to_bytes());
            LineJob::new(
                VerdictVerb::<Groth16Bls12Format>::new(move |e, b| e.verify_groth16_bls12_381(&key, b)),
                format!("verify groth16-bls12-381 (key sha256 {})", hex::encode(digest)),
                engine,
                io,
            )
        }
        Verify::MerkleProof {
            rule,
            depth,
            engine,
            io,
        } => {
            // The depth fits u32 (at most 64, by its parser).
            let (rule, depth) = (rule.rule(), depth.map(|d| d as u32));
            let mut title = format!("verify merkle-proof {}", crate::merkle::rule_option(rule));
            if let Some(d) = depth {
                title.push_str(&format!(" --depth {d}"));
            }
            let run = move |e: &Engine, b: &FlatBytes| e.verify_merkle_proofs(rule, depth, b);
            if rule == merkle::Rule::SortedKeccak256 {
                LineJob::new(VerdictVerb::<MerkleProofFormat<false>>::new(run), title, engine, io)
            } else {
                LineJob::new(VerdictVerb::<MerkleProofFormat<true>>::new(run), title, engine, io)
            }
        }
        Verify::MptProof { secure, engine, io } => {
            let run = |e: &Engine, b: &FlatBytes| e.verify_mpt_proofs(b);
            if secure {
                LineJob::new(
                    VerdictVerb::<MptProofFormat<true>>::new(run),
                    "verify mpt-proof --secure",
                    engine,
                    io,
                )
            } else {
                LineJob::new(
                    VerdictVerb::<MptProofFormat<false>>::new(run),
                    "verify mpt-proof",
                    engine,
                    io,
                )
            }
        }
        Verify::EthProof { engine, io } => LineJob::new(EthProofVerb, "verify eth-proof", engine, io),
        Verify::Block { senders, engine, io } => crate::block::job(engine, io, senders),
        Verify::BitcoinBlock { network, engine, io } => crate::bitcoin_block::job(engine, io, network),
        Verify::SolanaTx { policy, engine, io } => LineJob::new(
            VerdictVerb::<SolanaTxFormat>::new(move |e, b| e.verify_solana_txs(b, policy)),
            format!("verify solana-tx --policy {policy}"),
            engine,
            io,
        ),
        Verify::SlhDsa { set, engine, io } => LineJob::new(
            VerdictVerb::<ContextFormat>::new(move |e, b| e.verify_slhdsa(set, b)),
            format!("verify slh-dsa --set {}", set.short_name()),
            engine,
            io,
        ),
    }
}

fn mldsa_job(level: mldsa::Level, engine: crate::EngineArgs, io: Io) -> LineJob {
    LineJob::new(
        VerdictVerb::<ContextFormat>::new(move |e, b| e.verify_mldsa(level, b)),
        format!("verify {level}"),
        engine,
        io,
    )
}

/// How one `verify` verb reads its lines: what differs between them (the
/// CLI line format); the rest is [`VerdictVerb`].
trait LineFormat: Send + 'static {
    /// The batch the engine takes.
    type Batch: Send + Default + 'static;
    /// Parses one line and appends its item to `batch`.
    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String>;
    /// Bytes `batch` holds (for chunking).
    fn batch_bytes(batch: &Self::Batch) -> usize;
}

type RunVerdicts<B> = Box<dyn Fn(&Engine, &B) -> Result<Outcome<Vec<Verdict>>, Error> + Send + Sync>;

/// A verb with one verdict per line (`{"valid":..}`), items read by `F`.
struct VerdictVerb<F: LineFormat> {
    run: RunVerdicts<F::Batch>,
}

impl<F: LineFormat> VerdictVerb<F> {
    fn new(run: impl Fn(&Engine, &F::Batch) -> Result<Outcome<Vec<Verdict>>, Error> + Send + Sync + 'static) -> Self {
        VerdictVerb { run: Box::new(run) }
    }
}

impl<F: LineFormat> LineVerb for VerdictVerb<F> {
    type Batch = F::Batch;
    type Out = Verdict;
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        F::parse(line, batch, scratch)
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        F::batch_bytes(batch)
    }

    fn run(&self, engine: &Engine, batch: &Self::Batch) -> Result<(Vec<Verdict>, Selection), Fatal> {
        let outcome = (self.run)(engine, batch)?;
        Ok((outcome.output, outcome.selection))
    }

    fn write(out: &Verdict, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        write_verdict(out, w)
    }
}

/// `{"pk","sig","msg"}` with keys of `PK` and signatures of `SIG` bytes
/// (Ed25519, BLS, BIP-340).
struct SignedFormat<const PK: usize, const SIG: usize>;

#[derive(serde::Deserialize)]
struct SignedLine<'a> {
    #[serde(borrow, default)]
    pk: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
    #[serde(borrow, default)]
    msg: Field<'a>,
}

impl<const PK: usize, const SIG: usize> LineFormat for SignedFormat<PK, SIG> {
    type Batch = SignedBatch<PK, SIG>;

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
}

#[derive(serde::Deserialize)]
struct ContextLine<'a> {
    #[serde(borrow, default)]
    pk: Field<'a>,
    #[serde(borrow, default)]
    msg: Field<'a>,
    #[serde(borrow, default)]
    sig: Field<'a>,
    #[serde(borrow, default)]
    ctx: Field<'a>,
}

/// `{"pk","msg","sig"}` and an optional `"ctx"` (ML-DSA, SLH-DSA):
/// fields of any length, since a wrong key or signature length is the
/// item's reason.
struct ContextFormat;

impl LineFormat for ContextFormat {
    type Batch = mldsa::Batch;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: ContextLine = parse_object(line)?;
        let (mut pk, mut sig, mut ctx) = (Vec::new(), Vec::new(), Vec::new());
        hex_into("pk", &item.pk, &mut pk)?;
        hex_into("msg", &item.msg, scratch)?;
        hex_into("sig", &item.sig, &mut sig)?;
        if !matches!(item.ctx, Field::Missing) {
            hex_into("ctx", &item.ctx, &mut ctx)?;
        }
        batch.push(&pk, scratch, &sig, &ctx).map_err(|e| e.to_string())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.bytes()
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

/// `{"pks":[..],"msgs":[..],"sig"}`.
struct AggregateFormat;

impl LineFormat for AggregateFormat {
    type Batch = Vec<AggregateItem>;

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
}

/// `{"pks":[..],"msg","sig"}`.
struct FastAggregateFormat;

impl LineFormat for FastAggregateFormat {
    type Batch = Vec<FastAggregateItem>;

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

/// `{"hash","sig","pk"}` (secp256k1).
struct K1Format;

impl LineFormat for K1Format {
    type Batch = Vec<K1VerifyItem>;

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
}

/// `{"hash","sig","pk"}` (secp256k1), the signature in DER: one that is
/// not strict DER is the item's verdict, not a malformed line.
struct K1DerFormat;

impl LineFormat for K1DerFormat {
    type Batch = Vec<Result<K1VerifyItem, Reason>>;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: EcdsaLine = parse_object(line)?;
        let hash = hex_fixed::<32>("hash", &item.hash)?;
        hex_into("pk", &item.pk, scratch)?;
        let pk = K1Key::from_slice(scratch)
            .ok_or_else(|| format!("field \"pk\": expected 33 or 65 bytes, got {} bytes", scratch.len()))?;
        hex_into("sig", &item.sig, scratch)?;
        batch.push(K1VerifyItem::from_der(hash, scratch, pk));
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * std::mem::size_of::<Result<K1VerifyItem, Reason>>()
    }
}

/// `{"hash","sig","x","y"}` (P-256, RIP-7212), the signature in DER: one
/// that is not strict DER is the item's verdict, not a malformed line.
struct P256DerFormat;

impl LineFormat for P256DerFormat {
    type Batch = Vec<Result<P256Item, Reason>>;

    fn parse(line: &str, batch: &mut Self::Batch, scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: EcdsaLine = parse_object(line)?;
        let hash = hex_fixed::<32>("hash", &item.hash)?;
        let (x, y) = (hex_fixed::<32>("x", &item.x)?, hex_fixed::<32>("y", &item.y)?);
        hex_into("sig", &item.sig, scratch)?;
        batch.push(P256Item::from_der(hash, scratch, x, y));
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * std::mem::size_of::<Result<P256Item, Reason>>()
    }
}

/// `{"hash","r","s","x","y"}` (P-256, RIP-7212).
struct P256Format;

impl LineFormat for P256Format {
    type Batch = Vec<P256Item>;

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
}

#[derive(serde::Deserialize)]
struct CellLine<'a> {
    #[serde(borrow, default)]
    commitment: Field<'a>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    cell: Field<'a>,
    #[serde(borrow, default)]
    proof: Field<'a>,
}

/// `{"commitment","index","cell","proof"}` (EIP-7594 cells): the index a
/// JSON number (any u64: one past 127 is the item's
/// `cell_index_out_of_range`, not a line error).
struct CellFormat;

impl LineFormat for CellFormat {
    type Batch = Vec<CellItem>;

    fn parse(line: &str, batch: &mut Self::Batch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let item: CellLine = parse_object(line)?;
        batch.push(CellItem {
            commitment: hex_fixed::<{ kzg::POINT_LEN }>("commitment", &item.commitment)?,
            index: item.index.ok_or("field \"index\": missing (a number, 0 to 127)")?,
            cell: Box::new(hex_fixed::<{ kzg::CELL_LEN }>("cell", &item.cell)?),
            proof: hex_fixed::<{ kzg::POINT_LEN }>("proof", &item.proof)?,
        });
        Ok(())
    }

    fn batch_bytes(batch: &Self::Batch) -> usize {
        batch.len() * (std::mem::size_of::<CellItem>() + kzg::CELL_LEN)
    }
}

#[derive(serde::Deserialize)]
struct Groth16Line {
    #[serde(default)]
    proof: Option<serde_json::Value>,
    #[serde(default)]
    public: Option<serde_json::Value>,
}

/// `{"proof","public"}` (Groth16): the proof as snarkjs writes it or as
/// 256 bytes of hex; the public inputs as numbers (decimal or `0x`
/// strings) up to 2^256 - 1, as many as given: a count the key does not
/// take is the item's `wrong_input_length`, one not below r its
/// `non_canonical_element`.
struct Groth16Format;

impl LineFormat for Groth16Format {
    type Batch = FlatBytes;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        groth16_line::<{ groth16::PROOF_LEN }>(
            line,
            batch,
            scratch,
            |v| groth16::snarkjs::proof(v).map(|p| p.to_vec()),
            groth16::snarkjs::public_inputs,
        )
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }
}

/// `{"tx"}`: a Solana transaction's wire bytes in hex (what
/// `getTransaction` gives in base64). Bytes that are no transaction are
/// the item's `malformed_transaction`, not a malformed line.
struct SolanaTxFormat;

impl LineFormat for SolanaTxFormat {
    type Batch = FlatBytes;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        crate::tx_sender::parse_tx(line, batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }
}

/// `{"proof","public"}` (Groth16 over BLS12-381): the proof as 192 bytes
/// of hex (A ‖ B ‖ C compressed) or as snarkjs writes it; the public
/// inputs as numbers up to 2^256 - 1, written little-endian.
struct Groth16Bls12Format;

impl LineFormat for Groth16Bls12Format {
    type Batch = FlatBytes;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        groth16_line::<{ bls12_381::PROOF_LEN }>(
            line,
            batch,
            scratch,
            |v| bls12_381::snarkjs::proof(v).map(|p| p.to_vec()),
            bls12_381::snarkjs::public_inputs,
        )
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }
}

/// A Groth16 line as an item pushed onto `batch`: the proof as `N` bytes
/// of hex or a snarkjs object (`proof`), then the public inputs
/// (`public`).
fn groth16_line<const N: usize>(
    line: &str,
    batch: &mut FlatBytes,
    scratch: &mut Vec<u8>,
    proof: fn(&serde_json::Value) -> Result<Vec<u8>, Error>,
    public: fn(&serde_json::Value) -> Result<Vec<u8>, Error>,
) -> Result<(), String> {
    let l: Groth16Line = parse_object(line)?;
    let proof_value = l
        .proof
        .ok_or_else(|| format!("missing field \"proof\" (snarkjs's proof object, or {N} bytes of hex)"))?;
    let public_value = l
        .public
        .ok_or("missing field \"public\" (an array of numbers, snarkjs's public.json)")?;
    scratch.clear();
    match &proof_value {
        serde_json::Value::String(s) => scratch.extend(hex_fixed::<N>("proof", &Field::Str(s.as_str().into()))?),
        _ => scratch.extend(proof(&proof_value).map_err(|e| e.to_string())?),
    }
    scratch.extend(public(&public_value).map_err(|e| e.to_string())?);
    push_item(batch, scratch)
}

#[derive(serde::Deserialize)]
struct MerkleProofLine<'a> {
    #[serde(borrow, default)]
    root: Field<'a>,
    #[serde(borrow, default)]
    leaf: Field<'a>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    proof: Option<Vec<Field<'a>>>,
}

/// `{"root","leaf","index","proof"}` (Merkle inclusion proofs): nodes of
/// 32 bytes in hex, the siblings bottom up; the index a JSON number, the
/// path's sides as bits (`INDEX`: required; under sorted-keccak256, where
/// it does not enter, 0 when absent). More siblings than 64 or an index
/// past the path are the item's reasons, not the line's error.
struct MerkleProofFormat<const INDEX: bool>;

impl<const INDEX: bool> LineFormat for MerkleProofFormat<INDEX> {
    type Batch = FlatBytes;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: MerkleProofLine = parse_object(line)?;
        let root = hex_fixed::<32>("root", &l.root)?;
        let leaf = hex_fixed::<32>("leaf", &l.leaf)?;
        let index = match l.index {
            Some(i) => i,
            None if !INDEX => 0,
            None => {
                return Err("missing field \"index\" (a number: the sides of the leaf's path as bits, its position in a Bitcoin or padded tree)".to_string());
            }
        };
        let siblings = l
            .proof
            .ok_or("missing field \"proof\" (an array of the siblings, 32 bytes hex each, bottom up)")?
            .iter()
            .enumerate()
            .map(|(k, s)| hex_fixed::<32>(&format!("proof[{k}]"), s))
            .collect::<Result<Vec<_>, String>>()?;
        scratch.clear();
        scratch.extend(proof::encode(&root, &leaf, index, &siblings));
        push_item(batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }
}

#[derive(serde::Deserialize)]
struct MptProofLine<'a> {
    #[serde(borrow, default)]
    root: Field<'a>,
    #[serde(borrow, default)]
    key: Field<'a>,
    #[serde(default)]
    index: Option<u64>,
    #[serde(borrow, default)]
    value: Field<'a>,
    #[serde(borrow, default)]
    proof: Option<Vec<Field<'a>>>,
}

/// `{"root","key","value","proof"}` (trie proofs): hex, the value absent
/// or null for a proof of absence, the nodes root first; `"index": i` (a
/// number) instead of the key in a block's transactions, receipts or
/// withdrawals trie (the key `RLP(i)`); `SECURE`: the key hashed with
/// Keccak-256 first. A key over 32 bytes (unhashed) or more
/// than 128 nodes are the item's `wrong_input_length`, not the line's
/// error.
struct MptProofFormat<const SECURE: bool>;

impl<const SECURE: bool> LineFormat for MptProofFormat<SECURE> {
    type Batch = FlatBytes;

    fn parse(line: &str, batch: &mut FlatBytes, scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: MptProofLine = parse_object(line)?;
        let root = hex_fixed::<32>("root", &l.root)?;
        let mut key = Vec::new();
        match (&l.key, l.index) {
            (Field::Missing, Some(index)) => key = mpt::eth::index_key(index),
            (_, None) => hex_into("key", &l.key, &mut key)?,
            (_, Some(_)) => return Err("fields \"key\" and \"index\": give one, not both".to_string()),
        }
        if SECURE {
            key = batchcrypto::ops::hash::oracle::digest(batchcrypto::ops::hash::Alg::Keccak256, &key).to_vec();
        }
        let value = match &l.value {
            Field::Missing | Field::Null => None,
            v => {
                let mut bytes = Vec::new();
                hex_into("value", v, &mut bytes)?;
                Some(bytes)
            }
        };
        let nodes = hex_nodes("proof", l.proof.as_deref())?;
        let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
        scratch.clear();
        // A part the layout cannot hold: an empty item, which reads as
        // wrong_input_length.
        if let Some(item) = mpt::encode(&root, &key, value.as_deref(), &nodes) {
            scratch.extend(item);
        }
        push_item(batch, scratch)
    }

    fn batch_bytes(batch: &FlatBytes) -> usize {
        batch.bytes().len()
    }
}

/// An eth_getProof line's storage proof.
#[derive(serde::Deserialize)]
struct StorageProofLine<'a> {
    #[serde(borrow, default)]
    key: Field<'a>,
    #[serde(borrow, default)]
    value: Field<'a>,
    #[serde(borrow, default)]
    proof: Option<Vec<Field<'a>>>,
}

/// An eth_getProof answer with the block's state root.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct EthProofLine<'a> {
    #[serde(borrow, default)]
    state_root: Field<'a>,
    #[serde(borrow, default)]
    address: Field<'a>,
    #[serde(borrow, default)]
    nonce: Field<'a>,
    #[serde(borrow, default)]
    balance: Field<'a>,
    #[serde(borrow, default)]
    code_hash: Field<'a>,
    #[serde(borrow, default)]
    storage_hash: Field<'a>,
    #[serde(borrow, default)]
    account_proof: Option<Vec<Field<'a>>>,
    #[serde(borrow, default)]
    storage_proof: Option<Vec<StorageProofLine<'a>>>,
}

/// A field's array of hex nodes.
fn hex_nodes(name: &str, nodes: Option<&[Field<'_>]>) -> Result<Vec<Vec<u8>>, String> {
    nodes
        .ok_or_else(|| format!("missing field \"{name}\" (an array of RLP nodes in hex, root first)"))?
        .iter()
        .enumerate()
        .map(|(k, n)| {
            let mut node = Vec::new();
            hex_into(&format!("{name}[{k}]"), n, &mut node).map(|()| node)
        })
        .collect()
}

/// The items of eth_getProof lines and how many each line has.
#[derive(Default)]
struct EthProofBatch {
    items: FlatBytes,
    per_line: Vec<usize>,
}

/// `verify eth-proof`: per line its account's proof and its storage
/// proofs as items (`mpt::eth`), one verdict per line, the first failing
/// proof's reason and name.
struct EthProofVerb;

impl EthProofVerb {
    /// Appends `item` (an empty one, `wrong_input_length`, where the proof
    /// has more nodes than an item holds).
    fn push(batch: &mut FlatBytes, item: Option<Vec<u8>>) -> Result<(), String> {
        push_item(batch, &item.unwrap_or_default())
    }
}

impl LineVerb for EthProofVerb {
    type Batch = EthProofBatch;
    type Out = (Verdict, Option<usize>);
    const OK_LABEL: &'static str = "valid";
    const HAS_INVALID: bool = true;

    fn parse(line: &str, batch: &mut EthProofBatch, _scratch: &mut Vec<u8>) -> Result<(), String> {
        let l: EthProofLine = parse_object(line)?;
        let state_root = hex_fixed::<32>("stateRoot", &l.state_root)?;
        let address = hex_fixed::<20>("address", &l.address)?;
        let nonce = word("nonce", &l.nonce)?;
        let (high, low) = nonce.split_at(24);
        if high.iter().any(|&b| b != 0) {
            return Err("field \"nonce\": over 64 bits".to_string());
        }
        let account = mpt::eth::Account {
            nonce: low.iter().fold(0, |n, &b| n << 8 | u64::from(b)),
            balance: word("balance", &l.balance)?,
            storage_root: hex_fixed::<32>("storageHash", &l.storage_hash)?,
            code_hash: hex_fixed::<32>("codeHash", &l.code_hash)?,
        };
        let account_nodes = hex_nodes("accountProof", l.account_proof.as_deref())?;
        let mut storage = Vec::new();
        for (i, s) in l.storage_proof.unwrap_or_default().iter().enumerate() {
            let slot = word(&format!("storageProof[{i}].key"), &s.key)?;
            let value = word(&format!("storageProof[{i}].value"), &s.value)?;
            let nodes = hex_nodes(&format!("storageProof[{i}].proof"), s.proof.as_deref())?;
            storage.push((slot, value, nodes));
        }
        // Parsed whole before any item is pushed: a malformed line adds none.
        let before = batch.items.len();
        let nodes: Vec<&[u8]> = account_nodes.iter().map(Vec::as_slice).collect();
        let pushed = Self::push(
            &mut batch.items,
            mpt::eth::account_item(&state_root, &address, &account, &nodes),
        )
        .and_then(|()| {
            storage.iter().try_for_each(|(slot, value, nodes)| {
                let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
                Self::push(
                    &mut batch.items,
                    mpt::eth::storage_item(&account.storage_root, slot, value, &nodes),
                )
            })
        });
        if let Err(e) = pushed {
            batch.items.truncate(before);
            return Err(e);
        }
        batch.per_line.push(1 + storage.len());
        Ok(())
    }

    fn batch_bytes(batch: &EthProofBatch) -> usize {
        batch.items.bytes().len()
    }

    fn run(&self, engine: &Engine, batch: &EthProofBatch) -> Result<(Vec<Self::Out>, Selection), Fatal> {
        let outcome = engine.verify_mpt_proofs(&batch.items)?;
        let mut verdicts = outcome.output.into_iter();
        let lines = batch
            .per_line
            .iter()
            .map(|&n| {
                // The line's verdicts, all taken; the first that failed: its
                // reason and place.
                let line: Vec<Verdict> = verdicts.by_ref().take(n).collect();
                let failed = line.iter().enumerate().find_map(|(k, v)| v.reason().map(|r| (r, k)));
                match failed {
                    None => (Verdict::Valid, None),
                    Some((r, k)) => (Verdict::Invalid(r), Some(k)),
                }
            })
            .collect();
        Ok((lines, outcome.selection))
    }

    fn write((verdict, proof): &Self::Out, w: &mut dyn std::io::Write) -> std::io::Result<bool> {
        match (verdict.reason(), proof) {
            (Some(r), Some(0)) => writeln!(
                w,
                "{{\"valid\":false,\"reason\":\"{}\",\"proof\":\"accountProof\"}}",
                r.code()
            )?,
            (Some(r), Some(k)) => writeln!(
                w,
                "{{\"valid\":false,\"reason\":\"{}\",\"proof\":\"storageProof[{}]\"}}",
                r.code(),
                k - 1
            )?,
            _ => return write_verdict(verdict, w),
        }
        Ok(false)
    }
}

#[cfg(test)]
mod key_cache {
    use super::*;

    /// A key named again (as a service's requests name it) is the one
    /// decoded before, on either curve; another key is decoded afresh; a
    /// refusal is not kept.
    #[test]
    fn keys_named_again_are_decoded_once() {
        let bn254 = |seed| hex::encode(groth16::sample::Trapdoor::new(2, seed).key());
        let (a, b) = (bn254(9001), bn254(9002));
        let first = parse_key_hex(&a).expect("a key");
        assert!(Arc::ptr_eq(
            &first.0,
            &parse_key_hex(&format!("0x{a}")).expect("a key").0
        ));
        assert!(!Arc::ptr_eq(&first.0, &parse_key_hex(&b).expect("a key").0));
        let bls = hex::encode(bls12_381::sample::Trapdoor::new(1, 9003).key());
        let first = parse_bls12_key_hex(&bls).expect("a key");
        assert!(Arc::ptr_eq(&first.0, &parse_bls12_key_hex(&bls).expect("a key").0));
        assert!(parse_bls12_key_hex(&bls[..bls.len() - 2]).is_err());
        assert!(parse_bls12_key_hex(&bls[..bls.len() - 2]).is_err());
    }
}
