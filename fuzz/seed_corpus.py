#!/usr/bin/env python3
"""Seeds fuzz/corpus/evm with the go-ethereum precompile vectors the tests
use (testdata/eth-precompiles): one file per vector, the target's layout
(a byte choosing the precompile, then the call's input; see src/evm.rs).

Run from fuzz/: python3 seed_corpus.py
"""
import hashlib
import json
import pathlib

VECTORS = pathlib.Path(__file__).resolve().parent.parent / "testdata" / "eth-precompiles"
# The target's choice byte per file: Precompile::ALL's order, then
# EIP-2537's pairing check (5). Single multiplications are one-term MSMs.
CHOICE = {
    "bn256Add": 0,
    "bn256ScalarMul": 1,
    "bn256Pairing": 2,
    "blsG1Mul": 3,
    "blsG1MultiExp": 3,
    "blsG2Mul": 4,
    "blsG2MultiExp": 4,
    "blsPairing": 5,
}


def main() -> None:
    out = pathlib.Path("corpus/evm")
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(VECTORS.glob("*.json")):
        name = path.stem.removeprefix("fail-")
        if name not in CHOICE:
            continue
        for case in json.loads(path.read_text()):
            data = bytes([CHOICE[name]]) + bytes.fromhex(case["Input"])
            (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
            written += 1
    print(f"{written} seeds in {out}")


if __name__ == "__main__":
    main()
