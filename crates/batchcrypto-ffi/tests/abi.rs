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
