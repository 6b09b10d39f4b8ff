//! ML-KEM key generation, encapsulation and decapsulation (FIPS 203) at the
//! three parameter sets ML-KEM-512, -768 and -1024. Oracle: RustCrypto's
//! `ml-kem` crate ([`oracle`]), which passes every Wycheproof ML-KEM vector
//! (tests/mlkem.rs).
//!
//! - **Key generation** (FIPS 203 algorithm 16, `ML-KEM.KeyGen_internal`)
//!   from the seeds d and z (32 bytes each) to the encapsulation key ek
//!   (384 k + 32 bytes) and the decapsulation key dk (768 k + 96 bytes:
//!   dk_PKE || ek || H(ek) || z, the standard's form). Reason:
//!   `malformed_seed` (d or z not 32 bytes).
//! - **Encapsulation** (algorithm 17 with the input checks of section 7.2)
//!   of ek, with the 32-byte message m given (deterministic, as the test
//!   vectors use it) or drawn from the operating system's generator.
//!   Reasons, first failing check in this order: `malformed_key` (ek's
//!   length), `malformed_randomness` (m given but not 32 bytes),
//!   `key_not_reduced` (the modulus check: a coefficient of ek is not below
//!   q = 3329), `randomness_unavailable` (the OS generator failed).
//! - **Decapsulation** (algorithm 18 with the input checks of section 7.3)
//!   of a ciphertext under dk, with implicit rejection: a ciphertext that
//!   does not re-encrypt to itself yields J(z || c), not an error. Reasons:
//!   `malformed_key` (dk's length), `malformed_ciphertext` (c's length),
//!   `key_not_reduced` (the ek inside dk fails the modulus check, which the
//!   `ml-kem` crate applies to dk too), `key_hash_mismatch` (the hash check:
//!   H(ek) differs from the h stored in dk).
//!
//! The CPU path (`cpu.rs`) decodes each distinct key once per run of
//! 1,024 items (a server decapsulates many ciphertexts under
//! one key; an encapsulating client meets keys again) and runs the items on
//! every core. The GPU path (`gpu.rs`, kernel `kem.wgsl`) runs all three
//! as staged passes, each distinct key expanded once per sub-batch.

pub(crate) mod cpu;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use std::fmt;

use crate::verdict::Reason;

/// Bytes of each key-generation seed (d and z), of the message m and of the
/// shared secret.
pub const SEED_LEN: usize = 32;

/// Bytes of the shared secret.
pub const SHARED_LEN: usize = 32;

/// A shared secret.
pub type SharedSecret = [u8; SHARED_LEN];

/// The modulus q of ML-KEM's ring.
pub const Q: u16 = 3329;

/// The parameter sets (FIPS 203 table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Set {
    /// ML-KEM-512 (NIST security category 1): k = 2.
    Mlkem512,
    /// ML-KEM-768 (category 3): k = 3.
    Mlkem768,
    /// ML-KEM-1024 (category 5): k = 4.
    Mlkem1024,
}

impl Set {
    /// Every set, in order.
    pub const ALL: [Set; 3] = [Set::Mlkem512, Set::Mlkem768, Set::Mlkem1024];

    /// The name in reports: `ml-kem-512`, ...
    pub fn name(self) -> &'static str {
        match self {
            Set::Mlkem512 => "ml-kem-512",
            Set::Mlkem768 => "ml-kem-768",
            Set::Mlkem1024 => "ml-kem-1024",
        }
    }

    /// 512, 768 or 1024 (the CLI's `--set`).
    pub fn bits(self) -> u16 {
        match self {
            Set::Mlkem512 => 512,
            Set::Mlkem768 => 768,
            Set::Mlkem1024 => 1024,
        }
    }

    /// The set of [`Set::bits`] `bits`.
    pub fn from_bits(bits: u16) -> Option<Set> {
        Set::ALL.into_iter().find(|s| s.bits() == bits)
    }

    /// k, the module rank.
    fn k(self) -> usize {
        usize::from(self.bits() / 256)
    }

    /// Encapsulation key bytes: 384 k + 32.
    pub fn ek_len(self) -> usize {
        384 * self.k() + 32
    }

    /// Decapsulation key bytes: 768 k + 96.
    pub fn dk_len(self) -> usize {
        768 * self.k() + 96
    }

    /// Ciphertext bytes: 32 (d_u k + d_v).
    pub fn ct_len(self) -> usize {
        let (du, dv) = if self == Set::Mlkem1024 { (11, 5) } else { (10, 4) };
        32 * (du * self.k() + dv)
    }

    /// Where ek lies inside dk (after dk_PKE's 384 k bytes).
    fn ek_in_dk(self) -> std::ops::Range<usize> {
        384 * self.k()..384 * self.k() + self.ek_len()
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Key generation's input: the seeds d and z (any length; not 32 bytes is
/// the item's reason).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct KeygenItem {
    /// The seed d (FIPS 203 algorithm 16).
    pub d: Vec<u8>,
    /// The implicit-rejection seed z.
    pub z: Vec<u8>,
}

/// A generated key pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPair {
    /// The encapsulation key.
    pub ek: Vec<u8>,
    /// The decapsulation key (FIPS 203's form, 768 k + 96 bytes).
    pub dk: Vec<u8>,
}

/// Encapsulation's input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EncapsItem {
    /// The encapsulation key.
    pub ek: Vec<u8>,
    /// The message m for deterministic encapsulation; `None` draws 32
    /// bytes from the operating system.
    pub m: Option<Vec<u8>>,
}

/// An encapsulation's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Encapsulated {
    /// The ciphertext.
    pub ct: Vec<u8>,
    /// The shared secret.
    pub ss: SharedSecret,
}

/// Decapsulation's input.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DecapsItem {
    /// The decapsulation key (768 k + 96 bytes).
    pub dk: Vec<u8>,
    /// The ciphertext.
    pub ct: Vec<u8>,
}

/// The reason key generation refuses `item` (`None`: it runs).
pub(crate) fn keygen_reason(item: &KeygenItem) -> Option<Reason> {
    (item.d.len() != SEED_LEN || item.z.len() != SEED_LEN).then_some(Reason::MalformedSeed)
}

/// The reason encapsulation refuses `item` before the modulus check, which
/// needs the key decoded (`None`: the lengths are right).
pub(crate) fn encaps_length_reason(set: Set, item: &EncapsItem) -> Option<Reason> {
    if item.ek.len() != set.ek_len() {
        return Some(Reason::MalformedKey);
    }
    item.m
        .as_ref()
        .is_some_and(|m| m.len() != SEED_LEN)
        .then_some(Reason::MalformedRandomness)
}

/// The reason decapsulation refuses `item` before the key checks (`None`:
/// the lengths are right).
pub(crate) fn decaps_length_reason(set: Set, item: &DecapsItem) -> Option<Reason> {
    if item.dk.len() != set.dk_len() {
        return Some(Reason::MalformedKey);
    }
    (item.ct.len() != set.ct_len()).then_some(Reason::MalformedCiphertext)
}

/// Whether every 12-bit coefficient of an encoded ek's t (all but its last
/// 32 bytes) is below q: FIPS 203's modulus check, ByteEncode12 of
/// ByteDecode12 giving the input back.
pub fn ek_reduced(ek: &[u8]) -> bool {
    let t = &ek[..ek.len().saturating_sub(32)];
    t.chunks_exact(3).all(|b| {
        let (b0, b1, b2) = (u16::from(b[0]), u16::from(b[1]), u16::from(b[2]));
        (b0 | (b1 & 0x0f) << 8) < Q && (b1 >> 4 | b2 << 4) < Q
    })
}

/// The reason a decapsulation key of the right length fails the `ml-kem`
/// crate's checks: its ek not reduced, else the hash check.
pub(crate) fn dk_reason(set: Set, dk: &[u8]) -> Reason {
    if ek_reduced(&dk[set.ek_in_dk()]) {
        Reason::KeyHashMismatch
    } else {
        Reason::KeyNotReduced
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_fips_203s() {
        let want = [(800, 1632, 768), (1184, 2400, 1088), (1568, 3168, 1568)];
        for (set, (ek, dk, ct)) in Set::ALL.into_iter().zip(want) {
            assert_eq!((set.ek_len(), set.dk_len(), set.ct_len()), (ek, dk, ct), "{set}");
            assert_eq!(Set::from_bits(set.bits()), Some(set));
        }
        assert_eq!(Set::from_bits(384), None);
    }

    #[test]
    fn modulus_check_reads_12_bit_coefficients() {
        // Coefficients 3328 and 0, then 0 and 3328: reduced.
        let rho = [0xffu8; 32];
        let ok = [[0x00, 0x0d, 0x00], [0x00, 0x00, 0xd0]];
        for c in ok {
            assert!(ek_reduced(&[&c[..], &rho].concat()), "{c:?}");
        }
        // 3329 in the low and in the high coefficient; 4095.
        for c in [[0x01, 0x0d, 0x00], [0x00, 0x10, 0xd0], [0xff, 0x0f, 0x00]] {
            assert!(!ek_reduced(&[&c[..], &rho].concat()), "{c:?}");
        }
    }
}
