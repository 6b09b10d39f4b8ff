//! The operations, one folder each: public types and semantics in
//! `ops/<op>.rs`, the oracle and CPU path (and later the GPU host code and
//! kernel) in `ops/<op>/`.

pub mod authority;
pub mod bip340;
pub mod bls;
pub mod ecdsa;
pub mod ed25519;
pub mod evm;
pub mod groth16;
pub mod hash;
pub mod kzg;
pub mod merkle;
pub mod mldsa;
pub mod mlkem;
pub mod mpt;
pub mod msm;
pub mod ntt;
pub mod ordered_trie;
pub mod poseidon;
pub mod receipts;
pub mod slhdsa;
pub mod solana_tx;
pub mod sr25519;
pub mod tx_sender;

use std::fmt;

use rand::SeedableRng;
use rand::rngs::StdRng;

/// The random generator of item `i` of a sample made from `seed`: each
/// item depends only on the seed and its index, so samples can be made in
/// parallel and in ranges (shared by the ECDSA, BLS, BIP-340 and sr25519 samples).
pub(crate) fn item_rng(seed: u64, i: usize) -> StdRng {
    StdRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// `n` items of a sample whose item `i` is `one(i, varied)` (made on
/// every core): with `varied` each of them; otherwise the bench's, the
/// first `distinct` made and repeated past that (a bench's millions of
/// signed items would take longer to make than to check).
pub(crate) fn bench_or_varied<T: Clone + Send>(
    n: usize,
    varied: bool,
    distinct: usize,
    one: impl Fn(usize, bool) -> T + Sync + Send,
) -> Vec<T> {
    use rayon::prelude::*;
    let made: Vec<T> = (0..if varied { n } else { n.min(distinct) })
        .into_par_iter()
        .map(|i| one(i, varied))
        .collect();
    if varied {
        return made;
    }
    made.iter().cycle().take(n).cloned().collect()
}

/// A uniformly random element of the prime field `F` (64 random bytes
/// reduced: the bias is below 2^-250 for the fields here).
pub(crate) fn random_field<F: ark_ff::PrimeField>(rng: &mut StdRng) -> F {
    use rand::RngExt;
    F::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())
}

/// Each distinct key of `keys` decoded once, on every core ([`crate::cores`]; `None`: it
/// does not decode): the key caches of the ML-DSA and ML-KEM CPU paths,
/// whose key decoding is a large share of an item's work.
pub(crate) fn decode_distinct<'a, K: Send>(
    keys: impl Iterator<Item = &'a [u8]>,
    decode: impl Fn(&[u8]) -> Option<K> + Sync,
) -> std::collections::HashMap<&'a [u8], Option<K>> {
    let mut distinct: Vec<&[u8]> = keys.collect();
    distinct.sort_unstable();
    distinct.dedup();
    crate::cores::map(&distinct, 1, |key| (*key, decode(key)))
        .into_iter()
        .collect()
}

/// One generated `(pk, sig, msg)` item and how it was built (the BLS,
/// BIP-340 and sr25519 samples).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedItem<const PK: usize, const SIG: usize> {
    /// The public key's encoding.
    pub pk: [u8; PK],
    /// The signature's encoding.
    pub sig: [u8; SIG],
    /// The message.
    pub msg: Vec<u8>,
    /// "valid" or the kind of corruption.
    pub kind: &'static str,
}

/// Generated items (bytes and kind) as a batch, and the oracle's answer on
/// each (`oracle`, on all cores): the workloads of the operations whose
/// items are bytes of any length (Poseidon, Merkle and trie proofs).
pub(crate) fn made_batch<T: Send>(
    made: &[(Vec<u8>, &'static str)],
    oracle: impl Fn(&[u8]) -> T + Sync + Send,
) -> (crate::batch::FlatBytes, Vec<T>) {
    use rayon::prelude::*;
    let mut items = crate::batch::FlatBytes::with_capacity(made.len(), made.iter().map(|(m, _)| m.len()).sum());
    for (item, _) in made {
        // Workloads stay far below the 4 GiB batch limit.
        let _fits = items.push(item);
    }
    let expected = (0..items.len()).into_par_iter().map(|i| oracle(items.get(i))).collect();
    (items, expected)
}

/// The oracle on every item of `items` in turn, its answers kept from
/// the optimiser (the bench's oracle column for the operations whose
/// items are bytes of any length).
pub(crate) fn oracle_each<T>(items: &crate::batch::FlatBytes, oracle: impl Fn(&[u8]) -> T) {
    for i in 0..items.len() {
        std::hint::black_box(oracle(items.get(i)));
    }
}

/// Generated items as a batch (sample messages are short: far below the
/// batch's 4 GiB limit, so no push fails).
pub fn signed_batch<const PK: usize, const SIG: usize>(
    items: &[SignedItem<PK, SIG>],
) -> crate::batch::SignedBatch<PK, SIG> {
    let mut batch = crate::batch::SignedBatch::with_capacity(items.len(), items.iter().map(|i| i.msg.len()).sum());
    for it in items {
        let _fits = batch.push(&it.pk, &it.sig, &it.msg);
    }
    batch
}

/// A workload's input from generated items: `made` repeated up to `n` items
/// (the bench signs a few thousand and repeats them), as a batch, and the
/// oracle's verdict on each (`verify`, on all cores).
pub(crate) fn repeated_signed<const PK: usize, const SIG: usize>(
    made: &[SignedItem<PK, SIG>],
    n: usize,
    verify: impl Fn(&SignedItem<PK, SIG>) -> bool + Sync,
) -> (crate::batch::SignedBatch<PK, SIG>, Vec<bool>) {
    use rayon::prelude::*;
    let items: Vec<SignedItem<PK, SIG>> = made.iter().cycle().take(n).cloned().collect();
    let expected = items.par_iter().map(&verify).collect();
    (signed_batch(&items), expected)
}

/// Every operation the engine offers, named as in reports and bench output
/// (`ed25519_verify_strict`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Op {
    /// Ed25519 signature verification under a named policy.
    Ed25519Verify(ed25519::Policy),
    /// Hashing with one of [`hash::Alg`].
    Hash(hash::Alg),
    /// A Merkle root (or tree) under one of [`merkle::Rule`].
    Merkle(merkle::Rule),
    /// BLS signature verification, item by item or as one batch.
    BlsVerify(bls::Mode),
    /// BLS aggregate verification (distinct messages).
    BlsAggregateVerify,
    /// BLS fast aggregate verification (one message).
    BlsFastAggregateVerify,
    /// The EIP-2537 pairing-check precompile.
    Eip2537Pairing,
    /// secp256k1 ECDSA verification (`low_s`: reject s > n/2).
    Secp256k1Verify {
        /// Whether s > n/2 is rejected.
        low_s: bool,
    },
    /// Ethereum's ecrecover (`low_s`: reject s > n/2).
    Ecrecover {
        /// Whether s > n/2 is rejected.
        low_s: bool,
    },
    /// P-256 ECDSA verification under RIP-7212.
    P256Verify,
    /// BIP-340 Schnorr verification (Bitcoin Taproot).
    Bip340Verify,
    /// sr25519 verification (Polkadot, Substrate).
    Sr25519Verify,
    /// ML-DSA verification (FIPS 204) at one level.
    MldsaVerify(mldsa::Level),
    /// ML-KEM key generation from seeds (FIPS 203) in one parameter set.
    MlkemKeygen(mlkem::Set),
    /// ML-KEM encapsulation.
    MlkemEncaps(mlkem::Set),
    /// ML-KEM decapsulation.
    MlkemDecaps(mlkem::Set),
    /// One of the EVM's elliptic-curve precompiles (BN254, EIP-2537 MSM).
    Evm(evm::Precompile),
    /// Number-theoretic transforms of polynomials over a field.
    Ntt(ntt::Field),
    /// Multi-scalar multiplication over a curve group.
    Msm(msm::Curve),
    /// KZG cell proof verification (EIP-7594).
    KzgCellVerify,
    /// SLH-DSA verification (FIPS 205) in one parameter set.
    SlhdsaVerify(slhdsa::Set),
    /// A blob's KZG commitment, cells and cell proofs (EIP-7594).
    KzgComputeCells,
    /// An extended blob's cells and proofs recovered from half of its cells (EIP-7594).
    KzgRecoverCells,
    /// Poseidon hashes over BN254's scalar field, circom's parameters.
    PoseidonBn254,
    /// Groth16 proof verification over BN254 (circom, snarkjs).
    Groth16VerifyBn254,
    /// Groth16 proof verification over BLS12-381 (bellman: Zcash, Filecoin; Sui).
    Groth16VerifyBls12381,
    /// Merkle inclusion proofs checked against their roots under one of
    /// [`merkle::Rule`].
    MerkleProof(merkle::Rule),
    /// Ethereum Merkle-Patricia trie proofs (`eth_getProof`'s account and
    /// storage proofs, transaction and receipt proofs).
    MptProof,
    /// The roots of Ethereum's ordered tries (a block's transactions,
    /// receipts and withdrawals roots).
    OrderedTrieRoot,
    /// The senders of Ethereum transactions (EIP-2718 envelopes of every
    /// type), recovered from their signatures.
    TxSender,
    /// The authorities of EIP-7702 authorizations, recovered from their
    /// signatures.
    Eip7702Authority,
    /// Blocks' receipts: their trie's root and their blooms' union (a
    /// header's `receiptsRoot` and `logsBloom`).
    ReceiptsRoot,
    /// Solana transactions' signatures (wire format, every signature
    /// under one Ed25519 policy).
    SolanaTxVerify(ed25519::Policy),
}

impl Op {
    /// Every operation, in a stable order.
    pub const ALL: [Op; 88] = [
        Op::Ed25519Verify(ed25519::Policy::Strict),
        Op::Ed25519Verify(ed25519::Policy::Zip215),
        Op::Hash(hash::Alg::Keccak256),
        Op::Hash(hash::Alg::Sha3_256),
        Op::Hash(hash::Alg::Sha256),
        Op::Merkle(merkle::Rule::SortedKeccak256),
        Op::Merkle(merkle::Rule::Bitcoin),
        Op::BlsVerify(bls::Mode::Single),
        Op::BlsVerify(bls::Mode::Batch),
        Op::BlsAggregateVerify,
        Op::BlsFastAggregateVerify,
        Op::Eip2537Pairing,
        Op::Secp256k1Verify { low_s: false },
        Op::Secp256k1Verify { low_s: true },
        Op::Ecrecover { low_s: false },
        Op::Ecrecover { low_s: true },
        Op::P256Verify,
        Op::Bip340Verify,
        Op::Sr25519Verify,
        Op::MldsaVerify(mldsa::Level::Mldsa44),
        Op::MldsaVerify(mldsa::Level::Mldsa65),
        Op::MldsaVerify(mldsa::Level::Mldsa87),
        Op::MlkemKeygen(mlkem::Set::Mlkem512),
        Op::MlkemKeygen(mlkem::Set::Mlkem768),
        Op::MlkemKeygen(mlkem::Set::Mlkem1024),
        Op::MlkemEncaps(mlkem::Set::Mlkem512),
        Op::MlkemEncaps(mlkem::Set::Mlkem768),
        Op::MlkemEncaps(mlkem::Set::Mlkem1024),
        Op::MlkemDecaps(mlkem::Set::Mlkem512),
        Op::MlkemDecaps(mlkem::Set::Mlkem768),
        Op::MlkemDecaps(mlkem::Set::Mlkem1024),
        Op::Evm(evm::Precompile::Bn256Add),
        Op::Evm(evm::Precompile::Bn256Mul),
        Op::Evm(evm::Precompile::Bn256Pairing),
        Op::Evm(evm::Precompile::BlsG1Msm),
        Op::Evm(evm::Precompile::BlsG2Msm),
        Op::Evm(evm::Precompile::BlsG1Add),
        Op::Evm(evm::Precompile::BlsG2Add),
        Op::Evm(evm::Precompile::BlsMapG1),
        Op::Evm(evm::Precompile::BlsMapG2),
        Op::Evm(evm::Precompile::PointEvaluation),
        Op::Ntt(ntt::Field::Bn254Fr),
        Op::Ntt(ntt::Field::Bls12381Fr),
        Op::Ntt(ntt::Field::Goldilocks),
        Op::Ntt(ntt::Field::GoldilocksNegacyclic),
        Op::Ntt(ntt::Field::Prime64Negacyclic),
        Op::Msm(msm::Curve::Bn254G1),
        Op::Msm(msm::Curve::Bls12381G1),
        Op::Msm(msm::Curve::Bls12381G2),
        Op::KzgCellVerify,
        Op::Evm(evm::Precompile::ModExp),
        Op::Evm(evm::Precompile::Ecrecover),
        Op::Evm(evm::Precompile::Sha256),
        Op::Evm(evm::Precompile::Ripemd160),
        Op::Evm(evm::Precompile::Identity),
        Op::Evm(evm::Precompile::P256Verify),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_128s),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_128f),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_192s),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_192f),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_256s),
        Op::SlhdsaVerify(slhdsa::Set::Sha2_256f),
        Op::SlhdsaVerify(slhdsa::Set::Shake128s),
        Op::SlhdsaVerify(slhdsa::Set::Shake128f),
        Op::SlhdsaVerify(slhdsa::Set::Shake192s),
        Op::SlhdsaVerify(slhdsa::Set::Shake192f),
        Op::SlhdsaVerify(slhdsa::Set::Shake256s),
        Op::SlhdsaVerify(slhdsa::Set::Shake256f),
        Op::KzgComputeCells,
        Op::KzgRecoverCells,
        Op::PoseidonBn254,
        Op::Merkle(merkle::Rule::LeanImtPoseidon),
        Op::Groth16VerifyBn254,
        Op::Groth16VerifyBls12381,
        Op::Hash(hash::Alg::Blake2b256),
        Op::Hash(hash::Alg::Blake3),
        Op::MerkleProof(merkle::Rule::SortedKeccak256),
        Op::MerkleProof(merkle::Rule::Bitcoin),
        Op::MerkleProof(merkle::Rule::LeanImtPoseidon),
        Op::Merkle(merkle::Rule::Ssz),
        Op::MerkleProof(merkle::Rule::Ssz),
        Op::MptProof,
        Op::OrderedTrieRoot,
        Op::TxSender,
        Op::Eip7702Authority,
        Op::ReceiptsRoot,
        Op::SolanaTxVerify(ed25519::Policy::Strict),
        Op::SolanaTxVerify(ed25519::Policy::Zip215),
    ];

    /// The stable name (`ed25519_verify_strict`, `keccak256`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Op::Ed25519Verify(ed25519::Policy::Strict) => "ed25519_verify_strict",
            Op::Ed25519Verify(ed25519::Policy::Zip215) => "ed25519_verify_zip215",
            Op::Hash(hash::Alg::Keccak256) => "keccak256",
            Op::Hash(hash::Alg::Sha3_256) => "sha3_256",
            Op::Hash(hash::Alg::Sha256) => "sha256",
            Op::Hash(hash::Alg::Blake2b256) => "blake2b_256",
            Op::Hash(hash::Alg::Blake3) => "blake3",
            Op::Merkle(merkle::Rule::SortedKeccak256) => "merkle_keccak256",
            Op::Merkle(merkle::Rule::Bitcoin) => "merkle_sha256",
            Op::Merkle(merkle::Rule::LeanImtPoseidon) => "merkle_poseidon",
            Op::Merkle(merkle::Rule::Ssz) => "merkle_ssz",
            Op::BlsVerify(bls::Mode::Single) => "bls_verify",
            Op::BlsVerify(bls::Mode::Batch) => "bls_batch_verify",
            Op::BlsAggregateVerify => "bls_aggregate_verify",
            Op::BlsFastAggregateVerify => "bls_fast_aggregate_verify",
            Op::Eip2537Pairing => "eip2537_pairing",
            Op::Secp256k1Verify { low_s: false } => "secp256k1_verify",
            Op::Secp256k1Verify { low_s: true } => "secp256k1_verify_low_s",
            Op::Ecrecover { low_s: false } => "ecrecover",
            Op::Ecrecover { low_s: true } => "ecrecover_low_s",
            Op::P256Verify => "p256_verify",
            Op::Bip340Verify => "bip340_verify",
            Op::Sr25519Verify => "sr25519_verify",
            Op::MldsaVerify(mldsa::Level::Mldsa44) => "mldsa_verify_44",
            Op::MldsaVerify(mldsa::Level::Mldsa65) => "mldsa_verify_65",
            Op::MldsaVerify(mldsa::Level::Mldsa87) => "mldsa_verify_87",
            Op::MlkemKeygen(mlkem::Set::Mlkem512) => "mlkem_keygen_512",
            Op::MlkemKeygen(mlkem::Set::Mlkem768) => "mlkem_keygen_768",
            Op::MlkemKeygen(mlkem::Set::Mlkem1024) => "mlkem_keygen_1024",
            Op::MlkemEncaps(mlkem::Set::Mlkem512) => "mlkem_encaps_512",
            Op::MlkemEncaps(mlkem::Set::Mlkem768) => "mlkem_encaps_768",
            Op::MlkemEncaps(mlkem::Set::Mlkem1024) => "mlkem_encaps_1024",
            Op::MlkemDecaps(mlkem::Set::Mlkem512) => "mlkem_decaps_512",
            Op::MlkemDecaps(mlkem::Set::Mlkem768) => "mlkem_decaps_768",
            Op::MlkemDecaps(mlkem::Set::Mlkem1024) => "mlkem_decaps_1024",
            Op::Evm(evm::Precompile::Bn256Add) => "bn256_add",
            Op::Evm(evm::Precompile::Bn256Mul) => "bn256_mul",
            Op::Evm(evm::Precompile::Bn256Pairing) => "bn256_pairing",
            Op::Evm(evm::Precompile::BlsG1Msm) => "eip2537_g1msm",
            Op::Evm(evm::Precompile::BlsG2Msm) => "eip2537_g2msm",
            Op::Evm(evm::Precompile::BlsG1Add) => "eip2537_g1add",
            Op::Evm(evm::Precompile::BlsG2Add) => "eip2537_g2add",
            Op::Evm(evm::Precompile::BlsMapG1) => "eip2537_map_g1",
            Op::Evm(evm::Precompile::BlsMapG2) => "eip2537_map_g2",
            Op::Evm(evm::Precompile::PointEvaluation) => "kzg_point_evaluation",
            Op::Evm(evm::Precompile::ModExp) => "modexp",
            Op::Evm(evm::Precompile::Ecrecover) => "evm_ecrecover",
            Op::Evm(evm::Precompile::Sha256) => "evm_sha256",
            Op::Evm(evm::Precompile::Ripemd160) => "evm_ripemd160",
            Op::Evm(evm::Precompile::Identity) => "evm_identity",
            Op::Evm(evm::Precompile::P256Verify) => "evm_p256verify",
            Op::Ntt(ntt::Field::Bn254Fr) => "ntt_bn254_fr",
            Op::Ntt(ntt::Field::Bls12381Fr) => "ntt_bls12_381_fr",
            Op::Ntt(ntt::Field::Goldilocks) => "ntt_goldilocks",
            Op::Ntt(ntt::Field::GoldilocksNegacyclic) => "ntt_goldilocks_negacyclic",
            Op::Ntt(ntt::Field::Prime64Negacyclic) => "ntt_prime64_negacyclic",
            Op::Msm(msm::Curve::Bn254G1) => "msm_bn254_g1",
            Op::Msm(msm::Curve::Bls12381G1) => "msm_bls12_381_g1",
            Op::Msm(msm::Curve::Bls12381G2) => "msm_bls12_381_g2",
            Op::KzgCellVerify => "kzg_cell_verify",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_128s) => "slhdsa_verify_sha2_128s",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_128f) => "slhdsa_verify_sha2_128f",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_192s) => "slhdsa_verify_sha2_192s",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_192f) => "slhdsa_verify_sha2_192f",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_256s) => "slhdsa_verify_sha2_256s",
            Op::SlhdsaVerify(slhdsa::Set::Sha2_256f) => "slhdsa_verify_sha2_256f",
            Op::SlhdsaVerify(slhdsa::Set::Shake128s) => "slhdsa_verify_shake_128s",
            Op::SlhdsaVerify(slhdsa::Set::Shake128f) => "slhdsa_verify_shake_128f",
            Op::SlhdsaVerify(slhdsa::Set::Shake192s) => "slhdsa_verify_shake_192s",
            Op::SlhdsaVerify(slhdsa::Set::Shake192f) => "slhdsa_verify_shake_192f",
            Op::SlhdsaVerify(slhdsa::Set::Shake256s) => "slhdsa_verify_shake_256s",
            Op::SlhdsaVerify(slhdsa::Set::Shake256f) => "slhdsa_verify_shake_256f",
            Op::KzgComputeCells => "kzg_compute_cells",
            Op::KzgRecoverCells => "kzg_recover_cells",
            Op::PoseidonBn254 => "poseidon_bn254",
            Op::Groth16VerifyBn254 => "groth16_verify_bn254",
            Op::Groth16VerifyBls12381 => "groth16_verify_bls12_381",
            Op::MerkleProof(merkle::Rule::SortedKeccak256) => "merkle_proof_keccak256",
            Op::MerkleProof(merkle::Rule::Bitcoin) => "merkle_proof_sha256",
            Op::MerkleProof(merkle::Rule::LeanImtPoseidon) => "merkle_proof_poseidon",
            Op::MerkleProof(merkle::Rule::Ssz) => "merkle_proof_ssz",
            Op::MptProof => "mpt_proof",
            Op::OrderedTrieRoot => "ordered_trie_root",
            Op::TxSender => "tx_sender",
            Op::Eip7702Authority => "eip7702_authority",
            Op::ReceiptsRoot => "receipts_root",
            Op::SolanaTxVerify(ed25519::Policy::Strict) => "solana_tx_verify_strict",
            Op::SolanaTxVerify(ed25519::Policy::Zip215) => "solana_tx_verify_zip215",
        }
    }

    /// Looks an operation up by its [`Op::name`].
    pub fn from_name(name: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == name)
    }

    /// Where the operation is in [`Op::ALL`], by a table lookup: the
    /// engine asks twice per call, and a scan of `ALL` comparing each
    /// operation took 8 ns for sha256 and 31 ns for the last on the Xeon
    /// VM (the lookup: about 2).
    pub(crate) fn position(self) -> usize {
        usize::from(POSITIONS[self.code()])
    }

    /// A number per operation, distinct and below [`CODES`]: its variant
    /// and its parameter's discriminant (each parameter enum has fewer
    /// than [`PARAMETERS`] values; [`POSITIONS`] checks both when
    /// compiling).
    const fn code(self) -> usize {
        let (variant, parameter) = match self {
            Op::Ed25519Verify(policy) => (0, policy as usize),
            Op::Hash(alg) => (1, alg as usize),
            Op::Merkle(rule) => (2, rule as usize),
            Op::BlsVerify(mode) => (3, mode as usize),
            Op::BlsAggregateVerify => (4, 0),
            Op::BlsFastAggregateVerify => (5, 0),
            Op::Eip2537Pairing => (6, 0),
            Op::Secp256k1Verify { low_s } => (7, low_s as usize),
            Op::Ecrecover { low_s } => (8, low_s as usize),
            Op::P256Verify => (9, 0),
            Op::Bip340Verify => (10, 0),
            Op::Sr25519Verify => (11, 0),
            Op::MldsaVerify(level) => (12, level as usize),
            Op::MlkemKeygen(set) => (13, set as usize),
            Op::MlkemEncaps(set) => (14, set as usize),
            Op::MlkemDecaps(set) => (15, set as usize),
            Op::Evm(precompile) => (16, precompile as usize),
            Op::Ntt(field) => (17, field as usize),
            Op::Msm(curve) => (18, curve as usize),
            Op::KzgCellVerify => (19, 0),
            Op::SlhdsaVerify(set) => (20, set as usize),
            Op::KzgComputeCells => (21, 0),
            Op::KzgRecoverCells => (22, 0),
            Op::PoseidonBn254 => (23, 0),
            Op::Groth16VerifyBn254 => (24, 0),
            Op::Groth16VerifyBls12381 => (25, 0),
            Op::MerkleProof(rule) => (26, rule as usize),
            Op::MptProof => (27, 0),
            Op::OrderedTrieRoot => (28, 0),
            Op::TxSender => (29, 0),
            Op::Eip7702Authority => (30, 0),
            Op::ReceiptsRoot => (31, 0),
            Op::SolanaTxVerify(policy) => (32, policy as usize),
        };
        assert!(parameter < PARAMETERS, "a parameter enum outgrew PARAMETERS");
        variant * PARAMETERS + parameter
    }
}

/// Values each [`Op`] variant's parameter may take in [`Op::code`].
const PARAMETERS: usize = 16;

/// [`Op::code`]s: variants times [`PARAMETERS`].
const CODES: usize = 33 * PARAMETERS;

/// [`Op::position`] by [`Op::code`], built from [`Op::ALL`] when compiling
/// (which fails if two operations share a code).
static POSITIONS: [u8; CODES] = {
    let mut table = [u8::MAX; CODES];
    let mut i = 0;
    while i < Op::ALL.len() {
        let code = Op::ALL[i].code();
        assert!(table[code] == u8::MAX, "two operations share a code");
        table[code] = i as u8;
        i += 1;
    }
    table
};

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
