//! The Rust side of `python/bench/overhead.py`: the engine's own time on
//! the same items the Python bench times through the bindings, and the C
//! ABI's, in one run (medians of 9 after 2 warm-up runs).
//!
//! `cargo run --release -p batchcrypto-ffi --example overhead -- DIR`,
//! where DIR holds `pks.bin` (n x 32), `sigs.bin` (n x 64), `msgs.bin` and
//! `offsets.bin` (n + 1 little-endian u64s), `hash.bin` (n x 32): written
//! by the Python bench. Prints one JSON object.

use std::path::Path;
use std::time::Instant;

use batchcrypto::ops::{ed25519, hash};
use batchcrypto::{BackendChoice, Engine, FlatBytes};
use batchcrypto_ffi::{BcColumn, BcStatus, bc_engine_free, bc_engine_new, bc_hash, bc_verify_ed25519};

fn median_ms(mut run: impl FnMut()) -> f64 {
    for _ in 0..2 {
        run();
    }
    let mut times: Vec<f64> = (0..9)
        .map(|_| {
            let start = Instant::now();
            run();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn column(bytes: &[u8], width: usize, offsets: &[u64]) -> BcColumn {
    BcColumn {
        data: bytes.as_ptr(),
        data_len: bytes.len(),
        width,
        offsets: offsets.as_ptr(),
    }
}

fn main() {
    let dir = std::env::args().nth(1).expect("usage: overhead DIR");
    let dir = Path::new(&dir);
    let (pks, sigs, msgs, hash_msgs) = (
        read(dir, "pks.bin"),
        read(dir, "sigs.bin"),
        read(dir, "msgs.bin"),
        read(dir, "hash.bin"),
    );
    let offsets: Vec<u64> = read(dir, "offsets.bin")
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    let n = pks.len() / 32;
    let engine = Engine::builder()
        .backend(BackendChoice::Cpu)
        .without_profile()
        .build()
        .expect("engine");

    let mut batch = ed25519::Batch::with_capacity(n, msgs.len());
    for i in 0..n {
        let msg = &msgs[offsets[i] as usize..offsets[i + 1] as usize];
        let (pk, sig) = (&pks[32 * i..32 * (i + 1)], &sigs[64 * i..64 * (i + 1)]);
        batch
            .push(pk.try_into().expect("32"), sig.try_into().expect("64"), msg)
            .expect("push");
    }
    let mut flat = FlatBytes::with_capacity(n, hash_msgs.len());
    for m in hash_msgs.chunks_exact(32) {
        assert!(flat.push(m));
    }
    let ed_engine = median_ms(|| {
        engine.verify_ed25519(&batch, ed25519::Policy::Strict).expect("verify");
    });
    let keccak_engine = median_ms(|| {
        engine.hash(hash::Alg::Keccak256, &flat).expect("hash");
    });

    let mut handle = std::ptr::null_mut();
    // SAFETY: default options, a valid out pointer.
    assert_eq!(unsafe { bc_engine_new(std::ptr::null(), &mut handle) }, BcStatus::Ok);
    let (p, s, m, h) = (
        column(&pks, 32, &[]),
        column(&sigs, 64, &[]),
        column(&msgs, 0, &offsets),
        column(&hash_msgs, 32, &[]),
    );
    let mut codes = vec![0u8; n];
    let mut digests = vec![0u8; 32 * n];
    let ed_c = median_ms(|| {
        // SAFETY: columns valid for n items, n output bytes.
        let status = unsafe { bc_verify_ed25519(handle, c"strict".as_ptr(), n, &p, &s, &m, codes.as_mut_ptr()) };
        assert_eq!(status, BcStatus::Ok);
    });
    let keccak_c = median_ms(|| {
        // SAFETY: a column of n items, 32 n output bytes.
        let status = unsafe { bc_hash(handle, c"keccak256".as_ptr(), n, &h, digests.as_mut_ptr()) };
        assert_eq!(status, BcStatus::Ok);
    });
    // SAFETY: made above, freed once.
    unsafe { bc_engine_free(handle) };
    println!(
        "{{\"n\":{n},\"threads\":{},\"ed25519_engine_ms\":{ed_engine:.3},\"ed25519_c_abi_ms\":{ed_c:.3},\"keccak256_engine_ms\":{keccak_engine:.3},\"keccak256_c_abi_ms\":{keccak_c:.3}}}",
        engine.cpu_threads()
    );
}
