//! `cargo fuzz run columns`: see [`batchcrypto_fuzz::columns`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::columns::run(data));
