//! Poseidon over BN254's scalar field as circom's `Poseidon(n)` computes
//! it: the hash of ZK circuits' Merkle trees, nullifiers and commitments
//! (circomlib and circomlibjs, Semaphore, Tornado-style pools, Light
//! Protocol's compressed accounts, Solana's `sol_poseidon` syscall with
//! its `Bn254X5` parameters and big-endian bytes), one answer per item.
//!
//! The permutation is Poseidon's ([Poseidon], Grassi, Khovratovich,
//! Rechberger, Roy and Schofnegger) with circomlib's parameters: width
//! t = n + 1 for n = 1 to 12 inputs, the S-box x^5, 8 full rounds (4
//! before and 4 after) and 56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60 or
//! 65 partial rounds by n, circomlib's round constants and MDS matrices.
//! A round adds its t constants, applies the S-box (to every element in a
//! full round, to the first in a partial one) and multiplies by the MDS
//! matrix. The state starts as (0, x_1, ..., x_n); the hash is its first
//! element after the last round.
//!
//! An item is n field elements of 32 bytes each, big-endian, back to back
//! (32 n bytes), each below r; its answer is the hash, 32 bytes
//! big-endian. The reasons, the first that applies:
//! `wrong_input_length` (a length that is 0, not a multiple of 32, or
//! over 384 bytes: not 1 to 12 whole elements), then
//! `non_canonical_element` (an element not below r: no reduction, as
//! circom's field and Solana's syscall refuse it).
//!
//! The oracle ([`oracle`]) is `light-poseidon` (Light Protocol's, audited
//! by Veridise; the implementation behind Solana's syscall), a hasher made
//! for each item and the item's bytes handed to it as they are: its
//! verdicts are the crate's. The CPU path (`cpu.rs`) runs the same
//! crate's permutation on every core, each task keeping one hasher per
//! width for its items and decoding the elements itself. The GPU path
//! (`gpu.rs`, `hash.wgsl` over the permutation `poseidon.wgsl`) runs a
//! thread per item over the 256-bit Montgomery layer, one kernel per width
//! (the state, the rounds and the matrices of fixed size), with the
//! crate's constants and matrix rewritten once per width into the same
//! permutation with sparse partial rounds (`schedule.rs`: 2t - 1
//! multiplications by the matrix per partial round instead of t^2).
//!
//! [Poseidon]: https://eprint.iacr.org/2019/458

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
#[cfg(any(feature = "wgpu", test))]
pub(crate) mod schedule;
pub(crate) mod workload;

use ark_bn254::Fr;
use ark_ff::{BigInt, PrimeField};

use crate::verdict::Reason;

/// Bytes of one input element (and of the hash).
pub const ELEMENT_LEN: usize = 32;
/// Most inputs of one hash (circomlib's widths go up to 13).
pub const MAX_INPUTS: usize = 12;

/// A hash: 32 bytes, big-endian.
pub type Hash = [u8; ELEMENT_LEN];
/// An item's answer: its hash, or why there is none.
pub type HashResult = Result<Hash, Reason>;

/// The number of inputs of an item of `len` bytes, or
/// `wrong_input_length`.
pub fn inputs(len: usize) -> Result<usize, Reason> {
    let n = len / ELEMENT_LEN;
    if !len.is_multiple_of(ELEMENT_LEN) || !(1..=MAX_INPUTS).contains(&n) {
        return Err(Reason::WrongInputLength);
    }
    Ok(n)
}

/// The item's elements (see the module's docs for the reasons).
pub(crate) fn elements(item: &[u8]) -> Result<Vec<Fr>, Reason> {
    inputs(item.len())?;
    item.chunks_exact(ELEMENT_LEN).map(element).collect()
}

/// One element from its 32 big-endian bytes, when below r.
pub(crate) fn element(bytes: &[u8]) -> Result<Fr, Reason> {
    let limbs = std::array::from_fn(|k| {
        let at = ELEMENT_LEN - 8 * (k + 1);
        u64::from_be_bytes(bytes[at..at + 8].try_into().unwrap_or_default())
    });
    Fr::from_bigint(BigInt(limbs)).ok_or(Reason::NonCanonicalElement)
}

/// A hash's 32 big-endian bytes.
pub(crate) fn hash_bytes(h: &Fr) -> Hash {
    let limbs = h.into_bigint().0;
    std::array::from_fn(|i| limbs[3 - i / 8].to_be_bytes()[i % 8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_elements_are_read_as_the_docs_say() {
        for len in [0, 1, 31, 33, 63, 13 * 32, 416, 1000] {
            assert_eq!(inputs(len), Err(Reason::WrongInputLength), "{len}");
        }
        for n in 1..=MAX_INPUTS {
            assert_eq!(inputs(32 * n), Ok(n));
        }
        let r_minus_1 = (-Fr::from(1u64)).into_bigint().to_bytes_be_array();
        let r_be = Fr::MODULUS.to_bytes_be_array();
        assert_eq!(element(&r_minus_1), Ok(-Fr::from(1u64)));
        assert_eq!(element(&r_be), Err(Reason::NonCanonicalElement));
        assert_eq!(element(&[0xff; 32]), Err(Reason::NonCanonicalElement));
        let mut seven = [0u8; 32];
        seven[31] = 7;
        assert_eq!(element(&seven), Ok(Fr::from(7u64)));
        assert_eq!(hash_bytes(&Fr::from(7u64)), seven);
        assert_eq!(hash_bytes(&-Fr::from(1u64)).to_vec(), r_minus_1.to_vec());
    }

    trait BeArray {
        fn to_bytes_be_array(&self) -> [u8; 32];
    }

    impl BeArray for BigInt<4> {
        fn to_bytes_be_array(&self) -> [u8; 32] {
            use ark_ff::BigInteger;
            self.to_bytes_be().try_into().expect("32 bytes")
        }
    }
}
