//! Deterministic generator of realistic and hostile Ed25519 items.
//!
//! Used for the bench's inputs, the CLI's `sample` verb, the self-test and
//! the tests. Valid items come from ed25519-dalek's signer over a pool of
//! signers (keys repeat, as in a validator set). Hostile items cover what
//! separates correct verifiers from nearly correct ones: small-order and
//! mixed-order keys and R, non-canonical encodings of A and R, S >= L, S
//! with high bits set, keys that are not curve points, and single bit flips
//! in each field. Many hostile items are built so that one policy accepts
//! them and the other does not (e.g. a mixed-order key satisfies only the
//! cofactored equation). The generator never decides what is valid: the
//! oracle does; [`Kind`] only records how an item was built.

use curve25519_dalek::constants::{ED25519_BASEPOINT_TABLE, EIGHT_TORSION};
use curve25519_dalek::{EdwardsPoint, Scalar};
use ed25519_dalek::Signer;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use sha2::{Digest, Sha512};

use super::{Batch, PK_LEN, SIG_LEN};

/// How an item was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An honest signature.
    Valid,
    /// A valid item with one bit of the public key flipped.
    FlipKey,
    /// A valid item with one bit of R flipped.
    FlipR,
    /// A valid item with one bit of S flipped.
    FlipS,
    /// A valid item with one bit of the message flipped (or a byte added to an empty one).
    FlipMsg,
    /// A = a point of small order, S = r, R = \[r\]B: only the cofactored equation holds.
    SmallOrderKey,
    /// R = a point of small order, S = k·a: only the cofactored equation holds.
    SmallOrderR,
    /// A = \[a\]B + T with T of small order: the cofactored equation holds, the
    /// cofactorless one only when \[k\]T = 0.
    MixedOrderKey,
    /// A valid signature with S + L in place of S.
    SPlusL,
    /// A valid signature with the top three bits of S set.
    SHighBits,
    /// A non-canonical encoding (y >= p) of a small-order A, S = r, R = \[r\]B.
    NonCanonicalKey,
    /// A non-canonical encoding (y >= p) of a small-order R, S = k·a.
    NonCanonicalR,
    /// A public key whose y has no x on the curve.
    OffCurveKey,
}

impl Kind {
    /// Every hostile kind (everything but [`Kind::Valid`]).
    pub const HOSTILE: [Kind; 12] = [
        Kind::FlipKey,
        Kind::FlipR,
        Kind::FlipS,
        Kind::FlipMsg,
        Kind::SmallOrderKey,
        Kind::SmallOrderR,
        Kind::MixedOrderKey,
        Kind::SPlusL,
        Kind::SHighBits,
        Kind::NonCanonicalKey,
        Kind::NonCanonicalR,
        Kind::OffCurveKey,
    ];
}

impl Kind {
    /// The kind's name in snake_case, as `batchcrypto sample` writes it
    /// (the spelling every operation's sample uses).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Valid => "valid",
            Kind::FlipKey => "flipped_key_bit",
            Kind::FlipR => "flipped_r_bit",
            Kind::FlipS => "flipped_s_bit",
            Kind::FlipMsg => "flipped_msg_bit",
            Kind::SmallOrderKey => "small_order_key",
            Kind::SmallOrderR => "small_order_r",
            Kind::MixedOrderKey => "mixed_order_key",
            Kind::SPlusL => "s_plus_l",
            Kind::SHighBits => "s_high_bits",
            Kind::NonCanonicalKey => "non_canonical_key",
            Kind::NonCanonicalR => "non_canonical_r",
            Kind::OffCurveKey => "off_curve_key",
        }
    }
}

/// One generated item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Public key bytes.
    pub pk: [u8; PK_LEN],
    /// Signature bytes R || S.
    pub sig: [u8; SIG_LEN],
    /// Message.
    pub msg: Vec<u8>,
    /// How it was built.
    pub kind: Kind,
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Config {
    /// Number of items.
    pub count: usize,
    /// Share of hostile items in [0, 1], spread evenly over [`Kind::HOSTILE`].
    pub hostile_share: f64,
    /// Number of distinct honest signers (keys repeat across items).
    pub signers: usize,
    /// Largest message length; lengths are uniform in `0..=max_msg_len`.
    pub max_msg_len: usize,
    /// Seed: the same config gives the same items on every machine.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            count: 1024,
            hostile_share: 0.0,
            signers: 256,
            max_msg_len: 256,
            seed: 1,
        }
    }
}

/// The group order L, little-endian.
const L_BYTES: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

/// Generates `config.count` items, deterministically from `config.seed`.
pub fn generate(config: &Config) -> Vec<Item> {
    items(config).collect()
}

/// The items of [`generate`] one at a time (for output larger than memory).
pub fn items(config: &Config) -> impl Iterator<Item = Item> + use<> {
    let config = *config;
    let mut rng = StdRng::seed_from_u64(config.seed);
    let signers: Vec<ed25519_dalek::SigningKey> = (0..config.signers.max(1))
        .map(|_| ed25519_dalek::SigningKey::from_bytes(&rng.random()))
        .collect();
    (0..config.count).map(move |_| {
        let len = rng.random_range(0..=config.max_msg_len);
        let mut msg = vec![0u8; len];
        rng.fill(&mut msg[..]);
        let kind = if rng.random_bool(config.hostile_share.clamp(0.0, 1.0)) {
            Kind::HOSTILE[rng.random_range(0..Kind::HOSTILE.len())]
        } else {
            Kind::Valid
        };
        let signer = &signers[rng.random_range(0..signers.len())];
        build(kind, signer, msg, &mut rng)
    })
}

/// The items as a [`Batch`] (in order).
pub fn batch(items: &[Item]) -> Batch {
    let mut batch = Batch::with_capacity(items.len(), items.iter().map(|i| i.msg.len()).sum());
    for item in items {
        // Generated messages are far below the 4 GiB batch limit.
        batch
            .push(&item.pk, &item.sig, &item.msg)
            .expect("generated batch within limits");
    }
    batch
}

fn build(kind: Kind, signer: &ed25519_dalek::SigningKey, mut msg: Vec<u8>, rng: &mut StdRng) -> Item {
    let honest = |msg: &[u8]| (signer.verifying_key().to_bytes(), signer.sign(msg).to_bytes());
    let (pk, sig) = match kind {
        Kind::Valid => honest(&msg),
        Kind::FlipKey => {
            let (mut pk, sig) = honest(&msg);
            flip_bit(&mut pk, rng);
            (pk, sig)
        }
        Kind::FlipR => {
            let (pk, mut sig) = honest(&msg);
            flip_bit(&mut sig[..32], rng);
            (pk, sig)
        }
        Kind::FlipS => {
            let (pk, mut sig) = honest(&msg);
            flip_bit(&mut sig[32..], rng);
            (pk, sig)
        }
        Kind::FlipMsg => {
            let (pk, sig) = honest(&msg);
            if msg.is_empty() {
                msg.push(rng.random());
            } else {
                flip_bit(&mut msg, rng);
            }
            (pk, sig)
        }
        Kind::SmallOrderKey => {
            let pk = torsion(rng).compress().to_bytes();
            sig_for_small_order_key(pk, rng)
        }
        Kind::NonCanonicalKey => sig_for_small_order_key(non_canonical_small_order(rng), rng),
        Kind::SmallOrderR => sig_with_r(torsion(rng).compress().to_bytes(), &msg, rng),
        Kind::NonCanonicalR => sig_with_r(non_canonical_small_order(rng), &msg, rng),
        Kind::MixedOrderKey => {
            let a = random_scalar(rng);
            let pk = (&a * ED25519_BASEPOINT_TABLE + torsion(rng)).compress().to_bytes();
            let r = random_scalar(rng);
            let r_enc = (&r * ED25519_BASEPOINT_TABLE).compress().to_bytes();
            let s = r + challenge(&r_enc, &pk, &msg) * a;
            (pk, join(&r_enc, s.as_bytes()))
        }
        Kind::SPlusL => {
            let (pk, mut sig) = honest(&msg);
            add_l(&mut sig[32..]);
            (pk, sig)
        }
        Kind::SHighBits => {
            let (pk, mut sig) = honest(&msg);
            sig[63] |= 0xe0;
            (pk, sig)
        }
        Kind::OffCurveKey => (off_curve_key(rng), honest(&msg).1),
    };
    Item { pk, sig, msg, kind }
}

/// A with small order: R = [r]B, S = r, so [8]([S]B - R - [k]A) = 0 for any k.
fn sig_for_small_order_key(pk: [u8; 32], rng: &mut StdRng) -> ([u8; 32], [u8; 64]) {
    let r = random_scalar(rng);
    let r_enc = (&r * ED25519_BASEPOINT_TABLE).compress().to_bytes();
    (pk, join(&r_enc, r.as_bytes()))
}

/// A = [a]B honest, R given (small order), S = k·a.
fn sig_with_r(r_enc: [u8; 32], msg: &[u8], rng: &mut StdRng) -> ([u8; 32], [u8; 64]) {
    let a = random_scalar(rng);
    let pk = (&a * ED25519_BASEPOINT_TABLE).compress().to_bytes();
    let s = challenge(&r_enc, &pk, msg) * a;
    (pk, join(&r_enc, s.as_bytes()))
}

/// 32 random bytes whose y has no x on the curve (about half do): drawn
/// until one is.
pub(crate) fn off_curve_key(rng: &mut StdRng) -> [u8; 32] {
    loop {
        let candidate: [u8; 32] = rng.random();
        if curve25519_dalek::edwards::CompressedEdwardsY(candidate)
            .decompress()
            .is_none()
        {
            return candidate;
        }
    }
}

pub(crate) fn torsion(rng: &mut StdRng) -> EdwardsPoint {
    EIGHT_TORSION[rng.random_range(0..8)]
}

/// y = p (a point of order 4) or y = p + 1 (the identity), either sign bit.
fn non_canonical_small_order(rng: &mut StdRng) -> [u8; 32] {
    let mut enc = [0xff; 32];
    enc[0] = if rng.random() { 0xed } else { 0xee };
    enc[31] = if rng.random() { 0x7f } else { 0xff };
    enc
}

pub(crate) fn random_scalar(rng: &mut StdRng) -> Scalar {
    let mut wide = [0u8; 64];
    rng.fill(&mut wide[..]);
    Scalar::from_bytes_mod_order_wide(&wide)
}

pub(crate) fn challenge(r: &[u8; 32], a: &[u8; 32], msg: &[u8]) -> Scalar {
    let mut wide = [0u8; 64];
    wide.copy_from_slice(
        &Sha512::new()
            .chain_update(r)
            .chain_update(a)
            .chain_update(msg)
            .finalize(),
    );
    Scalar::from_bytes_mod_order_wide(&wide)
}

pub(crate) fn join(r: &[u8; 32], s: &[u8; 32]) -> [u8; 64] {
    let mut sig = [0u8; 64];
    sig[..32].copy_from_slice(r);
    sig[32..].copy_from_slice(s);
    sig
}

pub(crate) fn flip_bit(bytes: &mut [u8], rng: &mut StdRng) {
    let bit = rng.random_range(0..bytes.len() * 8);
    bytes[bit / 8] ^= 1 << (bit % 8);
}

/// `s += L` on 32 little-endian bytes (S < L < 2^253, so no overflow).
pub(crate) fn add_l(s: &mut [u8]) {
    let mut carry = 0u16;
    for (byte, l) in s.iter_mut().zip(L_BYTES) {
        let sum = *byte as u16 + l as u16 + carry;
        *byte = sum as u8;
        carry = sum >> 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_bytes_are_the_group_order() {
        assert_eq!(Scalar::from_bytes_mod_order(L_BYTES), Scalar::ZERO);
        let mut below = L_BYTES;
        below[0] -= 1;
        assert!(bool::from(Scalar::from_canonical_bytes(below).is_some()));
        assert!(bool::from(Scalar::from_canonical_bytes(L_BYTES).is_none()));
    }

    #[test]
    fn generation_is_deterministic_and_mixed() {
        let config = Config {
            count: 600,
            hostile_share: 0.5,
            ..Config::default()
        };
        let a = generate(&config);
        assert_eq!(a, generate(&config));
        for kind in Kind::HOSTILE {
            assert!(a.iter().any(|i| i.kind == kind), "{kind:?} missing");
        }
        assert!(a.iter().any(|i| i.kind == Kind::Valid));
    }
}
