//! Values made from byte strings, the most recent few kept per process:
//! what callers name by the same bytes call after call is made once (a
//! Groth16 key decoded and prepared; a padded Merkle tree's empty
//! subtrees' roots). Newest first; refusals are not kept.

use std::sync::{Arc, Mutex, PoisonError};

/// The values of the `N` most recent distinct keys.
pub(crate) struct Recent<V, const N: usize>(Mutex<Vec<(Vec<u8>, Arc<V>)>>);

impl<V, const N: usize> Recent<V, N> {
    pub(crate) const fn new() -> Recent<V, N> {
        Recent(Mutex::new(Vec::new()))
    }

    /// The value of `key`, made by `make` unless held (outside the lock:
    /// two callers may both make a new key's value, the later one kept).
    pub(crate) fn get<E>(&self, key: &[u8], make: impl FnOnce(&[u8]) -> Result<V, E>) -> Result<Arc<V>, E> {
        // A poisoned lock only means another thread panicked mid-update:
        // the list is still a list of finished values.
        let hit = {
            let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
            held.iter().position(|(k, _)| k == key).map(|at| {
                let entry = held.remove(at);
                let value = Arc::clone(&entry.1);
                held.insert(0, entry);
                value
            })
        };
        if let Some(value) = hit {
            return Ok(value);
        }
        let value = Arc::new(make(key)?);
        let mut held = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        held.insert(0, (key.to_vec(), Arc::clone(&value)));
        held.truncate(N);
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_recent_and_makes_each_once() {
        let made = std::cell::Cell::new(0);
        let cache: Recent<usize, 2> = Recent::new();
        let get = |k: &[u8]| {
            cache
                .get(k, |k| {
                    made.set(made.get() + 1);
                    Ok::<_, ()>(k.len())
                })
                .map(|v| *v)
        };
        assert_eq!((get(b"a"), get(b"bb"), get(b"a")), (Ok(1), Ok(2), Ok(1)));
        assert_eq!(made.get(), 2);
        // "a" was used last: "ccc" pushes "bb" out.
        assert_eq!((get(b"ccc"), get(b"a")), (Ok(3), Ok(1)));
        assert_eq!(made.get(), 3);
        assert_eq!(get(b"bb"), Ok(2));
        assert_eq!(made.get(), 4);
        // Refusals are not kept.
        assert_eq!(cache.get(b"x", |_| Err::<usize, _>("no")), Err("no"));
        assert_eq!(cache.get(b"x", |_| Ok::<_, &str>(9)).map(|v| *v), Ok(9));
    }
}
