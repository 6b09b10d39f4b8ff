//! The CPU path: schnorrkel on every core, each distinct key decoded once
//! per batch (keys repeat), each rejected item's reason from the documented
//! checks. Verdicts are the oracle's by construction (the same library call
//! per item).
//!
//! No batch verification yet: schnorrkel's `verify_batch` answers for the
//! whole batch; the bisection that would make it per item (as zip215 and
//! BLS do) is left for when its cost is measured.

use std::collections::HashMap;

use rayon::prelude::*;
use schnorrkel::{PublicKey, Signature};

use super::{Batch, PK_LEN};
use crate::verdict::{Reason, Verdict};

/// Fewest items per rayon task (a verification takes tens of µs).
const RUN: usize = 8;

/// One verdict per item under the signing context `ctx`.
pub(crate) fn verify(batch: &Batch, ctx: &[u8]) -> Vec<Verdict> {
    let mut distinct: Vec<&[u8; PK_LEN]> = batch.pks().iter().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let keys: HashMap<[u8; PK_LEN], Option<PublicKey>> = distinct
        .par_iter()
        .map(|pk| (**pk, PublicKey::from_bytes(&pk[..]).ok()))
        .collect();
    (0..batch.len())
        .into_par_iter()
        .with_min_len(RUN)
        .map(|i| {
            let Some(key) = keys.get(batch.pk(i)).copied().flatten() else {
                return Verdict::Invalid(Reason::MalformedKey);
            };
            let Ok(sig) = Signature::from_bytes(batch.sig(i)) else {
                return Verdict::Invalid(Reason::MalformedSignature);
            };
            if key.verify_simple(ctx, batch.msg(i), &sig).is_ok() {
                Verdict::Valid
            } else {
                Verdict::Invalid(Reason::Equation)
            }
        })
        .collect()
}
