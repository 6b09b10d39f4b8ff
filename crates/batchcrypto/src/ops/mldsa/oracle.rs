//! The oracle: RustCrypto's `ml-dsa` (FIPS 204), item by item: the key
//! decoded (`pkDecode`, expanding A), the signature decoded (`sigDecode`
//! with the z bound), then `ML-DSA.Verify` with the context.

use ml_dsa::{EncodedVerifyingKey, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Signature, VerifyingKey};

use super::Level;

/// The `ml-dsa` crate's verdict on one item at `level` (false for wrong
/// lengths and a context over 255 bytes, as the crate answers).
pub fn verify(level: Level, pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    match level {
        Level::Mldsa44 => verify_as::<MlDsa44>(pk, msg, sig, ctx),
        Level::Mldsa65 => verify_as::<MlDsa65>(pk, msg, sig, ctx),
        Level::Mldsa87 => verify_as::<MlDsa87>(pk, msg, sig, ctx),
    }
}

fn verify_as<P: MlDsaParams>(pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    let (Some(key), Some(sig)) = (key::<P>(pk), signature::<P>(sig)) else {
        return false;
    };
    key.verify_with_context(msg, ctx, &sig)
}

/// The key of an encoding of the right length (any such decodes).
pub(crate) fn key<P: MlDsaParams>(pk: &[u8]) -> Option<VerifyingKey<P>> {
    EncodedVerifyingKey::<P>::try_from(pk)
        .ok()
        .map(|enc| VerifyingKey::decode(&enc))
}

/// The signature of an encoding sigDecode accepts with ||z|| in bound.
pub(crate) fn signature<P: MlDsaParams>(sig: &[u8]) -> Option<Signature<P>> {
    Signature::<P>::try_from(sig).ok()
}
