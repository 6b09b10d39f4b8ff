#!/usr/bin/env python3
"""Writes a fuzz target's corpus into regressions/<target>.hex, which the
library's tests replay (crates/batchcrypto/tests/all/fuzz.rs): one input
per line in hex, inputs over --max-bytes left out (the long go-ethereum
vectors the evm corpus starts from are replayed by tests/all/evm.rs
itself). Lines above the marker are kept as they are: inputs that once
failed, each with a comment saying what it found.

Run from fuzz/ after a campaign, on its minimised corpus:
  target/x86_64-unknown-linux-gnu/release/<target> -merge=1 /tmp/min corpus/<target>
  python3 export.py <target> /tmp/min

For the gpu target the inputs its seeds already hold (the CPU targets'
committed inputs behind their choice byte, which the tests replay on the
GPU from their own files) are left out. For the cli target a route that no
input under --max-bytes picks gets the corpus's smallest input that does
(an ML-KEM-768 decapsulation line alone is 7 KB), else the smallest of the
inputs committed before (a merge keeps no input of a route none of whose
inputs adds coverage: hash/blake3?raw=64's, twice), so that the replay
runs every route; so does each route seed_corpus.py writes into its inputs
(WRITTEN: a trie proof's lines are kilobytes).
"""
import argparse
import pathlib

from seed_corpus import WRITTEN, cli_choices, cli_routes, gpu_seeds

MARKER = "# corpus: a campaign's minimised inputs (export.py rewrites below this line)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("target")
    ap.add_argument("corpus", type=pathlib.Path)
    ap.add_argument("--max-bytes", type=int, default=1024)
    args = ap.parse_args()
    out = pathlib.Path("regressions") / f"{args.target}.hex"
    kept, previous = [], []
    if out.exists():
        lines = out.read_text().splitlines()
        below = lines.index(MARKER) if MARKER in lines else len(lines)
        kept = lines[:below]
        previous = [bytes.fromhex(line) for line in lines[below + 1:] if line and not line.startswith("#")]
    if not kept:
        kept = [f"# Inputs of the `{args.target}` fuzz target, one per line in hex.",
                "# Inputs that once failed (with what they found) go above the marker."]
    skip = set(gpu_seeds()) if args.target == "gpu" else set()
    inputs = sorted(
        {p.read_bytes() for p in args.corpus.iterdir() if p.is_file() and p.stat().st_size <= args.max_bytes} - skip,
        key=lambda b: (len(b), b),
    )
    if args.target == "cli":
        # A route the merge kept no input of (none added coverage) keeps
        # the corpus's smallest, else the smallest committed before.
        candidates = sorted(
            [p.read_bytes() for p in args.corpus.iterdir() if p.is_file()], key=lambda b: (len(b), b)
        ) + sorted(previous, key=lambda b: (len(b), b))
        inputs += smallest_per_route(candidates, {b[0] % cli_choices() for b in inputs if b})
        inputs += smallest_per_written_route(candidates, {written_route(b) for b in inputs})
    out.parent.mkdir(exist_ok=True)
    out.write_text("\n".join(kept + [MARKER] + [b.hex() for b in inputs]) + "\n")
    print(f"{out}: {len(inputs)} inputs, {sum(map(len, inputs))} bytes")


def smallest_per_route(candidates: list[bytes], picked: set[int]) -> list[bytes]:
    """The first of `candidates` (smallest first) for each listed route of
    src/cli.rs that `picked` (first bytes modulo CHOICES, as the target
    reads them) lacks."""
    routes, choices = len(cli_routes()), cli_choices()
    extra = {}
    for data in candidates:
        choice = data[0] % choices if data else routes
        if choice < routes and choice not in picked and choice not in extra:
            extra[choice] = data
    return [extra[c] for c in sorted(extra)]


def written_route(data: bytes) -> bytes | None:
    """The route an input writes itself (its first byte past the listed
    routes: the text up to its first newline), or None."""
    if len(data) < 2 or data[0] % cli_choices() < len(cli_routes()):
        return None
    return data[2:].split(b"\n", 1)[0]


def smallest_per_written_route(candidates: list[bytes], picked: set[bytes | None]) -> list[bytes]:
    """The first of `candidates` (smallest first) for each route of
    seed_corpus's WRITTEN that no input in `picked` writes (a trie proof's
    or an eth_getProof answer's lines are kilobytes: past --max-bytes)."""
    wanted = {route.encode() for route, _ in WRITTEN} - picked
    extra = {}
    for data in candidates:
        route = written_route(data)
        if route in wanted and route not in extra:
            extra[route] = data
    return [extra[r] for r in sorted(extra)]


if __name__ == "__main__":
    main()
