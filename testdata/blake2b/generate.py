"""Writes blake2b-256.json: BLAKE2b with a 32-byte digest (unkeyed) of the
BLAKE3 test vectors' inputs (byte i is i mod 251) at every length from 0 to
300 and at BLAKE2b's block and BLAKE3's chunk boundaries, computed by
CPython's hashlib (its bundled BLAKE2 reference implementation, Modules/_blake2),
independent of the Rust crates the engine uses (RustCrypto `blake2`,
`blake2b_simd`). Run: python3 generate.py > blake2b-256.json"""

import hashlib
import json

lens = list(range(301))
lens += [383, 384, 385, 511, 512, 513, 1023, 1024, 1025, 2048, 2049, 3072, 3073, 4096, 4097, 8192, 8193, 16384, 31744, 102400]
cases = []
for n in lens:
    data = bytes(i % 251 for i in range(n))
    cases.append({"input_len": n, "hash": hashlib.blake2b(data, digest_size=32).hexdigest()})
print(json.dumps({
    "_comment": "BLAKE2b-256 (RFC 7693, digest_size 32, unkeyed) of inputs whose byte i is i mod 251 (as in BLAKE3's test_vectors.json), by CPython hashlib.blake2b; written by generate.py",
    "cases": cases,
}, indent=1))
