//! ML-DSA signature verification (FIPS 204, "pure" ML-DSA with a context
//! string) at the three security levels ML-DSA-44, -65 and -87. Oracle:
//! RustCrypto's `ml-dsa` crate ([`oracle`]), which passes every Wycheproof
//! ML-DSA verification vector (tests/mldsa.rs).
//!
//! Verify (FIPS 204 algorithms 3 and 8): the public key (rho, t1) and the
//! signature (c~, z, h) have fixed lengths per level; the context is at
//! most 255 bytes; sigDecode fails on a malformed hint encoding (indices
//! not strictly increasing within a polynomial, counts decreasing or over
//! omega, nonzero padding); z must satisfy ||z||_inf < gamma1 - beta; then
//! w1' = UseHint(h, A z - c t1 2^d) and the item is valid iff
//! c~ = H(mu || w1Encode(w1')) with mu = H(tr || 0 || |ctx| || ctx || M).
//! Reasons, first failing check in this order: `malformed_key` (wrong
//! public key length), `malformed_signature` (wrong signature length),
//! `context_too_long`, `malformed_hint`, `z_out_of_range`, `equation`.
//! Any key of the right length decodes (every t1 coefficient fits).
//!
//! The CPU path (`cpu.rs`) expands each distinct key's matrix A once per
//! batch (keys repeat: a validator set, a certificate authority); so does
//! the GPU path (`gpu.rs`, kernel `verify.wgsl`), once per sub-batch.

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use std::fmt;

use crate::verdict::Reason;

/// Longest context string (FIPS 204: 255 bytes).
pub const MAX_CONTEXT: usize = 255;

/// The modulus q = 2^23 - 2^13 + 1 (FIPS 204 section 4).
#[cfg_attr(not(feature = "wgpu"), allow(dead_code, reason = "the GPU path's"))]
pub(crate) const Q: u32 = 8_380_417;

/// The parameter sets (FIPS 204 table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// ML-DSA-44 (NIST security category 2).
    Mldsa44,
    /// ML-DSA-65 (category 3).
    Mldsa65,
    /// ML-DSA-87 (category 5).
    Mldsa87,
}

/// A parameter set's numbers (FIPS 204 table 1) that the reason checks
/// and the GPU kernel need.
#[cfg_attr(
    not(feature = "wgpu"),
    allow(dead_code, reason = "l, tau and gamma2 are the GPU path's")
)]
pub(crate) struct Params {
    /// Public key bytes: 32 + 320 k.
    pub(crate) pk_len: usize,
    /// Signature bytes: lambda / 4 + l 32 (1 + bitlen(gamma1 - 1)) + omega + k.
    pub(crate) sig_len: usize,
    /// Rows of A (polynomials in t1 and h).
    pub(crate) k: usize,
    /// Columns of A (polynomials in z).
    pub(crate) l: usize,
    /// Nonzero coefficients of c.
    pub(crate) tau: u32,
    /// gamma2: (q - 1) / 88 or (q - 1) / 32.
    pub(crate) gamma2: u32,
    /// Most hints.
    pub(crate) omega: usize,
    /// gamma1 (2^17 or 2^19).
    pub(crate) gamma1: u32,
    /// beta = tau eta.
    pub(crate) beta: u32,
    /// Bytes of c~: lambda / 4.
    pub(crate) c_len: usize,
}

impl Level {
    /// Every level, in order.
    pub const ALL: [Level; 3] = [Level::Mldsa44, Level::Mldsa65, Level::Mldsa87];

    /// The name in the CLI and in reports: `ml-dsa-44`, ...
    pub fn name(self) -> &'static str {
        match self {
            Level::Mldsa44 => "ml-dsa-44",
            Level::Mldsa65 => "ml-dsa-65",
            Level::Mldsa87 => "ml-dsa-87",
        }
    }

    /// The level named `name` ([`Level::name`]).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }

    pub(crate) fn params(self) -> Params {
        match self {
            Level::Mldsa44 => Params {
                pk_len: 1312,
                sig_len: 2420,
                k: 4,
                l: 4,
                tau: 39,
                gamma2: 95_232,
                omega: 80,
                gamma1: 1 << 17,
                beta: 78,
                c_len: 32,
            },
            Level::Mldsa65 => Params {
                pk_len: 1952,
                sig_len: 3309,
                k: 6,
                l: 5,
                tau: 49,
                gamma2: 261_888,
                omega: 55,
                gamma1: 1 << 19,
                beta: 196,
                c_len: 48,
            },
            Level::Mldsa87 => Params {
                pk_len: 2592,
                sig_len: 4627,
                k: 8,
                l: 7,
                tau: 60,
                gamma2: 261_888,
                omega: 75,
                gamma1: 1 << 19,
                beta: 120,
                c_len: 64,
            },
        }
    }

    /// Public key length in bytes.
    pub fn pk_len(self) -> usize {
        self.params().pk_len
    }

    /// Signature length in bytes.
    pub fn sig_len(self) -> usize {
        self.params().sig_len
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A batch of `(public key, message, signature, context)` items of one
/// level (the type SLH-DSA's batches are too).
pub use crate::batch::ContextBatch as Batch;

/// Why an item the oracle rejects fails: the first failing check in the
/// module's order.
pub(crate) fn reason(level: Level, pk: &[u8], sig: &[u8], ctx: &[u8]) -> Reason {
    if let Some(reason) = decode_reason(level, pk, sig, ctx) {
        return reason;
    }
    let p = level.params();
    if z_norm(&sig[p.c_len..p.sig_len - p.omega - p.k], p.gamma1) >= p.gamma1 - p.beta {
        return Reason::ZOutOfRange;
    }
    Reason::Equation
}

/// The reason an item fails before any arithmetic (lengths, context, hint
/// encoding), if it does: the checks the GPU path's host makes.
pub(crate) fn decode_reason(level: Level, pk: &[u8], sig: &[u8], ctx: &[u8]) -> Option<Reason> {
    let p = level.params();
    if pk.len() != p.pk_len {
        return Some(Reason::MalformedKey);
    }
    if sig.len() != p.sig_len {
        return Some(Reason::MalformedSignature);
    }
    if ctx.len() > MAX_CONTEXT {
        return Some(Reason::ContextTooLong);
    }
    if !hint_well_formed(&sig[p.sig_len - p.omega - p.k..], p.k, p.omega) {
        return Some(Reason::MalformedHint);
    }
    None
}

/// Whether `h` (omega index bytes, then k cumulative counts) is a hint
/// encoding HintBitUnpack accepts (FIPS 204 algorithm 21).
fn hint_well_formed(h: &[u8], k: usize, omega: usize) -> bool {
    let mut index = 0;
    for i in 0..k {
        let end = usize::from(h[omega + i]);
        if end < index || end > omega {
            return false;
        }
        let first = index;
        while index < end {
            if index > first && h[index - 1] >= h[index] {
                return false;
            }
            index += 1;
        }
    }
    h[index..omega].iter().all(|&b| b == 0)
}

/// ||z||_inf of z's encoding (BitPack(z, gamma1 - 1, gamma1): each
/// coefficient stored as gamma1 - z in 18 or 20 bits, little-endian).
fn z_norm(z: &[u8], gamma1: u32) -> u32 {
    let bits = if gamma1 == 1 << 17 { 18 } else { 20 };
    let mut norm = 0;
    let (mut acc, mut have) = (0u64, 0u32);
    for &b in z {
        acc |= u64::from(b) << have;
        have += 8;
        while have >= bits {
            let stored = (acc & ((1 << bits) - 1)) as u32;
            acc >>= bits;
            have -= bits;
            // z = gamma1 - stored, in (-gamma1, gamma1].
            norm = norm.max(gamma1.abs_diff(stored));
        }
    }
    norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_fips_204s() {
        for level in Level::ALL {
            let p = level.params();
            let z_bits = if p.gamma1 == 1 << 17 { 18 } else { 20 };
            assert_eq!(p.pk_len, 32 + 320 * p.k, "{level}");
            assert_eq!(p.sig_len, p.c_len + p.l * 32 * z_bits + p.omega + p.k, "{level}");
            // beta = tau eta (eta 2, 4, 2); gamma2 divides q - 1 into 88 or 32.
            let eta = if level == Level::Mldsa65 { 4 } else { 2 };
            assert_eq!(p.beta, p.tau * eta, "{level}");
            assert!(
                matches!((Q - 1) / p.gamma2, 88 | 32) && (Q - 1).is_multiple_of(p.gamma2),
                "{level}"
            );
            assert_eq!(Level::from_name(level.name()), Some(level));
        }
    }

    #[test]
    fn hints_as_algorithm_21_reads_them() {
        // k = 2, omega = 4: polynomial 0 has hints at 1 and 3, polynomial 1 at 0.
        assert!(hint_well_formed(&[1, 3, 0, 0, 2, 3], 2, 4));
        assert!(hint_well_formed(&[0, 0, 0, 0, 0, 0], 2, 4));
        // Not increasing within a polynomial; equal indices.
        assert!(!hint_well_formed(&[3, 1, 0, 0, 2, 3], 2, 4));
        assert!(!hint_well_formed(&[1, 1, 0, 0, 2, 3], 2, 4));
        // Across polynomials indices may restart.
        assert!(hint_well_formed(&[3, 0, 0, 0, 1, 2], 2, 4));
        // Counts decreasing, over omega; nonzero padding.
        assert!(!hint_well_formed(&[1, 3, 0, 0, 2, 1], 2, 4));
        assert!(!hint_well_formed(&[1, 3, 0, 0, 2, 5], 2, 4));
        assert!(!hint_well_formed(&[1, 3, 0, 7, 2, 3], 2, 4));
    }

    #[test]
    fn z_norm_reads_the_packing() {
        // Four 18-bit coefficients in 9 bytes: stored gamma1 (z = 0),
        // gamma1 + 5 (z = -5), gamma1 - 7 (z = 7), 0 (z = gamma1).
        let g = 1u128 << 17;
        let packed = g | (g + 5) << 18 | (g - 7) << 36;
        let z = &packed.to_le_bytes()[..9];
        assert_eq!(z_norm(&z[..5], 1 << 17), 5);
        assert_eq!(z_norm(&z[..7], 1 << 17), 7);
        assert_eq!(z_norm(z, 1 << 17), 1 << 17);
    }
}
