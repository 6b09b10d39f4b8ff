//! The oracle: RustCrypto's `ml-kem` (FIPS 203), item by item.
//! `DecapsulationKey::from_seed` for key generation (its expanded form for
//! dk), `EncapsulationKey::new` (the modulus check) and
//! `encapsulate_deterministic` for encapsulation, `from_expanded_bytes`
//! (modulus and hash checks) and `decapsulate` for decapsulation. The
//! crate marks the expanded dk deprecated in favour of the 64-byte seed;
//! FIPS 203's interfaces and the test vectors speak the expanded form.

#![allow(deprecated)]

use ml_kem::{
    B32, Ciphertext, Decapsulate, DecapsulationKey, EncapsulationKey, ExpandedDecapsulationKey, ExpandedKeyEncoding,
    Key, KeyExport, Seed,
};

use super::{Encapsulated, KeyPair, Set, SharedSecret};

/// Runs `$body` with `$p` the `ml-kem` parameter type of `$set` (the
/// crate's parameter trait is not nameable outside it, so code over the
/// three sets is instantiated here instead of being generic).
macro_rules! with_set {
    ($set:expr, $p:ident => $body:expr) => {
        match $set {
            $crate::ops::mlkem::Set::Mlkem512 => {
                type $p = ml_kem::MlKem512;
                $body
            }
            $crate::ops::mlkem::Set::Mlkem768 => {
                type $p = ml_kem::MlKem768;
                $body
            }
            $crate::ops::mlkem::Set::Mlkem1024 => {
                type $p = ml_kem::MlKem1024;
                $body
            }
        }
    };
}
pub(crate) use with_set;

/// The key pair of seeds `d` and `z` (`None` unless both are 32 bytes).
pub fn keygen(set: Set, d: &[u8], z: &[u8]) -> Option<KeyPair> {
    let seed = Seed::try_from([d, z].concat().as_slice())
        .ok()
        .filter(|_| d.len() == 32)?;
    with_set!(set, P => {
        let dk = DecapsulationKey::<P>::from_seed(seed);
        Some(KeyPair {
            ek: dk.encapsulation_key().to_bytes().to_vec(),
            dk: dk.to_expanded_bytes().to_vec(),
        })
    })
}

/// The encapsulation of `m` under `ek` (`None`: a wrong length or the
/// modulus check failed).
pub fn encaps(set: Set, ek: &[u8], m: &[u8]) -> Option<Encapsulated> {
    let m = B32::try_from(m).ok()?;
    with_set!(set, P => {
        let key = EncapsulationKey::<P>::new(&Key::<EncapsulationKey<P>>::try_from(ek).ok()?).ok()?;
        let (ct, ss) = key.encapsulate_deterministic(&m);
        Some(Encapsulated { ct: ct.to_vec(), ss: ss.into() })
    })
}

/// The shared secret of `ct` under `dk`, implicit rejection included
/// (`None`: a wrong length, or dk fails the crate's checks).
pub fn decaps(set: Set, dk: &[u8], ct: &[u8]) -> Option<SharedSecret> {
    with_set!(set, P => {
        let dk = DecapsulationKey::<P>::from_expanded_bytes(&ExpandedDecapsulationKey::<P>::try_from(dk).ok()?).ok()?;
        let ct = Ciphertext::<P>::try_from(ct).ok()?;
        Some(dk.decapsulate(&ct).into())
    })
}
