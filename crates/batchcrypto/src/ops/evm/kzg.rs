//! EIP-4844's point evaluation precompile (0x0a) on c-kzg-4844, the
//! library Ethereum's clients verify blob proofs with, and the mainnet
//! trusted setup it carries.
//!
//! Input: 192 bytes, `versioned_hash ‖ z ‖ y ‖ commitment ‖ proof` (32,
//! 32, 32, 48 and 48 bytes; z and y big-endian field elements, the points
//! compressed as ZCash writes BLS12-381 G1). The call succeeds when the
//! commitment's versioned hash (SHA-256 of the commitment with its first
//! byte set to 0x01) is `versioned_hash` and the proof shows that the
//! committed polynomial takes the value y at z; it then returns 64 bytes,
//! FIELD_ELEMENTS_PER_BLOB (4096) and BLS_MODULUS as 32-byte big-endian
//! words ([EIP-4844]). Anything else fails the call.
//!
//! The oracle is c-kzg's `verify_kzg_proof`, one call at a time. When
//! c-kzg refuses an input it does not say why, so the reason comes from
//! the checks it makes, in its order (`verify_kzg_proof` in c-kzg's
//! `eip4844.c`), made here with the same blst: the commitment, z, y, then
//! the proof; a point must decompress (flags and x below p), lie on the
//! curve and be in G1 (infinity is a point here: the commitment to the
//! zero polynomial).
//!
//! The CPU path ([`batch`]) checks every call on all cores, then decides
//! the pairing equations of many calls at once: a random linear
//! combination of them is two multi-scalar multiplications in G1 and one
//! product of two pairings, against two Miller loops, a final
//! exponentiation and a G2 multiplication per call one by one. From 64
//! calls per thread a batch is first checked as a few large sets, one or
//! more per thread (as the KZG cells are); a failing set, and smaller
//! batches, are bisected down to single calls, each decided by its own
//! equation ([`crate::bisect`], as Ed25519 ZIP-215 and BLS batch
//! verification do).
//! The GPU path (`gpu/kzg.rs`) checks the same fields in the same order
//! ([`in_order`]) and decides each call by its own equation on the device.
//!
//! [EIP-4844]: https://eips.ethereum.org/EIPS/eip-4844

use std::sync::OnceLock;

use ark_bls12_381::Fr;
use ark_ff::{AdditiveGroup, BigInteger, PrimeField};
use blst::min_pk::{PublicKey, Signature};
use blst::{blst_fp12, blst_p1_affine, blst_p2_affine};
use c_kzg::{Bytes32, Bytes48};
use rand::RngExt;
use sha2::{Digest, Sha256};

use super::{CallResult, PrecompileError};
use crate::batch::FlatBytes;
use crate::bisect::{self, Checker, Cost};
use crate::cores;
use crate::ops::kzg::{PointError, below_r, g1_point, settings};
use crate::ops::msm::blst_sum::{self, Sum};

/// Bytes of the input.
pub(crate) const INPUT_LEN: usize = 192;
/// The versioned hash's version byte (VERSIONED_HASH_VERSION_KZG).
const VERSION: u8 = 0x01;
/// BLS12-381's scalar field modulus r (BLS_MODULUS), big-endian.
pub(crate) use crate::ops::kzg::BLS_MODULUS;
/// FIELD_ELEMENTS_PER_BLOB.
const FIELD_ELEMENTS_PER_BLOB: u16 = 4096;

/// G1's generator, compressed (the trusted setup's first G1 monomial point).
const G1: [u8; 48] = [
    0x97, 0xf1, 0xd3, 0xa7, 0x31, 0x97, 0xd7, 0x94, 0x26, 0x95, 0x63, 0x8c, 0x4f, 0xa9, 0xac, 0x0f, 0xc3, 0x68, 0x8c,
    0x4f, 0x97, 0x74, 0xb9, 0x05, 0xa1, 0x4e, 0x3a, 0x3f, 0x17, 0x1b, 0xac, 0x58, 0x6c, 0x55, 0xe8, 0x3f, 0xf9, 0x7a,
    0x1a, 0xef, 0xfb, 0x3a, 0xf0, 0x0a, 0xdb, 0x22, 0xc6, 0xbb,
];

/// G2's generator, compressed (the trusted setup's first G2 monomial point).
pub(crate) const G2: [u8; 96] = [
    0x93, 0xe0, 0x2b, 0x60, 0x52, 0x71, 0x9f, 0x60, 0x7d, 0xac, 0xd3, 0xa0, 0x88, 0x27, 0x4f, 0x65, 0x59, 0x6b, 0xd0,
    0xd0, 0x99, 0x20, 0xb6, 0x1a, 0xb5, 0xda, 0x61, 0xbb, 0xdc, 0x7f, 0x50, 0x49, 0x33, 0x4c, 0xf1, 0x12, 0x13, 0x94,
    0x5d, 0x57, 0xe5, 0xac, 0x7d, 0x05, 0x5d, 0x04, 0x2b, 0x7e, 0x02, 0x4a, 0xa2, 0xb2, 0xf0, 0x8f, 0x0a, 0x91, 0x26,
    0x08, 0x05, 0x27, 0x2d, 0xc5, 0x10, 0x51, 0xc6, 0xe4, 0x7a, 0xd4, 0xfa, 0x40, 0x3b, 0x02, 0xb4, 0x51, 0x0b, 0x64,
    0x7a, 0xe3, 0xd1, 0x77, 0x0b, 0xac, 0x03, 0x26, 0xa8, 0x05, 0xbb, 0xef, 0xd4, 0x80, 0x56, 0xc8, 0xc1, 0x21, 0xbd,
    0xb8,
];

/// [τ]G2 of the Ethereum KZG ceremony, compressed (c-kzg-4844's
/// `g2_monomial_bytes.bin`, bytes 96..192).
pub(crate) const TAU_G2: [u8; 96] = [
    0xb5, 0xbf, 0xd7, 0xdd, 0x8c, 0xde, 0xb1, 0x28, 0x84, 0x3b, 0xc2, 0x87, 0x23, 0x0a, 0xf3, 0x89, 0x26, 0x18, 0x70,
    0x75, 0xcb, 0xfb, 0xef, 0xa8, 0x10, 0x09, 0xa2, 0xce, 0x61, 0x5a, 0xc5, 0x3d, 0x29, 0x14, 0xe5, 0x87, 0x0c, 0xb4,
    0x52, 0xd2, 0xaf, 0xaa, 0xab, 0x24, 0xf3, 0x49, 0x9f, 0x72, 0x18, 0x5c, 0xbf, 0xee, 0x53, 0x49, 0x27, 0x14, 0x73,
    0x44, 0x29, 0xb7, 0xb3, 0x86, 0x08, 0xe2, 0x39, 0x26, 0xc9, 0x11, 0xcc, 0xec, 0xea, 0xc9, 0xa3, 0x68, 0x51, 0x47,
    0x7b, 0xa4, 0xc6, 0x0b, 0x08, 0x70, 0x41, 0xde, 0x62, 0x10, 0x00, 0xed, 0xc9, 0x8e, 0xda, 0xda, 0x20, 0xc1, 0xde,
    0xf2,
];

/// The precompile's output on success.
pub(crate) fn output() -> [u8; 64] {
    let mut out = [0u8; 64];
    out[30..32].copy_from_slice(&FIELD_ELEMENTS_PER_BLOB.to_be_bytes());
    out[32..].copy_from_slice(&BLS_MODULUS);
    out
}

/// The versioned hash of a commitment.
pub(crate) fn versioned_hash(commitment: &[u8]) -> [u8; 32] {
    let mut hash: [u8; 32] = Sha256::digest(commitment).into();
    hash[0] = VERSION;
    hash
}

/// A compressed point as c-kzg reads it (`None`: infinity, a valid
/// commitment or proof), or why c-kzg refuses it.
fn point(bytes: &[u8]) -> Result<Option<blst_p1_affine>, PrecompileError> {
    g1_point(bytes).map_err(|e| match e {
        PointError::Encoding => PrecompileError::PointEncoding,
        PointError::NotOnCurve => PrecompileError::NotOnCurve,
        PointError::NotInGroup => PrecompileError::G1NotInSubgroup,
    })
}

/// A scalar-field element (z or y), which must be below r.
fn scalar(word: &[u8]) -> Result<Fr, PrecompileError> {
    if !below_r(word) {
        return Err(PrecompileError::ScalarField);
    }
    Ok(Fr::from_be_bytes_mod_order(word))
}

/// A call that passed every check but the proof's pairing equation, its
/// points as `P` (`None`: infinity).
pub(super) struct Ready<P> {
    pub(super) commitment: Option<P>,
    pub(super) proof: Option<P>,
    pub(super) z: Fr,
    pub(super) y: Fr,
}

/// The call's fields (z, y, the commitment, the proof) once its length
/// and versioned hash are checked, as the precompile checks them first.
pub(super) struct Fields<'a> {
    z: &'a [u8],
    y: &'a [u8],
    pub(super) commitment: &'a [u8],
    pub(super) proof: &'a [u8],
}

pub(super) fn fields(input: &[u8]) -> Result<Fields<'_>, PrecompileError> {
    if input.len() != INPUT_LEN {
        return Err(PrecompileError::InvalidLength);
    }
    let (hash, rest) = input.split_at(32);
    let (z, rest) = rest.split_at(32);
    let (y, rest) = rest.split_at(32);
    let (commitment, proof) = rest.split_at(48);
    if versioned_hash(commitment) != hash {
        return Err(PrecompileError::VersionedHash);
    }
    Ok(Fields {
        z,
        y,
        commitment,
        proof,
    })
}

/// The rest of a call's checks once [`fields`] passed, in c-kzg's order
/// (`verify_kzg_proof`): the commitment, z, y, the proof, the points'
/// checks given (blst's on the CPU, the device's on the GPU).
pub(super) fn in_order<P>(
    fields: &Fields,
    commitment: Result<Option<P>, PrecompileError>,
    proof: impl FnOnce() -> Result<Option<P>, PrecompileError>,
) -> Result<Ready<P>, PrecompileError> {
    Ok(Ready {
        commitment: commitment?,
        z: scalar(fields.z)?,
        y: scalar(fields.y)?,
        proof: proof()?,
    })
}

/// A call decoded by blst.
type Decoded = Ready<blst_p1_affine>;

/// The call's fields, checked in the order of the precompile and c-kzg's
/// `verify_kzg_proof`: the length, the versioned hash, then
/// [`in_order`].
fn checked(input: &[u8]) -> Result<Decoded, PrecompileError> {
    let f = fields(input)?;
    in_order(&f, point(f.commitment), || point(f.proof))
}

/// One call: the oracle. The verdict is c-kzg's; the reason for a call it
/// refuses is the first check [`checked`] finds failing.
pub(crate) fn point_evaluation(input: &[u8]) -> CallResult {
    let Fields {
        z,
        y,
        commitment,
        proof,
    } = fields(input)?;
    let word = |b: &[u8]| Bytes32::from_bytes(b).map_err(|_| PrecompileError::InvalidLength);
    let g1 = |b: &[u8]| Bytes48::from_bytes(b).map_err(|_| PrecompileError::InvalidLength);
    match settings().verify_kzg_proof(&g1(commitment)?, &word(z)?, &word(y)?, &g1(proof)?) {
        Ok(true) => Ok(output().to_vec()),
        Ok(false) => Err(PrecompileError::ProofRejected),
        // c-kzg refuses only inputs that fail one of the checks; should
        // our reading of them and its ever differ, the call still fails,
        // as c-kzg says.
        Err(_) => Err(checked(input).err().unwrap_or(PrecompileError::PointEncoding)),
    }
}

/// Below this many calls c-kzg verifies each on its own: the bisection's
/// first rounds would verify them one by one anyway (its probes: at 16
/// calls all of them), and a call c-kzg verifies whole is not decoded
/// twice (on the 2-core Xeon VM, one thread, one call: 1.9-2.4 ms decoded
/// here first against 1.5-2.0 ms for c-kzg alone).
const FEW_CALLS: usize = 32;

/// Costs of a batch check in single verifications (a call's own
/// equation: two Miller loops, a final exponentiation and four terms of
/// multi-scalar multiplications): the same fixed part, then per call
/// three terms of blst's multi-scalar multiplications.
const BATCH_COST: Cost = Cost {
    fixed: 0.9,
    per_item: 0.05,
    max_chunk: 512,
    leaf: 2,
};

/// Calls per thread from which a batch is first checked as a few large
/// sets ([`bisect::decide_large_first`], as the cells are).
const LARGE_SET: usize = 64;

/// Every call of a batch, the CPU path: each call checked on all cores,
/// then the calls that passed decided by random linear combinations of
/// their pairing equations with bisection ([`crate::bisect`]), single
/// calls by their own equation. A combination holds for calls that each
/// hold, and fails for a set with one that does not but with probability
/// 2^-128 (random 128-bit coefficients), after which every call of it is
/// decided on its own or by a smaller set; a call's own equation is
/// c-kzg's, rearranged (the tests hold every answer to c-kzg's).
pub(crate) fn batch(inputs: &FlatBytes) -> Vec<CallResult> {
    if inputs.len() < FEW_CALLS {
        return cores::map_range(0..inputs.len(), 1, |i| point_evaluation(inputs.get(i)));
    }
    let decoded = cores::map_range(0..inputs.len(), 1, |i| checked(inputs.get(i)));
    let ready: Vec<usize> = (0..decoded.len()).filter(|&i| decoded[i].is_ok()).collect();
    let calls: Vec<&Decoded> = ready.iter().filter_map(|&i| decoded[i].as_ref().ok()).collect();
    let all: Vec<usize> = (0..calls.len()).collect();
    let holds = bisect::decide_large_first(&calls.as_slice(), &all, BATCH_COST, LARGE_SET);
    let mut results: Vec<CallResult> = decoded
        .iter()
        .map(|d| d.as_ref().map(|_| output().to_vec()).map_err(|e| *e))
        .collect();
    for (&i, ok) in ready.iter().zip(holds) {
        if !ok {
            results[i] = Err(PrecompileError::ProofRejected);
        }
    }
    results
}

impl Checker for &[&Decoded] {
    /// The call's own equation: the combination of one (its coefficient
    /// changes nothing, the group having prime order), already decoded,
    /// where c-kzg would decode the call again and multiply in G2.
    fn one(&self, i: usize) -> bool {
        self.all(&[i])
    }

    /// e(sum r_i (C_i - [y_i]G1 + [z_i]pi_i), G2) == e(sum r_i pi_i, [τ]G2)
    /// with fresh nonzero 128-bit r_i: each call's equation e(C - [y]G1,
    /// G2) == e(pi, [τ - z]G2), rearranged so that G2 needs no
    /// multiplication, summed. Both sides are sums of points of G1 (blst's
    /// multi-scalar multiplications); a side at infinity pairs to one.
    fn all(&self, items: &[usize]) -> bool {
        static GENERATORS: OnceLock<(blst_p1_affine, blst_p2_affine, blst_p2_affine)> = OnceLock::new();
        let (g1, g2, tau_g2) = *GENERATORS.get_or_init(|| {
            let g2 = |b: &[u8]| Signature::uncompress(b).expect("a point of G2").into();
            let g1 = PublicKey::uncompress(&G1).expect("a point of G1").into();
            (g1, g2(&G2), g2(&TAU_G2))
        });
        let mut rng = rand::rng();
        let (mut left, mut left_scalars) = (Vec::with_capacity(2 * items.len() + 1), Vec::new());
        let (mut right, mut right_scalars) = (Vec::with_capacity(items.len()), Vec::new());
        let mut y_sum = Fr::ZERO;
        let le = |s: Fr| s.into_bigint().to_bytes_le();
        for &i in items {
            let call = self[i];
            let r = Fr::from(rng.random::<u128>() | 1);
            if let Some(c) = call.commitment {
                left.push(c);
                left_scalars.extend(le(r));
            }
            if let Some(pi) = call.proof {
                left.push(pi);
                left_scalars.extend(le(r * call.z));
                right.push(pi);
                right_scalars.extend(le(r));
            }
            y_sum += r * call.y;
        }
        left.push(g1);
        left_scalars.extend(le(-y_sum));
        let side = |points: &[blst_p1_affine], scalars: &[u8]| -> Option<blst_p1_affine> {
            let sum = blst_sum::g1(points, scalars, Sum::Pippenger);
            // blst's serialisation flags infinity with 0x40.
            if sum[0] & 0x40 != 0 {
                return None;
            }
            PublicKey::deserialize(&sum).ok().map(Into::into)
        };
        match (side(&left, &left_scalars), side(&right, &right_scalars)) {
            (None, None) => true,
            // e(P, Q) is one only for P at infinity (Q is not).
            (Some(_), None) | (None, Some(_)) => false,
            (Some(l), Some(r)) => {
                blst_fp12::finalverify(&blst_fp12::miller_loop(&g2, &l), &blst_fp12::miller_loop(&tau_g2, &r))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::evm::workload::kzg_call;
    use crate::ops::item_rng;

    /// The batch equation itself (the tests elsewhere would pass with a
    /// check that always fails, c-kzg deciding every call): it holds for
    /// sets of valid calls, the zero polynomial's included (both sides at
    /// infinity), and fails once one call's y is wrong, wherever it is.
    #[test]
    fn the_combined_equation_holds_exactly_for_valid_sets() {
        let inputs: Vec<Vec<u8>> = (0..24).map(|i| kzg_call(&mut item_rng(11, i), i, true)).collect();
        let calls: Vec<Decoded> = inputs.iter().map(|c| checked(c).expect("an honest call")).collect();
        let all: Vec<&Decoded> = calls.iter().collect();
        let set = all.as_slice();
        let indices: Vec<usize> = (0..all.len()).collect();
        assert!(set.all(&indices), "24 valid calls");
        assert!(set.all(&[0]), "one");
        // Calls 1, 7, 13 are the zero polynomial's (commitment and proof
        // at infinity).
        assert!(set.all(&[1, 7, 13]), "the zero polynomial's");
        for bad in [0, 1, 5, 23] {
            let mut spoiled = inputs.clone();
            spoiled[bad][95] ^= 1;
            let calls: Vec<Decoded> = spoiled.iter().map(|c| checked(c).expect("still well formed")).collect();
            let all: Vec<&Decoded> = calls.iter().collect();
            assert!(!all.as_slice().all(&indices), "y of call {bad} changed");
            assert!(!all.as_slice().all(&[bad]), "call {bad} alone");
        }
    }

    /// A batch large enough for the first large sets (400 calls on the
    /// pool's threads), with wrong y's at the ends and the middle and
    /// calls that fail their checks: every answer c-kzg's, call by call.
    #[test]
    fn large_batches_answer_as_c_kzg() {
        let mut inputs: Vec<Vec<u8>> = (0..400).map(|i| kzg_call(&mut item_rng(12, i), i, true)).collect();
        for bad in [0, 150, 151, 399] {
            inputs[bad][95] ^= 1;
        }
        inputs[200][7] ^= 1;
        inputs[300].pop();
        let mut flat = FlatBytes::new();
        for c in &inputs {
            assert!(flat.push(c));
        }
        let got = batch(&flat);
        assert_eq!(got.len(), inputs.len());
        for (i, (g, c)) in got.iter().zip(&inputs).enumerate() {
            assert_eq!(g, &point_evaluation(c), "call {i}");
        }
        let rejected: Vec<usize> = (0..got.len()).filter(|&i| got[i].is_err()).collect();
        assert_eq!(rejected, [0, 150, 151, 200, 300, 399]);
    }
}
