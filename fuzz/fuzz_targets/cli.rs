//! `cargo fuzz run --features cli cli`: see `src/cli.rs` (a module of this
//! entry point, not of the library: it needs the CLI crate, which the
//! other targets and the library's replay of them do without).
#![no_main]

#[path = "../src/cli.rs"]
mod cli;

libfuzzer_sys::fuzz_target!(|data: &[u8]| cli::check(batchcrypto_fuzz::engine(), data));
