//! Reads `{"tx":"<hex>"}` lines (`batchcrypto sample solana-tx`'s or
//! `verify solana-tx`'s input) and writes, per line, what Anza's crates
//! decide: `{"reads":bool,"sanitized":bool,"strict":bool,"zip215":bool}`:
//! whether wincode reads one `VersionedTransaction` with no bytes left
//! over, whether it passes `sanitize`, whether
//! `verify_and_hash_message` accepts it (Solana's rule today), and
//! whether every signature passes `Signature::verify_non_strict` over the
//! message's bytes (SIMD-0376's).

use std::io::{BufRead, Write};

use solana_transaction::versioned::VersionedTransaction;

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.expect("stdin");
        let value: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let hex_tx = value["tx"].as_str().unwrap_or_else(|| panic!("line {}: no \"tx\"", n + 1));
        let bytes = hex::decode(hex_tx.trim_start_matches("0x")).unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let (reads, sanitized, strict, zip215) = match wincode::deserialize_exact::<VersionedTransaction>(&bytes) {
            Err(_) => (false, false, false, false),
            Ok(tx) => {
                let sanitized = tx.sanitize().is_ok();
                let strict = tx.verify_and_hash_message().is_ok();
                let message = tx.message.serialize();
                let zip215 = sanitized
                    && tx
                        .signatures
                        .iter()
                        .zip(tx.message.static_account_keys())
                        .all(|(sig, key)| sig.verify_non_strict(key.as_ref(), &message));
                (true, sanitized, strict, zip215)
            }
        };
        writeln!(
            out,
            "{{\"reads\":{reads},\"sanitized\":{sanitized},\"strict\":{strict},\"zip215\":{zip215}}}"
        )
        .expect("stdout");
    }
}
