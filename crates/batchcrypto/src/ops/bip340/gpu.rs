//! Host side of BIP-340 verification on the GPU: the secp256k1 kernel of
//! `ops/ecdsa` (entry point `bip340_verify`, the same item layout, the
//! fixed-base table and GLV double multiplication) through the driver.
//!
//! The challenge e = H_BIP0340/challenge(r ‖ pk ‖ m) mod n is computed here,
//! while packing (on all cores, SHA-256 from the `sha2` crate, which uses
//! the CPU's SHA extensions): about 1 µs per short message on one core
//! against the ~3,700 field multiplications the device spends per item.
//! The device lifts the key, computes R = s G - e P, makes it affine and
//! checks its y and x; the host applies r < p and s < n and combines them
//! with the kernel's flags in BIP-340's order.

use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use super::{Batch, PK_LEN, scalar_checks};
use crate::gpu::Gpu;
use crate::gpu::bigint::{from_be, sub};
use crate::gpu::driver::{self, Failure, Kernel, Streamed};
use crate::ops::ecdsa::SECP256K1_N;
use crate::ops::ecdsa::gpu::{EcdsaKernel, Entry, ITEM_WORDS, pack};
use crate::verdict::{Reason, Verdict};

/// SHA-256 after the tag prefix SHA-256("BIP0340/challenge") twice (BIP-340's
/// tagged hash), cloned for every item.
fn challenge_hasher() -> &'static Sha256 {
    static TAGGED: OnceLock<Sha256> = OnceLock::new();
    TAGGED.get_or_init(|| {
        let tag = Sha256::digest(b"BIP0340/challenge");
        let mut h = Sha256::new();
        h.update(tag);
        h.update(tag);
        h
    })
}

/// e = H_BIP0340/challenge(r ‖ pk ‖ m) mod n, big-endian.
fn challenge(r: &[u8], pk: &[u8; PK_LEN], msg: &[u8]) -> [u8; 32] {
    let mut h = challenge_hasher().clone();
    h.update(r);
    h.update(pk);
    h.update(msg);
    let e: [u8; 32] = h.finalize().into();
    // A 256-bit value is below 2n: one subtraction reduces it.
    let n = from_be::<8>(&SECP256K1_N);
    let (reduced, borrow) = sub(&from_be::<8>(&e), &n);
    if borrow {
        e
    } else {
        let mut out = [0u8; 32];
        out.copy_from_slice(&crate::gpu::bigint::to_be::<8>(&reduced));
        out
    }
}

/// The kernel over `batch`.
fn kernel<'a>(gpu: &Gpu, batch: &'a Batch) -> Result<impl Kernel<Out = Verdict> + 'a, String> {
    EcdsaKernel::new(
        gpu,
        Entry::Bip340,
        0,
        batch.pks(),
        move |i, pk: &[u8; PK_LEN]| {
            let sig = batch.sig(i);
            let mut w = [0u32; ITEM_WORDS];
            let e = challenge(&sig[..32], pk, batch.msg(i));
            pack(&mut w, &e, &sig[..32], &sig[32..], pk, &[0; 32], 0);
            w
        },
        move |i, _pk: &[u8; PK_LEN], out: &[u32]| {
            if out[0] & 1 == 0 {
                return Verdict::Invalid(Reason::MalformedKey);
            }
            if let Err(reason) = scalar_checks(batch.sig(i)) {
                return Verdict::Invalid(reason);
            }
            if out[0] & 2 == 0 {
                return Verdict::Invalid(Reason::Equation);
            }
            Verdict::Valid
        },
    )
}

/// Verifies every item of `batch` on the GPU: the CPU path's verdicts.
pub(crate) fn verify(gpu: &Gpu, batch: &Batch) -> Streamed<Verdict> {
    driver::run(gpu, &kernel(gpu, batch).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `batch` (see
/// [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, batch: &Batch, runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &kernel(gpu, batch)?, runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The challenge equals the one libsecp256k1 verifies against: a
    /// signature made with e from here verifies, for messages of several
    /// lengths (BIP-340's variable-length messages).
    #[test]
    fn challenge_matches_the_oracle() {
        use secp256k1::{Keypair, Parity, PublicKey, Scalar, SecretKey};
        let key = Keypair::from_secret_bytes([7u8; 32]).expect("key");
        let (xonly, _) = key.x_only_public_key();
        for len in [0usize, 1, 32, 63, 64, 65, 200] {
            let msg: Vec<u8> = (0..len as u8).collect();
            let bytes = secp256k1::schnorr::sign_with_aux_rand(&msg, &key, &[1u8; 32]).to_byte_array();
            // s G - e P has x = r, with e from here.
            let e = Scalar::from_be_bytes(challenge(&bytes[..32], &xonly.to_byte_array(), &msg)).expect("e < n");
            let s_g = PublicKey::from_secret_key(
                &SecretKey::from_secret_bytes(bytes[32..].try_into().expect("32")).expect("s"),
            );
            let e_p = xonly.public_key(Parity::Even).mul_tweak(&e).expect("e P");
            let r = s_g.combine(&e_p.negate()).expect("R finite");
            assert_eq!(r.x_only_public_key().0.to_byte_array(), bytes[..32], "len {len}");
        }
    }
}
