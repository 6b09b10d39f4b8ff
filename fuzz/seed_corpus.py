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

cli: fuzz/corpus/cli, for each route of src/cli.rs's ROUTES (the choice
byte is its index) a few bodies: the sample generator's items (`batchcrypto
sample`, run through cargo), the CLI's golden inputs, go-ethereum's vectors
as lines, random records for the binary verbs; and routes written out
(choice byte len(ROUTES)) with options, escapes and mistakes.

Run from fuzz/: python3 seed_corpus.py [evm|gpu|cli]
"""
import argparse
import hashlib
import json
import pathlib
import random
import subprocess

VECTORS = pathlib.Path(__file__).resolve().parent.parent / "testdata" / "eth-precompiles"
# The target's choice byte per file: Precompile::ALL's first five, then
# EIP-2537's pairing check (5), then ALL's others. Single multiplications
# are one-term MSMs.
CHOICE = {
    "bn256Add": 0,
    "bn256ScalarMul": 1,
    "bn256Pairing": 2,
    "blsG1Mul": 3,
    "blsG1MultiExp": 3,
    "blsG2Mul": 4,
    "blsG2MultiExp": 4,
    "blsPairing": 5,
    "blsG1Add": 6,
    "blsG2Add": 7,
    "blsMapG1": 8,
    "blsMapG2": 9,
    "pointEvaluation": 10,
    "modexp": 11,
    "modexp_eip2565": 11,
    "ecRecover": 12,
    "p256Verify": 16,
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


ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "testdata" / "cli-golden"


def cli_routes() -> list[str]:
    """src/cli.rs's ROUTES, in order."""
    text = (pathlib.Path(__file__).resolve().parent / "src" / "cli.rs").read_text()
    block = text[text.index("pub const ROUTES") :]
    block = block[block.index("[", block.index("=")) : block.index("];")]
    return json.loads(block.rstrip().rstrip(",") + "]")


def cli_choices() -> int:
    """src/cli.rs's CHOICES: the first byte picks a route modulo this."""
    text = (pathlib.Path(__file__).resolve().parent / "src" / "cli.rs").read_text()
    return int(text.split("pub const CHOICES: usize = ", 1)[1].split(";", 1)[0])


def sample(kind: str, count: int, *options: str) -> list[bytes]:
    """`batchcrypto sample <kind>`'s lines."""
    out = subprocess.run(
        ["cargo", "run", "-q", "--manifest-path", str(ROOT / "Cargo.toml"), "-p", "batchcrypto-cli", "--",
         "sample", kind, "--count", str(count), "--seed", "7", "--hostile-share", "0.3", *options],
        check=True, capture_output=True,
    ).stdout
    return out.splitlines()


def golden(name: str) -> list[bytes]:
    return (GOLDEN / name).read_bytes().splitlines()


def precompile_lines(*names: str) -> list[bytes]:
    lines = []
    for name in names:
        for case in json.loads((VECTORS / f"{name}.json").read_text()):
            lines.append(json.dumps({"input": case["Input"]}).encode())
    return lines


def aggregate_lines(fast: bool) -> list[bytes]:
    """BLS aggregate lines from the golden BLS items: keys, messages and one
    item's signature (parsed and run, mostly not valid)."""
    items = [json.loads(line) for line in golden("bls.jsonl")]
    lines = []
    for k in range(1, 6):
        group = items[k : 2 * k]
        line = {"pks": [i["pk"] for i in group], "sig": group[0]["sig"]}
        if fast:
            line["msg"] = group[0]["msg"]
        else:
            line["msgs"] = [i["msg"] for i in group]
        lines.append(json.dumps(line).encode())
    return lines


def route_lines(route: str) -> list[bytes]:
    """Lines (or, for the binary verbs, bytes) a route's bodies start from."""
    rng = random.Random(route)
    word = route.split("?")[0]
    kinds = {"verify/ed25519": "ed25519", "verify/secp256k1": "secp256k1", "ecrecover": "ecrecover",
             "verify/p256": "p256", "verify/bip340": "bip340", "verify/sr25519": "sr25519",
             "verify/bls": "bls", "verify/ml-dsa-44": "ml-dsa-44", "verify/ml-dsa-65": "ml-dsa-65",
             "verify/ml-dsa-87": "ml-dsa-87", "mlkem/keygen": "ml-kem-keygen", "verify/kzg-cell": "kzg-cell",
             "poseidon": "poseidon"}
    if word in kinds:
        return sample(kinds[word], 24)
    if word == "verify/slh-dsa":
        return sample("slh-dsa", 8, "--set", route.split("set=")[1])
    if word in ("mlkem/encaps", "mlkem/decaps"):
        size = route.split("set=")[1] if "set=" in route else "768"
        return sample(f"ml-kem-{word.split('/')[1]}", 12, "--set", size, "--signers", "3")
    if word == "verify/bls-aggregate":
        return aggregate_lines(False)
    if word == "verify/bls-fast-aggregate":
        return aggregate_lines(True)
    if word.startswith("hash/") and "raw" not in route:
        return golden("hash.jsonl")[:40]
    if word == "merkle":
        return golden("leaves.jsonl")[:24]
    if word == "merkle-poseidon":
        return golden("poseidon-leaves.jsonl")[:24]
    if word in ("secp256k1-der", "p256-der"):
        return golden(f"{word}.jsonl")[:24]
    if word.startswith("merkle-proof-"):
        return golden(f"{word}.jsonl")[:24]
    if word.startswith("mpt-proof"):
        return golden(f"{word}.jsonl")[:24]
    if word == "eth-proof":
        return golden("eth-proof.jsonl")
    if word == "trie-root":
        # The withdrawals block and the edges (the transactions block's
        # lines pass the target's 20,000 bytes).
        lines = golden("trie-root.jsonl")
        return [lines[1]] + lines[3:]
    if word == "tx-sender":
        # EIP-155's example changed (high s, cut, grown, other type bytes)
        # and the malformed lines first, then known transactions.
        lines = golden("tx-sender.jsonl")
        return lines[-9:] + lines[:12]
    if word == "solana-tx":
        # The mainnet transaction changed and the malformed lines first,
        # then Firedancer's transactions.
        lines = golden("solana-tx.jsonl")
        return lines[14:] + lines[:14]
    if word == "verify/bitcoin-block":
        # The regtest blocks and the malformed lines first, then the
        # changed, cut and repeated ones, then the two real blocks.
        lines = golden("bitcoin-block.jsonl")
        return lines[7:] + lines[2:7] + lines[:2]
    if word == "eip7702-authority":
        # The changed and malformed lines first, then eth-account's.
        lines = golden("eip7702-authority.jsonl")
        return lines[9:] + lines[:9]
    if word == "receipts-root":
        # The malformed and refused lines first, then block 3's raw
        # receipts, the empty block and block 1's objects; the lines of
        # block 54's receipts (9 kB each) last.
        lines = golden("receipts-root.jsonl")
        return lines[10:] + [lines[8], lines[9], lines[3], lines[5], lines[0], lines[6], lines[7]]
    if word == "verify/groth16":
        return golden("groth16.jsonl")[:24]
    if word == "verify/groth16-bls12-381":
        return golden("groth16-bls12-381.jsonl")[:24]
    if word in ("evm/sha256", "evm/ripemd160", "evm/identity"):
        return [json.dumps({"input": json.loads(line)["data"]}).encode() for line in golden("hash.jsonl")[:40]]
    if word.startswith("evm/") or word == "eip2537-pairing":
        names = {"evm/bn256-add": ["bn256Add"], "evm/bn256-mul": ["bn256ScalarMul"],
                 "evm/bn256-pairing": ["bn256Pairing"], "evm/bls-g1msm": ["blsG1MultiExp", "fail-blsG1MultiExp"],
                 "evm/bls-g2msm": ["blsG2MultiExp", "fail-blsG2MultiExp"], "eip2537-pairing": ["blsPairing"],
                 "evm/bls-g1add": ["blsG1Add", "fail-blsG1Add"], "evm/bls-g2add": ["blsG2Add", "fail-blsG2Add"],
                 "evm/bls-map-g1": ["blsMapG1", "fail-blsMapG1"], "evm/bls-map-g2": ["blsMapG2", "fail-blsMapG2"],
                 "evm/point-evaluation": ["pointEvaluation"], "evm/modexp": ["modexp_eip2565"],
                 "evm/ecrecover": ["ecRecover"], "evm/p256verify": ["p256Verify"]}
        return precompile_lines(*names[word])[:24]
    # A blob or 64 cells make lines past the target's 20,000 bytes: short
    # lines, whose counts, indices and fields are what the verbs check.
    if word == "kzg/compute-cells":
        return [json.dumps({"blob": "00" * 64}).encode(), b"{}", b'{"blob":7}']
    if word == "kzg/recover-cells":
        cells = [bytes(rng.randrange(256) for _ in range(2048)).hex() for _ in range(3)]
        cases = [([0, 5, 9], cells), ([9, 5, 0], cells), ([0, 128], cells[:2]), ([1, 2], cells), ([], [])]
        return [json.dumps({"cell_indices": i, "cells": c}).encode() for i, c in cases]
    # The binary verbs: random bytes (the target cuts them into records).
    return [bytes(rng.randrange(256) for _ in range(640))]


# Routes the input writes itself: options, escapes, spellings and mistakes.
# The golden corpus's Groth16 key (its EIP-197 bytes in hex).
GROTH16_KEY = (pathlib.Path(__file__).resolve().parent.parent / "testdata" / "cli-golden" / "groth16-vk.hex").read_text().strip()
# The golden corpus's Groth16 key over BLS12-381 (its compressed form in hex).
GROTH16_BLS_KEY = (GOLDEN / "groth16-bls12-381-vk.hex").read_text().strip()

WRITTEN = [
    ("verify/ed25519?policy=zip%32%31%35", "verify/ed25519"),
    ("verify/ed25519?policy=strict&policy=zip215", "verify/ed25519"),
    ("verify/sr25519?context=sub+strate", "verify/sr25519"),
    ("verify/sr25519?context=%F0%9F%94%91", "verify/sr25519"),
    ("verify/secp256k1?low-s=false", "verify/secp256k1"),
    ("verify/secp256k1?der=true", "secp256k1-der"),
    ("verify/secp256k1?der=1&low_s=true", "secp256k1-der"),
    ("verify/secp256k1?der=true", "verify/secp256k1"),
    ("verify/p256?der=true", "p256-der"),
    ("verify/p256?der=true", "verify/p256"),
    ("ecrecover?low_s=yes", "ecrecover"),
    ("hash/keccak256?raw=0", "hash/keccak256?raw=32"),
    ("hash/sha256?raw=3", "hash/sha256?raw=64"),
    ("merkle?proof=0,0,3&hash=keccak256", "merkle"),
    ("merkle?hash=sha3-256", "merkle"),
    ("merkle?hash=poseidon&proof=0,3", "merkle-poseidon"),
    ("merkle?hash=poseidon", "merkle"),
    ("merkle?hash=poseidon&depth=20&proof=1", "merkle-poseidon"),
    ("merkle?depth=3&zero=0x0101010101010101010101010101010101010101010101010101010101010101", "merkle"),
    ("verify/merkle-proof", "merkle-proof-keccak256"),
    ("verify/merkle-proof?hash=sha256&depth=6", "merkle-proof-sha256"),
    ("verify/merkle-proof?hash=poseidon", "merkle-proof-poseidon"),
    ("verify/merkle-proof?hash=poseidon&depth=65", "merkle-proof-poseidon"),
    ("verify/mpt-proof", "mpt-proof"),
    ("verify/mpt-proof?secure=true", "mpt-proof-secure"),
    ("verify/mpt-proof?secure=maybe", "mpt-proof-secure"),
    ("verify/eth-proof", "eth-proof"),
    ("trie-root", "trie-root"),
    ("trie-root?backend=cpu", "trie-root"),
    ("tx-sender", "tx-sender"),
    ("tx-sender?backend=cpu", "tx-sender"),
    ("verify/solana-tx", "solana-tx"),
    ("verify/solana-tx?policy=zip215", "solana-tx"),
    ("verify/solana-tx?policy=lax&backend=cpu", "solana-tx"),
    ("verify/bitcoin-block", "verify/bitcoin-block"),
    ("verify/bitcoin-block?network=regtest", "verify/bitcoin-block"),
    ("verify/bitcoin-block?network=mainnet", "verify/bitcoin-block"),
    ("eip7702-authority", "eip7702-authority"),
    ("eip7702-authority?backend=cpu", "eip7702-authority"),
    ("receipts-root", "receipts-root"),
    ("receipts-root?backend=cpu", "receipts-root"),
    ("mlkem/keygen?set=0768", "mlkem/keygen"),
    ("ntt?field=prime64-negacyclic&log_n=4&modulus=0x10001", "ntt?field=goldilocks&log_n=2"),
    ("ntt?field=goldilocks&log-n=3&coset=07&output_order=bit-reversed", "ntt?field=goldilocks&log_n=2"),
    ("ntt?field=bn254-fr&log_n=25", "ntt?field=goldilocks&log_n=2"),
    ("msm?curve=bn254-g1&encoding=compressed", "msm?curve=bn254-g1"),
    ("msm?curve=bls12-381-g2&encoding=uncompressed", "msm?curve=bls12-381-g2"),
    ("verify/ed25519?backend=gpu", "verify/ed25519"),
    ("verify//ed25519/", "verify/ed25519"),
    ("verify/ed25519?%zz=1", "verify/ed25519"),
    ("verify/ed25519?policy=%", "verify/ed25519"),
    ("serve", "hash/keccak256"),
    ("evm/bn256-add?input=-", "evm/bn256-add"),
    ("verify/slh-dsa?set=SLH-DSA-SHA2-128s", "verify/slh-dsa?set=sha2-128s"),
    ("verify/slh-dsa?set=sha2-129s", "verify/slh-dsa?set=sha2-128s"),
    ("verify/slh-dsa", "verify/slh-dsa?set=sha2-128s"),
    ("verify/groth16?vk_hex=" + GROTH16_KEY, "verify/groth16"),
    ("verify/groth16?vk-hex=0x" + GROTH16_KEY[:-2], "verify/groth16"),
    ("verify/groth16?vk_hex=00", "verify/groth16"),
    ("verify/groth16?vk=/etc/hostname", "verify/groth16"),
    ("verify/groth16", "verify/groth16"),
    ("verify/groth16-bls12-381?vk_hex=" + GROTH16_BLS_KEY, "verify/groth16-bls12-381"),
    ("verify/groth16-bls12-381?vk-hex=0x" + GROTH16_BLS_KEY[:-2], "verify/groth16-bls12-381"),
    ("verify/groth16-bls12-381?vk_hex=00", "verify/groth16-bls12-381"),
    ("verify/groth16-bls12-381?vk=/etc/hostname", "verify/groth16-bls12-381"),
]


def seed_cli() -> None:
    out = pathlib.Path("corpus/cli")
    out.mkdir(parents=True, exist_ok=True)
    routes = cli_routes()
    written = 0
    for choice, route in enumerate(routes):
        lines = route_lines(route)
        for n, cuts in ((1, 0x00), (3, 0x48), (8, 0x3B), (24, 0x5A)):
            body = b"\n".join(lines[:n]) + b"\n"
            write(out, bytes([choice, cuts]) + body)
            written += 1
    for route, like in WRITTEN:
        lines = route_lines(like)
        write(out, bytes([len(routes), 0x48]) + route.encode() + b"\n" + b"\n".join(lines[:4]) + b"\n")
        written += 1
    print(f"{written} seeds in {out}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("target", nargs="?", default="evm", choices=["evm", "gpu", "cli"])
    {"evm": seed_evm, "gpu": seed_gpu, "cli": seed_cli}[ap.parse_args().target]()


if __name__ == "__main__":
    main()
