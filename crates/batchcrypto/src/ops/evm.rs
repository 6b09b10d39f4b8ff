//! The EVM's precompiles (all but BLAKE2F), one call per item, each exactly
//! the EVM's semantics: the 32-byte words in, the bytes the precompile
//! returns out, or the failure of the call (the precompile consumes its
//! gas and returns nothing) as a [`PrecompileError`].
//!
//! | op | precompile | input | output |
//! |---|---|---|---|
//! | `bn256_add` | 0x06 ECADD ([EIP-196]) | two BN254 G1 points, 64 bytes each (x ‖ y, 32-byte big-endian words; (0, 0) is the point at infinity); a shorter input is padded with zeros, a longer one cut at 128 bytes | their sum, 64 bytes |
//! | `bn256_mul` | 0x07 ECMUL ([EIP-196]) | a G1 point and a 32-byte big-endian scalar (any 256-bit value); padded or cut at 96 bytes | the product, 64 bytes |
//! | `bn256_pairing` | 0x08 ECPAIRING ([EIP-197]) | k >= 0 pairs of a G1 point (64 bytes) and a G2 point (128 bytes: x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0, each Fp2 element with its `i` coefficient first; all zeros is infinity), length a multiple of 192 | a 32-byte word, 1 when the product of the pairings is one (also for k = 0), else 0 |
//! | `eip2537_g1msm` | 0x0c G1MSM ([EIP-2537]) | k >= 1 pairs of a BLS12-381 G1 point (128 bytes) and a 32-byte big-endian scalar (not reduced) | sum of the products, 128 bytes |
//! | `eip2537_g2msm` | 0x0e G2MSM ([EIP-2537]) | k >= 1 pairs of a G2 point (256 bytes) and a scalar | sum of the products, 256 bytes |
//! | `eip2537_g1add` | 0x0b G1ADD ([EIP-2537]) | two G1 points (128 bytes each), on the curve, not checked for the subgroup | their sum, 128 bytes |
//! | `eip2537_g2add` | 0x0d G2ADD ([EIP-2537]) | two G2 points (256 bytes each), likewise | their sum, 256 bytes |
//! | `eip2537_map_g1` | 0x10 MAP_FP_TO_G1 ([EIP-2537]) | a base-field element (64 bytes) | its point of G1 (RFC 9380's map and cofactor clearing), 128 bytes |
//! | `eip2537_map_g2` | 0x11 MAP_FP2_TO_G2 ([EIP-2537]) | an Fp2 element (128 bytes, c0 ‖ c1) | its point of G2, 256 bytes |
//! | `kzg_point_evaluation` | 0x0a point evaluation ([EIP-4844]) | versioned hash, z, y, commitment, proof (192 bytes) | FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS, 64 bytes, when the proof holds |
//! | `ecrecover` | 0x01 ECRECOVER | hash, v (27 or 28), r, s: 32-byte words, padded or cut at 128 bytes | the signer's address left-padded to 32 bytes, or nothing |
//! | `sha256` | 0x02 SHA256 | any bytes | their SHA-256, 32 bytes |
//! | `ripemd160` | 0x03 RIPEMD160 | any bytes | their RIPEMD-160 left-padded to 32 bytes |
//! | `identity` | 0x04 IDENTITY | any bytes | the same bytes |
//! | `p256verify` | 0x100 P256VERIFY ([EIP-7951]) | hash, r, s, qx, qy (exactly 160 bytes) | the word 1 when the signature verifies, or nothing |
//! | `modexp` | 0x05 MODEXP ([EIP-198], [EIP-7823]) | three 32-byte lengths, then base, exponent and modulus of those lengths (each at most 1,024 bytes) | base^exp mod modulus, `mod_len` bytes |
//!
//! (The EIP-2537 pairing check, 0x0f, is the BLS op `eip2537_pairing`:
//! [`super::bls::eip2537`], which also defines the EIP-2537 encodings.)
//!
//! Every coordinate must be below the field modulus and every point not at
//! infinity on its curve (BN254's G1 has cofactor 1, so that is also its
//! subgroup); BN254 G2 points and every BLS12-381 point of the MSMs and
//! the pairing check must be in the prime-order subgroup (the additions
//! ask none). The first failing check, in input order, is the reason.
//!
//! Oracles: arkworks (`ark-bn254`: affine points, `mul_bigint`,
//! `multi_pairing`) for BN254, checked against go-ethereum's vectors;
//! blst for BLS12-381, where the oracle sums the pairs' scalar
//! multiplications one by one and the CPU path is blst's Pippenger
//! multi-scalar multiplication (`cpu.rs`); arkworks' `ark-bls12-381`
//! for EIP-2537's additions and maps (`bls12.rs`); c-kzg-4844 for the
//! point evaluation (`kzg.rs`); revm's `aurora-engine-modexp` for MODEXP
//! (`modexp.rs`); for ECRECOVER, SHA256, RIPEMD160, IDENTITY and
//! P256VERIFY (`adapters.rs`) the `ecrecover` and `p256_verify` oracles,
//! `sha2` and `ripemd`. BLAKE2F (0x09) is not served: no vetted crate
//! exposes its compression function with a round count but revm's
//! precompiles, whose tree would double the build. Every precompile but EIP-2537's additions
//! and maps also runs on the GPU (`gpu.rs`; an addition costs less than
//! its transfer, the maps have no kernel yet), the
//! calls decoded and checked on the CPU cores with
//! the CPU path's checks (the pairing check's but G2's subgroup
//! membership): ECADD and ECMUL a thread per call over BN254's
//! G1 layer (`g1.wgsl`); the pairing check a thread per pair for G2's
//! subgroup check and its Miller loop (`pairs.wgsl` over BN254's tower)
//! and one per call for the product and the final exponentiation (the
//! EIP-2537 check's final stage); the EIP-2537 MSMs the MSM kernel's sums;
//! the point evaluation on the BLS12-381 stages, its points decompressed
//! and checked on the device (`gpu/kzg.rs`); MODEXP a thread per call with
//! an odd modulus of up to 512 bits (`gpu/modexp.rs`), the others on the
//! CPU cores; ECRECOVER, SHA256 and P256VERIFY on the kernels of
//! `ecrecover`, the SHA-256 hash and `p256_verify`; RIPEMD160 and
//! IDENTITY have none (their work costs less than its transfer).
//!
//! [EIP-196]: https://eips.ethereum.org/EIPS/eip-196
//! [EIP-198]: https://eips.ethereum.org/EIPS/eip-198
//! [EIP-7823]: https://eips.ethereum.org/EIPS/eip-7823
//! [EIP-7951]: https://eips.ethereum.org/EIPS/eip-7951
//! [EIP-197]: https://eips.ethereum.org/EIPS/eip-197
//! [EIP-2537]: https://eips.ethereum.org/EIPS/eip-2537
//! [EIP-4844]: https://eips.ethereum.org/EIPS/eip-4844

pub(crate) mod adapters;
pub(crate) mod bls12;
pub(crate) mod bn254;
pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub(crate) mod kzg;
pub(crate) mod modexp;
pub(crate) mod msm;
pub mod oracle;
#[cfg(feature = "wgpu")]
pub(crate) mod programs;
pub(crate) mod workload;

use std::fmt;
use std::str::FromStr;

/// One EVM precompile served here (the EIP-2537 pairing check is the BLS
/// op `eip2537_pairing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precompile {
    /// 0x06: BN254 G1 addition (EIP-196).
    Bn256Add,
    /// 0x07: BN254 G1 scalar multiplication (EIP-196).
    Bn256Mul,
    /// 0x08: BN254 pairing check (EIP-197).
    Bn256Pairing,
    /// 0x0c: BLS12-381 G1 multi-scalar multiplication (EIP-2537).
    BlsG1Msm,
    /// 0x0e: BLS12-381 G2 multi-scalar multiplication (EIP-2537).
    BlsG2Msm,
    /// 0x0b: BLS12-381 G1 addition (EIP-2537).
    BlsG1Add,
    /// 0x0d: BLS12-381 G2 addition (EIP-2537).
    BlsG2Add,
    /// 0x10: a base-field element mapped to G1 (EIP-2537).
    BlsMapG1,
    /// 0x11: an Fp2 element mapped to G2 (EIP-2537).
    BlsMapG2,
    /// 0x0a: a KZG proof of a blob commitment's value at a point (EIP-4844).
    PointEvaluation,
    /// 0x05: modular exponentiation of big integers (EIP-198, EIP-7823).
    ModExp,
    /// 0x01: the signer's address from a secp256k1 signature.
    Ecrecover,
    /// 0x02: SHA-256.
    Sha256,
    /// 0x03: RIPEMD-160.
    Ripemd160,
    /// 0x04: the input itself.
    Identity,
    /// 0x100: a P-256 signature check (EIP-7951).
    P256Verify,
}

impl Precompile {
    /// All of them, in the order they were added (the fuzz targets pick
    /// one by its index here, so that the committed inputs keep their
    /// meaning: new ones go at the end).
    pub const ALL: [Precompile; 16] = [
        Precompile::Bn256Add,
        Precompile::Bn256Mul,
        Precompile::Bn256Pairing,
        Precompile::BlsG1Msm,
        Precompile::BlsG2Msm,
        Precompile::BlsG1Add,
        Precompile::BlsG2Add,
        Precompile::BlsMapG1,
        Precompile::BlsMapG2,
        Precompile::PointEvaluation,
        Precompile::ModExp,
        Precompile::Ecrecover,
        Precompile::Sha256,
        Precompile::Ripemd160,
        Precompile::Identity,
        Precompile::P256Verify,
    ];

    /// The bytes a successful call returns: a point (BN254's 64, EIP-2537's
    /// G1 128 and G2 256), the pairing check's 32-byte word or the point
    /// evaluation's two words, SHA256's and RIPEMD160's word; `None` where
    /// it depends on the input: MODEXP's `mod_len` (at most
    /// [`MODEXP_MAX_LEN`]), IDENTITY's input, ECRECOVER's and
    /// P256VERIFY's word or nothing.
    pub fn output_len(&self) -> Option<usize> {
        match self {
            Precompile::Bn256Add | Precompile::Bn256Mul | Precompile::PointEvaluation => Some(64),
            Precompile::Bn256Pairing => Some(32),
            Precompile::BlsG1Msm | Precompile::BlsG1Add | Precompile::BlsMapG1 => Some(128),
            Precompile::BlsG2Msm | Precompile::BlsG2Add | Precompile::BlsMapG2 => Some(256),
            Precompile::Sha256 | Precompile::Ripemd160 => Some(32),
            Precompile::ModExp | Precompile::Ecrecover | Precompile::Identity | Precompile::P256Verify => None,
        }
    }

    /// The CLI's name (`batchcrypto evm bn256-add`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Precompile::Bn256Add => "bn256-add",
            Precompile::Bn256Mul => "bn256-mul",
            Precompile::Bn256Pairing => "bn256-pairing",
            Precompile::BlsG1Msm => "bls-g1msm",
            Precompile::BlsG2Msm => "bls-g2msm",
            Precompile::BlsG1Add => "bls-g1add",
            Precompile::BlsG2Add => "bls-g2add",
            Precompile::BlsMapG1 => "bls-map-g1",
            Precompile::BlsMapG2 => "bls-map-g2",
            Precompile::PointEvaluation => "point-evaluation",
            Precompile::ModExp => "modexp",
            Precompile::Ecrecover => "ecrecover",
            Precompile::Sha256 => "sha256",
            Precompile::Ripemd160 => "ripemd160",
            Precompile::Identity => "identity",
            Precompile::P256Verify => "p256verify",
        }
    }

    /// The precompile's address (its last two bytes).
    pub fn address(&self) -> u16 {
        match self {
            Precompile::Bn256Add => 0x06,
            Precompile::Bn256Mul => 0x07,
            Precompile::Bn256Pairing => 0x08,
            Precompile::BlsG1Msm => 0x0c,
            Precompile::BlsG2Msm => 0x0e,
            Precompile::BlsG1Add => 0x0b,
            Precompile::BlsG2Add => 0x0d,
            Precompile::BlsMapG1 => 0x10,
            Precompile::BlsMapG2 => 0x11,
            Precompile::PointEvaluation => 0x0a,
            Precompile::ModExp => 0x05,
            Precompile::Ecrecover => 0x01,
            Precompile::Sha256 => 0x02,
            Precompile::Ripemd160 => 0x03,
            Precompile::Identity => 0x04,
            Precompile::P256Verify => 0x100,
        }
    }
}

impl fmt::Display for Precompile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The address an `0x`-prefixed hex string names (`0x05`, `0x100`, or
/// all 20 bytes), if it is one.
pub(crate) fn address_of(s: &str) -> Option<u16> {
    let digits = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X"))?;
    let significant = digits.trim_start_matches('0');
    if digits.is_empty() || digits.len() > 40 || significant.len() > 4 {
        return None;
    }
    u16::from_str_radix(if significant.is_empty() { "0" } else { significant }, 16).ok()
}

/// A precompile by its CLI name (`modexp`) or its address in hex (`0x05`,
/// `0x0000000000000000000000000000000000000005`).
impl FromStr for Precompile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let address = address_of(s);
        Precompile::ALL
            .into_iter()
            .find(|p| p.name() == s || address == Some(p.address()))
            .ok_or_else(|| {
                let names: Vec<&str> = Precompile::ALL.iter().map(Precompile::name).collect();
                format!(
                    "unknown precompile {s:?} (expected one of {}, or an address in hex)",
                    names.join(", ")
                )
            })
    }
}

/// The most bytes a MODEXP operand, and so its output, may have
/// (EIP-7823).
pub const MODEXP_MAX_LEN: usize = modexp::MAX_LEN;

/// Why a precompile call fails (the call consumes its gas and returns
/// nothing). The same codes for every precompile here and for
/// `eip2537_pairing`.
///
/// The explicit discriminants are the failures' stable numbers (1 to 11),
/// the bytes the bindings' arrays hold (0: the call succeeded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PrecompileError {
    /// The input's length is not one the precompile takes (EIP-2537: empty
    /// or not a multiple of a pair; EIP-197: not a multiple of 192).
    InvalidLength = 1,
    /// An EIP-2537 field element's top 16 bytes are not zero.
    TopBytes = 2,
    /// A coordinate is not below the field modulus.
    FieldElement = 3,
    /// A point is not on its curve.
    NotOnCurve = 4,
    /// A G1 point is not in the prime-order subgroup.
    G1NotInSubgroup = 5,
    /// A G2 point is not in the prime-order subgroup.
    G2NotInSubgroup = 6,
    /// The point evaluation's versioned hash is not its commitment's.
    VersionedHash = 7,
    /// A scalar-field element (the point evaluation's z or y) is not below
    /// the modulus r.
    ScalarField = 8,
    /// A compressed point's encoding is refused (its flag bits, or x not
    /// below p).
    PointEncoding = 9,
    /// The KZG proof does not hold (the pairing check fails).
    ProofRejected = 10,
    /// A MODEXP length is above 1,024 bytes (EIP-7823).
    OperandTooLong = 11,
}

impl PrecompileError {
    /// Every failure, in the order of their numbers.
    pub const ALL: [PrecompileError; 11] = [
        PrecompileError::InvalidLength,
        PrecompileError::TopBytes,
        PrecompileError::FieldElement,
        PrecompileError::NotOnCurve,
        PrecompileError::G1NotInSubgroup,
        PrecompileError::G2NotInSubgroup,
        PrecompileError::VersionedHash,
        PrecompileError::ScalarField,
        PrecompileError::PointEncoding,
        PrecompileError::ProofRejected,
        PrecompileError::OperandTooLong,
    ];

    /// The failure's stable number (1 to 11).
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The stable snake_case code.
    pub fn code(&self) -> &'static str {
        match self {
            PrecompileError::InvalidLength => "invalid_length",
            PrecompileError::TopBytes => "field_top_bytes",
            PrecompileError::FieldElement => "field_not_below_p",
            PrecompileError::NotOnCurve => "not_on_curve",
            PrecompileError::G1NotInSubgroup => "g1_not_in_subgroup",
            PrecompileError::G2NotInSubgroup => "g2_not_in_subgroup",
            PrecompileError::VersionedHash => "versioned_hash_mismatch",
            PrecompileError::ScalarField => "scalar_not_below_r",
            PrecompileError::PointEncoding => "bad_point_encoding",
            PrecompileError::ProofRejected => "proof_rejected",
            PrecompileError::OperandTooLong => "operand_too_long",
        }
    }
}

impl fmt::Display for PrecompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What one call returns: the output bytes, or the failure.
pub type CallResult = Result<Vec<u8>, PrecompileError>;

/// `value` (big-endian, leading zeros allowed) as exactly `len` bytes:
/// zeros on the left, or its last `len` bytes (MODEXP's result is below
/// the modulus and RIPEMD-160's digest and an address shorter than their
/// word, so none loses a significant byte).
pub(crate) fn left_padded(value: &[u8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    let n = value.len().min(len);
    out[len - n..].copy_from_slice(&value[value.len() - n..]);
    out
}

/// The 32-byte word a pairing check returns (1 or 0).
pub fn bool_word(ok: bool) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[31] = u8::from(ok);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every precompile by its name and its address, short and whole; no
    /// other address (BLAKE2F's 0x09, the EIP-2537 pairing's 0x0f, which
    /// the bindings' `EvmCall` takes) and no malformed one.
    #[test]
    fn precompiles_by_name_and_address() {
        for p in Precompile::ALL {
            assert_eq!(p.name().parse(), Ok(p));
            assert_eq!(format!("{:#04x}", p.address()).parse(), Ok(p));
            assert_eq!(format!("0x{:040x}", p.address()).parse(), Ok(p));
        }
        assert_eq!("0X05".parse(), Ok(Precompile::ModExp));
        assert_eq!("0x100".parse(), Ok(Precompile::P256Verify));
        for bad in [
            "0x09",
            "0x0f",
            "0x",
            "0x0",
            "05",
            "0x1000000000000000000000000000000000000005",
            "0x5g",
            "0x10005",
        ] {
            assert!(bad.parse::<Precompile>().is_err(), "{bad}");
        }
        assert_eq!(address_of("0x0f"), Some(0x0f));
    }
}
