//! `cargo fuzz run --features cli cli`: see `batchcrypto_fuzz::cli`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| batchcrypto_fuzz::cli::check(batchcrypto_fuzz::engine(), data));
