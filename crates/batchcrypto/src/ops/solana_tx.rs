//! Solana transactions' signatures in batches (the operations
//! `solana_tx_verify_strict` and `solana_tx_verify_zip215`): whether every
//! signature of each transaction is its signer's over its message — what a
//! validator's sigverify stage decides for every packet it receives before
//! anything else (Agave runs it on CUDA where it can), and what an RPC
//! node, an indexer or a bridge decides for the transactions it takes in.
//!
//! An item is one transaction in Solana's wire format, as a packet, a
//! block's entries or `getTransaction` (encoding base64) carry it: a
//! legacy or v0 transaction (`short_vec` of 64-byte signatures, then the
//! message), or a v1 one (SIMD-0385's message, the signatures after it).
//! Its answer is one verdict: valid when the transaction decodes, holds to
//! Solana's sanitize rules and each of its signatures verifies under the
//! account key at its index over the message's bytes.
//!
//! The reference ([`oracle`]) is Anza's own path: solana-transaction's
//! `VersionedTransaction` read by wincode (the decoder Agave runs), its
//! `sanitize`, the message's `serialize` as the signed bytes (what
//! `verify_and_hash_message` signs over), and each signature checked by the
//! `ed25519_verify` op's oracle of the policy:
//! - `strict` is Solana's rule today: solana-signature's `verify` runs
//!   solana-ed25519's `verify_dalek`, ed25519-dalek's `verify_strict` rule
//!   (that crate's tests hold the two equal; `scripts/solana-crosscheck`
//!   holds these verdicts to the SDK's own `verify_and_hash_message`);
//! - `zip215` is the rule SIMD-0376 moves transactions to (so
//!   solana-signature 3.6's documentation says: its `verify_non_strict`,
//!   ed25519-zebra's), for a validator past that feature's activation.
//!
//! The checks, in order; the first that fails is the reason:
//! 1. `malformed_transaction`: the bytes are not one transaction (wincode
//!    refuses them: a `short_vec` length not minimal or cut short, a
//!    message version other than legacy, 0 or 1, bytes missing; or bytes
//!    are left over);
//! 2. `sanitize_failure`: the transaction breaks Solana's sanitize rules
//!    (`VersionedTransaction::sanitize`: the header's counts against the
//!    keys, an instruction's program or account index out of range, a
//!    lookup table loading nothing, signatures not exactly the header's
//!    `num_required_signatures`, a signer that is not a static key);
//! 3. the first signature, in order, that fails: the `ed25519_verify` op's
//!    reason under the policy (`malformed_key`, `non_canonical_s`,
//!    `malformed_r`, `small_order_key`, `small_order_r`, `equation`; see
//!    [`crate::ops::ed25519`]).
//!
//! The size of a packet (1,232 bytes) is not checked: a transaction from a
//! block or of a larger v1 limit is judged the same way.
//!
//! Both paths read the transactions on every core and check all their
//! signatures as `ed25519_verify` batches (`check_all`): the CPU path
//! with that op's CPU path (keys decoded once per batch, ZIP-215 batch
//! equations), the GPU path on its kernel.

pub(crate) mod cpu;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use solana_transaction::versioned::VersionedTransaction;

use crate::batch::FlatBytes;
use crate::cores;
use crate::gpu::{Failure, Streamed};
use crate::ops::ed25519::{self, PK_LEN, Policy, SIG_LEN};
use crate::verdict::{Reason, Verdict};

/// A transaction read: the bytes its signatures sign and each signature
/// with its signer's key, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    /// The message's serialization (what every signature signs).
    pub message: Vec<u8>,
    /// Each signature with the account key at its index.
    pub signatures: Vec<([u8; PK_LEN], [u8; SIG_LEN])>,
}

/// Reads a transaction: checks 1 and 2 of the module's list.
pub fn read(tx: &[u8]) -> Result<Signed, Reason> {
    let tx: VersionedTransaction = wincode::deserialize_exact(tx).map_err(|_| Reason::MalformedTransaction)?;
    tx.sanitize().map_err(|_| Reason::SanitizeFailure)?;
    let signatures = tx
        .signatures
        .iter()
        .zip(tx.message.static_account_keys())
        .map(|(sig, key)| (key.to_bytes(), *sig.as_array()))
        .collect();
    Ok(Signed {
        message: tx.message.serialize(),
        signatures,
    })
}

/// Fewest transactions per task of the reading (a read takes a few µs).
const READ_RUN: usize = 64;

/// Most message bytes in one `ed25519_verify` batch of signatures: a
/// batch holds 4 GiB of them, and a piece of a batch this large keeps the
/// device busy long enough.
const PIECE_BYTES: usize = 1 << 28;

/// Checks every transaction of `txs` under `policy` (see the module):
/// each read on every core, then their signatures checked by `verify` as
/// `ed25519_verify` batches of at most [`PIECE_BYTES`] message bytes, in
/// order. When `verify` stops part way, the transactions before the
/// first one not wholly answered are kept, and why it stopped.
pub(crate) fn check_all(
    txs: &FlatBytes,
    policy: Policy,
    mut verify: impl FnMut(&ed25519::Batch) -> Streamed<Verdict>,
) -> Streamed<Verdict> {
    let read = cores::map_range(0..txs.len(), READ_RUN, |i| read(txs.get(i)));
    let mut done: Vec<Verdict> = Vec::with_capacity(read.len());
    let (mut next, mut ran) = (0, false);
    // One piece at least: a device that cannot run the kernel says so,
    // even for no transactions.
    loop {
        let mut batch = ed25519::Batch::new();
        let mut runs = Vec::new();
        let mut bytes = 0;
        while let Some(r) = read.get(next) {
            let s = match r {
                Ok(s) => s,
                Err(reason) => {
                    runs.push(Err(Verdict::Invalid(*reason)));
                    next += 1;
                    continue;
                }
            };
            let own = s.message.len() * s.signatures.len();
            if !runs.is_empty() && bytes + own > PIECE_BYTES {
                break;
            }
            let start = batch.len();
            if s.signatures
                .iter()
                .any(|(pk, sig)| batch.push(pk, sig, &s.message).is_err())
            {
                // Alone past a batch's 4 GiB (a message of more than
                // 16 MiB signed 255 times): its signatures one by one.
                batch.truncate(start);
                runs.push(Err(oracle::signatures(s, policy)));
            } else {
                runs.push(Ok(start..batch.len()));
            }
            bytes += own;
            next += 1;
        }
        let (verdicts, failed) = match verify(&batch) {
            Ok(v) => (v, None),
            Err(Failure { done: v, reason }) => (v, Some(reason)),
        };
        ran |= !verdicts.is_empty();
        for run in runs {
            let verdict = match run {
                Err(known) => known,
                Ok(run) => match verdicts.get(run) {
                    Some(v) => fold(v),
                    None => {
                        let reason = failed.unwrap_or_else(|| "a signature came back without its verdict".into());
                        return Err(stopped(done, ran, reason));
                    }
                },
            };
            done.push(verdict);
        }
        if let Some(reason) = failed {
            // The device stopped after the piece's last signature.
            return Err(stopped(done, ran, reason));
        }
        if next == read.len() {
            return Ok(done);
        }
    }
}

/// The failure of a device that stopped: the transactions answered so
/// far, none when the device answered no signature (the host's answers
/// are not the GPU's).
fn stopped(mut done: Vec<Verdict>, ran: bool, reason: String) -> Failure<Verdict> {
    if !ran {
        done.clear();
    }
    Failure { done, reason }
}

/// A transaction's verdict from its signatures' verdicts: the first
/// invalid one's, else valid.
pub(crate) fn fold(verdicts: &[Verdict]) -> Verdict {
    verdicts
        .iter()
        .find(|v| !v.is_valid())
        .copied()
        .unwrap_or(Verdict::Valid)
}
