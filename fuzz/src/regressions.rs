//! Reads `fuzz/regressions/<target>.hex`: one input per line in hex,
//! comments (`#`) and blank lines skipped. Not a module of the fuzz
//! library: the tests that replay the committed inputs compile it in
//! (`crates/batchcrypto/tests/all/fuzz.rs`, `crates/batchcrypto-cli/tests/fuzz.rs`).

use std::path::Path;

/// The inputs of `fuzz/regressions/<target>.hex` (`fuzz` is the fuzz
/// crate's folder) with their line numbers; a line that is not hex, or a
/// file that cannot be read, fails the test.
pub fn committed(fuzz: &Path, target: &str) -> Vec<(usize, Vec<u8>)> {
    let path = fuzz.join("regressions").join(format!("{target}.hex"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(k, line)| (k + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(n, line)| {
            let input = hex::decode(line).unwrap_or_else(|e| panic!("{target}.hex line {n}: {e}"));
            (n, input)
        })
        .collect()
}
