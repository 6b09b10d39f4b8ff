//! Ed25519 signature verification (RFC 8032 section 5.1.7) under two named
//! policies, because two rule sets are in use in the field:
//!
//! | policy | oracle | rules |
//! |---|---|---|
//! | [`Policy::Strict`] | ed25519-dalek `VerifyingKey::verify_strict` | A must decode; S < L; R must decode; neither A nor R of small order; cofactorless equation `[S]B = R + [k]A`, compared on the encoding of R (so a non-canonical R never verifies) |
//! | [`Policy::Zip215`] | ed25519-zebra `VerificationKey::verify` ([ZIP-215]) | A and R must decode, non-canonical encodings accepted; S < L; cofactored equation `[8][S]B = [8]R + [8][k]A` |
//!
//! with `k = SHA-512(R || A || M) mod L` over the bytes as given.
//!
//! The verdict of every backend must equal the oracle's on every input. The
//! [`Reason`] of a rejected item is found by the same ordered checks on
//! every backend; the first that fails names the reason:
//!
//! - strict: `malformed_key` (A does not decode), `non_canonical_s`,
//!   `malformed_r`, `small_order_key`, `small_order_r`, else `equation`;
//! - zip215: `malformed_key`, `non_canonical_s`, `malformed_r`, else `equation`.
//!
//! (Decoding follows curve25519-dalek, which both oracles use: the sign bit
//! and a y of up to 2^255 - 1 are accepted, y is reduced mod p.)
//!
//! [ZIP-215]: https://zips.z.cash/zip-0215

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use std::fmt;
use std::str::FromStr;

use curve25519_dalek::Scalar;
use curve25519_dalek::edwards::CompressedEdwardsY;

use crate::verdict::Reason;

/// Length of a public key.
pub const PK_LEN: usize = 32;
/// Length of a signature (R || S).
pub const SIG_LEN: usize = 64;

/// Which rule set decides validity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// Exactly ed25519-dalek's `verify_strict` (the default).
    #[default]
    Strict,
    /// Exactly ed25519-zebra's ZIP-215 rules (cofactored, batch-consistent).
    Zip215,
}

impl Policy {
    /// Both policies.
    pub const ALL: [Policy; 2] = [Policy::Strict, Policy::Zip215];

    /// The CLI name: `strict` or `zip215`.
    pub fn name(&self) -> &'static str {
        match self {
            Policy::Strict => "strict",
            Policy::Zip215 => "zip215",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "strict" => Ok(Policy::Strict),
            "zip215" => Ok(Policy::Zip215),
            other => Err(format!("unknown policy {other:?} (expected strict or zip215)")),
        }
    }
}

/// A batch of Ed25519 `(public key, signature, message)` items.
pub type Batch = crate::batch::SignedBatch<PK_LEN, SIG_LEN>;

/// What is known of an item's public key when it is classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyState {
    /// The key bytes do not decode to a curve point.
    Malformed,
    /// The key decodes; `small_order` says whether the point has small order.
    Decoded {
        /// `[8]A` is the identity.
        small_order: bool,
    },
}

/// The reason a rejected item gets: the first failing check of the ordered
/// list in the module docs. Called only for items the verifier rejected;
/// the key's state comes from the batch's key cache.
pub(crate) fn classify(policy: Policy, key: KeyState, sig: &[u8; SIG_LEN]) -> Reason {
    let KeyState::Decoded { small_order } = key else {
        return Reason::MalformedKey;
    };
    if !s_is_canonical(sig) {
        return Reason::NonCanonicalS;
    }
    let mut r_bytes = [0u8; 32];
    r_bytes.copy_from_slice(&sig[..32]);
    let Some(r) = CompressedEdwardsY(r_bytes).decompress() else {
        return Reason::MalformedR;
    };
    if policy == Policy::Strict {
        if small_order {
            return Reason::SmallOrderKey;
        }
        if r.is_small_order() {
            return Reason::SmallOrderR;
        }
    }
    Reason::Equation
}

/// `true` when the S half of `sig` is the canonical encoding of a scalar < L.
pub(crate) fn s_is_canonical(sig: &[u8; SIG_LEN]) -> bool {
    let mut s = [0u8; 32];
    s.copy_from_slice(&sig[32..]);
    Scalar::from_canonical_bytes(s).is_some().into()
}
