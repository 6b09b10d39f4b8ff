//! The C ABI's contract, called from Rust: answers equal the library's,
//! bad arguments are an error code and a message naming them, and outputs
//! are untouched when a call fails.

use std::ffi::{CStr, c_char};
use std::ptr;

use batchcrypto::ops::ed25519;
use batchcrypto::{BackendChoice, Engine, FlatBytes};
use batchcrypto_ffi::*;

struct Handle(*mut BcEngine);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: made by bc_engine_new, freed once.
        unsafe { bc_engine_free(self.0) };
    }
}

fn engine() -> Handle {
    let options = BcEngineOptions {
        backend: c"cpu".as_ptr(),
        threads: 2,
        adapter: ptr::null(),
    };
    let mut e = ptr::null_mut();
    // SAFETY: valid options and out pointer.
    assert_eq!(unsafe { bc_engine_new(&options, &mut e) }, BcStatus::Ok);
    assert!(!e.is_null());
    Handle(e)
}

fn last_error() -> String {
    // SAFETY: bc_last_error returns a NUL-terminated string.
    unsafe { CStr::from_ptr(bc_last_error()) }
        .to_string_lossy()
        .into_owned()
}

fn fixed(bytes: &[u8], width: usize) -> BcColumn {
    BcColumn {
        data: bytes.as_ptr(),
        data_len: bytes.len(),
        width,
        offsets: ptr::null(),
    }
}

fn delimited(bytes: &[u8], offsets: &[u64]) -> BcColumn {
    BcColumn {
        data: bytes.as_ptr(),
        data_len: bytes.len(),
        width: 0,
        offsets: offsets.as_ptr(),
    }
}

/// Items back to back with their offsets (a delimited column's parts),
/// and the same items as the library's batch.
fn back_to_back<T: AsRef<[u8]>>(items: impl IntoIterator<Item = T>) -> (Vec<u8>, Vec<u64>, FlatBytes) {
    let (mut bytes, mut offsets, mut flat) = (Vec::new(), vec![0u64], FlatBytes::new());
    for item in items {
        bytes.extend_from_slice(item.as_ref());
        offsets.push(bytes.len() as u64);
        assert!(flat.push(item.as_ref()));
    }
    (bytes, offsets, flat)
}

/// Rows of `W` bytes and codes as the C functions write them: each item's
/// bytes and 0, or zeros and its reason's number, one row per item.
fn assert_rows<const W: usize>(want: &[Result<[u8; W], batchcrypto::Reason>], rows: &[u8], codes: &[u8]) {
    assert_eq!((rows.len(), codes.len()), (W * want.len(), want.len()));
    for (i, (w, (row, &code))) in want.iter().zip(rows.chunks(W).zip(codes)).enumerate() {
        match w {
            Ok(bytes) => assert_eq!((row, code), (&bytes[..], 0), "item {i}"),
            Err(r) => assert_eq!((row, code), (&[0u8; W][..], r.number()), "item {i}"),
        }
    }
}

/// A C function answering a column of items with a row of bytes and a
/// code per item (`bc_ordered_trie_roots`, `bc_tx_senders`, ...).
type RowFn = unsafe extern "C" fn(*const BcEngine, usize, *const BcColumn, *mut u8, *mut u8) -> BcStatus;

/// `f` on `items` (a delimited column) writes `want` as rows of `W` bytes
/// and codes ([`assert_rows`]); with a NULL row output it fails naming
/// `rows_name` and writes no code. The rows written.
fn row_function<const W: usize>(
    f: RowFn,
    rows_name: &str,
    items: &[Vec<u8>],
    want: &[Result<[u8; W], batchcrypto::Reason>],
) -> Vec<u8> {
    let e = engine();
    let (bytes, offsets, _) = back_to_back(items);
    let n = items.len();
    let (mut rows, mut codes) = (vec![0xaau8; W * n], vec![0xaau8; n]);
    // SAFETY: a valid engine and column; outputs of n rows.
    let status = unsafe {
        f(
            e.0,
            n,
            &delimited(&bytes, &offsets),
            rows.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_rows(want, &rows, &codes);
    // A NULL output is named; nothing is written.
    let mut codes = vec![0xaau8; n];
    // SAFETY: NULL is the error under test.
    let status = unsafe {
        f(
            e.0,
            n,
            &delimited(&bytes, &offsets),
            ptr::null_mut(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains(rows_name), "{}", last_error());
    assert!(codes.iter().all(|&c| c == 0xaa));
    rows
}

/// Four items as columns, and the library's own verdict bytes for them.
struct Items {
    pks: Vec<u8>,
    sigs: Vec<u8>,
    msgs: Vec<u8>,
    offsets: Vec<u64>,
    want: Vec<u8>,
}

/// RFC 8032's first two vectors, and both with a corrupted signature.
fn items() -> Items {
    let rfc = [
        // RFC 8032 test 1 (empty message) and test 2 (one byte).
        (
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
            "",
        ),
        (
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
            "72",
        ),
    ];
    let (mut pks, mut sigs, mut msgs, mut offsets) = (Vec::new(), Vec::new(), Vec::new(), vec![0u64]);
    for flip in [false, true] {
        for (pk, sig, msg) in rfc {
            pks.extend(hex::decode(pk).expect("hex"));
            let mut s = hex::decode(sig).expect("hex");
            if flip {
                s[0] ^= 1;
            }
            sigs.extend(s);
            msgs.extend(hex::decode(msg).expect("hex"));
            offsets.push(msgs.len() as u64);
        }
    }
    let lib = Engine::builder()
        .backend(BackendChoice::Cpu)
        .without_profile()
        .build()
        .expect("engine");
    let mut batch = ed25519::Batch::new();
    let mut flat = FlatBytes::new();
    for i in 0..4 {
        let m = &msgs[offsets[i] as usize..offsets[i + 1] as usize];
        assert!(flat.push(m));
        batch
            .push(
                pks[32 * i..32 * (i + 1)].try_into().expect("32"),
                sigs[64 * i..64 * (i + 1)].try_into().expect("64"),
                m,
            )
            .expect("push");
    }
    let want = lib
        .verify_ed25519(&batch, ed25519::Policy::Strict)
        .expect("verify")
        .output
        .iter()
        .map(batchcrypto::flat::verdict_code)
        .collect();
    Items {
        pks,
        sigs,
        msgs,
        offsets,
        want,
    }
}

#[test]
fn answers_equal_the_library_and_bad_arguments_are_named() {
    let e = engine();
    let Items {
        pks,
        sigs,
        msgs,
        offsets,
        want,
    } = items();
    assert_eq!(
        want,
        [0, 0, 29, 2],
        "two valid, one failing the equation, one with a malformed R"
    );
    let (p, s, m) = (fixed(&pks, 32), fixed(&sigs, 64), delimited(&msgs, &offsets));
    let mut codes = [0xAAu8; 4];
    // SAFETY: columns valid for 4 items, 4 output bytes.
    let status = unsafe { bc_verify_ed25519(e.0, c"strict".as_ptr(), 4, &p, &s, &m, codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes.to_vec(), want);
    // SAFETY: a reason number from the call.
    let name = unsafe { CStr::from_ptr(bc_reason_name(codes[2])) };
    assert_eq!(name.to_str(), Ok("equation"));
    assert!(bc_reason_name(0).is_null());

    // Each bad call: an error naming the argument, the outputs untouched.
    let short = fixed(&pks[..100], 32);
    let bad_offsets = [0u64, 5, 3, 3, 4];
    let backwards = delimited(&msgs, &bad_offsets);
    let cases: [(
        &str,
        *const c_char,
        *const BcColumn,
        *const BcColumn,
        *mut u8,
        BcStatus,
        &str,
    ); 6] = [
        (
            "null column",
            c"strict".as_ptr(),
            ptr::null(),
            &m,
            codes.as_mut_ptr(),
            BcStatus::NullPointer,
            "pks is NULL",
        ),
        (
            "short keys",
            c"strict".as_ptr(),
            &short,
            &m,
            codes.as_mut_ptr(),
            BcStatus::InvalidArgument,
            "pks: 100 bytes, expected 4 items of 32 bytes",
        ),
        (
            "offsets",
            c"strict".as_ptr(),
            &p,
            &backwards,
            codes.as_mut_ptr(),
            BcStatus::InvalidArgument,
            "msgs: offsets decrease at item 1",
        ),
        (
            "policy",
            c"lax".as_ptr(),
            &p,
            &m,
            codes.as_mut_ptr(),
            BcStatus::InvalidArgument,
            "policy: unknown policy \"lax\"",
        ),
        (
            "null policy",
            ptr::null(),
            &p,
            &m,
            codes.as_mut_ptr(),
            BcStatus::NullPointer,
            "policy is NULL",
        ),
        (
            "null output",
            c"strict".as_ptr(),
            &p,
            &m,
            ptr::null_mut(),
            BcStatus::NullPointer,
            "out_codes is NULL",
        ),
    ];
    for (what, policy, pk, msg, out, status, message) in cases {
        let mut fresh = [0xAAu8; 4];
        let out = if out.is_null() { out } else { fresh.as_mut_ptr() };
        // SAFETY: every pointer is NULL or valid for 4 items.
        let got = unsafe { bc_verify_ed25519(e.0, policy, 4, pk, &s, msg, out) };
        assert_eq!(got, status, "{what}");
        let err = last_error();
        assert!(
            err.starts_with("bc_verify_ed25519: ") && err.contains(message),
            "{what}: {err}"
        );
        assert_eq!(fresh, [0xAA; 4], "{what}: outputs untouched");
    }
    // SAFETY: a NULL engine is an error, not a dereference.
    let got = unsafe { bc_verify_ed25519(ptr::null(), c"strict".as_ptr(), 4, &p, &s, &m, codes.as_mut_ptr()) };
    assert_eq!(got, BcStatus::NullPointer);
    assert!(last_error().contains("engine is NULL"));
}

#[test]
fn no_items_need_no_buffers() {
    let e = engine();
    let empty = BcColumn {
        data: ptr::null(),
        data_len: 0,
        width: 0,
        offsets: ptr::null(),
    };
    // SAFETY: zero items; NULL buffers are allowed then.
    let status = unsafe { bc_hash(e.0, c"keccak256".as_ptr(), 0, &empty, ptr::null_mut()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    let mut root = [0u8; 32];
    // SAFETY: as above; a root needs a leaf.
    let status = unsafe { bc_merkle_root(e.0, c"bitcoin".as_ptr(), 0, &empty, root.as_mut_ptr()) };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("at least one leaf"), "{}", last_error());
}

#[test]
fn engines_are_shared_between_threads() {
    let e = engine();
    let Items {
        pks,
        sigs,
        msgs,
        offsets,
        want,
    } = items();
    let shared = e.0 as usize;
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                let (p, s, m) = (fixed(&pks, 32), fixed(&sigs, 64), delimited(&msgs, &offsets));
                for _ in 0..20 {
                    let mut codes = [0u8; 4];
                    // SAFETY: the engine outlives the scope; columns valid.
                    let status = unsafe {
                        bc_verify_ed25519(
                            shared as *const BcEngine,
                            c"strict".as_ptr(),
                            4,
                            &p,
                            &s,
                            &m,
                            codes.as_mut_ptr(),
                        )
                    };
                    assert_eq!(status, BcStatus::Ok);
                    assert_eq!(codes.to_vec(), want);
                }
            });
        }
    });
}

#[test]
fn engine_options_are_checked() {
    let options = BcEngineOptions {
        backend: c"quantum".as_ptr(),
        threads: 0,
        adapter: ptr::null(),
    };
    let mut e = ptr::dangling_mut::<BcEngine>();
    // SAFETY: valid options and out pointer.
    assert_eq!(unsafe { bc_engine_new(&options, &mut e) }, BcStatus::InvalidArgument);
    assert!(e.is_null(), "out is NULL after a failure");
    assert!(last_error().contains("options.backend"), "{}", last_error());
    // SAFETY: NULL out is an error, not a write.
    let status = unsafe { bc_engine_new(ptr::null(), ptr::null_mut()) };
    assert_eq!(status, BcStatus::NullPointer);
    // SAFETY: bc_version returns a static string.
    let v = unsafe { CStr::from_ptr(bc_version()) };
    assert_eq!(v.to_str(), Ok(env!("CARGO_PKG_VERSION")));
}

/// The operations beyond the signature columns answer as the library
/// does, row by row, and name their bad arguments.
#[test]
fn precompiles_kems_aggregates_ntts_and_msms() {
    let h = engine();
    let lib = Engine::builder()
        .backend(BackendChoice::Cpu)
        .threads(2)
        .build()
        .expect("a CPU engine");

    // bn256-add: two zero calls (64 zero bytes each) and one of 5 bytes.
    let inputs = [0u8; 128 + 5];
    let offsets = [0u64, 128, 133, 133];
    let mut outputs = [7u8; 3 * 64];
    let mut errors = [7u8; 3];
    // SAFETY: valid engine, column and output sizes.
    let status = unsafe {
        bc_evm(
            h.0,
            c"bn256-add".as_ptr(),
            3,
            &delimited(&inputs, &offsets),
            outputs.as_mut_ptr(),
            64,
            errors.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!((outputs, errors), ([0u8; 192], [0u8; 3]));
    // The EIP-2537 pairing rejects empty input: the call's error, zeros.
    let mut word = [7u8; 32];
    // SAFETY: as above.
    let status = unsafe {
        bc_evm(
            h.0,
            c"eip2537-pairing".as_ptr(),
            1,
            &delimited(&[], &[0, 0]),
            word.as_mut_ptr(),
            32,
            errors.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(word, [0u8; 32]);
    // SAFETY: a static string or NULL.
    let name = unsafe { CStr::from_ptr(bc_precompile_error_name(errors[0])) };
    assert_eq!(name.to_str(), Ok("invalid_length"));
    assert!(bc_precompile_error_name(0).is_null());
    // SAFETY: as above; the width is wrong.
    let status = unsafe {
        bc_evm(
            h.0,
            c"bls-g1msm".as_ptr(),
            1,
            &delimited(&[], &[0, 0]),
            word.as_mut_ptr(),
            32,
            errors.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert_eq!(last_error(), "bc_evm: out_width: 32, but bls-g1msm returns 128 bytes");
    // MODEXP: outputs of the calls' own mod_len from the start of rows of
    // the caller's width: 3^5 mod 7 in one byte, 2^3 mod 0x000b in two,
    // a length over EIP-7823's bound (zeros and its failure), nothing.
    let call = |lens: [u8; 3], operands: &[u8]| {
        let mut input = Vec::new();
        for len in lens {
            input.extend([0u8; 31]);
            input.push(len);
        }
        input.extend_from_slice(operands);
        input
    };
    let mut over = call([1, 1, 1], &[3, 5, 7]);
    over[62..64].copy_from_slice(&1025u16.to_be_bytes());
    let calls = [
        call([1, 1, 1], &[3, 5, 7]),
        call([1, 1, 2], &[2, 3, 0, 11]),
        over,
        Vec::new(),
    ];
    let (mut inputs, mut offsets) = (Vec::new(), vec![0u64]);
    for c in &calls {
        inputs.extend_from_slice(c);
        offsets.push(inputs.len() as u64);
    }
    let (mut rows, mut codes) = ([7u8; 4 * 3], [7u8; 4]);
    // SAFETY: a valid column of four calls, rows of 3 bytes.
    let status = unsafe {
        bc_evm(
            h.0,
            c"modexp".as_ptr(),
            4,
            &delimited(&inputs, &offsets),
            rows.as_mut_ptr(),
            3,
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(rows, [5, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(codes, [0, 0, 11, 0]);
    // SAFETY: a static string or NULL.
    let name = unsafe { CStr::from_ptr(bc_precompile_error_name(11)) };
    assert_eq!(name.to_str(), Ok("operand_too_long"));
    // A row too narrow for a call's output is an error naming the call.
    // SAFETY: as above, rows of one byte.
    let status = unsafe {
        bc_evm(
            h.0,
            c"modexp".as_ptr(),
            2,
            &delimited(&inputs, &offsets[..3]),
            rows.as_mut_ptr(),
            1,
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert_eq!(last_error(), "bc_evm: out_width: 1, but call 1 returns 2 bytes");

    // ML-KEM-512: keygen of two seeds (the second d 31 bytes), encaps with
    // and without m, decaps: the library's rows.
    let mut sizes = [0usize; 4];
    // SAFETY: four writable size_ts.
    assert_eq!(unsafe { bc_mlkem_sizes(512, sizes.as_mut_ptr()) }, BcStatus::Ok);
    let [ek_len, dk_len, ct_len, ss_len] = sizes;
    let set = batchcrypto::ops::mlkem::Set::Mlkem512;
    assert_eq!(sizes, [set.ek_len(), set.dk_len(), set.ct_len(), 32]);
    let (seeds, zs) = ([5u8; 63], [6u8; 64]);
    let (mut eks, mut dks, mut codes) = (vec![9u8; 2 * ek_len], vec![9u8; 2 * dk_len], [9u8; 2]);
    // SAFETY: valid columns and outputs of two rows.
    let status = unsafe {
        bc_mlkem_keygen(
            h.0,
            512,
            2,
            &delimited(&seeds, &[0, 32, 63]),
            &fixed(&zs, 32),
            eks.as_mut_ptr(),
            dks.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    let want = batchcrypto::flat::mlkem_keygen(
        &lib,
        set,
        &batchcrypto::flat::Column::offsets("ds", &seeds, &[0, 32, 63]),
        &batchcrypto::flat::Column::fixed("zs", &zs, 32),
    )
    .expect("two items")
    .output;
    let pair = want[0].as_ref().expect("32-byte seeds");
    assert_eq!((&eks[..ek_len], &dks[..dk_len]), (&pair.ek[..], &pair.dk[..]));
    assert_eq!(codes, [0, want[1].as_ref().expect_err("31 bytes").number()]);
    assert!(eks[ek_len..].iter().chain(&dks[dk_len..]).all(|&b| b == 0));
    let m = [3u8; 32];
    let (mut cts, mut secrets, mut code) = (vec![0u8; ct_len], vec![0u8; ss_len], [9u8; 1]);
    for ms in [Some(fixed(&m, 32)), None] {
        let ms_ptr = ms.as_ref().map_or(ptr::null(), |c| c as *const BcColumn);
        // SAFETY: one row each.
        let status = unsafe {
            bc_mlkem_encaps(
                h.0,
                512,
                1,
                &fixed(&eks[..ek_len], ek_len),
                ms_ptr,
                cts.as_mut_ptr(),
                secrets.as_mut_ptr(),
                code.as_mut_ptr(),
            )
        };
        assert_eq!((status, code), (BcStatus::Ok, [0]), "{}", last_error());
        let mut again = vec![0u8; ss_len];
        // SAFETY: one row each.
        let status = unsafe {
            bc_mlkem_decaps(
                h.0,
                512,
                1,
                &fixed(&dks[..dk_len], dk_len),
                &fixed(&cts, ct_len),
                again.as_mut_ptr(),
                code.as_mut_ptr(),
            )
        };
        assert_eq!((status, code), (BcStatus::Ok, [0]), "{}", last_error());
        assert_eq!(again, secrets);
    }
    // SAFETY: as above; the set is wrong.
    let status = unsafe { bc_mlkem_sizes(500, sizes.as_mut_ptr()) };
    assert_eq!(
        (status, last_error().as_str()),
        (
            BcStatus::InvalidArgument,
            "bc_mlkem_sizes: set: 500 (expected 512, 768 or 1024)"
        )
    );

    // BLS fast aggregates: the groups are required and checked.
    let (pks, sigs, msg) = ([0u8; 48 * 2], [0u8; 96], *b"m");
    let mut verdict = [9u8; 1];
    // SAFETY: valid columns, NULL groups.
    let status = unsafe {
        bc_verify_bls_fast_aggregate(
            h.0,
            2,
            &fixed(&pks, 48),
            1,
            ptr::null(),
            &fixed(&msg, 1),
            &fixed(&sigs, 96),
            verdict.as_mut_ptr(),
        )
    };
    assert_eq!(
        (status, last_error().as_str()),
        (BcStatus::NullPointer, "bc_verify_bls_fast_aggregate: groups is NULL")
    );
    // SAFETY: valid columns and groups.
    let status = unsafe {
        bc_verify_bls_fast_aggregate(
            h.0,
            2,
            &fixed(&pks, 48),
            1,
            [0u64, 3].as_ptr(),
            &fixed(&msg, 1),
            &fixed(&sigs, 96),
            verdict.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(
        last_error().ends_with("groups: position 3 is past the 2 keys of pks"),
        "{}",
        last_error()
    );
    assert_eq!(verdict, [9], "untouched on an error");
    // SAFETY: as above; zero keys cannot verify.
    let status = unsafe {
        bc_verify_bls_aggregate(
            h.0,
            0,
            &fixed(&[], 48),
            &fixed(&[], 1),
            1,
            [0u64, 0].as_ptr(),
            &fixed(&sigs, 96),
            verdict.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_ne!(verdict, [0]);

    // NTT: two Goldilocks polynomials of 16 elements, the library's values.
    let polys: Vec<u8> = (0..2 * 16 * 8).map(|i| (i % 13) as u8).collect();
    let (mut values, mut codes) = (vec![9u8; polys.len()], [9u8; 2]);
    let mut options = BcNttOptions {
        field: c"goldilocks".as_ptr(),
        log_n: 4,
        inverse: true,
        input_order: ptr::null(),
        output_order: c"bit-reversed".as_ptr(),
        coset: ptr::null(),
        coset_len: 0,
        modulus: 0,
    };
    let ntt_status = |options: &BcNttOptions, values: &mut [u8], codes: &mut [u8; 2]| {
        // SAFETY: valid options, column and outputs.
        unsafe {
            bc_ntt(
                h.0,
                options,
                2,
                &fixed(&polys, 128),
                values.as_mut_ptr(),
                codes.as_mut_ptr(),
            )
        }
    };
    // The library's answers to the same call.
    let library = |t: &batchcrypto::ops::ntt::Transform| -> Vec<u8> {
        let out = lib.ntt(t, &polys).expect("two polynomials").output;
        out.into_iter().flat_map(|r| r.expect("canonical")).collect()
    };
    let status = ntt_status(&options, &mut values, &mut codes);
    assert_eq!((status, codes), (BcStatus::Ok, [0, 0]), "{}", last_error());
    let mut t = batchcrypto::ops::ntt::Transform::new(batchcrypto::ops::ntt::Field::Goldilocks, 4);
    t.direction = batchcrypto::ops::ntt::Direction::Inverse;
    t.output_order = batchcrypto::ops::ntt::Order::BitReversed;
    assert_eq!(values, library(&t));
    options.input_order = c"sideways".as_ptr();
    assert_eq!(ntt_status(&options, &mut values, &mut codes), BcStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "bc_ntt: options.input_order: \"sideways\": expected natural or bit-reversed"
    );
    // The negacyclic transform over a prime of the caller's (63 bits, above
    // every element here), and the same without its modulus.
    options.field = c"prime64-negacyclic".as_ptr();
    options.input_order = ptr::null();
    options.modulus = 0x7fff_ffff_d200_0001;
    let status = ntt_status(&options, &mut values, &mut codes);
    assert_eq!((status, codes), (BcStatus::Ok, [0, 0]), "{}", last_error());
    t.field = batchcrypto::ops::ntt::Field::Prime64Negacyclic;
    t.modulus = Some(0x7fff_ffff_d200_0001);
    assert_eq!(values, library(&t));
    options.modulus = 0;
    assert_eq!(ntt_status(&options, &mut values, &mut codes), BcStatus::InvalidArgument);
    assert!(
        last_error().contains("prime64-negacyclic needs a modulus"),
        "{}",
        last_error()
    );

    // MSM on BN254: the identity (0, 0) times 5 is the identity; a point
    // off the curve is the answer's reason; the sum's size is checked.
    let scalar = {
        let mut s = [0u8; 32];
        s[0] = 5;
        s
    };
    let mut point = [0u8; 64];
    let (mut sum, mut code) = ([9u8; 64], 9u8);
    let mut msm = |point: &[u8], sum_len: usize, code: &mut u8| {
        // SAFETY: valid buffers of the lengths given (sum_len at most 64).
        unsafe {
            bc_msm(
                h.0,
                c"bn254-g1".as_ptr(),
                c"uncompressed".as_ptr(),
                point.as_ptr(),
                point.len(),
                scalar.as_ptr(),
                32,
                sum.as_mut_ptr(),
                sum_len,
                code,
            )
        }
    };
    assert_eq!(
        (msm(&point, 64, &mut code), code),
        (BcStatus::Ok, 0),
        "{}",
        last_error()
    );
    point[63] = 1;
    assert_eq!(msm(&point, 64, &mut code), BcStatus::Ok, "{}", last_error());
    // SAFETY: a static string.
    let name = unsafe { CStr::from_ptr(bc_reason_name(code)) };
    assert_eq!(name.to_str(), Ok("not_on_curve"));
    assert_eq!(msm(&point, 32, &mut code), BcStatus::InvalidArgument);
    assert_eq!(sum, [0u8; 64], "the identity, then zeros for the bad point");
    assert_eq!(
        last_error(),
        "bc_msm: out_sum_len: 32, but a bn254-g1 point uncompressed is 64 bytes"
    );

    // Bases checked once: the generator (1, 2) twice and the identity,
    // summed with two scalar vectors as bc_msm sums them; a wrong scalar
    // count and a bad point refused with their reasons.
    let mut g = [0u8; 64];
    (g[31], g[63]) = (1, 2);
    let points = [g, g, [0u8; 64]].concat();
    let mut bases: *mut BcMsmBases = std::ptr::null_mut();
    // SAFETY: valid buffers; `bases` writable.
    let status = unsafe {
        bc_msm_bases_new(
            h.0,
            c"bn254-g1".as_ptr(),
            c"uncompressed".as_ptr(),
            points.as_ptr(),
            points.len(),
            &mut bases,
        )
    };
    assert_eq!((status, bases.is_null()), (BcStatus::Ok, false), "{}", last_error());
    for k in [3u8, 200] {
        let scalars: Vec<u8> = (0..3u8)
            .flat_map(|i| {
                let mut s = [0u8; 32];
                s[0] = k + i;
                s
            })
            .collect();
        let (mut want, mut with, mut code) = ([0u8; 64], [1u8; 64], 9u8);
        // SAFETY: valid buffers of the lengths given.
        let statuses = unsafe {
            [
                bc_msm(
                    h.0,
                    c"bn254-g1".as_ptr(),
                    c"uncompressed".as_ptr(),
                    points.as_ptr(),
                    points.len(),
                    scalars.as_ptr(),
                    scalars.len(),
                    want.as_mut_ptr(),
                    64,
                    &mut code,
                ),
                bc_msm_with(h.0, bases, scalars.as_ptr(), scalars.len(), with.as_mut_ptr(), 64),
            ]
        };
        assert_eq!(statuses, [BcStatus::Ok; 2], "{}", last_error());
        assert_eq!((with, code), (want, 0), "scalars {k}..");
        assert_ne!(want, [0u8; 64]);
    }
    let mut out = [0u8; 64];
    // SAFETY: valid buffers of the lengths given.
    let status = unsafe { bc_msm_with(h.0, bases, [0u8; 64].as_ptr(), 64, out.as_mut_ptr(), 64) };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("3 bases need 96 bytes"), "{}", last_error());
    // SAFETY: made above, freed once.
    unsafe { bc_msm_bases_free(bases) };
    let mut bad = points.clone();
    bad[64 + 63] ^= 1;
    let mut bases: *mut BcMsmBases = std::ptr::NonNull::dangling().as_ptr();
    // SAFETY: valid buffers; `bases` writable.
    let status = unsafe {
        bc_msm_bases_new(
            h.0,
            c"bn254-g1".as_ptr(),
            c"uncompressed".as_ptr(),
            bad.as_ptr(),
            bad.len(),
            &mut bases,
        )
    };
    assert_eq!((status, bases.is_null()), (BcStatus::InvalidArgument, true));
    assert!(last_error().contains("point 1: not_on_curve"), "{}", last_error());
}

/// EIP-7594 cells through `bc_verify_kzg_cells`: the library's verdicts
/// on a hostile sample (an index past 127 among them); a NULL `indices`
/// for items and a short cell column named, the outputs untouched.
#[test]
fn kzg_cells() {
    use batchcrypto::ops::kzg::{self, sample};
    let h = engine();
    let mut items: Vec<kzg::CellItem> = sample::generate_range(0..60, 0.5, 9)
        .into_iter()
        .map(|(i, _)| i)
        .collect();
    items[3].index = 200;
    let lib = Engine::builder()
        .backend(BackendChoice::Cpu)
        .without_profile()
        .build()
        .expect("engine");
    let want: Vec<u8> = lib
        .verify_kzg_cells(&items)
        .expect("verify")
        .output
        .iter()
        .map(batchcrypto::flat::verdict_code)
        .collect();
    assert!(
        want.contains(&0) && want.contains(&30) && want.contains(&29),
        "{want:?}"
    );
    let n = items.len();
    let commitments: Vec<u8> = items.iter().flat_map(|i| i.commitment).collect();
    let proofs: Vec<u8> = items.iter().flat_map(|i| i.proof).collect();
    let cells: Vec<u8> = items.iter().flat_map(|i| i.cell.iter().copied()).collect();
    let indices: Vec<u64> = items.iter().map(|i| i.index).collect();
    let (c, p, x) = (fixed(&commitments, 48), fixed(&proofs, 48), fixed(&cells, 2048));
    let mut codes = vec![0xAAu8; n];
    // SAFETY: columns of n items, n indices, n output bytes.
    let status = unsafe { bc_verify_kzg_cells(h.0, n, &c, indices.as_ptr(), &x, &p, codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, want);
    let short = fixed(&cells[..2048 * (n - 1)], 2048);
    for (indices, cells, status, message) in [
        (ptr::null(), &x, BcStatus::NullPointer, "indices is NULL"),
        (
            indices.as_ptr(),
            &short,
            BcStatus::InvalidArgument,
            "cells: 120832 bytes, expected 60 items of 2048 bytes",
        ),
    ] {
        let mut fresh = vec![0xAAu8; n];
        // SAFETY: every pointer NULL or valid for n items.
        let got = unsafe { bc_verify_kzg_cells(h.0, n, &c, indices, cells, &p, fresh.as_mut_ptr()) };
        assert_eq!(got, status, "{message}");
        assert!(last_error().contains(message), "{}", last_error());
        assert!(fresh.iter().all(|&b| b == 0xAA), "{message}: outputs untouched");
    }
}

/// EIP-7594 blobs and recoveries through `bc_kzg_compute_cells` and
/// `bc_kzg_recover_cells`: the library's rows and reason numbers (zeros
/// where an item has a reason); a partial blob, groups past the cells and
/// a NULL `groups` named, the outputs untouched.
#[test]
fn kzg_blobs_and_recoveries() {
    use batchcrypto::ops::kzg::{self, sample};
    let h = engine();
    let lib = Engine::builder()
        .backend(BackendChoice::Cpu)
        .without_profile()
        .build()
        .expect("engine");
    let made = sample::blobs_range(0..3, 0.0, 10);
    let mut blobs: Vec<u8> = made.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    blobs[kzg::BLOB_LEN..kzg::BLOB_LEN + 32].fill(0xff);
    let want = lib.kzg_compute_cells(&blobs).expect("blobs").output;
    let n = 3;
    let b = fixed(&blobs, kzg::BLOB_LEN);
    let (mut commitments, mut cells, mut proofs, mut codes) = (
        vec![0xAAu8; 48 * n],
        vec![0xAAu8; kzg::EXTENDED_CELLS_LEN * n],
        vec![0xAAu8; kzg::EXTENDED_PROOFS_LEN * n],
        vec![0xAAu8; n],
    );
    // SAFETY: a column of n blobs, outputs of n rows.
    let status = unsafe {
        bc_kzg_compute_cells(
            h.0,
            n,
            &b,
            commitments.as_mut_ptr(),
            cells.as_mut_ptr(),
            proofs.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, vec![0, 26, 0], "blob 1 has an element above r");
    for (i, w) in want.iter().enumerate() {
        let row = |v: &[u8], width: usize| v[i * width..(i + 1) * width].to_vec();
        match w {
            Ok(made) => {
                assert_eq!(row(&commitments, 48), made.commitment);
                assert_eq!(row(&cells, kzg::EXTENDED_CELLS_LEN), made.extended.cells.as_flattened());
                assert_eq!(
                    row(&proofs, kzg::EXTENDED_PROOFS_LEN),
                    made.extended.proofs.as_flattened()
                );
            }
            Err(_) => assert!(row(&cells, kzg::EXTENDED_CELLS_LEN).iter().all(|&x| x == 0)),
        }
    }
    let partial = fixed(&blobs[..kzg::BLOB_LEN * 2 + 1], kzg::BLOB_LEN);
    let mut fresh = vec![0xAAu8; n];
    // SAFETY: outputs of n rows (the column's bytes are refused first).
    let got = unsafe {
        bc_kzg_compute_cells(
            h.0,
            n,
            &partial,
            commitments.as_mut_ptr(),
            cells.as_mut_ptr(),
            proofs.as_mut_ptr(),
            fresh.as_mut_ptr(),
        )
    };
    assert_eq!(got, BcStatus::InvalidArgument);
    assert!(fresh.iter().all(|&x| x == 0xAA), "outputs untouched");

    // Two recoveries: a honest one and one of too few cells.
    let item = sample::recover_range(0..1, 0.0, 10).remove(0).0;
    let k = item.cells.len() as u64;
    let groups = [0, k, k + 10];
    let mut indices = item.indices.clone();
    indices.extend(0..10);
    let mut flat_cells: Vec<u8> = item.cells.concat();
    flat_cells.extend(item.cells[..10].concat());
    let x = fixed(&flat_cells, kzg::CELL_LEN);
    let want = lib
        .kzg_recover_cells(std::slice::from_ref(&item))
        .expect("recover")
        .output;
    let (mut cells, mut proofs, mut codes) = (
        vec![0xAAu8; kzg::EXTENDED_CELLS_LEN * 2],
        vec![0xAAu8; kzg::EXTENDED_PROOFS_LEN * 2],
        vec![0xAAu8; 2],
    );
    // SAFETY: groups of 3 positions, indices and cells of k + 10, outputs of 2 rows.
    let status = unsafe {
        bc_kzg_recover_cells(
            h.0,
            2,
            groups.as_ptr(),
            indices.len(),
            indices.as_ptr(),
            &x,
            cells.as_mut_ptr(),
            proofs.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, vec![0, 36]);
    let recovered = want[0].as_ref().expect("recovered");
    assert_eq!(&cells[..kzg::EXTENDED_CELLS_LEN], recovered.cells.as_flattened());
    assert_eq!(&proofs[..kzg::EXTENDED_PROOFS_LEN], recovered.proofs.as_flattened());
    assert!(cells[kzg::EXTENDED_CELLS_LEN..].iter().all(|&x| x == 0));
    let past = [0, k, k + 11];
    for (groups, message) in [(past.as_ptr(), "past the"), (ptr::null(), "groups is NULL")] {
        let mut fresh = vec![0xAAu8; 2];
        // SAFETY: groups NULL or 3 positions; the rest as above.
        let got = unsafe {
            bc_kzg_recover_cells(
                h.0,
                2,
                groups,
                indices.len(),
                indices.as_ptr(),
                &x,
                cells.as_mut_ptr(),
                proofs.as_mut_ptr(),
                fresh.as_mut_ptr(),
            )
        };
        assert_ne!(got, BcStatus::Ok, "{message}");
        assert!(last_error().contains(message), "{message}: {}", last_error());
        assert!(fresh.iter().all(|&b| b == 0xAA), "{message}: outputs untouched");
    }
}

/// (pk, msg, sig, ctx).
type ContextItem = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

/// ML-DSA and SLH-DSA through their C entry points: each item's reason
/// number the library's (a context column and NULL contexts alike, keys
/// and signatures of every length as items), and an unknown set or level
/// an error naming it with the outputs untouched.
#[test]
fn signatures_with_contexts() {
    use batchcrypto::ops::{mldsa, slhdsa};
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let columns = |items: &[ContextItem]| {
        let mut cols: [(Vec<u8>, Vec<u64>); 4] = Default::default();
        for it in items {
            for (k, field) in [&it.0, &it.1, &it.2, &it.3].into_iter().enumerate() {
                if cols[k].1.is_empty() {
                    cols[k].1.push(0);
                }
                cols[k].0.extend_from_slice(field);
                cols[k].1.push(cols[k].0.len() as u64);
            }
        }
        cols
    };
    let codes_of = |verdicts: &[batchcrypto::Verdict]| -> Vec<u8> {
        verdicts.iter().map(batchcrypto::flat::verdict_code).collect()
    };
    // (pk, msg, sig, ctx) per item.
    let slh: Vec<_> = slhdsa::sample::generate(slhdsa::Set::Sha2_128f, 40, 0.7, 5)
        .into_iter()
        .map(|it| (it.pk, it.msg, it.sig, it.ctx))
        .collect();
    let mld: Vec<_> = mldsa::sample::generate(mldsa::Level::Mldsa44, 40, 3, 0.7, 5)
        .into_iter()
        .map(|it| (it.pk, it.msg, it.sig, it.ctx))
        .collect();
    for (name, items) in [("slh-dsa-sha2-128f", &slh), ("ml-dsa-44", &mld)] {
        let mut batch = batchcrypto::batch::ContextBatch::new();
        for it in items.iter() {
            batch.push(&it.0, &it.1, &it.2, &it.3).expect("push");
        }
        let verdicts = if name.starts_with("slh") {
            library.verify_slhdsa(slhdsa::Set::Sha2_128f, &batch)
        } else {
            library.verify_mldsa(mldsa::Level::Mldsa44, &batch)
        }
        .expect("verify")
        .output;
        let want = codes_of(&verdicts);
        assert!(want.contains(&0) && want.iter().any(|&c| c != 0), "{name}: {want:?}");
        let [pks, msgs, sigs, ctxs] = columns(items);
        let (p, m, s, c) = (
            delimited(&pks.0, &pks.1),
            delimited(&msgs.0, &msgs.1),
            delimited(&sigs.0, &sigs.1),
            delimited(&ctxs.0, &ctxs.1),
        );
        let set = std::ffi::CString::new(name).expect("name");
        let n = items.len();
        let mut codes = vec![0xAAu8; n];
        let call = |set: &CStr, ctx: *const BcColumn, codes: &mut [u8]| {
            // SAFETY: columns of n items, n output bytes.
            unsafe {
                if name.starts_with("slh") {
                    bc_verify_slhdsa(e.0, set.as_ptr(), n, &p, &s, &m, ctx, codes.as_mut_ptr())
                } else {
                    bc_verify_mldsa(e.0, set.as_ptr(), n, &p, &s, &m, ctx, codes.as_mut_ptr())
                }
            }
        };
        assert_eq!(call(&set, &c, &mut codes), BcStatus::Ok, "{name}: {}", last_error());
        assert_eq!(codes, want, "{name}");
        // NULL contexts: the empty context, so the items signed with one
        // now fail (and those with an empty one keep their verdicts).
        let mut null_codes = vec![0xAAu8; n];
        assert_eq!(call(&set, ptr::null(), &mut null_codes), BcStatus::Ok, "{name}");
        for (i, it) in items.iter().enumerate() {
            if it.3.is_empty() {
                assert_eq!(null_codes[i], want[i], "{name} item {i}");
            }
        }
        let mut untouched = vec![0xAAu8; n];
        assert_eq!(
            call(c"sha2-999s", &c, &mut untouched),
            BcStatus::InvalidArgument,
            "{name}"
        );
        assert!(last_error().contains("sha2-999s"), "{}", last_error());
        assert!(untouched.iter().all(|&b| b == 0xAA), "{name}: outputs untouched");
    }
}

/// `bc_poseidon_bn254`: items of every width, honest and hostile, as a
/// delimited column give the library's hashes and reason codes (zeros in
/// a refused item's row); a fixed-width column of two-element items too;
/// a NULL output is named and leaves the other output untouched.
#[test]
fn poseidon_hashes() {
    use batchcrypto::ops::poseidon::{self, ELEMENT_LEN, MAX_INPUTS};
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let made = poseidon::sample::items(60, 8, 0.4, |i| 1 + i % MAX_INPUTS);
    let (bytes, offsets, flat) = back_to_back(made.iter().map(|(item, _)| item));
    let want = library.poseidon_bn254(&flat).expect("poseidon").output;
    assert!(want.iter().any(Result::is_ok) && want.iter().any(Result::is_err));
    let n = made.len();
    let column = delimited(&bytes, &offsets);
    let (mut hashes, mut codes) = (vec![0xaau8; ELEMENT_LEN * n], vec![0xaau8; n]);
    // SAFETY: a valid engine and column; outputs of n rows.
    let status = unsafe { bc_poseidon_bn254(e.0, n, &column, hashes.as_mut_ptr(), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_rows(&want, &hashes, &codes);
    // Two elements per item as a fixed-width column.
    let pairs: Vec<u8> = (1u8..=8).flat_map(|k| [[0u8; 31].as_slice(), &[k]].concat()).collect();
    let mut hashes = vec![0u8; ELEMENT_LEN * 4];
    let mut codes = vec![0xaau8; 4];
    // SAFETY: as above, four items of 64 bytes.
    let status = unsafe { bc_poseidon_bn254(e.0, 4, &fixed(&pairs, 64), hashes.as_mut_ptr(), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, [0; 4]);
    for (k, h) in hashes.chunks_exact(ELEMENT_LEN).enumerate() {
        assert_eq!(
            h,
            &poseidon::oracle::hash(&pairs[64 * k..64 * (k + 1)]).expect("a hash")[..]
        );
    }
    // poseidon([1, 2]), circomlibjs's answer.
    assert_eq!(
        hex::encode(&hashes[..ELEMENT_LEN]),
        "115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"
    );
    // A NULL output is named; nothing is written.
    let mut codes = vec![0xaau8; 4];
    // SAFETY: NULL is the error under test.
    let status = unsafe { bc_poseidon_bn254(e.0, 4, &fixed(&pairs, 64), ptr::null_mut(), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains("out_hashes"), "{}", last_error());
    assert_eq!(codes, [0xaa; 4]);
}

/// `bc_merkle_root` under lean-imt-poseidon: a Semaphore v4 group's root
/// (`testdata/poseidon/lean-imt.json`'s first case); a leaf not below r is
/// the call's error, naming it, and the root is left untouched.
#[test]
fn lean_imt_poseidon_roots() {
    let e = engine();
    let element = |v: u128| -> [u8; 32] {
        let mut out = [0u8; 32];
        out[16..].copy_from_slice(&v.to_be_bytes());
        out
    };
    let leaves: Vec<u8> = [1u128, 2, 3]
        .iter()
        .flat_map(|k| element(k * 100_000_000_000_000_000_000_000_000_000))
        .collect();
    let mut root = [0xaau8; 32];
    // SAFETY: a valid engine, three leaves of 32 bytes, a 32-byte root.
    let status = unsafe {
        bc_merkle_root(
            e.0,
            c"lean-imt-poseidon".as_ptr(),
            3,
            &fixed(&leaves, 32),
            root.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    // 9130007428544271791338115123915220727467361888518863494831750410170124565752
    assert_eq!(
        hex::encode(root),
        "142f66ad190847f0efceeebf625691f4184bbe7fa477ba1cb003f8ba0f797cf8"
    );
    let mut bad = leaves.clone();
    bad[64..].fill(0xff);
    let mut root = [0xaau8; 32];
    // SAFETY: as above.
    let status = unsafe {
        bc_merkle_root(
            e.0,
            c"lean-imt-poseidon".as_ptr(),
            3,
            &fixed(&bad, 32),
            root.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("leaf 2 is not below"), "{}", last_error());
    assert_eq!(root, [0xaa; 32]);
    // Padded: the empty tree of height 26 (NULL zero: zeros) has Light
    // Protocol's root; a zero value not below r is named.
    let empty = fixed(&[], 32);
    // SAFETY: a valid engine, no leaves, a 32-byte root.
    let status = unsafe {
        bc_merkle_root_padded(
            e.0,
            c"lean-imt-poseidon".as_ptr(),
            26,
            ptr::null(),
            0,
            &empty,
            root.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(
        hex::encode(root),
        "120c58f143d491e95902f7f5277778a2e0ad5168f6add75669932630ce611518"
    );
    let zero = [0xff; 32];
    // SAFETY: as above, a 32-byte zero value.
    let status = unsafe {
        bc_merkle_root_padded(
            e.0,
            c"lean-imt-poseidon".as_ptr(),
            26,
            zero.as_ptr(),
            0,
            &empty,
            root.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("zero value is not below"), "{}", last_error());
}

/// `bc_verify_groth16`: generated proofs honest and hostile as rows of one
/// width (the short one in its own column of offsets) answer the
/// library's verdicts; a key that does not decode is the call's error,
/// naming what is wrong, and the codes are left untouched.
#[test]
fn groth16_proofs() {
    use batchcrypto::ops::groth16::{VerifyingKey, sample};
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let made = sample::generate(3, 48, 0.4, 21);
    let vk = VerifyingKey::from_bytes(&made.vk).expect("the sample's key");
    let (bytes, offsets, flat) = back_to_back(made.items.iter().map(|item| &item.bytes));
    let want: Vec<u8> = library
        .verify_groth16(&vk, &flat)
        .expect("verify")
        .output
        .iter()
        .map(|v| v.reason().map_or(0, |r| r.number()))
        .collect();
    assert!(want.contains(&0) && want.iter().any(|&c| c != 0));
    let n = made.items.len();
    let column = delimited(&bytes, &offsets);
    let mut codes = vec![0xaau8; n];
    // SAFETY: a valid engine, key and column; n codes.
    let status = unsafe { bc_verify_groth16(e.0, made.vk.as_ptr(), made.vk.len(), n, &column, codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, want);
    // The items of the key's width as a fixed-width column.
    let width = vk.item_len();
    let rows: Vec<u8> = made
        .items
        .iter()
        .filter(|it| it.bytes.len() == width)
        .flat_map(|it| it.bytes.clone())
        .collect();
    let m = rows.len() / width;
    let want_rows: Vec<u8> = made
        .items
        .iter()
        .zip(&want)
        .filter(|(it, _)| it.bytes.len() == width)
        .map(|(_, c)| *c)
        .collect();
    let mut codes = vec![0xaau8; m];
    // SAFETY: as above, m rows of the key's width.
    let status = unsafe {
        bc_verify_groth16(
            e.0,
            made.vk.as_ptr(),
            made.vk.len(),
            m,
            &fixed(&rows, width),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, want_rows);
    // A key one byte short is refused, naming why; nothing is written.
    let mut codes = vec![0xaau8; m];
    // SAFETY: a readable key of vk.len() - 1 bytes.
    let status = unsafe {
        bc_verify_groth16(
            e.0,
            made.vk.as_ptr(),
            made.vk.len() - 1,
            m,
            &fixed(&rows, width),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("64 per IC point"), "{}", last_error());
    assert_eq!(codes, vec![0xaa; m]);
}

/// `bc_verify_groth16_bls12_381`: generated proofs honest and hostile
/// answer the oracle's verdicts under the key in either form (arkworks'
/// compressed, bellman's uncompressed); a key that does not decode is the
/// call's error, naming what is wrong, and the codes are left untouched.
#[test]
fn groth16_bls12_381_proofs() {
    use batchcrypto::ops::groth16::bls12_381::{VerifyingKey, oracle, sample};
    let e = engine();
    let trapdoor = sample::Trapdoor::new(2, 33);
    let items = trapdoor.items(0..40, 0.4);
    let vk = VerifyingKey::from_bytes(&trapdoor.key()).expect("the sample's key");
    let (bytes, offsets, _) = back_to_back(items.iter().map(|item| &item.bytes));
    let oracle_valid: Vec<bool> = items.iter().map(|it| oracle::verify(&vk, &it.bytes)).collect();
    assert!(oracle_valid.contains(&true) && oracle_valid.contains(&false));
    let n = items.len();
    let column = delimited(&bytes, &offsets);
    for key in [trapdoor.key(), trapdoor.bellman_key()] {
        let mut codes = vec![0xaau8; n];
        // SAFETY: a valid engine, key and column; n codes.
        let status =
            unsafe { bc_verify_groth16_bls12_381(e.0, key.as_ptr(), key.len(), n, &column, codes.as_mut_ptr()) };
        assert_eq!(status, BcStatus::Ok, "{}", last_error());
        let valid: Vec<bool> = codes.iter().map(|&c| c == 0).collect();
        assert_eq!(valid, oracle_valid);
        assert!(codes.iter().all(|&c| c != 0xaa));
    }
    // A key one byte short is refused, naming why; nothing is written.
    let key = trapdoor.key();
    let mut codes = vec![0xaau8; n];
    // SAFETY: a readable key of key.len() - 1 bytes.
    let status =
        unsafe { bc_verify_groth16_bls12_381(e.0, key.as_ptr(), key.len() - 1, n, &column, codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("declaring 3 IC points"), "{}", last_error());
    assert_eq!(codes, vec![0xaa; n]);
}

/// `bc_verify_merkle_proofs`: generated proofs honest and hostile in a
/// column of offsets answer the library's verdicts, with and without a
/// depth (0: none) and under each rule's name; a padded tree's proofs as
/// a fixed-width column; a depth past 64 or an unknown rule is the call's
/// error and the codes are left untouched.
#[test]
fn merkle_proofs() {
    use batchcrypto::ops::merkle::{Rule, sample};
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    for rule in Rule::ALL {
        let name = std::ffi::CString::new(rule.name()).expect("a name");
        for depth in [0u32, 7] {
            let made = sample::proofs(rule, 60, 5, 0.4, (depth != 0).then_some(depth));
            let (bytes, offsets, flat) = back_to_back(made.iter().map(|(item, _)| item));
            let want: Vec<u8> = library
                .verify_merkle_proofs(rule, (depth != 0).then_some(depth), &flat)
                .expect("verify")
                .output
                .iter()
                .map(|v| v.reason().map_or(0, |r| r.number()))
                .collect();
            assert!(want.contains(&0) && want.iter().any(|&c| c != 0), "{rule} {depth}");
            let n = made.len();
            let mut codes = vec![0xaau8; n];
            // SAFETY: a valid engine, rule and column; n codes.
            let status = unsafe {
                bc_verify_merkle_proofs(
                    e.0,
                    name.as_ptr(),
                    depth,
                    n,
                    &delimited(&bytes, &offsets),
                    codes.as_mut_ptr(),
                )
            };
            assert_eq!(status, BcStatus::Ok, "{}", last_error());
            assert_eq!(codes, want, "{rule} depth {depth}");
            if depth == 0 {
                continue;
            }
            // The honest items: all of the depth's width.
            let width = 72 + 32 * depth as usize;
            let rows: Vec<u8> = made
                .iter()
                .filter(|(_, k)| *k == "valid")
                .flat_map(|(it, _)| it.clone())
                .collect();
            let m = rows.len() / width;
            let mut codes = vec![0xaau8; m];
            // SAFETY: as above, m rows of one width.
            let status = unsafe {
                bc_verify_merkle_proofs(e.0, name.as_ptr(), depth, m, &fixed(&rows, width), codes.as_mut_ptr())
            };
            assert_eq!(status, BcStatus::Ok, "{}", last_error());
            assert_eq!(codes, vec![0; m]);
        }
    }
    let item = [0u8; 72];
    for (rule, depth, what) in [(c"bitcoin", 65u32, "depth 65"), (c"sha256", 0, "sha256")] {
        let mut codes = [0xaau8; 1];
        // SAFETY: a valid engine and column; one code.
        let status =
            unsafe { bc_verify_merkle_proofs(e.0, rule.as_ptr(), depth, 1, &fixed(&item, 72), codes.as_mut_ptr()) };
        assert_eq!(status, BcStatus::InvalidArgument, "{what}");
        assert!(last_error().contains(what), "{}", last_error());
        assert_eq!(codes, [0xaa]);
    }
}

/// `bc_verify_mpt_proofs`: generated trie proofs honest and hostile (of
/// present and absent keys) in a column of offsets answer the library's
/// verdicts, each reason among them; a null column with items is the
/// call's error and the codes are left untouched.
#[test]
fn mpt_proofs() {
    use batchcrypto::ops::mpt::sample;
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let made = sample::proofs(150, 9, 0.4, true);
    let (bytes, offsets, flat) = back_to_back(made.iter().map(|(item, _)| item));
    let want: Vec<u8> = library
        .verify_mpt_proofs(&flat)
        .expect("verify")
        .output
        .iter()
        .map(|v| v.reason().map_or(0, |r| r.number()))
        .collect();
    for reason in [0, 31, 38, 41, 42] {
        assert!(want.contains(&reason), "{reason}");
    }
    let n = made.len();
    let mut codes = vec![0xaau8; n];
    // SAFETY: a valid engine and column; n codes.
    let status = unsafe { bc_verify_mpt_proofs(e.0, n, &delimited(&bytes, &offsets), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, want);
    let mut codes = [0xaau8; 1];
    // SAFETY: a valid engine; a null column, which the call refuses.
    let status = unsafe { bc_verify_mpt_proofs(e.0, 1, std::ptr::null(), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains("items"), "{}", last_error());
    assert_eq!(codes, [0xaa]);
}

/// `bc_verify_solana_txs`: generated Solana transactions honest and
/// hostile in a column of offsets answer the library's verdicts under
/// each policy, the small-order signers' `small_order_key` only under
/// strict; an unknown policy and a null column are the call's errors and
/// leave the codes untouched.
#[test]
fn solana_txs() {
    use batchcrypto::ops::solana_tx::sample;
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let made = sample::transactions(130, 4, 6, 0.5, true);
    let (bytes, offsets, flat) = back_to_back(made.iter().map(|(item, _)| item));
    let n = made.len();
    for (policy, name) in [
        (ed25519::Policy::Strict, c"strict"),
        (ed25519::Policy::Zip215, c"zip215"),
    ] {
        let want: Vec<u8> = library
            .verify_solana_txs(&flat, policy)
            .expect("verify")
            .output
            .iter()
            .map(|v| v.reason().map_or(0, |r| r.number()))
            .collect();
        // Valid, equation, malformed_key, non_canonical_s, malformed_transaction, sanitize_failure.
        for reason in [0, 29, 1, 3, 45, 50] {
            assert!(want.contains(&reason), "{policy}: {reason}");
        }
        assert_eq!(
            want.contains(&4),
            policy == ed25519::Policy::Strict,
            "{policy}: small_order_key"
        );
        let mut codes = vec![0xaau8; n];
        // SAFETY: a valid engine and column; n codes.
        let status =
            unsafe { bc_verify_solana_txs(e.0, name.as_ptr(), n, &delimited(&bytes, &offsets), codes.as_mut_ptr()) };
        assert_eq!(status, BcStatus::Ok, "{}", last_error());
        assert_eq!(codes, want, "{policy}");
    }
    let mut codes = [0xaau8; 1];
    // SAFETY: a valid engine and column; a policy no one has.
    let status = unsafe {
        bc_verify_solana_txs(
            e.0,
            c"lax".as_ptr(),
            1,
            &delimited(&bytes, &offsets),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("policy"), "{}", last_error());
    // SAFETY: a valid engine; a null column, which the call refuses.
    let status = unsafe { bc_verify_solana_txs(e.0, c"strict".as_ptr(), 1, ptr::null(), codes.as_mut_ptr()) };
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains("txs"), "{}", last_error());
    assert_eq!(codes, [0xaa]);
}

/// `bc_ordered_trie_roots`: generated lists honest and hostile in a
/// column of offsets give the library's roots and reason codes (zeros in
/// a refused item's row), mainnet block 15,571,241's transactions its
/// header's root among them; a NULL output is named and leaves the other
/// output untouched.
#[test]
fn ordered_trie_roots() {
    use batchcrypto::ops::ordered_trie::{self, sample};
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let mut made: Vec<Vec<u8>> = sample::lists(120, 4, 0.4, true).into_iter().map(|(m, _)| m).collect();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cli-golden/trie-root.jsonl"
    ))
    .expect("golden corpus");
    let block: serde_json::Value = serde_json::from_str(golden.lines().next().expect("a line")).expect("json");
    let values: Vec<Vec<u8>> = block["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| hex::decode(v.as_str().expect("hex").trim_start_matches("0x")).expect("hex"))
        .collect();
    made.insert(7, ordered_trie::encode(&values).expect("fits"));
    let (_, _, flat) = back_to_back(&made);
    let want = library.ordered_trie_roots(&flat).expect("roots").output;
    let numbers: Vec<u8> = want.iter().map(|w| w.err().map_or(0, |r| r.number())).collect();
    for reason in [0, 38, 43] {
        assert!(numbers.contains(&reason), "{reason}");
    }
    let roots = row_function(bc_ordered_trie_roots, "out_roots", &made, &want);
    assert_eq!(
        hex::encode(&roots[32 * 7..32 * 8]),
        "5f4773690718a2e37f45aa56458c6779a61b830fcf89485af5f32447c11f9b6c"
    );
}

/// `bc_tx_senders`: generated transactions of every type honest and
/// hostile, mainnet block 15,571,241's first among them, in a column of
/// offsets give the library's senders and reason codes (zeros in a
/// refused item's row), that transaction its known sender; a NULL output
/// is named and leaves the other output untouched.
#[test]
fn tx_senders() {
    use batchcrypto::ops::tx_sender::sample;
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let mut made: Vec<Vec<u8>> = sample::transactions(90, 3, 4, 0.5, true)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cli-golden/tx-sender.jsonl"
    ))
    .expect("golden corpus");
    let first: serde_json::Value = serde_json::from_str(golden.lines().next().expect("a line")).expect("json");
    made.insert(
        5,
        hex::decode(first["tx"].as_str().expect("hex").trim_start_matches("0x")).expect("hex"),
    );
    let (_, _, flat) = back_to_back(&made);
    let want = library.tx_senders(&flat).expect("senders").output;
    let numbers: Vec<u8> = want.iter().map(|w| w.err().map_or(0, |r| r.number())).collect();
    for reason in [0, 45, 46] {
        assert!(numbers.contains(&reason), "{reason}");
    }
    let senders = row_function(bc_tx_senders, "out_senders", &made, &want);
    assert_eq!(
        hex::encode(&senders[20 * 5..20 * 6]),
        "04be70565b05b35198845e623c9e51c67dd0c4b0"
    );
}

/// `bc_eip7702_authorities`: generated authorizations honest and hostile
/// and eth-account's first known one in a column of offsets give the
/// library's authorities and reason codes (zeros in a refused item's
/// row), that one its known authority; a NULL output is named and leaves
/// the other output untouched.
#[test]
fn eip7702_authorities() {
    use batchcrypto::ops::authority::sample;
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let mut made: Vec<Vec<u8>> = sample::authorizations(0..60, 3, 4, 0.5)
        .into_iter()
        .map(|(m, _)| m)
        .collect();
    let known: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/eth-txs/authorizations.json"
        ))
        .expect("known answers"),
    )
    .expect("json");
    made.insert(3, hex::decode(known[0]["rlp"].as_str().expect("hex")).expect("hex"));
    let (_, _, flat) = back_to_back(&made);
    let want = library.eip7702_authorities(&flat).expect("authorities").output;
    let numbers: Vec<u8> = want.iter().map(|w| w.err().map_or(0, |r| r.number())).collect();
    for reason in [0, 47] {
        assert!(numbers.contains(&reason), "{reason}");
    }
    let authorities = row_function(bc_eip7702_authorities, "out_authorities", &made, &want);
    assert_eq!(
        format!("0x{}", hex::encode(&authorities[20 * 3..20 * 4])),
        known[0]["authority"].as_str().expect("authority")
    );
}

/// `bc_verify_blocks`: the golden blocks (mainnet 15,571,241 whole, a
/// testnet block without its transactions, bytes that are no block) give
/// the library's codes, fields, numbers and hashes; a NULL output is named
/// and nothing is written.
#[test]
fn verify_blocks() {
    let e = engine();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cli-golden/block.jsonl"
    ))
    .expect("golden blocks");
    let blocks: Vec<Vec<u8>> = golden
        .lines()
        .take(2)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            hex::decode(v["block"].as_str().expect("hex").trim_start_matches("0x")).expect("hex")
        })
        .chain([vec![0xc0]])
        .collect();
    let (bytes, offsets, _) = back_to_back(&blocks);
    let n = blocks.len();
    let (mut codes, mut fields, mut numbers, mut hashes) = (
        vec![0xaau8; n],
        vec![0xaau8; n],
        vec![0xaau8; 8 * n],
        vec![0xaau8; 32 * n],
    );
    let column = delimited(&bytes, &offsets);
    // SAFETY: a valid engine and column; outputs of n rows.
    let status = unsafe {
        bc_verify_blocks(
            e.0,
            n,
            &column,
            codes.as_mut_ptr(),
            fields.as_mut_ptr(),
            numbers.as_mut_ptr(),
            hashes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(
        codes,
        [
            0,
            batchcrypto::Reason::RootMismatch.number(),
            batchcrypto::Reason::MalformedBlock.number()
        ]
    );
    assert_eq!(fields, [0, 2, 0]);
    let number = |i: usize| u64::from_le_bytes(numbers[8 * i..8 * (i + 1)].try_into().expect("8 bytes"));
    assert_eq!([number(0), number(1), number(2)], [15_571_241, 8_705_029, 0]);
    assert_eq!(
        hex::encode(&hashes[..32]),
        "1850b014065b23d804ecf71a8a4691d076ca87c2e6fb8fe81ee20a4d8e884c24"
    );
    assert_eq!(&hashes[64..], &[0u8; 32][..]);
    // A NULL output is named; nothing is written.
    let mut codes = vec![0xaau8; n];
    // SAFETY: NULL is the error under test.
    let status = unsafe {
        bc_verify_blocks(
            e.0,
            n,
            &column,
            codes.as_mut_ptr(),
            fields.as_mut_ptr(),
            ptr::null_mut(),
            hashes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains("out_numbers"), "{}", last_error());
    assert_eq!(codes, [0xaa; 3]);
}

/// `bc_verify_bitcoin_blocks`: the golden Bitcoin blocks (each line of
/// `bitcoin-block.jsonl` that has bytes) under regtest's parameters give
/// the CLI's golden answers (`bitcoin-block-regtest.out`: codes, fields,
/// heights, hashes as Bitcoin shows them reversed); an unknown network and
/// a NULL output are named and nothing is written.
#[test]
fn verify_bitcoin_blocks() {
    let e = engine();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden/");
    let corpus = std::fs::read_to_string(format!("{dir}bitcoin-block.jsonl")).expect("golden blocks");
    let answers = std::fs::read_to_string(format!("{dir}bitcoin-block-regtest.out")).expect("golden answers");
    let (blocks, want): (Vec<Vec<u8>>, Vec<serde_json::Value>) = corpus
        .lines()
        .zip(answers.lines())
        .filter_map(|(l, a)| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            let bytes = hex::decode(v["block"].as_str()?).ok()?;
            Some((bytes, serde_json::from_str(a).expect("json")))
        })
        .unzip();
    assert_eq!(blocks.len(), 13);
    let (bytes, offsets, _) = back_to_back(&blocks);
    let n = blocks.len();
    let (mut codes, mut fields, mut heights, mut hashes) = (
        vec![0xaau8; n],
        vec![0xaau8; n],
        vec![0xaau8; 4 * n],
        vec![0xaau8; 32 * n],
    );
    let column = delimited(&bytes, &offsets);
    let run = |network: &std::ffi::CStr, codes: &mut [u8], fields: &mut [u8], heights: *mut u8, hashes: &mut [u8]| {
        // SAFETY: a valid engine and column; outputs of n rows or NULL.
        unsafe {
            bc_verify_bitcoin_blocks(
                e.0,
                network.as_ptr(),
                n,
                &column,
                codes.as_mut_ptr(),
                fields.as_mut_ptr(),
                heights,
                hashes.as_mut_ptr(),
            )
        }
    };
    let status = run(c"regtest", &mut codes, &mut fields, heights.as_mut_ptr(), &mut hashes);
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    for (i, w) in want.iter().enumerate() {
        let reason = w["reason"].as_str().map_or(0, |r| {
            batchcrypto::Reason::ALL
                .into_iter()
                .find(|x| x.code() == r)
                .expect("a reason")
                .number()
        });
        assert_eq!(codes[i], reason, "block {i}");
        let field = match w["field"].as_str() {
            None => 0,
            Some("merkleRoot") => 1,
            Some(f) => {
                assert_eq!(f, "witnessCommitment");
                2
            }
        };
        assert_eq!(fields[i], field, "block {i}");
        let height = u32::from_le_bytes(heights[4 * i..4 * (i + 1)].try_into().expect("4 bytes"));
        assert_eq!(w["height"].as_u64().map_or(u32::MAX, |h| h as u32), height, "block {i}");
        let mut hash = hashes[32 * i..32 * (i + 1)].to_vec();
        hash.reverse();
        match w["hash"].as_str() {
            Some(h) => assert_eq!(hex::encode(hash), h, "block {i}"),
            None => assert_eq!(hash, [0u8; 32], "block {i}"),
        }
    }
    // An unknown network and a NULL output are named; nothing is written.
    let mut codes = vec![0xaau8; n];
    let status = run(c"mainnet", &mut codes, &mut fields, heights.as_mut_ptr(), &mut hashes);
    assert_eq!(status, BcStatus::InvalidArgument);
    assert!(last_error().contains("network"), "{}", last_error());
    let status = run(c"main", &mut codes, &mut fields, ptr::null_mut(), &mut hashes);
    assert_eq!(status, BcStatus::NullPointer);
    assert!(last_error().contains("out_heights"), "{}", last_error());
    assert_eq!(codes, vec![0xaa; n]);
}

/// `bc_receipts_roots`: generated blocks' receipts honest and hostile, the
/// golden case's block 54 among them, in a column of offsets give the
/// library's roots, blooms, reason codes and refused receipts (zeros in a
/// refused item's rows, `UINT32_MAX` where no receipt is named), that
/// block its header's `receiptsRoot`; a NULL output is named and nothing
/// is written.
#[test]
fn receipts_roots() {
    use batchcrypto::ops::receipts::{self, sample};
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let mut made: Vec<Vec<u8>> = sample::blocks(40, 6, 0.5, true).into_iter().map(|(m, _)| m).collect();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/cli-golden/receipts-root.jsonl"
    ))
    .expect("golden corpus");
    let block: serde_json::Value = serde_json::from_str(golden.lines().nth(1).expect("a line")).expect("json");
    let encoded: Vec<Vec<u8>> = block["receipts"]
        .as_array()
        .expect("receipts")
        .iter()
        .map(|r| receipts::encode(&receipts::from_rpc(r).expect("a receipt")))
        .collect();
    made.insert(3, batchcrypto::ops::ordered_trie::encode(&encoded).expect("fits"));
    let (bytes, offsets, flat) = back_to_back(&made);
    let want = library.receipts_roots(&flat).expect("receipts").output;
    let numbers: Vec<u8> = want.iter().map(|w| w.err().map_or(0, |(_, r)| r.number())).collect();
    for reason in [0, 38, 43, 46, 48, 49] {
        assert!(numbers.contains(&reason), "{reason}");
    }
    let e = engine();
    let n = made.len();
    let (mut roots, mut blooms, mut failed, mut codes) = (
        vec![0xaau8; 32 * n],
        vec![0xaau8; 256 * n],
        vec![0xaau8; 4 * n],
        vec![0xaau8; n],
    );
    // SAFETY: a valid engine and column; outputs of n rows.
    let status = unsafe {
        bc_receipts_roots(
            e.0,
            n,
            &delimited(&bytes, &offsets),
            roots.as_mut_ptr(),
            blooms.as_mut_ptr(),
            failed.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    for (i, w) in want.iter().enumerate() {
        let (root, bloom) = (&roots[32 * i..32 * (i + 1)], &blooms[256 * i..256 * (i + 1)]);
        let index = u32::from_le_bytes(failed[4 * i..4 * (i + 1)].try_into().expect("4 bytes"));
        match w {
            Ok(r) => assert_eq!(
                (root, bloom, index, codes[i]),
                (&r.root[..], &r.logs_bloom[..], u32::MAX, 0)
            ),
            Err((j, reason)) => {
                let j = j.map_or(u32::MAX, |j| j as u32);
                assert_eq!(
                    (root, bloom, index, codes[i]),
                    (&[0; 32][..], &[0; 256][..], j, reason.number())
                );
            }
        }
    }
    assert_eq!(
        hex::encode(&roots[32 * 3..32 * 4]),
        "1a7a488c0a3a5c1f846f03b8f37243cadc7e2b085d95f93612da2bdf3973d5dd"
    );
    // A NULL output is named; nothing is written.
    let mut codes = vec![0xaau8; n];
    // SAFETY: NULL is the error under test.
    let status = unsafe {
        bc_receipts_roots(
            e.0,
            n,
            &delimited(&bytes, &offsets),
            roots.as_mut_ptr(),
            ptr::null_mut(),
            failed.as_mut_ptr(),
            codes.as_mut_ptr(),
        )
    };
    assert_ne!(status, BcStatus::Ok);
    assert!(last_error().contains("out_blooms"), "{}", last_error());
    assert!(codes.iter().all(|&c| c == 0xaa));
}

/// The ECDSA verifications, r ‖ s and DER: generated honest and hostile
/// items, their signatures in DER with a share of the encodings spoiled
/// (in a column of offsets), give the library's verdict codes; a spoiled
/// encoding is its item's `malformed_signature`, not a failed call.
#[test]
fn ecdsa_signatures_in_der() {
    use batchcrypto::ops::ecdsa::{K1VerifyItem, P256Item, sample};
    let e = engine();
    let library = Engine::builder().backend(BackendChoice::Cpu).build().expect("engine");
    let codes_of =
        |v: Vec<batchcrypto::Verdict>| -> Vec<u8> { v.iter().map(batchcrypto::flat::verdict_code).collect() };
    let k1 = sample::secp256k1_verify(80, 4, 0.4, 5);
    let der = sample::der(&k1.iter().map(|(i, _)| i.sig).collect::<Vec<_>>(), 0.4, 5);
    let (hashes, sigs): (Vec<u8>, Vec<u8>) = (
        k1.iter().flat_map(|(i, _)| i.hash).collect(),
        k1.iter().flat_map(|(i, _)| i.sig).collect(),
    );
    let (pks, pk_offsets, _) = back_to_back(k1.iter().map(|(i, _)| i.pk.as_bytes()));
    let (ders, der_offsets, _) = back_to_back(der.iter().map(|(d, _)| d));
    let (p, h) = (delimited(&pks, &pk_offsets), fixed(&hashes, 32));
    for low_s in [false, true] {
        let plain: Vec<K1VerifyItem> = k1.iter().map(|(i, _)| *i).collect();
        let read: Vec<_> = k1
            .iter()
            .zip(&der)
            .map(|((i, _), (d, _))| K1VerifyItem::from_der(i.hash, d, i.pk))
            .collect();
        let want_plain = codes_of(library.verify_secp256k1(&plain, low_s).expect("verify").output);
        let want_der = codes_of(library.verify_secp256k1_read(&read, low_s).expect("verify").output);
        assert!(want_der.contains(&batchcrypto::Reason::MalformedSignature.number()));
        let mut codes = vec![0xAAu8; k1.len()];
        // SAFETY: columns valid for the items, one output byte each.
        let status =
            unsafe { bc_verify_secp256k1(e.0, low_s, k1.len(), &p, &fixed(&sigs, 64), &h, codes.as_mut_ptr()) };
        assert_eq!(status, BcStatus::Ok, "{}", last_error());
        assert_eq!(codes, want_plain);
        // SAFETY: as above.
        let status = unsafe {
            bc_verify_secp256k1_der(
                e.0,
                low_s,
                k1.len(),
                &p,
                &delimited(&ders, &der_offsets),
                &h,
                codes.as_mut_ptr(),
            )
        };
        assert_eq!(status, BcStatus::Ok, "{}", last_error());
        assert_eq!(codes, want_der, "low_s={low_s}");
    }
    let p256 = sample::p256_verify(80, 4, 0.4, 6);
    let rs: Vec<[u8; 64]> = p256
        .iter()
        .map(|(i, _)| [i.r, i.s].concat().try_into().expect("64"))
        .collect();
    let der = sample::der(&rs, 0.4, 6);
    let pks: Vec<u8> = p256.iter().flat_map(|(i, _)| [i.x, i.y].concat()).collect();
    let hashes: Vec<u8> = p256.iter().flat_map(|(i, _)| i.hash).collect();
    let (ders, der_offsets, _) = back_to_back(der.iter().map(|(d, _)| d));
    let read: Vec<_> = p256
        .iter()
        .zip(&der)
        .map(|((i, _), (d, _))| P256Item::from_der(i.hash, d, i.x, i.y))
        .collect();
    let plain: Vec<P256Item> = p256.iter().map(|(i, _)| *i).collect();
    let mut codes = vec![0xAAu8; p256.len()];
    // SAFETY: columns valid for the items, one output byte each.
    let status = unsafe {
        bc_verify_p256(
            e.0,
            p256.len(),
            &fixed(&pks, 64),
            &fixed(&rs.concat(), 64),
            &fixed(&hashes, 32),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    assert_eq!(codes, codes_of(library.verify_p256(&plain).expect("verify").output));
    // SAFETY: as above.
    let status = unsafe {
        bc_verify_p256_der(
            e.0,
            p256.len(),
            &fixed(&pks, 64),
            &delimited(&ders, &der_offsets),
            &fixed(&hashes, 32),
            codes.as_mut_ptr(),
        )
    };
    assert_eq!(status, BcStatus::Ok, "{}", last_error());
    let want = codes_of(library.verify_p256_read(&read).expect("verify").output);
    assert!(want.contains(&batchcrypto::Reason::MalformedSignature.number()));
    assert_eq!(codes, want);
}
