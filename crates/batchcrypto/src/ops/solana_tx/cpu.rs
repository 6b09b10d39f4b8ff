//! The CPU path: the transactions read on every core, their signatures
//! checked as `ed25519_verify` batches by that op's CPU path (each
//! distinct key decoded once per batch; ZIP-215's batch equations).

use crate::batch::FlatBytes;
use crate::gpu::Failure;
use crate::ops::ed25519::{self, Policy};
use crate::verdict::Verdict;

/// The verdict on every item of `txs` under `policy`.
pub(crate) fn verify(txs: &FlatBytes, policy: Policy) -> Vec<Verdict> {
    match super::check_all(txs, policy, |batch| Ok(ed25519::cpu::verify(batch, policy))) {
        Ok(verdicts) => verdicts,
        // Never: the CPU path answers every signature; the oracle would
        // answer the rest.
        Err(Failure { mut done, .. }) => {
            done.extend((done.len()..txs.len()).map(|i| super::oracle::verify(txs.get(i), policy)));
            done
        }
    }
}
