//! The CPU path: the oracle crates on every core. Digests are written in
//! place, in runs of up to [`RUN`] items per rayon task, so that short messages
//! (32 bytes take a few hundred nanoseconds) are not dominated by scheduling.

use super::{Alg, Digest, oracle};
use crate::batch::FlatBytes;
use crate::cores;

/// Most items per rayon task.
const RUN: usize = 2048;

/// Digests of every item of `msgs`, in order ([`cores`]).
pub(crate) fn hash(alg: Alg, msgs: &FlatBytes) -> Vec<Digest> {
    let mut out = vec![[0u8; 32]; msgs.len()];
    // About four tasks per thread, 16 to RUN items each (16 short
    // messages take about 10 µs: more than a task costs to schedule).
    let run = msgs.len().div_ceil(cores::threads() * 4).clamp(16, RUN);
    cores::for_chunks_mut(&mut out, run, |start, chunk| {
        for (j, d) in chunk.iter_mut().enumerate() {
            *d = oracle::digest(alg, msgs.get(start + j));
        }
    });
    out
}
