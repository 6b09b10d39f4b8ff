//! The CPU path of `kzg_cell_verify`: c-kzg's batch check over sets of
//! items chosen by [`crate::bisect`] (adaptive chunks on every core, a
//! failing set bisected down to single items), so that honest batches pay
//! two pairings per set, not per item, and hostile ones cost about what
//! item-by-item verification costs. An item c-kzg refuses (a bad index,
//! point or element) fails its sets like an invalid one; the reasons of
//! the invalid items are found afterwards ([`super::checks`]).
//!
//! A large batch is first checked as a few large sets, one or more per
//! thread ([`OPTIMISTIC_SET`] items or more each): the bisection's first
//! rounds are small probes that grow with the valid items seen (its bound
//! on what hostile input can waste), which leaves most of a set's saving
//! unused on honest batches of hundreds or thousands of cells. A set that
//! passes is decided; the items of those that fail go to the bisection.
//! What hostile input can waste that way is one set's check, at most
//! (1 + 0.03 k) / k of a single check per item for a set of k >= 64: 5%.

use super::{CellItem, batch_holds, checks, oracle};
use crate::bisect::{self, Checker, Cost};
use crate::cores;
use crate::verdict::{Reason, Verdict};

/// Below this many items each is verified on its own (a set of one is
/// c-kzg's check of that item anyway).
const FEW_ITEMS: usize = 2;

/// Costs of a batch check in single verifications (c-kzg's check of one
/// item: two pairings, its decoding, its interpolation), measured with
/// c-kzg on one thread of the 2-core Xeon VM: one item 4.27 ms; 8 items
/// 1.32 times that, 64 3.66, 256 6.88, 1,024 30.3 (the interpolations
/// summed per column, the proofs' and commitments' multi-scalar
/// multiplications).
const BATCH_COST: Cost = Cost {
    fixed: 1.0,
    per_item: 0.03,
    max_chunk: 512,
    leaf: 2,
};

/// The fewest items per set of the first, optimistic round (and a round
/// is tried only when every thread gets a set of at least this many).
const OPTIMISTIC_SET: usize = 64;

/// Items as [`crate::bisect`] checks them: every check is c-kzg's.
struct Cells<'a>(&'a [CellItem]);

impl Checker for Cells<'_> {
    fn one(&self, i: usize) -> bool {
        batch_holds(std::iter::once(&self.0[i]))
    }

    fn all(&self, items: &[usize]) -> bool {
        batch_holds(items.iter().map(|&i| &self.0[i]))
    }
}

/// Every item's verdict, equal to [`oracle::verify_cell`]'s.
pub(crate) fn verify(items: &[CellItem]) -> Vec<Verdict> {
    if items.len() < FEW_ITEMS {
        return cores::map_range(0..items.len(), 1, |i| oracle::verify_cell(&items[i]));
    }
    let threads = cores::threads();
    let mut holds = vec![false; items.len()];
    let mut undecided: Vec<usize> = (0..items.len()).collect();
    if items.len() >= OPTIMISTIC_SET * threads {
        // Sets of at most max_chunk items, a whole number per thread.
        let sets = items.len().div_ceil(BATCH_COST.max_chunk).div_ceil(threads) * threads;
        let size = items.len().div_ceil(sets);
        let cells = Cells(items);
        cores::for_chunks_mut(&mut holds, size, |start, out| {
            let set: Vec<usize> = (start..start + out.len()).collect();
            out.fill(cells.all(&set));
        });
        undecided.retain(|&i| !holds[i]);
    }
    let decided = bisect::decide(&Cells(items), &undecided, BATCH_COST);
    for (&i, ok) in undecided.iter().zip(decided) {
        holds[i] = ok;
    }
    cores::map_range(0..items.len(), 1, |i| {
        if holds[i] {
            Verdict::Valid
        } else {
            Verdict::Invalid(checks(&items[i]).err().unwrap_or(Reason::Equation))
        }
    })
}
