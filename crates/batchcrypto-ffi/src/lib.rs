//! The batchcrypto C ABI: an opaque engine handle and one function per
//! operation over flat buffers, for C, C++, Go (cgo) and anything else
//! that calls C. The header is `include/batchcrypto.h`, generated from
//! this file by cbindgen (a test fails when the committed one is stale;
//! `BATCHCRYPTO_BLESS=1 cargo test -p batchcrypto-ffi --test header`
//! rewrites it).
//!
//! The conventions every function follows (columns, option names,
//! verdict bytes, errors, threads, the safety contract) are written once,
//! for C readers, in the header's preamble (`cbindgen.toml`).
//!
//! The functions are thin: they turn pointers into slices and call
//! `batchcrypto::flat`, where the checks and the batch building live (the
//! Python package calls the same functions).

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use batchcrypto::flat::{self, Column};
use batchcrypto::ops::{
    bls, ed25519, evm, hash, kzg, merkle, mldsa, mlkem, msm, ntt, poseidon, receipts, slhdsa, sr25519,
};
use batchcrypto::{BackendChoice, Engine, Error, Reason};

/// What a call did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BcStatus {
    /// Success: the outputs are written.
    Ok = 0,
    /// A required pointer was NULL.
    NullPointer = 1,
    /// An argument is unusable (a length, an offset, a count, an unknown
    /// option name); nothing was computed.
    InvalidArgument = 2,
    /// The requested backend cannot run here (e.g. `"gpu"` without one).
    Unavailable = 3,
    /// The engine failed for another reason (see [`bc_last_error`]).
    Failed = 4,
    /// A bug: the library panicked; the call was abandoned.
    Panic = 5,
}

/// An engine: a CPU thread pool and, where one is usable, a GPU. Opaque;
/// made by [`bc_engine_new`], freed by [`bc_engine_free`].
pub struct BcEngine(Engine);

/// How [`bc_engine_new`] builds an engine; NULL (or zeroed fields) for the
/// defaults.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct BcEngineOptions {
    /// `"auto"` (the default; per batch, from the calibration profile),
    /// `"cpu"` or `"gpu"`; NULL for `"auto"`.
    pub backend: *const c_char,
    /// CPU threads; 0 for one per logical core.
    pub threads: u32,
    /// Part of the GPU adapter's name to pick; NULL for the first usable.
    pub adapter: *const c_char,
}

/// `n` byte strings in one buffer: either `width` bytes each (`data_len`
/// must be `n * width`), or, with `width` 0, item `i` is
/// `data[offsets[i] .. offsets[i + 1]]` (`n + 1` offsets, non-decreasing,
/// at most `data_len`).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct BcColumn {
    /// The bytes (may be NULL when `data_len` is 0).
    pub data: *const u8,
    /// How many bytes `data` holds.
    pub data_len: usize,
    /// Bytes per item, or 0 when `offsets` delimits the items.
    pub width: usize,
    /// `n + 1` positions in `data` when `width` is 0 (else ignored).
    pub offsets: *const u64,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Why a call failed: a status and its message.
struct Failure(BcStatus, String);

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        let status = match e {
            Error::InvalidInput { .. } | Error::BatchTooLarge { .. } => BcStatus::InvalidArgument,
            Error::BackendUnavailable { .. } => BcStatus::Unavailable,
            _ => BcStatus::Failed,
        };
        Failure(status, e.to_string())
    }
}

fn null(what: &str) -> Failure {
    Failure(BcStatus::NullPointer, format!("{what} is NULL"))
}

fn bad(what: String) -> Failure {
    Failure(BcStatus::InvalidArgument, what)
}

/// Runs `body`, turning its failure or panic into a status and the
/// thread's last error.
fn guard(op: &str, body: impl FnOnce() -> Result<(), Failure>) -> BcStatus {
    let failure = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => return BcStatus::Ok,
        Ok(Err(f)) => f,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Failure(
                BcStatus::Panic,
                format!("internal error (a bug; please report it): {what}"),
            )
        }
    };
    let message = format!("{op}: {}", failure.1).replace('\0', " ");
    LAST_ERROR.with(|e| *e.borrow_mut() = CString::new(message).unwrap_or_default());
    failure.0
}

/// The message of the last failed call on this thread (empty when none
/// failed). The pointer is valid until the next failing call on this
/// thread.
#[unsafe(no_mangle)]
pub extern "C" fn bc_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The library's version, e.g. `"0.1.0"` (a static string).
#[unsafe(no_mangle)]
pub extern "C" fn bc_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The snake_case name of a reason number from a verdict array
/// (`"equation"`, `"small_order_r"`, ...; the CLI's codes), or NULL for 0
/// (valid) and numbers no reason has. A static string.
#[unsafe(no_mangle)]
pub extern "C" fn bc_reason_name(code: u8) -> *const c_char {
    static NAMES: OnceLock<Vec<(u8, CString)>> = OnceLock::new();
    name_of(
        &NAMES,
        || Reason::ALL.iter().map(|r| (r.number(), r.code())).collect(),
        code,
    )
}

/// The static C string of `code` in a table of numbered names made once.
fn name_of(
    table: &'static OnceLock<Vec<(u8, CString)>>,
    names: impl FnOnce() -> Vec<(u8, &'static str)>,
    code: u8,
) -> *const c_char {
    table
        .get_or_init(|| {
            names()
                .into_iter()
                .map(|(n, name)| (n, CString::new(name).unwrap_or_default()))
                .collect()
        })
        .iter()
        .find(|(n, _)| *n == code)
        .map_or(std::ptr::null(), |(_, name)| name.as_ptr())
}

/// A C string argument, `None` when NULL.
///
/// # Safety
/// `s` is NULL or a NUL-terminated string that outlives the call.
unsafe fn text<'a>(what: &str, s: *const c_char) -> Result<Option<&'a str>, Failure> {
    if s.is_null() {
        return Ok(None);
    }
    // SAFETY: non-NULL, and by the caller's contract NUL-terminated.
    let s = unsafe { CStr::from_ptr(s) };
    s.to_str().map(Some).map_err(|_| bad(format!("{what} is not UTF-8")))
}

/// An option name parsed by the library's own parser.
///
/// # Safety
/// As [`text`].
unsafe fn option<T>(what: &str, s: *const c_char, parse: impl FnOnce(&str) -> Result<T, String>) -> Result<T, Failure> {
    // SAFETY: the caller's contract.
    let name = unsafe { text(what, s) }?.ok_or_else(|| null(what))?;
    parse(name).map_err(|e| bad(format!("{what}: {e}")))
}

/// Builds an engine into `*out` (set to NULL on failure).
///
/// # Safety
/// `options` is NULL or points to a valid [`BcEngineOptions`] whose strings
/// are NULL or NUL-terminated; `out` points to writable storage for one
/// pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_engine_new(options: *const BcEngineOptions, out: *mut *mut BcEngine) -> BcStatus {
    guard("bc_engine_new", || {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: `out` is non-NULL and writable by the caller's contract.
        unsafe { *out = std::ptr::null_mut() };
        let mut builder = Engine::builder();
        if !options.is_null() {
            // SAFETY: non-NULL and valid by the caller's contract.
            let o = unsafe { *options };
            // SAFETY: the strings' contract is the caller's.
            if let Some(b) = unsafe { text("options.backend", o.backend) }? {
                builder = builder.backend(
                    b.parse::<BackendChoice>()
                        .map_err(|e| bad(format!("options.backend: {e}")))?,
                );
            }
            if o.threads != 0 {
                builder = builder.threads(o.threads as usize);
            }
            // SAFETY: as above.
            if let Some(a) = unsafe { text("options.adapter", o.adapter) }? {
                builder = builder.adapter(a);
            }
        }
        let engine = builder.build()?;
        // SAFETY: `out` is non-NULL and writable (checked above).
        unsafe { *out = Box::into_raw(Box::new(BcEngine(engine))) };
        Ok(())
    })
}

/// Frees an engine made by [`bc_engine_new`]; NULL is ignored.
///
/// # Safety
/// `engine` is NULL or came from [`bc_engine_new`], is freed once, and no
/// call on it is running or follows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_engine_free(engine: *mut BcEngine) {
    if !engine.is_null() {
        // SAFETY: made by Box::into_raw in bc_engine_new, freed once.
        drop(unsafe { Box::from_raw(engine) });
    }
}

/// The engine behind a handle.
///
/// # Safety
/// `engine` is NULL or a live handle from [`bc_engine_new`].
unsafe fn engine<'a>(engine: *const BcEngine) -> Result<&'a Engine, Failure> {
    // SAFETY: the caller's contract: NULL or live.
    unsafe { engine.as_ref() }.map(|e| &e.0).ok_or_else(|| null("engine"))
}

/// A column of `n` items as the library's [`Column`].
///
/// # Safety
/// `column` is NULL or points to a [`BcColumn`] whose buffers hold what its
/// lengths say and outlive the call.
unsafe fn column<'a>(name: &'static str, column: *const BcColumn, n: usize) -> Result<Column<'a>, Failure> {
    // SAFETY: the caller's contract: NULL or valid.
    let c = unsafe { column.as_ref() }.ok_or_else(|| null(name))?;
    // SAFETY: `data` holds `data_len` bytes by the contract.
    let data = unsafe { bytes(name, c.data, c.data_len) }.map_err(|_| null(&format!("{name}.data")))?;
    if c.width != 0 {
        if n.checked_mul(c.width) != Some(c.data_len) {
            return Err(bad(format!(
                "{name}: {} bytes, expected {n} items of {} bytes",
                c.data_len, c.width
            )));
        }
        return Ok(Column::fixed(name, data, c.width));
    }
    if c.offsets.is_null() {
        if n == 0 && data.is_empty() {
            static NO_ITEMS: [u64; 1] = [0];
            return Ok(Column::offsets(name, data, &NO_ITEMS));
        }
        return Err(null(&format!("{name}.offsets (width 0)")));
    }
    let count = n.checked_add(1).ok_or_else(|| bad(format!("n = {n} is too large")))?;
    // SAFETY: non-NULL and `n + 1` readable offsets by the contract.
    let offsets = unsafe { std::slice::from_raw_parts(c.offsets, count) };
    Ok(Column::offsets(name, data, offsets))
}

/// `n * width` writable bytes at `out`.
///
/// # Safety
/// `out` is NULL or points to at least `len` writable bytes that no one
/// else reads or writes during the call.
unsafe fn output<'a>(name: &str, out: *mut u8, len: usize) -> Result<&'a mut [u8], Failure> {
    if len == 0 {
        return Ok(&mut []);
    }
    if out.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL, `len` writable bytes, exclusively ours.
    Ok(unsafe { std::slice::from_raw_parts_mut(out, len) })
}

/// `len` bytes at `p` (NULL allowed when `len` is 0).
///
/// # Safety
/// `p` is NULL or holds `len` readable bytes for the returned lifetime.
unsafe fn bytes<'a>(what: &str, p: *const u8, len: usize) -> Result<&'a [u8], Failure> {
    match (len, p.is_null()) {
        (0, _) => Ok(&[]),
        (_, true) => Err(null(what)),
        // SAFETY: non-NULL and `len` readable bytes by the contract.
        _ => Ok(unsafe { std::slice::from_raw_parts(p, len) }),
    }
}

/// The sum's output buffer, `out_sum_len` checked to be one point of
/// `curve` in `encoding`.
///
/// # Safety
/// `out_sum` is NULL or holds `out_sum_len` writable bytes for the
/// returned lifetime.
unsafe fn sum_output<'a>(
    curve: msm::Curve,
    encoding: msm::Encoding,
    out_sum: *mut u8,
    out_sum_len: usize,
) -> Result<&'a mut [u8], Failure> {
    let width = curve.encoded_len(encoding);
    if out_sum_len != width {
        return Err(bad(format!(
            "out_sum_len: {out_sum_len}, but a {curve} point {encoding} is {width} bytes"
        )));
    }
    // SAFETY: the contract.
    unsafe { output("out_sum", out_sum, width) }
}

/// `n * width` bytes, checked for overflow.
fn size(n: usize, width: usize) -> Result<usize, Failure> {
    n.checked_mul(width).ok_or_else(|| bad(format!("n = {n} is too large")))
}

/// Writes one verdict byte per item.
fn write_codes(out: &mut [u8], verdicts: &[batchcrypto::Verdict]) {
    for (o, v) in out.iter_mut().zip(verdicts) {
        *o = flat::verdict_code(v);
    }
}

/// The common tail of the signature functions: check the output, run,
/// write one verdict byte per item.
///
/// # Safety
/// `out_codes` as [`output`] with `n` bytes.
unsafe fn verdicts(
    n: usize,
    out_codes: *mut u8,
    run: impl FnOnce() -> Result<batchcrypto::Outcome<Vec<batchcrypto::Verdict>>, Error>,
) -> Result<(), Failure> {
    // SAFETY: the caller's contract.
    let out = unsafe { output("out_codes", out_codes, n) }?;
    let got = run()?;
    if got.output.len() != n {
        return Err(Failure(
            BcStatus::Failed,
            format!("{} answers for {n} items", got.output.len()),
        ));
    }
    write_codes(out, &got.output);
    Ok(())
}

/// Ed25519 under `policy` (`"strict"`: ed25519-dalek's `verify_strict`;
/// `"zip215"`: the ZIP-215 rules): keys of 32 bytes, signatures of 64,
/// messages of any length; one verdict byte per item in `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_ed25519(
    engine: *const BcEngine,
    policy: *const c_char,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_ed25519", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let policy = option("policy", policy, |s| s.parse::<ed25519::Policy>())?;
            let (pks, sigs, msgs) = (
                column("pks", pks, n)?,
                column("sigs", sigs, n)?,
                column("msgs", msgs, n)?,
            );
            verdicts(n, out_codes, || flat::verify_ed25519(e, policy, &pks, &sigs, &msgs))
        }
    })
}

/// BIP-340 Schnorr (libsecp256k1's verdicts): x-only keys of 32 bytes,
/// signatures of 64, messages of any length.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_bip340(
    engine: *const BcEngine,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_bip340", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (pks, sigs, msgs) = (
                column("pks", pks, n)?,
                column("sigs", sigs, n)?,
                column("msgs", msgs, n)?,
            );
            verdicts(n, out_codes, || flat::verify_bip340(e, &pks, &sigs, &msgs))
        }
    })
}

/// sr25519 (schnorrkel's verdicts) under the signing context
/// `ctx[0..ctx_len]` (NULL: Substrate's `"substrate"`): keys of 32 bytes,
/// signatures of 64, messages of any length.
///
/// # Safety
/// The operations' contract (the header's preamble); `ctx` NULL or `ctx_len`
/// readable bytes; `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_sr25519(
    engine: *const BcEngine,
    ctx: *const u8,
    ctx_len: usize,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_sr25519", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let ctx = if ctx.is_null() {
                sr25519::DEFAULT_CONTEXT
            } else {
                std::slice::from_raw_parts(ctx, ctx_len)
            };
            let (pks, sigs, msgs) = (
                column("pks", pks, n)?,
                column("sigs", sigs, n)?,
                column("msgs", msgs, n)?,
            );
            verdicts(n, out_codes, || flat::verify_sr25519(e, ctx, &pks, &sigs, &msgs))
        }
    })
}

/// Groth16 over BN254 (`ark-groth16`'s verdicts) under the verifying key
/// `vk[0..vk_len]` (EIP-197's encoding: alpha, beta, gamma, delta, then
/// IC_0 to IC_l; a key that does not decode is an error naming what is
/// wrong): every item a proof of 256 bytes (A, B, C as EIP-197 encodes
/// them) followed by its l public inputs of 32 bytes big-endian (another
/// length is that item's `wrong_input_length`).
///
/// # Safety
/// The operations' contract (the header's preamble); `vk` points to
/// `vk_len` readable bytes; `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_groth16(
    engine: *const BcEngine,
    vk: *const u8,
    vk_len: usize,
    n: usize,
    items: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_groth16", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let vk = bytes("vk", vk, vk_len)?;
            let items = column("items", items, n)?;
            verdicts(n, out_codes, || flat::verify_groth16(e, vk, &items))
        }
    })
}

/// Groth16 over BLS12-381 (`ark-groth16`'s verdicts on blst's decoding,
/// bellman's rules) under the verifying key `vk[0..vk_len]` (arkworks'
/// compressed form or bellman's uncompressed one, told apart by the first
/// byte; a key that does not decode is an error naming what is wrong):
/// every item a proof of 192 bytes (A, B, C compressed) followed by its l
/// public inputs of 32 bytes little-endian (another length is that item's
/// `wrong_input_length`).
///
/// # Safety
/// The operations' contract (the header's preamble); `vk` points to
/// `vk_len` readable bytes; `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_groth16_bls12_381(
    engine: *const BcEngine,
    vk: *const u8,
    vk_len: usize,
    n: usize,
    items: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_groth16_bls12_381", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let vk = bytes("vk", vk, vk_len)?;
            let items = column("items", items, n)?;
            verdicts(n, out_codes, || flat::verify_groth16_bls12_381(e, vk, &items))
        }
    })
}

/// BLS12-381 with Ethereum's ciphersuite (blst's verdicts): keys of 48
/// bytes, signatures of 96, messages of any length; `batch` checks the
/// batch with one multi-pairing first (same verdicts, faster when most
/// are valid).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_bls(
    engine: *const BcEngine,
    batch: bool,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_bls", || {
        let mode = if batch { bls::Mode::Batch } else { bls::Mode::Single };
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (pks, sigs, msgs) = (
                column("pks", pks, n)?,
                column("sigs", sigs, n)?,
                column("msgs", msgs, n)?,
            );
            verdicts(n, out_codes, || flat::verify_bls(e, mode, &pks, &sigs, &msgs))
        }
    })
}

/// ML-DSA (FIPS 204, pure; the `ml-dsa` crate's verdicts) at `level`
/// (`"ml-dsa-44"`, `"ml-dsa-65"`, `"ml-dsa-87"`): every field of any length
/// (a wrong length is the item's reason); `ctxs` NULL for empty contexts.
///
/// # Safety
/// The operations' contract (the header's preamble); `ctxs` NULL or a column;
/// `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_mldsa(
    engine: *const BcEngine,
    level: *const c_char,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    ctxs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_mldsa", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let level = option("level", level, |s| {
                mldsa::Level::from_name(s)
                    .ok_or_else(|| format!("unknown level {s:?} (expected ml-dsa-44, ml-dsa-65 or ml-dsa-87)"))
            })?;
            let (pks, sigs, msgs, ctxs) = context_columns(n, pks, sigs, msgs, ctxs)?;
            verdicts(n, out_codes, || {
                flat::verify_mldsa(e, level, &pks, &sigs, &msgs, ctxs.as_ref())
            })
        }
    })
}

/// SLH-DSA (FIPS 205, pure; the `slh-dsa` crate's verdicts) in `set`
/// (`"slh-dsa-sha2-128s"`, ..., `"slh-dsa-shake-256f"`: FIPS 205's twelve
/// names, in any case, the prefix optional): every field of any length (a
/// wrong length is the item's reason); `ctxs` NULL for empty contexts.
///
/// # Safety
/// The operations' contract (the header's preamble); `ctxs` NULL or a column;
/// `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_slhdsa(
    engine: *const BcEngine,
    set: *const c_char,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    ctxs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_slhdsa", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let set = option("set", set, |s| {
                slhdsa::Set::from_name(s)
                    .ok_or_else(|| format!("unknown set {s:?} (expected slh-dsa-sha2-128s ... slh-dsa-shake-256f)"))
            })?;
            let (pks, sigs, msgs, ctxs) = context_columns(n, pks, sigs, msgs, ctxs)?;
            verdicts(n, out_codes, || {
                flat::verify_slhdsa(e, set, &pks, &sigs, &msgs, ctxs.as_ref())
            })
        }
    })
}

/// The columns of a signature with a context (ML-DSA, SLH-DSA); NULL
/// `ctxs`: empty contexts.
///
/// # Safety
/// `pks`, `sigs`, `msgs` columns of `n` items, `ctxs` NULL or one.
unsafe fn context_columns<'a>(
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    msgs: *const BcColumn,
    ctxs: *const BcColumn,
) -> Result<(Column<'a>, Column<'a>, Column<'a>, Option<Column<'a>>), Failure> {
    // SAFETY: the function's contract.
    unsafe {
        let ctxs = if ctxs.is_null() {
            None
        } else {
            Some(column("ctxs", ctxs, n)?)
        };
        Ok((
            column("pks", pks, n)?,
            column("sigs", sigs, n)?,
            column("msgs", msgs, n)?,
            ctxs,
        ))
    }
}

/// secp256k1 ECDSA over 32-byte hashes (libsecp256k1's verdicts): keys of
/// 33 or 65 bytes (one width, or offsets for a mix), signatures r ‖ s of
/// 64; `low_s` rejects s > n/2 (else high s is accepted).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_secp256k1(
    engine: *const BcEngine,
    low_s: bool,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    hashes: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    // SAFETY: the function's contract.
    unsafe {
        ecdsa_verdicts(
            "bc_verify_secp256k1",
            engine,
            n,
            [pks, sigs, hashes],
            out_codes,
            |e, p, s, h| flat::verify_secp256k1(e, low_s, p, s, h),
        )
    }
}

/// P-256 under RIP-7212 (the `p256` crate's verdicts): keys x ‖ y of 64
/// bytes, signatures r ‖ s of 64, hashes of 32.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_p256(
    engine: *const BcEngine,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    hashes: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    // SAFETY: the function's contract.
    unsafe {
        ecdsa_verdicts(
            "bc_verify_p256",
            engine,
            n,
            [pks, sigs, hashes],
            out_codes,
            flat::verify_p256,
        )
    }
}

/// [`bc_verify_secp256k1`] with signatures in DER, of any length (one
/// width, or offsets): one that is not strict DER is its item's
/// `malformed_signature` (libsecp256k1's strict parser; Bitcoin's
/// signatures with the sighash byte removed, X.509, HSMs, cloud KMS).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_secp256k1_der(
    engine: *const BcEngine,
    low_s: bool,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    hashes: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    // SAFETY: the function's contract.
    unsafe {
        ecdsa_verdicts(
            "bc_verify_secp256k1_der",
            engine,
            n,
            [pks, sigs, hashes],
            out_codes,
            |e, p, s, h| flat::verify_secp256k1_der(e, low_s, p, s, h),
        )
    }
}

/// [`bc_verify_p256`] with signatures in DER, of any length (one width,
/// or offsets): one that is not strict DER is its item's
/// `malformed_signature` (WebAuthn, X.509, HSMs, cloud KMS).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_p256_der(
    engine: *const BcEngine,
    n: usize,
    pks: *const BcColumn,
    sigs: *const BcColumn,
    hashes: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    // SAFETY: the function's contract.
    unsafe {
        ecdsa_verdicts(
            "bc_verify_p256_der",
            engine,
            n,
            [pks, sigs, hashes],
            out_codes,
            flat::verify_p256_der,
        )
    }
}

/// An ECDSA verification over its `pks`, `sigs` and `hashes` columns:
/// `run` on the engine and the columns, its verdicts into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
unsafe fn ecdsa_verdicts(
    op: &str,
    engine: *const BcEngine,
    n: usize,
    [pks, sigs, hashes]: [*const BcColumn; 3],
    out_codes: *mut u8,
    run: impl FnOnce(
        &batchcrypto::Engine,
        &Column<'_>,
        &Column<'_>,
        &Column<'_>,
    ) -> Result<batchcrypto::Outcome<Vec<batchcrypto::Verdict>>, Error>,
) -> BcStatus {
    guard(op, || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (pks, sigs, hashes) = (
                column("pks", pks, n)?,
                column("sigs", sigs, n)?,
                column("hashes", hashes, n)?,
            );
            verdicts(n, out_codes, || run(e, &pks, &sigs, &hashes))
        }
    })
}

/// EIP-7594 cell proofs (c-kzg-4844's verdict on each cell alone):
/// commitments and proofs of 48 bytes (compressed G1 points), cells of
/// 2,048 bytes, `indices` one per item (an index past 127 is the item's
/// `cell_index_out_of_range`).
///
/// # Safety
/// The operations' contract (the header's preamble); `indices` NULL (for
/// `n` = 0) or `n` readable u64s; `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_kzg_cells(
    engine: *const BcEngine,
    n: usize,
    commitments: *const BcColumn,
    indices: *const u64,
    cells: *const BcColumn,
    proofs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_kzg_cells", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (commitments, cells, proofs) = (
                column("commitments", commitments, n)?,
                column("cells", cells, n)?,
                column("proofs", proofs, n)?,
            );
            let indices = words("indices", indices, n)?;
            verdicts(n, out_codes, || {
                flat::verify_kzg_cells(e, &commitments, indices, &cells, &proofs)
            })
        }
    })
}

/// EIP-7594 blobs of 131,072 bytes (c-kzg-4844's
/// `blob_to_kzg_commitment` and `compute_cells_and_kzg_proofs`): per blob
/// its commitment (48 bytes) into `out_commitments`, its 128 cells
/// (262,144 bytes) into `out_cells` and their proofs (6,144 bytes) into
/// `out_proofs` (zeros where it has a reason), 0 or the reason
/// (`non_canonical_element`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); the outputs hold `n`
/// rows each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_kzg_compute_cells(
    engine: *const BcEngine,
    n: usize,
    blobs: *const BcColumn,
    out_commitments: *mut u8,
    out_cells: *mut u8,
    out_proofs: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_kzg_compute_cells", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let blobs = column("blobs", blobs, n)?;
            let commitments = output("out_commitments", out_commitments, size(n, kzg::POINT_LEN)?)?;
            let cells = output("out_cells", out_cells, size(n, kzg::EXTENDED_CELLS_LEN)?)?;
            let proofs = output("out_proofs", out_proofs, size(n, kzg::EXTENDED_PROOFS_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::kzg_compute_cells(e, &blobs),
                codes,
                &mut flat::blob_cells_rows(commitments, cells, proofs),
            )
        }
    })
}

/// EIP-7594 cell recovery (c-kzg-4844's `recover_cells_and_kzg_proofs`):
/// item `i` is the cells `cells[groups[i] .. groups[i + 1]]` (2,048 bytes
/// each) with the indices `indices[groups[i] .. groups[i + 1]]`, of
/// `n_cells` in all; per item its 128 cells into `out_cells` and their
/// proofs into `out_proofs` (rows as [`bc_kzg_compute_cells`]'; zeros where
/// it has a reason), 0 or the reason into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `groups` holds
/// `n + 1` u64s, `indices` NULL (for `n_cells` = 0) or `n_cells`; the
/// outputs hold `n` rows each.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_kzg_recover_cells(
    engine: *const BcEngine,
    n: usize,
    groups: *const u64,
    n_cells: usize,
    indices: *const u64,
    cells: *const BcColumn,
    out_cells: *mut u8,
    out_proofs: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_kzg_recover_cells", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let groups = self::groups(groups, n)?;
            let indices = words("indices", indices, n_cells)?;
            let cells = column("cells", cells, n_cells)?;
            let out_cells = output("out_cells", out_cells, size(n, kzg::EXTENDED_CELLS_LEN)?)?;
            let proofs = output("out_proofs", out_proofs, size(n, kzg::EXTENDED_PROOFS_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::kzg_recover_cells(e, groups, indices, &cells),
                codes,
                &mut flat::extended_rows(out_cells, proofs),
            )
        }
    })
}

/// Ethereum's ecrecover: hashes of 32 bytes, signatures r ‖ s ‖ v of 65
/// (v 27/28 or 0/1). Per item: a verdict byte (0: recovered), and where
/// the outputs are not NULL the 20-byte address and the 64-byte key x ‖ y
/// (zeros for an item that does not recover).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_addresses` NULL or
/// `20 * n` bytes, `out_pubkeys` NULL or `64 * n`, `out_codes` `n`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_ecrecover(
    engine: *const BcEngine,
    low_s: bool,
    n: usize,
    hashes: *const BcColumn,
    sigs: *const BcColumn,
    out_addresses: *mut u8,
    out_pubkeys: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_ecrecover", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (hashes, sigs) = (column("hashes", hashes, n)?, column("sigs", sigs, n)?);
            let codes = output("out_codes", out_codes, n)?;
            let mut addresses = match out_addresses.is_null() {
                true => None,
                false => Some(output("out_addresses", out_addresses, size(n, 20)?)?),
            };
            let mut pubkeys = match out_pubkeys.is_null() {
                true => None,
                false => Some(output("out_pubkeys", out_pubkeys, size(n, 64)?)?),
            };
            let got = flat::ecrecover(e, low_s, &hashes, &sigs)?.output;
            if got.len() != n {
                return Err(Failure(
                    BcStatus::Failed,
                    format!("{} answers for {n} items", got.len()),
                ));
            }
            for (i, r) in got.iter().enumerate() {
                let (address, pubkey, code) = match r {
                    Ok(k) => (k.address, k.pubkey, 0),
                    Err(reason) => ([0; 20], [0; 64], reason.number()),
                };
                codes[i] = code;
                if let Some(a) = addresses.as_deref_mut() {
                    a[20 * i..20 * (i + 1)].copy_from_slice(&address);
                }
                if let Some(p) = pubkeys.as_deref_mut() {
                    p[64 * i..64 * (i + 1)].copy_from_slice(&pubkey);
                }
            }
            Ok(())
        }
    })
}

/// The 32-byte digest of every message under `alg` (`"keccak256"`,
/// `"sha3-256"`, `"sha256"`, `"blake2b-256"`, `"blake3"`), `n * 32` bytes
/// into `out_digests`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_digests` holds `32 * n`
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_hash(
    engine: *const BcEngine,
    alg: *const c_char,
    n: usize,
    msgs: *const BcColumn,
    out_digests: *mut u8,
) -> BcStatus {
    guard("bc_hash", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let alg = option("alg", alg, |s| s.parse::<hash::Alg>())?;
            let msgs = column("msgs", msgs, n)?;
            let out = output("out_digests", out_digests, size(n, hash::DIGEST_LEN)?)?;
            let got = flat::hash(e, alg, &msgs)?.output;
            if got.len() != n {
                return Err(Failure(
                    BcStatus::Failed,
                    format!("{} answers for {n} items", got.len()),
                ));
            }
            for (o, d) in out.chunks_exact_mut(hash::DIGEST_LEN).zip(&got) {
                o.copy_from_slice(d);
            }
            Ok(())
        }
    })
}

/// The Poseidon hash over BN254's scalar field with circom's parameters
/// of every item (1 to 12 field elements, 32 bytes big-endian each, back
/// to back): the 32-byte hash (big-endian) into `out_hashes` (zeros where
/// the item has a reason), 0 or the reason (`wrong_input_length`,
/// `non_canonical_element`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_hashes` holds
/// `32 * n` bytes, `out_codes` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_poseidon_bn254(
    engine: *const BcEngine,
    n: usize,
    items: *const BcColumn,
    out_hashes: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_poseidon_bn254", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let items = column("items", items, n)?;
            let hashes = output("out_hashes", out_hashes, size(n, poseidon::ELEMENT_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::poseidon_bn254(e, &items),
                codes,
                &mut [(hashes, poseidon::ELEMENT_LEN, &|h: &poseidon::Hash| &h[..])],
            )
        }
    })
}

/// The Merkle root of `n` 32-byte leaves under `rule` (`"bitcoin"`:
/// double SHA-256, the last node paired with itself; `"sorted-keccak256"`:
/// OpenZeppelin's sorted pairs; `"lean-imt-poseidon"`: zk-kit's LeanIMT
/// with circom's Poseidon, leaves big-endian elements below BN254's r;
/// `"ssz"`: Ethereum consensus's SSZ merkleize, one SHA-256 of the pair,
/// zero chunks up to a power of two), 32 bytes into `out_root`; no leaves, or a leaf the rule cannot hash, is
/// an error.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_root` holds 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_merkle_root(
    engine: *const BcEngine,
    rule: *const c_char,
    n: usize,
    leaves: *const BcColumn,
    out_root: *mut u8,
) -> BcStatus {
    guard("bc_merkle_root", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let rule = option("rule", rule, |s| s.parse::<merkle::Rule>())?;
            let leaves = column("leaves", leaves, n)?;
            let out = output("out_root", out_root, hash::DIGEST_LEN)?;
            out.copy_from_slice(&flat::merkle_root(e, rule, &leaves)?.output);
            Ok(())
        }
    })
}

/// The root of the padded Merkle tree of `n` 32-byte leaves under `rule`
/// (as [`bc_merkle_root`]): 2^`depth` leaves (`depth` 1 to 64), those not
/// given the 32 bytes at `zero` (NULL: 32 zero bytes), 32 bytes into
/// `out_root`; no leaves is the empty tree. More leaves than the depth
/// holds, or a leaf or zero value the rule cannot hash, is an error.
///
/// # Safety
/// The operations' contract (the header's preamble); `zero` is NULL or
/// holds 32 bytes; `out_root` holds 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_merkle_root_padded(
    engine: *const BcEngine,
    rule: *const c_char,
    depth: u32,
    zero: *const u8,
    n: usize,
    leaves: *const BcColumn,
    out_root: *mut u8,
) -> BcStatus {
    guard("bc_merkle_root_padded", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let rule = option("rule", rule, |s| s.parse::<merkle::Rule>())?;
            let mut padding = merkle::Padding { depth, zero: [0; 32] };
            if !zero.is_null() {
                padding.zero.copy_from_slice(bytes("zero", zero, 32)?);
            }
            let leaves = column("leaves", leaves, n)?;
            let out = output("out_root", out_root, hash::DIGEST_LEN)?;
            out.copy_from_slice(&flat::merkle_root_padded(e, rule, &leaves, &padding)?.output);
            Ok(())
        }
    })
}

/// Merkle inclusion proofs under `rule` (as [`bc_merkle_root`] names
/// them): every item `root (32) ‖ leaf (32) ‖ index (8 bytes, big-endian:
/// the sides of the leaf's path as bits) ‖ siblings (32 bytes each, bottom
/// up, at most 64)`; 0 or the reason (`wrong_input_length`,
/// `wrong_proof_length`, `leaf_index_out_of_range`,
/// `non_canonical_element`, `root_mismatch`) into `out_codes`. `depth` 1
/// to 64 is the number of siblings every proof must have (a padded tree's
/// depth), 0 none.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n`
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_merkle_proofs(
    engine: *const BcEngine,
    rule: *const c_char,
    depth: u32,
    n: usize,
    items: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_merkle_proofs", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let rule = option("rule", rule, |s| s.parse::<merkle::Rule>())?;
            let items = column("items", items, n)?;
            let depth = (depth != 0).then_some(depth);
            verdicts(n, out_codes, || flat::verify_merkle_proofs(e, rule, depth, &items))
        }
    })
}

/// Ethereum Merkle-Patricia trie proofs (`eth_getProof`'s account and
/// storage proofs, transaction and receipt proofs), as alloy-trie's
/// `verify_proof` checks them: every item `root (32) ‖ key length (1, at
/// most 32) ‖ key ‖ value flag (1: 0 for a proof of absence, 1 present) ‖
/// [value length (4, big-endian) ‖ value] ‖ node count (2, big-endian, at
/// most 128) ‖ { node length (4, big-endian) ‖ node }`, the nodes root
/// first; 0 or the reason (`wrong_input_length`, `root_mismatch`,
/// `malformed_proof`, `path_mismatch`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n`
/// bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_mpt_proofs(
    engine: *const BcEngine,
    n: usize,
    items: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_mpt_proofs", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let items = column("items", items, n)?;
            verdicts(n, out_codes, || flat::verify_mpt_proofs(e, &items))
        }
    })
}

/// The roots of Ethereum's ordered tries (a block's `transactionsRoot`,
/// `receiptsRoot` or `withdrawalsRoot` from its values at keys RLP(i)),
/// as alloy-trie's `ordered_trie_root_encoded` computes them: every item
/// `count (4, big-endian) ‖ { length (4, big-endian) ‖ value }`, each
/// value a transaction, receipt or withdrawal in its canonical encoding;
/// the 32-byte root into `out_roots` (zeros where the item has a reason;
/// no values: the empty trie's root), 0 or the reason
/// (`wrong_input_length`, `empty_value`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_roots` holds
/// `32 * n` bytes, `out_codes` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_ordered_trie_roots(
    engine: *const BcEngine,
    n: usize,
    items: *const BcColumn,
    out_roots: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_ordered_trie_roots", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let items = column("items", items, n)?;
            let roots = output("out_roots", out_roots, size(n, hash::DIGEST_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::ordered_trie_roots(e, &items),
                codes,
                &mut [(roots, hash::DIGEST_LEN, &|r: &hash::Digest| &r[..])],
            )
        }
    })
}

/// Blocks' receipts checked: every item a block's receipts in the
/// ordered-trie layout (`count (4, big-endian) ‖ { length (4, big-endian)
/// ‖ receipt }`, each receipt its EIP-2718 bytes, `debug_getRawReceipts`'),
/// as reth reads them (alloy-consensus, alloy-primitives' blooms,
/// alloy-trie): the root of their trie (the header's `receiptsRoot`) into
/// `out_roots` and the union of their blooms (its `logsBloom`) into
/// `out_blooms` (zeros where the item has a reason), 0 or the reason
/// (`wrong_input_length`, `empty_value`, `unsupported_tx_type`,
/// `malformed_receipt`, `bloom_mismatch`) into `out_codes`, and the index
/// of the receipt refused into `out_receipts` (u32 little-endian,
/// `UINT32_MAX` where none is named).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_roots` holds
/// `32 * n` bytes, `out_blooms` `256 * n`, `out_receipts` `4 * n`,
/// `out_codes` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_receipts_roots(
    engine: *const BcEngine,
    n: usize,
    items: *const BcColumn,
    out_roots: *mut u8,
    out_blooms: *mut u8,
    out_receipts: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_receipts_roots", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let items = column("items", items, n)?;
            let roots = output("out_roots", out_roots, size(n, hash::DIGEST_LEN)?)?;
            let blooms = output("out_blooms", out_blooms, size(n, receipts::BLOOM_BYTES)?)?;
            let failed = output("out_receipts", out_receipts, size(n, 4)?)?;
            let codes = output("out_codes", out_codes, n)?;
            let got = flat::receipts_roots(e, &items)?.output;
            flat::write_receipts(&got, codes, roots, blooms, failed).map_err(|e| Failure(BcStatus::Failed, e))
        }
    })
}

/// Solana transactions under `policy` (`"strict"`: Solana's rule today,
/// ed25519-dalek's `verify_strict`; `"zip215"`: SIMD-0376's): every item
/// one transaction's wire bytes (legacy, v0 or v1); 0 when it reads,
/// sanitizes and every signature verifies over its message, else the
/// reason (`malformed_transaction`, `sanitize_failure`, or the first
/// failing signature's Ed25519 reason) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` holds `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_solana_txs(
    engine: *const BcEngine,
    policy: *const c_char,
    n: usize,
    txs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_solana_txs", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let policy = option("policy", policy, |s| s.parse::<ed25519::Policy>())?;
            let txs = column("txs", txs, n)?;
            verdicts(n, out_codes, || flat::verify_solana_txs(e, policy, &txs))
        }
    })
}

/// The senders of Ethereum transactions: every item one signed
/// transaction's EIP-2718 bytes (types 0 to 4: legacy with or without
/// EIP-155's chain id, EIP-2930, EIP-1559, EIP-4844, EIP-7702), its
/// signer recovered from its signing hash under EIP-2's low s, as
/// alloy-consensus and libsecp256k1 make them; the 20-byte address into
/// `out_senders` (zeros where the item has a reason), 0 or the reason
/// (`unsupported_tx_type`, `malformed_transaction`, `r_out_of_range`,
/// `s_out_of_range`, `high_s`, `recovery_failed`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_senders` holds
/// `20 * n` bytes, `out_codes` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_tx_senders(
    engine: *const BcEngine,
    n: usize,
    txs: *const BcColumn,
    out_senders: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_tx_senders", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let txs = column("txs", txs, n)?;
            let senders = output("out_senders", out_senders, size(n, 20)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::tx_senders(e, &txs),
                codes,
                &mut [(senders, 20, &|a: &[u8; 20]| &a[..])],
            )
        }
    })
}

/// The authorities of EIP-7702 authorizations: every item one signed
/// authorization's RLP, `[chain_id, address, nonce, y_parity, r, s]`, as a
/// set-code transaction's list holds it; its signer recovered from
/// `keccak256(0x05 ‖ rlp([chain_id, address, nonce]))` under EIP-7702's
/// low s, as alloy-eips and libsecp256k1 make them; the 20-byte address
/// into `out_authorities` (zeros where the item has a reason), 0 or the
/// reason (`malformed_authorization`, `bad_v`, `r_out_of_range`,
/// `s_out_of_range`, `high_s`, `recovery_failed`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_authorities`
/// holds `20 * n` bytes, `out_codes` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_eip7702_authorities(
    engine: *const BcEngine,
    n: usize,
    auths: *const BcColumn,
    out_authorities: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_eip7702_authorities", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let auths = column("auths", auths, n)?;
            let authorities = output("out_authorities", out_authorities, size(n, 20)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::eip7702_authorities(e, &auths),
                codes,
                &mut [(authorities, 20, &|a: &[u8; 20]| &a[..])],
            )
        }
    })
}

/// Whole Ethereum blocks (`debug_getRawBlock`'s bytes, one per item)
/// checked against their own headers: per block into `out_codes` 0 (the
/// body's transactions, withdrawals and ommers are those the header's
/// `transactionsRoot`, `withdrawalsRoot` and `ommersHash` state) or the
/// reason (`root_mismatch`, `malformed_block`); into `out_fields` the
/// first field that does not match (0 none, 1 `ommersHash`, 2
/// `transactionsRoot`, 3 `withdrawalsRoot`); into `out_numbers` the
/// block's number (8 bytes little-endian) and into `out_hashes` its hash
/// (the header's Keccak-256, 32 bytes), zeros for a malformed block.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` and
/// `out_fields` hold `n` bytes, `out_numbers` `8 * n`, `out_hashes`
/// `32 * n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_verify_blocks(
    engine: *const BcEngine,
    n: usize,
    blocks: *const BcColumn,
    out_codes: *mut u8,
    out_fields: *mut u8,
    out_numbers: *mut u8,
    out_hashes: *mut u8,
) -> BcStatus {
    guard("bc_verify_blocks", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let blocks = column("blocks", blocks, n)?;
            let codes = output("out_codes", out_codes, n)?;
            let fields = output("out_fields", out_fields, n)?;
            let numbers = output("out_numbers", out_numbers, size(n, 8)?)?;
            let hashes = output("out_hashes", out_hashes, size(n, hash::DIGEST_LEN)?)?;
            let got = flat::verify_blocks(e, &blocks)?.output;
            flat::write_blocks(&got, codes, fields, numbers, hashes).map_err(|e| Failure(BcStatus::Failed, e))
        }
    })
}

/// Whole Bitcoin blocks (the P2P message's bytes, `getblock`'s hex
/// decoded; one per item) checked against their own headers as Bitcoin
/// Core checks them, under `network`'s parameters (`"main"`, `"test"`
/// (testnet3), `"testnet4"`, `"signet"`, `"regtest"`): per block into
/// `out_codes` 0 (the header's proof of work holds, the transactions are
/// those its Merkle root states with none repeated, the witnesses those
/// the coinbase commits to) or the reason (`high_hash`, `root_mismatch`,
/// `duplicate_transactions`, `bad_witness_nonce_size`,
/// `unexpected_witness`, `malformed_block`); into `out_fields` the
/// commitment a `root_mismatch` names (0 none, 1 the header's Merkle root,
/// 2 the witness commitment); into `out_heights` the height its coinbase
/// states (BIP-34; 4 bytes little-endian, 0xFFFFFFFF where none) and into
/// `out_hashes` its hash (double SHA-256 of the header, 32 bytes as hashed:
/// Bitcoin shows them reversed), zeros for a malformed block.
///
/// # Safety
/// The operations' contract (the header's preamble); `out_codes` and
/// `out_fields` hold `n` bytes, `out_heights` `4 * n`, `out_hashes`
/// `32 * n`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_bitcoin_blocks(
    engine: *const BcEngine,
    network: *const c_char,
    n: usize,
    blocks: *const BcColumn,
    out_codes: *mut u8,
    out_fields: *mut u8,
    out_heights: *mut u8,
    out_hashes: *mut u8,
) -> BcStatus {
    guard("bc_verify_bitcoin_blocks", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let network = option("network", network, |s| s.parse::<merkle::block::Network>())?;
            let blocks = column("blocks", blocks, n)?;
            let codes = output("out_codes", out_codes, n)?;
            let fields = output("out_fields", out_fields, n)?;
            let heights = output("out_heights", out_heights, size(n, 4)?)?;
            let hashes = output("out_hashes", out_hashes, size(n, hash::DIGEST_LEN)?)?;
            let got = flat::verify_bitcoin_blocks(e, network, &blocks)?.output;
            flat::write_bitcoin_blocks(&got, codes, fields, heights, hashes).map_err(|e| Failure(BcStatus::Failed, e))
        }
    })
}

/// Writes a call's answers: per item its code into `codes` and its rows
/// ([`flat::write_rows`]).
fn rows<T>(
    got: Result<batchcrypto::Outcome<Vec<Result<T, Reason>>>, Error>,
    codes: &mut [u8],
    outs: &mut [flat::Rows<'_, T>],
) -> Result<(), Failure> {
    flat::write_rows(&got?.output, codes, outs).map_err(|e| Failure(BcStatus::Failed, e))
}

/// The keys of each aggregate: item `i`'s are `pks[groups[i] ..
/// groups[i + 1]]` of the `n_keys` keys.
///
/// # Safety
/// `groups` NULL or `n + 1` readable u64s.
unsafe fn groups<'a>(groups: *const u64, n: usize) -> Result<&'a [u64], Failure> {
    let count = n.checked_add(1).ok_or_else(|| bad(format!("n = {n} is too large")))?;
    // SAFETY: the caller's contract.
    unsafe { words("groups", groups, count) }
}

/// `count` u64s at `p` (NULL only for none).
///
/// # Safety
/// `p` NULL or `count` readable u64s that outlive the call.
unsafe fn words<'a>(name: &str, p: *const u64, count: usize) -> Result<&'a [u64], Failure> {
    if count == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(null(name));
    }
    // SAFETY: non-NULL and `count` readable u64s by the contract.
    Ok(unsafe { std::slice::from_raw_parts(p, count) })
}

/// BLS aggregate verification (blst's `aggregate_verify`): item `i` is
/// the 96-byte signature `sigs[i]` of the keys `pks[groups[i] .. groups[i +
/// 1]]` (48 bytes each), key `k` signing `msgs[k]`; `pks` and `msgs` hold
/// `n_keys` items, `groups` `n + 1` non-decreasing positions.
///
/// # Safety
/// The operations' contract (the header's preamble); `groups` holds
/// `n + 1` u64s; `out_codes` `n` bytes.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_bls_aggregate(
    engine: *const BcEngine,
    n_keys: usize,
    pks: *const BcColumn,
    msgs: *const BcColumn,
    n: usize,
    groups: *const u64,
    sigs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_bls_aggregate", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (pks, msgs) = (column("pks", pks, n_keys)?, column("msgs", msgs, n_keys)?);
            let (groups, sigs) = (self::groups(groups, n)?, column("sigs", sigs, n)?);
            verdicts(n, out_codes, || {
                flat::bls_aggregate_verify(e, &pks, &msgs, groups, &sigs)
            })
        }
    })
}

/// BLS fast aggregate verification (every key of an item signs its one
/// message): item `i` is `sigs[i]` of the keys `pks[groups[i] ..
/// groups[i + 1]]` over `msgs[i]`.
///
/// # Safety
/// As [`bc_verify_bls_aggregate`]; `msgs` holds `n` items.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_verify_bls_fast_aggregate(
    engine: *const BcEngine,
    n_keys: usize,
    pks: *const BcColumn,
    n: usize,
    groups: *const u64,
    msgs: *const BcColumn,
    sigs: *const BcColumn,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_verify_bls_fast_aggregate", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let (pks, groups) = (column("pks", pks, n_keys)?, self::groups(groups, n)?);
            let (msgs, sigs) = (column("msgs", msgs, n)?, column("sigs", sigs, n)?);
            verdicts(n, out_codes, || {
                flat::bls_fast_aggregate_verify(e, &pks, groups, &msgs, &sigs)
            })
        }
    })
}

/// One call of an EVM precompile per input: `precompile` is
/// `"bn256-add"`, `"bn256-mul"`, `"bn256-pairing"` (EIP-196/197),
/// `"bls-g1msm"`, `"bls-g2msm"`, `"eip2537-pairing"`, `"bls-g1add"`,
/// `"bls-g2add"`, `"bls-map-g1"`, `"bls-map-g2"` (EIP-2537),
/// `"point-evaluation"` (EIP-4844), `"modexp"` (EIP-198, EIP-7823),
/// `"ecrecover"`, `"sha256"`, `"ripemd160"`, `"identity"` or
/// `"p256verify"` (EIP-7951), or an address in hex (`"0x05"`). Per call
/// `out_width` bytes into `out_outputs` (64, 64, 32, 128, 256, 32, 128,
/// 256, 128, 256 and 64 respectively, 32 for SHA256 and RIPEMD160,
/// another width an error; for the precompiles whose output's length
/// depends on the input, MODEXP's `mod_len` bytes, IDENTITY's input,
/// ECRECOVER's and P256VERIFY's word or nothing, any width at least the
/// batch's longest output: each output from the start of its row, zeros
/// after it, a longer one an error; zeros where the call fails) and into
/// `out_errors` 0, or the failure's number
/// ([`bc_precompile_error_name`]).
///
/// # Safety
/// The operations' contract (the header's preamble); `out_outputs` holds
/// `n * out_width` bytes, `out_errors` `n`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_evm(
    engine: *const BcEngine,
    precompile: *const c_char,
    n: usize,
    inputs: *const BcColumn,
    out_outputs: *mut u8,
    out_width: usize,
    out_errors: *mut u8,
) -> BcStatus {
    guard("bc_evm", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let name = text("precompile", precompile)?.ok_or_else(|| null("precompile"))?;
            let inputs = column("inputs", inputs, n)?;
            let call: flat::EvmCall = name.parse().map_err(|e| bad(format!("precompile: {e}")))?;
            let width = out_width;
            if let Some(fixed) = call.output_len()
                && fixed != width
            {
                return Err(bad(format!("out_width: {width}, but {name} returns {fixed} bytes")));
            }
            let (outputs, errors) = (
                output("out_outputs", out_outputs, size(n, width)?)?,
                output("out_errors", out_errors, n)?,
            );
            let got = flat::evm_call(e, call, &inputs)?.output;
            if got.len() != n {
                return Err(Failure(
                    BcStatus::Failed,
                    format!("{} answers for {n} calls", got.len()),
                ));
            }
            if let Some(i) = got.iter().position(|r| r.as_ref().is_ok_and(|o| o.len() > width)) {
                let len = got[i].as_ref().map_or(0, Vec::len);
                return Err(bad(format!("out_width: {width}, but call {i} returns {len} bytes")));
            }
            for (i, r) in got.iter().enumerate() {
                errors[i] = r.as_ref().err().map_or(0, |f| f.number());
                let row = &mut outputs[width * i..width * (i + 1)];
                row.fill(0);
                if let Ok(o) = r {
                    row[..o.len()].copy_from_slice(o);
                }
            }
            Ok(())
        }
    })
}

/// The snake_case code of a precompile failure number from `bc_evm`'s
/// `out_errors` (`"invalid_length"`, `"not_on_curve"`, ...), or NULL for 0
/// and numbers no failure has. A static string.
#[unsafe(no_mangle)]
pub extern "C" fn bc_precompile_error_name(code: u8) -> *const c_char {
    static NAMES: OnceLock<Vec<(u8, CString)>> = OnceLock::new();
    let all = || {
        evm::PrecompileError::ALL
            .iter()
            .map(|f| (f.number(), f.code()))
            .collect()
    };
    name_of(&NAMES, all, code)
}

/// The ML-KEM set of `bits` (512, 768, 1024).
fn kem_set(bits: u32) -> Result<mlkem::Set, Failure> {
    u16::try_from(bits)
        .ok()
        .and_then(mlkem::Set::from_bits)
        .ok_or_else(|| bad(format!("set: {bits} (expected 512, 768 or 1024)")))
}

/// The byte sizes of ML-KEM-`set` (512, 768, 1024) into `out_sizes`: the
/// encapsulation key, the decapsulation key, the ciphertext, the shared
/// secret.
///
/// # Safety
/// `out_sizes` holds 4 writable `size_t`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_mlkem_sizes(set: u32, out_sizes: *mut usize) -> BcStatus {
    guard("bc_mlkem_sizes", || {
        let set = kem_set(set)?;
        if out_sizes.is_null() {
            return Err(null("out_sizes"));
        }
        let sizes = [set.ek_len(), set.dk_len(), set.ct_len(), mlkem::SHARED_LEN];
        // SAFETY: non-NULL and 4 writable size_ts by the contract.
        unsafe { std::slice::from_raw_parts_mut(out_sizes, 4) }.copy_from_slice(&sizes);
        Ok(())
    })
}

/// ML-KEM-`set` key generation (FIPS 203 `KeyGen_internal`) from the
/// 32-byte seeds `ds[i]` and `zs[i]`: the keys into `out_eks` and
/// `out_dks` (rows of [`bc_mlkem_sizes`]' lengths; zeros where an item has
/// a reason), 0 or the reason into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); the outputs hold `n`
/// rows each.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_mlkem_keygen(
    engine: *const BcEngine,
    set: u32,
    n: usize,
    ds: *const BcColumn,
    zs: *const BcColumn,
    out_eks: *mut u8,
    out_dks: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_mlkem_keygen", || {
        // SAFETY: the function's contract.
        unsafe {
            let (e, set) = (self::engine(engine)?, kem_set(set)?);
            let (ds, zs) = (column("ds", ds, n)?, column("zs", zs, n)?);
            let eks = output("out_eks", out_eks, size(n, set.ek_len())?)?;
            let dks = output("out_dks", out_dks, size(n, set.dk_len())?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::mlkem_keygen(e, set, &ds, &zs),
                codes,
                &mut [
                    (eks, set.ek_len(), &|k: &mlkem::KeyPair| &k.ek[..]),
                    (dks, set.dk_len(), &|k: &mlkem::KeyPair| &k.dk[..]),
                ],
            )
        }
    })
}

/// ML-KEM-`set` encapsulation to `eks[i]` (the modulus check first), with
/// the 32-byte message `ms[i]` (deterministic), or with `ms` NULL 32
/// bytes from the operating system: the ciphertexts into `out_cts`, the
/// shared secrets into `out_secrets` (32 bytes each), 0 or the reason
/// into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); the outputs hold `n`
/// rows each.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_mlkem_encaps(
    engine: *const BcEngine,
    set: u32,
    n: usize,
    eks: *const BcColumn,
    ms: *const BcColumn,
    out_cts: *mut u8,
    out_secrets: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_mlkem_encaps", || {
        // SAFETY: the function's contract.
        unsafe {
            let (e, set) = (self::engine(engine)?, kem_set(set)?);
            let eks = column("eks", eks, n)?;
            let ms = if ms.is_null() { None } else { Some(column("ms", ms, n)?) };
            let cts = output("out_cts", out_cts, size(n, set.ct_len())?)?;
            let secrets = output("out_secrets", out_secrets, size(n, mlkem::SHARED_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::mlkem_encaps(e, set, &eks, ms.as_ref()),
                codes,
                &mut [
                    (cts, set.ct_len(), &|c: &mlkem::Encapsulated| &c.ct[..]),
                    (secrets, mlkem::SHARED_LEN, &|c: &mlkem::Encapsulated| &c.ss[..]),
                ],
            )
        }
    })
}

/// ML-KEM-`set` decapsulation of `cts[i]` with `dks[i]` (implicit
/// rejection where a ciphertext does not re-encrypt): the 32-byte shared
/// secrets into `out_secrets`, 0 or the reason into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); the outputs hold `n`
/// rows each.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_mlkem_decaps(
    engine: *const BcEngine,
    set: u32,
    n: usize,
    dks: *const BcColumn,
    cts: *const BcColumn,
    out_secrets: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_mlkem_decaps", || {
        // SAFETY: the function's contract.
        unsafe {
            let (e, set) = (self::engine(engine)?, kem_set(set)?);
            let (dks, cts) = (column("dks", dks, n)?, column("cts", cts, n)?);
            let secrets = output("out_secrets", out_secrets, size(n, mlkem::SHARED_LEN)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::mlkem_decaps(e, set, &dks, &cts),
                codes,
                &mut [(secrets, mlkem::SHARED_LEN, &|s: &mlkem::SharedSecret| &s[..])],
            )
        }
    })
}

/// What [`bc_ntt`] computes; `input_order`/`output_order` NULL for
/// `"natural"`, `coset` NULL for none, `modulus` 0 for none.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct BcNttOptions {
    /// `"bn254-fr"`, `"bls12-381-fr"`, `"goldilocks"`,
    /// `"goldilocks-negacyclic"` or `"prime64-negacyclic"`.
    pub field: *const c_char,
    /// log2 of the polynomials' size.
    pub log_n: u32,
    /// The inverse transform (evaluations to coefficients).
    pub inverse: bool,
    /// `"natural"` or `"bit-reversed"`.
    pub input_order: *const c_char,
    /// `"natural"` or `"bit-reversed"`.
    pub output_order: *const c_char,
    /// The coset shift g, canonical little-endian (`coset_len` bytes).
    pub coset: *const u8,
    /// Bytes at `coset`.
    pub coset_len: usize,
    /// `"prime64-negacyclic"`'s prime p (p < 2^64, p = 1 mod 2^(log_n +
    /// 1)); 0 for the other fields (their primes are their own).
    pub modulus: u64,
}

/// The number-theoretic transform of every polynomial of `polys` (each
/// 2^log_n canonical little-endian elements), each into a row of
/// `out_values` (the polynomial's bytes; zeros where it has a reason), 0
/// or the reason (`non_canonical_element`) into `out_codes`.
///
/// # Safety
/// The operations' contract (the header's preamble); `options` valid, its
/// strings NULL or NUL-terminated, `coset` NULL or `coset_len` bytes;
/// `out_values` holds `n` polynomials, `out_codes` `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_ntt(
    engine: *const BcEngine,
    options: *const BcNttOptions,
    n: usize,
    polys: *const BcColumn,
    out_values: *mut u8,
    out_codes: *mut u8,
) -> BcStatus {
    guard("bc_ntt", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let o = *options.as_ref().ok_or_else(|| null("options"))?;
            let order = |what: &str, s: *const c_char| match text(what, s)? {
                None => Ok(ntt::Order::Natural),
                Some(name) => name.parse().map_err(|e| bad(format!("{what}: {e}"))),
            };
            let transform = ntt::Transform {
                field: option("options.field", o.field, str::parse)?,
                log_n: o.log_n,
                direction: if o.inverse {
                    ntt::Direction::Inverse
                } else {
                    ntt::Direction::Forward
                },
                input_order: order("options.input_order", o.input_order)?,
                output_order: order("options.output_order", o.output_order)?,
                coset: (!o.coset.is_null()).then(|| std::slice::from_raw_parts(o.coset, o.coset_len).to_vec()),
                modulus: (o.modulus != 0).then_some(o.modulus),
            };
            let polys = column("polys", polys, n)?;
            let width = transform.poly_bytes();
            let values = output("out_values", out_values, size(n, width)?)?;
            let codes = output("out_codes", out_codes, n)?;
            rows(
                flat::ntt(e, &transform, &polys),
                codes,
                &mut [(values, width, &|v: &Vec<u8>| &v[..])],
            )
        }
    })
}

/// The multi-scalar multiplication sum of `scalars[i]` (32 bytes
/// little-endian) times `points[i]` (`n` points of `curve`:
/// `"bn254-g1"`, `"bls12-381-g1"`, `"bls12-381-g2"`, in `encoding`:
/// `"uncompressed"` or `"compressed"`, back to back in `points_len`
/// bytes): the sum, in the points' encoding, into `out_sum` (whose
/// `out_sum_len` must be one point's size), and into `*out_code` 0, or
/// the first bad point's reason (then `out_sum` is zeros).
///
/// # Safety
/// The operations' contract (the header's preamble); `points` and
/// `scalars` hold their lengths; `out_sum` `out_sum_len` writable bytes;
/// `out_code` one.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn bc_msm(
    engine: *const BcEngine,
    curve: *const c_char,
    encoding: *const c_char,
    points: *const u8,
    points_len: usize,
    scalars: *const u8,
    scalars_len: usize,
    out_sum: *mut u8,
    out_sum_len: usize,
    out_code: *mut u8,
) -> BcStatus {
    guard("bc_msm", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let curve: msm::Curve = option("curve", curve, str::parse)?;
            let encoding: msm::Encoding = option("encoding", encoding, str::parse)?;
            let (points, scalars) = (
                bytes("points", points, points_len)?,
                bytes("scalars", scalars, scalars_len)?,
            );
            let sum = sum_output(curve, encoding, out_sum, out_sum_len)?;
            let width = sum.len();
            let code = out_code.as_mut().ok_or_else(|| null("out_code"))?;
            let got = e.msm(curve, encoding, points, scalars)?.output;
            flat::write_rows(
                &[got],
                std::slice::from_mut(code),
                &mut [(sum, width, &|s: &Vec<u8>| &s[..])],
            )
            .map_err(|e| Failure(BcStatus::Failed, e))
        }
    })
}

/// Points checked once for many sums over them, as provers hold their
/// fixed bases (on a GPU engine uploaded at the first sum and kept on the
/// device). Opaque; made by [`bc_msm_bases_new`], freed by
/// [`bc_msm_bases_free`].
pub struct BcMsmBases(msm::Bases);

/// `points` (`points_len` bytes: points of `curve` in `encoding`, as for
/// [`bc_msm`]) decoded and checked once into `*out` (NULL on failure: a
/// bad point is `BC_STATUS_INVALID_ARGUMENT`, [`bc_last_error`] naming it
/// and its reason). Free it with [`bc_msm_bases_free`]; it may be summed
/// by any engine (on another engine's GPU it is summed on the CPU).
///
/// # Safety
/// The operations' contract (the header's preamble); `points` holds
/// `points_len` bytes; `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_msm_bases_new(
    engine: *const BcEngine,
    curve: *const c_char,
    encoding: *const c_char,
    points: *const u8,
    points_len: usize,
    out: *mut *mut BcMsmBases,
) -> BcStatus {
    guard("bc_msm_bases_new", || {
        // SAFETY: the function's contract.
        unsafe {
            let out = out.as_mut().ok_or_else(|| null("out"))?;
            *out = std::ptr::null_mut();
            let e = self::engine(engine)?;
            let curve: msm::Curve = option("curve", curve, str::parse)?;
            let encoding: msm::Encoding = option("encoding", encoding, str::parse)?;
            let bases = e.msm_bases(curve, encoding, bytes("points", points, points_len)?)?;
            *out = Box::into_raw(Box::new(BcMsmBases(bases)));
            Ok(())
        }
    })
}

/// Frees bases made by [`bc_msm_bases_new`] (NULL is ignored).
///
/// # Safety
/// `bases` is NULL or a live handle, not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_msm_bases_free(bases: *mut BcMsmBases) {
    if !bases.is_null() {
        // SAFETY: made by Box::into_raw in bc_msm_bases_new, freed once.
        drop(unsafe { Box::from_raw(bases) });
    }
}

/// The sum over `bases` by `scalars` (`scalars_len` bytes: 32 bytes
/// little-endian per point given) into `out_sum` (one point in the bases'
/// encoding). A wrong number of scalars is `BC_STATUS_INVALID_ARGUMENT`.
///
/// # Safety
/// The operations' contract; `bases` a live handle from
/// [`bc_msm_bases_new`]; `scalars` holds `scalars_len` bytes; `out_sum`
/// `out_sum_len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bc_msm_with(
    engine: *const BcEngine,
    bases: *const BcMsmBases,
    scalars: *const u8,
    scalars_len: usize,
    out_sum: *mut u8,
    out_sum_len: usize,
) -> BcStatus {
    guard("bc_msm_with", || {
        // SAFETY: the function's contract.
        unsafe {
            let e = self::engine(engine)?;
            let bases = &bases.as_ref().ok_or_else(|| null("bases"))?.0;
            let sum = sum_output(bases.curve(), bases.encoding(), out_sum, out_sum_len)?;
            let got = e.msm_with(bases, bytes("scalars", scalars, scalars_len)?)?.output;
            if got.len() != sum.len() {
                return Err(Failure(BcStatus::Failed, format!("a sum of {} bytes", got.len())));
            }
            sum.copy_from_slice(&got);
            Ok(())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine is shared between threads by C callers.
    #[test]
    fn engine_is_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<BcEngine>();
    }
}
