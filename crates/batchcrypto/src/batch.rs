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
    /// total would exceed `u32::MAX` bytes.
    #[must_use]
    pub fn push(&mut self, item: &[u8]) -> bool {
        let Some(end) = u32::try_from(self.bytes.len())
            .ok()
            .and_then(|len| len.checked_add(u32::try_from(item.len()).ok()?))
        else {
            return false;
        };
        self.bytes.extend_from_slice(item);
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

    /// Removes every string, keeping the allocations.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.offsets.truncate(1);
    }
}
