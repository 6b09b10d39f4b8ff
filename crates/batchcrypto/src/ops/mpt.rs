//! Ethereum Merkle-Patricia trie proofs checked in batches (the operation
//! `mpt_proof`): each item claims that in the trie whose root is `root` the
//! key `key` holds `value` (an inclusion proof), or holds nothing (an
//! exclusion proof: no value), by the trie's nodes on the key's path, root
//! first, each RLP-encoded as `eth_getProof` (EIP-1186) hands them over.
//! What light clients, bridges and indexers check by the thousand against a
//! header they trust (Yellow Paper, appendix D):
//!
//! - the state trie (`stateRoot`): key `keccak256(address)`, value
//!   `RLP([nonce, balance, storageRoot, codeHash])`: `eth_getProof`'s
//!   `accountProof`;
//! - an account's storage trie (`storageRoot`): key `keccak256(slot)` (the
//!   slot as 32 bytes), value the RLP of the slot's integer, no leading
//!   zeros: `storageProof[i].proof`;
//! - a block's transactions, receipts and withdrawals tries: key
//!   `RLP(index)`, value the encoded transaction, receipt or withdrawal
//!   (typed ones `type ‖ RLP`): the receipt proofs bridges carry.
//!
//! The key is the trie's path as bytes: hashing it first (the secure tries
//! above) is the caller's, as in `eth_getProof`'s own verifiers.
//!
//! The rules are alloy-trie's `proof::verify_proof` (reth's trie crate; the
//! oracle, [`oracle`]): the nodes are walked in order, each must be the node
//! its parent points to (the first: the root's; a node of under 32 bytes is
//! embedded, its own reference, else the reference is its Keccak-256), and
//! its children embedded in place are followed within it. One departure: a
//! walk whose path would pass 64 nibbles (no key is longer) is refused where
//! alloy-trie 0.9.9's nibble buffer would panic (`nybbles`' capacity
//! assertion); the oracle checks that before handing the item to it.
//!
//! An item is `root (32) ‖ key length (1, at most` [`MAX_KEY_LEN`]`) ‖ key ‖
//! value flag (1: 0 absent, 1 present) ‖ [value length (4, big-endian) ‖
//! value] ‖ node count (2, big-endian, at most` [`MAX_NODES`]`) ‖ { node
//! length (4, big-endian) ‖ node }`, the value's length and bytes only when
//! the flag is 1 ([`encode`]).
//!
//! The checks, in order; the first that fails is the reason:
//! 1. `wrong_input_length`: the item does not read as the layout above
//!    (short, bytes left over, a key over 32 bytes, a flag not 0 or 1, more
//!    than [`MAX_NODES`] nodes);
//! 2. `root_mismatch`: no node (or the one node `0x80`, the empty trie's)
//!    and a root other than the empty trie's, `56e81f…b421`;
//! 3. node by node, root first: `path_mismatch` where the node is not the
//!    one its parent points to (or its parent pointed to nothing more: the
//!    walk had left the key, or reached a value); `malformed_proof` where it
//!    does not decode as a trie node (RLP not canonical, a list of neither
//!    2 nor 17 items, a branch holding a value, a key's prefix not 0-3, a
//!    child of 33 bytes or more embedded, the empty node within a path);
//!    `path_mismatch` where the path would pass 64 nibbles;
//! 4. `path_mismatch`: the nodes end on a pointer to a further node while
//!    the path still follows the key (a proof cut short), or the value the
//!    walk ends on (none where its path left the key) is not the claimed
//!    one (the claimed absence included).

pub(crate) mod cpu;
pub mod eth;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod walk;
pub(crate) mod workload;

use crate::verdict::Reason;

/// The longest key: 32 bytes, 64 nibbles (the secure tries' hashed keys).
pub const MAX_KEY_LEN: usize = 32;

/// The most nodes of an item (a path of 64 nibbles has at most 65 nodes
/// that are not embedded).
pub const MAX_NODES: usize = 128;

/// The empty trie's root: Keccak-256 of the RLP of the empty string, `0x80`.
pub const EMPTY_ROOT: [u8; 32] = alloy_trie::EMPTY_ROOT_HASH.0;

/// An item read: its parts (see the module's layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof<'a> {
    /// The root the item claims.
    pub root: &'a [u8; 32],
    /// The key (the trie's path, two nibbles a byte, high first).
    pub key: &'a [u8],
    /// The value claimed, or `None` for an exclusion proof.
    pub value: Option<&'a [u8]>,
    /// The nodes, root first.
    pub nodes: Vec<&'a [u8]>,
}

/// The RLP list of the items encoded in `payload`.
pub(crate) fn rlp_list(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 3);
    alloy_rlp::Header {
        list: true,
        payload_length: payload.len(),
    }
    .encode(&mut out);
    out.extend_from_slice(payload);
    out
}

/// An item's bytes (see the module's layout). `None` where a part does
/// not fit it: a key over [`MAX_KEY_LEN`] bytes, more than [`MAX_NODES`]
/// nodes, a value or node of 4 GiB or more.
pub fn encode(root: &[u8; 32], key: &[u8], value: Option<&[u8]>, nodes: &[&[u8]]) -> Option<Vec<u8>> {
    if key.len() > MAX_KEY_LEN || nodes.len() > MAX_NODES {
        return None;
    }
    let bytes = nodes.iter().map(|n| 4 + n.len()).sum::<usize>() + value.map_or(0, |v| 4 + v.len());
    let mut item = Vec::with_capacity(32 + 1 + key.len() + 1 + 2 + bytes);
    item.extend_from_slice(root);
    item.push(key.len() as u8);
    item.extend_from_slice(key);
    match value {
        None => item.push(0),
        Some(v) => {
            item.push(1);
            item.extend_from_slice(&u32::try_from(v.len()).ok()?.to_be_bytes());
            item.extend_from_slice(v);
        }
    }
    item.extend_from_slice(&(nodes.len() as u16).to_be_bytes());
    for node in nodes {
        item.extend_from_slice(&u32::try_from(node.len()).ok()?.to_be_bytes());
        item.extend_from_slice(node);
    }
    Some(item)
}

/// The bytes of an item still to read.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<&'a [u8], Reason> {
        let (head, tail) = self.0.split_at_checked(n).ok_or(Reason::WrongInputLength)?;
        self.0 = tail;
        Ok(head)
    }

    /// A big-endian number of `bytes` bytes (at most 4).
    fn number(&mut self, bytes: usize) -> Result<usize, Reason> {
        Ok(self.take(bytes)?.iter().fold(0, |n, &b| n << 8 | usize::from(b)))
    }

    /// A length of `bytes` bytes and that many bytes.
    fn counted(&mut self, bytes: usize) -> Result<&'a [u8], Reason> {
        let n = self.number(bytes)?;
        self.take(n)
    }
}

/// The item's parts, or `wrong_input_length` (check 1 of the module's list).
pub fn read(item: &[u8]) -> Result<Proof<'_>, Reason> {
    let mut c = Cursor(item);
    let root: &[u8; 32] = c.take(32)?.try_into().map_err(|_| Reason::WrongInputLength)?;
    let key = c.counted(1)?;
    if key.len() > MAX_KEY_LEN {
        return Err(Reason::WrongInputLength);
    }
    let value = match c.number(1)? {
        0 => None,
        1 => Some(c.counted(4)?),
        _ => return Err(Reason::WrongInputLength),
    };
    let count = c.number(2)?;
    if count > MAX_NODES {
        return Err(Reason::WrongInputLength);
    }
    let nodes = (0..count).map(|_| c.counted(4)).collect::<Result<Vec<_>, _>>()?;
    if !c.0.is_empty() {
        return Err(Reason::WrongInputLength);
    }
    Ok(Proof {
        root,
        key,
        value,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_read_back_and_refuse_bad_layouts() {
        let nodes: [&[u8]; 2] = [&[0xc2, 0x01, 0x02], &[7; 40]];
        let item = encode(&[9; 32], b"key", Some(b"value"), &nodes).expect("fits");
        let p = read(&item).expect("reads");
        assert_eq!((p.root, p.key, p.value), (&[9; 32], &b"key"[..], Some(&b"value"[..])));
        assert_eq!(p.nodes, nodes);
        let absent = encode(&[9; 32], &[], None, &[]).expect("fits");
        assert_eq!(
            read(&absent).map(|p| (p.key.len(), p.value, p.nodes.len())),
            Ok((0, None, 0))
        );
        // Short anywhere, a byte left over, a bad flag, a long key.
        for cut in 0..item.len() {
            assert_eq!(read(&item[..cut]), Err(Reason::WrongInputLength), "cut at {cut}");
        }
        assert_eq!(read(&[&item[..], &[0]].concat()), Err(Reason::WrongInputLength));
        let mut flag = absent.clone();
        flag[33] = 2;
        assert_eq!(read(&flag), Err(Reason::WrongInputLength));
        let mut long = absent.clone();
        long[32] = 33;
        assert_eq!(read(&long), Err(Reason::WrongInputLength));
        assert_eq!(encode(&[0; 32], &[0; 33], None, &[]), None);
        // More nodes than MAX_NODES.
        let many = vec![&[0x80u8][..]; MAX_NODES + 1];
        assert_eq!(encode(&[0; 32], &[], None, &many), None);
        let mut over = encode(&[0; 32], &[], None, &many[..MAX_NODES]).expect("fits");
        let at = 32 + 1 + 1;
        over[at..at + 2].copy_from_slice(&(MAX_NODES as u16 + 1).to_be_bytes());
        over.extend_from_slice(&[0, 0, 0, 1, 0x80]);
        assert_eq!(read(&over), Err(Reason::WrongInputLength));
    }
}
