//! `cargo fuzz run transforms`: see [`batchcrypto_fuzz::transforms`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::transforms::run(data));
