//! `batchcrypto._native`: the Python package's native module (PyO3, abi3).
//!
//! The pure-Python layer (`python/batchcrypto/`) turns whatever the caller
//! holds (bytes, lists, NumPy arrays, Arrow arrays) into columns and
//! allocates the output arrays; this module borrows those buffers without
//! a copy, releases the GIL, and calls `batchcrypto::flat`, the functions
//! the C ABI calls too (the same checks, the same answers).
//!
//! A column crosses as a tuple `(data, width, offsets)`: `data` a
//! C-contiguous buffer of bytes, `width` the bytes per item (0 when
//! `offsets` delimits them), `offsets` `None` or a buffer of `n + 1`
//! native-endian u64s. Outputs are writable C-contiguous byte buffers of
//! exactly the size the operation writes; they are written only when the
//! call succeeds.

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use batchcrypto::flat::{self, Column};
use batchcrypto::ops::{
    authority, bls, ed25519, evm, groth16, hash, kzg, merkle, mldsa, mlkem, mpt, msm, ntt, poseidon, receipts, slhdsa,
    sr25519,
};
use batchcrypto::{BackendChoice, Engine, Error, Outcome, Reason, Verdict};

/// A borrowed input column: the buffer stays held (and so alive) while
/// its bytes are in use.
struct Col {
    name: &'static str,
    data: PyBuffer<u8>,
    width: usize,
    offsets: Option<Vec<u64>>,
}

/// A contiguous byte buffer, checked.
fn buffer(name: &str, obj: &Bound<'_, PyAny>, writable: bool) -> PyResult<PyBuffer<u8>> {
    let buf = PyBuffer::<u8>::get(obj).map_err(|e| PyValueError::new_err(format!("{name}: not a byte buffer: {e}")))?;
    if !buf.is_c_contiguous() {
        return Err(PyValueError::new_err(format!("{name}: not C-contiguous")));
    }
    if writable && buf.readonly() {
        return Err(PyValueError::new_err(format!("{name}: read-only")));
    }
    Ok(buf)
}

/// The bytes of a held buffer.
fn bytes(buf: &PyBuffer<u8>) -> &[u8] {
    if buf.len_bytes() == 0 {
        return &[];
    }
    // SAFETY: the buffer is C-contiguous (checked in `buffer`), holds
    // `len_bytes` bytes of u8 items, and stays valid while `buf` is held,
    // which outlives the slice. The caller must not resize or write the
    // array during the call (as for NumPy's own GIL-free functions).
    unsafe { std::slice::from_raw_parts(buf.buf_ptr().cast::<u8>(), buf.len_bytes()) }
}

/// A held writable buffer: an output array the Python layer has just
/// allocated for this call (so no input aliases it).
struct OutBuf(PyBuffer<u8>);

impl OutBuf {
    fn bytes_mut(&mut self) -> &mut [u8] {
        let buf = &self.0;
        if buf.len_bytes() == 0 {
            return &mut [];
        }
        // SAFETY: as `bytes`, and the buffer is writable (checked in
        // `buffer`); a fresh array of this call's, written only through
        // this one borrow of `self`.
        unsafe { std::slice::from_raw_parts_mut(buf.buf_ptr().cast::<u8>(), buf.len_bytes()) }
    }
}

impl Col {
    fn get(name: &'static str, obj: &Bound<'_, PyAny>) -> PyResult<Col> {
        let (data, width, offsets): (Bound<'_, PyAny>, usize, Option<Bound<'_, PyAny>>) = obj.extract()?;
        let data = buffer(name, &data, false)?;
        let offsets = offsets.map(|o| positions(name, &o)).transpose()?;
        Ok(Col {
            name,
            data,
            width,
            offsets,
        })
    }

    fn column(&self) -> Column<'_> {
        match &self.offsets {
            Some(o) => Column::offsets(self.name, bytes(&self.data), o),
            None => Column::fixed(self.name, bytes(&self.data), self.width),
        }
    }
}

/// An output buffer of exactly `len` bytes (any length for `None`).
fn out(name: &str, obj: &Bound<'_, PyAny>, len: Option<usize>) -> PyResult<OutBuf> {
    let buf = buffer(name, obj, true)?;
    match len {
        Some(len) if buf.len_bytes() != len => Err(PyValueError::new_err(format!(
            "{name}: {} bytes, expected {len}",
            buf.len_bytes()
        ))),
        _ => Ok(OutBuf(buf)),
    }
}

/// A library error as a Python exception naming the operation.
fn raise(op: &str, e: Error) -> PyErr {
    match e {
        Error::InvalidInput { .. } | Error::BatchTooLarge { .. } => PyValueError::new_err(format!("{op}: {e}")),
        other => PyRuntimeError::new_err(format!("{op}: {other}")),
    }
}

fn count_error(op: &str, got: usize, n: usize) -> PyErr {
    PyRuntimeError::new_err(format!("{op}: {got} answers for {n} items"))
}

/// Writes one verdict byte per item into `codes`.
fn write_verdicts(op: &str, got: Result<Outcome<Vec<Verdict>>, Error>, codes: &mut [u8]) -> PyResult<()> {
    let got = got.map_err(|e| raise(op, e))?.output;
    if got.len() != codes.len() {
        return Err(count_error(op, got.len(), codes.len()));
    }
    for (c, v) in codes.iter_mut().zip(&got) {
        *c = flat::verdict_code(v);
    }
    Ok(())
}

/// An engine: CPU threads and, where one is usable, a GPU.
#[pyclass(frozen, module = "batchcrypto._native")]
struct NativeEngine {
    engine: Engine,
}

/// A signature operation over `(pks, sigs, msgs)` columns: borrow, detach,
/// run, write the verdicts.
fn signed(
    py: Python<'_>,
    op: &str,
    cols: [(&'static str, &Bound<'_, PyAny>); 3],
    codes: &Bound<'_, PyAny>,
    run: impl FnOnce(&Column<'_>, &Column<'_>, &Column<'_>) -> Result<Outcome<Vec<Verdict>>, Error> + Send,
) -> PyResult<()> {
    let [a, b, c] = cols;
    let (a, b, c) = (Col::get(a.0, a.1)?, Col::get(b.0, b.1)?, Col::get(c.0, c.1)?);
    let mut codes = out("codes", codes, None)?;
    let (ca, cb, cc, dst) = (a.column(), b.column(), c.column(), codes.bytes_mut());
    py.detach(|| write_verdicts(op, run(&ca, &cb, &cc), dst))
}

/// [`signed`] with an optional column of contexts (ML-DSA, SLH-DSA).
fn with_contexts(
    py: Python<'_>,
    op: &str,
    cols: [&Bound<'_, PyAny>; 3],
    ctxs: Option<&Bound<'_, PyAny>>,
    codes: &Bound<'_, PyAny>,
    run: impl FnOnce(&Column<'_>, &Column<'_>, &Column<'_>, Option<&Column<'_>>) -> Result<Outcome<Vec<Verdict>>, Error>
    + Send,
) -> PyResult<()> {
    let ctxs = ctxs.map(|c| Col::get("ctxs", c)).transpose()?;
    let ctx_col = ctxs.as_ref().map(Col::column);
    let [pks, sigs, msgs] = cols;
    signed(
        py,
        op,
        [("pks", pks), ("sigs", sigs), ("msgs", msgs)],
        codes,
        |p, s, m| run(p, s, m, ctx_col.as_ref()),
    )
}

#[pymethods]
impl NativeEngine {
    #[new]
    #[pyo3(signature = (backend, threads, adapter))]
    fn new(py: Python<'_>, backend: &str, threads: Option<usize>, adapter: Option<String>) -> PyResult<Self> {
        let choice: BackendChoice = backend
            .parse()
            .map_err(|e| PyValueError::new_err(format!("Engine: backend: {e}")))?;
        let mut builder = Engine::builder().backend(choice);
        if let Some(t) = threads {
            builder = builder.threads(t);
        }
        if let Some(a) = adapter {
            builder = builder.adapter(a);
        }
        let engine = py.detach(|| builder.build()).map_err(|e| raise("Engine", e))?;
        Ok(NativeEngine { engine })
    }

    /// The backend choice (`auto`, `cpu`, `gpu`) and the GPU's name, if any.
    fn describe(&self) -> (String, Option<String>) {
        (self.engine.choice().to_string(), self.engine.gpu_adapter_name())
    }

    /// The signature operations over three columns (`pks`, `sigs`, and
    /// `msgs` or `hashes`), by the Python method's name; `option` is the
    /// operation's one option (the Ed25519 policy's name, the sr25519
    /// context (None: Substrate's), BLS's `batch`, secp256k1's `low_s`, with or without DER; None where there is none).
    #[allow(clippy::too_many_arguments)]
    fn verify(
        &self,
        py: Python<'_>,
        op: &str,
        option: &Bound<'_, PyAny>,
        pks: &Bound<'_, PyAny>,
        sigs: &Bound<'_, PyAny>,
        third: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let e = &self.engine;
        let third_name = if matches!(
            op,
            "verify_secp256k1" | "verify_p256" | "verify_secp256k1_der" | "verify_p256_der"
        ) {
            "hashes"
        } else {
            "msgs"
        };
        let cols = [("pks", pks), ("sigs", sigs), (third_name, third)];
        match op {
            "verify_ed25519" => {
                let policy: ed25519::Policy = option
                    .extract::<String>()?
                    .parse()
                    .map_err(|e| PyValueError::new_err(format!("{op}: policy: {e}")))?;
                signed(py, op, cols, codes, |p, s, m| flat::verify_ed25519(e, policy, p, s, m))
            }
            "verify_bip340" => signed(py, op, cols, codes, |p, s, m| flat::verify_bip340(e, p, s, m)),
            "verify_sr25519" => {
                let ctx: Option<Vec<u8>> = option.extract()?;
                let ctx = ctx.unwrap_or_else(|| sr25519::DEFAULT_CONTEXT.to_vec());
                signed(py, op, cols, codes, |p, s, m| flat::verify_sr25519(e, &ctx, p, s, m))
            }
            "verify_bls" => {
                let mode = if option.extract()? {
                    bls::Mode::Batch
                } else {
                    bls::Mode::Single
                };
                signed(py, op, cols, codes, |p, s, m| flat::verify_bls(e, mode, p, s, m))
            }
            "verify_secp256k1" => {
                let low_s: bool = option.extract()?;
                signed(py, op, cols, codes, |p, s, h| flat::verify_secp256k1(e, low_s, p, s, h))
            }
            "verify_p256" => signed(py, op, cols, codes, |p, s, h| flat::verify_p256(e, p, s, h)),
            "verify_secp256k1_der" => {
                let low_s: bool = option.extract()?;
                signed(py, op, cols, codes, |p, s, h| {
                    flat::verify_secp256k1_der(e, low_s, p, s, h)
                })
            }
            "verify_p256_der" => signed(py, op, cols, codes, |p, s, h| flat::verify_p256_der(e, p, s, h)),
            other => Err(PyValueError::new_err(format!("no signature operation {other:?}"))),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn verify_mldsa(
        &self,
        py: Python<'_>,
        level: &str,
        pks: &Bound<'_, PyAny>,
        sigs: &Bound<'_, PyAny>,
        msgs: &Bound<'_, PyAny>,
        ctxs: Option<&Bound<'_, PyAny>>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "verify_mldsa";
        let level = mldsa::Level::from_name(level).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{op}: level: unknown level {level:?} (expected ml-dsa-44, ml-dsa-65 or ml-dsa-87)"
            ))
        })?;
        let e = &self.engine;
        with_contexts(py, op, [pks, sigs, msgs], ctxs, codes, |p, s, m, c| {
            flat::verify_mldsa(e, level, p, s, m, c)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn verify_slhdsa(
        &self,
        py: Python<'_>,
        set: &str,
        pks: &Bound<'_, PyAny>,
        sigs: &Bound<'_, PyAny>,
        msgs: &Bound<'_, PyAny>,
        ctxs: Option<&Bound<'_, PyAny>>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "verify_slhdsa";
        let set = slhdsa::Set::from_name(set).ok_or_else(|| {
            let names: Vec<&str> = slhdsa::Set::ALL.iter().map(|s| s.short_name()).collect();
            PyValueError::new_err(format!(
                "{op}: set: unknown set {set:?} (expected one of {})",
                names.join(", ")
            ))
        })?;
        let e = &self.engine;
        with_contexts(py, op, [pks, sigs, msgs], ctxs, codes, |p, s, m, c| {
            flat::verify_slhdsa(e, set, p, s, m, c)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn ecrecover(
        &self,
        py: Python<'_>,
        low_s: bool,
        hashes: &Bound<'_, PyAny>,
        sigs: &Bound<'_, PyAny>,
        addresses: &Bound<'_, PyAny>,
        pubkeys: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "ecrecover";
        let (h, s) = (Col::get("hashes", hashes)?, Col::get("sigs", sigs)?);
        let n = codes.len()?;
        let (mut codes, mut addresses, mut pubkeys) = (
            out("codes", codes, Some(n))?,
            out("addresses", addresses, Some(20 * n))?,
            out("pubkeys", pubkeys, Some(64 * n))?,
        );
        let (hc, sc) = (h.column(), s.column());
        let (codes, addresses, pubkeys) = (codes.bytes_mut(), addresses.bytes_mut(), pubkeys.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::ecrecover(e, low_s, &hc, &sc).map_err(|e| raise(op, e))?.output;
            if got.len() != n {
                return Err(count_error(op, got.len(), n));
            }
            for (i, r) in got.iter().enumerate() {
                let (address, pubkey, code) = match r {
                    Ok(k) => (k.address, k.pubkey, 0),
                    Err(reason) => ([0; 20], [0; 64], reason.number()),
                };
                codes[i] = code;
                addresses[20 * i..20 * (i + 1)].copy_from_slice(&address);
                pubkeys[64 * i..64 * (i + 1)].copy_from_slice(&pubkey);
            }
            Ok(())
        })
    }

    fn hash(&self, py: Python<'_>, alg: &str, msgs: &Bound<'_, PyAny>, digests: &Bound<'_, PyAny>) -> PyResult<()> {
        let op = "hash";
        let alg: hash::Alg = alg
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{op}: alg: {e}")))?;
        let m = Col::get("msgs", msgs)?;
        let mut digests = out("digests", digests, None)?;
        let (mc, dst) = (m.column(), digests.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::hash(e, alg, &mc).map_err(|e| raise(op, e))?.output;
            if got.len() * hash::DIGEST_LEN != dst.len() {
                return Err(count_error(op, got.len(), dst.len() / hash::DIGEST_LEN));
            }
            for (o, d) in dst.chunks_exact_mut(hash::DIGEST_LEN).zip(&got) {
                o.copy_from_slice(d);
            }
            Ok(())
        })
    }

    /// Groth16 over BN254 under the key `vk` (its EIP-197 bytes): per
    /// item 0 or the reason.
    fn verify_groth16(
        &self,
        py: Python<'_>,
        vk: &[u8],
        items: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let items = Col::get("items", items)?;
        let mut codes = out("codes", codes, None)?;
        let (ic, dst) = (items.column(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| write_verdicts("verify_groth16", flat::verify_groth16(e, vk, &ic), dst))
    }

    /// Merkle inclusion proofs under `rule` (`depth`: the siblings each
    /// must have): per item 0 or the reason.
    #[pyo3(signature = (rule, depth, items, codes))]
    fn verify_merkle_proofs(
        &self,
        py: Python<'_>,
        rule: &str,
        depth: Option<u32>,
        items: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "verify_merkle_proofs";
        let rule: merkle::Rule = rule
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{op}: rule: {e}")))?;
        let items = Col::get("items", items)?;
        let mut codes = out("codes", codes, None)?;
        let (ic, dst) = (items.column(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| write_verdicts(op, flat::verify_merkle_proofs(e, rule, depth, &ic), dst))
    }

    /// Ethereum Merkle-Patricia trie proofs: per item 0 or the reason.
    #[pyo3(signature = (items, codes))]
    fn verify_mpt_proofs(&self, py: Python<'_>, items: &Bound<'_, PyAny>, codes: &Bound<'_, PyAny>) -> PyResult<()> {
        let items = Col::get("items", items)?;
        let mut codes = out("codes", codes, None)?;
        let (ic, dst) = (items.column(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| write_verdicts("verify_mpt_proofs", flat::verify_mpt_proofs(e, &ic), dst))
    }

    /// Solana transactions (wire bytes) under `policy`: per item 0 or the
    /// reason.
    #[pyo3(signature = (txs, codes, policy))]
    fn verify_solana_txs(
        &self,
        py: Python<'_>,
        txs: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
        policy: &str,
    ) -> PyResult<()> {
        let op = "verify_solana_txs";
        let policy: ed25519::Policy = policy
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{op}: policy: {e}")))?;
        let txs = Col::get("txs", txs)?;
        let mut codes = out("codes", codes, None)?;
        let (tc, dst) = (txs.column(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| write_verdicts(op, flat::verify_solana_txs(e, policy, &tc), dst))
    }

    /// Groth16 over BLS12-381 under the key `vk` (either form): per item
    /// 0 or the reason.
    fn verify_groth16_bls12_381(
        &self,
        py: Python<'_>,
        vk: &[u8],
        items: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let items = Col::get("items", items)?;
        let mut codes = out("codes", codes, None)?;
        let (ic, dst) = (items.column(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            write_verdicts(
                "verify_groth16_bls12_381",
                flat::verify_groth16_bls12_381(e, vk, &ic),
                dst,
            )
        })
    }

    /// Poseidon over BN254's scalar field (circom's parameters): the
    /// 32-byte hashes and per item 0 or the reason.
    fn poseidon_bn254(
        &self,
        py: Python<'_>,
        items: &Bound<'_, PyAny>,
        hashes: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "poseidon_bn254";
        let items = Col::get("items", items)?;
        let n = codes.len()?;
        let (mut codes, mut hashes) = (
            out("codes", codes, Some(n))?,
            out("hashes", hashes, Some(poseidon::ELEMENT_LEN * n))?,
        );
        let ic = items.column();
        let (codes, hashes) = (codes.bytes_mut(), hashes.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::poseidon_bn254(e, &ic).map_err(|e| raise(op, e))?.output;
            write_rows(
                op,
                got,
                codes,
                &mut [(hashes, poseidon::ELEMENT_LEN, &|h: &poseidon::Hash| &h[..])],
            )
        })
    }

    /// The roots of Ethereum's ordered tries: the 32-byte roots and per
    /// item 0 or the reason.
    fn ordered_trie_roots(
        &self,
        py: Python<'_>,
        items: &Bound<'_, PyAny>,
        roots: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "ordered_trie_roots";
        let items = Col::get("items", items)?;
        let n = codes.len()?;
        let (mut codes, mut roots) = (
            out("codes", codes, Some(n))?,
            out("roots", roots, Some(hash::DIGEST_LEN * n))?,
        );
        let ic = items.column();
        let (codes, roots) = (codes.bytes_mut(), roots.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::ordered_trie_roots(e, &ic).map_err(|e| raise(op, e))?.output;
            write_rows(
                op,
                got,
                codes,
                &mut [(roots, hash::DIGEST_LEN, &|r: &hash::Digest| &r[..])],
            )
        })
    }

    /// Blocks' receipts checked: per item its trie's root (32 bytes) and
    /// its blooms' union (256; zeros where refused), 0 or the reason, and
    /// the index of the receipt refused (4 bytes little-endian,
    /// `u32::MAX` where none is named).
    fn receipts_roots(
        &self,
        py: Python<'_>,
        items: &Bound<'_, PyAny>,
        roots: &Bound<'_, PyAny>,
        blooms: &Bound<'_, PyAny>,
        failed: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "receipts_roots";
        let items = Col::get("items", items)?;
        let n = codes.len()?;
        let (mut codes, mut roots, mut blooms, mut failed) = (
            out("codes", codes, Some(n))?,
            out("roots", roots, Some(hash::DIGEST_LEN * n))?,
            out("blooms", blooms, Some(receipts::BLOOM_BYTES * n))?,
            out("failed", failed, Some(4 * n))?,
        );
        let ic = items.column();
        let (codes, roots, blooms, failed) = (
            codes.bytes_mut(),
            roots.bytes_mut(),
            blooms.bytes_mut(),
            failed.bytes_mut(),
        );
        let e = &self.engine;
        py.detach(|| {
            let got = flat::receipts_roots(e, &ic).map_err(|e| raise(op, e))?.output;
            flat::write_receipts(&got, codes, roots, blooms, failed)
                .map_err(|e| PyRuntimeError::new_err(format!("{op}: {e}")))
        })
    }

    /// The authorities of EIP-7702 authorizations: per item its 20-byte
    /// address (zeros where refused) and 0 or the reason.
    fn eip7702_authorities(
        &self,
        py: Python<'_>,
        auths: &Bound<'_, PyAny>,
        authorities: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let outs = ("authorities", authorities, codes);
        self.address_rows(
            py,
            "eip7702_authorities",
            ("auths", auths),
            outs,
            flat::eip7702_authorities,
        )
    }

    /// The senders of Ethereum transactions: per item its 20-byte address
    /// (zeros where refused) and 0 or the reason.
    fn tx_senders(
        &self,
        py: Python<'_>,
        txs: &Bound<'_, PyAny>,
        senders: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.address_rows(
            py,
            "tx_senders",
            ("txs", txs),
            ("senders", senders, codes),
            flat::tx_senders,
        )
    }

    /// Whole blocks checked against their own headers: per block 0 or the
    /// reason, the first field that does not match (0 none, 1 ommersHash,
    /// 2 transactionsRoot, 3 withdrawalsRoot), the number (u64
    /// little-endian) and the hash; zeros where the block is malformed.
    /// With `failed`, also the senders of the transactions of the blocks
    /// that hold to their headers: per block its senders back to back (20
    /// bytes each), or `None` (the block does not hold, or a transaction
    /// has no sender: then its code is that transaction's reason and
    /// `failed` its index, 4 bytes little-endian, `u32::MAX` elsewhere);
    /// without, `None`.
    #[pyo3(signature = (blocks, codes, fields, numbers, hashes, failed=None))]
    #[allow(clippy::too_many_arguments)]
    fn verify_blocks(
        &self,
        py: Python<'_>,
        blocks: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
        fields: &Bound<'_, PyAny>,
        numbers: &Bound<'_, PyAny>,
        hashes: &Bound<'_, PyAny>,
        failed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Vec<Option<Vec<u8>>>>> {
        let op = "verify_blocks";
        let blocks = Col::get("blocks", blocks)?;
        let n = codes.len()?;
        let (mut codes, mut fields, mut numbers, mut hashes) = (
            out("codes", codes, Some(n))?,
            out("fields", fields, Some(n))?,
            out("numbers", numbers, Some(8 * n))?,
            out("hashes", hashes, Some(hash::DIGEST_LEN * n))?,
        );
        let mut failed = failed.map(|f| out("failed", f, Some(4 * n))).transpose()?;
        let bc = blocks.column();
        let (codes, fields, numbers, hashes) = (
            codes.bytes_mut(),
            fields.bytes_mut(),
            numbers.bytes_mut(),
            hashes.bytes_mut(),
        );
        let failed = failed.as_mut().map(|f| f.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let Some(failed) = failed else {
                let got = flat::verify_blocks(e, &bc).map_err(|e| raise(op, e))?.output;
                return flat::write_blocks(&got, codes, fields, numbers, hashes)
                    .map(|()| None)
                    .map_err(|e| PyRuntimeError::new_err(format!("{op}: {e}")));
            };
            let got = flat::verify_blocks_with_senders(e, &bc)
                .map_err(|e| raise(op, e))?
                .output;
            let (checked, senders): (Vec<_>, Vec<_>) = got.into_iter().unzip();
            flat::write_blocks(&checked, codes, fields, numbers, hashes)
                .map_err(|e| PyRuntimeError::new_err(format!("{op}: {e}")))?;
            let mut lists = Vec::with_capacity(n);
            for (i, s) in senders.into_iter().enumerate() {
                let mut index = u32::MAX;
                lists.push(match s {
                    Some(Ok(senders)) => Some(senders.concat()),
                    Some(Err((tx, reason))) => {
                        codes[i] = reason.number();
                        index = u32::try_from(tx).unwrap_or(u32::MAX - 1);
                        None
                    }
                    None => None,
                });
                failed[4 * i..4 * (i + 1)].copy_from_slice(&index.to_le_bytes());
            }
            Ok(Some(lists))
        })
    }

    /// Whole Bitcoin blocks checked against their own headers under
    /// `network`'s parameters: per block 0 or the reason, the commitment a
    /// root_mismatch names (0 none, 1 merkleRoot, 2 witnessCommitment),
    /// the height its coinbase states (u32 little-endian, u32::MAX where
    /// none) and the hash (as hashed); zeros where the block is malformed.
    #[pyo3(signature = (blocks, codes, fields, heights, hashes, network))]
    #[allow(clippy::too_many_arguments)]
    fn verify_bitcoin_blocks(
        &self,
        py: Python<'_>,
        blocks: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
        fields: &Bound<'_, PyAny>,
        heights: &Bound<'_, PyAny>,
        hashes: &Bound<'_, PyAny>,
        network: &str,
    ) -> PyResult<()> {
        let op = "verify_bitcoin_blocks";
        let network: merkle::block::Network = network
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{op}: network: {e}")))?;
        let blocks = Col::get("blocks", blocks)?;
        let n = codes.len()?;
        let (mut codes, mut fields, mut heights, mut hashes) = (
            out("codes", codes, Some(n))?,
            out("fields", fields, Some(n))?,
            out("heights", heights, Some(4 * n))?,
            out("hashes", hashes, Some(hash::DIGEST_LEN * n))?,
        );
        let bc = blocks.column();
        let (codes, fields, heights, hashes) = (
            codes.bytes_mut(),
            fields.bytes_mut(),
            heights.bytes_mut(),
            hashes.bytes_mut(),
        );
        let e = &self.engine;
        py.detach(|| {
            let got = flat::verify_bitcoin_blocks(e, network, &bc)
                .map_err(|e| raise(op, e))?
                .output;
            flat::write_bitcoin_blocks(&got, codes, fields, heights, hashes)
                .map_err(|e| PyRuntimeError::new_err(format!("{op}: {e}")))
        })
    }

    /// The root; with `depth`, a padded tree's (`zero` its missing leaves,
    /// 32 zero bytes by default).
    #[pyo3(signature = (rule, leaves, depth=None, zero=None))]
    fn merkle_root(
        &self,
        py: Python<'_>,
        rule: &str,
        leaves: &Bound<'_, PyAny>,
        depth: Option<u32>,
        zero: Option<Vec<u8>>,
    ) -> PyResult<Vec<u8>> {
        let op = "merkle_root";
        let rule: merkle::Rule = rule
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{op}: rule: {e}")))?;
        let padding = match (depth, zero) {
            (None, None) => None,
            (None, Some(_)) => return Err(PyValueError::new_err(format!("{op}: zero: needs a depth"))),
            (Some(depth), zero) => {
                let zero = match zero {
                    None => [0u8; 32],
                    Some(z) => z.try_into().map_err(|z: Vec<u8>| {
                        PyValueError::new_err(format!("{op}: zero: {} bytes, expected 32", z.len()))
                    })?,
                };
                Some(merkle::Padding { depth, zero })
            }
        };
        let l = Col::get("leaves", leaves)?;
        let lc = l.column();
        let e = &self.engine;
        py.detach(|| {
            match &padding {
                Some(p) => flat::merkle_root_padded(e, rule, &lc, p),
                None => flat::merkle_root(e, rule, &lc),
            }
            .map(|o| o.output.to_vec())
            .map_err(|e| raise(op, e))
        })
    }

    /// One call per input of an EVM precompile (its CLI name, or
    /// `eip2537-pairing`): the outputs (empty where a call fails) and
    /// per call 0 or the failure's number.
    fn evm(
        &self,
        py: Python<'_>,
        precompile: &str,
        inputs: &Bound<'_, PyAny>,
        errors: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Py<PyBytes>>> {
        let op = "evm";
        let i = Col::get("inputs", inputs)?;
        let mut errors = out("errors", errors, None)?;
        let (ic, dst) = (i.column(), errors.bytes_mut());
        let e = &self.engine;
        let call: flat::EvmCall = parse(op, "precompile", precompile)?;
        let got = py
            .detach(|| flat::evm_call(e, call, &ic))
            .map_err(|e| raise(op, e))?
            .output;
        if got.len() != dst.len() {
            return Err(count_error(op, got.len(), dst.len()));
        }
        Ok(got
            .into_iter()
            .zip(dst.iter_mut())
            .map(|(r, code)| {
                *code = r.as_ref().err().map_or(0, |failure| failure.number());
                PyBytes::new(py, r.as_deref().unwrap_or_default()).unbind()
            })
            .collect())
    }

    /// ML-KEM key generation from the seeds `d` and `z`.
    #[allow(clippy::too_many_arguments)]
    fn mlkem_keygen(
        &self,
        py: Python<'_>,
        set: u16,
        ds: &Bound<'_, PyAny>,
        zs: &Bound<'_, PyAny>,
        eks: &Bound<'_, PyAny>,
        dks: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "mlkem_keygen";
        let set = mlkem_set(op, set)?;
        let (d, z) = (Col::get("ds", ds)?, Col::get("zs", zs)?);
        let n = codes.len()?;
        let (mut codes, mut eks, mut dks) = (
            out("codes", codes, Some(n))?,
            out("eks", eks, Some(set.ek_len() * n))?,
            out("dks", dks, Some(set.dk_len() * n))?,
        );
        let (dc, zc) = (d.column(), z.column());
        let (codes, eks, dks) = (codes.bytes_mut(), eks.bytes_mut(), dks.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::mlkem_keygen(e, set, &dc, &zc).map_err(|e| raise(op, e))?.output;
            write_rows(
                op,
                got,
                codes,
                &mut [
                    (eks, set.ek_len(), &|k: &mlkem::KeyPair| &k.ek[..]),
                    (dks, set.dk_len(), &|k: &mlkem::KeyPair| &k.dk[..]),
                ],
            )
        })
    }

    /// ML-KEM encapsulation to `eks`, with the messages `ms` where given.
    #[allow(clippy::too_many_arguments)]
    fn mlkem_encaps(
        &self,
        py: Python<'_>,
        set: u16,
        eks: &Bound<'_, PyAny>,
        ms: Option<&Bound<'_, PyAny>>,
        cts: &Bound<'_, PyAny>,
        secrets: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "mlkem_encaps";
        let set = mlkem_set(op, set)?;
        let k = Col::get("eks", eks)?;
        let m = ms.map(|m| Col::get("ms", m)).transpose()?;
        let n = codes.len()?;
        let (mut codes, mut cts, mut secrets) = (
            out("codes", codes, Some(n))?,
            out("cts", cts, Some(set.ct_len() * n))?,
            out("secrets", secrets, Some(mlkem::SHARED_LEN * n))?,
        );
        let (kc, mc) = (k.column(), m.as_ref().map(Col::column));
        let (codes, cts, secrets) = (codes.bytes_mut(), cts.bytes_mut(), secrets.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::mlkem_encaps(e, set, &kc, mc.as_ref())
                .map_err(|e| raise(op, e))?
                .output;
            write_rows(
                op,
                got,
                codes,
                &mut [
                    (cts, set.ct_len(), &|c: &mlkem::Encapsulated| &c.ct[..]),
                    (secrets, mlkem::SHARED_LEN, &|c: &mlkem::Encapsulated| &c.ss[..]),
                ],
            )
        })
    }

    /// ML-KEM decapsulation of `cts` with `dks`.
    #[allow(clippy::too_many_arguments)]
    fn mlkem_decaps(
        &self,
        py: Python<'_>,
        set: u16,
        dks: &Bound<'_, PyAny>,
        cts: &Bound<'_, PyAny>,
        secrets: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "mlkem_decaps";
        let set = mlkem_set(op, set)?;
        let (k, c) = (Col::get("dks", dks)?, Col::get("cts", cts)?);
        let n = codes.len()?;
        let (mut codes, mut secrets) = (
            out("codes", codes, Some(n))?,
            out("secrets", secrets, Some(mlkem::SHARED_LEN * n))?,
        );
        let (kc, cc) = (k.column(), c.column());
        let (codes, secrets) = (codes.bytes_mut(), secrets.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::mlkem_decaps(e, set, &kc, &cc).map_err(|e| raise(op, e))?.output;
            write_rows(
                op,
                got,
                codes,
                &mut [(secrets, mlkem::SHARED_LEN, &|s: &mlkem::SharedSecret| &s[..])],
            )
        })
    }

    /// EIP-7594 cell proofs: `indices` native-endian u64s, one per item.
    fn verify_kzg_cells(
        &self,
        py: Python<'_>,
        commitments: &Bound<'_, PyAny>,
        indices: &Bound<'_, PyAny>,
        cells: &Bound<'_, PyAny>,
        proofs: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let indices = positions("indices", indices)?;
        let e = &self.engine;
        signed(
            py,
            "verify_kzg_cells",
            [("commitments", commitments), ("cells", cells), ("proofs", proofs)],
            codes,
            |c, x, p| flat::verify_kzg_cells(e, c, &indices, x, p),
        )
    }

    /// EIP-7594: each blob's commitment, cells and proofs.
    fn kzg_compute_cells(
        &self,
        py: Python<'_>,
        blobs: &Bound<'_, PyAny>,
        commitments: &Bound<'_, PyAny>,
        cells: &Bound<'_, PyAny>,
        proofs: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "kzg_compute_cells";
        let blobs = Col::get("blobs", blobs)?;
        let n = codes.len()?;
        let (mut codes, mut commitments, mut cells, mut proofs) = (
            out("codes", codes, Some(n))?,
            out("commitments", commitments, Some(kzg::POINT_LEN * n))?,
            out("cells", cells, Some(kzg::EXTENDED_CELLS_LEN * n))?,
            out("proofs", proofs, Some(kzg::EXTENDED_PROOFS_LEN * n))?,
        );
        let bc = blobs.column();
        let (codes, commitments, cells, proofs) = (
            codes.bytes_mut(),
            commitments.bytes_mut(),
            cells.bytes_mut(),
            proofs.bytes_mut(),
        );
        let e = &self.engine;
        py.detach(|| {
            let got = flat::kzg_compute_cells(e, &bc).map_err(|e| raise(op, e))?.output;
            write_rows(op, got, codes, &mut flat::blob_cells_rows(commitments, cells, proofs))
        })
    }

    /// EIP-7594 cell recovery: item `i` is the cells
    /// `cells[groups[i]..groups[i + 1]]` with the same run of `indices`
    /// (native-endian u64s).
    #[allow(clippy::too_many_arguments)]
    fn kzg_recover_cells(
        &self,
        py: Python<'_>,
        groups: &Bound<'_, PyAny>,
        indices: &Bound<'_, PyAny>,
        cells: &Bound<'_, PyAny>,
        out_cells: &Bound<'_, PyAny>,
        proofs: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "kzg_recover_cells";
        let (groups, indices) = (positions("groups", groups)?, positions("indices", indices)?);
        let cells = Col::get("cells", cells)?;
        let n = codes.len()?;
        let (mut codes, mut out_cells, mut proofs) = (
            out("codes", codes, Some(n))?,
            out("out_cells", out_cells, Some(kzg::EXTENDED_CELLS_LEN * n))?,
            out("proofs", proofs, Some(kzg::EXTENDED_PROOFS_LEN * n))?,
        );
        let cc = cells.column();
        let (codes, out_cells, proofs) = (codes.bytes_mut(), out_cells.bytes_mut(), proofs.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = flat::kzg_recover_cells(e, &groups, &indices, &cc)
                .map_err(|e| raise(op, e))?
                .output;
            write_rows(op, got, codes, &mut flat::extended_rows(out_cells, proofs))
        })
    }

    /// BLS aggregate (`fast`: one message per item) verification: item
    /// `i`'s keys are `pks[groups[i]..groups[i + 1]]`.
    #[allow(clippy::too_many_arguments)]
    fn verify_bls_aggregate(
        &self,
        py: Python<'_>,
        fast: bool,
        pks: &Bound<'_, PyAny>,
        groups: &Bound<'_, PyAny>,
        msgs: &Bound<'_, PyAny>,
        sigs: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = if fast {
            "verify_bls_fast_aggregate"
        } else {
            "verify_bls_aggregate"
        };
        let groups = positions("groups", groups)?;
        let e = &self.engine;
        signed(
            py,
            op,
            [("pks", pks), ("msgs", msgs), ("sigs", sigs)],
            codes,
            |p, m, s| {
                if fast {
                    flat::bls_fast_aggregate_verify(e, p, &groups, m, s)
                } else {
                    flat::bls_aggregate_verify(e, p, m, &groups, s)
                }
            },
        )
    }

    /// The NTT of every polynomial of the column `polys` (2^log_n elements
    /// each) into `values`, and per polynomial 0 or the reason's number.
    #[allow(clippy::too_many_arguments)]
    fn ntt(
        &self,
        py: Python<'_>,
        field: &str,
        log_n: u32,
        inverse: bool,
        orders: (&str, &str),
        coset: Option<Vec<u8>>,
        modulus: Option<u64>,
        polys: &Bound<'_, PyAny>,
        values: &Bound<'_, PyAny>,
        codes: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let op = "ntt";
        let transform = ntt::Transform {
            field: parse(op, "field", field)?,
            log_n,
            direction: if inverse {
                ntt::Direction::Inverse
            } else {
                ntt::Direction::Forward
            },
            input_order: parse(op, "input_order", orders.0)?,
            output_order: parse(op, "output_order", orders.1)?,
            coset,
            modulus,
        };
        let p = Col::get("polys", polys)?;
        let n = codes.len()?;
        let width = transform.poly_bytes();
        let (mut values, mut codes) = (out("values", values, None)?, out("codes", codes, Some(n))?);
        let (pc, values, codes) = (p.column(), values.bytes_mut(), codes.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            // Every polynomial's length is checked here first (an error
            // naming it), then the array made for them.
            let got = flat::ntt(e, &transform, &pc).map_err(|e| raise(op, e))?.output;
            if values.len() != width * n {
                return Err(PyValueError::new_err(format!(
                    "{op}: values: {} bytes, expected {}",
                    values.len(),
                    width * n
                )));
            }
            write_rows(op, got, codes, &mut [(values, width, &|v: &Vec<u8>| &v[..])])
        })
    }

    /// The multi-scalar multiplication of `points` (in `encoding`) by
    /// `scalars` (32 bytes little-endian each): the sum's bytes, or the
    /// first bad point's reason number.
    fn msm(
        &self,
        py: Python<'_>,
        curve: &str,
        encoding: &str,
        points: &Bound<'_, PyAny>,
        scalars: &Bound<'_, PyAny>,
    ) -> PyResult<(Py<PyBytes>, u8)> {
        let op = "msm";
        let curve: msm::Curve = parse(op, "curve", curve)?;
        let encoding: msm::Encoding = parse(op, "encoding", encoding)?;
        let (p, s) = (buffer("points", points, false)?, buffer("scalars", scalars, false)?);
        let (pb, sb) = (bytes(&p), bytes(&s));
        let e = &self.engine;
        let got = py
            .detach(|| e.msm(curve, encoding, pb, sb))
            .map_err(|e| raise(op, e))?
            .output;
        let code = got.as_ref().err().map_or(0, |reason| reason.number());
        Ok((PyBytes::new(py, got.as_deref().unwrap_or_default()).unbind(), code))
    }

    /// `points` (in `encoding`) decoded and checked once for many sums
    /// ([`Engine::msm_bases`]); a bad point raises, naming it and its
    /// reason.
    fn msm_bases(
        &self,
        py: Python<'_>,
        curve: &str,
        encoding: &str,
        points: &Bound<'_, PyAny>,
    ) -> PyResult<NativeBases> {
        let op = "msm_bases";
        let curve: msm::Curve = parse(op, "curve", curve)?;
        let encoding: msm::Encoding = parse(op, "encoding", encoding)?;
        let p = buffer("points", points, false)?;
        let pb = bytes(&p);
        let e = &self.engine;
        let bases = py
            .detach(|| e.msm_bases(curve, encoding, pb))
            .map_err(|e| raise(op, e))?;
        Ok(NativeBases { bases })
    }

    /// The sum over `bases` by `scalars` (32 bytes little-endian each, one
    /// per point given), in the bases' encoding ([`Engine::msm_with`]).
    fn msm_with(&self, py: Python<'_>, bases: &NativeBases, scalars: &Bound<'_, PyAny>) -> PyResult<Py<PyBytes>> {
        let s = buffer("scalars", scalars, false)?;
        let sb = bytes(&s);
        let (e, b) = (&self.engine, &bases.bases);
        let got = py.detach(|| e.msm_with(b, sb)).map_err(|e| raise("msm_with", e))?;
        Ok(PyBytes::new(py, &got.output).unbind())
    }
}

/// Points checked once for many sums over them (on a GPU engine uploaded
/// at the first sum and kept on the device).
#[pyclass(frozen, module = "batchcrypto._native")]
struct NativeBases {
    bases: msm::Bases,
}

#[pymethods]
impl NativeBases {
    /// Points given (the scalars a sum needs).
    fn __len__(&self) -> usize {
        self.bases.len()
    }

    /// The group's name.
    #[getter]
    fn curve(&self) -> &'static str {
        self.bases.curve().name()
    }
}

/// Reads native-endian u64s (positions, indices) from a buffer.
fn positions(name: &str, obj: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let buf = buffer(name, obj, false)?;
    let raw = bytes(&buf);
    if !raw.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(format!("{name}: not u64s")));
    }
    Ok(raw
        .chunks_exact(8)
        .map(|c| u64::from_ne_bytes(c.try_into().unwrap_or_default()))
        .collect())
}

/// Writes per item its code and its rows ([`flat::write_rows`]).
fn write_rows<T>(
    op: &str,
    got: Vec<Result<T, Reason>>,
    codes: &mut [u8],
    outs: &mut [flat::Rows<'_, T>],
) -> PyResult<()> {
    flat::write_rows(&got, codes, outs).map_err(|e| PyRuntimeError::new_err(format!("{op}: {e}")))
}

fn parse<T: std::str::FromStr>(op: &str, what: &str, value: &str) -> PyResult<T>
where
    T::Err: std::fmt::Display,
{
    value
        .parse()
        .map_err(|e| PyValueError::new_err(format!("{op}: {what}: {e}")))
}

fn mlkem_set(op: &str, bits: u16) -> PyResult<mlkem::Set> {
    mlkem::Set::from_bits(bits)
        .ok_or_else(|| PyValueError::new_err(format!("{op}: set: {bits} (expected 512, 768 or 1024)")))
}

/// The byte lengths of an ML-KEM set (512, 768, 1024): `(ek, dk, ct,
/// shared secret)`; `op` names the calling operation in errors.
#[pyfunction]
fn mlkem_lengths(op: &str, set: u16) -> PyResult<(usize, usize, usize, usize)> {
    let set = mlkem_set(op, set)?;
    Ok((set.ek_len(), set.dk_len(), set.ct_len(), mlkem::SHARED_LEN))
}

/// Every precompile failure as `(number, code)`.
#[pyfunction]
fn precompile_error_names() -> Vec<(u8, &'static str)> {
    evm::PrecompileError::ALL
        .iter()
        .map(|e| (e.number(), e.code()))
        .collect()
}

/// snarkjs's `verification_key.json` as the key's EIP-197 bytes.
#[pyfunction]
fn groth16_key_from_snarkjs(py: Python<'_>, json: &str) -> PyResult<Py<PyBytes>> {
    let bytes = groth16::snarkjs::verifying_key(json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// snarkjs's `verification_key.json` for BLS12-381 as the key's
/// compressed form.
#[pyfunction]
fn groth16_bls12_381_key_from_snarkjs(py: Python<'_>, json: &str) -> PyResult<Py<PyBytes>> {
    let bytes = groth16::bls12_381::snarkjs::verifying_key(json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// snarkjs's BLS12-381 proof object and public inputs (both as JSON
/// text) as an item's bytes.
#[pyfunction]
fn groth16_bls12_381_item_from_snarkjs(py: Python<'_>, proof: &str, public: &str) -> PyResult<Py<PyBytes>> {
    let bytes =
        groth16::bls12_381::snarkjs::item_from_text(proof, public).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// snarkjs's proof object and public inputs (both as JSON text) as an
/// item's bytes.
#[pyfunction]
fn groth16_item_from_snarkjs(py: Python<'_>, proof: &str, public: &str) -> PyResult<Py<PyBytes>> {
    let bytes = groth16::snarkjs::item_from_text(proof, public).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyBytes::new(py, &bytes).unbind())
}

/// A fixed-length argument's bytes, or a ValueError naming it.
fn fixed<const N: usize>(op: &str, name: &str, bytes: &[u8]) -> PyResult<[u8; N]> {
    bytes
        .try_into()
        .map_err(|_| PyValueError::new_err(format!("{op}: {name}: {} bytes, expected {N}", bytes.len())))
}

/// An `eth_getProof` account proof as an item of `verify_mpt_proofs`
/// (`mpt::eth::account_item`: the key hashed, the account RLP-encoded,
/// absence for an empty account).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn eth_account_item(
    py: Python<'_>,
    state_root: &[u8],
    address: &[u8],
    nonce: u64,
    balance: &[u8],
    storage_hash: &[u8],
    code_hash: &[u8],
    nodes: Vec<Vec<u8>>,
) -> PyResult<Py<PyBytes>> {
    let op = "eth_account_item";
    let account = mpt::eth::Account {
        nonce,
        balance: fixed(op, "balance", balance)?,
        storage_root: fixed(op, "storage_hash", storage_hash)?,
        code_hash: fixed(op, "code_hash", code_hash)?,
    };
    let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
    let item = mpt::eth::account_item(
        &fixed(op, "state_root", state_root)?,
        &fixed(op, "address", address)?,
        &account,
        &nodes,
    )
    .ok_or_else(|| PyValueError::new_err(format!("{op}: {} nodes, at most {}", nodes.len(), mpt::MAX_NODES)))?;
    Ok(PyBytes::new(py, &item).unbind())
}

/// An `eth_getProof` storage proof as an item of `verify_mpt_proofs`
/// (`mpt::eth::storage_item`: the slot hashed, the value RLP-encoded,
/// absence for 0).
#[pyfunction]
fn eth_storage_item(
    py: Python<'_>,
    storage_root: &[u8],
    slot: &[u8],
    value: &[u8],
    nodes: Vec<Vec<u8>>,
) -> PyResult<Py<PyBytes>> {
    let op = "eth_storage_item";
    let nodes: Vec<&[u8]> = nodes.iter().map(Vec::as_slice).collect();
    let item = mpt::eth::storage_item(
        &fixed(op, "storage_root", storage_root)?,
        &fixed(op, "slot", slot)?,
        &fixed(op, "value", value)?,
        &nodes,
    )
    .ok_or_else(|| PyValueError::new_err(format!("{op}: {} nodes, at most {}", nodes.len(), mpt::MAX_NODES)))?;
    Ok(PyBytes::new(py, &item).unbind())
}

/// The flat API's call answering a column with a 20-byte address per item.
type AddressCall = fn(&Engine, &flat::Column<'_>) -> Result<Outcome<Vec<Result<[u8; 20], Reason>>>, Error>;

impl NativeEngine {
    /// `call` on the column `items` (its name, the object): each item's
    /// address into the array `outs.1` (named `outs.0`; zeros where
    /// refused), 0 or its reason into `outs.2`.
    fn address_rows(
        &self,
        py: Python<'_>,
        op: &str,
        items: (&'static str, &Bound<'_, PyAny>),
        outs: (&'static str, &Bound<'_, PyAny>, &Bound<'_, PyAny>),
        call: AddressCall,
    ) -> PyResult<()> {
        let items = Col::get(items.0, items.1)?;
        let n = outs.2.len()?;
        let (mut codes, mut addresses) = (out("codes", outs.2, Some(n))?, out(outs.0, outs.1, Some(20 * n))?);
        let column = items.column();
        let (codes, addresses) = (codes.bytes_mut(), addresses.bytes_mut());
        let e = &self.engine;
        py.detach(|| {
            let got = call(e, &column).map_err(|e| raise(op, e))?.output;
            write_rows(op, got, codes, &mut [(addresses, 20, &|a: &[u8; 20]| &a[..])])
        })
    }
}

/// A signed EIP-7702 authorization's RLP from its fields (the chain id, r
/// and s 32 bytes big-endian; `authority::encode`).
#[pyfunction]
fn eip7702_authorization_item(
    py: Python<'_>,
    chain_id: &[u8],
    address: &[u8],
    nonce: u64,
    y_parity: u8,
    r: &[u8],
    s: &[u8],
) -> PyResult<Py<PyBytes>> {
    let op = "eip7702_authorization";
    let item = authority::encode(
        &fixed(op, "chain_id", chain_id)?,
        &fixed(op, "address", address)?,
        nonce,
        y_parity,
        &fixed(op, "r", r)?,
        &fixed(op, "s", s)?,
    );
    Ok(PyBytes::new(py, &item).unbind())
}

/// A receipt's EIP-2718 bytes from its RPC object as JSON text
/// (`receipts::from_rpc`), or `ValueError` naming the field.
#[pyfunction]
fn receipt_from_rpc(py: Python<'_>, json: &str) -> PyResult<Py<PyBytes>> {
    let receipt = receipts::from_rpc_json(json).map_err(|e| PyValueError::new_err(format!("receipt: {e}")))?;
    Ok(PyBytes::new(py, &receipts::encode(&receipt)).unbind())
}

/// Every reason as `(number, code)`: the name table of the verdict arrays.
#[pyfunction]
fn reason_names() -> Vec<(u8, &'static str)> {
    Reason::ALL.iter().map(|r| (r.number(), r.code())).collect()
}

/// The GPU runtime compiled in: wgpu with the `wgpu` feature (the
/// default), none without it (the CPU only; asking for the GPU is an error
/// that says so).
const GPU_RUNTIME: Option<&str> = if cfg!(feature = "wgpu") { Some("wgpu") } else { None };

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<NativeEngine>()?;
    m.add_class::<NativeBases>()?;
    m.add_function(wrap_pyfunction!(reason_names, m)?)?;
    m.add_function(wrap_pyfunction!(precompile_error_names, m)?)?;
    m.add_function(wrap_pyfunction!(mlkem_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(groth16_key_from_snarkjs, m)?)?;
    m.add_function(wrap_pyfunction!(groth16_item_from_snarkjs, m)?)?;
    m.add_function(wrap_pyfunction!(groth16_bls12_381_key_from_snarkjs, m)?)?;
    m.add_function(wrap_pyfunction!(groth16_bls12_381_item_from_snarkjs, m)?)?;
    m.add_function(wrap_pyfunction!(eth_account_item, m)?)?;
    m.add_function(wrap_pyfunction!(eth_storage_item, m)?)?;
    m.add_function(wrap_pyfunction!(eip7702_authorization_item, m)?)?;
    m.add_function(wrap_pyfunction!(receipt_from_rpc, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GPU_RUNTIME", GPU_RUNTIME)?;
    Ok(())
}
