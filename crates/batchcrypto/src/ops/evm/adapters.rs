//! The precompiles whose work is another operation's or a plain hash:
//! ECRECOVER (0x01), SHA256 (0x02), RIPEMD160 (0x03), IDENTITY (0x04) and
//! P256VERIFY (0x100, [EIP-7951]), with the EVM's input and output around
//! batchcrypto's `ecrecover`, `p256_verify` and SHA-256 paths (so their
//! GPU kernels serve these calls too).
//!
//! - ECRECOVER reads hash ‖ v ‖ r ‖ s (32-byte words; shorter input
//!   padded with zeros, bytes past 128 ignored). v's word must be 27 or 28
//!   (its first 31 bytes zero); then libsecp256k1's recovery (r and s in
//!   [1, n - 1], high s allowed). It returns the signer's address
//!   left-padded to 32 bytes, or nothing: the call itself never fails
//!   (go-ethereum's `ecrecover.Run`).
//! - SHA256 returns the input's 32-byte digest; RIPEMD160 its 20-byte
//!   digest left-padded to 32 bytes; IDENTITY the input. None fails.
//! - P256VERIFY reads hash ‖ r ‖ s ‖ qx ‖ qy (exactly 160 bytes, else it
//!   returns nothing) and returns the 32-byte word 1 when the signature
//!   verifies (the `p256_verify` op's rules: r, s in [1, n - 1], the key a
//!   point of the curve), nothing otherwise; it never fails either.
//!
//! Oracles: the `ecrecover` and `p256_verify` oracles (libsecp256k1, the
//! `p256` crate), `sha2`, RustCrypto's `ripemd`.
//!
//! [EIP-7951]: https://eips.ethereum.org/EIPS/eip-7951

use ripemd::Digest as _;

use super::CallResult;
use crate::batch::FlatBytes;
use crate::gpu::Streamed;
use crate::ops::ecdsa::{P256Item, RecoverItem, Recovered};

/// Bytes ECRECOVER reads.
const ECRECOVER_LEN: usize = 128;
/// Bytes P256VERIFY takes.
const P256_LEN: usize = 160;

/// An ECRECOVER call's item, `None` when v's word is not 27 or 28 (the
/// call returns nothing).
pub(crate) fn ecrecover_item(input: &[u8]) -> Option<RecoverItem> {
    let mut buf = [0u8; ECRECOVER_LEN];
    let n = input.len().min(ECRECOVER_LEN);
    buf[..n].copy_from_slice(&input[..n]);
    let (v_word, v) = (&buf[32..63], buf[63]);
    if v_word.iter().any(|&b| b != 0) || !(v == 27 || v == 28) {
        return None;
    }
    let mut sig = [0u8; 65];
    sig[..64].copy_from_slice(&buf[64..]);
    sig[64] = v;
    Some(RecoverItem {
        hash: buf[..32].try_into().ok()?,
        sig,
    })
}

/// ECRECOVER's output for a recovery: the address in a 32-byte word, or
/// nothing.
pub(crate) fn ecrecover_output(recovered: Option<&Recovered>) -> Vec<u8> {
    recovered.map_or_else(Vec::new, |r| super::left_padded(&r.address, 32))
}

/// A P256VERIFY call's item, `None` for an input of another length.
pub(crate) fn p256_item(input: &[u8]) -> Option<P256Item> {
    if input.len() != P256_LEN {
        return None;
    }
    let word = |k: usize| -> Option<[u8; 32]> { input[32 * k..32 * (k + 1)].try_into().ok() };
    Some(P256Item {
        hash: word(0)?,
        r: word(1)?,
        s: word(2)?,
        x: word(3)?,
        y: word(4)?,
    })
}

/// P256VERIFY's output: the word 1, or nothing.
pub(crate) fn p256_output(valid: bool) -> Vec<u8> {
    if valid {
        super::bool_word(true).to_vec()
    } else {
        Vec::new()
    }
}

/// SHA256's output.
pub(crate) fn sha256(input: &[u8]) -> CallResult {
    Ok(sha2::Sha256::digest(input).to_vec())
}

/// RIPEMD160's output: the digest in a 32-byte word.
pub(crate) fn ripemd160(input: &[u8]) -> CallResult {
    Ok(super::left_padded(&ripemd::Ripemd160::digest(input), 32))
}

/// IDENTITY's output.
pub(crate) fn identity(input: &[u8]) -> CallResult {
    Ok(input.to_vec())
}

/// Calls whose work is a batch of another operation's items: `item` reads
/// a call (`None`: it returns nothing, with no work), `run` answers the
/// items in order, `output` writes an answer as the call's output. When
/// `run` stops early, the calls answered before the first call still
/// waiting.
pub(crate) fn via_items<I, A>(
    inputs: &FlatBytes,
    item: fn(&[u8]) -> Option<I>,
    run: impl FnOnce(&[I]) -> Streamed<A>,
    output: impl Fn(&A) -> Vec<u8>,
) -> Streamed<CallResult> {
    let read = (0..inputs.len())
        .map(|i| item(inputs.get(i)).ok_or(Ok(Vec::new())))
        .collect();
    crate::gpu::through(read, run, |a| Ok(output(&a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Known answers: SHA-256 and RIPEMD-160 of "abc" (FIPS 180-2 B.1;
    /// the RIPEMD-160 paper's table), the empty input's.
    #[test]
    fn hashes_of_known_inputs() {
        let hex = |s: &str| hex::decode(s).expect("hex");
        assert_eq!(
            sha256(b"abc"),
            Ok(hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        );
        let mut abc = vec![0u8; 12];
        abc.extend(hex("8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"));
        assert_eq!(ripemd160(b"abc"), Ok(abc));
        let mut empty = vec![0u8; 12];
        empty.extend(hex("9c1185a5c5e9fc54612808977ee8f548b2258d31"));
        assert_eq!(ripemd160(b""), Ok(empty));
        assert_eq!(identity(b"any bytes"), Ok(b"any bytes".to_vec()));
    }

    /// v's word: 27 and 28 only, its first 31 bytes zero; short input
    /// padded, long input cut; P256VERIFY's length exactly 160.
    #[test]
    fn inputs_read_as_go_ethereum_reads_them() {
        let mut input = vec![0u8; 128];
        for (v, some) in [(27, true), (28, true), (0, false), (1, false), (29, false)] {
            input[63] = v;
            assert_eq!(ecrecover_item(&input).is_some(), some, "v = {v}");
        }
        input[63] = 27;
        input[40] = 1;
        assert!(ecrecover_item(&input).is_none(), "a byte of v's word set");
        input[40] = 0;
        input.extend([9; 5]);
        assert_eq!(
            ecrecover_item(&input).map(|i| i.sig),
            Some([[0u8; 64].as_slice(), &[27]].concat().try_into().expect("65"))
        );
        assert!(ecrecover_item(&input[..64]).is_some(), "padded: v at byte 63 is kept");
        assert!(ecrecover_item(&input[..63]).is_none(), "padded: v is 0");
        assert!(p256_item(&[0u8; 160]).is_some());
        assert!(p256_item(&[0u8; 159]).is_none() && p256_item(&[0u8; 161]).is_none());
    }
}
