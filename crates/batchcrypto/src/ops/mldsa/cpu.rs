//! The CPU path: the oracle crate on every core, each distinct public key
//! decoded once per run of [`KEYS_AT_ONCE`] items (`VerifyingKey::decode`
//! expands the matrix A, about half of a verification's work, and keys
//! repeat), and each
//! rejected item's reason found by the documented checks
//! ([`super::reason`]). Verdicts are the oracle's by construction (the
//! same library calls per item).

use ml_dsa::{MlDsa44, MlDsa65, MlDsa87, MlDsaParams};

use super::oracle::{key, signature};
use super::{Batch, Level, reason};
use crate::cores;
use crate::ops::decode_distinct;
use crate::verdict::Verdict;

/// One verdict per item of `batch` at `level`.
pub(crate) fn verify(level: Level, batch: &Batch) -> Vec<Verdict> {
    match level {
        Level::Mldsa44 => verify_as::<MlDsa44>(level, batch),
        Level::Mldsa65 => verify_as::<MlDsa65>(level, batch),
        Level::Mldsa87 => verify_as::<MlDsa87>(level, batch),
    }
}

/// Items per key cache: a decoded ML-DSA-87 key holds A (56 polynomials,
/// 57 KB), so a batch of distinct keys must not keep them all at once.
const KEYS_AT_ONCE: usize = 1024;

fn verify_as<P: MlDsaParams>(level: Level, batch: &Batch) -> Vec<Verdict> {
    let mut out = Vec::with_capacity(batch.len());
    for start in (0..batch.len()).step_by(KEYS_AT_ONCE) {
        let items = start..(start + KEYS_AT_ONCE).min(batch.len());
        let keys = decode_distinct(items.clone().map(|i| batch.pk(i)), key::<P>);
        out.extend(cores::map_range(items, 1, |i| {
            let (pk, msg, sig, ctx) = (batch.pk(i), batch.msg(i), batch.sig(i), batch.ctx(i));
            let ok = keys
                .get(pk)
                .and_then(Option::as_ref)
                .zip(signature::<P>(sig))
                .is_some_and(|(key, sig)| key.verify_with_context(msg, ctx, &sig));
            if ok {
                Verdict::Valid
            } else {
                Verdict::Invalid(reason(level, pk, sig, ctx))
            }
        }));
    }
    out
}
