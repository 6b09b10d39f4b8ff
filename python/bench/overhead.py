"""The Python bindings' overhead: Ed25519 and Keccak-256 at N = 65,536 from
NumPy arrays, against the Rust engine (and the C ABI) on the same items in
the same run (crates/batchcrypto-ffi/examples/overhead.rs). Medians of 9
after 2 warm-up runs; every engine on the CPU with all cores.

    python python/bench/overhead.py --cli target/release/batchcrypto \
        --rust target/release/examples/overhead
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import batchcrypto

N = 65_536


def median_ms(run) -> float:
    for _ in range(2):
        run()
    times = []
    for _ in range(9):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True, help="the batchcrypto CLI (makes the signed items)")
    parser.add_argument("--rust", required=True, help="the overhead example's binary")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        lines = subprocess.run(
            [args.cli, "sample", "ed25519", "--count", str(N), "--max-msg-len", "64"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.splitlines()
        rows = [json.loads(line) for line in lines]
        pks = np.frombuffer(b"".join(bytes.fromhex(r["pk"]) for r in rows), np.uint8).reshape(N, 32)
        sigs = np.frombuffer(b"".join(bytes.fromhex(r["sig"]) for r in rows), np.uint8).reshape(N, 64)
        msg_list = [bytes.fromhex(r["msg"]) for r in rows]
        offsets = np.zeros(N + 1, np.uint64)
        np.cumsum([len(m) for m in msg_list], out=offsets[1:])
        msgs = np.frombuffer(b"".join(msg_list), np.uint8)
        hash_msgs = np.random.default_rng(1).integers(0, 256, size=(N, 32), dtype=np.uint8)
        for name, array in [("pks", pks), ("sigs", sigs), ("msgs", msgs), ("offsets", offsets), ("hash", hash_msgs)]:
            (tmp / f"{name}.bin").write_bytes(array.astype(array.dtype.newbyteorder("<")).tobytes())
        rust = json.loads(subprocess.run([args.rust, tmp], check=True, capture_output=True, text=True).stdout)

    import pyarrow as pa

    engine = batchcrypto.Engine(backend="cpu")
    arrow_msgs = pa.array(msg_list, type=pa.binary())
    py = {
        "ed25519_numpy_ms": median_ms(lambda: engine.verify_ed25519(pks, sigs, arrow_msgs)),
        "ed25519_lists_ms": median_ms(lambda: engine.verify_ed25519(list(map(bytes, pks)), list(map(bytes, sigs)), msg_list)),
        "keccak256_numpy_ms": median_ms(lambda: engine.hash("keccak256", hash_msgs)),
        "keccak256_lists_ms": median_ms(lambda: engine.hash("keccak256", list(map(bytes, hash_msgs)))),
    }
    print(json.dumps({**rust, **py}, indent=1))
    for op in ("ed25519", "keccak256"):
        base = rust[f"{op}_engine_ms"]
        print(
            f"{op}: engine {base:.2f} ms, C ABI {rust[f'{op}_c_abi_ms']:.2f} ms "
            f"({rust[f'{op}_c_abi_ms'] / base - 1:+.1%}), Python from NumPy (Ed25519 messages: Arrow) {py[f'{op}_numpy_ms']:.2f} ms "
            f"({py[f'{op}_numpy_ms'] / base - 1:+.1%}), from lists {py[f'{op}_lists_ms']:.2f} ms "
            f"({py[f'{op}_lists_ms'] / base - 1:+.1%})"
        )


if __name__ == "__main__":
    main()
