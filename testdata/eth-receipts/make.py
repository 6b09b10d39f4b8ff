"""Writes receipts.json and chain.json from the execution-apis answers in
this folder (see PROVENANCE.md).

receipts.json: blocks' receipts as eth_getBlockReceipts and
debug_getRawReceipts answered them, beside the receiptsRoot and logsBloom
of their headers (read from chain.rlp, the chain the answers were made
on). Each RPC receipt is encoded here (EIP-2718: type || RLP([status or
post-state root, cumulativeGasUsed, logsBloom, logs]), the legacy one the
RLP list alone) with pyrlp, its bloom made again from its logs and held to
the answer's, and each block's encodings held to its header with py-trie
(ethereum's HexaryTrie, independent of alloy-trie): the trie's root is the
header's receiptsRoot, the blooms' union its logsBloom. The single
receipts of eth_getTransactionReceipt (every type 0 to 4) are encoded and
checked alike (their blocks' other receipts are not in the answers, so no
root); the legacy one of block 3 equals debug_getRawReceipts' bytes.

chain.json: chain.rlp's 54 blocks whole (debug_getRawBlock's bytes), each
with its hash as the next block's parentHash states it (the last one's
from eth_getBlockByNumber("latest")), checked against the hashes the
eth_getBlockByNumber answers give, and the senders the receipts' `from`
fields name.

Run: python3 make.py   (needs: pip install rlp==4.0.1 trie==3.1.0 "eth-hash[pycryptodome]")
"""

import json
import pathlib

import rlp
from eth_hash.auto import keccak
from rlp.codec import consume_item
from trie import HexaryTrie

HERE = pathlib.Path(__file__).parent


def answer(name):
    """The result of the .io file's answer line."""
    for line in (HERE / name).read_text().splitlines():
        if line.startswith("<< "):
            return json.loads(line[3:])["result"]
    raise ValueError(name)


def num(hex_str):
    n = int(hex_str, 16)
    return n.to_bytes((n.bit_length() + 7) // 8, "big")


def data(hex_str):
    return bytes.fromhex(hex_str[2:])


def bloom(logs):
    """Yellow Paper M3:2048 of every log's address and topics."""
    bits = bytearray(256)
    for log in logs:
        for item in [log["address"]] + log["topics"]:
            h = keccak(data(item))
            for i in (0, 2, 4):
                bit = ((h[i] << 8) | h[i + 1]) & 2047
                bits[255 - bit // 8] |= 1 << (bit % 8)
    return bytes(bits)


def encode(r):
    """A receipt's EIP-2718 encoding from its RPC object."""
    if ("root" in r) == ("status" in r):
        raise ValueError("a receipt has a root or a status")
    first = data(r["root"]) if "root" in r else num(r["status"])
    logs = [[data(l["address"]), [data(t) for t in l["topics"]], data(l["data"])] for l in r["logs"]]
    assert bloom(r["logs"]) == data(r["logsBloom"]), "the answer's bloom is its logs'"
    body = rlp.encode([first, num(r["cumulativeGasUsed"]), data(r["logsBloom"]), logs])
    kind = int(r.get("type", "0x0"), 16)
    return body if kind == 0 else bytes([kind]) + body


def root(values):
    trie = HexaryTrie({})
    for i, v in enumerate(values):
        trie[rlp.encode(i)] = v
    return trie.root_hash


def union(blooms):
    out = bytearray(256)
    for b in blooms:
        out = bytearray(x | y for x, y in zip(out, b))
    return bytes(out)


def chain():
    """chain.rlp's blocks: (number, whole bytes, header fields)."""
    raw = (HERE / "chain.rlp").read_bytes()
    pos, out = 0, []
    while pos < len(raw):
        item, _, end = consume_item(raw, pos)
        out.append((int.from_bytes(item[0][8], "big"), raw[pos:end], item[0]))
        pos = end
    return out


def main():
    blocks = chain()
    headers = {n: h for n, _, h in blocks}

    def claims(n):
        return {"receiptsRoot": headers[n][5].hex(), "logsBloom": headers[n][6].hex()}

    full = []
    for name in ["eth_getBlockReceipts_get-block-receipts-n.io", "eth_getBlockReceipts_get-block-receipts-latest.io"]:
        receipts = answer(name)
        n = int(receipts[0]["blockNumber"], 16)
        encoded = [encode(r) for r in receipts]
        assert root(encoded) == headers[n][5], f"block {n}: receiptsRoot"
        assert union(data(r["logsBloom"]) for r in receipts) == headers[n][6], f"block {n}: logsBloom"
        full.append({"source": name, "number": n, **claims(n), "receipts": receipts, "encoded": [e.hex() for e in encoded]})

    raw = answer("debug_getRawReceipts_get-block-n.io")
    raw = [data(r) for r in raw]
    assert root(raw) == headers[3][5], "block 3: receiptsRoot"
    blooms = [rlp.decode(r)[2] for r in raw]
    assert union(blooms) == headers[3][6], "block 3: logsBloom"
    raw_blocks = [{"source": "debug_getRawReceipts_get-block-n.io", "number": 3, **claims(3), "receipts": [r.hex() for r in raw]}]

    single = []
    for name in sorted(p.name for p in HERE.glob("eth_getTransactionReceipt_*.io")):
        r = answer(name)
        single.append({"source": name, "receipt": r, "encoded": encode(r).hex()})
        if int(r["blockNumber"], 16) == 3:
            assert encode(r) == raw[int(r["transactionIndex"], 16)], "block 3's legacy receipt"
    kinds = sorted({int(s["receipt"]["type"], 16) for s in single})
    assert kinds == [0, 1, 2, 3, 4], kinds

    out = {"blocks": full, "raw": raw_blocks, "single": single}
    (HERE / "receipts.json").write_text(json.dumps(out, indent=1) + "\n")

    # Block hashes: the next header's parentHash, the last from "latest".
    hashes = {n: blocks[i + 1][2][0] for i, (n, _, _) in enumerate(blocks[:-1])}
    latest = answer("eth_getBlockByNumber_get-latest.io")
    hashes[blocks[-1][0]] = data(latest["hash"])
    for n, _, h in blocks:
        assert keccak(rlp.encode(h)) == hashes[n], f"block {n}: hash"
    for p in HERE.glob("eth_getBlockByNumber_*.io"):
        b = answer(p.name)
        assert hashes[int(b["number"], 16)] == data(b["hash"]), p.name
    senders = {}
    for r in [r for b in full for r in b["receipts"]] + [s["receipt"] for s in single]:
        senders.setdefault(int(r["blockNumber"], 16), {})[int(r["transactionIndex"], 16)] = r["from"]
    out = {
        "blocks": [
            {
                "number": n,
                "block": whole.hex(),
                "hash": hashes[n].hex(),
                "senders": [{"index": i, "from": a} for i, a in sorted(senders.get(n, {}).items())],
            }
            for n, whole, _ in blocks
        ]
    }
    (HERE / "chain.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"{len(full)} blocks' receipts, {len(raw_blocks)} raw, {len(single)} single; {len(blocks)} blocks")


if __name__ == "__main__":
    main()
