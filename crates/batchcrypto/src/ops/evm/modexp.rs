//! EIP-198's MODEXP (0x05): `base^exp mod modulus` of big-endian integers
//! of up to 1,024 bytes each, as the EVM has run it since Osaka
//! ([EIP-7823]'s bound on the lengths).
//!
//! The input is three 32-byte big-endian lengths (`base_len`, `exp_len`,
//! `mod_len`) and then the three operands, each `len` bytes; bytes past
//! the input read as zeros and bytes past the operands are ignored. The
//! call fails ([`PrecompileError::OperandTooLong`]) when a length is above
//! 1,024; otherwise it returns the result left-padded with zeros to
//! `mod_len` bytes: zeros when the modulus is 0, nothing when `mod_len` is
//! 0, `0^0 = 1`. The checks in go-ethereum's order (`bigModExp.Run`): the
//! bound first, then `base_len = mod_len = 0` answers nothing.
//!
//! Gas is the caller's (EIP-2565 and EIP-7883 price a call from its
//! lengths and the exponent's head alone): this module answers the output.
//!
//! The oracle and the CPU path are revm's implementation,
//! `aurora-engine-modexp` (Montgomery multiplication for odd moduli, a
//! power-of-two part and the Chinese remainder theorem for even ones),
//! checked against go-ethereum's vectors and, in the tests, against
//! `num-bigint`'s `modpow`. The GPU path ([`super::gpu`]'s `modexp`)
//! takes the calls with an odd modulus of up to 512 bits.
//!
//! [EIP-7823]: https://eips.ethereum.org/EIPS/eip-7823

use super::{CallResult, PrecompileError, left_padded};

/// The most bytes an operand may have (EIP-7823).
pub(crate) const MAX_LEN: usize = 1024;
/// Bytes of the three lengths before the operands.
const HEADER: usize = 96;
/// Bytes of each length word.
const WORD: usize = 32;

/// One call's operands, big-endian, each exactly its declared length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Operands {
    pub base: Vec<u8>,
    pub exp: Vec<u8>,
    pub modulus: Vec<u8>,
}

/// `len` bytes of `data` from `at`, zeros past its end.
fn padded(data: &[u8], at: usize, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    if let Some(have) = data.get(at..) {
        let n = have.len().min(len);
        out[..n].copy_from_slice(&have[..n]);
    }
    out
}

/// The length word at `at`, when it is at most [`MAX_LEN`].
fn length(input: &[u8], at: usize) -> Option<usize> {
    let word = padded(input, at, WORD);
    let (high, low) = word.split_at(WORD - 2);
    let value = usize::from(u16::from_be_bytes([low[0], low[1]]));
    (high.iter().all(|&b| b == 0) && value <= MAX_LEN).then_some(value)
}

/// A call's operands, `None` when it answers nothing without computing
/// (`base_len = mod_len = 0`), or its failure.
pub(crate) fn read(input: &[u8]) -> Result<Option<Operands>, PrecompileError> {
    let lengths = [0, WORD, 2 * WORD].map(|at| length(input, at));
    let [Some(base_len), Some(exp_len), Some(mod_len)] = lengths else {
        return Err(PrecompileError::OperandTooLong);
    };
    if base_len == 0 && mod_len == 0 {
        return Ok(None);
    }
    let data = input.get(HEADER..).unwrap_or(&[]);
    Ok(Some(Operands {
        base: padded(data, 0, base_len),
        exp: padded(data, base_len, exp_len),
        modulus: padded(data, base_len + exp_len, mod_len),
    }))
}

/// The answer for `operands`: revm's `modexp`, left-padded.
pub(crate) fn answer(operands: &Operands) -> Vec<u8> {
    let v = aurora_engine_modexp::modexp(&operands.base, &operands.exp, &operands.modulus);
    left_padded(&v, operands.modulus.len())
}

/// One MODEXP call: the oracle and, a call per task, the CPU path.
pub(crate) fn call(input: &[u8]) -> CallResult {
    Ok(read(input)?.as_ref().map(answer).unwrap_or_default())
}

/// An input for `base^exp mod modulus` with the operands' own lengths.
pub(crate) fn encode(base: &[u8], exp: &[u8], modulus: &[u8]) -> Vec<u8> {
    let mut input = Vec::with_capacity(HEADER + base.len() + exp.len() + modulus.len());
    for len in [base.len(), exp.len(), modulus.len()] {
        input.extend(left_padded(&(len as u64).to_be_bytes(), WORD));
    }
    [input, base.to_vec(), exp.to_vec(), modulus.to_vec()].concat()
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::*;

    /// `num-bigint`'s answer for the same operands (0^0 = 1, modulus 0
    /// gives zeros).
    fn num(o: &Operands) -> Vec<u8> {
        let m = BigUint::from_bytes_be(&o.modulus);
        if m == BigUint::ZERO {
            return vec![0; o.modulus.len()];
        }
        let r = BigUint::from_bytes_be(&o.base).modpow(&BigUint::from_bytes_be(&o.exp), &m);
        left_padded(&r.to_bytes_be(), o.modulus.len())
    }

    #[test]
    fn lengths_and_padding_as_geth_reads_them() {
        // 3^5 mod 7 = 5 with one-byte operands.
        assert_eq!(call(&encode(&[3], &[5], &[7])), Ok(vec![5]));
        // Operands cut short read zeros: the modulus 0x0700 from one byte.
        let mut short = encode(&[3], &[5], &[7, 0]);
        short.pop();
        assert_eq!(call(&short), Ok(vec![0, 243]));
        // Bytes past the operands are ignored.
        let mut long = encode(&[3], &[5], &[7]);
        long.extend([0xff; 9]);
        assert_eq!(call(&long), Ok(vec![5]));
        // Empty input: all lengths zero, nothing to answer.
        assert_eq!(call(&[]), Ok(vec![]));
        // mod_len 0 with a base: an empty answer too.
        assert_eq!(call(&encode(&[3], &[5], &[])), Ok(vec![]));
        // Modulus 0 and 1; 0^0; leading zeros kept in the answer.
        assert_eq!(call(&encode(&[3], &[5], &[0, 0])), Ok(vec![0, 0]));
        assert_eq!(call(&encode(&[3], &[5], &[0, 1])), Ok(vec![0, 0]));
        assert_eq!(call(&encode(&[0], &[], &[0, 9])), Ok(vec![0, 1]));
        assert_eq!(call(&encode(&[], &[0], &[1])), Ok(vec![0]));
    }

    #[test]
    fn the_bound_comes_first() {
        let at = |len: &[u8; 32], which: usize| {
            let mut input = encode(&[3], &[5], &[7]);
            input[which * WORD..(which + 1) * WORD].copy_from_slice(len);
            input
        };
        let mut over = [0u8; 32];
        over[30..].copy_from_slice(&1025u16.to_be_bytes());
        let mut huge = [0u8; 32];
        huge[0] = 1;
        let mut most = [0u8; 32];
        most[30..].copy_from_slice(&1024u16.to_be_bytes());
        for which in 0..3 {
            assert_eq!(call(&at(&over, which)), Err(PrecompileError::OperandTooLong));
            assert_eq!(call(&at(&huge, which)), Err(PrecompileError::OperandTooLong));
            assert!(call(&at(&most, which)).is_ok(), "1,024 bytes is allowed");
        }
        // Even when base_len = mod_len = 0, a long exponent fails.
        let mut input = encode(&[], &[], &[]);
        input[WORD..2 * WORD].copy_from_slice(&over);
        assert_eq!(call(&input), Err(PrecompileError::OperandTooLong));
        input[WORD..2 * WORD].copy_from_slice(&most);
        assert_eq!(call(&input), Ok(vec![]));
    }

    /// revm's implementation against `num-bigint` over random operands of
    /// many sizes, odd and even moduli, zeros and ones.
    #[test]
    fn aurora_agrees_with_num_bigint() {
        use rand::rngs::StdRng;
        use rand::{RngExt, SeedableRng};
        let mut rng = StdRng::seed_from_u64(198);
        for i in 0..600 {
            let len = |rng: &mut StdRng| match i % 5 {
                0 => rng.random_range(0..4),
                1 | 2 => rng.random_range(1..=40),
                _ => rng.random_range(1..=140),
            };
            let bytes = |rng: &mut StdRng, n: usize| (0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>();
            let (b, e, m) = (len(&mut rng), len(&mut rng), len(&mut rng));
            let mut o = Operands {
                base: bytes(&mut rng, b),
                exp: bytes(&mut rng, e),
                modulus: bytes(&mut rng, m),
            };
            match i % 7 {
                1 => o.modulus.iter_mut().for_each(|x| *x = 0),
                2 => o.exp.iter_mut().for_each(|x| *x = 0),
                3 => o.base.iter_mut().for_each(|x| *x = 0),
                4 if !o.modulus.is_empty() => *o.modulus.last_mut().expect("nonempty") |= 1,
                5 if !o.modulus.is_empty() => *o.modulus.last_mut().expect("nonempty") &= 0xfe,
                _ => {}
            }
            assert_eq!(answer(&o), num(&o), "{o:?}");
        }
    }
}
