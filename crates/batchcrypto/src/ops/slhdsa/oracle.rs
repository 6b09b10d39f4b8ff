//! The oracle: RustCrypto's `slh-dsa` (FIPS 205), item by item: the key
//! and the signature read from their bytes (any of the right length), then
//! `slh_verify` with the context (algorithm 24).

use slh_dsa::{ParameterSet, Signature, VerifyingKey};

use super::Set;

/// Calls `$f::<slh_dsa::P>($args)` with `P` the crate's type of `$set`.
macro_rules! with_params {
    ($set:expr, $f:ident($($args:expr),*)) => {
        match $set {
            Set::Sha2_128s => $f::<slh_dsa::Sha2_128s>($($args),*),
            Set::Sha2_128f => $f::<slh_dsa::Sha2_128f>($($args),*),
            Set::Sha2_192s => $f::<slh_dsa::Sha2_192s>($($args),*),
            Set::Sha2_192f => $f::<slh_dsa::Sha2_192f>($($args),*),
            Set::Sha2_256s => $f::<slh_dsa::Sha2_256s>($($args),*),
            Set::Sha2_256f => $f::<slh_dsa::Sha2_256f>($($args),*),
            Set::Shake128s => $f::<slh_dsa::Shake128s>($($args),*),
            Set::Shake128f => $f::<slh_dsa::Shake128f>($($args),*),
            Set::Shake192s => $f::<slh_dsa::Shake192s>($($args),*),
            Set::Shake192f => $f::<slh_dsa::Shake192f>($($args),*),
            Set::Shake256s => $f::<slh_dsa::Shake256s>($($args),*),
            Set::Shake256f => $f::<slh_dsa::Shake256f>($($args),*),
        }
    };
}
pub(crate) use with_params;

/// The `slh-dsa` crate's verdict on one item of `set` (false for wrong
/// lengths and a context over 255 bytes, as the crate answers).
pub fn verify(set: Set, pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    with_params!(set, verify_as(pk, msg, sig, ctx))
}

fn verify_as<P: ParameterSet>(pk: &[u8], msg: &[u8], sig: &[u8], ctx: &[u8]) -> bool {
    let (Ok(key), Ok(sig)) = (VerifyingKey::<P>::try_from(pk), Signature::<P>::try_from(sig)) else {
        return false;
    };
    key.try_verify_with_context(msg, ctx, &sig).is_ok()
}

/// The crate's verdict on `slh_verify_internal` (algorithm 20) of a
/// message M' as given: what NIST's ACVP vectors test.
pub fn verify_internal(set: Set, pk: &[u8], mprime: &[u8], sig: &[u8]) -> bool {
    with_params!(set, verify_internal_as(pk, mprime, sig))
}

fn verify_internal_as<P: ParameterSet>(pk: &[u8], mprime: &[u8], sig: &[u8]) -> bool {
    let (Ok(key), Ok(sig)) = (VerifyingKey::<P>::try_from(pk), Signature::<P>::try_from(sig)) else {
        return false;
    };
    key.slh_verify_internal(mprime, &sig).is_ok()
}
