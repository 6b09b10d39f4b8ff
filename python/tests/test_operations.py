"""The operations beyond the signature columns: EVM precompiles (go-ethereum's
vectors), BLS aggregates (the consensus specs' bls12-381-tests), ML-KEM (the
CLI's golden outputs), NTTs (the CLI's answers) and MSMs (against the
bn256 scalar-multiplication precompile's vectors)."""

from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

import batchcrypto
from conftest import VECTORS, jsonl, vectors

PRECOMPILES = [
    ("bn256Add.json", "bn256-add"),
    ("bn256ScalarMul.json", "bn256-mul"),
    ("bn256Pairing.json", "bn256-pairing"),
    ("blsG1MultiExp.json", "bls-g1msm"),
    ("blsG2MultiExp.json", "bls-g2msm"),
    ("blsPairing.json", "eip2537-pairing"),
    ("blsG1Add.json", "bls-g1add"),
    ("blsG2Add.json", "bls-g2add"),
    ("blsMapG1.json", "bls-map-g1"),
    ("blsMapG2.json", "bls-map-g2"),
    ("pointEvaluation.json", "point-evaluation"),
    ("modexp_eip2565.json", "modexp"),
    ("ecRecover.json", "ecrecover"),
    ("p256Verify.json", "p256verify"),
]


@pytest.mark.parametrize("name,precompile", PRECOMPILES, ids=[p for _, p in PRECOMPILES])
def test_precompile_vectors(engine, name, precompile):
    cases = vectors(f"eth-precompiles/{name}")
    got = engine.evm(precompile, [bytes.fromhex(c["Input"]) for c in cases])
    assert len(got.outputs) == len(cases) == len(got.ok)
    for i, c in enumerate(cases):
        assert got.ok[i] and got.errors[i] == 0, (c["Name"], batchcrypto.PRECOMPILE_ERRORS.get(int(got.errors[i])))
        assert got.outputs[i].hex() == c["Expected"], c["Name"]


def test_modexp_bound(engine):
    """EIP-7823: a length above 1,024 bytes fails the call; 1,024 is allowed."""
    def call(mod_len: int) -> bytes:
        return (1).to_bytes(32, "big") + (1).to_bytes(32, "big") + mod_len.to_bytes(32, "big") + bytes([3, 5]) + b"\x07".rjust(mod_len, b"\0")

    got = engine.evm("modexp", [call(1024), call(1025), call(1)])
    assert list(got.ok) == [True, False, True]
    assert batchcrypto.PRECOMPILE_ERRORS[int(got.errors[1])] == "operand_too_long"
    assert got.outputs[0] == bytes(1023) + bytes([5]) and got.outputs[2] == bytes([5])


@pytest.mark.parametrize("name,precompile", [(f"fail-{n}", p) for n, p in PRECOMPILES if n.startswith("bls")])
def test_precompile_failures(engine, name, precompile):
    cases = vectors(f"eth-precompiles/{name}")
    got = engine.evm(precompile, [bytes.fromhex(c["Input"]) for c in cases])
    assert len(got.outputs) == len(cases) > 3
    assert not got.ok.any()
    assert all(batchcrypto.PRECOMPILE_ERRORS[int(e)] for e in got.errors)
    assert got.outputs == [b""] * len(cases)


def test_unknown_precompile(engine):
    with pytest.raises(ValueError, match="evm: precompile: unknown precompile"):
        engine.evm("bn256-div", [b""])


def _consensus(kind: str):
    folder = VECTORS / "bls12-381-tests" / kind
    if not folder.exists():
        vectors(f"bls12-381-tests/{kind}/missing.json")
    cases = [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]
    assert len(cases) >= 5, kind
    return cases


def test_bls_aggregate_verify(engine):
    # A signature of another length than 96 bytes cannot enter the column
    # (an argument error, as in the Rust API): that vector is checked so.
    every = _consensus("aggregate_verify")
    cases = [c for c in every if len(c["input"]["signature"]) == 2 + 2 * 96]
    short = [c for c in every if c not in cases]
    assert len(short) == 1 and not short[0]["output"]
    with pytest.raises(ValueError, match=r"sigs\[0\]: 8 bytes, expected 96"):
        c = short[0]["input"]
        engine.verify_bls_aggregate(
            [[bytes.fromhex(k[2:]) for k in c["pubkeys"]]],
            [[bytes.fromhex(m[2:]) for m in c["messages"]]],
            [bytes.fromhex(c["signature"][2:])],
        )
    pks = [[bytes.fromhex(k[2:]) for k in c["input"]["pubkeys"]] for c in cases]
    msgs = [[bytes.fromhex(m[2:]) for m in c["input"]["messages"]] for c in cases]
    sigs = [bytes.fromhex(c["input"]["signature"][2:]) for c in cases]
    got = engine.verify_bls_aggregate(pks, msgs, sigs)
    assert got.valid.tolist() == [c["output"] for c in cases]
    with pytest.raises(ValueError, match="verify_bls_aggregate: item 0 has"):
        engine.verify_bls_aggregate(pks, [m[:-1] for m in msgs], sigs)


def test_bls_fast_aggregate_verify(engine):
    cases = _consensus("fast_aggregate_verify")
    pks = [np.array([list(bytes.fromhex(k[2:])) for k in c["input"]["pubkeys"]], dtype=np.uint8).reshape(-1, 48) for c in cases]
    msgs = [bytes.fromhex(c["input"]["message"][2:]) for c in cases]
    sigs = [bytes.fromhex(c["input"]["signature"][2:]) for c in cases]
    got = engine.verify_bls_fast_aggregate(pks, msgs, sigs)
    assert got.valid.tolist() == [c["output"] for c in cases]
    assert any(got.valid) and not all(got.valid)
    with pytest.raises(ValueError, match="pks has .* items but msgs has"):
        engine.verify_bls_fast_aggregate(pks, msgs[1:], sigs)


def _kem(input_name: str, output_name: str, fields: list[str]):
    """Lines with every field and the CLI's answers to them."""
    cols: dict[str, list[bytes]] = {f: [] for f in fields}
    answers = []
    for line, out in zip(jsonl(input_name), jsonl(output_name), strict=True):
        if line is None or out is None or "error" in out or any(f not in line for f in fields):
            continue
        for f in fields:
            cols[f].append(bytes.fromhex(line[f]))
        answers.append(out)
    assert len(answers) > 5
    return cols, answers


def _check_rows(got_valid, got_reasons, arrays: dict[str, np.ndarray], answers: list[dict]):
    assert len(got_valid) == len(answers)
    for i, want in enumerate(answers):
        name = batchcrypto.reason_name(got_reasons[i])
        assert name == want.get("reason"), (i, name, want)
        for field, array in arrays.items():
            if want.get(field) is None:
                assert not array[i].any(), (i, field)
            else:
                assert array[i].tobytes().hex() == want[field], (i, field)


def test_mlkem_golden(engine):
    cols, answers = _kem("mlkem-keygen.jsonl", "mlkem-768-keygen.out", ["d", "z"])
    got = engine.mlkem_keygen(cols["d"], cols["z"], set=768)
    _check_rows(got.valid, got.reasons, {"ek": got.eks, "dk": got.dks}, answers)

    cols, answers = _kem("mlkem512-encaps.jsonl", "mlkem-512-encaps.out", ["ek", "m"])
    got = engine.mlkem_encaps(cols["ek"], cols["m"], set=512)
    _check_rows(got.valid, got.reasons, {"ct": got.cts, "ss": got.secrets}, answers)

    cols, answers = _kem("mlkem512-decaps.jsonl", "mlkem-512-decaps.out", ["dk", "ct"])
    got = engine.mlkem_decaps(cols["dk"], cols["ct"], set=512)
    _check_rows(got.valid, got.reasons, {"ss": got.secrets}, answers)

    # Random messages: the round trip gives the same secret.
    keys = engine.mlkem_keygen([bytes([i]) * 32 for i in range(3)], [b"z" * 32] * 3, set=1024)
    enc = engine.mlkem_encaps(keys.eks, set=1024)
    dec = engine.mlkem_decaps(keys.dks, enc.cts, set=1024)
    assert enc.valid.all() and dec.valid.all()
    assert np.array_equal(enc.secrets, dec.secrets)
    with pytest.raises(ValueError, match="mlkem_keygen: set: 700"):
        engine.mlkem_keygen([b"d" * 32], [b"z" * 32], set=700)


def test_ntt_matches_the_cli(engine, cli, tmp_path):
    rng = np.random.default_rng(18)
    log_n, width = 5, 32 * 8
    # Goldilocks elements below p: the top byte of each 8 below 0xff.
    polys = rng.integers(0, 256, size=(3, width), dtype=np.uint8)
    polys[:, 7::8] = rng.integers(0, 0xFF, size=(3, 32), dtype=np.uint8)
    polys[2, 0:8] = 0xFF  # one non-canonical element: that polynomial's reason
    src = tmp_path / "polys.bin"
    src.write_bytes(polys.tobytes())
    for inverse in (False, True):
        got = engine.ntt("goldilocks", polys, log_n, inverse=inverse, output_order="bit-reversed")
        args = [str(cli), "ntt", "--field", "goldilocks", "--log-n", str(log_n), "--output-order", "bit-reversed"]
        args += ["--input", str(src)] + (["--inverse"] if inverse else [])
        want = subprocess.run(args, capture_output=True, check=False)
        assert got.valid.tolist() == [True, True, False]
        assert batchcrypto.reason_name(got.reasons[2]) == "non_canonical_element"
        assert want.stdout[: 2 * width] == got.values[:2].tobytes(), want.stderr
    back = engine.ntt("goldilocks", engine.ntt("goldilocks", polys[:2], log_n).values, log_n, inverse=True)
    assert np.array_equal(back.values, polys[:2])
    with pytest.raises(ValueError, match=r"ntt: .*polys\[0\]: 8 bytes, expected 256"):
        engine.ntt("goldilocks", [b"\0" * 8], log_n)


def test_ntt_over_a_prime_of_the_callers_matches_the_cli(engine, cli, tmp_path):
    rng = np.random.default_rng(64)
    p, log_n, width = 0x7FFFFFFFD2000001, 4, 16 * 8
    # Elements below p (63 bits): the top byte of each 8 below 0x7f.
    polys = rng.integers(0, 256, size=(3, width), dtype=np.uint8)
    polys[:, 7::8] = rng.integers(0, 0x7F, size=(3, 16), dtype=np.uint8)
    polys[1, 8:16] = 0xFF  # one non-canonical element: that polynomial's reason
    src = tmp_path / "polys.bin"
    src.write_bytes(polys.tobytes())
    got = engine.ntt("prime64-negacyclic", polys, log_n, modulus=p)
    args = [str(cli), "ntt", "--field", "prime64-negacyclic", "--modulus", str(p), "--log-n", str(log_n)]
    want = subprocess.run(args + ["--input", str(src)], capture_output=True, check=False)
    assert got.valid.tolist() == [True, False, True]
    assert want.stdout == got.values.tobytes(), want.stderr
    back = engine.ntt("prime64-negacyclic", got.values[[0, 2]], log_n, inverse=True, modulus=p)
    assert np.array_equal(back.values, polys[[0, 2]])
    with pytest.raises(ValueError, match="ntt: .*prime64-negacyclic needs a modulus"):
        engine.ntt("prime64-negacyclic", polys, log_n)
    with pytest.raises(ValueError, match="ntt: .*not a prime"):
        engine.ntt("prime64-negacyclic", polys, log_n, modulus=p + 2)
    with pytest.raises(OverflowError):
        engine.ntt("prime64-negacyclic", polys, log_n, modulus=-1)


def test_msm_is_the_scalar_multiplication_precompile(engine):
    cases = [c for c in vectors("eth-precompiles/bn256ScalarMul.json") if len(c["Input"]) == 192]
    assert len(cases) > 5
    for c in cases:
        raw = bytes.fromhex(c["Input"])
        got = engine.msm("bn254-g1", raw[:64], raw[64:][::-1])
        assert got.valid and got.reason == 0 and got.value.hex() == c["Expected"], c["Name"]
    bad = engine.msm("bn254-g1", b"\x00" * 63 + b"\x01" * 1, b"\x01" + b"\x00" * 31)
    assert not bad.valid and batchcrypto.reason_name(bad.reason) == "not_on_curve" and bad.value == b""
    with pytest.raises(ValueError, match="msm"):
        engine.msm("bn254-g1", b"\x00" * 64, b"\x00" * 31)


def test_msm_bases_checked_once_give_the_same_sums(engine):
    rng = np.random.default_rng(5)
    cases = vectors("eth-precompiles/bn256ScalarMul.json")
    points = b"".join(bytes.fromhex(c["Input"])[:64] for c in cases if len(c["Input"]) >= 192)
    n = len(points) // 64
    assert n > 5
    bases = engine.msm_bases("bn254-g1", points)
    assert len(bases) == n and bases.curve == "bn254-g1"
    for _ in range(3):
        scalars = rng.integers(0, 256, size=32 * n, dtype=np.uint8)
        want = engine.msm("bn254-g1", points, scalars)
        assert want.valid
        assert engine.msm_with(bases, scalars) == want.value
    with pytest.raises(ValueError, match=f"{n} bases"):
        engine.msm_with(bases, b"\x00" * 31)
    bad = bytearray(points)
    bad[2 * 64 + 63] ^= 1
    with pytest.raises(ValueError, match="point 2: not_on_curve"):
        engine.msm_bases("bn254-g1", bytes(bad))
    with pytest.raises(ValueError, match="msm_bases: curve"):
        engine.msm_bases("bn254-g7", points)
