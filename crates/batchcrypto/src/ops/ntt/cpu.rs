//! The CPU path: every polynomial of the batch in parallel on the engine's
//! pool, each by the oracle's code (whose FFT also splits one large
//! polynomial over the pool; `tfhe-ntt` runs one on one core).

use super::{PolyResult, Transform, oracle};
use crate::cores;

/// Every polynomial of `polys` (a whole number of them, checked by
/// `Transform::polys_in`), in order.
pub(crate) fn run(t: &Transform, polys: &[u8]) -> Vec<PolyResult> {
    if t.field.negacyclic() {
        // One plan for the batch.
        let plan = oracle::tfhe_plan(t);
        return cores::map_chunks_exact(polys, t.poly_bytes(), |poly| oracle::negacyclic_with(&plan, t, poly));
    }
    cores::map_chunks_exact(polys, t.poly_bytes(), |poly| oracle::transform(t, poly))
}
