#!/usr/bin/env python3
"""Seeds a target's corpus.

evm (the default): fuzz/corpus/evm from the go-ethereum precompile vectors
the tests use (testdata/eth-precompiles): one file per vector, the target's
layout (a byte choosing the precompile, then the call's input; see
src/evm.rs).

gpu: fuzz/corpus/gpu from the CPU targets' committed inputs
(regressions/<target>.hex), each behind the byte that picks its target
(src/gpu.rs, TARGETS: the same order as GPU_TARGETS here), and the gpu
target's own (regressions/gpu.hex).

Run from fuzz/: python3 seed_corpus.py [evm|gpu]
"""
import argparse
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


# src/gpu.rs's TARGETS, in order.
GPU_TARGETS = ["signatures", "postquantum", "hashes", "evm", "transforms"]


def write(out: pathlib.Path, data: bytes) -> None:
    (out / hashlib.sha1(data).hexdigest()).write_bytes(data)


def committed(target: str) -> list[bytes]:
    """The inputs of regressions/<target>.hex (none if it does not exist)."""
    path = pathlib.Path(f"regressions/{target}.hex")
    if not path.exists():
        return []
    lines = (line.strip() for line in path.read_text().splitlines())
    return [bytes.fromhex(line) for line in lines if line and not line.startswith("#")]


def gpu_seeds() -> list[bytes]:
    """The CPU targets' committed inputs, each behind its choice byte."""
    return [bytes([choice]) + data for choice, target in enumerate(GPU_TARGETS) for data in committed(target)]


def seed_gpu() -> None:
    out = pathlib.Path("corpus/gpu")
    out.mkdir(parents=True, exist_ok=True)
    seeds = gpu_seeds() + committed("gpu")
    for data in seeds:
        write(out, data)
    print(f"{len(seeds)} seeds in {out}")


def seed_evm() -> None:
    out = pathlib.Path("corpus/evm")
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for path in sorted(VECTORS.glob("*.json")):
        name = path.stem.removeprefix("fail-")
        if name not in CHOICE:
            continue
        for case in json.loads(path.read_text()):
            write(out, bytes([CHOICE[name]]) + bytes.fromhex(case["Input"]))
            written += 1
    print(f"{written} seeds in {out}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("target", nargs="?", default="evm", choices=["evm", "gpu"])
    {"evm": seed_evm, "gpu": seed_gpu}[ap.parse_args().target]()


if __name__ == "__main__":
    main()
