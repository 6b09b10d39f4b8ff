//! `cargo fuzz run hashes`: see [`batchcrypto_fuzz::hashes`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::hashes::run(data));
