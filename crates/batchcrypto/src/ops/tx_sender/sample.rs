//! Transactions ([`super`]) for benchmarks, self-tests, `sample` and tests,
//! signed by keys of a pool ([`signers`]), and hostile ones of the kinds in
//! [`HOSTILE`].
//!
//! - the bench: EIP-1559 transactions (42 of mainnet block 15,571,241's
//!   58, the rest legacy) with 0 to 200 bytes of call data, to an address;
//! - varied: each type in turn (legacy with and without EIP-155's chain
//!   id, chain ids up to 2^40), contract creations, call data of 0, 4 to 68
//!   or up to 2,000 bytes, access lists of up to three entries, one to six
//!   blob hashes, one or two authorizations.

use alloy_consensus::{
    SignableTransaction, TxEip1559, TxEip2930, TxEip4844, TxEip4844Variant, TxEip7702, TxLegacy, TypedTransaction,
};
use alloy_eips::eip2718::Encodable2718;
use alloy_eips::eip2930::{AccessList, AccessListItem};
use alloy_eips::eip7702::{Authorization, SignedAuthorization};
use alloy_primitives::{Address, B256, Bytes, Signature, TxKind, U256};
use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;
use secp256k1::ecdsa::RecoverableSignature;
use secp256k1::{Message, SecretKey};

use crate::ops::ecdsa::sample::{add_small, k1_keys, negate};
use crate::ops::ecdsa::{self, RecoverItem, SECP256K1_N};
use crate::ops::{bench_or_varied, item_rng};

/// The hostile kinds, in the order items take them; each's reason is the
/// kind's name but for `truncated`, `trailing_byte` and `empty`
/// (`malformed_transaction`), `r_zero` (`r_out_of_range`), `s_over_n`
/// (`s_out_of_range`) and `no_point` (`recovery_failed`).
pub const HOSTILE: [&str; 8] = [
    "unsupported_tx_type",
    "truncated",
    "trailing_byte",
    "high_s",
    "r_zero",
    "s_over_n",
    "no_point",
    "empty",
];

/// Distinct bench items made; larger benches repeat them.
const BENCH_DISTINCT: usize = 4096;

/// The signing keys of [`transactions`] with `signers` and `seed`.
pub fn signers(signers: usize, seed: u64) -> Vec<SecretKey> {
    k1_keys(signers, seed)
}

/// The address of a key: the last 20 bytes of keccak256(x ‖ y).
pub fn address(key: &SecretKey) -> [u8; 20] {
    let pk = secp256k1::PublicKey::from_secret_key(key);
    ecdsa::oracle::recovered(&pk.serialize_uncompressed()).address
}

/// `n` transactions from `seed`, signed by [`signers`]`(signers, seed)`
/// (see the module's shapes; `varied` false: the bench's), each hostile
/// with probability `invalid_share`, of the kind [`HOSTILE`]`[i % 8]`,
/// paired with its kind ("valid" or hostile's).
pub fn transactions(
    n: usize,
    signers: usize,
    seed: u64,
    invalid_share: f64,
    varied: bool,
) -> Vec<(Vec<u8>, &'static str)> {
    let keys = self::signers(signers, seed);
    bench_or_varied(n, varied, BENCH_DISTINCT, |i, varied| {
        one(&keys, seed, i, invalid_share, varied)
    })
}

/// Items `range` of [`transactions`] with `varied` (each depends only on
/// its index, the signers and the seed).
pub fn transactions_range(
    range: std::ops::Range<usize>,
    signers: usize,
    seed: u64,
    invalid_share: f64,
) -> Vec<(Vec<u8>, &'static str)> {
    let keys = self::signers(signers, seed);
    range
        .into_par_iter()
        .map(|i| one(&keys, seed, i, invalid_share, true))
        .collect()
}

/// Item i: its transaction (varied or the bench's) signed by one of `keys`.
fn one(keys: &[SecretKey], seed: u64, i: usize, invalid_share: f64, varied: bool) -> (Vec<u8>, &'static str) {
    let mut rng = item_rng(seed, i);
    let tx = if varied {
        varied_tx(&mut rng, i)
    } else {
        bench_tx(&mut rng)
    };
    let key = &keys[rng.random_range(0..keys.len())];
    finish(tx, key, &mut rng, i, invalid_share)
}

/// Random bytes, `least` to `most` of them.
fn random_bytes(rng: &mut StdRng, least: usize, most: usize) -> Bytes {
    let len = rng.random_range(least..=most);
    (0..len).map(|_| rng.random::<u8>()).collect()
}

/// The bench's transaction: EIP-1559, to an address, 0 to 200 bytes of data.
fn bench_tx(rng: &mut StdRng) -> TypedTransaction {
    TypedTransaction::Eip1559(TxEip1559 {
        chain_id: 1,
        nonce: rng.random_range(0..100_000),
        gas_limit: rng.random_range(21_000..1_000_000),
        max_fee_per_gas: rng.random_range(1..200) * 1_000_000_000,
        max_priority_fee_per_gas: rng.random_range(0..3_000_000_000),
        to: TxKind::Call(Address::from(rng.random::<[u8; 20]>())),
        value: U256::from(rng.random::<u64>()),
        access_list: AccessList::default(),
        input: random_bytes(rng, 0, 200),
    })
}

/// Transaction i of the varied shapes: type i % 5.
fn varied_tx(rng: &mut StdRng, i: usize) -> TypedTransaction {
    let chain_id = match (i / 5) % 3 {
        0 => 1,
        1 => rng.random_range(2..=1 << 40),
        _ => 11_155_111,
    };
    let input = match (i / 15) % 3 {
        0 => Bytes::new(),
        1 => random_bytes(rng, 4, 68),
        _ => random_bytes(rng, 0, 2000),
    };
    let to = Address::from(rng.random::<[u8; 20]>());
    let kind = if rng.random_bool(0.1) {
        TxKind::Create
    } else {
        TxKind::Call(to)
    };
    let nonce = rng.random();
    let gas_limit = rng.random();
    let fee = rng.random::<u64>().into();
    let tip = rng.random::<u64>().into();
    let value = U256::from_be_bytes(rng.random::<[u8; 32]>()) >> rng.random_range(0..256);
    let access_list = AccessList(
        (0..rng.random_range(0..=3))
            .map(|_| AccessListItem {
                address: Address::from(rng.random::<[u8; 20]>()),
                storage_keys: (0..rng.random_range(0..=3))
                    .map(|_| B256::from(rng.random::<[u8; 32]>()))
                    .collect(),
            })
            .collect(),
    );
    match i % 5 {
        0 => TypedTransaction::Legacy(TxLegacy {
            // Every third legacy transaction is from before EIP-155.
            chain_id: (!i.is_multiple_of(3)).then_some(chain_id),
            nonce,
            gas_price: fee,
            gas_limit,
            to: kind,
            value,
            input,
        }),
        1 => TypedTransaction::Eip2930(TxEip2930 {
            chain_id,
            nonce,
            gas_price: fee,
            gas_limit,
            to: kind,
            value,
            access_list,
            input,
        }),
        2 => TypedTransaction::Eip1559(TxEip1559 {
            chain_id,
            nonce,
            gas_limit,
            max_fee_per_gas: fee,
            max_priority_fee_per_gas: tip,
            to: kind,
            value,
            access_list,
            input,
        }),
        3 => TypedTransaction::Eip4844(TxEip4844Variant::TxEip4844(TxEip4844 {
            chain_id,
            nonce,
            gas_limit,
            max_fee_per_gas: fee,
            max_priority_fee_per_gas: tip,
            to,
            value,
            access_list,
            blob_versioned_hashes: (0..rng.random_range(1..=6))
                .map(|_| {
                    let mut h: [u8; 32] = rng.random();
                    h[0] = 1;
                    B256::from(h)
                })
                .collect(),
            max_fee_per_blob_gas: rng.random::<u64>().into(),
            input,
        })),
        _ => TypedTransaction::Eip7702(TxEip7702 {
            chain_id,
            nonce,
            gas_limit,
            max_fee_per_gas: fee,
            max_priority_fee_per_gas: tip,
            to,
            value,
            access_list,
            authorization_list: (0..rng.random_range(1..=2))
                .map(|_| {
                    let inner = Authorization {
                        chain_id: U256::from(chain_id),
                        address: Address::from(rng.random::<[u8; 20]>()),
                        nonce: rng.random(),
                    };
                    let r = U256::from_be_bytes(rng.random::<[u8; 32]>());
                    let s = U256::from_be_bytes(rng.random::<[u8; 32]>());
                    SignedAuthorization::new_unchecked(inner, rng.random_range(0..2), r, s)
                })
                .collect(),
            input,
        }),
    }
}

/// `tx` signed by `key`, its encoding made hostile with probability
/// `invalid_share` (kind [`HOSTILE`]`[i % 8]`).
fn finish(
    tx: TypedTransaction,
    key: &SecretKey,
    rng: &mut StdRng,
    i: usize,
    invalid_share: f64,
) -> (Vec<u8>, &'static str) {
    let hash = tx.signature_hash();
    let signed = RecoverableSignature::sign_ecdsa_recoverable(Message::from_digest(hash.0), key);
    let (id, rs) = signed.serialize_compact();
    let (r, s, parity) = (&rs[..32], &rs[32..], id.to_u8() == 1);
    let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
    let kind = if hostile { HOSTILE[i % HOSTILE.len()] } else { "valid" };
    let word = |b: &[u8]| U256::from_be_slice(b);
    let signature = match kind {
        "high_s" => Signature::new(word(r), word(&negate(s, &SECP256K1_N)), !parity),
        "r_zero" => Signature::new(U256::ZERO, word(s), parity),
        "s_over_n" => Signature::new(word(r), word(&add_small(&SECP256K1_N, rng.random_range(0..16))), parity),
        "no_point" => Signature::new(word(&no_point(rng, &hash.0, s)), word(s), parity),
        _ => Signature::new(word(r), word(s), parity),
    };
    let mut item = tx.into_envelope(signature).encoded_2718();
    match kind {
        "unsupported_tx_type" => {
            let ty = rng.random_range(5..0x80);
            match item[0] {
                // A typed transaction's type byte replaced; a legacy one's list behind one.
                0..0x80 => item[0] = ty,
                _ => item.insert(0, ty),
            }
        }
        _ => ragged(kind, &mut item, rng),
    }
    (item, kind)
}

/// An encoding made hostile by kind: `truncated` (cut anywhere),
/// `trailing_byte` (a byte added) or `empty`; other kinds leave it.
pub(crate) fn ragged(kind: &str, item: &mut Vec<u8>, rng: &mut StdRng) {
    match kind {
        "truncated" => item.truncate(rng.random_range(0..item.len().max(1))),
        "trailing_byte" => item.push(rng.random()),
        "empty" => item.clear(),
        _ => {}
    }
}

/// An r in [1, n-1] that is no curve point's x (so nothing recovers from
/// it): about half are; drawn until one is.
pub(crate) fn no_point(rng: &mut StdRng, hash: &[u8; 32], s: &[u8]) -> [u8; 32] {
    loop {
        let r: [u8; 32] = rng.random();
        let mut sig = [0u8; 65];
        sig[..32].copy_from_slice(&r);
        sig[32..64].copy_from_slice(s);
        sig[64] = 27;
        let item = RecoverItem { hash: *hash, sig };
        if ecdsa::in_range(&r, &SECP256K1_N) && ecdsa::oracle::ecrecover(&item, false).is_none() {
            break r;
        }
    }
}

/// Test support: each of `made`'s items answers as its kind means under
/// `oracle` (a valid one: one of `keys`' addresses; `own.0`: `own.1`; a
/// ragged one: `malformed`; the others: `ecrecover`'s reasons), and every
/// kind of `hostile` and "valid" is among them.
#[cfg(test)]
pub(crate) fn assert_kinds(
    made: &[(Vec<u8>, &'static str)],
    hostile: &[&str],
    keys: &[[u8; 20]],
    oracle: fn(&[u8]) -> super::SenderResult,
    own: (&str, crate::verdict::Reason),
    malformed: crate::verdict::Reason,
) {
    use crate::verdict::Reason;
    for (i, (item, kind)) in made.iter().enumerate() {
        let got = oracle(item);
        let want = match *kind {
            "valid" => {
                assert!(keys.contains(&got.expect("valid")), "item {i}: not a signer's address");
                continue;
            }
            k if k == own.0 => own.1,
            "truncated" | "trailing_byte" | "empty" => malformed,
            "high_s" => Reason::HighS,
            "r_zero" => Reason::ROutOfRange,
            "s_over_n" => Reason::SOutOfRange,
            "no_point" => Reason::RecoveryFailed,
            other => panic!("unknown kind {other}"),
        };
        assert_eq!(got, Err(want), "item {i} ({kind})");
    }
    for kind in hostile.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "no {kind} item");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::tx_sender::oracle;
    use crate::verdict::Reason;

    #[test]
    fn every_kind_answers_as_meant() {
        let made = transactions(400, 5, 7, 0.5, true);
        let keys: Vec<[u8; 20]> = signers(5, 7).iter().map(address).collect();
        let own = ("unsupported_tx_type", Reason::UnsupportedTxType);
        assert_kinds(
            &made,
            &HOSTILE,
            &keys,
            oracle::sender,
            own,
            Reason::MalformedTransaction,
        );
        // Every type among the valid ones.
        for ty in 0..5u8 {
            let typed = |item: &[u8]| if item[0] >= 0xc0 { 0 } else { item[0] };
            assert!(
                made.iter().any(|(item, k)| *k == "valid" && typed(item) == ty),
                "no type {ty}"
            );
        }
        // The bench's: valid EIP-1559 transactions, repeated past BENCH_DISTINCT.
        let bench = transactions(BENCH_DISTINCT + 3, 5, 1, 0.0, false);
        assert_eq!(bench.len(), BENCH_DISTINCT + 3);
        assert_eq!(bench[BENCH_DISTINCT].0, bench[0].0);
        assert!(bench[..3].iter().all(|(item, k)| *k == "valid" && item[0] == 2));
        assert_eq!(transactions_range(10..12, 5, 7, 0.5), made[10..12].to_vec());
    }
}
