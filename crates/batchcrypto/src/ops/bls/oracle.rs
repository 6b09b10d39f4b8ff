//! The oracles: blst's own calls, as its documentation and the consensus
//! clients use them, with every validation on.

use blst::BLST_ERROR;
use blst::min_pk::{PublicKey, Signature};

use super::{AggregateItem, DST, FastAggregateItem, PK_LEN, SIG_LEN};

/// `sig.verify(sig_groupcheck = true, msg, DST, [], pk, pk_validate = true)`.
pub fn verify(pk: &[u8; PK_LEN], sig: &[u8; SIG_LEN], msg: &[u8]) -> bool {
    let (Ok(pk), Ok(sig)) = (PublicKey::from_bytes(pk), Signature::from_bytes(sig)) else {
        return false;
    };
    sig.verify(true, msg, DST, &[], &pk, true) == BLST_ERROR::BLST_SUCCESS
}

/// `sig.aggregate_verify(true, msgs, DST, pks, pks_validate = true)`; false
/// when a key or the signature does not decode.
pub fn aggregate_verify(item: &AggregateItem) -> bool {
    let Ok(pks) = item
        .pks
        .iter()
        .map(|p| PublicKey::from_bytes(p))
        .collect::<Result<Vec<_>, _>>()
    else {
        return false;
    };
    let Ok(sig) = Signature::from_bytes(&item.sig) else {
        return false;
    };
    let pks: Vec<&PublicKey> = pks.iter().collect();
    let msgs: Vec<&[u8]> = item.msgs.iter().map(Vec::as_slice).collect();
    sig.aggregate_verify(true, &msgs, DST, &pks, true) == BLST_ERROR::BLST_SUCCESS
}

/// Every key through `PublicKey::key_validate`, then
/// `sig.fast_aggregate_verify(true, msg, DST, pks)`; false for no keys.
pub fn fast_aggregate_verify(item: &FastAggregateItem) -> bool {
    let Ok(pks) = item
        .pks
        .iter()
        .map(|p| PublicKey::key_validate(p))
        .collect::<Result<Vec<_>, _>>()
    else {
        return false;
    };
    let Ok(sig) = Signature::from_bytes(&item.sig) else {
        return false;
    };
    let pks: Vec<&PublicKey> = pks.iter().collect();
    !pks.is_empty() && sig.fast_aggregate_verify(true, &item.msg, DST, &pks) == BLST_ERROR::BLST_SUCCESS
}
