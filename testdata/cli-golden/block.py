"""Writes block.jsonl, the golden input of `verify block`: mainnet block
15,571,241 whole and a testnet block without its transactions (from
../eth-blocks/raw-blocks.json), the mainnet block with a byte of its last
transaction changed and cut short; three small Shanghai-shaped blocks made
here (two transactions, one withdrawal; roots by py-trie): whole, with
another withdrawals root, with an ommer the header's ommersHash does not
hold; and malformed lines (no bytes, bad hex, no block field).

Run: python3 block.py   (needs: pip install trie==3.1.0 "eth-hash[pycryptodome]")
"""

import json
import pathlib

import rlp
from eth_hash.auto import keccak
from trie import HexaryTrie

HERE = pathlib.Path(__file__).parent


def root(values):
    t = HexaryTrie({})
    for i, v in enumerate(values):
        t[rlp.encode(i)] = v
    return t.root_hash


def small_block(withdrawals_root=None, ommers=()):
    legacy = [b"\x01", b"\x02" * 3, b"\x52\x08", b"\x33" * 20, b"", b"", b"\x25", b"\x11" * 32, b"\x22" * 32]
    typed = b"\x02" + rlp.encode([b"\x01", b"", b"\x01", b"\x02", b"\x52\x08", b"\x44" * 20, b"", b"", [], b"", b"\x11" * 32, b"\x22" * 32])
    withdrawal = [b"\x07", b"\x09", b"\x55" * 20, b"\x01\x00"]
    values = [rlp.encode(legacy), typed]
    header = [b"\x00" * 32, keccak(rlp.encode([])), b"\x66" * 20, b"\x77" * 32, root(values), b"\x88" * 32,
              b"\x00" * 256, b"", b"\x01\x02\x03", b"\x01" * 4, b"", b"\x65", b"", b"\x00" * 32, b"\x00" * 8,
              b"\x07", withdrawals_root or root([rlp.encode(withdrawal)])]
    return rlp.encode([header, [legacy, typed], list(ommers), [withdrawal]])


raws = json.loads((HERE / "../eth-blocks/raw-blocks.json").read_text())
mainnet = bytes.fromhex(raws[0]["raw"][2:])
changed = bytearray(mainnet)
changed[-100] ^= 1
blocks = [mainnet, bytes.fromhex(raws[1]["raw"][2:]), bytes(changed), mainnet[:-1], small_block(),
          small_block(withdrawals_root=b"\x99" * 32), small_block(ommers=[[b"\x01"] * 15]), b""]
lines = [json.dumps({"block": "0x" + b.hex()}) for b in blocks]
lines += ['{"block":"0xzz"}', "{}"]
(HERE / "block.jsonl").write_text("".join(l + "\n" for l in lines))
