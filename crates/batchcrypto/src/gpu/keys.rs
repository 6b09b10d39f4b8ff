//! Distinct keys per sub-batch, for kernels that expand each public key
//! once and let items refer to it by slot (ML-DSA's matrix A, ML-KEM's A
//! and t): a batch of signatures under a validator set, or of
//! decapsulations under a server's key, repeats a few keys many times.
//!
//! Built once per call in one pass over the batch (keys are hashed by
//! their first 64 bytes and compared whole: cheap for keys of 1 to 3 KB);
//! each sub-batch then finds its keys, their count and every item's slot
//! from the remembered previous occurrence, without hashing again.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The slot of an item the host refused (the kernels skip it).
pub(crate) const NO_KEY: u32 = u32::MAX;

/// The items from `start` as the staged kernels read them, on all cores:
/// per item a record of `words` u32 words, its slot (`slots`, one per item)
/// first, then, for an item with a key, `payload(i)`'s bytes (the rest
/// zeros).
pub(crate) fn slotted_items<P: AsRef<[u8]>>(
    slots: &[u32],
    start: usize,
    words: usize,
    payload: impl Fn(usize) -> P + Sync,
) -> Vec<u8> {
    use rayon::prelude::*;
    let mut bytes = vec![0u8; slots.len() * words * 4];
    bytes
        .par_chunks_exact_mut(words * 4)
        .zip(slots)
        .enumerate()
        .for_each(|(k, (item, &slot))| {
            item[..4].copy_from_slice(&slot.to_le_bytes());
            if slot != NO_KEY {
                let payload = payload(start + k);
                item[4..4 + payload.as_ref().len()].copy_from_slice(payload.as_ref());
            }
        });
    bytes
}

/// `prev` of an item whose key appears there first.
const FIRST: u32 = u32::MAX;
/// `prev` of a refused item.
const SKIP: u32 = u32::MAX - 1;

/// A key compared whole but hashed by its first 64 bytes.
#[derive(PartialEq, Eq)]
struct KeyRef<'a>(&'a [u8]);

impl Hash for KeyRef<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0[..self.0.len().min(64)].hash(state);
    }
}

/// Per item, the previous item with the same key.
pub(crate) struct DistinctKeys {
    prev: Vec<u32>,
}

impl DistinctKeys {
    /// The keys of a batch in order, `None` for an item the host refused.
    pub(crate) fn new<'a>(keys: impl Iterator<Item = Option<&'a [u8]>>) -> DistinctKeys {
        let mut last: HashMap<KeyRef<'_>, u32> = HashMap::new();
        let prev = keys
            .zip(0u32..)
            .map(|(key, i)| match key {
                None => SKIP,
                Some(key) => last.insert(KeyRef(key), i).unwrap_or(FIRST),
            })
            .collect();
        DistinctKeys { prev }
    }

    /// Whether item `i` brings a key not yet in the sub-batch from `start`.
    pub(crate) fn is_new(&self, i: usize, start: usize) -> bool {
        let p = self.prev[i];
        p == FIRST || (p != SKIP && (p as usize) < start)
    }

    /// Distinct keys of items `start..end`.
    pub(crate) fn count(&self, start: usize, end: usize) -> usize {
        (start..end).filter(|&i| self.is_new(i, start)).count()
    }

    /// Each item's slot in the sub-batch `start..end` ([`NO_KEY`] if
    /// refused), and the items whose keys fill the slots, in slot order.
    pub(crate) fn slots(&self, start: usize, end: usize) -> (Vec<u32>, Vec<usize>) {
        let mut slots = vec![NO_KEY; end - start];
        let mut firsts = Vec::new();
        for i in start..end {
            slots[i - start] = match self.prev[i] {
                SKIP => NO_KEY,
                _ if self.is_new(i, start) => {
                    firsts.push(i);
                    (firsts.len() - 1) as u32
                }
                prev => slots[prev as usize - start],
            };
        }
        (slots, firsts)
    }
}

/// Where the sub-batch from `start` ends, at most at `max_end` and past at
/// least one item: before the working memory of its distinct keys
/// (`per_key` bytes each; every item its own key where `keys` is `None`)
/// or of its items (`per_item` bytes each) would pass `limit`.
pub(crate) fn sub_batch_end(
    keys: Option<&DistinctKeys>,
    start: usize,
    max_end: usize,
    (per_key, per_item): (u64, u64),
    limit: u64,
) -> usize {
    let mut count = 0u64;
    let mut end = start;
    while end < max_end {
        let with = count + u64::from(keys.is_none_or(|k| k.is_new(end, start)));
        let items = (end - start + 1) as u64;
        if end > start && (with * per_key > limit || items * per_item > limit) {
            break;
        }
        count = with;
        end += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_first_occurrences_per_sub_batch() {
        // Keys a b a - c b; the fourth item refused.
        let keys: [Option<&[u8]>; 6] = [Some(b"a"), Some(b"b"), Some(b"a"), None, Some(b"c"), Some(b"b")];
        let d = DistinctKeys::new(keys.into_iter());
        assert_eq!(d.slots(0, 6), (vec![0, 1, 0, NO_KEY, 2, 1], vec![0, 1, 4]));
        assert_eq!(d.count(0, 6), 3);
        // From item 2 on, a and b are new again.
        assert_eq!(d.slots(2, 6), (vec![0, NO_KEY, 1, 2], vec![2, 4, 5]));
        assert_eq!(d.count(2, 6), 3);
        assert!(d.is_new(5, 2) && !d.is_new(5, 1) && !d.is_new(3, 0));
        // Keys longer than the hashed prefix still compare whole.
        let long = [[7u8; 100], [7u8; 100]];
        let mut other = long[1];
        other[99] = 8;
        let d = DistinctKeys::new([Some(&long[0][..]), Some(&other[..]), Some(&long[1][..])].into_iter());
        assert_eq!(d.slots(0, 3), (vec![0, 1, 0], vec![0, 1]));
    }

    #[test]
    fn sub_batches_end_where_keys_or_items_would_overflow() {
        let keys: Vec<Option<&[u8]>> = [b"a", b"b", b"a", b"c", b"d"].map(|k| Some(&k[..])).to_vec();
        let d = DistinctKeys::new(keys.into_iter());
        // Three keys fit (a b a c), the fourth (d) not.
        assert_eq!(sub_batch_end(Some(&d), 0, 5, (10, 0), 30), 4);
        // Items bound: two items of 12 bytes under 30.
        assert_eq!(sub_batch_end(Some(&d), 0, 5, (0, 12), 30), 2);
        // Without keys every item is its own; at least one item always.
        assert_eq!(sub_batch_end(None, 1, 5, (10, 0), 25), 3);
        assert_eq!(sub_batch_end(None, 4, 5, (100, 0), 25), 5);
        assert_eq!(sub_batch_end(Some(&d), 2, 3, (10, 0), 30), 3);
    }
}
