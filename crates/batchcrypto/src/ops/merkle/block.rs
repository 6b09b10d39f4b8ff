//! Whole Bitcoin blocks (the P2P `block` message's payload, `getblock`'s
//! hex at verbosity 0) checked against their own headers, under Bitcoin
//! Core's rules for what a header commits to:
//!
//! 1. **Proof of work** (`CheckProofOfWork`): the header's `nBits` read as
//!    Core's `SetCompact` reads it must be neither negative, zero, past
//!    256 bits nor above the network's `powLimit`, and the header's hash
//!    (double SHA-256 of its 80 bytes, a little-endian number) at most that
//!    target; otherwise `high_hash` (Core's `high-hash`).
//! 2. **Merkle root** (`BlockMerkleRoot`): the tree of the transactions'
//!    txids (double SHA-256 of each without its witness) under Bitcoin's
//!    rule (odd last node paired with itself, [`super::Rule::Bitcoin`])
//!    must give the header's `hashMerkleRoot`: otherwise `root_mismatch`
//!    with field `merkleRoot` (`bad-txnmrklroot`); a tree in which some
//!    level holds two equal nodes side by side (CVE-2012-2459: a block
//!    with its last transactions repeated has the same root) is
//!    `duplicate_transactions` (`bad-txns-duplicate`).
//! 3. **Witness commitment** (`CheckWitnessMalleation`), from the
//!    network's segwit height on: where the coinbase has an output whose
//!    script starts `6a24aa21a9ed` and is at least 38 bytes (the last such
//!    output), the coinbase's first input's witness must be one 32-byte item
//!    (`bad_witness_nonce_size`) and the output's next 32 bytes double
//!    SHA-256 of the wtxids' tree (the coinbase's as zero, BIP-141) and
//!    that item (`root_mismatch`, field `witnessCommitment`;
//!    `bad-witness-merkle-match`). Without such an output (or before the
//!    segwit height) no transaction may carry a witness
//!    (`unexpected_witness`).
//!
//! The height is the one the coinbase states (BIP-34: its script starts
//! with the height pushed as `CScript() << height` writes it), read in
//! blocks of version 2 and up; a block without one is taken as below the
//! segwit height (every block from BIP-34's height on has one), except on
//! regtest, where segwit is active from the genesis. The height is claimed
//! by the block: a caller that holds the chain checks it (and the hash
//! printed beside) against its own.
//!
//! Not checked (Core's `CheckBlock` and contextual checks beyond the
//! header's commitments): sizes and weight, the coinbase's place and form,
//! each transaction's own rules (`CheckTransaction`), signature operations,
//! the difficulty the chain requires at that height, time and finality,
//! and scripts.
//!
//! Bytes are read as Core's deserialisation reads them (`CompactSize`
//! canonical and at most 2^25, a transaction's segwit marker and flag
//! `00 01` with at least one non-empty witness, a `00` flag after an empty
//! input list meaning no outputs); a block that does not read, with bytes
//! left over, or with no transactions is `malformed_block`.
//!
//! [`verify`] checks many blocks at once: the blocks read on the engine's
//! threads; the headers, every transaction without its witness, and
//! (where the commitment is checked) every transaction with one, hashed
//! as batches of SHA-256 items on the engine (a pair of batches, the
//! digests the second, for each group of blocks of about 16 MiB of
//! transactions: the messages' buffer is reused, fresh memory's page
//! faults costing more than the copy), and each level of every block's
//! trees a pair of batches more; the CLI's `verify bitcoin-block`, Python's
//! `Engine.verify_bitcoin_blocks`.

use crate::backend::Selection;
use crate::batch::FlatBytes;
use crate::cores;
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::ops::hash::{Alg, Digest, oracle as hashes};
use crate::verdict::Reason;

/// Bitcoin networks, by the consensus parameters the checks use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Network {
    /// Mainnet.
    Main,
    /// Testnet3.
    Testnet3,
    /// Testnet4 (BIP-94).
    Testnet4,
    /// The default signet.
    Signet,
    /// Regtest.
    Regtest,
}

/// The `powLimit` of mainnet and both testnets (big-endian).
const POW_LIMIT_MAIN: [u8; 32] = limit(4, 0xff);

/// `[0; zeros] ‖ [fill; 32 - zeros]`.
const fn limit(zeros: usize, fill: u8) -> [u8; 32] {
    let mut out = [fill; 32];
    let mut i = 0;
    while i < zeros {
        out[i] = 0;
        i += 1;
    }
    out
}

impl Network {
    /// Every network.
    pub const ALL: [Network; 5] = [
        Network::Main,
        Network::Testnet3,
        Network::Testnet4,
        Network::Signet,
        Network::Regtest,
    ];

    /// The network's name as Bitcoin Core's `-chain` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Network::Main => "main",
            Network::Testnet3 => "test",
            Network::Testnet4 => "testnet4",
            Network::Signet => "signet",
            Network::Regtest => "regtest",
        }
    }

    /// The easiest target a header may state (`consensus.powLimit`),
    /// big-endian.
    pub fn pow_limit(self) -> [u8; 32] {
        match self {
            Network::Main | Network::Testnet3 | Network::Testnet4 => POW_LIMIT_MAIN,
            Network::Signet => {
                let mut l = [0u8; 32];
                l[2..5].copy_from_slice(&[0x03, 0x77, 0xae]);
                l
            }
            Network::Regtest => {
                let mut l = [0xff; 32];
                l[0] = 0x7f;
                l
            }
        }
    }

    /// The first height whose blocks' witness commitments are checked
    /// (`consensus.SegwitHeight`).
    pub fn segwit_height(self) -> u32 {
        match self {
            Network::Main => 481_824,
            Network::Testnet3 => 834_624,
            Network::Testnet4 | Network::Signet => 1,
            Network::Regtest => 0,
        }
    }
}

impl std::fmt::Display for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Network {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Network::ALL
            .into_iter()
            .find(|n| n.name() == s)
            .ok_or_else(|| format!("unknown network {s:?} (expected main, test, testnet4, signet or regtest)"))
    }
}

/// The start of a witness commitment's script: `OP_RETURN`, a 36-byte
/// push, and BIP-141's header `aa21a9ed`.
const COMMITMENT_HEAD: [u8; 6] = [0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed];
/// A script shorter than this holds no commitment (Core's
/// `MINIMUM_WITNESS_COMMITMENT`).
const COMMITMENT_MIN: usize = 38;
/// The largest `CompactSize` Core reads (`MAX_SIZE`).
const MAX_SIZE: u64 = 0x0200_0000;
/// A header's bytes.
pub const HEADER_BYTES: usize = 80;
/// The messages hashed in one pair of engine calls, about (a group of
/// blocks; see [`verify`]).
const GROUP_BYTES: usize = 16 << 20;

/// A transaction's bytes and where its witness is.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tx<'a> {
    /// The transaction as the block holds it.
    whole: &'a [u8],
    /// For a transaction with a witness, where its witnesses start
    /// (`whole[6..witness]` is its inputs and outputs).
    witness: Option<usize>,
}

impl Tx<'_> {
    /// The transaction without its witness (what its txid hashes), in
    /// parts: version, inputs and outputs, lock time.
    fn stripped(&self) -> [&[u8]; 3] {
        match self.witness {
            None => [self.whole, &[], &[]],
            Some(w) => {
                let n = self.whole.len();
                [&self.whole[..4], &self.whole[6..w], &self.whole[n - 4..]]
            }
        }
    }
}

/// What the coinbase says that the checks read.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Coinbase<'a> {
    /// Its first input's script.
    script_sig: Option<&'a [u8]>,
    /// Its first input's witness items.
    witness: Vec<&'a [u8]>,
    /// The 32 bytes of its last commitment output.
    commitment: Option<[u8; 32]>,
}

/// A block read (see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block<'a> {
    header: &'a [u8],
    txs: Vec<Tx<'a>>,
    coinbase: Coinbase<'a>,
}

/// Reads bytes as Bitcoin Core's streams do; every failure is
/// `malformed_block`.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

type Read<T> = Result<T, Reason>;

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Read<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.buf.len());
        let end = end.ok_or(Reason::MalformedBlock)?;
        let out = &self.buf[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn byte(&mut self) -> Read<u8> {
        Ok(self.take(1)?[0])
    }

    /// Core's `ReadCompactSize` with its range check: the shortest form
    /// of a number at most `MAX_SIZE`.
    fn compact(&mut self) -> Read<u64> {
        let (n, floor) = match self.byte()? {
            0xfd => (u64::from(u16::from_le_bytes(self.array()?)), 0xfd),
            0xfe => (u64::from(u32::from_le_bytes(self.array()?)), 0x1_0000),
            0xff => (u64::from_le_bytes(self.array()?), 0x1_0000_0000),
            b => (u64::from(b), 0),
        };
        if n < floor || n > MAX_SIZE {
            return Err(Reason::MalformedBlock);
        }
        Ok(n)
    }

    fn array<const N: usize>(&mut self) -> Read<[u8; N]> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    /// A length-prefixed byte string.
    fn bytes(&mut self) -> Read<&'a [u8]> {
        let n = self.compact()?;
        self.take(n as usize)
    }
}

/// One transaction's reading: the transaction, its first input's script,
/// its first input's witness items, its last commitment output's 32 bytes.
type TxRead<'a> = (Tx<'a>, Coinbase<'a>);

impl<'a> Reader<'a> {
    /// An input list: its length and its first input's script.
    fn inputs(&mut self) -> Read<(u64, Option<&'a [u8]>)> {
        let n = self.compact()?;
        let mut first = None;
        for i in 0..n {
            self.take(36)?;
            let script = self.bytes()?;
            self.take(4)?;
            if i == 0 {
                first = Some(script);
            }
        }
        Ok((n, first))
    }

    /// An output list: the 32 bytes of its last witness commitment.
    fn outputs(&mut self) -> Read<Option<[u8; 32]>> {
        let mut commitment = None;
        for _ in 0..self.compact()? {
            self.take(8)?;
            let script = self.bytes()?;
            if script.len() >= COMMITMENT_MIN && script[..6] == COMMITMENT_HEAD {
                commitment = Some(script[6..38].try_into().expect("32 bytes"));
            }
        }
        Ok(commitment)
    }

    /// The witnesses of `inputs` inputs: whether any has an item, and (in
    /// the coinbase, `keep`) the first input's items.
    fn witnesses(&mut self, inputs: u64, keep: bool) -> Read<(bool, Vec<&'a [u8]>)> {
        let (mut any, mut first) = (false, Vec::new());
        for i in 0..inputs {
            let items = self.compact()?;
            any |= items > 0;
            for _ in 0..items {
                let item = self.bytes()?;
                if keep && i == 0 {
                    first.push(item);
                }
            }
        }
        Ok((any, first))
    }

    /// A transaction as Core's `UnserializeTransaction` reads it with
    /// witnesses allowed; its first input's witness items kept for the
    /// coinbase (`coinbase`).
    fn tx(&mut self, coinbase: bool) -> Read<TxRead<'a>> {
        let start = self.at;
        self.take(4)?;
        let (mut inputs, mut script_sig) = self.inputs()?;
        let (mut flags, mut commitment) = (0u8, None);
        if inputs == 0 {
            // An empty input list, or the segwit marker: the flag byte
            // follows; after a 0 flag, no outputs are read.
            flags = self.byte()?;
            if flags != 0 {
                (inputs, script_sig) = self.inputs()?;
                commitment = self.outputs()?;
            }
        } else {
            commitment = self.outputs()?;
        }
        let (mut witness, mut items) = (None, Vec::new());
        if flags & 1 != 0 {
            flags ^= 1;
            witness = Some(self.at - start);
            let (any, first) = self.witnesses(inputs, coinbase)?;
            // "Superfluous witness record".
            if !any {
                return Err(Reason::MalformedBlock);
            }
            items = first;
        }
        // "Unknown transaction optional data".
        if flags != 0 {
            return Err(Reason::MalformedBlock);
        }
        self.take(4)?;
        let tx = Tx {
            whole: &self.buf[start..self.at],
            witness,
        };
        let coinbase = Coinbase {
            script_sig,
            witness: items,
            commitment,
        };
        Ok((tx, coinbase))
    }
}

/// A block read as Core reads it (see the module), or `malformed_block`.
fn read(bytes: &[u8]) -> Read<Block<'_>> {
    let mut r = Reader { buf: bytes, at: 0 };
    let header = r.take(HEADER_BYTES)?;
    let n = r.compact()?;
    if n == 0 {
        return Err(Reason::MalformedBlock);
    }
    // The smallest transaction is 10 bytes.
    let mut txs = Vec::with_capacity((n as usize).min(bytes.len() / 10));
    let mut coinbase = Coinbase::default();
    for i in 0..n {
        let (tx, said) = r.tx(i == 0)?;
        if i == 0 {
            coinbase = said;
        }
        txs.push(tx);
    }
    if r.at != bytes.len() {
        return Err(Reason::MalformedBlock);
    }
    Ok(Block { header, txs, coinbase })
}

/// A header's `nBits` as Core's `SetCompact` reads it: the target,
/// big-endian, or `None` where Core's `CheckProofOfWork` refuses it before
/// any hash (negative, zero, past 256 bits).
pub fn target(bits: u32) -> Option<[u8; 32]> {
    let size = (bits >> 24) as usize;
    let mut word = bits & 0x007f_ffff;
    if size <= 3 {
        word >>= 8 * (3 - size);
    }
    let negative = word != 0 && bits & 0x0080_0000 != 0;
    let overflow = word != 0 && (size > 34 || (word > 0xff && size > 33) || (word > 0xffff && size > 32));
    if negative || overflow || word == 0 {
        return None;
    }
    let mut out = [0u8; 32];
    // The word's last byte lands `size - 3` bytes above the target's
    // last (or at it, for sizes up to 3, the word already shifted); bytes
    // past the top are zeros here (no overflow).
    let shift = size.saturating_sub(3);
    for (k, &b) in word.to_be_bytes()[1..].iter().enumerate() {
        if let Some(at) = (29 + k).checked_sub(shift) {
            out[at] = b;
        }
    }
    Some(out)
}

/// Whether a header's hash (little-endian, as hashed) meets its `nBits`
/// under `network` (Core's `CheckProofOfWork`).
pub fn pow_holds(hash: &Digest, bits: u32, network: Network) -> bool {
    let Some(target) = target(bits).filter(|t| *t <= network.pow_limit()) else {
        return false;
    };
    let mut be = *hash;
    be.reverse();
    be <= target
}

/// The height a coinbase's script states under BIP-34 (its start as
/// `CScript() << height` writes it), where it states one.
pub fn coinbase_height(script_sig: &[u8]) -> Option<u32> {
    let (&op, rest) = script_sig.split_first()?;
    match op {
        0x00 => Some(0),
        0x51..=0x60 => Some(u32::from(op - 0x50)),
        1..=4 => {
            let n = usize::from(op);
            let b = rest.get(..n)?;
            let last = b[n - 1];
            // Negative, or a zero byte the number does not need.
            if last & 0x80 != 0 || (last == 0 && (n == 1 || b[n - 2] & 0x80 == 0)) {
                return None;
            }
            let v = b.iter().rev().fold(0u32, |a, &x| (a << 8) | u32::from(x));
            // 0 to 16 are written as opcodes.
            (v > 16).then_some(v)
        }
        _ => None,
    }
}

/// Why a block does not hold to its header (see the module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The header's proof of work (`high-hash`).
    HighHash,
    /// The txids' tree is not the header's root (`bad-txnmrklroot`).
    MerkleRoot,
    /// The txids' tree has two equal nodes side by side
    /// (`bad-txns-duplicate`).
    DuplicateTransactions,
    /// The coinbase's witness is not one 32-byte item
    /// (`bad-witness-nonce-size`).
    WitnessNonceSize,
    /// The witness commitment is not the wtxids' (`bad-witness-merkle-match`).
    WitnessCommitment,
    /// A witness in a block that commits to none (`unexpected-witness`).
    UnexpectedWitness,
}

impl Failure {
    /// The reason it is reported as.
    pub fn reason(self) -> Reason {
        match self {
            Failure::HighHash => Reason::HighHash,
            Failure::MerkleRoot | Failure::WitnessCommitment => Reason::RootMismatch,
            Failure::DuplicateTransactions => Reason::DuplicateTransactions,
            Failure::WitnessNonceSize => Reason::BadWitnessNonceSize,
            Failure::UnexpectedWitness => Reason::UnexpectedWitness,
        }
    }

    /// The commitment a `root_mismatch` names.
    pub fn field(self) -> Option<Field> {
        match self {
            Failure::MerkleRoot => Some(Field::MerkleRoot),
            Failure::WitnessCommitment => Some(Field::WitnessCommitment),
            _ => None,
        }
    }
}

/// A commitment a block's transactions do not match (with
/// `root_mismatch`), numbered as the bindings write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The header's `hashMerkleRoot`.
    MerkleRoot = 1,
    /// The coinbase's witness commitment.
    WitnessCommitment = 2,
}

impl Field {
    /// The name the CLI prints: `merkleRoot` or `witnessCommitment`.
    pub fn name(self) -> &'static str {
        match self {
            Field::MerkleRoot => "merkleRoot",
            Field::WitnessCommitment => "witnessCommitment",
        }
    }
}

/// A block checked: its hash (double SHA-256 of the header, as hashed:
/// reverse it for the hex Bitcoin shows), the height its coinbase states
/// (BIP-34), and the first check it fails (`None`: it holds to its
/// header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    /// The block's hash, little-endian.
    pub hash: Digest,
    /// The height its coinbase states, in blocks of version 2 and up.
    pub height: Option<u32>,
    /// The first check it fails.
    pub failure: Option<Failure>,
}

/// A block checked, or `malformed_block`.
pub type BlockResult = Result<Checked, Reason>;

/// Double SHA-256 of every item as two `sha256` batches on `engine`; the
/// first batch's selection.
fn double(engine: &Engine, msgs: &FlatBytes) -> Result<(Vec<Digest>, Selection), Error> {
    let once = engine.hash(Alg::Sha256, msgs)?;
    let mut digests = FlatBytes::with_capacity(once.output.len(), 32 * once.output.len());
    for d in &once.output {
        // 32 bytes an item: within the 4 GiB when the messages were.
        if !digests.push(d) {
            return Err(too_large());
        }
    }
    Ok((engine.hash(Alg::Sha256, &digests)?.output, once.selection))
}

fn too_large() -> Error {
    Error::BatchTooLarge {
        op: crate::ops::Op::Hash(Alg::Sha256).into(),
        backend: crate::Backend::Cpu,
        reason: "the blocks' transactions pass 4 GiB; split the input".into(),
    }
}

/// The roots of many Bitcoin trees at once, each tree's leaves given
/// (none empty), and whether Core's `ComputeMerkleRoot` calls it mutated
/// (two equal nodes side by side at some level): every level of every
/// tree one [`double`] on `engine`.
fn roots(engine: &Engine, mut levels: Vec<Vec<Digest>>) -> Result<Vec<(Digest, bool)>, Error> {
    let mut mutated = vec![false; levels.len()];
    // One buffer for every level's pairs (its pages faulted in once).
    let mut pairs = FlatBytes::new();
    loop {
        pairs.clear();
        let mut pair = [0u8; 64];
        for (level, mutated) in levels.iter().zip(&mut mutated) {
            if level.len() < 2 {
                continue;
            }
            for p in level.chunks(2) {
                let (l, r) = (&p[0], p.get(1).unwrap_or(&p[0]));
                *mutated |= p.len() == 2 && l == r;
                pair[..32].copy_from_slice(l);
                pair[32..].copy_from_slice(r);
                if !pairs.push(&pair) {
                    return Err(too_large());
                }
            }
        }
        if pairs.is_empty() {
            break;
        }
        let mut up = double(engine, &pairs)?.0.into_iter();
        for level in levels.iter_mut().filter(|l| l.len() > 1) {
            *level = up.by_ref().take(level.len().div_ceil(2)).collect();
        }
    }
    Ok(levels.into_iter().zip(mutated).map(|(l, m)| (l[0], m)).collect())
}

/// A block's claims, once read: what its trees are checked by.
struct Claims {
    hash_at: usize,
    height: Option<u32>,
    bits: u32,
    merkle_root: Digest,
    /// The witness commitment and its nonce's size check, where checked.
    commitment: Option<Commitment>,
    /// Whether any transaction carries a witness.
    has_witness: bool,
    /// Where its txids are in the digests, and its wtxids' (of
    /// transactions 1.. with a witness) where the commitment is checked.
    txids: std::ops::Range<usize>,
    wtxids: Vec<Option<usize>>,
}

/// A witness commitment to check: the coinbase's 32 bytes and its nonce
/// (`None`: not one 32-byte item).
struct Commitment {
    committed: Digest,
    nonce: Option<Digest>,
}

/// Every block of `blocks` checked against its own header under
/// `network`'s parameters (see the module): the headers' and
/// transactions' hashes, and every level of the blocks' trees, as batches
/// of `sha256` items on `engine` (the call's selection is the first
/// group's transactions').
pub fn verify(engine: &Engine, blocks: &FlatBytes, network: Network) -> Result<Outcome<Vec<BlockResult>>, Error> {
    // Read on the engine's threads; the hashes' messages copied into one
    // buffer on the calling thread, hashed a group of blocks at a time (the
    // buffer reused: fresh memory's page faults cost more than the copy).
    let read_blocks = engine.on_pool(|| cores::map_range(0..blocks.len(), 1, |i| read(blocks.get(i))));
    let mut msgs = FlatBytes::new();
    let mut digests = Vec::new();
    let mut selection = None;
    let mut claims = Vec::with_capacity(blocks.len());
    let last = read_blocks.iter().rposition(Result::is_ok);
    for (i, b) in read_blocks.into_iter().enumerate() {
        let b = match b {
            Ok(b) => b,
            Err(reason) => {
                claims.push(Err(reason));
                continue;
            }
        };
        let h = b.header;
        let version = i32::from_le_bytes(h[..4].try_into().expect("4 bytes"));
        let height = b.coinbase.script_sig.filter(|_| version >= 2).and_then(coinbase_height);
        let segwit = height.map_or(network.segwit_height() == 0, |h| h >= network.segwit_height());
        let commitment = b.coinbase.commitment.filter(|_| segwit).map(|committed| Commitment {
            committed,
            nonce: match b.coinbase.witness[..] {
                [nonce] => nonce.try_into().ok(),
                _ => None,
            },
        });
        // Items are numbered across groups: their digests' places.
        let at = |msgs: &FlatBytes| digests.len() + msgs.len();
        let hash_at = at(&msgs);
        let mut fits = msgs.push(h);
        let start = at(&msgs);
        for tx in &b.txs {
            fits &= msgs.push_parts(&tx.stripped());
        }
        let txids = start..at(&msgs);
        let mut wtxids = Vec::new();
        if commitment.is_some() {
            for tx in &b.txs[1..] {
                wtxids.push(tx.witness.map(|_| at(&msgs)));
                if tx.witness.is_some() {
                    fits &= msgs.push(tx.whole);
                }
            }
        }
        if !fits {
            return Err(too_large());
        }
        claims.push(Ok(Claims {
            hash_at,
            height,
            bits: u32::from_le_bytes(h[72..76].try_into().expect("4 bytes")),
            merkle_root: h[36..68].try_into().expect("32 bytes"),
            commitment,
            has_witness: b.txs.iter().any(|tx| tx.witness.is_some()),
            txids,
            wtxids,
        }));
        if msgs.bytes().len() >= GROUP_BYTES || Some(i) == last {
            let (group, chosen) = double(engine, &msgs)?;
            digests.extend(group);
            selection.get_or_insert(chosen);
            msgs.clear();
        }
    }
    let selection = match selection {
        Some(s) => s,
        // No block read: the (empty) batch's selection.
        None => double(engine, &msgs)?.1,
    };
    // The trees: every block's txids', then every checked commitment's
    // wtxids' (the coinbase's as zero, a transaction without a witness by
    // its txid).
    let mut leaves: Vec<Vec<Digest>> = claims
        .iter()
        .flatten()
        .map(|c| digests[c.txids.clone()].to_vec())
        .collect();
    for c in claims.iter().flatten().filter(|c| c.commitment.is_some()) {
        let mut w = vec![[0u8; 32]];
        w.extend(
            c.wtxids
                .iter()
                .zip(c.txids.clone().skip(1))
                .map(|(at, txid)| digests[at.unwrap_or(txid)]),
        );
        leaves.push(w);
    }
    let blocks_read = claims.iter().flatten().count();
    let trees = roots(engine, leaves)?;
    let (trees, witness_trees) = trees.split_at(blocks_read);
    let (mut trees, mut witness_roots) = (trees.iter(), witness_trees.iter());
    let output = claims
        .into_iter()
        .map(|c| {
            let c = c?;
            let hash = digests[c.hash_at];
            let &(root, mutated) = trees.next().expect("a tree per block");
            let witness_root = c
                .commitment
                .as_ref()
                .map(|_| witness_roots.next().expect("a witness tree").0);
            let failure = if !pow_holds(&hash, c.bits, network) {
                Some(Failure::HighHash)
            } else if root != c.merkle_root {
                Some(Failure::MerkleRoot)
            } else if mutated {
                Some(Failure::DuplicateTransactions)
            } else {
                match (&c.commitment, witness_root) {
                    (Some(Commitment { nonce: None, .. }), _) => Some(Failure::WitnessNonceSize),
                    (
                        Some(Commitment {
                            committed,
                            nonce: Some(nonce),
                        }),
                        Some(root),
                    ) => {
                        let once = hashes::digest(Alg::Sha256, &[root, *nonce].concat());
                        (hashes::digest(Alg::Sha256, &once) != *committed).then_some(Failure::WitnessCommitment)
                    }
                    _ => c.has_witness.then_some(Failure::UnexpectedWitness),
                }
            };
            Ok(Checked {
                hash,
                height: c.height,
                failure,
            })
        })
        .collect();
    Ok(Outcome { output, selection })
}
