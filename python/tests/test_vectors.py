"""The public vectors the Rust tests use (testdata/, with provenance)."""

from __future__ import annotations

import hashlib

from conftest import vectors


def test_wycheproof_ed25519(engine):
    data = vectors("wycheproof/ed25519_test.json")
    pks, sigs, msgs, want = [], [], [], []
    for group in data["testGroups"]:
        pk = bytes.fromhex(group["publicKey"]["pk"])
        for t in group["tests"]:
            sig = bytes.fromhex(t["sig"])
            if len(sig) != 64 or len(pk) != 32:
                continue  # a length error is an argument error here, not a verdict
            pks.append(pk)
            sigs.append(sig)
            msgs.append(bytes.fromhex(t["msg"]))
            want.append(t["result"] == "valid")
    got = engine.verify_ed25519(pks, sigs, msgs, policy="strict")
    assert len(want) > 100
    assert got.valid.tolist() == want


def test_wycheproof_p256(engine):
    data = vectors("wycheproof/ecdsa_secp256r1_sha256_p1363_test.json")
    pks, sigs, hashes, want = [], [], [], []
    for group in data["testGroups"]:
        key = bytes.fromhex(group["publicKey"]["uncompressed"])
        for t in group["tests"]:
            sig = bytes.fromhex(t["sig"])
            if len(sig) != 64:
                continue
            pks.append(key[1:])
            sigs.append(sig)
            hashes.append(hashlib.sha256(bytes.fromhex(t["msg"])).digest())
            want.append(t["result"] == "valid")
    got = engine.verify_p256(pks, sigs, hashes)
    assert len(want) > 100
    assert got.valid.tolist() == want
