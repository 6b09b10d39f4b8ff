//! `eth_getProof` answers (EIP-1186) as items: the account's proof under a
//! block's `stateRoot` and each storage slot's under the account's
//! `storageHash`, with the keys hashed and the values encoded as the
//! state and storage tries hold them (Yellow Paper, section 4.1 and
//! appendix D), the rules reth's `AccountProof::verify` and
//! `StorageProof::verify` apply on alloy-trie's `verify_proof`:
//!
//! - account: key `keccak256(address)`, value `RLP([nonce, balance,
//!   storageRoot, codeHash])`, the integers without leading zeros; an
//!   account with no nonce, no balance, no code (its code hash zero or that
//!   of no bytes) and no storage (its storage root zero or the empty trie's)
//!   is absent from the trie, its proof one of absence (EIP-161 removes such
//!   accounts; geth answers zeros for an account it does not have);
//! - storage: key `keccak256(slot)` (the slot as 32 bytes), value the RLP
//!   of the slot's integer without leading zeros; a slot holding 0 is
//!   absent; a storage root of zeros is the empty trie's (geth answers an
//!   account it does not have with zeros and empty storage proofs: no trie
//!   has the root zero, so nothing else is accepted by that reading).

use alloy_rlp::Encodable;

use super::encode;

/// Keccak-256 of no bytes: the code hash of an account without code.
pub const KECCAK_EMPTY: [u8; 32] = alloy_trie::KECCAK_EMPTY.0;

/// An account as `eth_getProof` states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Account {
    /// The nonce.
    pub nonce: u64,
    /// The balance in wei, 32 bytes big-endian.
    pub balance: [u8; 32],
    /// The root of its storage trie (`storageHash`).
    pub storage_root: [u8; 32],
    /// The hash of its code (`codeHash`).
    pub code_hash: [u8; 32],
}

impl Account {
    /// Whether the state trie holds no such account (see the module's docs).
    pub fn is_empty(&self) -> bool {
        self.nonce == 0
            && self.balance == [0; 32]
            && (self.code_hash == KECCAK_EMPTY || self.code_hash == [0; 32])
            && (self.storage_root == super::EMPTY_ROOT || self.storage_root == [0; 32])
    }

    /// The state trie's value: `RLP([nonce, balance, storageRoot, codeHash])`.
    pub fn rlp(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(80);
        self.nonce.encode(&mut payload);
        integer(&self.balance).encode(&mut payload);
        self.storage_root.encode(&mut payload);
        self.code_hash.encode(&mut payload);
        super::rlp_list(&payload)
    }
}

/// A big-endian integer's bytes without leading zeros (RLP's integers).
fn integer(word: &[u8]) -> &[u8] {
    let first = word.iter().position(|&b| b != 0).unwrap_or(word.len());
    &word[first..]
}

/// The key of item `index` of a block's transactions, receipts or
/// withdrawals trie: `RLP(index)` (0 is `0x80`, 1 to 127 the byte itself,
/// larger indices their big-endian bytes after `0x80 + length`).
pub fn index_key(index: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(9);
    index.encode(&mut key);
    key
}

/// The item of an account's proof (`accountProof`, nodes root first) under
/// `state_root` (see the module's docs); `None` past [`super::MAX_NODES`]
/// nodes.
pub fn account_item(state_root: &[u8; 32], address: &[u8; 20], account: &Account, nodes: &[&[u8]]) -> Option<Vec<u8>> {
    let key = alloy_primitives::keccak256(address);
    let value = (!account.is_empty()).then(|| account.rlp());
    encode(state_root, key.as_slice(), value.as_deref(), nodes)
}

/// The item of a slot's proof (`storageProof[i].proof`) under the
/// account's `storage_root` (zeros: the empty trie's), the slot and its
/// value 32 bytes big-endian each; `None` past [`super::MAX_NODES`] nodes.
pub fn storage_item(storage_root: &[u8; 32], slot: &[u8; 32], value: &[u8; 32], nodes: &[&[u8]]) -> Option<Vec<u8>> {
    let key = alloy_primitives::keccak256(slot);
    let root = if *storage_root == [0; 32] {
        &super::EMPTY_ROOT
    } else {
        storage_root
    };
    let held = integer(value);
    let mut rlp = Vec::with_capacity(34);
    held.encode(&mut rlp);
    encode(root, key.as_slice(), (!held.is_empty()).then_some(&rlp[..]), nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encodings against RLP written out: integers without leading
    /// zeros (0 the empty string, under 0x80 the byte itself), hashes as
    /// 32-byte strings; emptiness as the module says.
    #[test]
    fn accounts_and_slots_encode_as_the_tries_hold_them() {
        let mut balance = [0u8; 32];
        balance[31] = 0x7f;
        let a = Account {
            nonce: 0,
            balance,
            storage_root: [1; 32],
            code_hash: [2; 32],
        };
        let want = [&[0xf8, 0x44, 0x80, 0x7f, 0xa0][..], &[1; 32], &[0xa0], &[2; 32]].concat();
        assert_eq!(a.rlp(), want);
        balance[30] = 0x01;
        let b = Account {
            nonce: 1024,
            balance,
            ..a
        };
        let want = [
            &[0xf8, 0x48, 0x82, 0x04, 0x00, 0x82, 0x01, 0x7f, 0xa0][..],
            &[1; 32],
            &[0xa0],
            &[2; 32],
        ]
        .concat();
        assert_eq!(b.rlp(), want);
        assert!(!a.is_empty());
        let none = Account {
            storage_root: super::super::EMPTY_ROOT,
            code_hash: KECCAK_EMPTY,
            ..Account::default()
        };
        assert!(none.is_empty() && Account::default().is_empty());
        assert!(!Account { nonce: 1, ..none }.is_empty());
        // A slot's value: 0 absent, 0x80 as 0x81 0x80.
        let mut value = [0u8; 32];
        let read = |item: &[u8]| super::super::read(item).map(|p| p.value.map(<[u8]>::to_vec));
        assert_eq!(
            read(&storage_item(&[0; 32], &[0; 32], &value, &[]).expect("fits")),
            Ok(None)
        );
        value[31] = 0x80;
        let item = storage_item(&[0; 32], &[0; 32], &value, &[]).expect("fits");
        assert_eq!(read(&item), Ok(Some(vec![0x81, 0x80])));
        // Index keys: RLP of the index.
        let keys: Vec<Vec<u8>> = [0, 1, 127, 128, 256].into_iter().map(index_key).collect();
        assert_eq!(
            keys,
            [
                vec![0x80],
                vec![0x01],
                vec![0x7f],
                vec![0x81, 0x80],
                vec![0x82, 0x01, 0x00]
            ]
        );
        // A storage root of zeros is the empty trie's.
        assert_eq!(super::super::read(&item).map(|p| *p.root), Ok(super::super::EMPTY_ROOT));
        // The key: keccak256 of the slot's 32 bytes (of slot 0, published).
        let p = super::super::read(&item).expect("reads");
        assert_eq!(
            alloy_primitives::hex::encode(p.key),
            "290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563"
        );
    }
}
