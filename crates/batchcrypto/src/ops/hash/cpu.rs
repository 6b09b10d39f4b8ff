//! The CPU path: the oracle crates on every core. Items are handed to rayon
//! in runs of at least 64 so that short messages (32 bytes take a few
//! hundred nanoseconds) are not dominated by scheduling.

use rayon::prelude::*;

use super::{Alg, Digest, oracle};
use crate::batch::FlatBytes;

/// Digests of every item of `msgs`, in order, on the current rayon pool.
pub(crate) fn hash(alg: Alg, msgs: &FlatBytes) -> Vec<Digest> {
    (0..msgs.len())
        .into_par_iter()
        .with_min_len(64)
        .map(|i| oracle::digest(alg, msgs.get(i)))
        .collect()
}
