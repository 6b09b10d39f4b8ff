//! `cargo fuzz run evm`: see [`batchcrypto_fuzz::evm`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::evm::run(data));
