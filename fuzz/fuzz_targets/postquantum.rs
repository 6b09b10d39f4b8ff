//! `cargo fuzz run postquantum`: see [`batchcrypto_fuzz::postquantum`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::postquantum::run(data));
