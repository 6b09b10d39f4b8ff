//! The operations over columns: a batch as C, Python, NumPy and Arrow
//! callers hold it, one buffer per field.
//!
//! A [`Column`] is `n` byte strings in one buffer, either all of one width
//! (a NumPy `N x 32` array, an Arrow fixed-size-binary array, a C array of
//! keys) or delimited by `n + 1` offsets (an Arrow binary array, messages
//! of any length). Each function here checks every column of a call before
//! any work (lengths, offsets, counts) and turns them into the engine's
//! batch types: a bad argument is one [`Error::InvalidInput`] naming the
//! argument (and the item), never a panic and never a partial answer. The
//! C ABI (`batchcrypto-ffi`) and the Python package (`python/`) are thin
//! layers over these functions, so both bindings check and answer alike.
//!
//! Verdicts cross the bindings as one byte per item: 0 for valid, else
//! the reason's [`Reason::number`](crate::Reason::number) ([`verdict_code`]).

use crate::batch::SignedBatch;
use crate::engine::{Engine, Outcome};
use crate::error::Error;
use crate::ops::{Op, bls, ecdsa, ed25519, evm, groth16, hash, kzg, merkle, mldsa, mlkem, ntt, poseidon, slhdsa};
use crate::verdict::Verdict;

/// How a [`Column`]'s buffer is cut into items.
#[derive(Debug, Clone, Copy)]
enum Layout<'a> {
    /// Items of `width` bytes back to back.
    Width(usize),
    /// Item `i` is `bytes[offsets[i]..offsets[i + 1]]`.
    Offsets(&'a [u64]),
}

/// One argument of a call: `n` byte strings in one buffer.
#[derive(Debug, Clone, Copy)]
pub struct Column<'a> {
    name: &'static str,
    bytes: &'a [u8],
    layout: Layout<'a>,
}

impl<'a> Column<'a> {
    /// Items of `width` bytes back to back in `bytes` (its length a
    /// multiple of `width`); `name` is the argument's name in errors.
    pub fn fixed(name: &'static str, bytes: &'a [u8], width: usize) -> Self {
        Column {
            name,
            bytes,
            layout: Layout::Width(width),
        }
    }

    /// Items delimited by `offsets` (`n + 1` non-decreasing positions in
    /// `bytes`, the first need not be 0: Arrow slices start anywhere).
    pub fn offsets(name: &'static str, bytes: &'a [u8], offsets: &'a [u64]) -> Self {
        Column {
            name,
            bytes,
            layout: Layout::Offsets(offsets),
        }
    }

    /// The argument's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The number of items, after checking the layout.
    fn count(&self, op: Op) -> Result<usize, Error> {
        match self.layout {
            Layout::Width(0) => Err(invalid(op, format!("{}: an item width of 0 bytes", self.name))),
            Layout::Width(w) if !self.bytes.len().is_multiple_of(w) => Err(invalid(
                op,
                format!(
                    "{}: {} bytes are not a whole number of {w}-byte items",
                    self.name,
                    self.bytes.len()
                ),
            )),
            Layout::Width(w) => Ok(self.bytes.len() / w),
            Layout::Offsets([]) => Err(invalid(op, format!("{}: no offsets (n items need n + 1)", self.name))),
            Layout::Offsets(offsets) => {
                if let Some(i) = offsets.windows(2).position(|w| w[0] > w[1]) {
                    return Err(invalid(
                        op,
                        format!(
                            "{}: offsets decrease at item {i} ({} > {})",
                            self.name,
                            offsets[i],
                            offsets[i + 1]
                        ),
                    ));
                }
                let last = offsets[offsets.len() - 1];
                if usize::try_from(last).map_or(true, |end| end > self.bytes.len()) {
                    return Err(invalid(
                        op,
                        format!(
                            "{}: offset {last} is past the buffer's {} bytes",
                            self.name,
                            self.bytes.len()
                        ),
                    ));
                }
                Ok(offsets.len() - 1)
            }
        }
    }

    /// Item `i` (the layout checked by `count`, `i` below it).
    fn get(&self, i: usize) -> &'a [u8] {
        match self.layout {
            Layout::Width(w) => &self.bytes[i * w..(i + 1) * w],
            // `count` checked that every offset is at most the buffer's
            // length, which fits in usize.
            Layout::Offsets(offsets) => &self.bytes[offsets[i] as usize..offsets[i + 1] as usize],
        }
    }

    /// Item `i` as an array of exactly `N` bytes, or an error naming it.
    fn exact<const N: usize>(&self, op: Op, i: usize) -> Result<&'a [u8; N], Error> {
        let item = self.get(i);
        item.try_into()
            .map_err(|_| invalid(op, format!("{}[{i}]: {} bytes, expected {N}", self.name, item.len())))
    }
}

/// The common number of items of `columns`, or an error naming the two
/// that differ.
fn count(op: Op, columns: &[&Column<'_>]) -> Result<usize, Error> {
    let mut n: Option<(usize, &'static str)> = None;
    for c in columns {
        let len = c.count(op)?;
        match n {
            Some((m, first)) if m != len => {
                return Err(invalid(op, format!("{first} has {m} items but {} has {len}", c.name)));
            }
            _ => n = Some((len, c.name)),
        }
    }
    Ok(n.map_or(0, |(m, _)| m))
}

fn invalid(op: Op, reason: String) -> Error {
    Error::InvalidInput { op: op.into(), reason }
}

/// The byte that stands for a verdict in the bindings' arrays: 0 for
/// valid, else the reason's number (1 to 255).
pub fn verdict_code(v: &Verdict) -> u8 {
    v.reason().map_or(0, |r| r.number())
}

/// An output array of fixed-width rows, its width, and the part of an
/// answer that fills a row.
pub type Rows<'a, T> = (&'a mut [u8], usize, &'a dyn Fn(&T) -> &[u8]);

/// Writes a call's answers into the bindings' arrays: per item its code
/// in `codes` (0, else the reason's number) and, in each of `outs`, its
/// row (zeros for an item with a reason). An error (a bug, not the
/// caller's) when the arrays do not hold one row per answer or a part is
/// not its row's width; nothing is written then.
pub fn write_rows<T>(
    got: &[Result<T, crate::Reason>],
    codes: &mut [u8],
    outs: &mut [Rows<'_, T>],
) -> Result<(), String> {
    let n = got.len();
    if codes.len() != n
        || outs
            .iter()
            .any(|(dst, width, _)| width.checked_mul(n) != Some(dst.len()))
    {
        return Err(format!("{n} answers for arrays of another size"));
    }
    let wrong = |(i, r): (usize, &Result<T, crate::Reason>)| {
        r.as_ref()
            .ok()
            .and_then(|t| outs.iter().find(|(_, width, part)| part(t).len() != *width))
            .map(|(_, width, _)| format!("answer {i} is not {width} bytes"))
    };
    if let Some(e) = got.iter().enumerate().find_map(wrong) {
        return Err(e);
    }
    for (i, r) in got.iter().enumerate() {
        codes[i] = r.as_ref().err().map_or(0, |reason| reason.number());
        for (dst, width, part) in outs.iter_mut() {
            let row = &mut dst[*width * i..*width * (i + 1)];
            match r {
                Ok(t) => row.copy_from_slice(part(t)),
                Err(_) => row.fill(0),
            }
        }
    }
    Ok(())
}

/// A `(key, signature, message)` batch of fixed-size keys and signatures.
fn signed<const PK: usize, const SIG: usize>(
    op: Op,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
) -> Result<SignedBatch<PK, SIG>, Error> {
    let n = count(op, &[pks, sigs, msgs])?;
    let mut batch = SignedBatch::with_capacity(n, msgs.bytes.len());
    for i in 0..n {
        batch.push(pks.exact::<PK>(op, i)?, sigs.exact::<SIG>(op, i)?, msgs.get(i))?;
    }
    Ok(batch)
}

/// Ed25519 under `policy`: one verdict per `(pks[i], sigs[i], msgs[i])`
/// (keys 32 bytes, signatures 64, messages any length).
pub fn verify_ed25519(
    engine: &Engine,
    policy: ed25519::Policy,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = signed(Op::Ed25519Verify(policy), pks, sigs, msgs)?;
    engine.verify_ed25519(&batch, policy)
}

/// BIP-340 Schnorr: x-only keys of 32 bytes, signatures of 64, messages of
/// any length.
pub fn verify_bip340(
    engine: &Engine,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = signed(Op::Bip340Verify, pks, sigs, msgs)?;
    engine.verify_bip340(&batch)
}

/// sr25519 under the signing context `ctx` (Substrate's is
/// [`crate::ops::sr25519::DEFAULT_CONTEXT`]).
pub fn verify_sr25519(
    engine: &Engine,
    ctx: &[u8],
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = signed(Op::Sr25519Verify, pks, sigs, msgs)?;
    engine.verify_sr25519(&batch, ctx)
}

/// BLS12-381 (Ethereum's ciphersuite): keys of 48 bytes, signatures of 96,
/// item by item or as one batch (`mode`).
pub fn verify_bls(
    engine: &Engine,
    mode: bls::Mode,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = signed(Op::BlsVerify(mode), pks, sigs, msgs)?;
    engine.verify_bls(&batch, mode)
}

/// ML-DSA at `level`: every field of any length (a wrong length is the
/// item's reason); `ctxs` `None` is the empty context for every item.
pub fn verify_mldsa(
    engine: &Engine,
    level: mldsa::Level,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
    ctxs: Option<&Column<'_>>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = with_contexts(Op::MldsaVerify(level), pks, sigs, msgs, ctxs)?;
    engine.verify_mldsa(level, &batch)
}

/// SLH-DSA in `set`: every field of any length (a wrong length is the
/// item's reason); `ctxs` `None` is the empty context for every item.
pub fn verify_slhdsa(
    engine: &Engine,
    set: slhdsa::Set,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
    ctxs: Option<&Column<'_>>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let batch = with_contexts(Op::SlhdsaVerify(set), pks, sigs, msgs, ctxs)?;
    engine.verify_slhdsa(set, &batch)
}

/// The `(pk, msg, sig, ctx)` batch of `op`'s columns (ML-DSA, SLH-DSA).
fn with_contexts(
    op: Op,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    msgs: &Column<'_>,
    ctxs: Option<&Column<'_>>,
) -> Result<crate::batch::ContextBatch, Error> {
    let n = match ctxs {
        Some(c) => count(op, &[pks, sigs, msgs, c])?,
        None => count(op, &[pks, sigs, msgs])?,
    };
    let mut batch = crate::batch::ContextBatch::new();
    for i in 0..n {
        let ctx = ctxs.map_or(&[][..], |c| c.get(i));
        batch.push(pks.get(i), msgs.get(i), sigs.get(i), ctx)?;
    }
    Ok(batch)
}

/// secp256k1 ECDSA over 32-byte hashes: keys of 33 or 65 bytes (a column
/// of one width, or offsets for a mix), signatures r ‖ s of 64; with
/// `low_s`, s > n/2 is rejected.
pub fn verify_secp256k1(
    engine: &Engine,
    low_s: bool,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    hashes: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::Secp256k1Verify { low_s };
    let n = count(op, &[pks, sigs, hashes])?;
    let items = (0..n)
        .map(|i| {
            Ok(ecdsa::K1VerifyItem {
                hash: *hashes.exact::<32>(op, i)?,
                sig: *sigs.exact::<64>(op, i)?,
                pk: k1_key(op, pks, i)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.verify_secp256k1(&items, low_s)
}

/// Item `i`'s secp256k1 key (33 or 65 bytes).
fn k1_key(op: Op, pks: &Column<'_>, i: usize) -> Result<ecdsa::K1Key, Error> {
    let pk = pks.get(i);
    ecdsa::K1Key::from_slice(pk)
        .ok_or_else(|| invalid(op, format!("{}[{i}]: {} bytes, expected 33 or 65", pks.name, pk.len())))
}

/// The two 32-byte halves of a 64-byte field (P-256's x ‖ y, r ‖ s).
fn halves(b: &[u8; 64]) -> ([u8; 32], [u8; 32]) {
    let (mut first, mut second) = ([0u8; 32], [0u8; 32]);
    first.copy_from_slice(&b[..32]);
    second.copy_from_slice(&b[32..]);
    (first, second)
}

/// [`verify_secp256k1`] with signatures in DER ([`ecdsa::der`]), of any
/// length: one that is not strict DER is its item's
/// `malformed_signature`.
pub fn verify_secp256k1_der(
    engine: &Engine,
    low_s: bool,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    hashes: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::Secp256k1Verify { low_s };
    let n = count(op, &[pks, sigs, hashes])?;
    let items = (0..n)
        .map(|i| {
            let (hash, pk) = (hashes.exact::<32>(op, i)?, k1_key(op, pks, i)?);
            Ok(ecdsa::K1VerifyItem::from_der(*hash, sigs.get(i), pk))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.verify_secp256k1_read(&items, low_s)
}

/// P-256 under RIP-7212: keys x ‖ y of 64 bytes, signatures r ‖ s of 64,
/// hashes of 32.
pub fn verify_p256(
    engine: &Engine,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    hashes: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::P256Verify;
    let n = count(op, &[pks, sigs, hashes])?;
    let items = (0..n)
        .map(|i| {
            let ((x, y), (r, s)) = (halves(pks.exact::<64>(op, i)?), halves(sigs.exact::<64>(op, i)?));
            Ok(ecdsa::P256Item {
                hash: *hashes.exact::<32>(op, i)?,
                r,
                s,
                x,
                y,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.verify_p256(&items)
}

/// [`verify_p256`] with signatures in DER ([`ecdsa::der`]), of any
/// length: one that is not strict DER is its item's
/// `malformed_signature`.
pub fn verify_p256_der(
    engine: &Engine,
    pks: &Column<'_>,
    sigs: &Column<'_>,
    hashes: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::P256Verify;
    let n = count(op, &[pks, sigs, hashes])?;
    let items = (0..n)
        .map(|i| {
            let ((x, y), hash) = (halves(pks.exact::<64>(op, i)?), hashes.exact::<32>(op, i)?);
            Ok(ecdsa::P256Item::from_der(*hash, sigs.get(i), x, y))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.verify_p256_read(&items)
}

/// EIP-7594 cell proofs: commitments and proofs of 48 bytes (compressed
/// G1 points), cells of 2,048 bytes, and one index per item in `indices`
/// (any value: one past 127 is the item's `cell_index_out_of_range`).
pub fn verify_kzg_cells(
    engine: &Engine,
    commitments: &Column<'_>,
    indices: &[u64],
    cells: &Column<'_>,
    proofs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::KzgCellVerify;
    let n = count(op, &[commitments, cells, proofs])?;
    if indices.len() != n {
        return Err(invalid(op, format!("indices: {} for {n} items", indices.len())));
    }
    let items = (0..n)
        .map(|i| {
            Ok(kzg::CellItem {
                commitment: *commitments.exact::<{ kzg::POINT_LEN }>(op, i)?,
                index: indices[i],
                cell: Box::new(*cells.exact::<{ kzg::CELL_LEN }>(op, i)?),
                proof: *proofs.exact::<{ kzg::POINT_LEN }>(op, i)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.verify_kzg_cells(&items)
}

/// EIP-7594 blobs ([`kzg::BLOB_LEN`] bytes each): each blob's
/// commitment, cells and proofs, or its reason.
pub fn kzg_compute_cells(
    engine: &Engine,
    blobs: &Column<'_>,
) -> Result<Outcome<Vec<Result<kzg::BlobCells, crate::Reason>>>, Error> {
    let op = Op::KzgComputeCells;
    let n = count(op, &[blobs])?;
    match blobs.layout {
        Layout::Width(_) => {
            // Every row of one width: the whole buffer when it is a blob's.
            (0..n).try_for_each(|i| blobs.exact::<{ kzg::BLOB_LEN }>(op, i).map(|_| ()))?;
            engine.kzg_compute_cells(blobs.bytes)
        }
        Layout::Offsets(_) => {
            let mut bytes = Vec::with_capacity(n * kzg::BLOB_LEN);
            for i in 0..n {
                bytes.extend_from_slice(blobs.exact::<{ kzg::BLOB_LEN }>(op, i)?);
            }
            engine.kzg_compute_cells(&bytes)
        }
    }
}

/// The rows [`kzg_compute_cells`]' answers fill: each blob's commitment
/// (48 bytes), cells ([`kzg::EXTENDED_CELLS_LEN`]) and proofs
/// ([`kzg::EXTENDED_PROOFS_LEN`]).
pub fn blob_cells_rows<'a>(
    commitments: &'a mut [u8],
    cells: &'a mut [u8],
    proofs: &'a mut [u8],
) -> [Rows<'a, kzg::BlobCells>; 3] {
    fn commitment(b: &kzg::BlobCells) -> &[u8] {
        &b.commitment
    }
    fn cells_of(b: &kzg::BlobCells) -> &[u8] {
        b.extended.cells.as_flattened()
    }
    fn proofs_of(b: &kzg::BlobCells) -> &[u8] {
        b.extended.proofs.as_flattened()
    }
    [
        (commitments, kzg::POINT_LEN, &commitment),
        (cells, kzg::EXTENDED_CELLS_LEN, &cells_of),
        (proofs, kzg::EXTENDED_PROOFS_LEN, &proofs_of),
    ]
}

/// The rows [`kzg_recover_cells`]' answers fill: each recovery's cells and
/// proofs, as [`blob_cells_rows`]'.
pub fn extended_rows<'a>(cells: &'a mut [u8], proofs: &'a mut [u8]) -> [Rows<'a, kzg::Extended>; 2] {
    fn cells_of(x: &kzg::Extended) -> &[u8] {
        x.cells.as_flattened()
    }
    fn proofs_of(x: &kzg::Extended) -> &[u8] {
        x.proofs.as_flattened()
    }
    [
        (cells, kzg::EXTENDED_CELLS_LEN, &cells_of),
        (proofs, kzg::EXTENDED_PROOFS_LEN, &proofs_of),
    ]
}

/// EIP-7594 cell recovery: item `i` is the cells
/// `cells[groups[i]..groups[i + 1]]` (2,048 bytes each) with the indices
/// `indices[groups[i]..groups[i + 1]]`; per item the 128 cells and proofs,
/// or its reason.
pub fn kzg_recover_cells(
    engine: &Engine,
    groups: &[u64],
    indices: &[u64],
    cells: &Column<'_>,
) -> Result<Outcome<Vec<Result<kzg::Extended, crate::Reason>>>, Error> {
    let op = Op::KzgRecoverCells;
    let total = count(op, &[cells])?;
    if indices.len() != total {
        return Err(invalid(op, format!("indices: {} for {total} cells", indices.len())));
    }
    let n = groups
        .len()
        .checked_sub(1)
        .ok_or_else(|| invalid(op, "groups: no positions (n items need n + 1)".to_string()))?;
    check_groups(op, groups, n, total, "cells")?;
    // Every position is at most `total`, a usize.
    let items = (0..n)
        .map(|i| {
            let run = groups[i] as usize..groups[i + 1] as usize;
            Ok(kzg::RecoverItem {
                indices: indices[run.clone()].to_vec(),
                cells: run
                    .map(|k| cells.exact::<{ kzg::CELL_LEN }>(op, k).copied())
                    .collect::<Result<_, Error>>()?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.kzg_recover_cells(&items)
}

/// Ethereum's ecrecover: hashes of 32 bytes, signatures r ‖ s ‖ v of 65;
/// per item the address and key, or why the precompile returns nothing.
pub fn ecrecover(
    engine: &Engine,
    low_s: bool,
    hashes: &Column<'_>,
    sigs: &Column<'_>,
) -> Result<Outcome<Vec<Result<ecdsa::Recovered, crate::Reason>>>, Error> {
    let op = Op::Ecrecover { low_s };
    let n = count(op, &[hashes, sigs])?;
    let items = (0..n)
        .map(|i| {
            Ok(ecdsa::RecoverItem {
                hash: *hashes.exact::<32>(op, i)?,
                sig: *sigs.exact::<65>(op, i)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.ecrecover(&items, low_s)
}

/// The items of `col` as one [`crate::FlatBytes`] (at most `u32::MAX`
/// bytes in all).
fn flat_bytes(op: Op, col: &Column<'_>) -> Result<crate::FlatBytes, Error> {
    let n = count(op, &[col])?;
    let mut flat = crate::FlatBytes::with_capacity(n, col.bytes.len());
    for i in 0..n {
        if !flat.push(col.get(i)) {
            return Err(invalid(
                op,
                format!(
                    "{}: more than {} bytes in one call; split the input",
                    col.name,
                    u32::MAX
                ),
            ));
        }
    }
    Ok(flat)
}

/// The digest of every message under `alg`.
pub fn hash(engine: &Engine, alg: hash::Alg, msgs: &Column<'_>) -> Result<Outcome<Vec<hash::Digest>>, Error> {
    engine.hash(alg, &flat_bytes(Op::Hash(alg), msgs)?)
}

/// The Poseidon hash of every item (1 to 12 elements of 32 bytes,
/// back to back; another length is that item's `wrong_input_length`).
pub fn poseidon_bn254(engine: &Engine, items: &Column<'_>) -> Result<Outcome<Vec<poseidon::HashResult>>, Error> {
    engine.poseidon_bn254(&flat_bytes(Op::PoseidonBn254, items)?)
}

/// Groth16 over BN254 under the key `vk` (its EIP-197 bytes,
/// [`groth16::VerifyingKey::from_bytes`]; a key that does not decode is an
/// error): every item a proof of 256 bytes and its public inputs of 32
/// (another length is that item's `wrong_input_length`).
pub fn verify_groth16(engine: &Engine, vk: &[u8], items: &Column<'_>) -> Result<Outcome<Vec<Verdict>>, Error> {
    let key = groth16::VerifyingKey::from_bytes_cached(vk)?;
    engine.verify_groth16(&key, &flat_bytes(Op::Groth16VerifyBn254, items)?)
}

/// Groth16 over BLS12-381 under the key `vk` (either form,
/// [`groth16::bls12_381::VerifyingKey::from_bytes`]; a key that does not
/// decode is an error): every item a proof of 192 bytes (compressed) and
/// its public inputs of 32, little-endian (another length is that item's
/// `wrong_input_length`).
pub fn verify_groth16_bls12_381(
    engine: &Engine,
    vk: &[u8],
    items: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let key = groth16::bls12_381::VerifyingKey::from_bytes_cached(vk)?;
    engine.verify_groth16_bls12_381(&key, &flat_bytes(Op::Groth16VerifyBls12381, items)?)
}

/// One call of `precompile` per input (any length: a length the
/// precompile does not take is that call's failure).
pub fn evm(
    engine: &Engine,
    precompile: evm::Precompile,
    inputs: &Column<'_>,
) -> Result<Outcome<Vec<evm::CallResult>>, Error> {
    engine.evm(precompile, &flat_bytes(Op::Evm(precompile), inputs)?)
}

/// A precompile the bindings call by name: one of [`evm::Precompile`]
/// (its CLI name), or EIP-2537's pairing check (`eip2537-pairing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvmCall {
    /// An EIP-196/197 or EIP-2537 MSM precompile.
    Precompile(evm::Precompile),
    /// EIP-2537's pairing check (0x0f).
    Eip2537Pairing,
}

impl EvmCall {
    /// The name of the pairing check.
    const PAIRING: &'static str = "eip2537-pairing";

    /// Bytes of a successful call's output; `None` for MODEXP, whose
    /// input says ([`evm::Precompile::output_len`]).
    pub fn output_len(&self) -> Option<usize> {
        match self {
            EvmCall::Precompile(p) => p.output_len(),
            EvmCall::Eip2537Pairing => Some(evm::bool_word(false).len()),
        }
    }
}

impl std::str::FromStr for EvmCall {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        // EIP-2537's pairing check is at 0x0f.
        if s == EvmCall::PAIRING || evm::address_of(s) == Some(0x0f) {
            return Ok(EvmCall::Eip2537Pairing);
        }
        s.parse()
            .map(EvmCall::Precompile)
            .map_err(|e: String| format!("{e} or {}", EvmCall::PAIRING))
    }
}

/// One call per input of a precompile named for the bindings: the output
/// bytes ([`EvmCall::output_len`] of them; the pairing check's result as
/// the 32-byte word the EVM returns), or the call's failure.
pub fn evm_call(engine: &Engine, call: EvmCall, inputs: &Column<'_>) -> Result<Outcome<Vec<evm::CallResult>>, Error> {
    match call {
        EvmCall::Precompile(p) => evm(engine, p, inputs),
        EvmCall::Eip2537Pairing => eip2537_pairing(engine, inputs).map(|o| Outcome {
            output: o
                .output
                .into_iter()
                .map(|r| r.map(|ok| evm::bool_word(ok).to_vec()))
                .collect(),
            selection: o.selection,
        }),
    }
}

/// The EIP-2537 pairing check of every input: the check's result, or the
/// call's failure.
pub fn eip2537_pairing(
    engine: &Engine,
    inputs: &Column<'_>,
) -> Result<Outcome<Vec<Result<bool, evm::PrecompileError>>>, Error> {
    engine.eip2537_pairing(&flat_bytes(Op::Eip2537Pairing, inputs)?)
}

/// The ML-KEM key pair in `set` of every item's seeds `d` and `z` (32
/// bytes each; another length is the item's reason).
pub fn mlkem_keygen(
    engine: &Engine,
    set: mlkem::Set,
    ds: &Column<'_>,
    zs: &Column<'_>,
) -> Result<Outcome<Vec<Result<mlkem::KeyPair, crate::Reason>>>, Error> {
    let n = count(Op::MlkemKeygen(set), &[ds, zs])?;
    let items: Vec<_> = (0..n)
        .map(|i| mlkem::KeygenItem {
            d: ds.get(i).to_vec(),
            z: zs.get(i).to_vec(),
        })
        .collect();
    engine.mlkem_keygen(set, &items)
}

/// The ML-KEM encapsulation in `set` to every encapsulation key, with the
/// message `ms[i]` where given (deterministic), else 32 bytes from the
/// operating system.
pub fn mlkem_encaps(
    engine: &Engine,
    set: mlkem::Set,
    eks: &Column<'_>,
    ms: Option<&Column<'_>>,
) -> Result<Outcome<Vec<Result<mlkem::Encapsulated, crate::Reason>>>, Error> {
    let op = Op::MlkemEncaps(set);
    let n = match ms {
        Some(m) => count(op, &[eks, m])?,
        None => count(op, &[eks])?,
    };
    let items: Vec<_> = (0..n)
        .map(|i| mlkem::EncapsItem {
            ek: eks.get(i).to_vec(),
            m: ms.map(|m| m.get(i).to_vec()),
        })
        .collect();
    engine.mlkem_encaps(set, &items)
}

/// The ML-KEM shared secret in `set` of every `(dks[i], cts[i])`.
pub fn mlkem_decaps(
    engine: &Engine,
    set: mlkem::Set,
    dks: &Column<'_>,
    cts: &Column<'_>,
) -> Result<Outcome<Vec<Result<mlkem::SharedSecret, crate::Reason>>>, Error> {
    let n = count(Op::MlkemDecaps(set), &[dks, cts])?;
    let items: Vec<_> = (0..n)
        .map(|i| mlkem::DecapsItem {
            dk: dks.get(i).to_vec(),
            ct: cts.get(i).to_vec(),
        })
        .collect();
    engine.mlkem_decaps(set, &items)
}

/// The keys of each item of an aggregate: item `i`'s are
/// `keys[groups[i]..groups[i + 1]]` (`groups` holds `n + 1` non-decreasing
/// positions, the last at most the number of keys), as 48-byte arrays.
fn grouped_keys(op: Op, pks: &Column<'_>, groups: &[u64], n: usize) -> Result<Vec<Vec<[u8; bls::PK_LEN]>>, Error> {
    check_groups(op, groups, n, pks.count(op)?, "keys of pks")?;
    // Every position is at most the key count, a usize.
    (0..n)
        .map(|i| {
            (groups[i] as usize..groups[i + 1] as usize)
                .map(|k| pks.exact::<{ bls::PK_LEN }>(op, k).copied())
                .collect()
        })
        .collect()
}

/// Checks `groups`, the `n + 1` non-decreasing positions of `n` items'
/// runs in a column of `keys` rows (`what` names them in the message).
fn check_groups(op: Op, groups: &[u64], n: usize, keys: usize, what: &str) -> Result<(), Error> {
    if groups.len() != n + 1 {
        return Err(invalid(
            op,
            format!("groups: {} positions for {n} items (n items need n + 1)", groups.len()),
        ));
    }
    if let Some(i) = groups.windows(2).position(|w| w[0] > w[1]) {
        return Err(invalid(
            op,
            format!(
                "groups: positions decrease at item {i} ({} > {})",
                groups[i],
                groups[i + 1]
            ),
        ));
    }
    let last = groups[n];
    if usize::try_from(last).map_or(true, |end| end > keys) {
        return Err(invalid(
            op,
            format!("groups: position {last} is past the {keys} {what}"),
        ));
    }
    Ok(())
}

/// BLS aggregate verification (blst's `aggregate_verify`): item `i` is
/// the signature `sigs[i]` (96 bytes) of the keys
/// `pks[groups[i]..groups[i + 1]]` (48 bytes each), key `k` over the
/// message `msgs[k]`.
pub fn bls_aggregate_verify(
    engine: &Engine,
    pks: &Column<'_>,
    msgs: &Column<'_>,
    groups: &[u64],
    sigs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::BlsAggregateVerify;
    count(op, &[pks, msgs])?;
    let n = count(op, &[sigs])?;
    let keys = grouped_keys(op, pks, groups, n)?;
    let items = keys
        .into_iter()
        .enumerate()
        .map(|(i, pks)| {
            // `grouped_keys` checked the positions against the key count,
            // which is the message count.
            let msgs = (groups[i] as usize..groups[i + 1] as usize)
                .map(|k| msgs.get(k).to_vec())
                .collect();
            Ok(bls::AggregateItem {
                pks,
                msgs,
                sig: *sigs.exact::<{ bls::SIG_LEN }>(op, i)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.bls_aggregate_verify(&items)
}

/// BLS fast aggregate verification (one message per item): item `i` is
/// the signature `sigs[i]` of the keys `pks[groups[i]..groups[i + 1]]`
/// over `msgs[i]`.
pub fn bls_fast_aggregate_verify(
    engine: &Engine,
    pks: &Column<'_>,
    groups: &[u64],
    msgs: &Column<'_>,
    sigs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    let op = Op::BlsFastAggregateVerify;
    let n = count(op, &[msgs, sigs])?;
    let keys = grouped_keys(op, pks, groups, n)?;
    let items = keys
        .into_iter()
        .enumerate()
        .map(|(i, pks)| {
            Ok(bls::FastAggregateItem {
                pks,
                msg: msgs.get(i).to_vec(),
                sig: *sigs.exact::<{ bls::SIG_LEN }>(op, i)?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    engine.bls_fast_aggregate_verify(&items)
}

/// `transform` of every polynomial of `polys` (each of
/// [`ntt::Transform::poly_bytes`] bytes): the values encoded like the
/// input, or the polynomial's reason.
pub fn ntt(
    engine: &Engine,
    transform: &ntt::Transform,
    polys: &Column<'_>,
) -> Result<Outcome<Vec<ntt::PolyResult>>, Error> {
    let op = Op::Ntt(transform.field);
    let n = count(op, &[polys])?;
    // The transform itself first (log_n, the coset shift).
    transform.polys_in(0).map_err(|reason| invalid(op, reason))?;
    let width = transform.poly_bytes();
    if let Some(i) = (0..n).find(|&i| polys.get(i).len() != width) {
        return Err(invalid(
            op,
            format!("{}[{i}]: {} bytes, expected {width}", polys.name, polys.get(i).len()),
        ));
    }
    match polys.layout {
        Layout::Width(_) => engine.ntt(transform, polys.bytes),
        Layout::Offsets(_) => engine.ntt(
            transform,
            &(0..n).flat_map(|i| polys.get(i)).copied().collect::<Vec<u8>>(),
        ),
    }
}

/// The Merkle root of 32-byte leaves under `rule` (no leaves: an error).
pub fn merkle_root(engine: &Engine, rule: merkle::Rule, leaves: &Column<'_>) -> Result<Outcome<hash::Digest>, Error> {
    let op = Op::Merkle(rule);
    let n = count(op, &[leaves])?;
    let leaves = (0..n)
        .map(|i| leaves.exact::<32>(op, i).copied())
        .collect::<Result<Vec<_>, Error>>()?;
    engine.merkle_root(rule, &leaves)
}

/// The root of the padded Merkle tree of 32-byte leaves under `rule`
/// ([`merkle::Padding`]; no leaves: the empty tree's root).
pub fn merkle_root_padded(
    engine: &Engine,
    rule: merkle::Rule,
    leaves: &Column<'_>,
    padding: &merkle::Padding,
) -> Result<Outcome<hash::Digest>, Error> {
    let op = Op::Merkle(rule);
    let n = count(op, &[leaves])?;
    let leaves = (0..n)
        .map(|i| leaves.exact::<32>(op, i).copied())
        .collect::<Result<Vec<_>, Error>>()?;
    engine.merkle_root_padded(rule, &leaves, padding)
}

/// Merkle inclusion proofs under `rule` ([`merkle::proof`]): every item
/// `root ‖ leaf ‖ index (8 bytes, big-endian) ‖ siblings (32 bytes each,
/// bottom up)` (another length is that item's `wrong_input_length`);
/// `depth`, when given (1 to 64), the number of siblings each must have.
pub fn verify_merkle_proofs(
    engine: &Engine,
    rule: merkle::Rule,
    depth: Option<u32>,
    items: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    engine.verify_merkle_proofs(rule, depth, &flat_bytes(Op::MerkleProof(rule), items)?)
}

/// Ethereum Merkle-Patricia trie proofs ([`crate::ops::mpt`]): every item
/// `root (32) ‖ key length (1) ‖ key ‖ value flag (1) ‖ [value length (4,
/// big-endian) ‖ value] ‖ node count (2, big-endian) ‖ { node length (4,
/// big-endian) ‖ node }` (one that does not read so is that item's
/// `wrong_input_length`).
pub fn verify_mpt_proofs(engine: &Engine, items: &Column<'_>) -> Result<Outcome<Vec<Verdict>>, Error> {
    engine.verify_mpt_proofs(&flat_bytes(Op::MptProof, items)?)
}

/// The roots of Ethereum's ordered tries ([`crate::ops::ordered_trie`]):
/// every item `count (4, big-endian) ‖ { length (4, big-endian) ‖ value }`
/// (one that does not read so is that item's `wrong_input_length`, one
/// holding a value of no bytes its `empty_value`).
pub fn ordered_trie_roots(
    engine: &Engine,
    items: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::ordered_trie::RootResult>>, Error> {
    engine.ordered_trie_roots(&flat_bytes(Op::OrderedTrieRoot, items)?)
}

/// Blocks' receipts checked ([`crate::ops::receipts`]): every item a
/// block's receipts in the ordered-trie layout, each its EIP-2718 bytes.
pub fn receipts_roots(
    engine: &Engine,
    items: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::receipts::ReceiptsResult>>, Error> {
    engine.receipts_roots(&flat_bytes(Op::ReceiptsRoot, items)?)
}

/// Writes blocks' receipts checked ([`receipts_roots`]) into the
/// bindings' arrays: per item its code (0, else the reason's number), its
/// root (32 bytes) and blooms' union (256; zeros where refused) and the
/// index of the receipt refused (4 bytes little-endian, `u32::MAX` where
/// none is named). An error (a bug, not the caller's) when the arrays do
/// not hold one row per item; nothing is written then.
pub fn write_receipts(
    got: &[crate::ops::receipts::ReceiptsResult],
    codes: &mut [u8],
    roots: &mut [u8],
    blooms: &mut [u8],
    failed: &mut [u8],
) -> Result<(), String> {
    use crate::ops::receipts::{BLOOM_BYTES, Receipts};
    if failed.len() != 4 * got.len() {
        return Err(format!("{} answers for arrays of another size", got.len()));
    }
    let rows: Vec<Result<Receipts, crate::Reason>> = got.iter().map(|g| g.map_err(|(_, reason)| reason)).collect();
    write_rows(
        &rows,
        codes,
        &mut [
            (roots, crate::ops::hash::DIGEST_LEN, &|r: &Receipts| &r.root[..]),
            (blooms, BLOOM_BYTES, &|r: &Receipts| &r.logs_bloom[..]),
        ],
    )?;
    for (g, out) in got.iter().zip(failed.chunks_exact_mut(4)) {
        let index = match g {
            Err((Some(j), _)) => u32::try_from(*j).unwrap_or(u32::MAX - 1),
            _ => u32::MAX,
        };
        out.copy_from_slice(&index.to_le_bytes());
    }
    Ok(())
}

/// The senders of Ethereum transactions ([`crate::ops::tx_sender`]): every
/// item one transaction's EIP-2718 bytes (types 0 to 4).
pub fn tx_senders(
    engine: &Engine,
    txs: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::tx_sender::SenderResult>>, Error> {
    engine.tx_senders(&flat_bytes(Op::TxSender, txs)?)
}

/// Solana transactions ([`crate::ops::solana_tx`]) under `policy`: every
/// item one transaction's wire bytes (legacy, v0 or v1); one verdict each.
pub fn verify_solana_txs(
    engine: &Engine,
    policy: ed25519::Policy,
    txs: &Column<'_>,
) -> Result<Outcome<Vec<Verdict>>, Error> {
    engine.verify_solana_txs(&flat_bytes(Op::SolanaTxVerify(policy), txs)?, policy)
}

/// Whole blocks checked against their own headers, with the senders of
/// the transactions of those that hold to them
/// ([`crate::ops::ordered_trie::block::verify_with_senders`]): every item a
/// block's RLP.
pub fn verify_blocks_with_senders(
    engine: &Engine,
    blocks: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::ordered_trie::block::WithSenders>>, Error> {
    engine.verify_blocks_with_senders(&flat_bytes(Op::OrderedTrieRoot, blocks)?)
}

/// The authorities of EIP-7702 authorizations
/// ([`crate::ops::authority`]): every item one signed authorization's RLP.
pub fn eip7702_authorities(
    engine: &Engine,
    auths: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::authority::AuthorityResult>>, Error> {
    engine.eip7702_authorities(&flat_bytes(Op::Eip7702Authority, auths)?)
}

/// Writes blocks checked ([`verify_blocks`]) into the bindings' arrays:
/// per block its code (0; `root_mismatch` where a field does not match;
/// else the reason's number), the field that failed (0 none, else
/// `block::Field`'s number: 1 `ommersHash`, 2 `transactionsRoot`, 3
/// `withdrawalsRoot`), its number (8 bytes little-endian) and its hash (32
/// bytes), zeros for a malformed block. An error (a bug, not the
/// caller's) when the arrays do not hold one row per block; nothing is
/// written then.
pub fn write_blocks(
    got: &[crate::ops::ordered_trie::block::BlockResult],
    codes: &mut [u8],
    fields: &mut [u8],
    numbers: &mut [u8],
    hashes: &mut [u8],
) -> Result<(), String> {
    let n = got.len();
    if codes.len() != n || fields.len() != n || numbers.len() != 8 * n || hashes.len() != 32 * n {
        return Err(format!("{n} answers for arrays of another size"));
    }
    for (i, r) in got.iter().enumerate() {
        let (code, field, number, hash) = match r {
            Ok(c) => (
                c.mismatch.map_or(0, |_| crate::Reason::RootMismatch.number()),
                c.mismatch.map_or(0, |f| f as u8),
                c.number,
                c.hash,
            ),
            Err(reason) => (reason.number(), 0, 0, [0; 32]),
        };
        codes[i] = code;
        fields[i] = field;
        numbers[8 * i..8 * (i + 1)].copy_from_slice(&number.to_le_bytes());
        hashes[32 * i..32 * (i + 1)].copy_from_slice(&hash);
    }
    Ok(())
}

/// Whole blocks checked against their own headers
/// ([`crate::ops::ordered_trie::block`]): every item a block's RLP.
pub fn verify_blocks(
    engine: &Engine,
    blocks: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::ordered_trie::block::BlockResult>>, Error> {
    engine.verify_blocks(&flat_bytes(Op::OrderedTrieRoot, blocks)?)
}

/// Writes Bitcoin blocks checked ([`verify_bitcoin_blocks`]) into the
/// bindings' arrays: per block its code (0, else the reason's number:
/// `high_hash`, `root_mismatch`, `duplicate_transactions`,
/// `bad_witness_nonce_size`, `unexpected_witness`, `malformed_block`),
/// the commitment a `root_mismatch` names (0 none, else
/// `merkle::block::Field`'s number: 1 `merkleRoot`, 2
/// `witnessCommitment`), the height its coinbase states (4 bytes
/// little-endian, `u32::MAX` where none) and its hash (32 bytes as hashed:
/// Bitcoin shows them reversed), zeros (and no height) for a malformed
/// block. An error (a bug, not the caller's) when the arrays do not hold
/// one row per block; nothing is written then.
pub fn write_bitcoin_blocks(
    got: &[crate::ops::merkle::block::BlockResult],
    codes: &mut [u8],
    fields: &mut [u8],
    heights: &mut [u8],
    hashes: &mut [u8],
) -> Result<(), String> {
    let n = got.len();
    if codes.len() != n || fields.len() != n || heights.len() != 4 * n || hashes.len() != 32 * n {
        return Err(format!("{n} answers for arrays of another size"));
    }
    for (i, r) in got.iter().enumerate() {
        let (code, field, height, hash) = match r {
            Ok(c) => (
                c.failure.map_or(0, |f| f.reason().number()),
                c.failure.and_then(|f| f.field()).map_or(0, |f| f as u8),
                c.height.unwrap_or(u32::MAX),
                c.hash,
            ),
            Err(reason) => (reason.number(), 0, u32::MAX, [0; 32]),
        };
        codes[i] = code;
        fields[i] = field;
        heights[4 * i..4 * (i + 1)].copy_from_slice(&height.to_le_bytes());
        hashes[32 * i..32 * (i + 1)].copy_from_slice(&hash);
    }
    Ok(())
}

/// Whole Bitcoin blocks checked against their own headers under
/// `network`'s parameters ([`crate::ops::merkle::block`]): every item a
/// block's bytes.
pub fn verify_bitcoin_blocks(
    engine: &Engine,
    network: crate::ops::merkle::block::Network,
    blocks: &Column<'_>,
) -> Result<Outcome<Vec<crate::ops::merkle::block::BlockResult>>, Error> {
    let blocks = flat_bytes(Op::Merkle(crate::ops::merkle::Rule::Bitcoin), blocks)?;
    engine.verify_bitcoin_blocks(&blocks, network)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BackendChoice;

    fn engine() -> Engine {
        Engine::builder()
            .backend(BackendChoice::Cpu)
            .without_profile()
            .threads(1)
            .build()
            .expect("a CPU engine")
    }

    fn reason(e: Error) -> String {
        match e {
            Error::InvalidInput { reason, .. } => reason,
            other => panic!("not an input error: {other}"),
        }
    }

    #[test]
    fn columns_are_checked_before_any_work() {
        let e = engine();
        let msgs = [0u8; 4];
        let offsets = [0u64, 2, 4];
        let m = Column::offsets("msgs", &msgs, &offsets);
        let pks = [0u8; 64];
        let sigs = [0u8; 128];
        let (pk, sig) = (Column::fixed("pks", &pks, 32), Column::fixed("sigs", &sigs, 64));
        let ok = verify_ed25519(&e, ed25519::Policy::Strict, &pk, &sig, &m).expect("two items");
        assert_eq!(ok.output.len(), 2);

        let short = Column::fixed("pks", &pks[..63], 32);
        let err = reason(verify_ed25519(&e, ed25519::Policy::Strict, &short, &sig, &m).expect_err("63 bytes"));
        assert!(err.starts_with("pks: 63 bytes"), "{err}");

        let three = Column::fixed("sigs", &[0u8; 192], 64);
        let err = reason(verify_ed25519(&e, ed25519::Policy::Strict, &pk, &three, &m).expect_err("counts"));
        assert_eq!(err, "pks has 2 items but sigs has 3");

        let wide = Column::fixed("pks", &pks, 16);
        let err = reason(verify_ed25519(&e, ed25519::Policy::Strict, &wide, &three, &m).expect_err("width"));
        assert_eq!(err, "pks has 4 items but sigs has 3");
        let wide = Column::fixed("pks", &pks[..48], 16);
        let m3 = Column::offsets("msgs", &msgs, &[0, 1, 2, 4]);
        let err = reason(verify_ed25519(&e, ed25519::Policy::Strict, &wide, &three, &m3).expect_err("width"));
        assert_eq!(err, "pks[0]: 16 bytes, expected 32");

        for (offsets, want) in [
            (&[0u64, 3, 2][..], "msgs: offsets decrease at item 1 (3 > 2)"),
            (&[0u64, 2, 5][..], "msgs: offset 5 is past the buffer's 4 bytes"),
            (&[][..], "msgs: no offsets (n items need n + 1)"),
        ] {
            let m = Column::offsets("msgs", &msgs, offsets);
            let err = reason(verify_ed25519(&e, ed25519::Policy::Strict, &pk, &sig, &m).expect_err(want));
            assert_eq!(err, want);
        }
        let zero = Column::fixed("leaves", &[], 0);
        let err = reason(merkle_root(&e, merkle::Rule::Bitcoin, &zero).expect_err("width 0"));
        assert_eq!(err, "leaves: an item width of 0 bytes");
    }

    #[test]
    fn offsets_need_not_start_at_zero() {
        let e = engine();
        let data = b"xxabc";
        let sliced = Column::offsets("msgs", data, &[2, 5]);
        let whole = Column::fixed("msgs", b"abc", 3);
        let a = hash(&e, hash::Alg::Keccak256, &sliced).expect("one message");
        let b = hash(&e, hash::Alg::Keccak256, &whole).expect("one message");
        assert_eq!(a.output, b.output);
    }

    #[test]
    fn secp256k1_keys_may_mix_lengths() {
        let e = engine();
        let pks = [2u8; 33 + 65];
        let m = Column::offsets("pks", &pks, &[0, 33, 98]);
        let sigs = Column::fixed("sigs", &[1u8; 128], 64);
        let hashes = Column::fixed("hashes", &[0u8; 64], 32);
        let got = verify_secp256k1(&e, false, &m, &sigs, &hashes).expect("two items");
        assert_eq!(got.output.len(), 2);
        let bad = Column::offsets("pks", &pks, &[0, 34, 98]);
        let err = reason(verify_secp256k1(&e, false, &bad, &sigs, &hashes).expect_err("34 bytes"));
        assert_eq!(err, "pks[0]: 34 bytes, expected 33 or 65");
    }

    #[test]
    fn verdict_codes_round_trip() {
        assert_eq!(verdict_code(&Verdict::Valid), 0);
        for r in crate::Reason::ALL {
            let code = verdict_code(&Verdict::Invalid(r));
            assert_ne!(code, 0);
            assert_eq!(crate::Reason::from_number(code), Some(r));
        }
        assert_eq!(crate::Reason::from_number(0), None);
        assert_eq!(crate::Reason::from_number(255), None);
    }

    #[test]
    fn aggregates_take_their_keys_by_groups() {
        use blst::min_pk::{AggregateSignature, Signature};
        let e = engine();
        let keys = bls::sample::secret_keys(5, 7);
        let pks: Vec<u8> = keys.iter().flat_map(|k| k.sk_to_pk().compress()).collect();
        let msgs: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 1 + usize::from(i)]).collect();
        let sign = |range: std::ops::Range<usize>, msg: &dyn Fn(usize) -> Vec<u8>| {
            let sigs: Vec<Signature> = range.map(|k| keys[k].sign(&msg(k), bls::DST, &[])).collect();
            let refs: Vec<&Signature> = sigs.iter().collect();
            AggregateSignature::aggregate(&refs, false)
                .expect("an aggregate")
                .to_signature()
                .compress()
        };
        // Item 0: keys 0..3 over their own messages; item 1: keys 3..5
        // with item 0's signature (invalid).
        let per_key = |k: usize| msgs[k].clone();
        let sig0 = sign(0..3, &per_key);
        let sigs: Vec<u8> = [sig0, sig0].concat();
        let flat_msgs: Vec<u8> = msgs.concat();
        let mut offsets = vec![0u64];
        for m in &msgs {
            offsets.push(offsets[offsets.len() - 1] + m.len() as u64);
        }
        let (pk, m, sig) = (
            Column::fixed("pks", &pks, 48),
            Column::offsets("msgs", &flat_msgs, &offsets),
            Column::fixed("sigs", &sigs, 96),
        );
        let got = bls_aggregate_verify(&e, &pk, &m, &[0, 3, 5], &sig).expect("two aggregates");
        let verdicts: Vec<bool> = got.output.iter().map(Verdict::is_valid).collect();
        assert_eq!(verdicts, [true, false]);

        // Fast aggregate: keys 0..2 over one message, keys 2..5 over another.
        let one = |msg: &'static [u8]| move |_: usize| msg.to_vec();
        let sigs: Vec<u8> = [sign(0..2, &one(b"first")), sign(2..5, &one(b"first"))].concat();
        let m = Column::offsets("msgs", b"firstfirst", &[0, 5, 10]);
        let sig = Column::fixed("sigs", &sigs, 96);
        let got = bls_fast_aggregate_verify(&e, &pk, &[0, 2, 5], &m, &sig).expect("two aggregates");
        assert!(got.output.iter().all(Verdict::is_valid), "{:?}", got.output);
        let got = bls_fast_aggregate_verify(&e, &pk, &[0, 3, 5], &m, &sig).expect("two aggregates");
        assert!(!got.output.iter().any(Verdict::is_valid), "{:?}", got.output);

        for (groups, want) in [
            (&[0u64, 2][..], "groups: 2 positions for 2 items (n items need n + 1)"),
            (&[0u64, 3, 2][..], "groups: positions decrease at item 1 (3 > 2)"),
            (&[0u64, 2, 6][..], "groups: position 6 is past the 5 keys of pks"),
        ] {
            let err = reason(bls_fast_aggregate_verify(&e, &pk, groups, &m, &sig).expect_err(want));
            assert_eq!(err, want);
        }
        let short = Column::offsets("pks", &pks, &[0, 48, 95]);
        let err = reason(bls_fast_aggregate_verify(&e, &short, &[0, 1, 2], &m, &sig).expect_err("47 bytes"));
        assert_eq!(err, "pks[1]: 47 bytes, expected 48");
        let m1 = Column::offsets("msgs", b"first", &[0, 5]);
        let err = reason(bls_aggregate_verify(&e, &pk, &m1, &[0, 1], &sig).expect_err("counts"));
        assert_eq!(err, "pks has 5 items but msgs has 1");
    }

    #[test]
    fn precompile_calls_and_kems_answer_per_item() {
        let e = engine();
        // bn256-add of two zero points is the zero point; 5 bytes are
        // padded with zeros as the EVM pads (a point (0, 0) each side).
        let inputs = [0u8; 128 + 5];
        let calls = Column::offsets("inputs", &inputs, &[0, 128, 133]);
        let got = evm(&e, evm::Precompile::Bn256Add, &calls).expect("two calls");
        assert_eq!(got.output, [Ok(vec![0u8; 64]), Ok(vec![0u8; 64])]);
        let got = eip2537_pairing(&e, &Column::offsets("inputs", &inputs, &[0, 0, 5])).expect("two calls");
        assert_eq!(
            got.output,
            [
                Err(evm::PrecompileError::InvalidLength),
                Err(evm::PrecompileError::InvalidLength)
            ]
        );
        // Zeros are a valid call of each (points at infinity, an empty
        // product for the pairing, the element 0 for the maps, nothing
        // for MODEXP): each output is output_len() bytes.
        for (p, input) in [
            (evm::Precompile::Bn256Add, 128),
            (evm::Precompile::Bn256Mul, 96),
            (evm::Precompile::Bn256Pairing, 0),
            (evm::Precompile::BlsG1Msm, 160),
            (evm::Precompile::BlsG2Msm, 288),
            (evm::Precompile::BlsG1Add, 256),
            (evm::Precompile::BlsG2Add, 512),
            (evm::Precompile::BlsMapG1, 64),
            (evm::Precompile::BlsMapG2, 128),
            (evm::Precompile::ModExp, 96),
        ] {
            let zeros = vec![0u8; input];
            let got = evm(&e, p, &Column::offsets("inputs", &zeros, &[0, input as u64])).expect("one call");
            let len = p.output_len().unwrap_or(0);
            assert_eq!(got.output[0].as_ref().map(Vec::len), Ok(len), "{p}");
        }
        for (i, err) in evm::PrecompileError::ALL.iter().enumerate() {
            assert_eq!(usize::from(err.number()), i + 1, "{err}");
        }
        // By name, as the bindings call them: the pairing check's result
        // is the EVM's 32-byte word (one pair of points at infinity: the
        // product is one, true; 5 bytes are no pair).
        let pairing: EvmCall = "eip2537-pairing".parse().expect("the pairing check's name");
        assert_eq!((pairing, pairing.output_len()), (EvmCall::Eip2537Pairing, Some(32)));
        assert_eq!("0x0f".parse(), Ok(EvmCall::Eip2537Pairing));
        assert_eq!("0x05".parse(), Ok(EvmCall::Precompile(evm::Precompile::ModExp)));
        let zeros = [0u8; 384 + 5];
        let two = Column::offsets("inputs", &zeros, &[0, 384, 389]);
        let got = evm_call(&e, pairing, &two).expect("two calls");
        assert_eq!(
            got.output,
            [
                Ok(evm::bool_word(true).to_vec()),
                Err(evm::PrecompileError::InvalidLength)
            ]
        );
        let add: EvmCall = "bn256-add".parse().expect("a precompile's name");
        assert_eq!(add, EvmCall::Precompile(evm::Precompile::Bn256Add));
        assert_eq!(
            evm_call(&e, add, &calls).expect("two calls").output,
            [Ok(vec![0u8; 64]), Ok(vec![0u8; 64])]
        );
        let unknown = "bn256-sub".parse::<EvmCall>().expect_err("no such precompile");
        assert!(unknown.contains("eip2537-pairing"), "{unknown}");

        let set = mlkem::Set::Mlkem512;
        let seeds = [7u8; 64 + 31];
        let ds = Column::offsets("ds", &seeds, &[0, 32, 63]);
        let zs = Column::fixed("zs", &seeds[..64], 32);
        let got = mlkem_keygen(&e, set, &ds, &zs).expect("two items").output;
        let pair = got[0].as_ref().expect("32-byte seeds");
        assert_eq!((pair.ek.len(), pair.dk.len()), (set.ek_len(), set.dk_len()));
        assert!(got[1].is_err(), "a 31-byte d is the item's reason");
        let eks = Column::fixed("eks", &pair.ek, set.ek_len());
        let ms = Column::fixed("ms", &[9u8; 32], 32);
        let enc = mlkem_encaps(&e, set, &eks, Some(&ms)).expect("one item").output;
        let enc = enc[0].as_ref().expect("a valid key");
        let (dks, cts) = (
            Column::fixed("dks", &pair.dk, set.dk_len()),
            Column::fixed("cts", &enc.ct, set.ct_len()),
        );
        let dec = mlkem_decaps(&e, set, &dks, &cts).expect("one item").output;
        assert_eq!(dec[0].as_ref().ok(), Some(&enc.ss));
        let err = reason(mlkem_encaps(&e, set, &eks, Some(&Column::fixed("ms", &[0u8; 64], 32))).expect_err("counts"));
        assert_eq!(err, "eks has 1 items but ms has 2");
    }

    #[test]
    fn ntt_polynomials_are_whole() {
        let e = engine();
        let t = ntt::Transform::new(ntt::Field::Goldilocks, 4);
        let width = t.poly_bytes();
        let data: Vec<u8> = (0..2 * width).map(|i| (i % 7) as u8).collect();
        let fixed = ntt(&e, &t, &Column::fixed("polys", &data, width)).expect("two polynomials");
        let offsets = [0, width as u64, 2 * width as u64];
        let split = ntt(&e, &t, &Column::offsets("polys", &data, &offsets)).expect("two polynomials");
        assert_eq!(fixed.output, split.output);
        assert_eq!(fixed.output.len(), 2);
        let uneven = [0, width as u64 - 8, 2 * width as u64];
        let err = reason(ntt(&e, &t, &Column::offsets("polys", &data, &uneven)).expect_err("uneven"));
        assert_eq!(err, format!("polys[0]: {} bytes, expected {width}", width - 8));
        let too_big = ntt::Transform::new(ntt::Field::Goldilocks, 40);
        let err = reason(ntt(&e, &too_big, &Column::fixed("polys", &data, width)).expect_err("log_n"));
        assert!(err.starts_with("log_n 40 is outside"), "{err}");
    }

    #[test]
    fn rows_are_written_whole_or_not_at_all() {
        let got: Vec<Result<[u8; 2], crate::Reason>> = vec![Ok([1, 2]), Err(crate::Reason::Equation)];
        let (mut codes, mut rows) = ([9u8; 2], [9u8; 4]);
        write_rows(&got, &mut codes, &mut [(&mut rows, 2, &|t: &[u8; 2]| &t[..])]).expect("fits");
        assert_eq!((codes, rows), ([0, crate::Reason::Equation.number()], [1, 2, 0, 0]));
        let mut short = [9u8; 3];
        let err = write_rows(&got, &mut codes, &mut [(&mut short, 2, &|t: &[u8; 2]| &t[..])]).expect_err("3 bytes");
        assert_eq!(err, "2 answers for arrays of another size");
        let mut wide = [9u8; 6];
        let err = write_rows(&got, &mut codes, &mut [(&mut wide, 3, &|t: &[u8; 2]| &t[..])]).expect_err("width");
        assert_eq!((err.as_str(), wide), ("answer 0 is not 3 bytes", [9u8; 6]));
    }
}
