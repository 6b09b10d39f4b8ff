//! The library's tests against the oracles, one module per operation (and
//! the dispatcher's and the GPU driver's), in one test binary: one link,
//! and one process in which each GPU engine of the harness ([`support`])
//! compiles its pipelines once for every test. On lavapipe a pipeline
//! compile is the dearest part of a GPU test (BLS12-381's take minutes on
//! two cores), and the binaries the tests were before each compiled their
//! own. `cargo test -p batchcrypto --test all msm::` runs one module.

mod support;

mod authority;
mod bip340;
mod bitcoin_block;
mod bls;
mod dispatch;
mod ecdsa;
mod ed25519;
mod evm;
mod fuzz;
mod gpu_driver;
mod groth16;
mod groth16_bls12_381;
mod hash;
mod kzg;
mod kzg_extend;
mod merkle;
mod merkle_proof;
mod mldsa;
mod mlkem;
mod mpt;
mod msm;
mod ntt;
mod ordered_trie;
mod poseidon;
mod receipts;
mod slhdsa;
mod solana_tx;
mod sr25519;
mod tx_sender;
