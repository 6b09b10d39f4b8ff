//! The oracles: libsecp256k1 through the `secp256k1` crate, and RustCrypto's
//! `p256`, called as their documentation says, with the chains' extra rules
//! (v values, ranges, low s) spelled out around them.

use p256::ecdsa::signature::hazmat::PrehashVerifier;
use secp256k1::ecdsa::{RecoverableSignature, RecoveryId, Signature};
use secp256k1::{Message, PublicKey};
use sha3::Digest as _;

use super::{K1Key, K1VerifyItem, P256Item, RecoverItem, Recovered, SECP256K1_HALF_N, recovery_id};

/// libsecp256k1 `verify`, after `normalize_s` unless `low_s` (then a high
/// s fails, as libsecp256k1 itself decides).
pub fn secp256k1_verify(item: &K1VerifyItem, low_s: bool) -> bool {
    let Ok(pk) = PublicKey::from_slice(item.pk.as_bytes()) else {
        return false;
    };
    let Ok(mut sig) = Signature::from_compact(&item.sig) else {
        return false;
    };
    if !low_s {
        sig.normalize_s();
    }
    secp256k1::ecdsa::verify(&sig, Message::from_digest(item.hash), &pk).is_ok()
}

/// libsecp256k1's path of a DER-encoded signature: `Signature::from_der`
/// (strict DER; an integer out of range read as zero), then
/// [`secp256k1_verify`]'s rules.
pub fn secp256k1_verify_der(hash: &[u8; 32], der: &[u8], pk: &K1Key, low_s: bool) -> bool {
    let Ok(pk) = PublicKey::from_slice(pk.as_bytes()) else {
        return false;
    };
    let Ok(mut sig) = Signature::from_der(der) else {
        return false;
    };
    if !low_s {
        sig.normalize_s();
    }
    secp256k1::ecdsa::verify(&sig, Message::from_digest(*hash), &pk).is_ok()
}

/// libsecp256k1 recovery with the precompile's rules; `None` when the
/// precompile would return nothing. With `low_s`, s > n/2 fails too.
pub fn ecrecover(item: &RecoverItem, low_s: bool) -> Option<Recovered> {
    let id = RecoveryId::try_from(i32::from(recovery_id(item.sig[64])?)).ok()?;
    if low_s && item.sig[32..64] > SECP256K1_HALF_N[..] {
        return None;
    }
    let sig = RecoverableSignature::from_compact(&item.sig[..64], id).ok()?;
    let pk = sig.recover(Message::from_digest(item.hash)).ok()?;
    Some(recovered(&pk.serialize_uncompressed()))
}

/// The address and x ‖ y of an uncompressed SEC1 key (0x04 ‖ x ‖ y).
pub(crate) fn recovered(uncompressed: &[u8; 65]) -> Recovered {
    let mut pubkey = [0u8; 64];
    pubkey.copy_from_slice(&uncompressed[1..]);
    let hash = sha3::Keccak256::digest(pubkey);
    let mut address = [0u8; 20];
    address.copy_from_slice(&hash[12..]);
    Recovered { address, pubkey }
}

/// p256 `VerifyingKey::from_sec1_bytes(04 ‖ x ‖ y)` and
/// `Signature::from_scalars(r, s)`, then `verify_prehash(hash)`.
pub fn p256_verify(item: &P256Item) -> bool {
    let Some(key) = p256_key(&item.x, &item.y) else {
        return false;
    };
    let Ok(sig) = p256::ecdsa::Signature::from_scalars(item.r, item.s) else {
        return false;
    };
    key.verify_prehash(&item.hash, &sig).is_ok()
}

/// RustCrypto `p256`'s path of a DER-encoded signature:
/// `Signature::from_der` (strict DER, r and s in [1, n-1]), then
/// `verify_prehash(hash)` under the key 04 ‖ x ‖ y.
pub fn p256_verify_der(hash: &[u8; 32], der: &[u8], x: &[u8; 32], y: &[u8; 32]) -> bool {
    let Some(key) = p256_key(x, y) else {
        return false;
    };
    let Ok(sig) = p256::ecdsa::Signature::from_der(der) else {
        return false;
    };
    key.verify_prehash(hash, &sig).is_ok()
}

/// p256 `VerifyingKey::from_sec1_bytes(04 ‖ x ‖ y)`: `None` off the curve.
fn p256_key(x: &[u8; 32], y: &[u8; 32]) -> Option<p256::ecdsa::VerifyingKey> {
    let mut sec1 = [0u8; 65];
    sec1[0] = 4;
    sec1[1..33].copy_from_slice(x);
    sec1[33..].copy_from_slice(y);
    p256::ecdsa::VerifyingKey::from_sec1_bytes(&sec1).ok()
}
