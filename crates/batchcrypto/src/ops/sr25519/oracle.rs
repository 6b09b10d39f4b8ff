//! The oracle: schnorrkel's verification, item by item.

use schnorrkel::{PublicKey, Signature};

use super::{PK_LEN, SIG_LEN};

/// schnorrkel's verdict on one item under the signing context `ctx`.
pub fn verify(ctx: &[u8], pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    match (PublicKey::from_bytes(pk), Signature::from_bytes(sig)) {
        (Ok(key), Ok(sig)) => key.verify_simple(ctx, msg, &sig).is_ok(),
        _ => false,
    }
}
