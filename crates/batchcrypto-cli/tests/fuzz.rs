//! The `cli` fuzz target (`fuzz/src/cli.rs`, compiled in here as it is)
//! on its committed inputs, `fuzz/regressions/cli.hex`: a campaign's
//! minimised corpus and any input that once failed (above its marker),
//! each run through the service's request path on a CPU engine with the
//! target's checks (no panic; one JSON object per line, errors naming
//! their lines; three requests in one batch answered as each alone and as
//! the whole; the query decoded as the form encoding says; a lane's title
//! naming its verb). The library's targets are replayed by
//! `crates/batchcrypto/tests/all/fuzz.rs`.
#![cfg(feature = "serve")]

use std::path::Path;

use batchcrypto::{BackendChoice, Engine};

#[path = "../../../fuzz/src/cli.rs"]
mod cli;

#[path = "../../../fuzz/src/regressions.rs"]
mod regressions;

#[test]
fn committed_inputs_of_the_cli_target() {
    let engine = Engine::builder()
        .backend(BackendChoice::Cpu)
        .without_profile()
        .threads(2)
        .build()
        .expect("a CPU engine");
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut routes = [false; cli::ROUTES.len()];
    for (line, input) in regressions::committed(&fuzz, "cli") {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| cli::check(&engine, &input)));
        assert!(ran.is_ok(), "cli.hex line {line}: the target failed (above)");
        if let Some(route) = input
            .first()
            .and_then(|&b| routes.get_mut(usize::from(b) % cli::CHOICES))
        {
            *route = true;
        }
    }
    // `fuzz/export.py cli` keeps an input for every listed route.
    let missed: Vec<&str> = cli::ROUTES
        .iter()
        .zip(routes)
        .filter(|(_, hit)| !hit)
        .map(|(r, _)| *r)
        .collect();
    assert!(missed.is_empty(), "no committed input picks {missed:?}");
}
