//! SLH-DSA signature verification (FIPS 205, the stateless hash-based
//! signature standard, "pure" SLH-DSA with a context string) in all twelve
//! parameter sets: SHA2 or SHAKE, security category 1, 3 or 5 (n = 16, 24,
//! 32 bytes), small (`s`) or fast (`f`) signatures. Oracle: RustCrypto's
//! `slh-dsa` crate ([`oracle`]), which passes NIST's ACVP signature
//! verification vectors (tests/slhdsa.rs, every set).
//!
//! Verify (FIPS 205 algorithms 20 and 24): the public key is PK.seed ||
//! PK.root (2n bytes) and the signature R || SIG_FORS || SIG_HT has one
//! length per set; the context is at most 255 bytes. With M' = 0 || |ctx|
//! || ctx || M, the digest H_msg(R, PK.seed, PK.root, M') picks a FORS
//! key pair (idx_tree, idx_leaf) and k leaves of its trees; the FORS
//! signature's leaves and authentication paths give the trees' roots and
//! their compression PK_FORS; then each of the d layers of the hypertree
//! signs the node below it with a WOTS+ signature (len = 2n + 3 chains of
//! the Winternitz parameter w = 16) under an XMSS tree of height h'; the
//! item is valid iff the top layer's root is PK.root. Every hash is a
//! tweakable hash F, H or T_l keyed by PK.seed and a 32-byte address
//! (ADRS, section 4.2), SHAKE256 in the SHAKE sets; in the SHA2 sets
//! (section 11.2) SHA-256 with the compressed 22-byte address, SHA-512 for
//! H, T_l and H_msg in categories 3 and 5.
//!
//! Reasons, first failing check in this order: `malformed_key` (wrong
//! public key length), `malformed_signature` (wrong signature length),
//! `context_too_long`, `equation` (the computed root is not PK.root). Any
//! key and signature of the right length decode.
//!
//! The CPU path (`cpu.rs`) is the crate on every core. The GPU path
//! (`gpu.rs`, kernel `verify.wgsl`) computes H_msg on the host's cores and
//! the FORS trees and the hypertree's layers on the device, a thread per
//! tree or chain and one per item for what joins them.

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use std::fmt;

use crate::verdict::Reason;

/// A batch of `(public key, message, signature, context)` items of one
/// parameter set (the type ML-DSA's batches are too).
pub use crate::batch::ContextBatch as Batch;

/// What every set's name starts with.
const PREFIX: &str = "slh-dsa-";

/// Longest context string (FIPS 205 section 10.2: 255 bytes).
pub const MAX_CONTEXT: usize = 255;

/// The parameter sets (FIPS 205 table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Set {
    /// SLH-DSA-SHA2-128s.
    Sha2_128s,
    /// SLH-DSA-SHA2-128f.
    Sha2_128f,
    /// SLH-DSA-SHA2-192s.
    Sha2_192s,
    /// SLH-DSA-SHA2-192f.
    Sha2_192f,
    /// SLH-DSA-SHA2-256s.
    Sha2_256s,
    /// SLH-DSA-SHA2-256f.
    Sha2_256f,
    /// SLH-DSA-SHAKE-128s.
    Shake128s,
    /// SLH-DSA-SHAKE-128f.
    Shake128f,
    /// SLH-DSA-SHAKE-192s.
    Shake192s,
    /// SLH-DSA-SHAKE-192f.
    Shake192f,
    /// SLH-DSA-SHAKE-256s.
    Shake256s,
    /// SLH-DSA-SHAKE-256f.
    Shake256f,
}

/// A parameter set's numbers (FIPS 205 table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Params {
    /// Bytes of a hash value (security parameter).
    pub(crate) n: usize,
    /// Height of the hypertree.
    pub(crate) h: usize,
    /// Layers of the hypertree.
    pub(crate) d: usize,
    /// Height of an XMSS tree: h / d.
    pub(crate) hp: usize,
    /// Height of a FORS tree.
    pub(crate) a: usize,
    /// FORS trees.
    pub(crate) k: usize,
    /// Bytes of the message digest.
    pub(crate) m: usize,
    /// Whether the hashes are SHAKE256's (else SHA-2's).
    pub(crate) shake: bool,
}

impl Params {
    /// WOTS+ chains: len1 = 2n message digits and len2 = 3 checksum
    /// digits (FIPS 205 equations 5.1-5.4; lg_w = 4, w = 16, in every set).
    pub(crate) fn len(&self) -> usize {
        2 * self.n + 3
    }

    /// Public key bytes: PK.seed || PK.root.
    pub(crate) fn pk_len(&self) -> usize {
        2 * self.n
    }

    /// Signature bytes: R, k FORS leaves with their a-node paths, and d
    /// WOTS+ signatures with their h'-node paths.
    pub(crate) fn sig_len(&self) -> usize {
        (1 + self.k * (1 + self.a) + self.d * (self.len() + self.hp)) * self.n
    }
}

impl Set {
    /// Every set, in order.
    pub const ALL: [Set; 12] = [
        Set::Sha2_128s,
        Set::Sha2_128f,
        Set::Sha2_192s,
        Set::Sha2_192f,
        Set::Sha2_256s,
        Set::Sha2_256f,
        Set::Shake128s,
        Set::Shake128f,
        Set::Shake192s,
        Set::Shake192f,
        Set::Shake256s,
        Set::Shake256f,
    ];

    /// The name in the CLI and in reports: FIPS 205's, in lower case
    /// (`slh-dsa-sha2-128s`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Set::Sha2_128s => "slh-dsa-sha2-128s",
            Set::Sha2_128f => "slh-dsa-sha2-128f",
            Set::Sha2_192s => "slh-dsa-sha2-192s",
            Set::Sha2_192f => "slh-dsa-sha2-192f",
            Set::Sha2_256s => "slh-dsa-sha2-256s",
            Set::Sha2_256f => "slh-dsa-sha2-256f",
            Set::Shake128s => "slh-dsa-shake-128s",
            Set::Shake128f => "slh-dsa-shake-128f",
            Set::Shake192s => "slh-dsa-shake-192s",
            Set::Shake192f => "slh-dsa-shake-192f",
            Set::Shake256s => "slh-dsa-shake-256s",
            Set::Shake256f => "slh-dsa-shake-256f",
        }
    }

    /// The set named `name`: [`Set::name`] or FIPS 205's own spelling, in
    /// any case, the `slh-dsa-` prefix optional (`sha2-128s`,
    /// `SLH-DSA-SHAKE-128f`).
    pub fn from_name(name: &str) -> Option<Set> {
        Set::ALL.into_iter().find(|s| {
            let full = s.name();
            full.eq_ignore_ascii_case(name) || full[PREFIX.len()..].eq_ignore_ascii_case(name)
        })
    }

    /// The name without the `slh-dsa-` prefix (`sha2-128s`): the CLI's
    /// `--set` value.
    pub fn short_name(self) -> &'static str {
        &self.name()[PREFIX.len()..]
    }

    pub(crate) fn params(self) -> Params {
        // (n, h, d, h', a, k, m) of FIPS 205 table 2, the same for SHA2
        // and SHAKE.
        let (n, h, d, hp, a, k, m) = match self {
            Set::Sha2_128s | Set::Shake128s => (16, 63, 7, 9, 12, 14, 30),
            Set::Sha2_128f | Set::Shake128f => (16, 66, 22, 3, 6, 33, 34),
            Set::Sha2_192s | Set::Shake192s => (24, 63, 7, 9, 14, 17, 39),
            Set::Sha2_192f | Set::Shake192f => (24, 66, 22, 3, 8, 33, 42),
            Set::Sha2_256s | Set::Shake256s => (32, 64, 8, 8, 14, 22, 47),
            Set::Sha2_256f | Set::Shake256f => (32, 68, 17, 4, 9, 35, 49),
        };
        let shake = matches!(
            self,
            Set::Shake128s | Set::Shake128f | Set::Shake192s | Set::Shake192f | Set::Shake256s | Set::Shake256f
        );
        Params {
            n,
            h,
            d,
            hp,
            a,
            k,
            m,
            shake,
        }
    }

    /// Public key length in bytes.
    pub fn pk_len(self) -> usize {
        self.params().pk_len()
    }

    /// Signature length in bytes.
    pub fn sig_len(self) -> usize {
        self.params().sig_len()
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The reason an item fails before any hashing (lengths, context), if it
/// does: the checks both paths make first.
pub(crate) fn decode_reason(set: Set, pk: &[u8], sig: &[u8], ctx: &[u8]) -> Option<Reason> {
    let p = set.params();
    if pk.len() != p.pk_len() {
        return Some(Reason::MalformedKey);
    }
    if sig.len() != p.sig_len() {
        return Some(Reason::MalformedSignature);
    }
    if ctx.len() > MAX_CONTEXT {
        return Some(Reason::ContextTooLong);
    }
    None
}

/// Why an item the oracle rejects fails: the first failing check in the
/// module's order.
pub(crate) fn reason(set: Set, pk: &[u8], sig: &[u8], ctx: &[u8]) -> Reason {
    decode_reason(set, pk, sig, ctx).unwrap_or(Reason::Equation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_fips_205s() {
        // FIPS 205 table 2's public key and signature bytes.
        let want = [
            (32, 7_856),
            (32, 17_088),
            (48, 16_224),
            (48, 35_664),
            (64, 29_792),
            (64, 49_856),
        ];
        for (i, set) in Set::ALL.into_iter().enumerate() {
            let p = set.params();
            assert_eq!((set.pk_len(), set.sig_len()), want[i % 6], "{set}");
            assert_eq!(p.h, p.d * p.hp, "{set}");
            // m: the FORS digits, then idx_tree's and idx_leaf's bytes.
            assert_eq!(
                p.m,
                (p.k * p.a).div_ceil(8) + (p.h - p.hp).div_ceil(8) + p.hp.div_ceil(8),
                "{set}"
            );
            assert_eq!(p.shake, i >= 6, "{set}");
            assert_eq!(Set::from_name(set.name()), Some(set));
            assert_eq!(Set::from_name(&set.name().to_uppercase()), Some(set));
            assert_eq!(Set::from_name(set.short_name()), Some(set));
        }
        assert_eq!(Set::from_name("slh-dsa-sha2-128"), None);
    }
}
