//! The CPU path: `light-poseidon`'s permutation on every core. A task
//! takes up to [`TASK_ITEMS`] items (fewer in a small batch, so that
//! every core gets some) and keeps one hasher per width for them (making
//! one costs about a tenth of a hash: its constants are converted to
//! Montgomery form); the elements are decoded here
//! ([`super::elements`]) rather than by the crate's byte interface, which
//! goes through `num-bigint`.

use ark_bn254::Fr;
use light_poseidon::{Poseidon, PoseidonHasher};

use super::{HashResult, MAX_INPUTS, elements, hash_bytes};
use crate::batch::FlatBytes;
use crate::cores;
use crate::verdict::Reason;

/// Most items per task.
const TASK_ITEMS: usize = 64;

/// Every item's hash, in order.
pub(crate) fn hash(items: &FlatBytes) -> Vec<HashResult> {
    let per_task = items.len().div_ceil(4 * cores::threads()).clamp(1, TASK_ITEMS);
    let tasks = items.len().div_ceil(per_task);
    cores::map_range(0..tasks, 1, |t| {
        let mut hashers: [Option<Poseidon<Fr>>; MAX_INPUTS] = Default::default();
        (t * per_task..((t + 1) * per_task).min(items.len()))
            .map(|i| {
                let xs = elements(items.get(i))?;
                let hasher = match &mut hashers[xs.len() - 1] {
                    Some(h) => h,
                    empty => empty.insert(Poseidon::<Fr>::new_circom(xs.len()).map_err(|_| Reason::WrongInputLength)?),
                };
                // `elements` gives 1 to 12 elements: the crate takes them all.
                hasher
                    .hash(&xs)
                    .map(|h| hash_bytes(&h))
                    .map_err(|_| Reason::WrongInputLength)
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}
