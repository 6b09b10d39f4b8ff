//! `cargo fuzz run signatures`: see [`batchcrypto_fuzz::signatures`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::signatures::run(data));
