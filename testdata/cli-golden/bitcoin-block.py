"""Writes bitcoin-block.jsonl, the golden input of `verify bitcoin-block`
(main and regtest): two real blocks from ../bitcoin-blocks (testnet3
924,634 with its witness commitment; mainnet 0000000000013b8a, before
BIP-34), block 13b8a with a byte of a transaction changed, with its last
transaction repeated (CVE-2012-2459: the same root), with a header byte
changed, cut short and with a byte added; regtest blocks built and mined
here (BIP-141 written out with hashlib, independent of the engine): one
with a segwit spend and its commitment, the same with the commitment
changed, with a coinbase witness of two items, a witness without any
commitment, a block above regtest's limit; and malformed lines (no bytes,
bad hex, no block field).

Run: python3 bitcoin-block.py   (Python's standard library only)
"""

import hashlib
import json
import pathlib

HERE = pathlib.Path(__file__).parent
DATA = HERE / "../bitcoin-blocks"


def sha256d(b):
    return hashlib.sha256(hashlib.sha256(b).digest()).digest()


def compact(n):
    if n < 0xFD:
        return bytes([n])
    if n <= 0xFFFF:
        return b"\xfd" + n.to_bytes(2, "little")
    return b"\xfe" + n.to_bytes(4, "little")


def var(b):
    return compact(len(b)) + b


def tx(inputs, outputs, witnesses=None):
    """inputs: (prevout 36 bytes, script); outputs: (sats, script); witnesses: a list of items per input."""
    body = compact(len(inputs)) + b"".join(p + var(s) + b"\xff" * 4 for p, s in inputs)
    body += compact(len(outputs)) + b"".join(v.to_bytes(8, "little") + var(s) for v, s in outputs)
    stripped = (2).to_bytes(4, "little") + body + b"\x00" * 4
    if not witnesses:
        return stripped, stripped
    wit = b"".join(compact(len(items)) + b"".join(var(i) for i in items) for items in witnesses)
    return stripped, (2).to_bytes(4, "little") + b"\x00\x01" + body + wit + b"\x00" * 4


def merkle(hashes):
    while len(hashes) > 1:
        if len(hashes) % 2:
            hashes.append(hashes[-1])
        hashes = [sha256d(hashes[i] + hashes[i + 1]) for i in range(0, len(hashes), 2)]
    return hashes[0]


def regtest_block(commit=True, change_commitment=False, nonce_items=1, bits=0x207FFFFF):
    nonce = bytes(range(32))
    spend = tx([(b"\x11" * 32 + b"\x00" * 4, b"")], [(5000, b"\x00\x14" + b"\x22" * 20)],
               [[b"\x30" * 72, b"\x02" * 33]])
    wtxid_root = merkle([b"\x00" * 32, sha256d(spend[1])])
    commitment = sha256d(wtxid_root + nonce)
    if change_commitment:
        commitment = bytes([commitment[0] ^ 1]) + commitment[1:]
    outputs = [(50 * 10**8, b"\x51")]
    if commit:
        outputs.append((0, b"\x6a\x24\xaa\x21\xa9\xed" + commitment))
    items = [nonce, b"\x01"][:nonce_items] if commit else None
    # Height 500 as CScript() << 500 writes it, then some bytes.
    coinbase = tx([(b"\x00" * 32 + b"\xff" * 4, b"\x02\xf4\x01" + b"batchcrypto")], outputs,
                  [items] if items else None)
    txs = [coinbase, spend]
    root = merkle([sha256d(t[0]) for t in txs])
    head = (0x20000000).to_bytes(4, "little") + b"\x00" * 32 + root + (1_700_000_000).to_bytes(4, "little")
    head += bits.to_bytes(4, "little")
    n = 0
    while int.from_bytes(sha256d(head + n.to_bytes(4, "little"))[::-1], "big") > (0x7FFFFF << 232):
        n += 1
    return head + n.to_bytes(4, "little") + compact(len(txs)) + b"".join(t[1] for t in txs)


testnet = (DATA / "testnet_block_000000000000045e0b1660b6445b5e5c5ab63c9a4f956be7e1e69be04fa4497b.raw").read_bytes()
b13 = bytes.fromhex((DATA / "block_13b8a.hex").read_text().strip())
changed = bytearray(b13)
changed[-100] ^= 1
header_changed = bytearray(b13)
header_changed[40] ^= 1
# 9 transactions: count 0x09 at byte 80, the last transaction repeated.
blocks = [testnet, b13, bytes(changed), bytes(header_changed), b13[:-1], b13 + b"\x00"]


def tx_end(b, at):
    """Where the legacy transaction starting at `at` ends (block 13b8a has no witnesses)."""

    def read_compact(at):
        first = b[at]
        if first < 0xFD:
            return first, at + 1
        width = {0xFD: 2, 0xFE: 4, 0xFF: 8}[first]
        return int.from_bytes(b[at + 1:at + 1 + width], "little"), at + 1 + width

    at += 4
    n, at = read_compact(at)
    for _ in range(n):
        at += 36
        s, at = read_compact(at)
        at += s + 4
    n, at = read_compact(at)
    for _ in range(n):
        at += 8
        s, at = read_compact(at)
        at += s
    return at + 4


assert b13[80] == 9
at = 81
starts = []
for _ in range(9):
    starts.append(at)
    at = tx_end(b13, at)
assert at == len(b13)
duplicated = b13[:80] + b"\x0a" + b13[81:] + b13[starts[-1]:]
blocks.append(duplicated)
blocks += [regtest_block(), regtest_block(change_commitment=True), regtest_block(nonce_items=2),
           regtest_block(commit=False), regtest_block(bits=0x2100FFFF), b""]
lines = [json.dumps({"block": b.hex()}) for b in blocks]
lines += ['{"block":"zz"}', "{}"]
(HERE / "bitcoin-block.jsonl").write_text("".join(line + "\n" for line in lines))
