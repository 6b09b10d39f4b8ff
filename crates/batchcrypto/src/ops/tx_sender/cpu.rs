//! The CPU path: each transaction decoded and its sender recovered on
//! every core (runs of items per task), libsecp256k1's recovery as the
//! `ecrecover` op's CPU path runs it; [`signers`] also serves
//! `eip7702_authority` ([`crate::ops::authority`]) over its own signing
//! hashes.

use super::{SenderResult, signing};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::ecdsa::{self, RecoverItem};
use crate::verdict::Reason;

/// Fewest items per task (a recovery takes about 30 µs).
const RUN: usize = 8;

/// The sender of every item of `txs`.
pub(crate) fn senders(txs: &FlatBytes) -> Vec<SenderResult> {
    signers(txs, signing)
}

/// The signer's address of every item of `items`, each read into its
/// `ecrecover` item by `signing` and recovered under EIP-2's low s.
pub(crate) fn signers(items: &FlatBytes, signing: fn(&[u8]) -> Result<RecoverItem, Reason>) -> Vec<SenderResult> {
    cores::map_range(0..items.len(), RUN, |i| {
        let item = signing(items.get(i))?;
        ecdsa::cpu::recover(&item, true).map(|r| r.address)
    })
}
