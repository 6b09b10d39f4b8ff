//! Authorizations ([`super`]) for benchmarks, self-tests, `sample` and
//! tests, signed by keys of a pool (`tx_sender`'s [`signers`]), and
//! hostile ones of the kinds in [`HOSTILE`]: chain ids 0, 1 or up to
//! 2^64, random delegates and nonces.

use alloy_eips::eip7702::Authorization;
use alloy_primitives::{Address, U256};
use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;
use secp256k1::ecdsa::RecoverableSignature;
use secp256k1::{Message, SecretKey};

use super::encode;
use crate::ops::ecdsa::SECP256K1_N;
use crate::ops::ecdsa::sample::{add_small, negate};
use crate::ops::item_rng;
use crate::ops::tx_sender::sample::{no_point, ragged, signers};

/// The hostile kinds, in the order items take them; each's reason is
/// `bad_v` for `bad_parity`, `malformed_authorization` for `truncated`,
/// `trailing_byte` and `empty`, and as `tx_sender`'s for the others.
pub const HOSTILE: [&str; 8] = [
    "bad_parity",
    "truncated",
    "trailing_byte",
    "high_s",
    "r_zero",
    "s_over_n",
    "no_point",
    "empty",
];

/// Items `range` from `seed`, signed by [`signers`]`(signers, seed)`, each
/// hostile with probability `invalid_share` (kind [`HOSTILE`]`[i % 8]`),
/// paired with its kind ("valid" or hostile's); each item depends only on
/// its index, the signers and the seed.
pub fn authorizations(
    range: std::ops::Range<usize>,
    signers: usize,
    seed: u64,
    invalid_share: f64,
) -> Vec<(Vec<u8>, &'static str)> {
    let keys = self::signers(signers, seed);
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(seed, i);
            let key = &keys[rng.random_range(0..keys.len())];
            one(&mut rng, key, i, invalid_share)
        })
        .collect()
}

/// Authorization i signed by `key`, made hostile as drawn.
fn one(rng: &mut StdRng, key: &SecretKey, i: usize, invalid_share: f64) -> (Vec<u8>, &'static str) {
    let mut chain_id = [0u8; 32];
    match i % 3 {
        0 => {}
        1 => chain_id[31] = 1,
        _ => chain_id[24..].copy_from_slice(&rng.random::<u64>().to_be_bytes()),
    }
    let address: [u8; 20] = rng.random();
    let bits = rng.random_range(1..64);
    let nonce = rng.random_range(0..1u64 << bits);
    let hash = Authorization {
        chain_id: U256::from_be_bytes(chain_id),
        address: Address::from(address),
        nonce,
    }
    .signature_hash()
    .0;
    let signed = RecoverableSignature::sign_ecdsa_recoverable(Message::from_digest(hash), key);
    let (id, rs) = signed.serialize_compact();
    let (mut r, mut s, mut parity) = ([0u8; 32], [0u8; 32], id.to_u8());
    r.copy_from_slice(&rs[..32]);
    s.copy_from_slice(&rs[32..]);
    let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
    let kind = if hostile { HOSTILE[i % HOSTILE.len()] } else { "valid" };
    match kind {
        "bad_parity" => parity = rng.random_range(2..=255),
        "high_s" => {
            s = negate(&s, &SECP256K1_N);
            parity ^= 1;
        }
        "r_zero" => r = [0; 32],
        "s_over_n" => s = add_small(&SECP256K1_N, rng.random_range(0..16)),
        "no_point" => r = no_point(rng, &hash, &s),
        _ => {}
    }
    let mut item = encode(&chain_id, &address, nonce, parity, &r, &s);
    ragged(kind, &mut item, rng);
    (item, kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::authority::oracle;
    use crate::ops::tx_sender::sample::{address, assert_kinds};
    use crate::verdict::Reason;

    #[test]
    fn every_kind_answers_as_meant() {
        let made = authorizations(0..300, 5, 7, 0.5);
        let keys: Vec<[u8; 20]> = signers(5, 7).iter().map(address).collect();
        let own = ("bad_parity", Reason::BadV);
        assert_kinds(
            &made,
            &HOSTILE,
            &keys,
            oracle::authority,
            own,
            Reason::MalformedAuthorization,
        );
        assert_eq!(authorizations(10..12, 5, 7, 0.5), made[10..12].to_vec());
    }
}
