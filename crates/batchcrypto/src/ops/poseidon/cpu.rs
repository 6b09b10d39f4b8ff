//! The CPU path: `light-poseidon`'s permutation on every core. A task
//! takes [`TASK_ITEMS`] items and keeps one hasher per width for them
//! (making one costs about a tenth of a hash: its constants are converted
//! to Montgomery form); the elements are decoded here
//! ([`super::elements`]) rather than by the crate's byte interface, which
//! goes through `num-bigint`.

use ark_bn254::Fr;
use light_poseidon::{Poseidon, PoseidonHasher};

use super::{HashResult, MAX_INPUTS, elements, hash_bytes};
use crate::batch::FlatBytes;
use crate::cores;
use crate::verdict::Reason;

/// Items per task.
const TASK_ITEMS: usize = 64;

/// Every item's hash, in order.
pub(crate) fn hash(items: &FlatBytes) -> Vec<HashResult> {
    let tasks = items.len().div_ceil(TASK_ITEMS);
    cores::map_range(0..tasks, 1, |t| {
        let mut hashers: [Option<Poseidon<Fr>>; MAX_INPUTS] = Default::default();
        (t * TASK_ITEMS..((t + 1) * TASK_ITEMS).min(items.len()))
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
