//! The senders of Ethereum transactions in batches (the operation
//! `tx_sender`): each signed transaction's signer, recovered from its
//! signature over its signing hash — what a node does for every
//! transaction it imports (reth's sender-recovery stage of a sync), and
//! what indexers and explorers do for every transaction they store
//! (`from` is not in a transaction's bytes).
//!
//! An item is one transaction in its canonical encoding ([EIP-2718]: a
//! typed one `type ‖ RLP`, a legacy one the RLP list; a blob transaction
//! also in its network form with the sidecar), as
//! `eth_getRawTransactionByHash` or a block's body gives it. Its answer is
//! the sender's 20-byte address. Types 0 (legacy, with or without
//! [EIP-155]'s chain id), 1 ([EIP-2930]), 2 ([EIP-1559]), 3 ([EIP-4844])
//! and 4 ([EIP-7702]).
//!
//! The reference ([`oracle`]) is reth's own path: alloy-consensus's
//! `TxEnvelope::decode_2718_exact` and `signature_hash`, then libsecp256k1's
//! recovery (the `ecrecover` op's oracle) under [EIP-2]'s rule that s is
//! at most n/2. The checks, in order; the first that fails is the reason:
//! 1. `unsupported_tx_type`: a first byte up to 0x7f (a type, EIP-2718)
//!    other than 1 to 4 (a legacy transaction has none: its list's first
//!    byte is 0xc0 or more);
//! 2. `malformed_transaction`: the bytes are not one transaction of that
//!    type (alloy-consensus's decoder refuses them, or bytes are left
//!    over);
//! 3. `r_out_of_range`, `s_out_of_range`, `high_s`, `recovery_failed`: the
//!    `ecrecover` op's checks with `low_s` ([`crate::ops::ecdsa`]).
//!
//! The CPU path decodes and recovers each item on every core; the GPU path
//! decodes on the cores and recovers on the `ecrecover` kernel.
//!
//! [EIP-2]: https://eips.ethereum.org/EIPS/eip-2
//! [EIP-155]: https://eips.ethereum.org/EIPS/eip-155
//! [EIP-1559]: https://eips.ethereum.org/EIPS/eip-1559
//! [EIP-2718]: https://eips.ethereum.org/EIPS/eip-2718
//! [EIP-2930]: https://eips.ethereum.org/EIPS/eip-2930
//! [EIP-4844]: https://eips.ethereum.org/EIPS/eip-4844
//! [EIP-7702]: https://eips.ethereum.org/EIPS/eip-7702

pub(crate) mod cpu;
pub(crate) mod gpu;
pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use alloy_consensus::TxEnvelope;
use alloy_eips::eip2718::Decodable2718;

use crate::ops::ecdsa::RecoverItem;
use crate::verdict::Reason;

/// The largest type byte (EIP-2718); a legacy transaction's list begins
/// at 0xc0.
const TX_TYPE_BYTE_MAX: u8 = 0x7f;

/// A transaction's sender, or the reason it has none.
pub type SenderResult = Result<[u8; 20], Reason>;

/// The `ecrecover` item a transaction's signature makes: its signing hash,
/// and r ‖ s ‖ v with v = 27 + the signature's y parity; or the first of
/// checks 1 and 2 that fails (see the module's list).
pub fn signing(tx: &[u8]) -> Result<RecoverItem, Reason> {
    // A first byte up to 0x7f is a type (EIP-2718), from 0xc0 a legacy
    // transaction's list; alloy-consensus tells an unknown type from
    // other faults only by its message, so the type is checked here.
    if let Some(&ty) = tx.first()
        && ty <= TX_TYPE_BYTE_MAX
        && !(1..=4).contains(&ty)
    {
        return Err(Reason::UnsupportedTxType);
    }
    let envelope = TxEnvelope::decode_2718_exact(tx).map_err(|_| Reason::MalformedTransaction)?;
    let signature = envelope.signature();
    let mut sig = [0u8; 65];
    sig[..32].copy_from_slice(&signature.r().to_be_bytes::<32>());
    sig[32..64].copy_from_slice(&signature.s().to_be_bytes::<32>());
    sig[64] = 27 + u8::from(signature.v());
    Ok(RecoverItem {
        hash: envelope.signature_hash().0,
        sig,
    })
}
