//! Whole Bitcoin blocks (`Engine::verify_bitcoin_blocks`) against an
//! oracle built on rust-bitcoin (its consensus decoding, txids, wtxids,
//! Merkle roots, witness commitment and targets) with Bitcoin Core's rules
//! written beside where rust-bitcoin does not have them (the mutated tree,
//! the nonce's size and the unexpected witness as `CheckWitnessMalleation`
//! orders them, BIP-34 heights written as opcodes), and regtest blocks of
//! every kind the checks name, mined, made with rust-bitcoin ([`generated`];
//! the tests' `tests/all/bitcoin_block.rs` use both). The fuzz check
//! ([`check`]): blocks drawn from the generated ones, edited as drawn (a
//! byte changed, cut, grown), and a block of the drawn messages as its
//! transactions, under a drawn network, against the oracle item by item.

use std::sync::OnceLock;

use arbitrary::Unstructured;
use batchcrypto::ops::merkle::block::{self, Checked, Failure, Network};
use batchcrypto::{Engine, FlatBytes, Reason};
use bitcoin::block::{Header, Version};
use bitcoin::consensus::serialize;
use bitcoin::hashes::Hash;
use bitcoin::{
    Amount, Block, BlockHash, CompactTarget, OutPoint, ScriptBuf, Sequence, Transaction, TxIn, TxMerkleNode, TxOut,
    Txid, Witness, WitnessMerkleNode, absolute, transaction,
};

use super::{answers, same};

/// The most blocks per call.
const BLOCKS: usize = 12;
/// Generated blocks of each kind to draw from.
const ROUNDS: usize = 3;

/// Blocks (drawn after everything else in the `hashes` target, so that
/// committed inputs keep their meaning): see the module.
pub fn check(e: &Engine, u: &mut Unstructured, msgs: &FlatBytes) {
    static MADE: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    let made = MADE.get_or_init(|| {
        let mut rng = Rng(0x6675_7a7a);
        (0..ROUNDS)
            .flat_map(|_| KINDS)
            .map(|kind| generated(&mut rng, kind))
            .collect()
    });
    let network = Network::ALL[u.choose_index(Network::ALL.len()).unwrap_or(4)];
    let n = u.int_in_range(0..=BLOCKS).unwrap_or(0);
    let mut items = FlatBytes::new();
    for _ in 0..n {
        let mut b = made[u.choose_index(made.len()).unwrap_or(0)].clone();
        super::hashes::edit(u, &mut b, 4);
        assert!(items.push(&b), "items far below 4 GiB");
    }
    // The messages as a block's transactions, under a generated header.
    let mut raw = made[0][..block::HEADER_BYTES].to_vec();
    raw.push(msgs.len().min(0xfc) as u8);
    for i in 0..msgs.len().min(0xfc) {
        raw.extend_from_slice(msgs.get(i));
    }
    assert!(items.push(&raw), "items far below 4 GiB");
    let want: Vec<_> = (0..items.len()).map(|i| oracle(items.get(i), network)).collect();
    same(
        "bitcoin blocks",
        &answers(e, e.verify_bitcoin_blocks(&items, network)),
        &want,
    );
}

/// rust-bitcoin's reading of a block, with Bitcoin Core's where the two
/// differ (`UnserializeTransaction`): a transaction whose input list is
/// empty and whose flag byte is 0 has no outputs (rust-bitcoin refuses the
/// flag), one with the segwit flag and no inputs is refused ("Superfluous
/// witness record"; rust-bitcoin takes it), and a count past 2^25 is
/// refused (`ReadCompactSize`'s range check). `None` where Core does not
/// read the bytes as a block.
pub fn core_read(bytes: &[u8]) -> Option<Block> {
    use bitcoin::consensus::Decodable;
    let mut r = bytes;
    let header = Header::consensus_decode(&mut r).ok()?;
    let n = bitcoin::VarInt::consensus_decode(&mut r).ok()?.0;
    if n > 0x0200_0000 {
        return None;
    }
    let mut txdata = Vec::new();
    for _ in 0..n {
        if let [v0, v1, v2, v3, 0, 0, l0, l1, l2, l3, ..] = *r {
            txdata.push(Transaction {
                version: transaction::Version(i32::from_le_bytes([v0, v1, v2, v3])),
                lock_time: absolute::LockTime::from_consensus(u32::from_le_bytes([l0, l1, l2, l3])),
                input: Vec::new(),
                output: Vec::new(),
            });
            r = &r[10..];
            continue;
        }
        let marker = r.get(4..6) == Some(&[0, 1][..]);
        let tx = Transaction::consensus_decode(&mut r).ok()?;
        if marker && tx.input.is_empty() {
            return None;
        }
        txdata.push(tx);
    }
    r.is_empty().then_some(Block { header, txdata })
}

/// rust-bitcoin's name of a network.
pub fn rust_network(network: Network) -> bitcoin::Network {
    match network {
        Network::Main => bitcoin::Network::Bitcoin,
        Network::Testnet3 => bitcoin::Network::Testnet,
        Network::Testnet4 => bitcoin::Network::Testnet4,
        Network::Signet => bitcoin::Network::Signet,
        Network::Regtest => bitcoin::Network::Regtest,
    }
}

/// Core's `ComputeMerkleRoot`: the root of `hashes` and whether two equal
/// nodes stand side by side at some level.
pub fn core_merkle_root(mut hashes: Vec<[u8; 32]>) -> ([u8; 32], bool) {
    let mut mutated = false;
    while hashes.len() > 1 {
        for p in hashes.chunks(2) {
            mutated |= p.len() == 2 && p[0] == p[1];
        }
        if hashes.len() % 2 == 1 {
            hashes.push(*hashes.last().expect("a node"));
        }
        hashes = hashes
            .chunks(2)
            .map(|p| bitcoin::hashes::sha256d::Hash::hash(&[p[0], p[1]].concat()).to_byte_array())
            .collect();
    }
    (hashes[0], mutated)
}

/// The oracle (see the module).
pub fn oracle(bytes: &[u8], network: Network) -> block::BlockResult {
    let b = core_read(bytes).ok_or(Reason::MalformedBlock)?;
    if b.txdata.is_empty() {
        return Err(Reason::MalformedBlock);
    }
    let hash = b.block_hash();
    let script_sig = b.txdata[0].input.first().map(|i| i.script_sig.as_bytes());
    let height = match b.bip34_block_height() {
        Ok(h) if h == 0 || h > 16 => u32::try_from(h).ok(),
        // Core writes 1 to 16 as OP_1 to OP_16, which rust-bitcoin does not read.
        _ => match script_sig.and_then(|s| s.first()) {
            Some(&op @ 0x51..=0x60) if b.header.version >= Version::TWO => Some(u32::from(op - 0x50)),
            _ => None,
        },
    };
    let params = bitcoin::params::Params::new(rust_network(network));
    let target = b.header.target();
    let pow = target != bitcoin::Target::ZERO && target <= params.max_attainable_target && target.is_met_by(hash);
    let (root, mutated) = core_merkle_root(b.txdata.iter().map(|t| t.compute_txid().to_byte_array()).collect());
    let segwit = height.map_or(network.segwit_height() == 0, |h| h >= network.segwit_height());
    let commitment = b.txdata[0]
        .output
        .iter()
        .rev()
        .find(|o| {
            o.script_pubkey.len() >= 38 && o.script_pubkey.as_bytes()[..6] == [0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed]
        })
        .filter(|_| segwit);
    let witness = |t: &Transaction| t.input.iter().any(|i| !i.witness.is_empty());
    let failure = if !pow {
        Some(Failure::HighHash)
    } else if root != b.header.merkle_root.to_byte_array() {
        Some(Failure::MerkleRoot)
    } else if mutated {
        Some(Failure::DuplicateTransactions)
    } else if let Some(out) = commitment {
        let items: Vec<&[u8]> = b.txdata[0]
            .input
            .first()
            .map(|i| i.witness.iter().collect())
            .unwrap_or_default();
        match items[..] {
            [nonce] if nonce.len() == 32 => {
                // Core's wtxids: a transaction without a witness by its
                // txid (rust-bitcoin hashes one with no inputs in the
                // segwit form, marker and all), the coinbase's zero.
                let leaves = std::iter::once([0u8; 32])
                    .chain(b.txdata[1..].iter().map(|t| {
                        if witness(t) {
                            t.compute_wtxid().to_byte_array()
                        } else {
                            t.compute_txid().to_byte_array()
                        }
                    }))
                    .collect();
                let root = WitnessMerkleNode::from_byte_array(core_merkle_root(leaves).0);
                let want = Block::compute_witness_commitment(&root, nonce);
                (want.to_byte_array()[..] != out.script_pubkey.as_bytes()[6..38]).then_some(Failure::WitnessCommitment)
            }
            _ => Some(Failure::WitnessNonceSize),
        }
    } else {
        b.txdata.iter().any(witness).then_some(Failure::UnexpectedWitness)
    };
    Ok(Checked {
        hash: hash.to_byte_array(),
        height,
        failure,
    })
}

/// A small deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// `plus` to `plus + spread - 1` bytes.
    pub fn some(&mut self, plus: usize, spread: u64) -> Vec<u8> {
        let n = plus + self.below(spread) as usize;
        self.bytes(n)
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// `CScript() << height`.
pub fn height_script(height: u32) -> Vec<u8> {
    match height {
        0 => vec![0x00],
        1..=16 => vec![0x50 + height as u8],
        _ => {
            let mut b: Vec<u8> = height.to_le_bytes().to_vec();
            while b.len() > 1 && b[b.len() - 1] == 0 && b[b.len() - 2] & 0x80 == 0 {
                b.pop();
            }
            if b[b.len() - 1] & 0x80 != 0 {
                b.push(0);
            }
            [vec![b.len() as u8], b].concat()
        }
    }
}

/// A transaction spending made-up outputs, with witnesses or not.
pub fn spend(rng: &mut Rng, witness: bool) -> Transaction {
    let inputs = 1 + rng.below(3) as usize;
    Transaction {
        version: transaction::Version::TWO,
        lock_time: absolute::LockTime::ZERO,
        input: (0..inputs)
            .map(|_| TxIn {
                previous_output: OutPoint {
                    txid: Txid::from_byte_array(rng.bytes(32).try_into().expect("32")),
                    vout: rng.below(4) as u32,
                },
                script_sig: if witness {
                    ScriptBuf::new()
                } else {
                    ScriptBuf::from_bytes(rng.some(1, 120))
                },
                sequence: Sequence::MAX,
                witness: if witness {
                    Witness::from_slice(&[rng.bytes(72), rng.bytes(33)])
                } else {
                    Witness::new()
                },
            })
            .collect(),
        output: (0..1 + rng.below(3))
            .map(|_| TxOut {
                value: Amount::from_sat(rng.below(1 << 40)),
                script_pubkey: ScriptBuf::from_bytes(rng.bytes(22)),
            })
            .collect(),
    }
}

/// The ways a generated block is made (see [`generated`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Valid,
    ValidSegwit,
    BadNonce,
    TargetAboveLimit,
    NegativeTarget,
    WrongRoot,
    Duplicated,
    NonceTwoItems,
    NonceShort,
    WrongCommitment,
    WitnessWithoutCommitment,
    SmallHeight,
    NoHeightVersion1,
}

pub const KINDS: [Kind; 13] = [
    Kind::Valid,
    Kind::ValidSegwit,
    Kind::BadNonce,
    Kind::TargetAboveLimit,
    Kind::NegativeTarget,
    Kind::WrongRoot,
    Kind::Duplicated,
    Kind::NonceTwoItems,
    Kind::NonceShort,
    Kind::WrongCommitment,
    Kind::WitnessWithoutCommitment,
    Kind::SmallHeight,
    Kind::NoHeightVersion1,
];

/// A regtest block of `kind` (mined, the header's nonce found, unless the
/// kind is a bad one).
pub fn generated(rng: &mut Rng, kind: Kind) -> Vec<u8> {
    let height = match kind {
        Kind::SmallHeight => rng.below(17) as u32,
        _ => 17 + rng.below(1 << 24) as u32,
    };
    let segwit = match kind {
        Kind::WitnessWithoutCommitment => false,
        Kind::Valid => rng.below(4) == 0,
        _ => true,
    };
    let n = 1 + rng.below(40) as usize;
    let mut txs: Vec<Transaction> = (1..n)
        .map(|_| {
            let witness = segwit && rng.below(3) > 0;
            spend(rng, witness)
        })
        .collect();
    if kind == Kind::WitnessWithoutCommitment {
        txs.push(spend(rng, true));
    }
    let mut script_sig = height_script(height);
    script_sig.extend(rng.some(0, 20));
    let nonce = rng.bytes(32);
    let mut coinbase = Transaction {
        version: transaction::Version::ONE,
        lock_time: absolute::LockTime::ZERO,
        input: vec![TxIn {
            previous_output: OutPoint::null(),
            script_sig: ScriptBuf::from_bytes(script_sig),
            sequence: Sequence::MAX,
            witness: match kind {
                Kind::NonceTwoItems => Witness::from_slice(&[nonce.clone(), vec![1]]),
                Kind::NonceShort => Witness::from_slice(&[&nonce[..31]]),
                _ if segwit => Witness::from_slice(std::slice::from_ref(&nonce)),
                _ => Witness::new(),
            },
        }],
        output: vec![TxOut {
            value: Amount::from_sat(50 * 100_000_000),
            script_pubkey: ScriptBuf::from_bytes(rng.bytes(25)),
        }],
    };
    let mut block = Block {
        header: Header {
            version: Version::from_consensus(if kind == Kind::NoHeightVersion1 { 1 } else { 0x2000_0000 }),
            prev_blockhash: BlockHash::from_byte_array(rng.bytes(32).try_into().expect("32")),
            merkle_root: TxMerkleNode::all_zeros(),
            time: 1_700_000_000 + rng.below(1 << 20) as u32,
            bits: CompactTarget::from_consensus(match kind {
                Kind::TargetAboveLimit => 0x2100_ffff,
                Kind::NegativeTarget => 0x20ff_ffff,
                _ => 0x207f_ffff,
            }),
            nonce: 0,
        },
        txdata: [vec![coinbase.clone()], txs.clone()].concat(),
    };
    if segwit {
        let root = block.witness_root().expect("transactions");
        let mut commitment = Block::compute_witness_commitment(&root, &nonce).to_byte_array();
        if kind == Kind::WrongCommitment {
            commitment[rng.below(32) as usize] ^= 1;
        }
        let mut script = vec![0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed];
        script.extend(commitment);
        // Sometimes bytes after it, and sometimes an earlier decoy (the last counts).
        if rng.below(2) == 0 {
            script.extend(rng.some(1, 4));
        }
        let out = TxOut {
            value: Amount::ZERO,
            script_pubkey: ScriptBuf::from_bytes(script),
        };
        if rng.below(3) == 0 {
            let mut decoy = out.clone();
            decoy.script_pubkey =
                ScriptBuf::from_bytes([&[0x6a, 0x24, 0xaa, 0x21, 0xa9, 0xed][..], &rng.bytes(32)].concat());
            coinbase.output.push(decoy);
        }
        coinbase.output.push(out);
        block.txdata[0] = coinbase;
    }
    if kind == Kind::Duplicated {
        // An odd count's last transactions repeated: the same root.
        let mut list = block.txdata.clone();
        if list.len().is_multiple_of(2) {
            list.push(spend(rng, false));
        }
        block.txdata = list.clone();
        block.header.merkle_root = block.compute_merkle_root().expect("transactions");
        block.txdata.push(list.last().expect("one").clone());
    } else {
        block.header.merkle_root = block.compute_merkle_root().expect("transactions");
    }
    if kind == Kind::WrongRoot {
        let mut r = block.header.merkle_root.to_byte_array();
        r[rng.below(32) as usize] ^= 1 << rng.below(8);
        block.header.merkle_root = TxMerkleNode::from_byte_array(r);
    }
    // The nonce: the first that meets the target (about one in two on
    // regtest), or for BadNonce the first that does not.
    let want_met = kind != Kind::BadNonce;
    let target = CompactTarget::from_consensus(0x207f_ffff);
    let target = bitcoin::Target::from_compact(target);
    while target.is_met_by(block.header.block_hash()) != want_met {
        block.header.nonce += 1;
    }
    serialize(&block)
}
