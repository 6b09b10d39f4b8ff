"""Writes trie-root.jsonl: the values of the two real blocks in
../eth-blocks/blocks.json (mainnet 15,571,241's transactions, a testnet
block's withdrawals: trie-root must print their headers' roots), the same
transactions without the last, and the edges: no values (the empty trie),
one value of one byte, a value of no bytes (empty_value), and malformed
lines (values not a list, a value not hex, no values field).

Run: python3 trie-root.py
"""

import json
import pathlib

HERE = pathlib.Path(__file__).parent
blocks = json.loads((HERE / "../eth-blocks/blocks.json").read_text())
lines = [{"values": b["values"]} for b in blocks]
lines.append({"values": blocks[0]["values"][:-1]})
lines += [
    {"values": []},
    {"values": ["0x01"]},
    {"values": ["0x01", ""]},
    {"values": "0x01"},
    {"values": ["0xzz"]},
    {"value": ["0x01"]},
]
(HERE / "trie-root.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
