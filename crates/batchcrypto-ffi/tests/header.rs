//! The committed C header is what cbindgen makes of the crate today.

use std::path::Path;

#[test]
fn header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses the crate");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include/batchcrypto.h");
    if std::env::var_os("BATCHCRYPTO_BLESS").is_some() {
        std::fs::write(&path, &fresh).expect("write the header");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run `BATCHCRYPTO_BLESS=1 cargo test -p batchcrypto-ffi --test header` and commit it",
        path.display()
    );
}
