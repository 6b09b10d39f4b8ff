"""Writes txs.json: signed Ethereum transactions (EIP-2718 bytes) beside
their senders, from sources independent of the Rust stack (alloy's
decoder, libsecp256k1 through the secp256k1 crate):

- mainnet block 15,571,241's 58 transactions (legacy and EIP-1559): the
  encodings of ../eth-blocks/blocks.json (held to the block's
  transactionsRoot there), each checked here to hash (Keccak-256) to the
  RPC answer's transaction hash, and the answer's `from`, the sender the
  node recovered;
- EIP-155's own example: the signed transaction the EIP prints for the
  key 0x4646...46, and that key's address;
- transactions of every type (0 with and without EIP-155's chain id, a
  chain id past 2^32, 1, 2 with a contract creation, 3, 4 with two
  authorizations) signed here by eth-account 0.14.0 (the Ethereum
  Foundation's Python signer) with fixed keys, the sender the address
  eth-account gives each key.

Writes authorizations.json too: EIP-7702 authorizations signed by
eth-account for the same three keys (chain ids 0, 1 and 2^40 + 3;
nonces 0, 5 and 2^64 - 1), each as an RPC answer lists it (chainId,
address, nonce, yParity, r, s as quantities), its RLP (the `rlp`
package) and its authority (eth-account's, the key's address); the
signing hash eth-account reports is checked against keccak256(0x05 ||
rlp([chain_id, address, nonce])).

Run: python3 make.py   (needs: pip install eth-account==0.14.0)
"""

import json
import pathlib

import rlp
from eth_account import Account
from eth_hash.auto import keccak

HERE = pathlib.Path(__file__).parent
BLOCKS = HERE.parent / "eth-blocks"

# EIP-155 (https://eips.ethereum.org/EIPS/eip-155), "Example": the signed
# transaction for nonce 9, gas price 20 gwei, gas 21,000, to 0x3535...35,
# value 1 ether, no data, chain id 1, key 0x4646...46.
EIP155_TX = (
    "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a7640000"
    "8025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276a067cbe9d8997f"
    "761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"
)
EIP155_KEY = "0x" + "46" * 32


def mainnet():
    rpc = json.loads((BLOCKS / "infura15571241wtxns.json").read_text())
    [block] = [b for b in json.loads((BLOCKS / "blocks.json").read_text()) if b["trie"] == "transactions"]
    assert len(block["values"]) == len(rpc["transactions"]) == 58
    cases = []
    for i, (raw, tx) in enumerate(zip(block["values"], rpc["transactions"])):
        assert "0x" + keccak(bytes.fromhex(raw[2:])).hex() == tx["hash"], f"transaction {i}: hash"
        cases.append({"name": f"mainnet 15571241 tx {i} (type {int(tx['type'], 16)})", "tx": raw[2:],
                      "sender": tx["from"].lower()})
    return cases


def signed():
    keys = ["0x" + "46" * 32, "0x" + "01" * 32, "0x" + "fe" * 31 + "ff"]
    to = "0x3535353535353535353535353535353535353535"
    base = dict(nonce=9, gas=21000, to=to, value=10**18, data=b"")
    fees = dict(maxFeePerGas=30 * 10**9, maxPriorityFeePerGas=10**9)
    access = [{"address": "0x" + "11" * 20, "storageKeys": ["0x" + "22" * 32, "0x" + "33" * 32]}]
    call = bytes.fromhex("a9059cbb" + "00" * 12 + "44" * 20 + "00" * 31 + "64")
    cases = []
    for k, key in enumerate(keys):
        account = Account.from_key(key)
        auths = [account.sign_authorization({"chainId": 1, "address": "0x" + "77" * 20, "nonce": 5}),
                 account.sign_authorization({"chainId": 0, "address": "0x" + "78" * 20, "nonce": 0})]
        txs = [
            ("legacy, EIP-155 chain 1", dict(base, gasPrice=20 * 10**9, chainId=1)),
            ("legacy, before EIP-155", dict(base, gasPrice=20 * 10**9)),
            ("legacy, chain id 2^40 + 3", dict(base, gasPrice=1, chainId=2**40 + 3, data=call)),
            ("EIP-2930", dict(base, gasPrice=20 * 10**9, chainId=1, accessList=access, type=1)),
            ("EIP-1559", dict(base, chainId=1, type=2, data=call, **fees)),
            ("EIP-1559 contract creation", dict(base, to=b"", chainId=11155111, type=2, gas=500000,
                                                data=bytes(range(256)) * 3, **fees)),
            ("EIP-4844", dict(base, chainId=1, type=3, maxFeePerBlobGas=10**9, accessList=access,
                              blobVersionedHashes=["0x01" + "ab" * 31, "0x01" + "cd" * 31], **fees)),
            ("EIP-7702", dict(base, chainId=1, type=4, authorizationList=auths, **fees)),
        ]
        for name, tx in txs:
            raw = account.sign_transaction(tx).raw_transaction
            if name == "legacy, before EIP-155":
                assert raw[-67] in (0x1b, 0x1c), "v is 27 or 28"
            cases.append({"name": f"eth-account key {k}: {name}", "tx": raw.hex(),
                          "sender": account.address.lower()})
    return cases


def authorizations():
    keys = ["0x" + "46" * 32, "0x" + "01" * 32, "0x" + "fe" * 31 + "ff"]
    cases = []
    for k, key in enumerate(keys):
        account = Account.from_key(key)
        for chain_id, nonce, delegate in ((0, 0, "0x" + "77" * 20), (1, 5, "0x" + "00" * 19 + "01"),
                                          (2**40 + 3, 2**64 - 1, "0x" + "ab" * 20)):
            auth = account.sign_authorization({"chainId": chain_id, "address": delegate, "nonce": nonce})
            fields = [auth.chain_id, auth.address, auth.nonce]
            assert auth.authorization_hash == keccak(b"\x05" + rlp.encode(fields)), "signing hash"
            assert auth.authority == bytes.fromhex(account.address[2:]), "authority"
            cases.append({
                "name": f"eth-account key {k}: chain {chain_id}, nonce {nonce}",
                "chainId": hex(auth.chain_id), "address": "0x" + auth.address.hex(), "nonce": hex(auth.nonce),
                "yParity": hex(auth.y_parity), "r": hex(auth.r), "s": hex(auth.s),
                "rlp": rlp.encode(fields + [auth.y_parity, auth.r, auth.s]).hex(),
                "authority": account.address.lower(),
            })
    return cases


def main():
    eip155 = Account.from_key(EIP155_KEY)
    # eth-account signs deterministically (RFC 6979): the EIP's bytes again.
    again = eip155.sign_transaction(dict(nonce=9, gasPrice=20 * 10**9, gas=21000,
                                         to="0x3535353535353535353535353535353535353535",
                                         value=10**18, data=b"", chainId=1)).raw_transaction
    assert again.hex() == EIP155_TX
    cases = mainnet()
    cases.append({"name": "EIP-155 example", "tx": EIP155_TX, "sender": eip155.address.lower()})
    cases += signed()
    (HERE / "txs.json").write_text(json.dumps(cases, indent=1) + "\n")
    auths = authorizations()
    (HERE / "authorizations.json").write_text(json.dumps(auths, indent=1) + "\n")
    print(len(cases), "transactions,", len(auths), "authorizations")


main()
