//! The CPU path: the oracle crates on every core. Digests are written in
//! place, in runs of up to [`RUN`] items per rayon task, so that short messages
//! (32 bytes take a few hundred nanoseconds) are not dominated by scheduling.

use rayon::prelude::*;

use super::{Alg, Digest, oracle};
use crate::batch::FlatBytes;

/// Most items per rayon task.
const RUN: usize = 2048;

/// Digests of every item of `msgs`, in order, on the current rayon pool.
pub(crate) fn hash(alg: Alg, msgs: &FlatBytes) -> Vec<Digest> {
    let mut out = vec![[0u8; 32]; msgs.len()];
    // About four tasks per thread, 64 to RUN items each.
    let run = msgs
        .len()
        .div_ceil(rayon::current_num_threads().max(1) * 4)
        .clamp(64, RUN);
    out.par_chunks_mut(run).enumerate().for_each(|(c, chunk)| {
        for (j, d) in chunk.iter_mut().enumerate() {
            *d = oracle::digest(alg, msgs.get(c * run + j));
        }
    });
    out
}
