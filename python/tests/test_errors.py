"""Bad arguments raise an exception naming the operation and the argument;
nothing is computed."""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pytest

import batchcrypto

PK = np.zeros((2, 32), dtype=np.uint8)
SIG = np.zeros((2, 64), dtype=np.uint8)
MSGS = [b"a", b""]


@pytest.mark.parametrize(
    "pks,sigs,msgs,error,message",
    [
        (None, SIG, MSGS, TypeError, "verify_ed25519: pks is None"),
        (PK, SIG, [b"a", None], TypeError, r"verify_ed25519: msgs\[1\] is None"),
        (PK, SIG, [b"a", "text"], TypeError, r"verify_ed25519: msgs\[1\]: expected bytes, got str"),
        (PK.astype(np.int32), SIG, MSGS, TypeError, "verify_ed25519: pks: expected a uint8 array, got dtype int32"),
        (np.zeros((2, 2, 8), dtype=np.uint8), SIG, MSGS, ValueError, r"verify_ed25519: pks: expected shape \(n, width\)"),
        (PK, SIG[:1], MSGS, ValueError, "verify_ed25519: pks has 2 items but sigs has 1"),
        (np.zeros((2, 31), dtype=np.uint8), SIG, MSGS, ValueError, r"verify_ed25519: .*pks\[0\]: 31 bytes, expected 32"),
        ([b"\0" * 32, b"\0" * 33], SIG, MSGS, ValueError, r"verify_ed25519: .*pks\[1\]: 33 bytes, expected 32"),
        (pa.array([b"\0" * 32, None], type=pa.binary(32)), SIG, MSGS, ValueError, r"verify_ed25519: pks\[1\] is null"),
        (pa.array(["a", "b"]), SIG, MSGS, TypeError, "verify_ed25519: pks: expected an Arrow binary"),
        (42, SIG, MSGS, TypeError, "verify_ed25519: pks: expected bytes, a list of bytes"),
    ],
)
def test_bad_columns(engine, pks, sigs, msgs, error, message):
    with pytest.raises(error, match=message):
        engine.verify_ed25519(pks, sigs, msgs)


def test_bad_options(engine):
    with pytest.raises(ValueError, match="verify_ed25519: policy: unknown policy"):
        engine.verify_ed25519(PK, SIG, MSGS, policy="lax")
    with pytest.raises(ValueError, match="hash: alg: unknown hash"):
        engine.hash("md5", MSGS)
    with pytest.raises(ValueError, match="verify_mldsa: level: unknown level"):
        engine.verify_mldsa(MSGS, MSGS, MSGS, level="ml-dsa-99")
    with pytest.raises(ValueError, match="verify_slhdsa: set: unknown set"):
        engine.verify_slhdsa(MSGS, MSGS, MSGS, set="sha2-512s")
    with pytest.raises(ValueError, match="merkle_root: .*at least one leaf"):
        engine.merkle_root(np.zeros((0, 32), dtype=np.uint8))
    with pytest.raises(ValueError, match="merkle_root: .*leaf 1 is not below BN254's scalar field modulus"):
        engine.merkle_root([b"\0" * 32, b"\xff" * 32], rule="lean-imt-poseidon")
    with pytest.raises(ValueError, match="merkle_root: rule: unknown Merkle rule"):
        engine.merkle_root([b"\0" * 32], rule="poseidon")
    with pytest.raises(ValueError, match="Engine: backend"):
        batchcrypto.Engine(backend="quantum")
    with pytest.raises(ValueError, match="secp256k1: .*pks\\[0\\]: 34 bytes, expected 33 or 65"):
        engine.verify_secp256k1([b"\2" * 34], [b"\1" * 64], [b"\0" * 32])


def test_empty_batches(engine):
    got = engine.verify_ed25519(np.zeros((0, 32), np.uint8), [], [])
    assert got.valid.shape == (0,) and got.reasons.shape == (0,)
    assert engine.hash("sha256", []).shape == (0, 32)


def test_one_item_as_bytes(engine):
    import hashlib

    assert engine.hash("sha256", b"abc")[0].tobytes() == hashlib.sha256(b"abc").digest()
    assert engine.hash("sha256", np.frombuffer(b"abc", np.uint8))[0].tobytes() == hashlib.sha256(b"abc").digest()
    assert engine.hash("sha256", [b"", bytearray(b"abc")])[1].tobytes() == hashlib.sha256(b"abc").digest()


def test_reason_table():
    assert batchcrypto.reason_name(0) is None
    assert "equation" in batchcrypto.REASONS.values()
    assert len(set(batchcrypto.REASONS)) == len(batchcrypto.REASONS) and 0 not in batchcrypto.REASONS


def test_bad_arguments_of_the_other_operations(engine):
    with pytest.raises(TypeError, match="evm: inputs is None"):
        engine.evm("bn256-add", None)
    with pytest.raises(ValueError, match="evm: precompile: unknown precompile"):
        engine.evm("sha1", [b""])
    with pytest.raises(TypeError, match=r"verify_bls_aggregate: pks\[0\]: expected a sequence"):
        engine.verify_bls_aggregate([b"\0" * 48], [[b"m"]], [b"\0" * 96])
    with pytest.raises(ValueError, match="verify_bls_fast_aggregate: pks has 1 items but sigs has 2"):
        engine.verify_bls_fast_aggregate([[b"\0" * 48]], [b"m"], [b"\0" * 96] * 2)
    with pytest.raises(ValueError, match=r"verify_bls_fast_aggregate: .*pks\[0\]: 47 bytes, expected 48"):
        engine.verify_bls_fast_aggregate([[b"\0" * 47]], [b"m"], [b"\0" * 96])
    with pytest.raises(ValueError, match="mlkem_decaps: dks has 2 items but cts has 1"):
        engine.mlkem_decaps([b"k", b"k"], [b"c"], set=512)
    with pytest.raises(ValueError, match="mlkem_encaps: set: 1"):
        engine.mlkem_encaps([b"k"], set=1)
    with pytest.raises(ValueError, match="ntt: field: unknown field"):
        engine.ntt("rationals", [b"\0" * 8], 4)
    with pytest.raises(ValueError, match="ntt: input_order"):
        engine.ntt("goldilocks", [b"\0" * 128], 4, input_order="sideways")
    with pytest.raises(TypeError, match="msm: points is None"):
        engine.msm("bn254-g1", None, b"")
    with pytest.raises(ValueError, match="msm: curve"):
        engine.msm("ed25519", b"", b"")
    # Nothing to do is an empty answer, not an error.
    assert engine.evm("bn256-add", []).outputs == []
    assert engine.verify_bls_fast_aggregate([], [], []).valid.shape == (0,)
    assert engine.mlkem_decaps([], [], set=512).secrets.shape == (0, 32)


def test_a_build_without_a_gpu_runtime_says_so():
    """Built without the GPU runtime (``--no-default-features``, as CI builds
    the package), asking for the GPU is an error that says so and ``auto``
    runs on the CPU. ``BATCHCRYPTO_EXPECT_GPU_RUNTIME`` (CI: ``none``) names
    the runtime the installed build must have."""
    expected = os.environ.get("BATCHCRYPTO_EXPECT_GPU_RUNTIME")
    if expected is not None:
        assert (batchcrypto.GPU_RUNTIME or "none") == expected
    if batchcrypto.GPU_RUNTIME is not None:
        pytest.skip(f"this build has the {batchcrypto.GPU_RUNTIME} runtime")
    with pytest.raises(RuntimeError, match=r"Engine: .*no GPU runtime compiled in"):
        batchcrypto.Engine(backend="gpu")
    auto = batchcrypto.Engine()
    assert repr(auto) == "Engine(backend='auto', gpu=None)"
    assert auto.hash("keccak256", [b""]).tobytes().hex() == (
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    )
