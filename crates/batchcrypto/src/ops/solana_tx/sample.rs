//! Transactions ([`super`]) for benchmarks, self-tests, `sample` and
//! tests, signed by keys of a pool ([`signers`]) with ed25519-dalek, and
//! hostile ones of the kinds in [`HOSTILE`].
//!
//! - the bench: a legacy transfer (the system program's instruction 2),
//!   one signer: 215 bytes, its message 150;
//! - varied: legacy, v0 (one or two address lookup tables) and v1 (a
//!   priority fee or compute-unit limit in its config) in turn, one to
//!   four signers (the last read-only from two on), up to three writable
//!   accounts that do not sign, one or two programs, one to three
//!   instructions of 0 to 300 bytes of data (every fifth up to 1,000).
//!
//! The generator never decides a verdict: the oracle does. A hostile
//! kind only says how the transaction was spoiled: a signature's bit
//! (`flipped_sig_bit`), the blockhash after signing (`flipped_msg_bit`),
//! a signature by another key (`wrong_signer`), S + L in place of S
//! (`s_plus_l`), a signer whose key has small order and whose signature
//! only the cofactored equation accepts (`small_order_signer`: ZIP-215
//! valid, strict not), a key of mixed order (`mixed_order_signer`:
//! likewise, strict valid only when the challenge kills the torsion), a
//! key off the curve (`off_curve_signer`), one signature fewer than the
//! header asks (`missing_signature`), a header without a writable signer
//! (`bad_header`), a message version past 1 (`unknown_version`), the
//! bytes cut (`truncated`), a byte added (`trailing_byte`), none
//! (`empty`).

use curve25519_dalek::constants::ED25519_BASEPOINT_TABLE;
use ed25519_dalek::{Signer, SigningKey};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use solana_message::compiled_instruction::CompiledInstruction;
use solana_message::v0::MessageAddressTableLookup;
use solana_message::v1::TransactionConfig;
use solana_message::{Address, Hash, MessageHeader, VersionedMessage, legacy, v0, v1};
use solana_transaction::Signature;
use solana_transaction::versioned::VersionedTransaction;

use crate::ops::ed25519::sample::{add_l, challenge, flip_bit, join, off_curve_key, random_scalar, torsion};
use crate::ops::tx_sender::sample::ragged;
use crate::ops::{bench_or_varied, item_rng};

/// The hostile kinds, in the order items take them (see the module).
pub const HOSTILE: [&str; 13] = [
    "flipped_sig_bit",
    "flipped_msg_bit",
    "wrong_signer",
    "s_plus_l",
    "small_order_signer",
    "mixed_order_signer",
    "off_curve_signer",
    "missing_signature",
    "bad_header",
    "unknown_version",
    "truncated",
    "trailing_byte",
    "empty",
];

/// Distinct bench items made; larger benches repeat them.
const BENCH_DISTINCT: usize = 4096;

/// Mixed into the seed of the signers' keys (other ops' pools differ).
const KEYS_SEED: u64 = 0x5013_a7a0;

/// The system program's id (32 zero bytes) and its transfer
/// instruction's number.
const SYSTEM_PROGRAM: [u8; 32] = [0; 32];
const TRANSFER: u32 = 2;

/// The signing keys of [`transactions`] with `signers` and `seed`.
pub fn signers(signers: usize, seed: u64) -> Vec<SigningKey> {
    let mut rng = StdRng::seed_from_u64(seed ^ KEYS_SEED);
    (0..signers.max(1))
        .map(|_| SigningKey::from_bytes(&rng.random()))
        .collect()
}

/// `n` transactions from `seed`, signed by [`signers`]`(signers, seed)`
/// (see the module's shapes; `varied` false: the bench's), each hostile
/// with probability `invalid_share`, of the kind [`HOSTILE`]`[i % 13]`,
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

/// A message's version.
#[derive(Clone, Copy, PartialEq)]
enum Version {
    Legacy,
    V0,
    V1,
}

/// A signer's key: one of the pool's, or one made hostile by kind.
enum Key {
    Honest(SigningKey),
    /// A point of small order: R = [r]B, S = r.
    SmallOrder([u8; 32]),
    /// [a]B + T: R = [r]B, S = r + k·a.
    MixedOrder([u8; 32], curve25519_dalek::Scalar),
    /// Bytes that decode to no point, with an honest key's signature.
    OffCurve([u8; 32], SigningKey),
}

impl Key {
    fn public(&self) -> [u8; 32] {
        match self {
            Key::Honest(k) => k.verifying_key().to_bytes(),
            Key::SmallOrder(pk) | Key::MixedOrder(pk, _) | Key::OffCurve(pk, _) => *pk,
        }
    }

    fn sign(&self, msg: &[u8], rng: &mut StdRng) -> [u8; 64] {
        match self {
            Key::Honest(k) | Key::OffCurve(_, k) => k.sign(msg).to_bytes(),
            Key::SmallOrder(_) => {
                let r = random_scalar(rng);
                join(&(&r * ED25519_BASEPOINT_TABLE).compress().to_bytes(), r.as_bytes())
            }
            Key::MixedOrder(pk, a) => {
                let r = random_scalar(rng);
                let r_enc = (&r * ED25519_BASEPOINT_TABLE).compress().to_bytes();
                let s = r + challenge(&r_enc, pk, msg) * a;
                join(&r_enc, s.as_bytes())
            }
        }
    }
}

/// Item i: its transaction (varied or the bench's), spoiled by kind.
fn one(keys: &[SigningKey], seed: u64, i: usize, invalid_share: f64, varied: bool) -> (Vec<u8>, &'static str) {
    let mut rng = item_rng(seed, i);
    let hostile = rng.random_bool(invalid_share.clamp(0.0, 1.0));
    let kind = if hostile { HOSTILE[i % HOSTILE.len()] } else { "valid" };
    let version = match (varied, kind) {
        (false, _) => Version::Legacy,
        // Their spoiling needs a signature count or a version byte on the wire.
        (true, "missing_signature" | "unknown_version") => Version::V0,
        (true, _) => [Version::Legacy, Version::V0, Version::V1][i % 3],
    };
    let n_signers = if varied { rng.random_range(1..=4) } else { 1 };
    // Distinct signers where the pool has enough.
    let first = rng.random_range(0..keys.len());
    let mut signer_keys: Vec<Key> = (0..n_signers)
        .map(|j| Key::Honest(keys[(first + j) % keys.len()].clone()))
        .collect();
    let spoiled = rng.random_range(0..n_signers);
    match kind {
        "small_order_signer" => signer_keys[spoiled] = Key::SmallOrder(torsion(&mut rng).compress().to_bytes()),
        "mixed_order_signer" => {
            let a = random_scalar(&mut rng);
            let pk = (&a * ED25519_BASEPOINT_TABLE + torsion(&mut rng)).compress().to_bytes();
            signer_keys[spoiled] = Key::MixedOrder(pk, a);
        }
        "off_curve_signer" => signer_keys[spoiled] = Key::OffCurve(off_curve_key(&mut rng), keys[0].clone()),
        _ => {}
    }
    let mut message = if varied {
        varied_message(&signer_keys, version, &mut rng, i)
    } else {
        transfer(&signer_keys[0], &mut rng)
    };
    if kind == "bad_header" {
        set_header(&mut message, |h| {
            h.num_readonly_signed_accounts = h.num_required_signatures
        });
    }
    let bytes = message.serialize();
    let mut signatures: Vec<[u8; 64]> = signer_keys.iter().map(|k| k.sign(&bytes, &mut rng)).collect();
    match kind {
        "flipped_sig_bit" => flip_bit(&mut signatures[spoiled], &mut rng),
        "wrong_signer" => {
            signatures[spoiled] = SigningKey::from_bytes(&rng.random()).sign(&bytes).to_bytes();
        }
        "s_plus_l" => add_l(&mut signatures[spoiled][32..]),
        "missing_signature" => {
            signatures.pop();
        }
        "flipped_msg_bit" => set_blockhash(&mut message, &mut rng),
        _ => {}
    }
    let tx = VersionedTransaction {
        signatures: signatures.into_iter().map(Signature::from).collect(),
        message,
    };
    let mut item = wincode::serialize(&tx).unwrap_or_default();
    match kind {
        "unknown_version" => {
            // A v0 message's prefix follows the signatures (fewer than 128:
            // a one-byte count).
            let at = 1 + 64 * tx.signatures.len();
            item[at] = rng.random_range(0x82..=0xff);
        }
        _ => ragged(kind, &mut item, &mut rng),
    }
    (item, kind)
}

/// The bench's transaction: `from` pays `lamports` to a fresh account
/// (keys: payer, recipient, the system program).
fn transfer(from: &Key, rng: &mut StdRng) -> VersionedMessage {
    let mut data = TRANSFER.to_le_bytes().to_vec();
    data.extend_from_slice(&rng.random_range(1u64..1 << 40).to_le_bytes());
    VersionedMessage::Legacy(legacy::Message {
        header: MessageHeader {
            num_required_signatures: 1,
            num_readonly_signed_accounts: 0,
            num_readonly_unsigned_accounts: 1,
        },
        account_keys: vec![
            Address::from(from.public()),
            Address::from(rng.random::<[u8; 32]>()),
            Address::from(SYSTEM_PROGRAM),
        ],
        recent_blockhash: Hash::from(rng.random::<[u8; 32]>()),
        instructions: vec![CompiledInstruction {
            program_id_index: 2,
            accounts: vec![0, 1],
            data,
        }],
    })
}

/// A message of the varied shapes (see the module) signed by `signers`.
fn varied_message(signers: &[Key], version: Version, rng: &mut StdRng, i: usize) -> VersionedMessage {
    let n_signers = signers.len();
    let writable = rng.random_range(0..=3);
    let programs = rng.random_range(1..=2);
    let mut account_keys: Vec<Address> = signers.iter().map(|k| Address::from(k.public())).collect();
    account_keys.extend((0..writable).map(|_| Address::from(rng.random::<[u8; 32]>())));
    account_keys.push(Address::from(SYSTEM_PROGRAM));
    if programs == 2 {
        account_keys.push(Address::from(rng.random::<[u8; 32]>()));
    }
    let header = MessageHeader {
        num_required_signatures: n_signers as u8,
        num_readonly_signed_accounts: u8::from(n_signers > 1),
        num_readonly_unsigned_accounts: programs,
    };
    let lookups: Vec<MessageAddressTableLookup> = match version {
        Version::V0 => (0..rng.random_range(1..=2))
            .map(|_| MessageAddressTableLookup {
                account_key: Address::from(rng.random::<[u8; 32]>()),
                writable_indexes: (0..rng.random_range(1..=3)).map(|_| rng.random()).collect(),
                readonly_indexes: (0..rng.random_range(0..=3)).map(|_| rng.random()).collect(),
            })
            .collect(),
        _ => Vec::new(),
    };
    let loaded: usize = lookups
        .iter()
        .map(|l| l.writable_indexes.len() + l.readonly_indexes.len())
        .sum();
    let accounts = account_keys.len() + loaded;
    let first_program = account_keys.len() - usize::from(programs);
    let most_data = if i.is_multiple_of(5) { 1000 } else { 300 };
    let instructions: Vec<CompiledInstruction> = (0..rng.random_range(1..=3))
        .map(|_| CompiledInstruction {
            program_id_index: rng.random_range(first_program..account_keys.len()) as u8,
            accounts: (0..rng.random_range(0..=6))
                .map(|_| rng.random_range(0..accounts) as u8)
                .collect(),
            data: (0..rng.random_range(0..=most_data)).map(|_| rng.random()).collect(),
        })
        .collect();
    let blockhash = Hash::from(rng.random::<[u8; 32]>());
    match version {
        Version::Legacy => VersionedMessage::Legacy(legacy::Message {
            header,
            account_keys,
            recent_blockhash: blockhash,
            instructions,
        }),
        Version::V0 => VersionedMessage::V0(v0::Message {
            header,
            account_keys,
            recent_blockhash: blockhash,
            instructions,
            address_table_lookups: lookups,
        }),
        Version::V1 => {
            let mut config = TransactionConfig::empty();
            if rng.random() {
                config.priority_fee = Some(rng.random_range(0..1_000_000));
            } else {
                config.compute_unit_limit = Some(rng.random_range(1..1_400_000));
            }
            VersionedMessage::V1(v1::Message {
                header,
                config,
                lifetime_specifier: blockhash,
                account_keys,
                instructions,
            })
        }
    }
}

/// `edit` applied to a message's header.
fn set_header(message: &mut VersionedMessage, edit: impl FnOnce(&mut MessageHeader)) {
    match message {
        VersionedMessage::Legacy(m) => edit(&mut m.header),
        VersionedMessage::V0(m) => edit(&mut m.header),
        VersionedMessage::V1(m) => edit(&mut m.header),
    }
}

/// One bit of a message's blockhash (its lifetime) flipped.
fn set_blockhash(message: &mut VersionedMessage, rng: &mut StdRng) {
    let hash = match message {
        VersionedMessage::Legacy(m) => &mut m.recent_blockhash,
        VersionedMessage::V0(m) => &mut m.recent_blockhash,
        VersionedMessage::V1(m) => &mut m.lifetime_specifier,
    };
    let mut bytes = hash.to_bytes();
    flip_bit(&mut bytes, rng);
    *hash = Hash::from(bytes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::ed25519::Policy;
    use crate::ops::solana_tx::oracle;
    use crate::verdict::{Reason, Verdict};

    /// Each kind answers as it means under both policies, and every kind,
    /// version and signer count is among the items.
    #[test]
    fn every_kind_answers_as_meant() {
        let made = transactions(520, 5, 7, 0.5, true);
        for (i, (tx, kind)) in made.iter().enumerate() {
            let strict = oracle::verify(tx, Policy::Strict);
            let zip215 = oracle::verify(tx, Policy::Zip215);
            let both = |v: Verdict| assert!(strict == v && zip215 == v, "item {i} ({kind}): {strict:?} {zip215:?}");
            match *kind {
                "valid" => both(Verdict::Valid),
                "flipped_sig_bit" => assert!(!strict.is_valid() && !zip215.is_valid(), "item {i}"),
                "flipped_msg_bit" | "wrong_signer" => both(Verdict::Invalid(Reason::Equation)),
                "s_plus_l" => both(Verdict::Invalid(Reason::NonCanonicalS)),
                "small_order_signer" => {
                    assert_eq!(strict, Verdict::Invalid(Reason::SmallOrderKey), "item {i}");
                    assert_eq!(zip215, Verdict::Valid, "item {i}");
                }
                "mixed_order_signer" => {
                    assert!(
                        matches!(strict, Verdict::Valid | Verdict::Invalid(Reason::Equation)),
                        "item {i}"
                    );
                    assert_eq!(zip215, Verdict::Valid, "item {i}");
                }
                "off_curve_signer" => both(Verdict::Invalid(Reason::MalformedKey)),
                "missing_signature" | "bad_header" => both(Verdict::Invalid(Reason::SanitizeFailure)),
                "unknown_version" | "truncated" | "trailing_byte" | "empty" => {
                    both(Verdict::Invalid(Reason::MalformedTransaction))
                }
                other => panic!("unknown kind {other}"),
            }
        }
        for kind in HOSTILE.iter().chain(&["valid"]) {
            assert!(made.iter().any(|(_, k)| k == kind), "no {kind} item");
        }
        let valid: Vec<VersionedTransaction> = made
            .iter()
            .filter(|(_, k)| *k == "valid")
            .map(|(tx, _)| wincode::deserialize_exact(tx).expect("valid reads"))
            .collect();
        for version in ["legacy", "v0", "v1"] {
            assert!(
                valid.iter().any(|t| match &t.message {
                    VersionedMessage::Legacy(_) => version == "legacy",
                    VersionedMessage::V0(_) => version == "v0",
                    VersionedMessage::V1(_) => version == "v1",
                }),
                "no valid {version} transaction"
            );
        }
        for n in 1..=4 {
            assert!(
                valid.iter().any(|t| t.signatures.len() == n),
                "no valid transaction of {n} signers"
            );
        }
        // The bench's: valid legacy transfers of 215 bytes, repeated past BENCH_DISTINCT.
        let bench = transactions(BENCH_DISTINCT + 3, 5, 1, 0.0, false);
        assert_eq!(bench.len(), BENCH_DISTINCT + 3);
        assert_eq!(bench[BENCH_DISTINCT].0, bench[0].0);
        assert!(bench[..3].iter().all(|(tx, k)| *k == "valid" && tx.len() == 215));
        assert!(
            bench[..3]
                .iter()
                .all(|(tx, _)| oracle::verify(tx, Policy::Strict) == Verdict::Valid)
        );
        assert_eq!(transactions_range(10..12, 5, 7, 0.5), made[10..12].to_vec());
    }
}
