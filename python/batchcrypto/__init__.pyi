# Type stubs of the batchcrypto package (the implementation and its
# documentation: __init__.py).
from typing import Any, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt

#: bytes (one item), a list of byte strings, a uint8 array (n, width) or a
#: pyarrow binary / large-binary / fixed-size-binary array or chunked array.
Column: TypeAlias = bytes | bytearray | memoryview | list[bytes] | tuple[bytes, ...] | npt.NDArray[np.uint8] | Any

__version__: str
GPU_RUNTIME: str | None
REASONS: dict[int, str]
PRECOMPILE_ERRORS: dict[int, str]

def reason_name(code: int) -> str | None: ...
def groth16_key(verification_key: str | dict[str, Any]) -> bytes: ...
def groth16_item(proof: str | dict[str, Any], public: str | list[str]) -> bytes: ...
def merkle_proof_item(root: bytes, leaf: bytes, index: int, siblings: list[bytes]) -> bytes: ...
def mpt_proof_item(root: bytes, key: bytes, value: bytes | None, nodes: list[bytes]) -> bytes: ...
def index_key(index: int) -> bytes: ...
def ordered_trie_item(values: list[bytes]) -> bytes: ...
def receipts_item(receipts: list[Any]) -> bytes: ...
def eip7702_authorization(chain_id: int, address: bytes, nonce: int, y_parity: int, r: int, s: int) -> bytes: ...
def eth_proof_items(answer: dict[str, Any], state_root: bytes | str) -> list[bytes]: ...

class Verdicts(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]

class Recovered(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    addresses: npt.NDArray[np.uint8]
    pubkeys: npt.NDArray[np.uint8]

class Calls(NamedTuple):
    ok: npt.NDArray[np.bool_]
    errors: npt.NDArray[np.uint8]
    outputs: list[bytes]

class BlobCells(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    commitments: npt.NDArray[np.uint8]
    cells: npt.NDArray[np.uint8]
    proofs: npt.NDArray[np.uint8]

class ExtendedCells(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    cells: npt.NDArray[np.uint8]
    proofs: npt.NDArray[np.uint8]

class KemKeys(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    eks: npt.NDArray[np.uint8]
    dks: npt.NDArray[np.uint8]

class Encapsulations(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    cts: npt.NDArray[np.uint8]
    secrets: npt.NDArray[np.uint8]

class Decapsulations(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    secrets: npt.NDArray[np.uint8]

class Hashes(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    hashes: npt.NDArray[np.uint8]

class Senders(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    addresses: npt.NDArray[np.uint8]

class ReceiptsRoots(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    roots: npt.NDArray[np.uint8]
    blooms: npt.NDArray[np.uint8]
    receipts: npt.NDArray[np.int64]

class BlockChecks(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    fields: list[str | None]
    numbers: npt.NDArray[np.uint64]
    hashes: npt.NDArray[np.uint8]
    senders: list[npt.NDArray[np.uint8] | None] | None = ...
    transactions: npt.NDArray[np.int64] | None = ...

class BitcoinBlockChecks(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    fields: list[str | None]
    heights: npt.NDArray[np.int64]
    hashes: npt.NDArray[np.uint8]

class Polys(NamedTuple):
    valid: npt.NDArray[np.bool_]
    reasons: npt.NDArray[np.uint8]
    values: npt.NDArray[np.uint8]

class Sum(NamedTuple):
    valid: bool
    reason: int
    value: bytes

class MsmBases:
    @property
    def curve(self) -> str: ...
    def __len__(self) -> int: ...

class Engine:
    def __init__(self, backend: str = "auto", threads: int | None = None, adapter: str | None = None) -> None: ...
    def verify_ed25519(self, pks: Column, sigs: Column, msgs: Column, policy: str = "strict") -> Verdicts: ...
    def verify_bip340(self, pks: Column, sigs: Column, msgs: Column) -> Verdicts: ...
    def verify_sr25519(self, pks: Column, sigs: Column, msgs: Column, context: bytes | None = None) -> Verdicts: ...
    def verify_bls(self, pks: Column, sigs: Column, msgs: Column, batch: bool = False) -> Verdicts: ...
    def verify_secp256k1(
        self, pks: Column, sigs: Column, hashes: Column, low_s: bool = False, der: bool = False
    ) -> Verdicts: ...
    def verify_p256(self, pks: Column, sigs: Column, hashes: Column, der: bool = False) -> Verdicts: ...
    def verify_mldsa(
        self, pks: Column, sigs: Column, msgs: Column, level: str = "ml-dsa-65", ctxs: Column | None = None
    ) -> Verdicts: ...
    def ecrecover(self, hashes: Column, sigs: Column, low_s: bool = False) -> Recovered: ...
    def hash(self, alg: str, msgs: Column) -> npt.NDArray[np.uint8]: ...
    def verify_slhdsa(self, pks: Column, sigs: Column, msgs: Column, set: str, ctxs: Column | None = None) -> Verdicts: ...
    def verify_groth16(self, vk: bytes, items: Column) -> Verdicts: ...
    def verify_groth16_bls12_381(self, vk: bytes, items: Column) -> Verdicts: ...
    def poseidon_bn254(self, items: Column) -> Hashes: ...
    def ordered_trie_roots(self, items: Column) -> Hashes: ...
    def receipts_roots(self, items: Column) -> ReceiptsRoots: ...
    def tx_senders(self, txs: Column) -> Senders: ...
    def verify_solana_txs(self, txs: Column, policy: str = "strict") -> Verdicts: ...
    def eip7702_authorities(self, auths: Column) -> Senders: ...
    def verify_blocks(self, blocks: Column, senders: bool = False) -> BlockChecks: ...
    def verify_bitcoin_blocks(self, blocks: Column, network: str = "main") -> BitcoinBlockChecks: ...
    def merkle_root(
        self, leaves: Column, rule: str = "bitcoin", depth: int | None = None, zero: bytes | None = None
    ) -> bytes: ...
    def verify_merkle_proofs(self, items: Column, rule: str = "bitcoin", depth: int | None = None) -> Verdicts: ...
    def verify_mpt_proofs(self, items: Column) -> Verdicts: ...
    def verify_eth_proofs(self, answers: list[dict[str, Any]], state_roots: bytes | str | list[bytes] | list[str]) -> Verdicts: ...
    def verify_kzg_cells(self, commitments: Column, indices: Any, cells: Column, proofs: Column) -> Verdicts: ...
    def kzg_compute_cells(self, blobs: Column) -> BlobCells: ...
    def kzg_recover_cells(self, cell_indices: list[Any], cells: list[Any]) -> ExtendedCells: ...
    def verify_bls_aggregate(self, pks: list[Column], msgs: list[Column], sigs: Column) -> Verdicts: ...
    def verify_bls_fast_aggregate(self, pks: list[Column], msgs: Column, sigs: Column) -> Verdicts: ...
    def evm(self, precompile: str, inputs: Column) -> Calls: ...
    def mlkem_keygen(self, ds: Column, zs: Column, set: int = 768) -> KemKeys: ...
    def mlkem_encaps(self, eks: Column, ms: Column | None = None, set: int = 768) -> Encapsulations: ...
    def mlkem_decaps(self, dks: Column, cts: Column, set: int = 768) -> Decapsulations: ...
    def ntt(
        self,
        field: str,
        polys: Column,
        log_n: int,
        inverse: bool = False,
        input_order: str = "natural",
        output_order: str = "natural",
        coset: bytes | None = None,
        modulus: int | None = None,
    ) -> Polys: ...
    def msm(self, curve: str, points: bytes | npt.NDArray[np.uint8], scalars: bytes | npt.NDArray[np.uint8], encoding: str = "uncompressed") -> Sum: ...
    def msm_bases(self, curve: str, points: bytes | npt.NDArray[np.uint8], encoding: str = "uncompressed") -> MsmBases: ...
    def msm_with(self, bases: MsmBases, scalars: bytes | npt.NDArray[np.uint8]) -> bytes: ...
