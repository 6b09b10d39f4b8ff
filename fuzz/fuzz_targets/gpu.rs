//! `cargo fuzz run --features wgpu gpu`: see [`batchcrypto_fuzz::gpu`].
//! The engine runs every call on the first GPU adapter (without one the
//! first input panics saying so). Environment: `BATCHCRYPTO_FUZZ_ITEMS`,
//! the most items of a batch (24 unless set, as the tests' replay: a
//! software GPU such as lavapipe takes milliseconds to seconds a call);
//! `BATCHCRYPTO_FUZZ_BLS=1`, BLS12-381 signature inputs too.
#![no_main]

use std::sync::OnceLock;

use batchcrypto::{BackendChoice, Engine};

/// The GPU engine and whether BLS inputs run, set up by the first input.
fn setup() -> &'static (Engine, bool) {
    static SETUP: OnceLock<(Engine, bool)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let items = std::env::var("BATCHCRYPTO_FUZZ_ITEMS").map_or(24, |v| {
            v.parse().unwrap_or_else(|e| panic!("BATCHCRYPTO_FUZZ_ITEMS={v}: {e}"))
        });
        batchcrypto_fuzz::cap_items(items);
        let engine = Engine::builder()
            .backend(BackendChoice::Gpu)
            .without_profile()
            .build()
            .unwrap_or_else(|e| panic!("the gpu target needs a GPU engine: {e}"));
        (engine, std::env::var("BATCHCRYPTO_FUZZ_BLS").is_ok_and(|v| v == "1"))
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let (engine, bls) = setup();
    batchcrypto_fuzz::gpu::check(engine, data, *bls);
});
