"""Every operation answers the CLI's golden inputs exactly as the CLI does
(testdata/cli-golden/*.out, which the CLI's tests pin), whichever form the
columns take: lists of bytes, NumPy arrays, Arrow arrays."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest

import batchcrypto
from conftest import REPO, jsonl


def unhex(s: str) -> bytes:
    return bytes.fromhex(s[2:] if s.startswith(("0x", "0X")) else s)


def items(input_name: str, output_name: str, fields: dict[str, int | None]):
    """The well-formed items (by the given field lengths) and the CLI's
    answers for them; lines the CLI called malformed are left out."""
    cols: dict[str, list[bytes]] = {f: [] for f in fields}
    answers = []
    for line, out in zip(jsonl(input_name), jsonl(output_name), strict=True):
        if line is None or out is None or "error" in out:
            continue
        try:
            values = {f: unhex(line[f]) for f in fields}
        except (KeyError, ValueError):
            pytest.fail(f"{input_name}: the CLI answered a line with bad fields: {line}")
        for f, width in fields.items():
            assert width is None or len(values[f]) == width, (input_name, f)
            cols[f].append(values[f])
        answers.append(out)
    assert len(answers) > 10, input_name
    return cols, answers


FORMS = ["list", "numpy", "arrow-fixed", "arrow", "arrow-large-sliced"]


def as_form(values: list[bytes], width: int | None, form: str):
    """The column in one of FORMS (fields of any length stay lists where
    the form needs one width)."""
    if form == "numpy" and width:
        return np.frombuffer(b"".join(values), dtype=np.uint8).reshape(-1, width)
    if form == "arrow-fixed" and width:
        return pa.array(values, type=pa.binary(width))
    if form == "arrow":
        return pa.array(values, type=pa.binary())
    if form == "arrow-large-sliced":
        return pa.array([b"x"] + values, type=pa.large_binary()).slice(1)
    return values


def check_verdicts(got: batchcrypto.Verdicts, answers: list[dict], what: str):
    assert len(got.valid) == len(answers) == len(got.reasons), what
    assert got.valid.dtype == np.bool_ and got.reasons.dtype == np.uint8
    for i, (valid, code, want) in enumerate(zip(got.valid, got.reasons, answers)):
        assert bool(valid) == want["valid"], f"{what}: item {i}"
        assert batchcrypto.reason_name(code) == want.get("reason"), f"{what}: item {i}"
    assert any(a["valid"] for a in answers) and not all(a["valid"] for a in answers), what


SIGNED = [
    # (input, output, method, fields in the method's order, options)
    ("ed25519.jsonl", "ed25519-strict.out", "verify_ed25519", {"pk": 32, "sig": 64, "msg": None}, {"policy": "strict"}),
    ("ed25519.jsonl", "ed25519-zip215.out", "verify_ed25519", {"pk": 32, "sig": 64, "msg": None}, {"policy": "zip215"}),
    ("bip340.jsonl", "bip340.out", "verify_bip340", {"pk": 32, "sig": 64, "msg": None}, {}),
    ("sr25519.jsonl", "sr25519.out", "verify_sr25519", {"pk": 32, "sig": 64, "msg": None}, {}),
    ("sr25519.jsonl", "sr25519-polkadot.out", "verify_sr25519", {"pk": 32, "sig": 64, "msg": None}, {"context": b"polkadot"}),
    ("bls.jsonl", "bls.out", "verify_bls", {"pk": 48, "sig": 96, "msg": None}, {}),
    ("bls.jsonl", "bls-batch.out", "verify_bls", {"pk": 48, "sig": 96, "msg": None}, {"batch": True}),
    ("secp256k1.jsonl", "secp256k1.out", "verify_secp256k1", {"pk": None, "sig": 64, "hash": 32}, {}),
    ("secp256k1.jsonl", "secp256k1-low-s.out", "verify_secp256k1", {"pk": None, "sig": 64, "hash": 32}, {"low_s": True}),
    ("secp256k1-der.jsonl", "secp256k1-der.out", "verify_secp256k1", {"pk": None, "sig": None, "hash": 32}, {"der": True}),
    ("secp256k1-der.jsonl", "secp256k1-der-low-s.out", "verify_secp256k1", {"pk": None, "sig": None, "hash": 32}, {"der": True, "low_s": True}),
    ("mldsa44.jsonl", "mldsa-44.out", "verify_mldsa", {"pk": None, "sig": None, "msg": None, "ctx": None}, {"level": "ml-dsa-44"}),
    ("slhdsa-sha2-128s.jsonl", "slhdsa-sha2-128s.out", "verify_slhdsa", {"pk": None, "sig": None, "msg": None, "ctx": None}, {"set": "SLH-DSA-SHA2-128s"}),
]


@pytest.mark.parametrize("input_name,output_name,method,fields,options", SIGNED, ids=[s[1] for s in SIGNED])
def test_signatures(engine, input_name, output_name, method, fields, options):
    cols, answers = items(input_name, output_name, fields)
    names = list(fields)
    for form in FORMS:
        args = [as_form(cols[f], fields[f], form) for f in names]
        if "ctx" in fields:
            options = {**options, "ctxs": args.pop()}
        got = getattr(engine, method)(*args, **options)
        check_verdicts(got, answers, f"{output_name} ({form})")


def test_p256(engine):
    cols, answers = items("p256.jsonl", "p256.out", {"hash": 32, "r": 32, "s": 32, "x": 32, "y": 32})
    pks = [x + y for x, y in zip(cols["x"], cols["y"])]
    sigs = [r + s for r, s in zip(cols["r"], cols["s"])]
    check_verdicts(engine.verify_p256(pks, sigs, cols["hash"]), answers, "p256")


def test_p256_der(engine):
    """Signatures in DER, some not strict DER: their items' reason."""
    cols, answers = items("p256-der.jsonl", "p256-der.out", {"hash": 32, "sig": None, "x": 32, "y": 32})
    pks = [x + y for x, y in zip(cols["x"], cols["y"])]
    for form in FORMS:
        got = engine.verify_p256(as_form(pks, 64, form), as_form(cols["sig"], None, form), cols["hash"], der=True)
        check_verdicts(got, answers, f"p256-der ({form})")
    assert any(a.get("reason") == "malformed_signature" for a in answers)


def test_kzg_cells(engine):
    """EIP-7594 cells: the index is a JSON number, the other fields hex."""
    cols: dict[str, list] = {"commitment": [], "index": [], "cell": [], "proof": []}
    answers = []
    for line, out in zip(jsonl("kzg-cell.jsonl"), jsonl("kzg-cell.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        for f in cols:
            cols[f].append(line[f] if f == "index" else unhex(line[f]))
        answers.append(out)
    assert len(answers) > 10
    for form in FORMS:
        got = engine.verify_kzg_cells(
            as_form(cols["commitment"], 48, form),
            cols["index"],
            as_form(cols["cell"], 2048, form),
            as_form(cols["proof"], 48, form),
        )
        check_verdicts(got, answers, f"kzg-cell ({form})")
    one = [cols[f][:1] for f in ("commitment", "index", "cell", "proof")]
    with pytest.raises(ValueError, match="verify_kzg_cells: indices: 2 for 1 items"):
        engine.verify_kzg_cells(one[0], [0, 1], one[2], one[3])
    with pytest.raises(OverflowError):
        engine.verify_kzg_cells(one[0], [-1], one[2], one[3])
    with pytest.raises(ValueError, match="cells"):
        engine.verify_kzg_cells(one[0], one[1], [one[2][0][:-1]], one[3])


def test_kzg_compute_and_recover(engine):
    """EIP-7594 blobs and recoveries: the CLI's answers (commitment, 128
    cells, 128 proofs, or the reason) in every column form; a recovery
    whose indices and cells differ in number raises."""
    blobs, answers = [], []
    for line, out in zip(jsonl("kzg-compute.jsonl"), jsonl("kzg-compute.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        blobs.append(unhex(line["blob"]))
        answers.append(out)
    assert len(answers) >= 3
    for form in FORMS:
        got = engine.kzg_compute_cells(as_form(blobs, 131072, form))
        assert got.cells.shape == (len(blobs), 128, 2048) and got.proofs.shape == (len(blobs), 128, 48), form
        for i, want in enumerate(answers):
            if want["commitment"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.cells[i].any()
                continue
            assert got.valid[i], (form, i)
            assert got.commitments[i].tobytes().hex() == want["commitment"], (form, i)
            assert [c.tobytes().hex() for c in got.cells[i]] == want["cells"], (form, i)
            assert [p.tobytes().hex() for p in got.proofs[i]] == want["proofs"], (form, i)
    indices, cells, answers = [], [], []
    for line, out in zip(jsonl("kzg-recover.jsonl"), jsonl("kzg-recover.out"), strict=True):
        if line is None or out is None or "error" in out or out.get("reason") == "empty_or_mismatched":
            continue
        indices.append(line["cell_indices"])
        cells.append([unhex(c) for c in line["cells"]])
        answers.append(out)
    assert len(answers) >= 8
    got = engine.kzg_recover_cells(indices, cells)
    for i, want in enumerate(answers):
        if want["cells"] is None:
            assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], i
            continue
        assert got.valid[i], i
        assert [c.tobytes().hex() for c in got.cells[i]] == want["cells"], i
        assert [p.tobytes().hex() for p in got.proofs[i]] == want["proofs"], i
    with pytest.raises(ValueError, match="kzg_recover_cells: item 0 has 63 indices but 64 cells"):
        engine.kzg_recover_cells([indices[0][:-1]], [cells[0]])
    with pytest.raises(ValueError, match="cell_indices"):
        engine.kzg_recover_cells([[-1] * 64], [cells[0]])
    with pytest.raises(ValueError, match="cells"):
        engine.kzg_recover_cells([indices[0]], [[c[:-1] for c in cells[0]]])


@pytest.mark.parametrize("low_s", [False, True])
def test_ecrecover(engine, low_s):
    out = "ecrecover-low-s.out" if low_s else "ecrecover.out"
    cols, answers = items("ecrecover.jsonl", out, {"hash": 32, "sig": 65})
    for form in FORMS:
        got = engine.ecrecover(as_form(cols["hash"], 32, form), as_form(cols["sig"], 65, form), low_s=low_s)
        assert len(got.valid) == len(answers), form
        for i, want in enumerate(answers):
            if want["address"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.addresses[i].any() and not got.pubkeys[i].any()
            else:
                assert got.valid[i] and got.reasons[i] == 0, (form, i)
                assert "0x" + got.addresses[i].tobytes().hex() == want["address"], (form, i)
                assert got.pubkeys[i].tobytes().hex() == want["pubkey"], (form, i)


@pytest.mark.parametrize("alg", ["keccak256", "sha3-256", "sha256", "blake2b-256", "blake3"])
def test_hash(engine, alg):
    cols, answers = items("hash.jsonl", f"{alg}.out", {"data": None})
    for form in FORMS:
        got = engine.hash(alg, as_form(cols["data"], None, form))
        assert got.shape == (len(answers), 32) and got.dtype == np.uint8, form
        assert [d.tobytes().hex() for d in got] == [a["digest"] for a in answers], form


@pytest.mark.parametrize(
    "alg,rule,source",
    [
        ("keccak256", "sorted-keccak256", "leaves.jsonl"),
        ("sha256", "bitcoin", "leaves.jsonl"),
        ("poseidon", "lean-imt-poseidon", "poseidon-leaves.jsonl"),
        ("ssz", "ssz", "leaves.jsonl"),
    ],
)
def test_merkle_root(engine, alg, rule, source):
    leaves = [unhex(v["leaf"]) for v in jsonl(source)]
    want = jsonl(f"merkle-{alg}.out")[0]["root"]
    for form in FORMS:
        assert engine.merkle_root(as_form(leaves, 32, form), rule=rule).hex() == want, form


def test_poseidon(engine):
    """Poseidon over BN254: the CLI's answers (the hash, or the reason) for
    its golden items, each item its elements back to back, in every column
    form; circomlibjs's poseidon([1, 2])."""
    items, answers = [], []
    for line, out in zip(jsonl("poseidon.jsonl"), jsonl("poseidon.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        items.append(b"".join(unhex(x) for x in line["inputs"]))
        answers.append(out)
    assert len(answers) > 30 and any(a["hash"] is None for a in answers)
    for form in FORMS:
        got = engine.poseidon_bn254(as_form(items, None, form))
        assert got.hashes.shape == (len(items), 32), form
        for i, want in enumerate(answers):
            if want["hash"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.hashes[i].any()
                continue
            assert got.valid[i], (form, i)
            assert got.hashes[i].tobytes().hex() == want["hash"], (form, i)
    pair = (1).to_bytes(32, "big") + (2).to_bytes(32, "big")
    got = engine.poseidon_bn254(np.frombuffer(pair, dtype=np.uint8).reshape(1, 64))
    assert got.hashes[0].tobytes().hex() == "115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a"


def test_ordered_trie_roots(engine):
    """Ordered tries: the CLI's answers (the root, or the reason) for its
    golden lists, each made an item by ``ordered_trie_item``, in every
    column form: mainnet block 15,571,241's transactions give its header's
    ``transactionsRoot``; an item that does not read is
    ``wrong_input_length``."""
    items, answers = [], []
    for line, out in zip(jsonl("trie-root.jsonl"), jsonl("trie-root.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        items.append(batchcrypto.ordered_trie_item([unhex(v) for v in line["values"]]))
        answers.append(out)
    assert len(answers) == 6 and any(a["root"] is None for a in answers)
    assert answers[0]["root"] == "5f4773690718a2e37f45aa56458c6779a61b830fcf89485af5f32447c11f9b6c"
    for form in FORMS:
        got = engine.ordered_trie_roots(as_form(items + [b"\0\0\0\1"], None, form))
        assert got.hashes.shape == (len(items) + 1, 32), form
        for i, want in enumerate(answers):
            if want["root"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.hashes[i].any()
                continue
            assert got.valid[i], (form, i)
            assert got.hashes[i].tobytes().hex() == want["root"], (form, i)
        assert batchcrypto.reason_name(got.reasons[-1]) == "wrong_input_length", form


def _web3_style(receipt: dict) -> dict:
    """An RPC receipt as web3.py gives it: integers for quantities, bytes
    for data (``HexBytes``), addresses as strings."""
    out = {}
    for k, v in receipt.items():
        if k in ("type", "status", "cumulativeGasUsed", "blockNumber", "gasUsed", "transactionIndex"):
            out[k] = int(v, 16)
        elif k in ("logsBloom", "root", "blockHash", "transactionHash"):
            out[k] = unhex(v)
        elif k == "logs":
            out[k] = [{"address": l["address"], "topics": [unhex(t) for t in l["topics"]], "data": unhex(l["data"])}
                      for l in v]
        else:
            out[k] = v
    return out


def test_receipts_roots(engine):
    """Blocks' receipts: the CLI's answers (the root and bloom, or the
    reason and receipt) for its golden blocks (the execution-apis chain's
    blocks 1, 54 and 3 give their headers' ``receiptsRoot``), each made an
    item by ``receipts_item`` from the RPC objects, from web3.py's form of
    them and from raw bytes, in every column form; a malformed receipt
    raises ``ValueError`` naming its field."""
    items, answers = [], []
    for line, out in zip(jsonl("receipts-root.jsonl"), jsonl("receipts-root.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        receipts = [unhex(r) if isinstance(r, str) else r for r in line["receipts"]]
        items.append(batchcrypto.receipts_item(receipts))
        answers.append(out)
    assert len(answers) == 10 and answers[1]["root"].startswith("1a7a488c")
    web3 = batchcrypto.receipts_item([_web3_style(r) for r in jsonl("receipts-root.jsonl")[1]["receipts"]])
    assert web3 == items[1]
    for form in FORMS:
        got = engine.receipts_roots(as_form(items + [b"\0\0\0\1"], None, form))
        assert got.roots.shape == (len(items) + 1, 32) and got.blooms.shape == (len(items) + 1, 256), form
        for i, want in enumerate(answers):
            if want["root"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert got.receipts[i] == want["receipt"], (form, i)
                assert not got.roots[i].any() and not got.blooms[i].any()
                continue
            assert got.valid[i] and got.receipts[i] == -1, (form, i)
            assert got.roots[i].tobytes().hex() == want["root"], (form, i)
            assert got.blooms[i].tobytes().hex() == want["logsBloom"], (form, i)
        assert batchcrypto.reason_name(got.reasons[-1]) == "wrong_input_length" and got.receipts[-1] == -1, form
    with pytest.raises(ValueError, match=r"receipts\[0\]: receipt: field \"logs\[0\]\.topics\[0\]\""):
        batchcrypto.receipts_item([{"status": 1, "cumulativeGasUsed": 1,
                                    "logs": [{"address": "0x" + "11" * 20, "topics": [b"1"], "data": b""}]}])


def test_tx_senders(engine):
    """Transactions: the CLI's answers (the sender, or the reason) for its
    golden transactions (mainnet block 15,571,241's with the senders its
    node recovered, EIP-155's example changed) in every column form."""
    txs, answers = [], []
    for line, out in zip(jsonl("tx-sender.jsonl"), jsonl("tx-sender.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        txs.append(unhex(line["tx"]))
        answers.append(out)
    assert len(answers) == 89 and answers[0]["sender"] == "0x04be70565b05b35198845e623c9e51c67dd0c4b0"
    for form in FORMS:
        got = engine.tx_senders(as_form(txs, None, form))
        assert got.addresses.shape == (len(txs), 20), form
        for i, want in enumerate(answers):
            if want["sender"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.addresses[i].any()
                continue
            assert got.valid[i], (form, i)
            assert "0x" + got.addresses[i].tobytes().hex() == want["sender"], (form, i)


@pytest.mark.parametrize("policy", ["strict", "zip215"])
def test_solana_txs(engine, policy):
    """Solana transactions: the CLI's verdicts under each policy on its
    golden transactions (Firedancer's fixtures, the mainnet one changed)
    in every column form; an unknown policy is a ValueError."""
    cols, answers = items("solana-tx.jsonl", f"solana-tx-{policy}.out", {"tx": None})
    assert len(answers) == 20 and sum(a["valid"] for a in answers) == 12
    for form in FORMS:
        check_verdicts(engine.verify_solana_txs(as_form(cols["tx"], None, form), policy=policy), answers, form)
    with pytest.raises(ValueError, match="policy"):
        engine.verify_solana_txs(cols["tx"], policy="lax")


def test_eip7702_authorities(engine):
    """EIP-7702 authorizations: each golden line's fields made an item by
    ``eip7702_authorization`` (equal to the known RLP for eth-account's),
    the CLI's answers (the authority, or the reason) in every column form;
    a field out of range raises ``ValueError``."""
    known = json.loads((REPO / "testdata" / "eth-txs" / "authorizations.json").read_text())
    auths, answers = [], []
    for line, out in zip(jsonl("eip7702-authority.jsonl"), jsonl("eip7702-authority.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        fields = {k: int(line[k], 16) for k in ("chainId", "nonce", "yParity", "r", "s")}
        auths.append(batchcrypto.eip7702_authorization(
            fields["chainId"], unhex(line["address"]), fields["nonce"], fields["yParity"], fields["r"], fields["s"]))
        answers.append(out)
    assert len(answers) == 12
    assert [a.hex() for a in auths[:9]] == [k["rlp"] for k in known]
    for form in FORMS:
        got = engine.eip7702_authorities(as_form(auths, None, form))
        for i, want in enumerate(answers):
            if want["authority"] is None:
                assert not got.valid[i] and batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
                assert not got.addresses[i].any()
                continue
            assert got.valid[i], (form, i)
            assert "0x" + got.addresses[i].tobytes().hex() == want["authority"], (form, i)
    with pytest.raises(ValueError):
        batchcrypto.eip7702_authorization(1, b"\1" * 20, 1 << 64, 0, 1, 1)


def test_verify_blocks(engine):
    """Whole blocks: the CLI's answers for its golden blocks (mainnet
    15,571,241 valid with its hash; the others naming the field that fails,
    or malformed), in every column form; with ``senders=True`` those of
    ``verify block --senders`` (the mainnet block's 58 senders, a block's
    transaction without one named)."""
    blocks, answers = [], []
    for line, out in zip(jsonl("block.jsonl"), jsonl("block.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        blocks.append(unhex(line["block"]))
        answers.append(out)
    assert len(answers) == 8 and answers[0]["hash"].startswith("1850b014")
    for form in FORMS:
        got = engine.verify_blocks(as_form(blocks, None, form))
        for i, want in enumerate(answers):
            assert bool(got.valid[i]) == want["valid"], (form, i)
            if "reason" in want:
                assert batchcrypto.reason_name(got.reasons[i]) == want["reason"], (form, i)
            assert got.fields[i] == want.get("field"), (form, i)
            assert int(got.numbers[i]) == want.get("number", 0), (form, i)
            assert got.hashes[i].tobytes().hex() == want.get("hash", "00" * 32), (form, i)
    # With senders: the CLI's answers for `verify block --senders`.
    answers = [out for out in jsonl("block-senders.out") if out is not None and "error" not in out]
    got = engine.verify_blocks(blocks, senders=True)
    assert got.senders is not None and got.transactions is not None
    assert len(got.senders[0]) == 58
    for i, want in enumerate(answers):
        assert bool(got.valid[i]) == want["valid"], i
        if "reason" in want:
            assert batchcrypto.reason_name(got.reasons[i]) == want["reason"], i
        assert int(got.transactions[i]) == want.get("transaction", -1), i
        senders = got.senders[i]
        listed = None if senders is None else ["0x" + row.tobytes().hex() for row in senders]
        assert listed == want.get("senders"), i


def test_verify_bitcoin_blocks(engine):
    """Whole Bitcoin blocks: the CLI's answers for its golden blocks under
    mainnet's and regtest's parameters (real blocks valid with their hashes
    and heights; changed, repeated, cut and regtest blocks naming the
    check that fails), in every column form; an unknown network is
    refused by name."""
    blocks = [unhex(line["block"]) for line in jsonl("bitcoin-block.jsonl")[:13]]
    for network, name in [("main", "bitcoin-block.out"), ("regtest", "bitcoin-block-regtest.out")]:
        answers = jsonl(name)[:13]
        assert answers[0]["height"] == 924634 and answers[1]["height"] is None
        for form in FORMS:
            got = engine.verify_bitcoin_blocks(as_form(blocks, None, form), network=network)
            for i, want in enumerate(answers):
                assert bool(got.valid[i]) == want["valid"], (network, form, i)
                if "reason" in want:
                    assert batchcrypto.reason_name(got.reasons[i]) == want["reason"], (network, form, i)
                assert got.fields[i] == want.get("field"), (network, form, i)
                height = want.get("height")
                assert int(got.heights[i]) == (-1 if height is None else height), (network, form, i)
                shown = got.hashes[i].tobytes()[::-1].hex()
                assert shown == want.get("hash", "00" * 32), (network, form, i)
    with pytest.raises(ValueError, match="network"):
        engine.verify_bitcoin_blocks(blocks, network="mainnet")


def test_merkle_root_padded(engine):
    """Padded trees: Light Protocol's empty Poseidon root at height 26 (no
    leaves, and one leaf 0), and a bitcoin-rule tree of depth 3 equal to
    the unpadded root of its eight leaves written out."""
    light26 = "120c58f143d491e95902f7f5277778a2e0ad5168f6add75669932630ce611518"
    assert engine.merkle_root([], rule="lean-imt-poseidon", depth=26).hex() == light26
    assert engine.merkle_root([b"\0" * 32], rule="lean-imt-poseidon", depth=26).hex() == light26
    leaves = [bytes([k]) * 32 for k in range(1, 6)]
    zero = b"\xab" * 32
    written = leaves + [zero] * 3
    want = engine.merkle_root(written, rule="bitcoin")
    assert engine.merkle_root(leaves, rule="bitcoin", depth=3, zero=zero) == want
    with pytest.raises(ValueError, match="9 leaves do not fit a tree of depth 3"):
        engine.merkle_root(written + [zero], rule="bitcoin", depth=3)
    with pytest.raises(ValueError, match="zero: needs a depth"):
        engine.merkle_root(leaves, zero=zero)


@pytest.mark.parametrize(
    "case,rule,depth",
    [
        ("keccak256", "sorted-keccak256", None),
        ("sha256", "bitcoin", None),
        ("sha256-depth", "bitcoin", 6),
        ("poseidon", "lean-imt-poseidon", None),
        ("ssz", "ssz", 6),
    ],
)
def test_merkle_proofs(engine, case, rule, depth):
    """Merkle inclusion proofs: the CLI's verdicts on its golden proofs
    (``merkle --proof``'s, honest and hostile), each made an item by
    ``merkle_proof_item``, in every column form; a depth out of range and
    an unknown rule raise."""
    source = "merkle-proof-" + case.removesuffix("-depth") + ".jsonl"
    items, answers = [], []
    for line, out in zip(jsonl(source), jsonl(f"merkle-proof-{case}.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        siblings = [unhex(s) for s in line["proof"]]
        items.append(batchcrypto.merkle_proof_item(unhex(line["root"]), unhex(line["leaf"]), line["index"], siblings))
        answers.append(out)
    assert len(answers) >= 10
    for form in FORMS:
        width = len(items[0]) if len({len(i) for i in items}) == 1 else None
        got = engine.verify_merkle_proofs(as_form(items, width, form), rule=rule, depth=depth)
        assert len(got.valid) == len(answers), form
        for i, (valid, code, want) in enumerate(zip(got.valid, got.reasons, answers)):
            assert bool(valid) == want["valid"], (form, i)
            assert batchcrypto.reason_name(code) == want.get("reason"), (form, i)
    with pytest.raises(ValueError, match="depth 65 is not 1 to 64"):
        engine.verify_merkle_proofs(items, rule=rule, depth=65)
    with pytest.raises(ValueError, match="unknown Merkle rule"):
        engine.verify_merkle_proofs(items, rule="keccak")
    with pytest.raises(ValueError, match="siblings\\[1\\]: 31 bytes"):
        batchcrypto.merkle_proof_item(b"\0" * 32, b"\0" * 32, 0, [b"\0" * 32, b"\0" * 31])
    with pytest.raises(ValueError, match="index -1"):
        batchcrypto.merkle_proof_item(b"\0" * 32, b"\0" * 32, -1, [])


def test_mpt_proofs(engine):
    """Ethereum trie proofs: the CLI's verdicts on its golden proofs
    (``sample mpt-proof``'s, honest and hostile, of present and absent
    keys), each made an item by ``mpt_proof_item``, in every column form;
    parts the layout cannot hold raise."""
    items, answers = [], []
    for line, out in zip(jsonl("mpt-proof.jsonl"), jsonl("mpt-proof.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        value = unhex(line["value"]) if "value" in line else None
        nodes = [unhex(n) for n in line["proof"]]
        items.append(batchcrypto.mpt_proof_item(unhex(line["root"]), unhex(line["key"]), value, nodes))
        answers.append(out)
    assert len(answers) >= 40 and any(not a["valid"] for a in answers)
    for form in FORMS:
        got = engine.verify_mpt_proofs(as_form(items, None, form))
        assert len(got.valid) == len(answers), form
        for i, (valid, code, want) in enumerate(zip(got.valid, got.reasons, answers)):
            assert bool(valid) == want["valid"], (form, i)
            assert batchcrypto.reason_name(code) == want.get("reason"), (form, i)
    # Keys of a block's tries by index: RLP of the index.
    assert [batchcrypto.index_key(i) for i in (0, 1, 127, 128, 256)] == [
        b"\x80", b"\x01", b"\x7f", b"\x81\x80", b"\x82\x01\x00"]
    with pytest.raises(ValueError, match="index -1"):
        batchcrypto.index_key(-1)
    with pytest.raises(ValueError, match="key: 33 bytes"):
        batchcrypto.mpt_proof_item(b"\0" * 32, b"\0" * 33, None, [])
    with pytest.raises(ValueError, match="root: 31 bytes"):
        batchcrypto.mpt_proof_item(b"\0" * 31, b"", None, [])
    with pytest.raises(ValueError, match="129 nodes"):
        batchcrypto.mpt_proof_item(b"\0" * 32, b"", None, [b"\x80"] * 129)


def test_eth_proofs(engine):
    """eth_getProof answers: the CLI's verdicts on its golden answers
    (``verify eth-proof``'s: whole, a changed balance and slot, absent
    accounts), by ``Engine.verify_eth_proofs`` with one state root and with
    one per answer; its malformed lines raise from ``eth_proof_items``."""
    answers, roots, want, bad = [], [], [], []
    for line, out in zip(jsonl("eth-proof.jsonl"), jsonl("eth-proof.out"), strict=True):
        if "error" in out:
            bad.append(line)
            continue
        roots.append(line.pop("stateRoot"))
        answers.append(line)
        want.append(out)
    assert len(answers) == 6 and len(bad) == 2 and len(set(roots)) == 1
    for state_roots in (roots[0], roots, [unhex(r) for r in roots]):
        got = engine.verify_eth_proofs(answers, state_roots)
        assert [bool(v) for v in got.valid] == [w["valid"] for w in want]
        assert [batchcrypto.reason_name(c) for c in got.reasons] == [w.get("reason") for w in want]
    # The account's item first, then one per slot.
    assert len(batchcrypto.eth_proof_items(answers[0], roots[0])) == 1 + len(answers[0]["storageProof"])
    with pytest.raises(ValueError, match="missing field 'stateRoot'"):
        batchcrypto.eth_proof_items(bad[0], bad[0].get("stateRoot"))
    with pytest.raises(ValueError, match="nonce .* over 64 bits"):
        batchcrypto.eth_proof_items(bad[1], bad[1]["stateRoot"])
    with pytest.raises(ValueError, match="2 state roots for 6 answers"):
        engine.verify_eth_proofs(answers, roots[:2])
