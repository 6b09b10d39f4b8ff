"""Writes tx-sender.jsonl: the 83 transactions of ../eth-txs/txs.json
(tx-sender must print their known senders: mainnet block 15,571,241's,
EIP-155's example, every type signed by eth-account), half of them with
0x; then EIP-155's example changed: s replaced by n - s with v's parity
flipped (high_s: the same sender under the ecrecover precompile's rule,
refused by EIP-2), cut short, a byte added, behind type bytes 0x00 and
0x05; no bytes; and malformed lines (bad hex, odd digits, no tx field).

Run: python3 tx-sender.py
"""

import json
import pathlib

HERE = pathlib.Path(__file__).parent
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141

cases = json.loads((HERE / "../eth-txs/txs.json").read_text())
lines = [{"tx": ("0x" if i % 2 == 0 else "") + c["tx"]} for i, c in enumerate(cases)]
[eip155] = [c["tx"] for c in cases if c["name"] == "EIP-155 example"]
raw = bytes.fromhex(eip155)
# s is the last 32 bytes (0xa0 before it), v the byte before r's 0xa0 ‖ r.
assert raw[-33] == 0xA0 and raw[-66] == 0xA0 and raw[-67] in (0x25, 0x26)
high = bytearray(raw)
high[-32:] = (N - int.from_bytes(raw[-32:], "big")).to_bytes(32, "big")
high[-67] ^= 0x25 ^ 0x26
lines += [
    {"tx": bytes(high).hex()},
    {"tx": raw[:-1].hex()},
    {"tx": (raw + b"\x00").hex()},
    {"tx": "00" + raw.hex()},
    {"tx": "05" + raw.hex()},
    {"tx": ""},
    {"tx": "0xzz"},
    {"tx": "abc"},
    {"raw": eip155},
]
(HERE / "tx-sender.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
