//! The CPU path: each transaction decoded and its sender recovered on
//! every core (runs of items per task), libsecp256k1's recovery as the
//! `ecrecover` op's CPU path runs it.

use super::{SenderResult, signing};
use crate::batch::FlatBytes;
use crate::cores;
use crate::ops::ecdsa;

/// Fewest items per task (a recovery takes about 30 µs).
const RUN: usize = 8;

/// The sender of every item of `txs`.
pub(crate) fn senders(txs: &FlatBytes) -> Vec<SenderResult> {
    cores::map_range(0..txs.len(), RUN, |i| {
        let item = signing(txs.get(i))?;
        ecdsa::cpu::recover(&item, true).map(|r| r.address)
    })
}
