//! The CPU path: the oracle crate on every core, an item per task (an
//! SLH-DSA verification is thousands of hashes, with nothing to share
//! between items but PK.seed's first block), and each rejected item's
//! reason from the documented checks ([`super::reason`]). Verdicts are the
//! oracle's by construction (the same library call per item).

use super::{Batch, Set, oracle, reason};
use crate::cores;
use crate::verdict::Verdict;

/// One verdict per item of `batch` in `set`.
pub(crate) fn verify(set: Set, batch: &Batch) -> Vec<Verdict> {
    cores::map_range(0..batch.len(), 1, |i| {
        let (pk, msg, sig, ctx) = (batch.pk(i), batch.msg(i), batch.sig(i), batch.ctx(i));
        if oracle::verify(set, pk, msg, sig, ctx) {
            Verdict::Valid
        } else {
            Verdict::Invalid(reason(set, pk, sig, ctx))
        }
    })
}
