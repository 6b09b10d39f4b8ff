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
from ._columns import column, columns

__all__ = [
    "Engine",
    "Verdicts",
    "Recovered",
    "Calls",
    "KemKeys",
    "BlobCells",
    "ExtendedCells",
    "Encapsulations",
    "Decapsulations",
    "Polys",
    "Hashes",
    "BlockChecks",
    "BitcoinBlockChecks",
    "ReceiptsRoots",
    "Senders",
    "Sum",
    "MsmBases",
    "REASONS",
    "PRECOMPILE_ERRORS",
    "reason_name",
    "groth16_key",
    "groth16_item",
    "merkle_proof_item",
    "mpt_proof_item",
    "index_key",
    "eth_proof_items",
    "ordered_trie_item",
    "receipts_item",
    "eip7702_authorization",
    "GPU_RUNTIME",
    "__version__",
]

__version__: str = _native.__version__

#: Points checked once for many sums (:meth:`Engine.msm_bases`): ``len()``
#: the points given, ``curve`` the group's name.
MsmBases = _native.NativeBases

#: The GPU runtime this build has (``"wgpu"``), or None for a build without
#: one (``--no-default-features``: the CPU only, and ``backend="gpu"`` an
#: error that says so).
GPU_RUNTIME: str | None = _native.GPU_RUNTIME

#: Reason numbers (as in ``Verdicts.reasons``) to the CLI's snake_case codes.
REASONS: dict[int, str] = dict(_native.reason_names())


#: Precompile failure numbers (as in ``Calls.errors``) to their codes.
PRECOMPILE_ERRORS: dict[int, str] = dict(_native.precompile_error_names())


#: snarkjs's ``curve`` tags of BLS12-381 (it writes ``bls12381``).
_BLS12_381_CURVES = ("bls12381", "bls12_381", "bls12-381")


def _on_bls12_381(obj: str | dict) -> bool:
    """Whether snarkjs's object (text or dict) says ``"curve": "bls12381"``;
    text that is not a JSON object is left to the native reader's error."""
    import json

    if isinstance(obj, str):
        try:
            obj = json.loads(obj)
        except ValueError:
            return False
    return isinstance(obj, dict) and obj.get("curve") in _BLS12_381_CURVES


def groth16_key(verification_key: str | dict) -> bytes:
    """snarkjs's ``verification_key.json`` (its text or the parsed dict) as
    the key's bytes: EIP-197's for :meth:`Engine.verify_groth16`, or, when
    its ``curve`` is ``bls12381``, the compressed form for
    :meth:`Engine.verify_groth16_bls12_381`."""
    import json

    text = verification_key if isinstance(verification_key, str) else json.dumps(verification_key)
    if _on_bls12_381(verification_key):
        return _native.groth16_bls12_381_key_from_snarkjs(text)
    return _native.groth16_key_from_snarkjs(text)


def groth16_item(proof: str | dict, public: str | list) -> bytes:
    """A proof as snarkjs writes it (``proof.json``'s object) and its public
    inputs (``public.json``'s list of decimal strings) as an item's bytes
    for :meth:`Engine.verify_groth16`, or, when the proof's ``curve`` is
    ``bls12381``, for :meth:`Engine.verify_groth16_bls12_381`."""
    import json

    as_text = lambda v: v if isinstance(v, str) else json.dumps(v)  # noqa: E731
    if _on_bls12_381(proof):
        return _native.groth16_bls12_381_item_from_snarkjs(as_text(proof), as_text(public))
    return _native.groth16_item_from_snarkjs(as_text(proof), as_text(public))


def merkle_proof_item(root: bytes, leaf: bytes, index: int, siblings: list[bytes]) -> bytes:
    """A Merkle inclusion proof as an item's bytes for
    :meth:`Engine.verify_merkle_proofs`: ``root ‖ leaf ‖ index ‖ siblings``,
    nodes of 32 bytes, the index (the sides of the leaf's path as bits,
    0 to 2**64 - 1) 8 bytes big-endian. Raises ``ValueError`` for a node of
    another length or an index out of range."""
    nodes = [("root", root), ("leaf", leaf)] + [(f"siblings[{k}]", s) for k, s in enumerate(siblings)]
    for name, node in nodes:
        if len(node) != 32:
            raise ValueError(f"merkle_proof_item: {name}: {len(node)} bytes, expected 32")
    if not 0 <= int(index) < 1 << 64:
        raise ValueError(f"merkle_proof_item: index {index} is not 0 to 2**64 - 1")
    return bytes(root) + bytes(leaf) + int(index).to_bytes(8, "big") + b"".join(bytes(s) for s in siblings)


def mpt_proof_item(root: bytes, key: bytes, value: bytes | None, nodes: list[bytes]) -> bytes:
    """An Ethereum trie proof as an item's bytes for
    :meth:`Engine.verify_mpt_proofs`: the trie's root (32 bytes), the key as
    the trie's path (at most 32 bytes: ``keccak256(address)`` or
    ``keccak256(slot)`` in the state and storage tries, ``rlp(index)`` in a
    block's transactions and receipts tries), the value the leaf holds
    (``None`` for a proof of absence) and the RLP nodes root first, as
    ``eth_getProof`` gives them. Raises ``ValueError`` for a root of another
    length, a longer key or more than 128 nodes."""
    if len(root) != 32:
        raise ValueError(f"mpt_proof_item: root: {len(root)} bytes, expected 32")
    if len(key) > 32:
        raise ValueError(f"mpt_proof_item: key: {len(key)} bytes, at most 32")
    if len(nodes) > 128:
        raise ValueError(f"mpt_proof_item: {len(nodes)} nodes, at most 128")
    parts = [bytes(root), bytes([len(key)]), bytes(key)]
    if value is None:
        parts.append(b"\0")
    else:
        parts += [b"\1", len(value).to_bytes(4, "big"), bytes(value)]
    parts.append(len(nodes).to_bytes(2, "big"))
    for node in nodes:
        parts += [len(node).to_bytes(4, "big"), bytes(node)]
    return b"".join(parts)


def eip7702_authorization(chain_id: int, address: bytes, nonce: int, y_parity: int, r: int, s: int) -> bytes:
    """A signed EIP-7702 authorization's RLP, an item of
    :meth:`Engine.eip7702_authorities`, from the fields an RPC answer's
    ``authorizationList`` lists (``int(entry["chainId"], 16)``, ...; the
    address its 20 bytes). Raises ``ValueError`` for a field out of its
    range (chain id, r and s below 2**256, nonce below 2**64, y parity
    below 256: a y parity of 2 to 255 is the item's ``bad_v``)."""
    for name, value, bits in (("chain_id", chain_id, 256), ("nonce", nonce, 64), ("y_parity", y_parity, 8),
                              ("r", r, 256), ("s", s, 256)):
        if not 0 <= value < 1 << bits:
            raise ValueError(f"eip7702_authorization: {name} {value} is not below 2**{bits}")
    return _native.eip7702_authorization_item(
        chain_id.to_bytes(32, "big"), bytes(address), nonce, y_parity, r.to_bytes(32, "big"), s.to_bytes(32, "big")
    )


def _row_call(op: str, call: Any, width: int, **named: Any) -> tuple[np.ndarray, np.ndarray]:
    """One column through a native call that writes a row of ``width``
    bytes and a code per item: the codes and the (n, width) rows."""
    n, cols = columns(op, **named)
    codes = np.empty(n, dtype=np.uint8)
    rows = np.empty((n, width), dtype=np.uint8)
    call(cols[0].native(), rows, codes)
    return codes, rows


def ordered_trie_item(values: list[bytes]) -> bytes:
    """A list of values as an item's bytes for
    :meth:`Engine.ordered_trie_roots`: a block's transactions, receipts or
    withdrawals, each in its canonical encoding (EIP-2718: typed ones
    ``type || rlp``; ``debug_getRawReceipts``' and
    ``eth_getRawTransactionByBlockNumberAndIndex``'s bytes), in order.
    Raises ``ValueError`` for more than 2**32 - 1 values or a value of 4 GiB
    or more."""
    if len(values) >= 1 << 32:
        raise ValueError(f"ordered_trie_item: {len(values)} values, at most 2**32 - 1")
    parts = [len(values).to_bytes(4, "big")]
    for i, value in enumerate(values):
        if len(value) >= 1 << 32:
            raise ValueError(f"ordered_trie_item: values[{i}]: {len(value)} bytes, under 4 GiB")
        parts += [len(value).to_bytes(4, "big"), bytes(value)]
    return b"".join(parts)


def _rpc_json(value: Any) -> Any:
    """An RPC receipt's value as JSON-RPC writes it: bytes (web3.py's
    ``HexBytes``) as ``0x`` hex, integers as hex quantities, lists and
    mappings (``AttributeDict``) value by value."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "0x" + bytes(value).hex()
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return hex(value)
    if isinstance(value, (list, tuple)):
        return [_rpc_json(v) for v in value]
    if hasattr(value, "items"):
        return {str(k): _rpc_json(v) for k, v in value.items()}
    raise TypeError(f"receipts_item: {type(value).__name__} is no receipt field's value")


def receipts_item(receipts: list[Any]) -> bytes:
    """A block's receipts as an item of :meth:`Engine.receipts_roots`, in
    the block's order: each its EIP-2718 bytes (``debug_getRawReceipts``')
    or its object as ``eth_getBlockReceipts`` lists it, with hex strings
    (the JSON-RPC answer) or web3.py's bytes and integers (``type``,
    ``status`` or before Byzantium ``root``, ``cumulativeGasUsed``,
    ``logsBloom``, ``logs``; other fields ignored). Raises ``ValueError``
    naming the receipt and field that do not read (a missing field, bad
    hex, a wrong length, both ``status`` and ``root``)."""
    import json

    values = []
    for i, r in enumerate(receipts):
        if isinstance(r, (bytes, bytearray, memoryview)):
            values.append(bytes(r))
            continue
        try:
            values.append(_native.receipt_from_rpc(json.dumps(_rpc_json(r))))
        except ValueError as e:
            raise ValueError(f"receipts_item: receipts[{i}]: {e}") from None
    return ordered_trie_item(values)


def index_key(index: int) -> bytes:
    """The key of item ``index`` of a block's transactions, receipts or
    withdrawals trie: ``rlp(index)`` (0 is ``0x80``, 1 to 127 the byte
    itself, larger indices their big-endian bytes after ``0x80 + length``).
    Raises ``ValueError`` for an index out of 0 to 2**64 - 1."""
    if not 0 <= int(index) < 1 << 64:
        raise ValueError(f"index_key: index {index} is not 0 to 2**64 - 1")
    i = int(index)
    if i == 0:
        return b"\x80"
    if i < 0x80:
        return bytes([i])
    raw = i.to_bytes((i.bit_length() + 7) // 8, "big")
    return bytes([0x80 + len(raw)]) + raw


def _eth_bytes(answer: dict, name: str, length: int | None = None) -> bytes:
    """A hex field of an eth_getProof answer (``0x`` optional), of
    ``length`` bytes where given; quantities (``length`` 32) may be shorter
    hex or an int."""
    value = answer.get(name) if isinstance(answer, dict) else None
    if value is None:
        raise ValueError(f"eth_proof_items: missing field {name!r}")
    if length == 32 and isinstance(value, int):
        if not 0 <= value < 1 << 256:
            raise ValueError(f"eth_proof_items: {name}: {value} is not 0 to 2**256 - 1")
        return value.to_bytes(32, "big")
    if isinstance(value, (bytes, bytearray)):
        raw = bytes(value)
    elif isinstance(value, str):
        digits = value[2:] if value[:2] in ("0x", "0X") else value
        if length == 32 and len(digits) <= 64:
            digits = digits.rjust(64, "0")
        try:
            raw = bytes.fromhex(digits)
        except ValueError as e:
            raise ValueError(f"eth_proof_items: {name}: {e}") from None
    else:
        raise ValueError(f"eth_proof_items: {name}: {type(value).__name__}, expected hex")
    if length is not None and len(raw) != length:
        raise ValueError(f"eth_proof_items: {name}: {len(raw)} bytes, expected {length}")
    return raw


def eth_proof_items(answer: dict, state_root: bytes | str) -> list[bytes]:
    """The items of one ``eth_getProof`` answer (EIP-1186: its ``result``
    object, hex strings or bytes and ints) under a block's ``stateRoot``,
    for :meth:`Engine.verify_mpt_proofs`: the account's proof first (at
    ``keccak256(address)``, its RLP, or absence for an empty account), then
    each storage proof (at ``keccak256(slot)``, the value's RLP, or
    absence for 0), as ``batchcrypto verify eth-proof`` makes them. Raises
    ``ValueError`` for a missing field, bad hex, a quantity over 32 bytes
    or a nonce over 64 bits. :meth:`Engine.verify_eth_proofs` checks
    answers whole."""
    root = _eth_bytes({"stateRoot": state_root}, "stateRoot", 32)
    nonce = int.from_bytes(_eth_bytes(answer, "nonce", 32), "big")
    if nonce >= 1 << 64:
        raise ValueError(f"eth_proof_items: nonce {nonce} is over 64 bits")
    nodes = lambda proof, name: [_eth_bytes({name: n}, name) for n in proof]  # noqa: E731
    storage_hash = _eth_bytes(answer, "storageHash", 32)
    items = [
        _native.eth_account_item(
            root,
            _eth_bytes(answer, "address", 20),
            nonce,
            _eth_bytes(answer, "balance", 32),
            storage_hash,
            _eth_bytes(answer, "codeHash", 32),
            nodes(answer.get("accountProof") or [], "accountProof"),
        )
    ]
    for i, s in enumerate(answer.get("storageProof") or []):
        name = f"storageProof[{i}]"
        items.append(
            _native.eth_storage_item(
                storage_hash,
                _eth_bytes(s, "key", 32),
                _eth_bytes(s, "value", 32),
                nodes(s.get("proof") or [], name),
            )
        )
    return items


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


class Calls(NamedTuple):
    """EVM precompile calls, one answer per input."""

    #: bool array: the call succeeded.
    ok: np.ndarray
    #: uint8 array: 0 for success, else a key of :data:`PRECOMPILE_ERRORS`.
    errors: np.ndarray
    #: the output bytes of each call (``b""`` where it failed).
    outputs: list[bytes]


class BlobCells(NamedTuple):
    """EIP-7594: each blob's commitment, cells and cell proofs."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, 48) uint8 array: the commitments (zeros where not valid).
    commitments: np.ndarray
    #: (n, 128, 2048) uint8 array: the cells.
    cells: np.ndarray
    #: (n, 128, 48) uint8 array: the cells' proofs.
    proofs: np.ndarray


class ExtendedCells(NamedTuple):
    """EIP-7594 recoveries: each item's 128 cells and proofs."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, 128, 2048) uint8 array: the cells (zeros where not valid).
    cells: np.ndarray
    #: (n, 128, 48) uint8 array: the cells' proofs.
    proofs: np.ndarray


class KemKeys(NamedTuple):
    """ML-KEM key pairs, one per item."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, ek length) uint8 array: the encapsulation keys (zeros where not valid).
    eks: np.ndarray
    #: (n, dk length) uint8 array: the decapsulation keys (zeros where not valid).
    dks: np.ndarray


class Encapsulations(NamedTuple):
    """ML-KEM encapsulations, one per item."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, ciphertext length) uint8 array (zeros where not valid).
    cts: np.ndarray
    #: (n, 32) uint8 array: the shared secrets (zeros where not valid).
    secrets: np.ndarray


class Decapsulations(NamedTuple):
    """ML-KEM shared secrets, one per item."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, 32) uint8 array (zeros where not valid).
    secrets: np.ndarray


class Hashes(NamedTuple):
    """Poseidon hashes (or ordered trie roots), one per item."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, 32) uint8 array: each hash big-endian (zeros where not valid).
    hashes: np.ndarray


class Senders(NamedTuple):
    """The senders of Ethereum transactions (or the authorities of EIP-7702
    authorizations), one per item."""

    #: bool array: a sender was recovered.
    valid: np.ndarray
    #: uint8 array: 0 when recovered, else a key of :data:`REASONS`.
    reasons: np.ndarray
    #: (n, 20) uint8 array: the senders' addresses (zeros where not valid).
    addresses: np.ndarray


class ReceiptsRoots(NamedTuple):
    """Blocks' receipts checked, one per block."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, 32) uint8 array: the receipts' trie root, the header's
    #: ``receiptsRoot`` (zeros where not valid).
    roots: np.ndarray
    #: (n, 256) uint8 array: the union of their blooms, the header's
    #: ``logsBloom`` (zeros where not valid).
    blooms: np.ndarray
    #: int64 array: the index of the receipt refused, else -1.
    receipts: np.ndarray


class BlockChecks(NamedTuple):
    """Blocks checked against their own headers, one per block."""

    valid: np.ndarray
    reasons: np.ndarray
    #: The first header field the body does not match, or None.
    fields: list[str | None]
    #: uint64 array: each block's number (0 where malformed).
    numbers: np.ndarray
    #: (n, 32) uint8 array: each block's hash (zeros where malformed).
    hashes: np.ndarray
    #: With ``senders=True``: per block a (k, 20) uint8 array of its k
    #: transactions' senders in the body's order, or None (the block does
    #: not hold to its header, or a transaction has no sender).
    senders: list[np.ndarray | None] | None = None
    #: With ``senders=True``: int64 array, the index of the first
    #: transaction without a sender (its reason is the block's), else -1.
    transactions: np.ndarray | None = None


class BitcoinBlockChecks(NamedTuple):
    """Bitcoin blocks checked against their own headers, one per block."""

    valid: np.ndarray
    reasons: np.ndarray
    #: The commitment a ``root_mismatch`` names (``"merkleRoot"``,
    #: ``"witnessCommitment"``), or None.
    fields: list[str | None]
    #: int64 array: the height each coinbase states (BIP-34), -1 where
    #: none (or the block is malformed).
    heights: np.ndarray
    #: (n, 32) uint8 array: each block's hash as hashed (``hashes[i][::-1]``
    #: is how Bitcoin shows it; zeros where malformed).
    hashes: np.ndarray


class Polys(NamedTuple):
    """Transformed polynomials, one per input polynomial."""

    valid: np.ndarray
    reasons: np.ndarray
    #: (n, polynomial bytes) uint8 array: the values, encoded like the
    #: input (zeros where not valid).
    values: np.ndarray


class Sum(NamedTuple):
    """A multi-scalar multiplication's answer."""

    #: the points were all valid.
    valid: bool
    #: 0, else the first bad point's reason (a key of :data:`REASONS`).
    reason: int
    #: the sum in the points' encoding (``b""`` where not valid).
    value: bytes


def _groups(op: str, name: str, value: Any) -> tuple[list[Any], np.ndarray]:
    """Per-item sequences flattened, with the ``n + 1`` positions where
    each item's part starts."""
    if value is None:
        raise TypeError(f"{op}: {name} is None")
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{op}: {name}: expected a list with one sequence per item, got {type(value).__name__}")
    flat: list[Any] = []
    counts = np.zeros(len(value) + 1, dtype=np.uint64)
    for i, part in enumerate(value):
        if part is None or isinstance(part, (bytes, bytearray, memoryview)):
            raise TypeError(f"{op}: {name}[{i}]: expected a sequence of byte strings, got {type(part).__name__}")
        rows = list(part)
        flat.extend(bytes(r) if isinstance(r, np.ndarray) else r for r in rows)
        counts[i + 1] = len(rows)
    return flat, np.cumsum(counts, dtype=np.uint64)


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

    def verify_secp256k1(
        self, pks: Any, sigs: Any, hashes: Any, low_s: bool = False, der: bool = False
    ) -> Verdicts:
        """secp256k1 ECDSA: keys of 33 or 65 bytes, signatures r || s of 64,
        32-byte hashes; ``low_s`` rejects s > n/2. With ``der``, signatures
        in DER of any length (Bitcoin's, the sighash byte removed; X.509,
        HSMs, cloud KMS): one that is not strict DER is its item's
        ``malformed_signature``."""
        op = "verify_secp256k1_der" if der else "verify_secp256k1"
        return self._signed(op, ("pks", "sigs", "hashes"), (pks, sigs, hashes), bool(low_s))

    def verify_p256(self, pks: Any, sigs: Any, hashes: Any, der: bool = False) -> Verdicts:
        """P-256 under RIP-7212: keys x || y of 64 bytes, signatures r || s
        of 64, 32-byte hashes. With ``der``, signatures in DER of any length
        (WebAuthn, X.509, HSMs, cloud KMS): one that is not strict DER is
        its item's ``malformed_signature``."""
        op = "verify_p256_der" if der else "verify_p256"
        return self._signed(op, ("pks", "sigs", "hashes"), (pks, sigs, hashes))

    def verify_mldsa(self, pks: Any, sigs: Any, msgs: Any, level: str = "ml-dsa-65", ctxs: Any = None) -> Verdicts:
        """ML-DSA (FIPS 204) at ``level``; ``ctxs`` None for empty contexts."""
        return self._with_contexts("verify_mldsa", level, pks, sigs, msgs, ctxs)

    def verify_slhdsa(self, pks: Any, sigs: Any, msgs: Any, set: str, ctxs: Any = None) -> Verdicts:
        """SLH-DSA (FIPS 205, pure) in ``set`` (``"sha2-128s"`` ...
        ``"shake-256f"``, FIPS 205's names with or without the ``slh-dsa-``
        prefix, in any case); ``ctxs`` None for empty contexts. Keys and
        signatures of any length: a wrong one is the item's reason."""
        return self._with_contexts("verify_slhdsa", set, pks, sigs, msgs, ctxs)

    def _with_contexts(self, op: str, params: str, pks: Any, sigs: Any, msgs: Any, ctxs: Any) -> Verdicts:
        values = {"pks": pks, "sigs": sigs, "msgs": msgs}
        if ctxs is not None:
            values["ctxs"] = ctxs
        n, cols = columns(op, **values)
        codes = np.empty(n, dtype=np.uint8)
        ctx = cols[3].native() if ctxs is not None else None
        getattr(self._native, op)(params, *(c.native() for c in cols[:3]), ctx, codes)
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
        ``"keccak256"``, ``"sha3-256"``, ``"sha256"``, ``"blake2b-256"``
        or ``"blake3"``."""
        n, cols = columns("hash", msgs=msgs)
        digests = np.empty((n, 32), dtype=np.uint8)
        self._native.hash(alg, cols[0].native(), digests)
        return digests

    def verify_groth16(self, vk: bytes, items: Any) -> Verdicts:
        """Groth16 over BN254 (circom, snarkjs; ``ark-groth16``'s verdicts)
        under the key ``vk``, its EIP-197 bytes (:func:`groth16_key` makes
        them from snarkjs's ``verification_key.json``): each item a proof of
        256 bytes (A, B, C as EIP-197 encodes them) and its public inputs,
        32 bytes big-endian each (:func:`groth16_item`). A key that does not
        decode raises ``ValueError``; an item of another length is its
        ``wrong_input_length``."""
        n, cols = columns("verify_groth16", items=items)
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_groth16(bytes(vk), cols[0].native(), codes)
        return _verdicts(codes)

    def verify_groth16_bls12_381(self, vk: bytes, items: Any) -> Verdicts:
        """Groth16 over BLS12-381 (bellman: Zcash, Filecoin; Sui; snarkjs
        ``--curve bls12381``) under the key ``vk``, in arkworks' compressed
        form or bellman's uncompressed one (a ``.vk`` file's bytes;
        :func:`groth16_key` makes the first from snarkjs's JSON): each item
        a proof of 192 bytes (A, B, C compressed) and its public inputs, 32
        bytes little-endian each (:func:`groth16_item`). ``ark-groth16``'s
        verdicts on blst's decoding, with bellman's rule that no proof point
        is at infinity. A key that does not decode raises ``ValueError``;
        an item of another length is its ``wrong_input_length``."""
        n, cols = columns("verify_groth16_bls12_381", items=items)
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_groth16_bls12_381(bytes(vk), cols[0].native(), codes)
        return _verdicts(codes)

    def poseidon_bn254(self, items: Any) -> Hashes:
        """Poseidon over BN254's scalar field with circom's parameters
        (circomlib, Solana's ``sol_poseidon``): each item is 1 to 12 field
        elements of 32 bytes big-endian, back to back; its hash, 32 bytes
        big-endian, or ``wrong_input_length`` / ``non_canonical_element``."""
        codes, hashes = _row_call("poseidon_bn254", self._native.poseidon_bn254, 32, items=items)
        return Hashes(codes == 0, codes, hashes)

    def ordered_trie_roots(self, items: Any) -> Hashes:
        """The roots of Ethereum's ordered tries: each item a list of values
        (:func:`ordered_trie_item`) at keys ``rlp(i)``, its root the block's
        ``transactionsRoot``, ``receiptsRoot`` or ``withdrawalsRoot`` (no
        values: the empty trie's ``56e81f…b421``), equal to alloy-trie's
        ``ordered_trie_root_encoded``; or ``wrong_input_length`` (an item
        that does not read as a list) / ``empty_value`` (a value of no
        bytes). The roots are in ``hashes``."""
        codes, roots = _row_call("ordered_trie_roots", self._native.ordered_trie_roots, 32, items=items)
        return Hashes(codes == 0, codes, roots)

    def receipts_roots(self, items: Any) -> ReceiptsRoots:
        """Blocks' receipts checked (:func:`receipts_item` makes an item
        from ``eth_getBlockReceipts``' or ``debug_getRawReceipts``'
        answer): per block the root of the receipts' trie and the union of
        their blooms, its header's ``receiptsRoot`` and ``logsBloom``, as
        reth makes them (alloy-consensus, alloy-trie); or a reason and the
        index of the first receipt refused: ``empty_value``,
        ``unsupported_tx_type``, ``malformed_receipt``, ``bloom_mismatch``
        (its ``logsBloom`` is not its logs'), or ``wrong_input_length``
        (an item that does not read, index -1)."""
        n, cols = columns("receipts_roots", items=items)
        codes = np.empty(n, dtype=np.uint8)
        roots = np.empty((n, 32), dtype=np.uint8)
        blooms = np.empty((n, 256), dtype=np.uint8)
        failed = np.empty((n, 4), dtype=np.uint8)
        self._native.receipts_roots(cols[0].native(), roots, blooms, failed, codes)
        index = failed.view("<u4").reshape(n).astype(np.int64)
        index[index == 0xFFFFFFFF] = -1
        return ReceiptsRoots(codes == 0, codes, roots, blooms, index)

    def tx_senders(self, txs: Any) -> Senders:
        """The sender of each Ethereum transaction (its EIP-2718 bytes, as
        ``eth_getRawTransactionByHash`` gives them: legacy with or without
        EIP-155's chain id, EIP-2930, EIP-1559, EIP-4844, EIP-7702),
        recovered from its signing hash under EIP-2's low s as reth does
        (alloy-consensus, libsecp256k1); or ``unsupported_tx_type``,
        ``malformed_transaction``, ``r_out_of_range``, ``s_out_of_range``,
        ``high_s``, ``recovery_failed``."""
        codes, senders = _row_call("tx_senders", self._native.tx_senders, 20, txs=txs)
        return Senders(codes == 0, codes, senders)

    def verify_solana_txs(self, txs: Any, policy: str = "strict") -> Verdicts:
        """Solana transactions in their wire bytes (legacy, v0 or v1, as a
        packet or ``getTransaction`` with base64 encoding carries them):
        valid when one reads (Anza's solana-transaction), sanitizes and
        every signature verifies over its message. ``policy``:
        ``"strict"`` (Solana's rule today: ed25519-dalek's
        ``verify_strict``) or ``"zip215"`` (SIMD-0376's). Reasons:
        ``malformed_transaction``, ``sanitize_failure``, or the first
        failing signature's Ed25519 reason."""
        n, cols = columns("verify_solana_txs", txs=txs)
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_solana_txs(cols[0].native(), codes, str(policy))
        return _verdicts(codes)

    def eip7702_authorities(self, auths: Any) -> Senders:
        """The authority of each EIP-7702 authorization (its RLP, as a
        set-code transaction lists it: :func:`eip7702_authorization` makes
        it from an RPC answer's fields): the signer of
        ``keccak256(0x05 || rlp([chain_id, address, nonce]))`` under
        EIP-7702's low s (alloy-eips, libsecp256k1), in ``addresses``; or
        ``malformed_authorization``, ``bad_v``, ``r_out_of_range``,
        ``s_out_of_range``, ``high_s``, ``recovery_failed``."""
        codes, authorities = _row_call("eip7702_authorities", self._native.eip7702_authorities, 20, auths=auths)
        return Senders(codes == 0, codes, authorities)

    def verify_blocks(self, blocks: Any, senders: bool = False) -> BlockChecks:
        """Whole Ethereum blocks (``debug_getRawBlock``'s bytes) checked
        against their own headers: ``valid`` where the body's transactions,
        withdrawals and ommers are those the header's ``transactionsRoot``,
        ``withdrawalsRoot`` and ``ommersHash`` state; else ``reasons``
        ``root_mismatch`` with ``fields[i]`` naming the first that does not
        match, or ``malformed_block`` (bytes that are no block). ``numbers``
        and ``hashes`` (the header's Keccak-256: hold it to the chain you
        trust) are zeros for a malformed block. The blocks' lists run as one
        batch of ordered trie roots. With ``senders=True`` the transactions
        of every block that holds to its header also have their senders
        recovered (:meth:`tx_senders`, one batch): ``senders[i]`` the
        block's, or, where a transaction has none, the block invalid with
        that transaction's reason and ``transactions[i]`` its index."""
        n, cols = columns("verify_blocks", blocks=blocks)
        codes = np.empty(n, dtype=np.uint8)
        fields = np.empty(n, dtype=np.uint8)
        numbers = np.empty((n, 8), dtype=np.uint8)
        hashes = np.empty((n, 32), dtype=np.uint8)
        failed = np.empty((n, 4), dtype=np.uint8) if senders else None
        lists = self._native.verify_blocks(cols[0].native(), codes, fields, numbers, hashes, failed)
        names = [None, "ommersHash", "transactionsRoot", "withdrawalsRoot"]
        numbers = numbers.view("<u8").reshape(n).astype(np.uint64)
        checks = BlockChecks(codes == 0, codes, [names[f] for f in fields], numbers, hashes)
        if lists is None or failed is None:
            return checks
        index = failed.view("<u4").reshape(n).astype(np.int64)
        index[index == 0xFFFFFFFF] = -1
        found = [None if s is None else np.frombuffer(s, dtype=np.uint8).reshape(-1, 20) for s in lists]
        return checks._replace(senders=found, transactions=index)

    def verify_bitcoin_blocks(self, blocks: Any, network: str = "main") -> BitcoinBlockChecks:
        """Whole Bitcoin blocks (the P2P message's bytes, ``getblock``'s hex
        at verbosity 0 decoded) checked against their own headers as
        Bitcoin Core checks them, under ``network``'s parameters
        (``"main"``, ``"test"`` (testnet3), ``"testnet4"``, ``"signet"``,
        ``"regtest"``): ``valid`` where the header's proof of work holds,
        the transactions are those its Merkle root states with none
        repeated (CVE-2012-2459) and, from the network's segwit height on,
        the witnesses those the coinbase commits to; else ``reasons``
        ``high_hash``, ``root_mismatch`` (``fields[i]``: ``merkleRoot`` or
        ``witnessCommitment``), ``duplicate_transactions``,
        ``bad_witness_nonce_size``, ``unexpected_witness`` or
        ``malformed_block``. ``heights`` (BIP-34, as the coinbase claims)
        and ``hashes``: hold them to the chain you trust. The hashes run as
        batches of SHA-256 items."""
        n, cols = columns("verify_bitcoin_blocks", blocks=blocks)
        codes = np.empty(n, dtype=np.uint8)
        fields = np.empty(n, dtype=np.uint8)
        heights = np.empty((n, 4), dtype=np.uint8)
        hashes = np.empty((n, 32), dtype=np.uint8)
        self._native.verify_bitcoin_blocks(cols[0].native(), codes, fields, heights, hashes, str(network))
        names = [None, "merkleRoot", "witnessCommitment"]
        heights = heights.view("<u4").reshape(n).astype(np.int64)
        heights[heights == 0xFFFFFFFF] = -1
        return BitcoinBlockChecks(codes == 0, codes, [names[f] for f in fields], heights, hashes)

    def merkle_root(
        self, leaves: Any, rule: str = "bitcoin", depth: int | None = None, zero: bytes | None = None
    ) -> bytes:
        """The Merkle root of 32-byte leaves: ``"bitcoin"`` (double SHA-256),
        ``"sorted-keccak256"`` (OpenZeppelin's sorted pairs),
        ``"lean-imt-poseidon"`` (zk-kit's LeanIMT with circom's Poseidon,
        Semaphore v4's groups: leaves big-endian elements below BN254's r)
        or ``"ssz"`` (Ethereum consensus's SSZ ``merkleize``: one SHA-256
        of the pair, zero chunks up to a power of two; with ``depth``, a
        limit of 2**depth chunks).
        With ``depth`` (1 to 64), the padded tree of 2**depth leaves, those
        not given ``zero`` (32 bytes, zeros by default): no leaves is the
        empty tree."""
        _, cols = columns("merkle_root", leaves=leaves)
        return bytes(self._native.merkle_root(rule, cols[0].native(), depth, zero))

    def verify_merkle_proofs(self, items: Any, rule: str = "bitcoin", depth: int | None = None) -> Verdicts:
        """Merkle inclusion proofs under ``rule`` (as :meth:`merkle_root`
        names them): each item ``root ‖ leaf ‖ index ‖ siblings``
        (:func:`merkle_proof_item`), the siblings bottom up, the index's bits
        the sides of the leaf's path (OpenZeppelin's ``processProof``,
        Bitcoin Core's and Electrum's branches, zk-kit's LeanIMT
        ``verifyProof``). With ``depth`` (1 to 64) every proof must have that
        many siblings. Reasons: ``wrong_input_length``,
        ``wrong_proof_length``, ``leaf_index_out_of_range``,
        ``non_canonical_element``, ``root_mismatch``."""
        n, cols = columns("verify_merkle_proofs", items=items)
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_merkle_proofs(rule, depth, cols[0].native(), codes)
        return _verdicts(codes)

    def verify_mpt_proofs(self, items: Any) -> Verdicts:
        """Ethereum Merkle-Patricia trie proofs (``eth_getProof``'s account
        and storage proofs, transaction and receipt proofs), as alloy-trie's
        ``verify_proof`` checks them: each item a root, key, value or none,
        and nodes (:func:`mpt_proof_item`). Reasons:
        ``wrong_input_length``, ``root_mismatch``, ``malformed_proof``,
        ``path_mismatch``."""
        n, cols = columns("verify_mpt_proofs", items=items)
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_mpt_proofs(cols[0].native(), codes)
        return _verdicts(codes)

    def verify_eth_proofs(self, answers: list[dict], state_roots: Any) -> Verdicts:
        """``eth_getProof`` answers (EIP-1186 ``result`` objects) checked
        whole, one verdict per answer: its account proof and every storage
        proof (:func:`eth_proof_items`) valid, else the first failing one's
        reason. ``state_roots``: one block's ``stateRoot`` for every answer
        (bytes or hex), or a list of one per answer. Every proof of every
        answer runs as one batch."""
        roots = state_roots if isinstance(state_roots, (list, tuple)) else [state_roots] * len(answers)
        if len(roots) != len(answers):
            raise ValueError(f"verify_eth_proofs: {len(roots)} state roots for {len(answers)} answers")
        per_answer = [eth_proof_items(a, r) for a, r in zip(answers, roots)]
        got = self.verify_mpt_proofs([item for items in per_answer for item in items])
        codes = np.zeros(len(answers), dtype=np.uint8)
        at = 0
        for k, items in enumerate(per_answer):
            failed = got.reasons[at : at + len(items)]
            codes[k] = next((c for c in failed if c != 0), 0)
            at += len(items)
        return _verdicts(codes)

    def verify_kzg_cells(self, commitments: Any, indices: Any, cells: Any, proofs: Any) -> Verdicts:
        """EIP-7594 cell proofs, c-kzg-4844's verdict on each cell alone:
        48-byte commitments and proofs (compressed G1 points), 2048-byte
        cells, one integer index per item (an index past 127 is the item's
        ``cell_index_out_of_range``)."""
        op = "verify_kzg_cells"
        n, cols = columns(op, commitments=commitments, cells=cells, proofs=proofs)
        idx = np.ascontiguousarray(indices, dtype=np.uint64)
        if idx.ndim != 1 or len(idx) != n:
            raise ValueError(f"{op}: indices: {idx.size} for {n} items")
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_kzg_cells(cols[0].native(), memoryview(idx).cast("B"), cols[1].native(), cols[2].native(), codes)
        return _verdicts(codes)

    def kzg_compute_cells(self, blobs: Any) -> BlobCells:
        """EIP-7594: each 131072-byte blob's commitment, 128 cells and
        their proofs (c-kzg-4844's ``blob_to_kzg_commitment`` and
        ``compute_cells_and_kzg_proofs``); a blob with an element not below
        the scalar field's modulus is ``non_canonical_element``."""
        n, cols = columns("kzg_compute_cells", blobs=blobs)
        codes = np.empty(n, dtype=np.uint8)
        commitments = np.empty((n, 48), dtype=np.uint8)
        cells, proofs = np.empty((n, 128, 2048), dtype=np.uint8), np.empty((n, 128, 48), dtype=np.uint8)
        self._native.kzg_compute_cells(cols[0].native(), commitments, cells, proofs, codes)
        return BlobCells(codes == 0, codes, commitments, cells, proofs)

    def kzg_recover_cells(self, cell_indices: Any, cells: Any) -> ExtendedCells:
        """EIP-7594 recovery (c-kzg-4844's ``recover_cells_and_kzg_proofs``):
        item ``i`` is the cells ``cells[i]`` (a sequence of 2048-byte cells,
        64 to 128 of them) at the indices ``cell_indices[i]`` (integers,
        strictly ascending, below 128); its 128 cells and their proofs, or
        the first check it fails. An item whose indices and cells differ in
        number raises ``ValueError``."""
        op = "kzg_recover_cells"
        flat_cells, groups = _groups(op, "cells", cells)
        if not isinstance(cell_indices, (list, tuple)):
            raise TypeError(f"{op}: cell_indices: expected a list with one sequence per item")
        if len(cell_indices) != len(groups) - 1:
            raise ValueError(f"{op}: cells has {len(groups) - 1} items but cell_indices has {len(cell_indices)}")
        runs = []
        for i, ix in enumerate(cell_indices):
            try:
                runs.append(np.asarray(ix, dtype=np.uint64).reshape(-1))
            except (OverflowError, TypeError, ValueError) as e:
                raise ValueError(f"{op}: cell_indices[{i}]: not integers from 0 to 2**64 - 1 ({e})") from None
        for i, run in enumerate(runs):
            if len(run) != int(groups[i + 1] - groups[i]):
                raise ValueError(f"{op}: item {i} has {len(run)} indices but {int(groups[i + 1] - groups[i])} cells")
        idx = np.ascontiguousarray(np.concatenate(runs) if runs else np.empty(0, dtype=np.uint64), dtype=np.uint64)
        n = len(runs)
        col = column(op, "cells", flat_cells)
        codes = np.empty(n, dtype=np.uint8)
        out_cells, proofs = np.empty((n, 128, 2048), dtype=np.uint8), np.empty((n, 128, 48), dtype=np.uint8)
        self._native.kzg_recover_cells(
            memoryview(groups).cast("B"), memoryview(idx).cast("B"), col.native(), out_cells, proofs, codes
        )
        return ExtendedCells(codes == 0, codes, out_cells, proofs)

    def verify_bls_aggregate(self, pks: Any, msgs: Any, sigs: Any) -> Verdicts:
        """BLS aggregate verification (blst's ``aggregate_verify``): item
        ``i`` is the aggregate signature ``sigs[i]`` (96 bytes) of the keys
        ``pks[i]`` (a sequence of 48-byte keys), key ``k`` signing
        ``msgs[i][k]``."""
        op = "verify_bls_aggregate"
        keys, groups = _groups(op, "pks", pks)
        messages, per_item = _groups(op, "msgs", msgs)
        if len(groups) != len(per_item):
            raise ValueError(f"{op}: pks has {len(groups) - 1} items but msgs has {len(per_item) - 1}")
        if not np.array_equal(groups, per_item):
            i = int(np.flatnonzero(np.diff(groups) != np.diff(per_item))[0])
            raise ValueError(
                f"{op}: item {i} has {int(groups[i + 1] - groups[i])} keys but {int(per_item[i + 1] - per_item[i])} messages"
            )
        return self._aggregate(op, False, keys, groups, messages, sigs)

    def verify_bls_fast_aggregate(self, pks: Any, msgs: Any, sigs: Any) -> Verdicts:
        """BLS fast aggregate verification (every key signs the one message
        of its item): item ``i`` is ``sigs[i]`` of the keys ``pks[i]`` over
        ``msgs[i]``."""
        op = "verify_bls_fast_aggregate"
        keys, groups = _groups(op, "pks", pks)
        return self._aggregate(op, True, keys, groups, msgs, sigs)

    def _aggregate(self, op: str, fast: bool, keys: list[Any], groups: np.ndarray, msgs: Any, sigs: Any) -> Verdicts:
        n = len(groups) - 1
        key_col, msg_col, sig_col = column(op, "pks", keys), column(op, "msgs", msgs), column(op, "sigs", sigs)
        for col in (sig_col, msg_col) if fast else (sig_col,):
            if col.count != n:
                raise ValueError(f"{op}: pks has {n} items but {col.name} has {col.count}")
        codes = np.empty(n, dtype=np.uint8)
        self._native.verify_bls_aggregate(
            fast, key_col.native(), memoryview(groups).cast("B"), msg_col.native(), sig_col.native(), codes
        )
        return _verdicts(codes)

    def evm(self, precompile: str, inputs: Any) -> Calls:
        """One call of an EVM precompile per input: ``"bn256-add"``,
        ``"bn256-mul"``, ``"bn256-pairing"`` (EIP-196/197), ``"bls-g1msm"``,
        ``"bls-g2msm"``, ``"eip2537-pairing"``, ``"bls-g1add"``,
        ``"bls-g2add"``, ``"bls-map-g1"``, ``"bls-map-g2"`` (EIP-2537),
        ``"point-evaluation"`` (EIP-4844), ``"modexp"`` (EIP-198 with
        EIP-7823's 1,024-byte bound), ``"ecrecover"``, ``"sha256"``,
        ``"ripemd160"``, ``"identity"`` or ``"p256verify"`` (EIP-7951), or
        a precompile's address in hex (``"0x05"``).
        Outputs are what the precompile returns (a pairing's 32-byte word,
        MODEXP's ``mod_len`` bytes, ECRECOVER's and P256VERIFY's word or
        nothing); a failed
        call (an input the precompile rejects) has ``ok`` False and its
        error."""
        n, (col,) = columns("evm", inputs=inputs)
        errors = np.empty(n, dtype=np.uint8)
        outputs = self._native.evm(precompile, col.native(), errors)
        return Calls(errors == 0, errors, outputs)

    def mlkem_keygen(self, ds: Any, zs: Any, set: int = 768) -> KemKeys:
        """ML-KEM (FIPS 203) key pairs from the 32-byte seeds ``d`` and
        ``z`` (``KeyGen_internal``); ``set``: 512, 768 or 1024."""
        ek, dk, _, _ = _native.mlkem_lengths("mlkem_keygen", set)
        n, cols = columns("mlkem_keygen", ds=ds, zs=zs)
        codes = np.empty(n, dtype=np.uint8)
        eks, dks = np.empty((n, ek), dtype=np.uint8), np.empty((n, dk), dtype=np.uint8)
        self._native.mlkem_keygen(set, *(c.native() for c in cols), eks, dks, codes)
        return KemKeys(codes == 0, codes, eks, dks)

    def mlkem_encaps(self, eks: Any, ms: Any = None, set: int = 768) -> Encapsulations:
        """ML-KEM encapsulation to every key (the modulus check first), with
        the 32-byte messages ``ms`` (deterministic) or, when None, fresh
        randomness from the operating system."""
        _, _, ct, ss = _native.mlkem_lengths("mlkem_encaps", set)
        values = {"eks": eks} if ms is None else {"eks": eks, "ms": ms}
        n, cols = columns("mlkem_encaps", **values)
        codes = np.empty(n, dtype=np.uint8)
        cts, secrets = np.empty((n, ct), dtype=np.uint8), np.empty((n, ss), dtype=np.uint8)
        m = cols[1].native() if ms is not None else None
        self._native.mlkem_encaps(set, cols[0].native(), m, cts, secrets, codes)
        return Encapsulations(codes == 0, codes, cts, secrets)

    def mlkem_decaps(self, dks: Any, cts: Any, set: int = 768) -> Decapsulations:
        """ML-KEM decapsulation: the shared secret of every ciphertext
        (implicit rejection where it does not re-encrypt)."""
        _, _, _, ss = _native.mlkem_lengths("mlkem_decaps", set)
        n, cols = columns("mlkem_decaps", dks=dks, cts=cts)
        codes = np.empty(n, dtype=np.uint8)
        secrets = np.empty((n, ss), dtype=np.uint8)
        self._native.mlkem_decaps(set, *(c.native() for c in cols), secrets, codes)
        return Decapsulations(codes == 0, codes, secrets)

    def ntt(
        self,
        field: str,
        polys: Any,
        log_n: int,
        inverse: bool = False,
        input_order: str = "natural",
        output_order: str = "natural",
        coset: bytes | None = None,
        modulus: int | None = None,
    ) -> Polys:
        """The number-theoretic transform of every polynomial (``2**log_n``
        canonical little-endian elements each) over ``field``:
        ``"bn254-fr"``, ``"bls12-381-fr"``, ``"goldilocks"``,
        ``"goldilocks-negacyclic"`` or ``"prime64-negacyclic"`` (the
        negacyclic transform over the prime ``modulus``, below 2**64 and 1
        mod ``2**(log_n + 1)``, as ``tfhe-ntt`` computes it); orders
        ``"natural"`` or ``"bit-reversed"``; ``coset`` the shift g (its
        canonical encoding)."""
        n, (col,) = columns("ntt", polys=polys)
        width = col.width if col.offsets is None else (int(col.offsets[1] - col.offsets[0]) if n else 0)
        codes = np.empty(n, dtype=np.uint8)
        values = np.empty((n, width), dtype=np.uint8)
        orders = (input_order, output_order)
        shift = None if coset is None else bytes(coset)
        prime = None if modulus is None else int(modulus)
        self._native.ntt(field, int(log_n), bool(inverse), orders, shift, prime, col.native(), values, codes)
        return Polys(codes == 0, codes, values)

    def msm(self, curve: str, points: Any, scalars: Any, encoding: str = "uncompressed") -> Sum:
        """The multi-scalar multiplication sum of ``scalars[i]`` (32 bytes
        little-endian) times ``points[i]``, as bytes back to back (a uint8
        array or bytes): ``curve`` ``"bn254-g1"``, ``"bls12-381-g1"`` or
        ``"bls12-381-g2"``, ``encoding`` ``"uncompressed"`` or
        ``"compressed"``."""
        value, reason = self._native.msm(curve, encoding, _contiguous("points", points), _contiguous("scalars", scalars))
        return Sum(reason == 0, reason, value)

    def msm_bases(self, curve: str, points: Any, encoding: str = "uncompressed") -> MsmBases:
        """``points`` (as for :meth:`msm`) decoded and checked once for many
        sums over them, as provers hold their fixed bases; a GPU engine
        uploads them at the first sum and keeps them on the device. A bad
        point raises ``ValueError`` naming it and its reason. ``len()`` of
        the result is the number of points."""
        return self._native.msm_bases(curve, encoding, _contiguous("points", points))

    def msm_with(self, bases: MsmBases, scalars: Any) -> bytes:
        """The sum over ``bases`` (from :meth:`msm_bases`; bases kept on
        another engine's GPU are summed on the CPU) by ``scalars`` (32 bytes
        little-endian each, one per point), in the bases' encoding; a wrong
        number of scalars raises ``ValueError``."""
        return self._native.msm_with(bases, _contiguous("scalars", scalars))


def _contiguous(name: str, value: Any) -> Any:
    if value is None:
        raise TypeError(f"msm: {name} is None")
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8:
            raise TypeError(f"msm: {name}: expected a uint8 array, got dtype {value.dtype}")
        return np.ascontiguousarray(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return value
    raise TypeError(f"msm: {name}: expected bytes or a uint8 NumPy array, got {type(value).__name__}")
