#!/usr/bin/env python3
"""Holds `batchcrypto verify solana-tx` to Anza's own verification.

Usage: check.py BATCHCRYPTO [FILE.jsonl ...] [--count N] [--backend B]

Feeds each file ({"tx":"<hex>"} lines), or `batchcrypto sample solana-tx
--count N --hostile-share 0.5` when none is given, to `verify solana-tx`
under both policies and to this folder's `solana-crosscheck` (built with
`cargo build --release` here), and checks line by line: valid exactly when
Anza's function accepts (`verify_and_hash_message` for strict, every
signature's `verify_non_strict` for zip215); `malformed_transaction` exactly
when wincode does not read the bytes; `sanitize_failure` exactly when they
read but do not sanitize. Prints the counts; exits 1 on any difference.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    exe, rest = args[0], args[1:]
    count, backend, files = 20000, "cpu", []
    while rest:
        a = rest.pop(0)
        if a == "--count":
            count = int(rest.pop(0))
        elif a == "--backend":
            backend = rest.pop(0)
        else:
            files.append(a)
    if files:
        data = b"".join(open(f, "rb").read() for f in files)
    else:
        data = subprocess.run(
            [exe, "sample", "solana-tx", "--count", str(count), "--hostile-share", "0.5", "--seed", "11"],
            check=True, capture_output=True).stdout
    theirs = subprocess.run([os.path.join(HERE, "target", "release", "solana-crosscheck")],
                            input=data, check=True, capture_output=True).stdout.decode().splitlines()
    theirs = [json.loads(t) for t in theirs]
    bad = 0
    for policy in ("strict", "zip215"):
        ours = subprocess.run([exe, "verify", "solana-tx", "--policy", policy, "--backend", backend],
                              input=data, capture_output=True)
        lines = [json.loads(l) for l in ours.stdout.decode().splitlines()]
        assert len(lines) == len(theirs), (policy, len(lines), len(theirs))
        tally = {}
        for i, (o, t) in enumerate(zip(lines, theirs)):
            reason = o.get("reason", "valid")
            tally[reason] = tally.get(reason, 0) + 1
            agree = o["valid"] == t[policy]
            if reason == "malformed_transaction":
                agree = agree and not t["reads"]
            elif reason == "sanitize_failure":
                agree = agree and t["reads"] and not t["sanitized"]
            else:
                agree = agree and t["reads"] and t["sanitized"]
            if not agree:
                bad += 1
                print(f"line {i + 1} ({policy}): ours {o}, Anza's {t}")
        print(f"{policy} ({backend}): {len(lines)} lines, {bad} differences; ours: "
              + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
