//! Deterministic ECDSA items for tests, `bench` and `selftest`: honest
//! signatures (keys repeat), and at the requested share hostile ones — r or
//! s zero or not below n, r in [n, p), high s, wrong hash, flipped bits,
//! keys off the curve or badly prefixed, every kind of bad v; and
//! signatures in DER, some spoiled ([`der`]).

use std::ops::Range;

use p256::ecdsa::signature::hazmat::PrehashSigner;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use secp256k1::ecdsa::RecoverableSignature;
use secp256k1::{Message, PublicKey, SecretKey};

use crate::ops::item_rng;
use crate::verdict::Reason;

use super::{K1Key, K1VerifyItem, P256_N, P256Item, RecoverItem, SECP256K1_N};

/// `n - s` for a big-endian s in [1, n-1]: the other s of the same signature.
pub fn negate(s: &[u8], n: &[u8; 32]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut borrow = 0i16;
    for i in (0..32).rev() {
        let d = i16::from(n[i]) - i16::from(s[i]) - borrow;
        borrow = i16::from(d < 0);
        out[i] = (d + 256 * borrow) as u8;
    }
    out
}

/// `v + k` for a big-endian v (wrapping; k small).
pub(crate) fn add_small(v: &[u8; 32], k: u8) -> [u8; 32] {
    let mut out = *v;
    let mut carry = u16::from(k);
    for b in out.iter_mut().rev() {
        let s = u16::from(*b) + carry;
        *b = s as u8;
        carry = s >> 8;
    }
    out
}

pub(crate) fn k1_keys(count: usize, seed: u64) -> Vec<SecretKey> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count.max(1))
        .map(|_| {
            loop {
                if let Ok(k) = SecretKey::from_secret_bytes(rng.random()) {
                    break k;
                }
            }
        })
        .collect()
}

/// A signed item: hash, key, recoverable signature (r ‖ s, recovery id).
fn k1_signed(keys: &[SecretKey], rng: &mut StdRng) -> ([u8; 32], PublicKey, [u8; 64], u8) {
    let key = &keys[rng.random_range(0..keys.len())];
    let hash: [u8; 32] = rng.random();
    let sig = RecoverableSignature::sign_ecdsa_recoverable(Message::from_digest(hash), key);
    let (id, compact) = sig.serialize_compact();
    (hash, PublicKey::from_secret_key(key), compact, id.to_u8())
}

/// `secp256k1_verify` items and the kind of each.
pub fn secp256k1_verify(
    count: usize,
    signers: usize,
    hostile_share: f64,
    seed: u64,
) -> Vec<(K1VerifyItem, &'static str)> {
    secp256k1_verify_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`secp256k1_verify`] (each item depends only on its index).
pub fn secp256k1_verify_range(
    range: Range<usize>,
    signers: usize,
    hostile_share: f64,
    seed: u64,
) -> Vec<(K1VerifyItem, &'static str)> {
    let keys = k1_keys(signers, seed);
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let (hash, pk, sig, _) = k1_signed(&keys, &mut rng);
            let compressed = rng.random::<bool>();
            let pk_bytes = if compressed {
                pk.serialize().to_vec()
            } else {
                pk.serialize_uncompressed().to_vec()
            };
            let mut item = K1VerifyItem {
                hash,
                sig,
                pk: K1Key::from_slice(&pk_bytes).expect("33 or 65 bytes"),
            };
            let mut kind = "valid";
            if rng.random::<f64>() < hostile_share {
                const KINDS: [&str; 10] = [
                    "high_s",
                    "wrong_hash",
                    "flipped_sig_bit",
                    "r_zero",
                    "s_zero",
                    "r_not_below_n",
                    "s_not_below_n",
                    "key_off_curve",
                    "bad_key_prefix",
                    "flipped_key_bit",
                ];
                kind = KINDS[rng.random_range(0..KINDS.len())];
                match kind {
                    "high_s" => item.sig[32..].copy_from_slice(&negate(&sig[32..], &SECP256K1_N)),
                    "wrong_hash" => item.hash[0] ^= 1,
                    "flipped_sig_bit" => {
                        let bit = rng.random_range(0..512);
                        item.sig[bit / 8] ^= 1 << (bit % 8);
                    }
                    "r_zero" => item.sig[..32].fill(0),
                    "s_zero" => item.sig[32..].fill(0),
                    "r_not_below_n" => item.sig[..32].copy_from_slice(&add_small(&SECP256K1_N, rng.random_range(0..3))),
                    "s_not_below_n" => item.sig[32..].copy_from_slice(&add_small(&SECP256K1_N, rng.random_range(0..3))),
                    "key_off_curve" => {
                        let mut b = pk.serialize_uncompressed();
                        b[64] ^= 1;
                        item.pk = K1Key::from_slice(&b).expect("65 bytes");
                    }
                    "bad_key_prefix" => {
                        let mut b = pk.serialize();
                        b[0] = [0x00, 0x01, 0x04, 0x05, 0x06][rng.random_range(0..5)];
                        item.pk = K1Key::from_slice(&b).expect("33 bytes");
                    }
                    _ => {
                        let mut b = pk_bytes.clone();
                        let bit = rng.random_range(8..b.len() * 8);
                        b[bit / 8] ^= 1 << (bit % 8);
                        item.pk = K1Key::from_slice(&b).expect("same length");
                    }
                }
            }
            (item, kind)
        })
        .collect()
}

/// `ecrecover` items and the kind of each.
pub fn ecrecover(count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<(RecoverItem, &'static str)> {
    ecrecover_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`ecrecover`] (each item depends only on its index).
pub fn ecrecover_range(
    range: Range<usize>,
    signers: usize,
    hostile_share: f64,
    seed: u64,
) -> Vec<(RecoverItem, &'static str)> {
    let keys = k1_keys(signers, seed);
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let (hash, _, compact, id) = k1_signed(&keys, &mut rng);
            let mut sig = [0u8; 65];
            sig[..64].copy_from_slice(&compact);
            // Both forms of v.
            sig[64] = if rng.random::<bool>() { 27 + id } else { id };
            let mut item = RecoverItem { hash, sig };
            let mut kind = "valid";
            if rng.random::<f64>() < hostile_share {
                const KINDS: [&str; 9] = [
                    "high_s",
                    "bad_v",
                    "wrong_hash",
                    "r_zero",
                    "s_zero",
                    "r_not_below_n",
                    "s_not_below_n",
                    "random_r",
                    "flipped_sig_bit",
                ];
                kind = KINDS[rng.random_range(0..KINDS.len())];
                match kind {
                    // The other s recovers the same key with the other parity.
                    "high_s" => {
                        item.sig[32..64].copy_from_slice(&negate(&compact[32..], &SECP256K1_N));
                        item.sig[64] = if item.sig[64] >= 27 {
                            55 - item.sig[64]
                        } else {
                            1 - item.sig[64]
                        };
                    }
                    "bad_v" => item.sig[64] = [2, 3, 4, 26, 29, 30, 35, 36, 37, 38, 255][rng.random_range(0..11)],
                    // Recovers some other key: still an address.
                    "wrong_hash" => item.hash[31] ^= 1,
                    "r_zero" => item.sig[..32].fill(0),
                    "s_zero" => item.sig[32..64].fill(0),
                    // n, n + 1, n + 2: r in [n, p), which v in {27, 28} cannot name.
                    "r_not_below_n" => item.sig[..32].copy_from_slice(&add_small(&SECP256K1_N, rng.random_range(0..3))),
                    "s_not_below_n" => {
                        item.sig[32..64].copy_from_slice(&add_small(&SECP256K1_N, rng.random_range(0..3)))
                    }
                    // About half of all r have no curve point with x = r.
                    "random_r" => item.sig[..32].copy_from_slice(&rng.random::<[u8; 32]>()),
                    _ => {
                        let bit = rng.random_range(0..512);
                        item.sig[bit / 8] ^= 1 << (bit % 8);
                    }
                }
            }
            (item, kind)
        })
        .collect()
}

/// `p256_verify` items and the kind of each.
pub fn p256_verify(count: usize, signers: usize, hostile_share: f64, seed: u64) -> Vec<(P256Item, &'static str)> {
    p256_verify_range(0..count, signers, hostile_share, seed)
}

/// Items `range` of [`p256_verify`] (each item depends only on its index).
pub fn p256_verify_range(
    range: Range<usize>,
    signers: usize,
    hostile_share: f64,
    seed: u64,
) -> Vec<(P256Item, &'static str)> {
    let mut krng = StdRng::seed_from_u64(seed);
    let keys: Vec<p256::ecdsa::SigningKey> = (0..signers.max(1))
        .map(|_| {
            loop {
                let bytes: [u8; 32] = krng.random();
                if let Ok(k) = p256::ecdsa::SigningKey::from_bytes(&bytes.into()) {
                    break k;
                }
            }
        })
        .collect();
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let key = &keys[rng.random_range(0..keys.len())];
            let hash: [u8; 32] = rng.random();
            let sig: p256::ecdsa::Signature = key.sign_prehash(&hash).expect("a 32-byte prehash signs");
            let (r, s) = sig.split_bytes();
            let point = key.verifying_key().to_sec1_point(false);
            let mut item = P256Item {
                hash,
                r: r.into(),
                s: s.into(),
                x: point.x().expect("not infinity").as_slice().try_into().expect("32"),
                y: point.y().expect("uncompressed").as_slice().try_into().expect("32"),
            };
            let mut kind = "valid";
            if rng.random::<f64>() < hostile_share {
                const KINDS: [&str; 9] = [
                    "high_s",
                    "wrong_hash",
                    "r_zero",
                    "s_zero",
                    "r_not_below_n",
                    "s_not_below_n",
                    "key_off_curve",
                    "key_infinity",
                    "flipped_sig_bit",
                ];
                kind = KINDS[rng.random_range(0..KINDS.len())];
                match kind {
                    "high_s" => item.s = negate(&item.s, &P256_N),
                    "wrong_hash" => item.hash[0] ^= 0x80,
                    "r_zero" => item.r = [0; 32],
                    "s_zero" => item.s = [0; 32],
                    "r_not_below_n" => item.r = add_small(&P256_N, rng.random_range(0..3)),
                    "s_not_below_n" => item.s = add_small(&P256_N, rng.random_range(0..3)),
                    "key_off_curve" => item.y[31] ^= 1,
                    "key_infinity" => {
                        item.x = [0; 32];
                        item.y = [0; 32];
                    }
                    _ => {
                        let bit = rng.random_range(0..512);
                        if bit < 256 {
                            item.r[bit / 8] ^= 1 << (bit % 8);
                        } else {
                            item.s[(bit - 256) / 8] ^= 1 << (bit % 8);
                        }
                    }
                }
            }
            (item, kind)
        })
        .collect()
}

/// The ways [`der`] spoils a DER signature ([`super::der`]), each with the
/// reason the operations give it: five encodings that are not strict DER,
/// and two that are but hold an r out of range (negative, or wider than
/// 32 bytes: read as zero).
pub const DER_HOSTILE: [(&str, Reason); 7] = [
    ("der_trailing_byte", Reason::MalformedSignature),
    ("der_truncated", Reason::MalformedSignature),
    ("der_long_length", Reason::MalformedSignature),
    ("der_leading_zero", Reason::MalformedSignature),
    ("der_wrong_tag", Reason::MalformedSignature),
    ("der_negative_r", Reason::ROutOfRange),
    ("der_wide_r", Reason::ROutOfRange),
];

/// Each of `sigs` (r ‖ s) in DER: [`der_of`] of each with its index.
pub fn der(sigs: &[[u8; 64]], hostile_share: f64, seed: u64) -> Vec<(Vec<u8>, &'static str)> {
    sigs.iter()
        .enumerate()
        .map(|(i, sig)| der_of(i, sig, hostile_share, seed))
        .collect()
}

/// Item `i`'s signature `sig` (r ‖ s) in DER ([`super::der::encode`]),
/// at the share `hostile_share` spoiled in one of [`DER_HOSTILE`]'s ways
/// (the choice depends only on `seed` and `i`, and not on the choices
/// that made the item with the same seed); its kind, `"der"` for the
/// encoding as it is.
pub fn der_of(i: usize, sig: &[u8; 64], hostile_share: f64, seed: u64) -> (Vec<u8>, &'static str) {
    let mut rng = item_rng(seed ^ DER_SEED, i);
    if rng.random::<f64>() >= hostile_share {
        return (super::der::encode(sig), "der");
    }
    let (kind, _) = DER_HOSTILE[rng.random_range(0..DER_HOSTILE.len())];
    (spoiled(sig, kind), kind)
}

/// Mixed into [`der_of`]'s seed: its draws are not the item's.
const DER_SEED: u64 = 0xd3e5_0000_0000_0001;

/// `sig`'s DER spoiled as `kind` says (one of [`DER_HOSTILE`]).
fn spoiled(sig: &[u8; 64], kind: &str) -> Vec<u8> {
    let der = super::der::encode(sig);
    // The first integer's tag and length, and where its content starts.
    let r_len = usize::from(der[3]);
    let (r, s) = (&der[4..4 + r_len], &der[4 + r_len..]);
    let sequence = |r_int: &[u8]| {
        let body = [r_int, s].concat();
        [vec![0x30, body.len() as u8], body].concat()
    };
    let integer = |content: &[u8]| [&[0x02, content.len() as u8][..], content].concat();
    match kind {
        "der_trailing_byte" => [&der[..], &[0]].concat(),
        "der_truncated" => der[..der.len() - 1].to_vec(),
        // The sequence's length in the long form it does not need.
        "der_long_length" => [&[0x30, 0x81][..], &der[1..]].concat(),
        "der_leading_zero" => sequence(&integer(&[&[0][..], r].concat())),
        "der_wrong_tag" => [&der[..2], &[0x03], &der[3..]].concat(),
        // r's first content byte 0x80: negative (never 0xff, which before
        // a high bit is padding BER allows and DER does not).
        "der_negative_r" => sequence(&integer(&[&[0x80][..], &r[1..]].concat())),
        "der_wide_r" => sequence(&integer(&[&[0x01][..], &sig[..32]].concat())),
        other => unreachable!("{other} is not one of DER_HOSTILE's"),
    }
}
