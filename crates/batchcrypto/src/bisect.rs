//! Batch verification that an attacker cannot turn into a slowdown.
//!
//! A batch check (one random linear combination of many verification
//! equations: a multi-scalar multiplication for Ed25519 ZIP-215, one
//! multi-pairing for BLS) costs less per item than verifying items one by
//! one, but only tells whether *every* item passed. A failing batch is
//! bisected to find the bad items, and each failed check was wasted work.
//! With invalid items sprinkled through the input, naive batching does far
//! more work than item-by-item verification (issue 12 measured 5x for BLS).
//!
//! [`decide`] keeps batching from ever costing much more than verifying
//! one by one, whatever the share and placement of invalid items:
//!
//! - Work goes in rounds. Before each round the share `p` of invalid items
//!   is estimated from what the last rounds found (a decaying count, so a
//!   burst of bad items after a long honest stretch is noticed within a
//!   round) and a small prior.
//! - For each candidate chunk size `c` the expected cost per item of
//!   checking a chunk of `c` items and bisecting it on failure is computed
//!   exactly for independent failures of probability `p` ([`expected_cost`]),
//!   with the operation's measured [`Cost`] (a batch check of `k` items
//!   costs `fixed + per_item * k` single verifications). The cheapest size
//!   is used, or single verification when no size beats it.
//! - Rounds are small (a few chunks per thread), so a wrong guess costs
//!   one small round before the estimate catches up.
//!
//! Verdicts never depend on the strategy: a chunk that passes the batch
//! check has every item valid (up to the check's soundness error, e.g.
//! 2^-128 for Ed25519, 2^-64 for BLS), and every item of a failing chunk is
//! decided by its own single verification or by a sibling check. The unit
//! tests below run the strategy against a cost-counting checker over every
//! share and placement of invalid items and hold it to at most 1.1 times
//! the cost of item-by-item verification.

use crate::cores;

#[cfg(feature = "wgpu")]
pub(crate) mod passes;

/// What [`decide`] needs of an operation. Items are named by index.
pub(crate) trait Checker: Sync {
    /// The exact verdict of item `i` on its own (the oracle's).
    fn one(&self, i: usize) -> bool;
    /// Whether every item of `items` verifies, by one batch check.
    fn all(&self, items: &[usize]) -> bool;
}

/// Costs of an operation's checks, in units of one single verification.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cost {
    /// Cost of a batch check independent of its size.
    pub fixed: f64,
    /// Cost of a batch check per item.
    pub per_item: f64,
    /// Largest chunk checked at once (larger ones save little and cost more
    /// to bisect).
    pub max_chunk: usize,
    /// Sets of at most this many items are verified one by one when bisecting.
    pub leaf: usize,
}

impl Cost {
    fn batch(&self, k: usize) -> f64 {
        self.fixed + self.per_item * k as f64
    }
}

/// Prior on the invalid share: `PRIOR_BAD` invalid items in `PRIOR_SEEN`.
const PRIOR_BAD: f64 = 0.25;
const PRIOR_SEEN: f64 = 32.0;
/// Items after which the evidence of earlier rounds weighs half. Long, so
/// that after invalid items batching resumes only when a long honest
/// stretch has paid for the next surprise.
const HALF_LIFE_ITEMS: f64 = 1024.0;
/// Most items in one batching round. A round chosen on a wrong estimate
/// (all its chunks fail) costs at most about 2.5 times its items.
const MAX_ROUND_ITEMS: usize = 512;
/// Items per thread in a batching round before any valid item was seen,
/// and at most 1 / MAX_ROUND_SHARE of the batch.
const PROBE_PER_THREAD: usize = 8;
const MAX_ROUND_SHARE: usize = 8;
/// Chunks per thread in a round.
const CHUNKS_PER_THREAD: usize = 2;
/// Items per thread in a round of single verifications.
const SINGLES_PER_THREAD: usize = 64;
/// Batching must be expected to cost at most this share of single
/// verification to be used (the model is an approximation).
const BATCH_IF_BELOW: f64 = 0.9;

/// [`decide`] for operations whose batch check costs little per item
/// beside its fixed part: a batch of at least `min_set` items per thread
/// is first checked as a few large sets, one or more per thread (at most
/// `cost.max_chunk` items each); a set that passes is decided, the items
/// of those that fail (and smaller batches) go to [`decide`]. [`decide`]'s
/// first rounds are small probes that grow with the valid items seen,
/// which leaves most of a large set's saving unused on honest batches;
/// here hostile input wastes at most one set's check, `(fixed + per_item
/// k) / k` of a single verification per item for sets of `k >= min_set`.
pub(crate) fn decide_large_first(check: &impl Checker, items: &[usize], cost: Cost, min_set: usize) -> Vec<bool> {
    let threads = cores::threads();
    let mut ok = vec![false; items.len()];
    let mut undecided: Vec<usize> = (0..items.len()).collect();
    if items.len() >= min_set.max(1) * threads {
        // A whole number of sets per thread.
        let sets = items.len().div_ceil(cost.max_chunk.max(1)).div_ceil(threads) * threads;
        cores::for_chunks_mut(&mut ok, items.len().div_ceil(sets), |start, out| {
            out.fill(check.all(&items[start..start + out.len()]));
        });
        undecided.retain(|&k| !ok[k]);
    }
    let rest: Vec<usize> = undecided.iter().map(|&k| items[k]).collect();
    for (k, decided) in undecided.into_iter().zip(decide(check, &rest, cost)) {
        ok[k] = decided;
    }
    ok
}

/// The verdicts of `items` (indices for `check`), in order.
pub(crate) fn decide(check: &impl Checker, items: &[usize], cost: Cost) -> Vec<bool> {
    let threads = cores::threads();
    let mut ok = vec![false; items.len()];
    let (mut bad, mut seen) = (0.0f64, 0.0f64);
    let (mut done, mut streak) = (0, 0);
    while done < items.len() {
        let left = items.len() - done;
        let rate = (bad + PRIOR_BAD) / (seen + PRIOR_SEEN);
        // Items in flight at once bound what a wrong guess can cost: a
        // small probe, then at most a third of the items found valid since
        // the last invalid one (whose savings pay for a surprise).
        let probe = (PROBE_PER_THREAD * threads).min(items.len() / MAX_ROUND_SHARE).max(1);
        let cap = (streak / 3).min(MAX_ROUND_ITEMS).max(probe);
        let limit = (cap / threads).min(left.div_ceil(threads));
        // A chunk no larger than a leaf is checked one by one whatever the
        // model says, so the model is not asked: its recursion costs
        // about 10 µs, which a call of one to a few dozen items would
        // otherwise pay on top of the oracle's work.
        let chunk = if limit > cost.leaf.max(1) {
            best_chunk(rate, cost, expected_cost).map_or(1, |c| c.min(limit))
        } else {
            1
        };
        let (round, chunk) = if chunk > cost.leaf.max(1) {
            ((chunk * threads * CHUNKS_PER_THREAD).min(cap).min(left), chunk)
        } else {
            ((threads * SINGLES_PER_THREAD).min(left), 1)
        };
        let idx = &items[done..done + round];
        let out = &mut ok[done..done + round];
        cores::for_chunks_mut(out, chunk, |start, out| {
            resolve(check, &idx[start..start + out.len()], out, false, cost.leaf)
        });
        let found = out.iter().filter(|&&o| !o).count() as f64;
        streak = match out.iter().rposition(|&o| !o) {
            Some(last_bad) => round - last_bad - 1,
            None => streak + round,
        };
        let keep = 0.5f64.powf(round as f64 / HALF_LIFE_ITEMS);
        bad = bad * keep + found;
        seen = seen * keep + round as f64;
        done += round;
    }
    ok
}

/// Decides `idx` into `ok`: one batch check (skipped when the set is
/// `known_bad`: its union failed and the sibling passed), on failure the two
/// halves; sets of at most `leaf` items one by one.
fn resolve(check: &impl Checker, idx: &[usize], ok: &mut [bool], known_bad: bool, leaf: usize) {
    if idx.len() <= leaf.max(1) {
        let mut before_ok = true;
        for (n, (o, &i)) in ok.iter_mut().zip(idx).enumerate() {
            // A known-bad set whose other items all passed: the last one fails.
            *o = !(known_bad && before_ok && n + 1 == idx.len()) && check.one(i);
            before_ok &= *o;
        }
        return;
    }
    if !known_bad && check.all(idx) {
        ok.fill(true);
        return;
    }
    let half = idx.len() / 2;
    let (ok_lo, ok_hi) = ok.split_at_mut(half);
    resolve(check, &idx[..half], ok_lo, false, leaf);
    let lo_good = ok_lo.iter().all(|&b| b);
    // The union failed: with a good lower half, the upper half is bad.
    resolve(check, &idx[half..], ok_hi, lo_good, leaf);
}

/// The chunk size with the lowest expected cost per item at invalid share
/// `p`, or `None` when single verification is expected to be cheaper.
/// `expected(c, p, cost)` is the strategy's expected cost of `c` items.
fn best_chunk(p: f64, cost: Cost, expected: impl Fn(usize, f64, Cost) -> f64) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    let mut c = cost.leaf.max(1) + 1;
    while c <= cost.max_chunk {
        let per_item = expected(c, p, cost) / c as f64;
        if best.is_none_or(|(_, b)| per_item < b) {
            best = Some((c, per_item));
        }
        // Sizes 1, 1.5, 2, 3, 4, 6, 8, ... times a power of two.
        c = if c.is_power_of_two() {
            c + c / 2
        } else {
            c.next_power_of_two()
        }
        .max(c + 1);
    }
    best.filter(|&(_, b)| b < BATCH_IF_BELOW).map(|(c, _)| c)
}

/// Expected cost of deciding `c` items by [`resolve`] when each is invalid
/// on its own with probability `p`.
pub(crate) fn expected_cost(c: usize, p: f64, cost: Cost) -> f64 {
    let g = 1.0 - p.clamp(1e-9, 1.0 - 1e-9);
    unknown(c, g, cost)
}

/// Expected cost of a set of `c` items not known to fail.
fn unknown(c: usize, g: f64, cost: Cost) -> f64 {
    if c <= cost.leaf.max(1) {
        return c as f64;
    }
    cost.batch(c) + (1.0 - g.powi(c as i32)) * known_bad(c, g, cost)
}

/// Expected cost of a set of `c` items known to hold an invalid one.
fn known_bad(c: usize, g: f64, cost: Cost) -> f64 {
    let all_good = |k: usize| g.powi(k as i32);
    if c <= cost.leaf.max(1) {
        // The last item is skipped when all the others passed.
        return c as f64 - all_good(c - 1) * (1.0 - g) / (1.0 - all_good(c));
    }
    let (a, b) = (c / 2, c - c / 2);
    // P(lower half fails | the set fails).
    let lo_bad = (1.0 - all_good(a)) / (1.0 - all_good(c));
    // The lower half is checked not knowing it fails, but it fails more
    // often than unconditionally: the whole set did.
    let lower = if a <= cost.leaf.max(1) {
        a as f64
    } else {
        cost.batch(a) + lo_bad * known_bad(a, g, cost)
    };
    lower + lo_bad * unknown(b, g, cost) + (1.0 - lo_bad) * known_bad(b, g, cost)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::sync::Mutex;

    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// Measured on the 2-core development VM (see `ops::bls::cpu`).
    const BLS: Cost = crate::ops::bls::cpu::BATCH_COST;
    const ZIP215: Cost = crate::ops::ed25519::cpu::BATCH_COST;

    /// Items in `bad` fail; every check adds its cost to `spent`.
    struct Counting {
        bad: HashSet<usize>,
        cost: Cost,
        spent: Mutex<f64>,
    }

    impl Counting {
        fn add(&self, c: f64) {
            if let Ok(mut s) = self.spent.lock() {
                *s += c;
            }
        }
    }

    impl Checker for Counting {
        fn one(&self, i: usize) -> bool {
            self.add(1.0);
            !self.bad.contains(&i)
        }
        fn all(&self, items: &[usize]) -> bool {
            self.add(self.cost.batch(items.len()));
            items.iter().all(|i| !self.bad.contains(i))
        }
    }

    /// [`decide_large_first`] on items named by other indices (every
    /// third of 0..3n), with a cost of one per item beside a fixed one:
    /// every verdict right, one answer per item; an honest batch costs a
    /// few sets' checks, not a bisection's probes; an invalid item in
    /// every set wastes at most one set's check per set beside what
    /// [`decide`] spends.
    #[test]
    fn large_sets_first() {
        let cost = Cost {
            fixed: 1.0,
            per_item: 0.03,
            max_chunk: 512,
            leaf: 2,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("a thread pool");
        let items: Vec<usize> = (0..2048).map(|k| 3 * k).collect();
        let run = |bad: HashSet<usize>, items: &[usize]| {
            let check = Counting {
                bad,
                cost,
                spent: Mutex::new(0.0),
            };
            let ok = pool.install(|| decide_large_first(&check, items, cost, 64));
            assert_eq!(ok.len(), items.len());
            for (k, ok) in ok.iter().enumerate() {
                assert_eq!(*ok, !check.bad.contains(&items[k]), "item {k}");
            }
            *check.spent.lock().expect("no poisoned lock")
        };
        // Honest: four sets of 512.
        let spent = run(HashSet::new(), &items);
        assert!((spent - 4.0 * cost.batch(512)).abs() < 1e-9, "{spent}");
        // Under 64 per thread: decide alone.
        run(HashSet::from([3 * 5]), &items[..100]);
        // One invalid item in every set: the sets' checks wasted, then
        // decide on every item.
        let bad: HashSet<usize> = [0, 600, 1100, 2000].iter().map(|k| 3 * k).collect();
        let spent = run(bad.clone(), &items);
        let check = Counting {
            bad,
            cost,
            spent: Mutex::new(0.0),
        };
        let _ = pool.install(|| decide(&check, &items, cost));
        let alone = *check.spent.lock().expect("no poisoned lock");
        assert!(spent <= alone + 4.0 * cost.batch(512) + 1e-9, "{spent} against {alone}");
    }

    /// Runs [`decide`] on `n` items with `bad` invalid on `threads` threads:
    /// checks every verdict and returns the cost relative to verifying
    /// each item alone.
    fn relative_cost(n: usize, bad: HashSet<usize>, cost: Cost, threads: usize) -> f64 {
        let check = Counting {
            bad,
            cost,
            spent: Mutex::new(0.0),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let items: Vec<usize> = (0..n).collect();
        let ok = pool.install(|| decide(&check, &items, cost));
        assert_eq!(ok.len(), n);
        for (i, ok) in ok.iter().enumerate() {
            assert_eq!(*ok, !check.bad.contains(&i), "item {i}");
        }
        let spent = *check.spent.lock().expect("no poisoned lock");
        spent / n as f64
    }

    /// The placements of invalid items an attacker may choose.
    pub(super) fn patterns(n: usize) -> Vec<(String, HashSet<usize>)> {
        let mut out = Vec::new();
        for share in [0.0, 0.001, 0.01, 0.03, 0.1, 0.25, 0.5, 0.9, 1.0] {
            let k = (n as f64 * share).round() as usize;
            let mut rng = StdRng::seed_from_u64(k as u64);
            let random = (0..n).filter(|_| rng.random_bool(share)).collect();
            out.push((format!("{share} random"), random));
            if let Some(step) = n.checked_div(k) {
                out.push((format!("{share} every {step}th"), (0..k).map(|j| j * n / k).collect()));
                out.push((format!("{share} first"), (0..k).collect()));
                out.push((format!("{share} middle"), (n / 2 - k / 2..n / 2 - k / 2 + k).collect()));
                out.push((format!("{share} last"), (n - k..n).collect()));
            }
        }
        // Honest for a long stretch, then half bad (the estimate lags).
        out.push(("honest then 50%".into(), (3 * n / 4..n).step_by(2).collect()));
        // Alternating honest and bad blocks.
        for block in [16, 100, 500] {
            out.push((
                format!("blocks of {block}"),
                (0..n).filter(|i| (i / block) % 2 == 1).collect(),
            ));
        }
        out
    }

    #[test]
    fn never_much_dearer_than_one_by_one() {
        let mut over = Vec::new();
        for (name, cost) in [("bls", BLS), ("zip215", ZIP215)] {
            for threads in [1, 2, 16] {
                for (pattern, bad) in patterns(4000) {
                    let rel = relative_cost(4000, bad, cost, threads);
                    println!("{name}, {threads} threads, {pattern}: {rel:.3}");
                    if rel > 1.1 {
                        over.push(format!("{name}, {threads} threads, {pattern}: {rel:.3} x one by one"));
                    }
                }
            }
        }
        assert!(over.is_empty(), "{over:#?}");
    }

    #[test]
    fn honest_batches_are_cheap() {
        for (cost, most) in [(BLS, 0.5), (ZIP215, 0.7)] {
            for threads in [2, 16] {
                let rel = relative_cost(4000, HashSet::new(), cost, threads);
                assert!(rel <= most, "{rel:.3} > {most}");
            }
        }
    }

    #[test]
    fn small_batches_stay_bounded() {
        for n in [1, 2, 3, 9, 17, 100] {
            for share in [0.0, 0.5, 1.0] {
                let bad = (0..n).filter(|i| (*i as f64) < n as f64 * share).collect();
                let rel = relative_cost(n, bad, BLS, 2);
                assert!(rel <= 1.25, "n {n}, share {share}: {rel:.3}");
            }
        }
    }

    /// The closed-form expectation agrees with simulated bisections.
    #[test]
    fn expected_cost_matches_simulation() {
        let mut rng = StdRng::seed_from_u64(7);
        for (c, p) in [(32, 0.02), (32, 0.2), (13, 0.1), (64, 0.005)] {
            let runs = 4000;
            let mut total = 0.0;
            for _ in 0..runs {
                let bad = (0..c).filter(|_| rng.random_bool(p)).collect();
                let check = Counting {
                    bad,
                    cost: BLS,
                    spent: Mutex::new(0.0),
                };
                let idx: Vec<usize> = (0..c).collect();
                let mut ok = vec![false; c];
                resolve(&check, &idx, &mut ok, false, BLS.leaf);
                total += *check.spent.lock().expect("no poisoned lock");
            }
            let simulated = total / runs as f64;
            let expected = expected_cost(c, p, BLS);
            assert!(
                (simulated - expected).abs() <= 0.03 * expected,
                "c {c}, p {p}: simulated {simulated:.3}, expected {expected:.3}"
            );
        }
    }
}
