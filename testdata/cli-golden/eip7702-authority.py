"""Writes eip7702-authority.jsonl: the 9 authorizations of
../eth-txs/authorizations.json as an RPC answer lists them
(eip7702-authority must print their known authorities), then the first
changed: s replaced by n - s with the y parity flipped (high_s: the same
signer under the ecrecover precompile's rule, refused by EIP-7702), r
zero, a y parity of 2; and malformed lines (a nonce over 64 bits, a short
address, no r).

Run: python3 eip7702-authority.py
"""

import json
import pathlib

HERE = pathlib.Path(__file__).parent
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
FIELDS = ("chainId", "address", "nonce", "yParity", "r", "s")

cases = json.loads((HERE / "../eth-txs/authorizations.json").read_text())
lines = [{k: c[k] for k in FIELDS} for c in cases]
first = lines[0]
lines += [
    dict(first, s=hex(N - int(first["s"], 16)), yParity=hex(1 - int(first["yParity"], 16))),
    dict(first, r="0x0"),
    dict(first, yParity="0x2"),
    dict(first, nonce="0x10000000000000000"),
    dict(first, address="0x01"),
    {k: v for k, v in first.items() if k != "r"},
]
(HERE / "eip7702-authority.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
