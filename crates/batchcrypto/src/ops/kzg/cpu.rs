//! The CPU path of `kzg_cell_verify`: c-kzg's batch check over sets of
//! items chosen by [`crate::bisect`] (adaptive chunks on every core, a
//! failing set bisected down to single items), so that honest batches pay
//! two pairings per set, not per item, and hostile ones cost about what
//! item-by-item verification costs. An item c-kzg refuses (a bad index,
//! point or element) fails its sets like an invalid one; the reasons of
//! the invalid items are found afterwards ([`super::checks`]).
//!
//! c-kzg's check costs little per item beside its fixed part (0.03 of a
//! single check), so a large batch is first checked as a few large sets
//! ([`bisect::decide_large_first`]).

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
pub(crate) const BATCH_COST: Cost = Cost {
    fixed: 1.0,
    per_item: 0.03,
    max_chunk: 512,
    leaf: 2,
};

/// The fewest items per set of the first large sets (and they are tried
/// only when every thread gets one of at least this many): hostile input
/// then wastes at most (1 + 0.03 x 64) / 64, 5% of a single check, per
/// item.
const LARGE_SET: usize = 64;

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
    let all: Vec<usize> = (0..items.len()).collect();
    let holds = bisect::decide_large_first(&Cells(items), &all, BATCH_COST, LARGE_SET);
    cores::map_range(0..items.len(), 1, |i| {
        if holds[i] {
            Verdict::Valid
        } else {
            Verdict::Invalid(checks(&items[i]).err().unwrap_or(Reason::Equation))
        }
    })
}
