//! Flat storage for batches of variable-length byte strings.
//!
//! Messages are kept as one contiguous byte buffer plus `n + 1` offsets, the
//! layout a GPU backend uploads as it is (two buffers, no per-item
//! allocation, no padding). Offsets are `u32`, so one batch holds at most
//! 4 GiB of message bytes; larger inputs are split into several batches
//! (the CLI streams in chunks far below that).

/// Many byte strings stored back to back: item `i` is
/// `bytes[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatBytes {
    bytes: Vec<u8>,
    offsets: Vec<u32>,
}

impl Default for FlatBytes {
    fn default() -> Self {
        Self::new()
    }
}

impl FlatBytes {
    /// An empty collection.
    pub fn new() -> Self {
        FlatBytes {
            bytes: Vec::new(),
            offsets: vec![0],
        }
    }

    /// An empty collection with room for `items` strings of `bytes` bytes in all.
    pub fn with_capacity(items: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(items + 1);
        offsets.push(0);
        FlatBytes {
            bytes: Vec::with_capacity(bytes),
            offsets,
        }
    }

    /// Appends one string. Returns `false` (and appends nothing) when the
    /// total would exceed `u32::MAX` bytes or memory for it cannot be reserved.
    #[must_use]
    pub fn push(&mut self, item: &[u8]) -> bool {
        self.push_parts(&[item])
    }

    /// Appends one string made of `parts` in order (as [`FlatBytes::push`]
    /// of their concatenation, without making it).
    #[must_use]
    pub fn push_parts(&mut self, parts: &[&[u8]]) -> bool {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let Some(end) = u32::try_from(self.bytes.len())
            .ok()
            .and_then(|have| have.checked_add(u32::try_from(len).ok()?))
        else {
            return false;
        };
        // Large inputs come from users: no memory is an answer, not an abort.
        if self.bytes.try_reserve(len).is_err() || self.offsets.try_reserve(1).is_err() {
            return false;
        }
        for p in parts {
            self.bytes.extend_from_slice(p);
        }
        self.offsets.push(end);
        true
    }

    /// Number of strings.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// `true` when no string is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// String `i`. Panics if `i >= len()`, like slice indexing.
    pub fn get(&self, i: usize) -> &[u8] {
        &self.bytes[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// All bytes, back to back.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The `len() + 1` offsets into [`FlatBytes::bytes`].
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// A copy of strings `range` (offsets rebased to 0).
    pub fn slice(&self, range: std::ops::Range<usize>) -> FlatBytes {
        let first = self.offsets[range.start];
        FlatBytes {
            bytes: self.bytes[first as usize..self.offsets[range.end] as usize].to_vec(),
            offsets: self.offsets[range.start..=range.end]
                .iter()
                .map(|o| o - first)
                .collect(),
        }
    }

    /// Keeps the first `len` strings (no-op when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        self.offsets.truncate(len + 1);
        self.bytes.truncate(self.offsets[self.offsets.len() - 1] as usize);
    }

    /// Removes every string, keeping the allocations.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.truncate(1);
    }
}

/// A batch of `(public key, signature, message)` items in flat storage:
/// fixed-size keys (`PK` bytes) and signatures (`SIG` bytes) in arrays,
/// messages in one [`FlatBytes`]. `ed25519::Batch` and `bls::Batch` are
/// this type at their sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedBatch<const PK: usize, const SIG: usize> {
    pks: Vec<[u8; PK]>,
    sigs: Vec<[u8; SIG]>,
    msgs: FlatBytes,
}

impl<const PK: usize, const SIG: usize> Default for SignedBatch<PK, SIG> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const PK: usize, const SIG: usize> SignedBatch<PK, SIG> {
    /// An empty batch.
    pub fn new() -> Self {
        Self::with_capacity(0, 0)
    }

    /// An empty batch with room for `items` items and `msg_bytes` message bytes.
    pub fn with_capacity(items: usize, msg_bytes: usize) -> Self {
        SignedBatch {
            pks: Vec::with_capacity(items),
            sigs: Vec::with_capacity(items),
            msgs: FlatBytes::with_capacity(items, msg_bytes),
        }
    }

    /// Appends one item. Fails only when the batch would hold more than
    /// 4 GiB of message bytes (see [`FlatBytes`]).
    pub fn push(&mut self, pk: &[u8; PK], sig: &[u8; SIG], msg: &[u8]) -> Result<(), crate::Error> {
        if !self.msgs.push(msg) {
            return Err(crate::Error::BatchTooLarge {
                op: crate::OpName::Batch("signature"),
                backend: crate::Backend::Cpu,
                reason: format!(
                    "more than {} message bytes in one batch, or no memory for them; split the input",
                    u32::MAX
                ),
            });
        }
        self.pks.push(*pk);
        self.sigs.push(*sig);
        Ok(())
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.pks.len()
    }

    /// Keeps the first `len` items (all when there are fewer).
    pub fn truncate(&mut self, len: usize) {
        self.pks.truncate(len);
        self.sigs.truncate(len);
        self.msgs.truncate(len);
    }

    /// `true` when the batch holds no item.
    pub fn is_empty(&self) -> bool {
        self.pks.is_empty()
    }

    /// Public key of item `i`.
    pub fn pk(&self, i: usize) -> &[u8; PK] {
        &self.pks[i]
    }

    /// Signature of item `i`.
    pub fn sig(&self, i: usize) -> &[u8; SIG] {
        &self.sigs[i]
    }

    /// Message of item `i`.
    pub fn msg(&self, i: usize) -> &[u8] {
        self.msgs.get(i)
    }

    /// All public keys.
    pub fn pks(&self) -> &[[u8; PK]] {
        &self.pks
    }

    /// All signatures.
    pub fn sigs(&self) -> &[[u8; SIG]] {
        &self.sigs
    }

    /// All messages, flat.
    pub fn msgs(&self) -> &FlatBytes {
        &self.msgs
    }

    /// A copy of items `range`.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Self {
        SignedBatch {
            pks: self.pks[range.clone()].to_vec(),
            sigs: self.sigs[range.clone()].to_vec(),
            msgs: self.msgs.slice(range),
        }
    }

    /// Removes every item, keeping the allocations.
    pub fn clear(&mut self) {
        self.pks.clear();
        self.sigs.clear();
        self.msgs.clear();
    }
}

/// A batch of `(public key, message, signature, context)` items of one
/// parameter set, for the signatures whose keys and signatures have a
/// length per parameter set and whose messages carry a context string
/// (FIPS 204's ML-DSA and FIPS 205's SLH-DSA: `mldsa::Batch` and
/// `slhdsa::Batch` are this type). Every field may have any length (a
/// wrong length is the item's reason, not an error).
#[derive(Debug, Clone, Default)]
pub struct ContextBatch {
    pks: FlatBytes,
    msgs: FlatBytes,
    sigs: FlatBytes,
    ctxs: FlatBytes,
}

impl ContextBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends an item; fails (adding nothing) when a field would exceed
    /// its 4 GiB limit or memory for it cannot be reserved.
    pub fn push(&mut self, pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> Result<(), crate::Error> {
        let n = self.len();
        let fields = [&mut self.pks, &mut self.msgs, &mut self.sigs, &mut self.ctxs];
        if fields
            .into_iter()
            .zip([pk, msg, sig, ctx])
            .all(|(f, item)| f.push(item))
        {
            return Ok(());
        }
        for f in [&mut self.pks, &mut self.msgs, &mut self.sigs, &mut self.ctxs] {
            f.truncate(n);
        }
        Err(crate::Error::BatchTooLarge {
            op: crate::OpName::Batch("signature"),
            backend: crate::Backend::Cpu,
            reason: format!(
                "more than {} bytes of one field in one batch, or no memory for them; split the input",
                u32::MAX
            ),
        })
    }

    /// Items.
    pub fn len(&self) -> usize {
        self.pks.len()
    }

    /// Whether it holds no item.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes held, all fields together.
    pub fn bytes(&self) -> usize {
        [&self.pks, &self.msgs, &self.sigs, &self.ctxs]
            .iter()
            .map(|f| f.bytes().len())
            .sum()
    }

    /// Item `i`'s public key.
    pub fn pk(&self, i: usize) -> &[u8] {
        self.pks.get(i)
    }

    /// Item `i`'s message.
    pub fn msg(&self, i: usize) -> &[u8] {
        self.msgs.get(i)
    }

    /// Item `i`'s signature.
    pub fn sig(&self, i: usize) -> &[u8] {
        self.sigs.get(i)
    }

    /// Item `i`'s context string.
    pub fn ctx(&self, i: usize) -> &[u8] {
        self.ctxs.get(i)
    }

    /// Items `range`, copied.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Self {
        ContextBatch {
            pks: self.pks.slice(range.clone()),
            msgs: self.msgs.slice(range.clone()),
            sigs: self.sigs.slice(range.clone()),
            ctxs: self.ctxs.slice(range),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncate_keeps_the_first_strings() {
        let mut f = FlatBytes::new();
        for s in [&b"ab"[..], b"", b"cde"] {
            assert!(f.push(s));
        }
        f.truncate(5);
        assert_eq!(f.len(), 3);
        f.truncate(2);
        assert_eq!(
            (f.len(), f.get(0), f.get(1), f.bytes()),
            (2, &b"ab"[..], &b""[..], &b"ab"[..])
        );
        assert!(f.push(b"x"));
        assert_eq!(f.get(2), b"x");
        f.truncate(0);
        assert!(f.is_empty() && f.bytes().is_empty());
    }
}
