//! EIP-2537 encodings of arkworks' BLS12-381 points (an encoder independent
//! of the library's blst-based one) and go-ethereum's precompile files.

use ark_bls12_381::{Fq, G1Affine, G2Affine};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, PrimeField};

/// The EIP-2537 encoding of a field element: 16 zero bytes, 48 big-endian.
pub fn enc_fp(x: Fq) -> Vec<u8> {
    let mut out = vec![0u8; 16];
    out.extend(x.into_bigint().to_bytes_be());
    out
}

/// A G1 point: x || y, all zeros for infinity.
pub fn enc_g1(p: &G1Affine) -> Vec<u8> {
    if p.is_zero() {
        return vec![0; 128];
    }
    [enc_fp(p.x), enc_fp(p.y)].concat()
}

/// A G2 point: x.c0 || x.c1 || y.c0 || y.c1, all zeros for infinity.
pub fn enc_g2(q: &G2Affine) -> Vec<u8> {
    if q.is_zero() {
        return vec![0; 256];
    }
    [q.x.c0, q.x.c1, q.y.c0, q.y.c1].into_iter().flat_map(enc_fp).collect()
}

/// The bytes of a hex string value (with or without `0x`).
pub fn hex_bytes(v: &serde_json::Value) -> Vec<u8> {
    let s = v.as_str().expect("hex string");
    hex::decode(s.strip_prefix("0x").unwrap_or(s)).expect("hex")
}

/// The cases of one of go-ethereum's precompile files
/// (`eth-precompiles/<file>`), `None` without the vectors.
pub fn geth_cases(file: &str) -> Option<Vec<serde_json::Value>> {
    let path = super::vectors_dir()?.join("eth-precompiles").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}
