#!/usr/bin/env python3
"""Writes txs.json: Solana transactions with Anza's verdicts on them.

Usage: python3 make.py FIREDANCER_CHECKOUT

The transactions: Firedancer's test fixtures (see PROVENANCE.md) read from
a checkout of firedancer-io/firedancer. The answers come from ../../scripts/solana-crosscheck (Anza's solana-transaction
and solana-signature: `verify_and_hash_message`, `verify_non_strict`),
built first with `cargo build --release` in that folder.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CROSSCHECK = os.path.join(HERE, "..", "..", "scripts", "solana-crosscheck", "target", "release", "solana-crosscheck")

FIREDANCER = [
    ("src/ballet/txn/fixtures/transaction1.bin", "legacy, 4 signatures, 7 instructions; from Firedancer's flood capture, never landed"),
    ("src/ballet/txn/fixtures/transaction2.bin", "v0, 3 address lookup tables; landed on mainnet (signature 4gxceixE...)"),
    ("src/ballet/txn/fixtures/transaction3.bin", "the largest parse Firedancer's parser makes (made up)"),
    ("src/ballet/txn/fixtures/transaction4.bin", "no instructions, one account address"),
    ("src/ballet/txn/fixtures/transaction5.bin", "a hand-made invalid instruction (not a valid transaction)"),
    ("src/ballet/txn/fixtures/transaction6.bin", "the program id is a signer"),
    ("src/disco/pack/fixtures/txn1.bin", "compute budget: 0.2 lamports per CU"),
    ("src/disco/pack/fixtures/txn2.bin", "compute budget: 500k CU, 15,001 micro-lamports per CU"),
    ("src/disco/pack/fixtures/txn3.bin", "compute budget: 1M CU"),
    ("src/disco/pack/fixtures/txn4.bin", "compute budget: 75k CU with trailing data in the instruction"),
    ("src/disco/pack/fixtures/txn5.bin", "compute budget: 6M CU requested"),
    ("src/disco/pack/fixtures/txn6.bin", "compute budget: a loaded-accounts data size limit"),
    ("src/disco/pack/fixtures/txn7.bin", "compute budget: additional heap"),
    ("src/waltz/quic/tests/quic_txn.bin", "Firedancer's QUIC sample transaction"),
]

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cases = []
    for path, what in FIREDANCER:
        with open(os.path.join(sys.argv[1], path), "rb") as f:
            cases.append({"name": "firedancer " + path, "what": what, "tx": f.read().hex()})
    lines = "".join(json.dumps({"tx": c["tx"]}) + "\n" for c in cases).encode()
    answers = subprocess.run([CROSSCHECK], input=lines, check=True, capture_output=True).stdout.decode().splitlines()
    assert len(answers) == len(cases)
    for c, a in zip(cases, answers):
        c.update(json.loads(a))
    with open(os.path.join(HERE, "txs.json"), "w") as f:
        json.dump(cases, f, indent=1)
        f.write("\n")
    print(f"{len(cases)} transactions, {sum(c['strict'] for c in cases)} valid under strict")


if __name__ == "__main__":
    main()
