//! The authorities of EIP-7702 authorizations in batches (the operation
//! `eip7702_authority`): each authorization's signer, the account whose
//! code a set-code transaction delegates — what a node recovers for every
//! authorization it applies, and what indexers of delegations need (the
//! authority is in no authorization's bytes).
//!
//! An item is one signed authorization's RLP, `[chain_id, address, nonce,
//! y_parity, r, s]`, as a type-4 transaction's `authorization_list` holds
//! it ([`encode`] makes it from the fields an RPC answer lists). Its
//! answer is the authority's 20-byte address: the signer of
//! `keccak256(0x05 ‖ rlp([chain_id, address, nonce]))` ([EIP-7702]).
//!
//! The reference ([`oracle`]) is alloy's: `SignedAuthorization`'s decoder
//! and `signature_hash` (alloy-eips, reth's), then libsecp256k1's recovery
//! under EIP-7702's rule that s is at most n/2 (the `tx_sender` op's
//! [`crate::ops::tx_sender::oracle::signer`]). Whether the chain id is 0 or
//! the chain's, and the nonce the authority's, is the node's to check
//! against its chain and state. The checks, in order; the first that
//! fails is the reason:
//! 1. `malformed_authorization`: the bytes are not one authorization's RLP
//!    (alloy-eips's decoder refuses them: not a list, a field too wide, a
//!    list of other length; or bytes are left over);
//! 2. `bad_v`: a y parity other than 0 or 1;
//! 3. `r_out_of_range`, `s_out_of_range`, `high_s`, `recovery_failed`: the
//!    `ecrecover` op's checks with `low_s` ([`crate::ops::ecdsa`]).
//!
//! The CPU and GPU paths are `tx_sender`'s over these signing hashes (the
//! decoding on the cores, the recoveries libsecp256k1's per core or the
//! `ecrecover` kernel's).
//!
//! [EIP-7702]: https://eips.ethereum.org/EIPS/eip-7702

pub mod oracle;
pub mod sample;
pub(crate) mod workload;

use alloy_eips::eip7702::{Authorization, SignedAuthorization};
use alloy_primitives::{Address, U256};
use alloy_rlp::Decodable;

use crate::ops::ecdsa::RecoverItem;
use crate::verdict::Reason;

/// An authorization's authority, or the reason it has none.
pub type AuthorityResult = crate::ops::tx_sender::SenderResult;

/// The RLP of a signed authorization of these fields (the chain id, r and
/// s 32 bytes big-endian each).
pub fn encode(
    chain_id: &[u8; 32],
    address: &[u8; 20],
    nonce: u64,
    y_parity: u8,
    r: &[u8; 32],
    s: &[u8; 32],
) -> Vec<u8> {
    let inner = Authorization {
        chain_id: U256::from_be_bytes(*chain_id),
        address: Address::from(*address),
        nonce,
    };
    let signed = SignedAuthorization::new_unchecked(inner, y_parity, U256::from_be_bytes(*r), U256::from_be_bytes(*s));
    alloy_rlp::encode(&signed)
}

/// The `ecrecover` item an authorization's signature makes: its signing
/// hash, and r ‖ s ‖ v with v = 27 + its y parity; or the first of checks
/// 1 and 2 that fails (see the module's list).
pub fn signing(auth: &[u8]) -> Result<RecoverItem, Reason> {
    let mut rest = auth;
    let signed = SignedAuthorization::decode(&mut rest).map_err(|_| Reason::MalformedAuthorization)?;
    if !rest.is_empty() {
        return Err(Reason::MalformedAuthorization);
    }
    let parity = signed.y_parity();
    if parity > 1 {
        return Err(Reason::BadV);
    }
    let mut sig = [0u8; 65];
    sig[..32].copy_from_slice(&signed.r().to_be_bytes::<32>());
    sig[32..64].copy_from_slice(&signed.s().to_be_bytes::<32>());
    sig[64] = 27 + parity;
    Ok(RecoverItem {
        hash: signed.inner().signature_hash().0,
        sig,
    })
}
