"""batchcrypto: signatures, hashes and Merkle roots in large batches on CPU
cores and GPUs, answered byte for byte as the canonical CPU crates answer.

    import batchcrypto
    engine = batchcrypto.Engine()                  # backend="auto"
    v = engine.verify_ed25519(pks, sigs, msgs)     # pks: (n, 32) uint8, ...
    v.valid                                        # bool, one per item
    [batchcrypto.reason_name(r) for r in v.reasons[~v.valid]]

Arguments are columns of ``n`` items: a list of byte strings, a uint8 NumPy
array of shape ``(n, width)``, or a pyarrow binary / fixed-size-binary
array (borrowed without a copy where the layout allows); a single
``bytes`` is one item. Verdicts come back as NumPy arrays: ``valid``
(bool) and ``reasons`` (uint8: 0 for valid, else a code named by
:data:`REASONS`, the CLI's reason codes). The GIL is released while the
engine works, so threads calling one engine run in parallel.

Bad arguments (None, wrong types or lengths, mismatched counts) raise
``TypeError`` or ``ValueError`` naming the operation and the argument;
nothing is computed then. A failing engine raises ``RuntimeError``.

The native module calls the same Rust functions as the C ABI
(``batchcrypto::flat``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import _native
from ._columns import columns

__all__ = ["Engine", "Verdicts", "Recovered", "REASONS", "reason_name", "__version__"]

__version__: str = _native.__version__

#: Reason numbers (as in ``Verdicts.reasons``) to the CLI's snake_case codes.
REASONS: dict[int, str] = dict(_native.reason_names())


def reason_name(code: int) -> str | None:
    """The code of a reason number (``"equation"``, ...); None for 0 (valid)."""
    return REASONS.get(int(code))


class Verdicts(NamedTuple):
    """One verdict per item."""

    #: bool array: the item verifies.
    valid: np.ndarray
    #: uint8 array: 0 for valid, else a key of :data:`REASONS`.
    reasons: np.ndarray


class Recovered(NamedTuple):
    """ecrecover's answers, one per item."""

    #: bool array: a key was recovered.
    valid: np.ndarray
    #: uint8 array: 0 when recovered, else a key of :data:`REASONS`.
    reasons: np.ndarray
    #: (n, 20) uint8 array: the Ethereum addresses (zeros where not valid).
    addresses: np.ndarray
    #: (n, 64) uint8 array: the public keys x || y (zeros where not valid).
    pubkeys: np.ndarray


def _verdicts(codes: np.ndarray) -> Verdicts:
    return Verdicts(codes == 0, codes)


class Engine:
    """CPU threads and, where one is usable, a GPU.

    ``backend``: ``"auto"`` (per batch, from the calibration profile that
    ``batchcrypto calibrate`` writes; the CPU without one), ``"cpu"`` or
    ``"gpu"`` (an error when no GPU is usable). ``threads``: CPU threads
    (default: one per logical core). ``adapter``: part of the GPU's name.
    """

    def __init__(self, backend: str = "auto", threads: int | None = None, adapter: str | None = None):
        self._native = _native.NativeEngine(backend, threads, adapter)

    def __repr__(self) -> str:
        choice, gpu = self._native.describe()
        return f"Engine(backend={choice!r}, gpu={gpu!r})"

    def _signed(self, op: str, names: tuple[str, str, str], values: tuple[Any, Any, Any], option: Any = None) -> Verdicts:
        n, cols = columns(op, **dict(zip(names, values)))
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify(op, option, *(c.native() for c in cols), codes)
        return _verdicts(codes)

    def verify_ed25519(self, pks: Any, sigs: Any, msgs: Any, policy: str = "strict") -> Verdicts:
        """Ed25519: keys of 32 bytes, signatures of 64, messages of any
        length. ``policy``: ``"strict"`` (ed25519-dalek's ``verify_strict``)
        or ``"zip215"`` (the ZIP-215 rules)."""
        return self._signed("verify_ed25519", ("pks", "sigs", "msgs"), (pks, sigs, msgs), policy)

    def verify_bip340(self, pks: Any, sigs: Any, msgs: Any) -> Verdicts:
        """BIP-340 Schnorr: x-only keys of 32 bytes, signatures of 64."""
        return self._signed("verify_bip340", ("pks", "sigs", "msgs"), (pks, sigs, msgs))

    def verify_sr25519(self, pks: Any, sigs: Any, msgs: Any, context: bytes | None = None) -> Verdicts:
        """sr25519 (schnorrkel) under the signing ``context`` (None:
        Substrate's, ``b"substrate"``)."""
        option = None if context is None else bytes(context)
        return self._signed("verify_sr25519", ("pks", "sigs", "msgs"), (pks, sigs, msgs), option)

    def verify_bls(self, pks: Any, sigs: Any, msgs: Any, batch: bool = False) -> Verdicts:
        """BLS12-381, Ethereum's ciphersuite: keys of 48 bytes, signatures
        of 96. ``batch`` checks all with one multi-pairing first (the same
        verdicts; faster when most are valid)."""
        return self._signed("verify_bls", ("pks", "sigs", "msgs"), (pks, sigs, msgs), bool(batch))

    def verify_secp256k1(self, pks: Any, sigs: Any, hashes: Any, low_s: bool = False) -> Verdicts:
        """secp256k1 ECDSA: keys of 33 or 65 bytes, signatures r || s of 64,
        32-byte hashes; ``low_s`` rejects s > n/2."""
        return self._signed("verify_secp256k1", ("pks", "sigs", "hashes"), (pks, sigs, hashes), bool(low_s))

    def verify_p256(self, pks: Any, sigs: Any, hashes: Any) -> Verdicts:
        """P-256 under RIP-7212: keys x || y of 64 bytes, signatures r || s
        of 64, 32-byte hashes."""
        return self._signed("verify_p256", ("pks", "sigs", "hashes"), (pks, sigs, hashes))

    def verify_mldsa(self, pks: Any, sigs: Any, msgs: Any, level: str = "ml-dsa-65", ctxs: Any = None) -> Verdicts:
        """ML-DSA (FIPS 204) at ``level``; ``ctxs`` None for empty contexts."""
        op = "verify_mldsa"
        values = {"pks": pks, "sigs": sigs, "msgs": msgs}
        if ctxs is not None:
            values["ctxs"] = ctxs
        n, cols = columns(op, **values)
        codes = np.empty(n, dtype=np.uint8)
        ctx = cols[3].native() if ctxs is not None else None
        self._native.verify_mldsa(level, *(c.native() for c in cols[:3]), ctx, codes)
        return _verdicts(codes)

    def ecrecover(self, hashes: Any, sigs: Any, low_s: bool = False) -> Recovered:
        """Ethereum's ecrecover: 32-byte hashes, signatures r || s || v of 65
        bytes (v 27/28 or 0/1)."""
        n, cols = columns("ecrecover", hashes=hashes, sigs=sigs)
        codes = np.empty(n, dtype=np.uint8)
        addresses = np.empty((n, 20), dtype=np.uint8)
        pubkeys = np.empty((n, 64), dtype=np.uint8)
        self._native.ecrecover(bool(low_s), *(c.native() for c in cols), addresses, pubkeys, codes)
        return Recovered(codes == 0, codes, addresses, pubkeys)

    def hash(self, alg: str, msgs: Any) -> np.ndarray:
        """The digest of every message: an (n, 32) uint8 array. ``alg``:
        ``"keccak256"``, ``"sha3-256"`` or ``"sha256"``."""
        n, cols = columns("hash", msgs=msgs)
        digests = np.empty((n, 32), dtype=np.uint8)
        self._native.hash(alg, cols[0].native(), digests)
        return digests

    def merkle_root(self, leaves: Any, rule: str = "bitcoin") -> bytes:
        """The Merkle root of 32-byte leaves: ``"bitcoin"`` (double SHA-256)
        or ``"sorted-keccak256"`` (OpenZeppelin's sorted pairs)."""
        _, cols = columns("merkle_root", leaves=leaves)
        return bytes(self._native.merkle_root(rule, cols[0].native()))
