//! The oracle: `light-poseidon`'s circom hasher, made for each item, over
//! the item's bytes as they are (see [`super`]).

use ark_bn254::Fr;
use light_poseidon::{Poseidon, PoseidonBytesHasher, PoseidonError};

use super::{ELEMENT_LEN, HashResult};
use crate::verdict::Reason;

/// One item's hash: the crate's, or the reason it refuses the item. The
/// item goes to the crate cut into 32-byte elements (a shorter last piece
/// when its length is not a multiple of 32); the crate refuses a width it
/// has no parameters for (no element, or more than 12) and an element of
/// another length (`wrong_input_length`), then an element not below r
/// (`non_canonical_element`).
pub fn hash(item: &[u8]) -> HashResult {
    let pieces: Vec<&[u8]> = item.chunks(ELEMENT_LEN).collect();
    let refused = |e: PoseidonError| match e {
        PoseidonError::InputLargerThanModulus => Reason::NonCanonicalElement,
        _ => Reason::WrongInputLength,
    };
    // The crate's widths start at 2: no hasher for no input.
    if pieces.is_empty() {
        return Err(Reason::WrongInputLength);
    }
    let mut hasher = Poseidon::<Fr>::new_circom(pieces.len()).map_err(refused)?;
    hasher.hash_bytes_be(&pieces).map_err(refused)
}
