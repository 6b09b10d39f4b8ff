"""Writes blocks.json: the values of real blocks' ordered tries (a block's
transactions and withdrawals, each in its canonical encoding) beside the
roots their headers state, from the RPC answers in this folder (see
PROVENANCE). The encodings are checked here against the headers' roots
with py-trie (ethereum's HexaryTrie, a trie implementation independent of
alloy-trie); the Rust tests then hold every engine to those roots.
Writes raw-blocks.json: the mainnet block whole as debug_getRawBlock
gives it (checked: its header's Keccak-256 is the answer's hash, its
length the answer's size) and the withdrawals block without its
transactions (its header's hash checked alike). Writes shapes.json too: generated lists (every trie shape the keys RLP(i)
make up to 1,000 items, the values made by shape_value, which the tests
repeat) and their roots by py-trie.

Run: python3 make.py   (needs: pip install trie==3.1.0 "eth-hash[pycryptodome]")
"""

import hashlib
import json
import pathlib

import rlp
from eth_hash.auto import keccak
from trie import HexaryTrie

HERE = pathlib.Path(__file__).parent


def num(hex_str):
    """An RLP integer: big-endian, no leading zeros (zero is empty)."""
    n = int(hex_str, 16)
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def data(hex_str):
    return bytes.fromhex(hex_str[2:])


def access_list(entries):
    return [[data(e["address"]), [data(k) for k in e["storageKeys"]]] for e in entries]


def transaction(tx):
    """EIP-2718: legacy transactions as the RLP list, typed ones as
    type || RLP (EIP-2930 type 1, EIP-1559 type 2)."""
    kind = int(tx.get("type", "0x0"), 16)
    to = data(tx["to"]) if tx.get("to") else b""
    common = [num(tx["gas"]), to, num(tx["value"]), data(tx["input"])]
    sig = [num(tx["v"]), num(tx["r"]), num(tx["s"])]
    if kind == 0:
        return rlp.encode([num(tx["nonce"]), num(tx["gasPrice"])] + common + sig)
    if kind == 1:
        fields = [num(tx["chainId"]), num(tx["nonce"]), num(tx["gasPrice"])] + common
        return b"\x01" + rlp.encode(fields + [access_list(tx["accessList"])] + sig)
    if kind == 2:
        fields = [num(tx["chainId"]), num(tx["nonce"]), num(tx["maxPriorityFeePerGas"]), num(tx["maxFeePerGas"])]
        return b"\x02" + rlp.encode(fields + common + [access_list(tx["accessList"])] + sig)
    raise ValueError(f"transaction type {kind}")


def withdrawal(w):
    """EIP-4895: RLP([index, validator_index, address, amount])."""
    return rlp.encode([num(w["index"]), num(w["validatorIndex"]), data(w["address"]), num(w["amount"])])


def header(block):
    """The header's fields in order (London's sixteen, Shanghai's
    withdrawalsRoot seventeenth where the answer has one)."""
    fields = [data(block["parentHash"]), data(block["sha3Uncles"]), data(block["miner"]), data(block["stateRoot"]),
              data(block["transactionsRoot"]), data(block["receiptsRoot"]), data(block["logsBloom"]),
              num(block["difficulty"]), num(block["number"]), num(block["gasLimit"]), num(block["gasUsed"]),
              num(block["timestamp"]), data(block["extraData"]), data(block["mixHash"]), data(block["nonce"]),
              num(block["baseFeePerGas"])]
    if "withdrawalsRoot" in block:
        fields.append(data(block["withdrawalsRoot"]))
    return fields


def raw_block(block, transactions, withdrawals):
    """debug_getRawBlock's bytes: RLP([header, transactions, ommers,
    withdrawals?]), a legacy transaction as its list, a typed one as the
    string of its envelope."""
    body = [rlp.decode(t) if t[0] >= 0xC0 else t for t in transactions]
    parts = [header(block), body, []]
    if withdrawals is not None:
        parts.append([rlp.decode(w) for w in withdrawals])
    return rlp.encode(parts)


def ordered_root(values):
    t = HexaryTrie({})
    for i, v in enumerate(values):
        t[rlp.encode(i)] = v
    return t.root_hash


def shape_value(n, i, style):
    """Item i of a list of n: bytes drawn from SHA-256 of (n, i, style), of
    a length by style: "short" 1-31 bytes (leaves embedded in their
    branch), "byte" one byte (below 0x80 its own RLP), "mixed" 1-300."""
    seed = hashlib.sha256(f"{n}/{i}/{style}".encode()).digest()
    length = {"short": 1 + seed[0] % 31, "byte": 1, "mixed": 1 + int.from_bytes(seed[:2], "big") % 300}[style]
    stream = b"".join(hashlib.sha256(seed + bytes([k])).digest() for k in range(length // 32 + 1))
    return stream[:length]


def shapes():
    """Lists whose tries take every shape the keys RLP(i) make: one leaf,
    a branch at the root, 0x7f/0x80 (the single-byte keys' end), 0x81xx
    and 0x82xxxx keys beside them, embedded leaves and one-byte values."""
    out = []
    for n in [1, 2, 3, 15, 16, 17, 127, 128, 129, 130, 256, 300, 1000]:
        for style in ["short", "byte", "mixed"]:
            values = [shape_value(n, i, style) for i in range(n)]
            out.append({"n": n, "style": style, "root": "0x" + ordered_root(values).hex()})
    return out


def main():
    out = []
    for name, field, root_field, encode in [
        ("infura15571241wtxns.json", "transactions", "transactionsRoot", transaction),
        ("testdata-from-rpc-with-withdrawals.json", "withdrawals", "withdrawalsRoot", withdrawal),
    ]:
        block = json.loads((HERE / name).read_text())
        values = [encode(x) for x in block[field]]
        root = block[root_field]
        got = "0x" + ordered_root(values).hex()
        assert got == root, f"{name} {field}: {got} != {root}"
        out.append(
            {
                "block": int(block["number"], 16),
                "source": name,
                "trie": field,
                "root": root,
                "values": ["0x" + v.hex() for v in values],
            }
        )
        print(f"{name}: {len(values)} {field}, root {root} (py-trie agrees)")
    (HERE / "blocks.json").write_text(json.dumps(out, indent=1) + "\n")
    # Whole blocks: the mainnet block as debug_getRawBlock gives it (its
    # header's Keccak-256 the answer's hash, its length the answer's size),
    # and the withdrawals block's header and withdrawals without its
    # transactions (the answer has their hashes only: its transactionsRoot
    # cannot match).
    raws = []
    for name, whole in [("infura15571241wtxns.json", True), ("testdata-from-rpc-with-withdrawals.json", False)]:
        block = json.loads((HERE / name).read_text())
        assert "0x" + keccak(rlp.encode(header(block))).hex() == block["hash"], name
        transactions = [transaction(t) for t in block["transactions"]] if whole else []
        withdrawals = [withdrawal(w) for w in block["withdrawals"]] if "withdrawals" in block else None
        raw = raw_block(block, transactions, withdrawals)
        if whole:
            assert len(raw) == int(block["size"], 16), name
        raws.append({"block": int(block["number"], 16), "hash": block["hash"], "whole": whole, "raw": "0x" + raw.hex()})
        print(f"{name}: raw block of {len(raw)} bytes, header hash {block['hash']} (reproduced)")
    (HERE / "raw-blocks.json").write_text(json.dumps(raws, indent=1) + "\n")
    made = shapes()
    (HERE / "shapes.json").write_text(json.dumps(made, indent=1) + "\n")
    print(f"shapes.json: {len(made)} lists, roots by py-trie")


main()
