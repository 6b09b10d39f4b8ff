#!/usr/bin/env python3
"""Writes merkle-proof-<hash>.jsonl (and merkle-proof-ssz.jsonl), the golden inputs of `verify
merkle-proof`, from the golden outputs of `merkle --proof` (merkle-<hash>.out:
a root and the proofs of some leaves, each with its path's bits): per proof
the honest line and four hostile ones (a sibling changed, the leaf changed,
the index one past the path, the last sibling dropped), then lines the
parser refuses or whose item is refused (a short sibling, no proof, more
than 64 siblings, a ragged root). Run from this folder after the merkle
golden outputs are regenerated."""
import json

HASHES = ["keccak256", "sha256", "poseidon", "ssz"]


def flip(node):
    """The node with its last bit flipped (below BN254's r if it was, but for r - 1)."""
    return node[:-1] + "%x" % (int(node[-1], 16) ^ 1)


for h in HASHES:
    with open(f"merkle-{h}.out") as f:
        tree = json.loads(f.readline())
    root = tree["root"]
    lines = []
    for p in tree["proofs"]:
        good = {"root": root, "leaf": p["leaf"], "index": p["path"], "proof": p["proof"]}
        lines.append(good)
        sibling = dict(good, proof=[flip(p["proof"][0])] + p["proof"][1:])
        lines.append(sibling)
        lines.append(dict(good, leaf=flip(p["leaf"])))
        lines.append(dict(good, index=p["path"] | 1 << len(p["proof"])))
        lines.append(dict(good, proof=p["proof"][:-1]))
    first = tree["proofs"][0]
    lines.append({"root": root, "leaf": first["leaf"], "index": 0, "proof": ["11" * 31]})
    lines.append({"root": root, "leaf": first["leaf"], "index": 0})
    lines.append({"root": root, "leaf": first["leaf"], "index": 0, "proof": ["00" * 32] * 65})
    lines.append({"root": root[:-2], "leaf": first["leaf"], "index": 0, "proof": []})
    with open(f"merkle-proof-{h}.jsonl", "w") as f:
        for line in lines:
            f.write(json.dumps(line, separators=(",", ":")) + "\n")
