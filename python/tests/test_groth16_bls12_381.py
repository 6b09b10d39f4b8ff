"""Groth16 over BLS12-381: the CLI's golden corpus answered as the CLI
answers it, in every column form; Sui's known-answer proof verifies
under its key (its input written little-endian); snarkjs's own files for
this curve verify through the helpers, which route snarkjs's objects by
their ``curve``; a key that does not decode raises, naming why."""

from __future__ import annotations

import json

import numpy as np
import pytest

import batchcrypto
from conftest import GOLDEN, VECTORS, jsonl
from test_golden import FORMS, as_form, check_verdicts


def golden_items() -> tuple[list[bytes], list[dict]]:
    """The corpus's lines as items (public inputs little-endian), and the
    CLI's answers."""
    items, answers = [], []
    for line, out in zip(jsonl("groth16-bls12-381.jsonl"), jsonl("groth16-bls12-381.out"), strict=True):
        if line is None or out is None or "error" in out:
            continue
        words = b"".join(int(x, 0).to_bytes(32, "little") for x in line["public"])
        items.append(bytes.fromhex(line["proof"]) + words)
        answers.append(out)
    assert len(answers) == 40
    return items, answers


def golden_key() -> bytes:
    return bytes.fromhex((GOLDEN / "groth16-bls12-381-vk.hex").read_text().strip())


@pytest.mark.parametrize("form", FORMS)
def test_golden_corpus(engine, form):
    items, answers = golden_items()
    got = engine.verify_groth16_bls12_381(golden_key(), as_form(items, None, form))
    check_verdicts(got, answers, f"groth16-bls12-381 {form}")


def test_sui_example(engine):
    path = VECTORS / "groth16" / "sui-bls12381" / "vectors.json"
    if not path.exists():
        pytest.skip(f"{path} is missing")
    ex = json.loads(path.read_text())["example"]
    ic = ex["gamma_abc"]
    vk = bytes.fromhex(ex["alpha"] + ex["beta"] + ex["gamma"] + ex["delta"])
    vk += len(ic).to_bytes(8, "little") + bytes.fromhex("".join(ic))
    proof = bytes.fromhex(ex["a"] + ex["b"] + ex["c"])
    big_endian = bytes.fromhex(ex["public_inputs_big_endian"][0])
    got = engine.verify_groth16_bls12_381(vk, [proof + big_endian[::-1], proof + big_endian])
    assert got.valid.tolist() == [True, False]
    assert batchcrypto.reason_name(got.reasons[1]) == "non_canonical_element"


def test_snarkjs_files(engine):
    root = VECTORS / "groth16" / "snarkjs-bls12381"
    if not root.exists():
        pytest.skip(f"{root} is missing")
    vk = batchcrypto.groth16_key(json.loads((root / "verification_key.json").read_text()))
    assert len(vk) == 344 + 48 * 2
    proof = (root / "proof.json").read_text()
    item = batchcrypto.groth16_item(proof, (root / "public.json").read_text())
    got = engine.verify_groth16_bls12_381(vk, [item, batchcrypto.groth16_item(proof, ["34"]), item[:-32]])
    assert got.valid.tolist() == [True, False, False]
    assert [batchcrypto.reason_name(c) for c in got.reasons] == [None, "equation", "wrong_input_length"]


def test_snarkjs_objects_are_routed_by_curve():
    with pytest.raises(ValueError, match="groth16_verify_bls12_381.*pi_a is not on the curve"):
        batchcrypto.groth16_item({"curve": "bls12381", "pi_a": ["1", "2", "1"], "pi_b": [["1", "2"], ["3", "4"], ["1", "0"]], "pi_c": ["1", "2", "1"]}, [])
    with pytest.raises(ValueError, match="groth16_verify_bls12_381.*has no IC"):
        batchcrypto.groth16_key({"curve": "bls12381"})
    with pytest.raises(ValueError, match="groth16_verify_bn254"):
        batchcrypto.groth16_key({"curve": "bn128"})


def test_bad_keys_raise(engine):
    vk = golden_key()
    items, _ = golden_items()
    with pytest.raises(ValueError, match="declaring 4 IC points"):
        engine.verify_groth16_bls12_381(vk[:-1], items)
    assert engine.verify_groth16_bls12_381(vk, np.empty((0, 288), dtype=np.uint8)).valid.size == 0
