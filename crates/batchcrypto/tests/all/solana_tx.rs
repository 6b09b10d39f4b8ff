//! Solana transactions' signatures (`solana_tx_verify`) on every engine:
//! `testdata/solana-txs/txs.json`'s 14 transactions (Firedancer's
//! fixtures, signed by the wallets that sent them) against Anza's own
//! answers on them, under both policies, on the oracle and every engine
//! (the GPU ones on the GPU); the mainnet v0 transaction's every byte
//! changed, every cut, a byte added; generated transactions, hostile of
//! every kind, against the oracle item by item and in number; batches
//! where no transaction reads.

use batchcrypto::ops::ed25519::Policy;
use batchcrypto::ops::solana_tx::{oracle, read, sample};
use batchcrypto::{FlatBytes, Reason, Verdict};

use crate::support::{self, assert_each, on_every_engine};

const POLICIES: [Policy; 2] = [Policy::Strict, Policy::Zip215];

/// Every engine's verdicts on `txs` under `policy` equal `want`, item by
/// item and in number; the GPU engines' from the GPU (the Ed25519 kernel).
fn assert_verdicts(txs: &[Vec<u8>], policy: Policy, want: &[Verdict], what: &str) {
    let mut b = FlatBytes::new();
    for tx in txs {
        assert!(b.push(tx));
    }
    for (name, out) in on_every_engine(|e| e.verify_solana_txs(&b, policy).expect("verdicts")) {
        assert_each(&format!("{name}: {what} ({policy})"), &out, want, |g, w| g == w);
    }
}

/// A known answer: its name, the transaction, and Anza's answers.
struct Known {
    name: String,
    tx: Vec<u8>,
    reads: bool,
    sanitized: bool,
    strict: bool,
    zip215: bool,
}

fn known() -> Option<Vec<Known>> {
    let cases = support::vectors_json("solana-txs/txs.json")?;
    Some(
        cases
            .as_array()
            .expect("a list")
            .iter()
            .map(|c| Known {
                name: c["name"].as_str().expect("name").to_string(),
                tx: hex::decode(c["tx"].as_str().expect("tx")).expect("hex"),
                reads: c["reads"].as_bool().expect("reads"),
                sanitized: c["sanitized"].as_bool().expect("sanitized"),
                strict: c["strict"].as_bool().expect("strict"),
                zip215: c["zip215"].as_bool().expect("zip215"),
            })
            .collect(),
    )
}

/// The oracle agrees with Anza's answers (valid exactly when Anza's
/// function accepts; `malformed_transaction` exactly when wincode does
/// not read the bytes; `sanitize_failure` exactly when they read but do
/// not sanitize), and every engine with the oracle.
#[test]
fn known_transactions_on_every_engine() {
    let Some(cases) = known() else {
        return;
    };
    assert_eq!(cases.len(), 14);
    assert_eq!(cases.iter().filter(|c| c.strict && c.zip215).count(), 12);
    let txs: Vec<Vec<u8>> = cases.iter().map(|c| c.tx.clone()).collect();
    for policy in POLICIES {
        let want: Vec<Verdict> = cases.iter().map(|c| oracle::verify(&c.tx, policy)).collect();
        for (c, w) in cases.iter().zip(&want) {
            let valid = if policy == Policy::Strict { c.strict } else { c.zip215 };
            assert_eq!(w.is_valid(), valid, "{} ({policy}): {w:?}", c.name);
            let reason = match w {
                Verdict::Invalid(r) => Some(*r),
                Verdict::Valid => None,
            };
            assert_eq!(reason == Some(Reason::MalformedTransaction), !c.reads, "{}", c.name);
            assert_eq!(
                reason == Some(Reason::SanitizeFailure),
                c.reads && !c.sanitized,
                "{}",
                c.name
            );
        }
        assert_verdicts(&txs, policy, &want, "known transactions");
    }
    // Legacy and v0 among the valid ones, one and several signatures.
    let valid: Vec<_> = cases
        .iter()
        .filter(|c| c.strict)
        .map(|c| read(&c.tx).expect("reads"))
        .collect();
    assert!(valid.iter().any(|s| s.signatures.len() == 1));
    assert!(valid.iter().any(|s| s.signatures.len() > 1));
    assert!(valid.iter().any(|s| s.message[0] == 0x80), "a v0 message");
    assert!(valid.iter().any(|s| s.message[0] < 0x80), "a legacy message");
}

/// The mainnet v0 transaction's every byte changed (one bit), every cut
/// and a byte added: none stays valid, every cut and the added byte are
/// `malformed_transaction`, and every engine gives the oracle's verdicts.
#[test]
fn changed_mainnet_transaction() {
    let Some(cases) = known() else {
        return;
    };
    let tx = &cases
        .iter()
        .find(|c| c.name.ends_with("transaction2.bin"))
        .expect("the mainnet transaction")
        .tx;
    let mut txs: Vec<Vec<u8>> = (0..tx.len())
        .map(|i| {
            let mut t = tx.clone();
            t[i] ^= 1 << (i % 8);
            t
        })
        .collect();
    txs.extend((0..tx.len()).map(|cut| tx[..cut].to_vec()));
    txs.push([&tx[..], &[0]].concat());
    for policy in POLICIES {
        let want: Vec<Verdict> = txs.iter().map(|t| oracle::verify(t, policy)).collect();
        assert!(want.iter().all(|w| !w.is_valid()), "a changed transaction stayed valid");
        assert!(
            want[tx.len()..]
                .iter()
                .all(|w| w == &Verdict::Invalid(Reason::MalformedTransaction)),
            "a cut or longer transaction read"
        );
        assert_verdicts(&txs, policy, &want, "changed mainnet transaction");
    }
}

#[test]
fn generated_transactions_match_the_oracle_on_every_engine() {
    let made = sample::transactions(260, 6, 17, 0.5, true);
    let txs: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    for kind in sample::HOSTILE.iter().chain(&["valid"]) {
        assert!(made.iter().any(|(_, k)| k == kind), "{kind}");
    }
    for policy in POLICIES {
        let want: Vec<Verdict> = txs.iter().map(|t| oracle::verify(t, policy)).collect();
        assert_verdicts(&txs, policy, &want, "generated");
        assert_verdicts(&[], policy, &[], "no items");
    }
    // Under strict the small-order signers fail, under ZIP-215 they pass.
    let small: Vec<Vec<u8>> = made
        .iter()
        .filter(|(_, k)| *k == "small_order_signer")
        .map(|(m, _)| m.clone())
        .collect();
    assert!(!small.is_empty());
    assert_verdicts(
        &small,
        Policy::Strict,
        &vec![Verdict::Invalid(Reason::SmallOrderKey); small.len()],
        "small-order signers",
    );
    assert_verdicts(
        &small,
        Policy::Zip215,
        &vec![Verdict::Valid; small.len()],
        "small-order signers",
    );
    // The bench's form: valid transfers.
    let made = sample::transactions(24, 3, 5, 0.0, false);
    let txs: Vec<Vec<u8>> = made.iter().map(|(m, _)| m.clone()).collect();
    assert_verdicts(&txs, Policy::Strict, &[Verdict::Valid; 24], "bench form");
}

/// A batch where no transaction reads or sanitizes has no signature to
/// check: every engine answers it (the GPU ones without a kernel run).
#[test]
fn batches_without_a_signature() {
    let txs = vec![Vec::new(), vec![0], vec![1, 2, 3], vec![0x80; 40]];
    let want = vec![Verdict::Invalid(Reason::MalformedTransaction); txs.len()];
    let mut b = FlatBytes::new();
    for tx in &txs {
        assert!(b.push(tx));
    }
    for (name, engine) in support::engines() {
        for policy in POLICIES {
            let out = engine.verify_solana_txs(&b, policy).expect("verdicts");
            assert_each(&format!("{name} ({policy})"), &out.output, &want, |g, w| g == w);
        }
    }
}
