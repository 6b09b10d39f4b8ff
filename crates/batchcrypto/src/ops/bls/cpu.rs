//! The CPU path, on the engine's rayon pool. Distinct public keys are
//! decoded and validated once per call, in parallel (validator sets repeat
//! keys). `bls_verify` verifies each item on its own; `bls_batch_verify`
//! checks chunks with one multi-pairing of random linear combinations each
//! and bisects failing ones, with the chunk size chosen per round from the
//! share of invalid items found so far ([`crate::bisect`]), so that invalid
//! items sprinkled through a batch cannot make it slower than `bls_verify`.
//! Aggregate verification spreads the pairs over tasks the same way,
//! validating each key in the task that pairs it;
//! fast aggregate verification validates the keys in parallel, then sums
//! them and verifies once.

use std::collections::HashMap;

use blst::min_pk::{AggregatePublicKey, PublicKey, Signature};
use blst::{BLST_ERROR, Pairing, blst_fp12, blst_p1_affine, blst_p2_affine};
use rand::RngExt;

use super::{AggregateItem, Batch, DST, FastAggregateItem, Mode, PK_LEN, decode_key, decode_sig};
use crate::bisect::{self, Checker, Cost};
use crate::cores;
use crate::verdict::{Reason, Verdict};

/// Costs of a batch check in single verifications (`Signature::verify`,
/// two Miller loops and a final exponentiation), measured with blst on the
/// 2-core development VM: a multi-pairing of k items with 64-bit scalars
/// costs about 0.5 + 0.36 k (1.30 at k = 2, 11.4 at k = 32, 50.3 at
/// k = 128); `per_item` is rounded up.
pub(crate) const BATCH_COST: Cost = Cost {
    fixed: 0.5,
    per_item: 0.38,
    max_chunk: 64,
    leaf: 2,
};

/// Every distinct key of `pks`, validated once.
fn key_cache<'a>(pks: impl Iterator<Item = &'a [u8; PK_LEN]>) -> HashMap<[u8; PK_LEN], Result<PublicKey, Reason>> {
    let mut distinct: Vec<[u8; PK_LEN]> = pks.copied().collect();
    distinct.sort_unstable();
    distinct.dedup();
    cores::map(&distinct, 1, |k| (*k, decode_key(k))).into_iter().collect()
}

fn cached(keys: &HashMap<[u8; PK_LEN], Result<PublicKey, Reason>>, pk: &[u8; PK_LEN]) -> Result<PublicKey, Reason> {
    keys.get(pk).copied().unwrap_or_else(|| decode_key(pk))
}

/// An item whose key and signature decoded and passed their checks.
struct Prepared<'a> {
    index: usize,
    pk: PublicKey,
    sig: Signature,
    msg: &'a [u8],
}

impl Prepared<'_> {
    fn verify(&self) -> bool {
        self.sig.verify(false, self.msg, DST, &[], &self.pk, false) == BLST_ERROR::BLST_SUCCESS
    }
}

/// One verdict per item of `batch`.
pub(crate) fn verify(batch: &Batch, mode: Mode) -> Vec<Verdict> {
    let keys = key_cache(batch.pks().iter());
    let decoded: Vec<Result<Prepared<'_>, Reason>> = cores::map_range(0..batch.len(), 1, |i| {
        let pk = cached(&keys, batch.pk(i))?;
        let sig = decode_sig(batch.sig(i))?;
        Ok(Prepared {
            index: i,
            pk,
            sig,
            msg: batch.msg(i),
        })
    });
    let mut verdicts: Vec<Verdict> = decoded
        .iter()
        .map(|d| match d {
            Ok(_) => Verdict::Valid,
            Err(r) => Verdict::Invalid(*r),
        })
        .collect();
    let ready: Vec<Prepared<'_>> = decoded.into_iter().filter_map(Result::ok).collect();
    let ok = match mode {
        Mode::Single => cores::map(&ready, 1, Prepared::verify),
        Mode::Batch => {
            let idx: Vec<usize> = (0..ready.len()).collect();
            bisect::decide(&ready.as_slice(), &idx, BATCH_COST)
        }
    };
    for (p, ok) in ready.iter().zip(ok) {
        if !ok {
            verdicts[p.index] = Verdict::Invalid(Reason::Equation);
        }
    }
    verdicts
}

impl Checker for &[Prepared<'_>] {
    fn one(&self, i: usize) -> bool {
        self[i].verify()
    }

    /// The random-linear-combination check of the items at once:
    /// prod e(r_i pk_i, H(m_i)) == e(G1, sum r_i sig_i) with fresh nonzero
    /// 64-bit r_i, on the calling thread ([`bisect::decide`] runs chunks in
    /// parallel).
    fn all(&self, items: &[usize]) -> bool {
        let mut p = Pairing::new(true, DST);
        let mut rng = rand::rng();
        for &i in items {
            let item = &self[i];
            let mut r = [0u8; 8];
            while r == [0u8; 8] {
                rng.fill(&mut r[..]);
            }
            let pk: blst_p1_affine = item.pk.into();
            let sig: blst_p2_affine = item.sig.into();
            if p.mul_n_aggregate(&pk, false, &sig, false, &r, 64, item.msg, &[]) != BLST_ERROR::BLST_SUCCESS {
                return false;
            }
        }
        p.commit();
        p.finalverify(None)
    }
}

/// Pairs a blst `Pairing` puts through one multi-Miller loop (`N_MAX` in
/// blst's aggregate.c).
const MILLER_BATCH: usize = 8;

/// Runs `add` over `items` in chunks, one blst `Pairing` per rayon task,
/// and merges them; `None` when an aggregation step failed.
fn pairings<T: Sync>(
    items: &[T],
    add: impl Fn(&mut Pairing<'static>, &T) -> BLST_ERROR + Sync,
) -> Option<Pairing<'static>> {
    // Small chunks (about eight per thread) keep the cores evenly loaded,
    // but never below blst's own batch: a Pairing runs its Miller loops
    // MILLER_BATCH pairs at a time, sharing their squarings, so smaller
    // chunks cost whole extra loops (on one thread, aggregates of 16 and
    // 64 keys ran at 0.54x and 0.58x blst's aggregate_verify).
    let chunk = items.len().div_ceil(cores::threads() * 8).max(MILLER_BATCH);
    let parts: Option<Vec<Pairing<'static>>> = cores::map_chunks(items, chunk, |c| {
        let mut p = Pairing::new(true, DST);
        for item in c {
            if add(&mut p, item) != BLST_ERROR::BLST_SUCCESS {
                return None;
            }
        }
        p.commit();
        Some(p)
    })
    .into_iter()
    .collect();
    let mut parts = parts?;
    let mut acc = parts.pop()?;
    for p in &parts {
        if acc.merge(p) != BLST_ERROR::BLST_SUCCESS {
            return None;
        }
    }
    Some(acc)
}

/// The first failing check's reason among `results`, in order.
fn first_err<T>(results: Vec<Result<T, Reason>>) -> Result<Vec<T>, Reason> {
    results.into_iter().collect()
}

/// One verdict per aggregate item. Each key is decoded and validated inside
/// the pairing task that uses it (keys rarely repeat within an aggregate),
/// while the signature is checked at the same time; only a failing key sends
/// the item through the ordered checks for its reason.
pub(crate) fn aggregate_verify(items: &[AggregateItem]) -> Vec<Verdict> {
    cores::map(items, 1, |item| {
        if item.pks.is_empty() || item.pks.len() != item.msgs.len() {
            return Verdict::Invalid(Reason::EmptyOrMismatched);
        }
        let pairs: Vec<(&[u8; PK_LEN], &[u8])> = item
            .pks
            .iter()
            .zip(&item.msgs)
            .map(|(k, m)| (k, m.as_slice()))
            .collect();
        let (acc, sig) = cores::join(
            || {
                pairings(&pairs, |p, (key, msg)| match decode_key(key) {
                    Ok(pk) => {
                        let pk: blst_p1_affine = pk.into();
                        p.aggregate(&pk, false, &(), false, msg, &[])
                    }
                    Err(_) => BLST_ERROR::BLST_BAD_ENCODING,
                })
            },
            || decode_sig(&item.sig),
        );
        let Some(acc) = acc else {
            let reason = item.pks.iter().find_map(|k| decode_key(k).err());
            return Verdict::Invalid(reason.unwrap_or(Reason::Equation));
        };
        let sig: blst_p2_affine = match sig {
            Ok(sig) => sig.into(),
            Err(r) => return Verdict::Invalid(r),
        };
        let mut gtsig = blst_fp12::default();
        Pairing::aggregated(&mut gtsig, &sig);
        if acc.finalverify(Some(&gtsig)) {
            Verdict::Valid
        } else {
            Verdict::Invalid(Reason::Equation)
        }
    })
}

/// One verdict per fast-aggregate item.
pub(crate) fn fast_aggregate_verify(items: &[FastAggregateItem]) -> Vec<Verdict> {
    let keys = key_cache(items.iter().flat_map(|it| it.pks.iter()));
    cores::map(items, 1, |item| {
        if item.pks.is_empty() {
            return Verdict::Invalid(Reason::EmptyOrMismatched);
        }
        let checked = first_err(item.pks.iter().map(|k| cached(&keys, k)).collect())
            .and_then(|pks| Ok((pks, decode_sig(&item.sig)?)));
        let (pks, sig) = match checked {
            Ok(v) => v,
            Err(r) => return Verdict::Invalid(r),
        };
        let refs: Vec<&PublicKey> = pks.iter().collect();
        let ok = AggregatePublicKey::aggregate(&refs, false).is_ok_and(|agg| {
            sig.verify(false, &item.msg, DST, &[], &agg.to_public_key(), false) == BLST_ERROR::BLST_SUCCESS
        });
        if ok {
            Verdict::Valid
        } else {
            Verdict::Invalid(Reason::Equation)
        }
    })
}
