"""Writes receipts-root.jsonl from ../eth-receipts/receipts.json (see its
PROVENANCE): blocks 1 and 54 of the execution-apis test chain as
eth_getBlockReceipts answered (receipts-root must print their headers'
receiptsRoot and logsBloom, which the last line of this script's
receipts.json holds: block 1 68e780…, block 54 1a7a48…), the same with
the fields that do not count removed and with blockHash-style extras,
block 3 as debug_getRawReceipts answered (hex strings), a block of no
receipts (the empty trie); then refused blocks: a flipped bloom bit
(bloom_mismatch, naming the receipt), a type 0x7e receipt
(unsupported_tx_type), raw bytes cut short (malformed_receipt), an empty
raw receipt (empty_value); and malformed lines (no receipts, a receipt
neither object nor string, a missing status, a topic of 31 bytes, bad
hex, both status and root, a type over 0x7f).

Run: python3 receipts-root.py
"""

import copy
import json
import pathlib

HERE = pathlib.Path(__file__).parent
data = json.loads((HERE / "../eth-receipts/receipts.json").read_text())
block1, block54 = data["blocks"]
[block3] = data["raw"]


def consensus_only(r):
    keep = {"type", "status", "root", "cumulativeGasUsed", "logsBloom"}
    out = {k: v for k, v in r.items() if k in keep}
    out["logs"] = [{k: l[k] for k in ("address", "topics", "data")} for l in r["logs"]]
    return out


lines = [
    {"receipts": block1["receipts"]},
    {"receipts": block54["receipts"]},
    {"receipts": [consensus_only(r) for r in block54["receipts"]], "number": 54},
    {"receipts": block3["receipts"]},
    {"receipts": ["0x" + r for r in block3["receipts"]]},
    {"receipts": []},
]
flipped = copy.deepcopy(block54["receipts"])
bloom = bytearray.fromhex(flipped[1]["logsBloom"][2:])
bloom[7] ^= 0x10
flipped[1]["logsBloom"] = "0x" + bloom.hex()
deposit = copy.deepcopy(block54["receipts"])
deposit[2]["type"] = "0x7e"
lines += [
    {"receipts": flipped},
    {"receipts": deposit},
    {"receipts": block3["receipts"][:2] + [block3["receipts"][2][:-2]]},
    {"receipts": block3["receipts"][:1] + [""]},
]
no_status = consensus_only(block54["receipts"][0])
del no_status["status"]
short_topic = copy.deepcopy(block54["receipts"][3])
short_topic["logs"][0]["topics"][1] = short_topic["logs"][0]["topics"][1][:-2]
both = consensus_only(block54["receipts"][0])
both["root"] = "0x" + "07" * 32
wide = consensus_only(block54["receipts"][0])
wide["type"] = "0x80"
lines += [
    {"block": "0x01"},
    {"receipts": [7]},
    {"receipts": [no_status]},
    {"receipts": [short_topic]},
    {"receipts": ["0xzz"]},
    {"receipts": [both]},
    {"receipts": [wide]},
    {"receipts": "0x00"},
]
(HERE / "receipts-root.jsonl").write_text("".join(json.dumps(l, separators=(",", ":")) + "\n" for l in lines))
