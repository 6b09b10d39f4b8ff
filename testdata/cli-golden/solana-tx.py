"""Writes solana-tx.jsonl: the 14 transactions of ../solana-txs/txs.json
(Firedancer's fixtures: `verify solana-tx` must print Anza's verdicts on
them, 12 valid), half of them with 0x; then the mainnet v0 transaction
changed: a bit of its signature's S, a bit of its message's last byte
(a lookup table's index), its version prefix made 0x82 (no such
version), cut short, a byte added;
no bytes; and malformed lines (bad hex, odd digits, no tx field).

Run: python3 solana-tx.py
"""

import json
import pathlib

HERE = pathlib.Path(__file__).parent

cases = json.loads((HERE / "../solana-txs/txs.json").read_text())
lines = [{"tx": ("0x" if i % 2 == 0 else "") + c["tx"]} for i, c in enumerate(cases)]
[mainnet] = [c["tx"] for c in cases if c["name"].endswith("transaction2.bin")]
raw = bytes.fromhex(mainnet)
assert raw[0] == 1 and raw[65] == 0x80, "one signature, then a v0 message"
sig_bit = bytearray(raw)
sig_bit[33] ^= 0x04
message_bit = bytearray(raw)
message_bit[-1] ^= 0x01
version = bytearray(raw)
version[65] = 0x82
lines += [
    {"tx": bytes(sig_bit).hex()},
    {"tx": bytes(message_bit).hex()},
    {"tx": bytes(version).hex()},
    {"tx": raw[:-1].hex()},
    {"tx": (raw + b"\x00").hex()},
    {"tx": ""},
    {"tx": "0xzz"},
    {"tx": "abc"},
    {"raw": mainnet},
]
(HERE / "solana-tx.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
