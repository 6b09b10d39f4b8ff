//! The CPU path: libsecp256k1 on every core, each distinct x-only key
//! lifted once per batch (keys repeat), and each rejected item's reason
//! found by the documented checks. Verdicts are the oracle's by
//! construction (the same library call per item).
//!
//! No batch verification: libsecp256k1 exposes none for BIP-340 through
//! this crate, and a hand-made one would be our own CPU crypto.

use std::collections::HashMap;

use secp256k1::XOnlyPublicKey;
use secp256k1::schnorr::Signature;

use super::{Batch, PK_LEN, scalar_checks};
use crate::cores;
use crate::verdict::{Reason, Verdict};

/// Fewest items per rayon task (a verification takes about 40 µs).
const RUN: usize = 8;

/// One verdict per item.
pub(crate) fn verify(batch: &Batch) -> Vec<Verdict> {
    let mut distinct: Vec<&[u8; PK_LEN]> = batch.pks().iter().collect();
    distinct.sort_unstable();
    distinct.dedup();
    let keys: HashMap<[u8; PK_LEN], Option<XOnlyPublicKey>> =
        cores::map(&distinct, 1, |pk| (**pk, XOnlyPublicKey::from_byte_array(**pk).ok()))
            .into_iter()
            .collect();
    cores::map_range(0..batch.len(), RUN, |i| {
        let (pk, sig, msg) = (batch.pk(i), batch.sig(i), batch.msg(i));
        let Some(key) = keys.get(pk).copied().flatten() else {
            return Verdict::Invalid(Reason::MalformedKey);
        };
        if key.verify(msg, &Signature::from_byte_array(*sig)).is_ok() {
            return Verdict::Valid;
        }
        Verdict::Invalid(scalar_checks(sig).err().unwrap_or(Reason::Equation))
    })
}
