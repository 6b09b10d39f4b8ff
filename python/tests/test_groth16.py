"""Groth16 over BN254: the CLI's golden corpus (proofs as hex and as
snarkjs's objects) answered as the CLI answers it, in every column form;
snarkjs's own files (testdata/groth16) verify through the snarkjs helpers;
a key that does not decode raises, naming why."""

from __future__ import annotations

import json

import numpy as np
import pytest

import batchcrypto
from conftest import GOLDEN, VECTORS, jsonl
from test_golden import FORMS, as_form, check_verdicts


def golden_items() -> tuple[list[bytes], list[dict]]:
    """The corpus's well-formed lines as items, and the CLI's answers."""
    items, answers = [], []
    for line, out in zip(jsonl("groth16.jsonl"), jsonl("groth16.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        proof, public = line["proof"], line["public"]
        if isinstance(proof, str):
            words = b"".join(int(x, 0).to_bytes(32, "big") for x in public)
            items.append(bytes.fromhex(proof) + words)
        else:
            items.append(batchcrypto.groth16_item(proof, public))
        answers.append(out)
    assert len(answers) > 40
    return items, answers


@pytest.mark.parametrize("form", FORMS)
def test_golden_corpus(engine, form):
    vk = bytes.fromhex((GOLDEN / "groth16-vk.hex").read_text().strip())
    items, answers = golden_items()
    check_verdicts(engine.verify_groth16(vk, as_form(items, None, form)), answers, f"groth16 {form}")


@pytest.mark.parametrize("folder,inputs", [("zkchess", 11), ("snarkbvp", 7)])
def test_snarkjs_files(engine, folder, inputs):
    root = VECTORS / "groth16" / folder
    if not root.exists():
        pytest.skip(f"{root} is missing")
    vk = batchcrypto.groth16_key(json.loads((root / "verification_key.json").read_text()))
    assert len(vk) == 448 + 64 * (inputs + 1)
    item = batchcrypto.groth16_item((root / "proof.json").read_text(), (root / "public.json").read_text())
    wrong = item[:-1] + bytes([item[-1] ^ 1])
    got = engine.verify_groth16(vk, [item, wrong, item[:-32]])
    assert got.valid.tolist() == [True, False, False]
    assert [batchcrypto.reason_name(c) for c in got.reasons] == [None, "equation", "wrong_input_length"]


def test_bad_keys_and_files_raise(engine):
    vk = bytes.fromhex((GOLDEN / "groth16-vk.hex").read_text().strip())
    items, _ = golden_items()
    with pytest.raises(ValueError, match="64 per IC point"):
        engine.verify_groth16(vk[:-1], items)
    with pytest.raises(ValueError, match="not JSON"):
        batchcrypto.groth16_key("{")
    with pytest.raises(ValueError, match="pi_c"):
        batchcrypto.groth16_item({"pi_a": ["1", "2", "1"], "pi_b": [["1", "2"], ["3", "4"], ["1", "0"]]}, [])
    assert engine.verify_groth16(vk, np.empty((0, 352), dtype=np.uint8)).valid.size == 0
