//! ECDSA signatures in DER, read into the r ‖ s the operations take.
//!
//! An ECDSA signature's ASN.1 form is `Ecdsa-Sig-Value ::= SEQUENCE { r
//! INTEGER, s INTEGER }` (RFC 3279 §2.2.3, SEC 1 v2 §C.5), written in
//! X.690's distinguished encoding (DER): what Bitcoin's scripts carry
//! (BIP-66's strict DER, the sighash type byte after it removed), what
//! X.509 certificates and TLS, WebAuthn authenticators (passkeys), HSMs
//! and cloud key services (AWS KMS, Google Cloud KMS) and Hyperledger
//! Fabric sign with. `secp256k1_verify` and `p256_verify` read such a
//! signature with libsecp256k1's strict parser
//! (`secp256k1_ecdsa_signature_parse_der` through the `secp256k1` crate's
//! `Signature::from_der`), for P-256 too: a sequence of two integers,
//! each minimal, every length in its shortest form, no byte after it;
//! anything else (BER's longer lengths or leading zeros, an indefinite
//! length, a wrong tag, a missing or extra byte) is `malformed_signature`.
//! An integer that parses but is negative, wider than 32 bytes or not
//! below secp256k1's n is read as zero, which the operations' range checks
//! then refuse (`r_out_of_range`, `s_out_of_range`): P-256's n is below
//! secp256k1's, so every value the parser keeps is held to the curve's own
//! range as a 64-byte signature's is. The tests hold the verdicts to
//! libsecp256k1's DER path and to RustCrypto `p256`'s
//! (`Signature::from_der`, `verify_prehash`), and to Wycheproof's DER
//! files (BER and malformed encodings among them).
//!
//! DER is an encoding of the operations' input, not an operation of its
//! own: the registry's entries, the calibration, the bench and the GPU
//! kernels are the r ‖ s operations'. A caller reads each signature into
//! its item ([`K1VerifyItem::from_der`], [`P256Item::from_der`]) and hands
//! the items as read to `Engine::verify_secp256k1_read` or
//! `verify_p256_read`: those the reading refused keep their reason, the
//! others run as one r ‖ s batch wherever the plan puts it.

use secp256k1::ecdsa::Signature;

use super::{K1Key, K1VerifyItem, P256Item};
use crate::verdict::Reason;

/// The longest DER signature of integers below 2^256 (two 33-byte
/// integers, each with its tag and length, in a sequence's tag and
/// length); longer ones are strict DER too, of integers out of range.
pub const MAX_LEN: usize = 72;

/// r ‖ s (32 bytes each, big-endian) of a DER-encoded signature, or
/// `malformed_signature` when it is not strict DER (see the module's
/// docs: an integer out of range reads as zero).
pub fn to_compact(der: &[u8]) -> Result<[u8; 64], Reason> {
    Signature::from_der(der)
        .map(|sig| sig.serialize_compact())
        .map_err(|_| Reason::MalformedSignature)
}

/// The strict DER of r ‖ s (each integer minimal, with a zero byte before
/// a high bit): what a signer of these values writes, and what
/// [`to_compact`] reads back as given when both are below secp256k1's n.
pub fn encode(sig: &[u8; 64]) -> Vec<u8> {
    let integer = |v: &[u8]| {
        let start = v.iter().position(|&b| b != 0).unwrap_or(v.len() - 1);
        let pad = usize::from(v[start] & 0x80 != 0);
        let mut out = vec![0x02, (v.len() - start + pad) as u8];
        out.extend(std::iter::repeat_n(0, pad));
        out.extend_from_slice(&v[start..]);
        out
    };
    let body = [integer(&sig[..32]), integer(&sig[32..])].concat();
    [vec![0x30, body.len() as u8], body].concat()
}

impl K1VerifyItem {
    /// The `secp256k1_verify` item of a DER-encoded signature
    /// ([`to_compact`]), or why it has none.
    pub fn from_der(hash: [u8; 32], der: &[u8], pk: K1Key) -> Result<K1VerifyItem, Reason> {
        Ok(K1VerifyItem {
            hash,
            sig: to_compact(der)?,
            pk,
        })
    }
}

impl P256Item {
    /// The `p256_verify` item of a DER-encoded signature ([`to_compact`])
    /// and the key's coordinates, or why it has none.
    pub fn from_der(hash: [u8; 32], der: &[u8], x: [u8; 32], y: [u8; 32]) -> Result<P256Item, Reason> {
        let sig = to_compact(der)?;
        let (mut r, mut s) = ([0u8; 32], [0u8; 32]);
        r.copy_from_slice(&sig[..32]);
        s.copy_from_slice(&sig[32..]);
        Ok(P256Item { hash, r, s, x, y })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(r: [u8; 32], s: [u8; 32]) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(&r);
        out[32..].copy_from_slice(&s);
        out
    }

    #[test]
    fn reads_minimal_integers_of_every_width() {
        let mut one = [0u8; 32];
        one[31] = 1;
        // All ones is above secp256k1's n: read as zero.
        let der = encode(&sig([0xff; 32], one));
        assert_eq!(der.len(), 2 + 35 + 3);
        assert_eq!(to_compact(&der), Ok(sig([0; 32], one)));
        let mut high = [0u8; 32];
        high[1] = 0x80;
        assert_eq!(to_compact(&encode(&sig(high, one))), Ok(sig(high, one)));
        let longest = encode(&sig([0x80; 32], [0x80; 32]));
        assert_eq!(longest.len(), MAX_LEN);
        assert_eq!(to_compact(&longest), Ok(sig([0x80; 32], [0x80; 32])));
        // Zero is one byte, 0x00.
        assert_eq!(encode(&sig([0; 32], one)), [0x30, 6, 2, 1, 0, 2, 1, 1]);
        assert_eq!(to_compact(&encode(&sig([0; 32], one))), Ok(sig([0; 32], one)));
    }

    #[test]
    fn refuses_what_is_not_strict_der() {
        let mut s = [0u8; 32];
        s[31] = 7;
        let der = encode(&sig([0x11; 32], s));
        assert!(to_compact(&der).is_ok());
        let refused = |d: &[u8]| to_compact(d) == Err(Reason::MalformedSignature);
        // A byte after it, one short, another tag, a long-form length.
        assert!(refused(&[&der[..], &[0]].concat()));
        assert!(refused(&der[..der.len() - 1]));
        assert!(refused(&[&[0x31], &der[1..]].concat()));
        assert!(refused(&[&[0x30, 0x81], &der[1..]].concat()));
        // A leading zero the integer does not need.
        let padded = [&[0x30, der[1] + 1, 2, 33, 0][..], &der[4..]].concat();
        assert!(refused(&padded));
        assert!(refused(&[]));
        assert!(refused(&[0x30, 0]));
    }
}
