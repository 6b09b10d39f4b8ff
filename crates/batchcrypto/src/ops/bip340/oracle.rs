//! The oracle: libsecp256k1's BIP-340 verification through the `secp256k1`
//! crate, item by item.

use secp256k1::XOnlyPublicKey;
use secp256k1::schnorr::Signature;

use super::{PK_LEN, SIG_LEN};

/// libsecp256k1's verdict on one item.
pub fn verify(pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    XOnlyPublicKey::from_byte_array(*pk).is_ok_and(|key| key.verify(msg, &Signature::from_byte_array(*sig)).is_ok())
}
