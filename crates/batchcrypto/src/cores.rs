//! Where the CPU paths' items run (issue 19): on the engine's rayon pool,
//! or, for a batch too small to pay for handing it to the pool (waking a
//! worker and then the caller costs microseconds: more than hashing a
//! dozen short messages), one after another on the calling thread.
//!
//! The CPU paths map their items through the helpers here instead of
//! calling rayon themselves. Inside [`inline`] every helper runs
//! sequentially on the calling thread; elsewhere it is rayon's parallel
//! iterator on the current pool (the engine's, which the engine installs
//! for larger batches). The engine picks by the batch's expected work
//! ([`crate::engine`]).

use std::cell::Cell;
use std::ops::Range;

use rayon::prelude::*;

thread_local! {
    /// Whether the helpers run sequentially on this thread.
    static INLINE: Cell<bool> = const { Cell::new(false) };
}

/// Restores the thread's mode when [`inline`] returns or unwinds.
struct Restore(bool);

impl Drop for Restore {
    fn drop(&mut self) {
        INLINE.set(self.0);
    }
}

/// Runs `f` on the calling thread with every helper sequential.
pub(crate) fn inline<T>(f: impl FnOnce() -> T) -> T {
    let _restore = Restore(INLINE.replace(true));
    f()
}

fn sequential() -> bool {
    INLINE.get()
}

/// The threads the helpers spread work over: the current pool's, or one
/// inside [`inline`] (for sizing chunks).
pub(crate) fn threads() -> usize {
    if sequential() {
        1
    } else {
        rayon::current_num_threads().max(1)
    }
}

/// `f` of every item, in order (rayon tasks of at least `min_len` items).
pub(crate) fn map<I: Sync, T: Send>(items: &[I], min_len: usize, f: impl Fn(&I) -> T + Sync + Send) -> Vec<T> {
    if sequential() {
        items.iter().map(f).collect()
    } else {
        items.par_iter().with_min_len(min_len.max(1)).map(f).collect()
    }
}

/// `f` of every index of `range`, in order (tasks of at least `min_len`).
pub(crate) fn map_range<T: Send>(range: Range<usize>, min_len: usize, f: impl Fn(usize) -> T + Sync + Send) -> Vec<T> {
    if sequential() {
        range.map(f).collect()
    } else {
        range.into_par_iter().with_min_len(min_len.max(1)).map(f).collect()
    }
}

/// `f` of every chunk of `chunk` items (the last may be shorter), in order.
pub(crate) fn map_chunks<I: Sync, T: Send>(items: &[I], chunk: usize, f: impl Fn(&[I]) -> T + Sync + Send) -> Vec<T> {
    if sequential() {
        items.chunks(chunk.max(1)).map(f).collect()
    } else {
        items.par_chunks(chunk.max(1)).map(f).collect()
    }
}

/// `f` of every whole chunk of `chunk` items, in order (a shorter tail is
/// left out, as `chunks_exact` does).
pub(crate) fn map_chunks_exact<I: Sync, T: Send>(
    items: &[I],
    chunk: usize,
    f: impl Fn(&[I]) -> T + Sync + Send,
) -> Vec<T> {
    if sequential() {
        items.chunks_exact(chunk.max(1)).map(f).collect()
    } else {
        items.par_chunks_exact(chunk.max(1)).map(f).collect()
    }
}

/// `f` over chunks of `chunk` items of `out`, each with its start index.
pub(crate) fn for_chunks_mut<T: Send>(out: &mut [T], chunk: usize, f: impl Fn(usize, &mut [T]) + Sync + Send) {
    let chunk = chunk.max(1);
    if sequential() {
        out.chunks_mut(chunk).enumerate().for_each(|(c, o)| f(c * chunk, o));
    } else {
        out.par_chunks_mut(chunk).enumerate().for_each(|(c, o)| f(c * chunk, o));
    }
}

/// Both closures' results: at once on the pool, one after the other
/// inside [`inline`].
pub(crate) fn join<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    if sequential() { (a(), b()) } else { rayon::join(a, b) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every helper gives the same answers inline and on a pool, and
    /// inline work stays on the calling thread.
    #[test]
    fn inline_and_pooled_agree() {
        let items: Vec<u64> = (0..1000).collect();
        let run = || {
            let mut out = vec![0u64; 1000];
            for_chunks_mut(&mut out, 7, |start, o| {
                for (j, x) in o.iter_mut().enumerate() {
                    *x = (start + j) as u64 * 3;
                }
            });
            (
                map(&items, 4, |x| x * 2),
                map_range(5..900, 3, |i| i * i),
                map_chunks(&items, 33, |c| c.iter().sum::<u64>()),
                map_chunks_exact(&items, 33, |c| c.len()),
                out,
                std::thread::current().id(),
            )
        };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("pool");
        let pooled = pool.install(run);
        let caller = std::thread::current().id();
        let inlined = inline(run);
        assert_eq!(inlined.5, caller, "inline work runs on the calling thread");
        assert_ne!(pooled.5, caller);
        assert_eq!(
            (&pooled.0, &pooled.1, &pooled.2, &pooled.3, &pooled.4),
            (&inlined.0, &inlined.1, &inlined.2, &inlined.3, &inlined.4)
        );
        assert_eq!(inlined.3.len(), 1000 / 33);
        assert_eq!(inlined.2.len(), 1000usize.div_ceil(33));
        assert!(!sequential(), "the mode is restored");
        assert_eq!(inline(threads), 1);
    }
}
