//! Per-item results: [`Verdict`] and the reason codes shared by every backend.
//!
//! Only the valid/invalid bit (or the recovered value) is compared with the
//! oracle byte for byte; the [`Reason`] explains a rejection and is the same
//! on every backend of this project, because every backend classifies a
//! rejected item with the same ordered list of checks (documented per
//! operation, e.g. [`crate::ops::ed25519`]).

/// The answer for one item of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The item verifies under the requested rules.
    Valid,
    /// The item does not verify; the reason says which check failed first.
    Invalid(Reason),
}

impl Verdict {
    /// `true` for [`Verdict::Valid`].
    pub fn is_valid(&self) -> bool {
        matches!(self, Verdict::Valid)
    }

    /// The reason of an invalid verdict, `None` when valid.
    pub fn reason(&self) -> Option<Reason> {
        match self {
            Verdict::Valid => None,
            Verdict::Invalid(r) => Some(*r),
        }
    }
}

/// The verdicts of items first decoded (`decoded`: the item's parts, or
/// the reason of the check that refused it) and then decided by the
/// verification equation: `holds[k]` for the `k`-th item that decoded, in
/// order (`equation` where it fails).
pub(crate) fn decoded_then_decided<T>(decoded: &[Result<T, Reason>], holds: &[bool]) -> Vec<Verdict> {
    let mut holds = holds.iter();
    decoded
        .iter()
        .map(|d| match d {
            Err(r) => Verdict::Invalid(*r),
            Ok(_) if holds.next().copied().unwrap_or(false) => Verdict::Valid,
            Ok(_) => Verdict::Invalid(Reason::Equation),
        })
        .collect()
}

/// Why an item was rejected. [`Reason::code`] is the stable snake_case code
/// printed by the CLI and documented in the README.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[repr(u8)]
pub enum Reason {
    /// The public key bytes are not the encoding of a curve point.
    MalformedKey = 1,
    /// The signature's R bytes are not the encoding of a curve point.
    MalformedR = 2,
    /// The signature's scalar S is not reduced (S >= L).
    NonCanonicalS = 3,
    /// The public key is a point of small order (rejected by strict rules).
    SmallOrderKey = 4,
    /// The signature's R is a point of small order (rejected by strict rules).
    SmallOrderR = 5,
    /// BLS: the public key is the point at infinity (KeyValidate fails).
    IdentityKey = 6,
    /// BLS: the public key is on the curve but not in the prime-order subgroup.
    KeyNotInSubgroup = 7,
    /// BLS: the signature bytes are not the encoding of a curve point.
    MalformedSignature = 8,
    /// BLS: the signature is on the curve but not in the prime-order subgroup.
    SignatureNotInSubgroup = 9,
    /// BLS aggregates: no keys, or the number of keys and messages differ;
    /// KZG cell recovery: the numbers of cell indices and cells differ.
    EmptyOrMismatched = 10,
    /// ECDSA: r is 0 or not below the group order n.
    ROutOfRange = 11,
    /// ECDSA: s is 0 or not below the group order n.
    SOutOfRange = 12,
    /// ECDSA with the low-s rule: s > n/2.
    HighS = 13,
    /// ecrecover: v is not 27, 28, 0 or 1.
    BadV = 14,
    /// ECDSA: the public key's coordinates are not a point of the curve.
    NotOnCurve = 15,
    /// ecrecover: no public key can be recovered (no curve point has x = r).
    RecoveryFailed = 16,
    /// ML-DSA: the context string is longer than 255 bytes.
    ContextTooLong = 17,
    /// ML-DSA: the signature's hint encoding is malformed (sigDecode fails).
    MalformedHint = 18,
    /// ML-DSA: the signature's z is out of range (||z||_inf >= gamma1 - beta).
    ZOutOfRange = 19,
    /// ML-KEM key generation: the seed d or z is not 32 bytes.
    MalformedSeed = 20,
    /// ML-KEM encapsulation: the given message m is not 32 bytes.
    MalformedRandomness = 21,
    /// ML-KEM: a coefficient of the encapsulation key (or of the one inside
    /// a decapsulation key) is not below q (FIPS 203's modulus check).
    KeyNotReduced = 22,
    /// ML-KEM decapsulation: H(ek) differs from the hash stored in the
    /// decapsulation key (FIPS 203's hash check).
    KeyHashMismatch = 23,
    /// ML-KEM decapsulation: the ciphertext has the wrong length.
    MalformedCiphertext = 24,
    /// ML-KEM encapsulation: the operating system's random generator failed.
    RandomnessUnavailable = 25,
    /// NTT: an element of the polynomial is not the canonical encoding of a
    /// field element (not below the modulus); Poseidon, KZG and Groth16: an
    /// element or public input not below r.
    NonCanonicalElement = 26,
    /// MSM: a point's bytes are not an encoding of a point (a coordinate not
    /// below p, bad flag bits).
    MalformedPoint = 27,
    /// MSM: a point is on its curve but outside the prime-order subgroup.
    PointNotInSubgroup = 28,
    /// Every encoding check passed but the verification equation does not hold.
    Equation = 29,
    /// KZG cells: the cell index is not below CELLS_PER_EXT_BLOB (128).
    CellIndexOutOfRange = 30,
    /// KZG: the proof's bytes are not a compressed point of the curve (bad
    /// flag bits, x not below p, no point with this x); Groth16: a
    /// coordinate of A, B or C not below p, or a point off its curve;
    /// trie proofs: a node on the path that does not decode as a trie node.
    MalformedProof = 31,
    /// KZG: the proof is on the curve but outside G1; Groth16: B is on the
    /// twist but outside G2's subgroup.
    ProofNotInSubgroup = 32,
    /// KZG: the commitment's bytes are not a compressed point of the curve.
    MalformedCommitment = 33,
    /// KZG: the commitment is on the curve but outside G1.
    CommitmentNotInSubgroup = 34,
    /// KZG cell recovery: more cells than an extended blob has (128).
    TooManyCells = 35,
    /// KZG cell recovery: fewer than half of an extended blob's cells (64).
    TooFewCells = 36,
    /// KZG cell recovery: the cell indices are not strictly ascending (a
    /// repeated or out-of-order index).
    CellIndicesNotAscending = 37,
    /// Poseidon: the item is not 1 to 12 whole field elements (a length
    /// that is 0, not a multiple of 32, or above 384 bytes); Groth16: the
    /// item is not the proof and as many public inputs as the key takes;
    /// Merkle proofs: the item is not its head and whole siblings.
    WrongInputLength = 38,
    /// Merkle proofs: the call fixed the tree's depth and the proof has
    /// another number of siblings.
    WrongProofLength = 39,
    /// Merkle proofs: the leaf's index is not below 2^siblings (no path of
    /// that many levels has it).
    LeafIndexOutOfRange = 40,
    /// Merkle proofs: the root of the leaf's path is not the root given;
    /// trie proofs: no node, and a root other than the empty trie's.
    RootMismatch = 41,
    /// Trie proofs: the nodes do not lead from the root to the value
    /// claimed (or to the key's absence): a node that is not the one its
    /// parent points to, a proof cut short, another value, a path past 64
    /// nibbles.
    PathMismatch = 42,
    /// Ordered tries: a value of no bytes (a trie holds none: writing one
    /// deletes its key).
    EmptyValue = 43,
    /// Blocks: the bytes are not a block's RLP (`[header, transactions,
    /// ommers, withdrawals?]`, see `ops::ordered_trie::block`).
    MalformedBlock = 44,
    /// Transactions: the bytes are not one transaction of their type
    /// (EIP-2718), or bytes are left over.
    MalformedTransaction = 45,
    /// Transactions: a type byte other than the types known (0 to 4).
    UnsupportedTxType = 46,
    /// EIP-7702 authorizations: the bytes are not one signed
    /// authorization's RLP, or bytes are left over.
    MalformedAuthorization = 47,
    /// Receipts: the bytes are not one receipt of their type (EIP-2718,
    /// see `ops::receipts`), or bytes are left over.
    MalformedReceipt = 48,
    /// Receipts: a receipt's `logsBloom` is not the bloom of its logs.
    BloomMismatch = 49,
    /// Solana transactions: the transaction breaks Solana's sanitize
    /// rules (the header's counts against the keys, an index out of
    /// range, signatures other than the header's count; see
    /// `ops::solana_tx`).
    SanitizeFailure = 50,
    /// Bitcoin blocks: the header's hash is above the target its `nBits`
    /// states, or that target is not one the network allows (Bitcoin
    /// Core's `high-hash`; see `ops::merkle::block`).
    HighHash = 51,
    /// Bitcoin blocks: two equal nodes side by side in the txids' tree
    /// (CVE-2012-2459, Core's `bad-txns-duplicate`).
    DuplicateTransactions = 52,
    /// Bitcoin blocks: a witness commitment beside a coinbase witness that
    /// is not one 32-byte item (Core's `bad-witness-nonce-size`).
    BadWitnessNonceSize = 53,
    /// Bitcoin blocks: a transaction with a witness in a block that
    /// commits to none (Core's `unexpected-witness`).
    UnexpectedWitness = 54,
}

impl Reason {
    /// Every reason, in declaration order (for docs and tests).
    pub const ALL: [Reason; 54] = [
        Reason::MalformedKey,
        Reason::MalformedR,
        Reason::NonCanonicalS,
        Reason::SmallOrderKey,
        Reason::SmallOrderR,
        Reason::IdentityKey,
        Reason::KeyNotInSubgroup,
        Reason::MalformedSignature,
        Reason::SignatureNotInSubgroup,
        Reason::EmptyOrMismatched,
        Reason::ROutOfRange,
        Reason::SOutOfRange,
        Reason::HighS,
        Reason::BadV,
        Reason::NotOnCurve,
        Reason::RecoveryFailed,
        Reason::ContextTooLong,
        Reason::MalformedHint,
        Reason::ZOutOfRange,
        Reason::MalformedSeed,
        Reason::MalformedRandomness,
        Reason::KeyNotReduced,
        Reason::KeyHashMismatch,
        Reason::MalformedCiphertext,
        Reason::RandomnessUnavailable,
        Reason::NonCanonicalElement,
        Reason::MalformedPoint,
        Reason::PointNotInSubgroup,
        Reason::Equation,
        Reason::CellIndexOutOfRange,
        Reason::MalformedProof,
        Reason::ProofNotInSubgroup,
        Reason::MalformedCommitment,
        Reason::CommitmentNotInSubgroup,
        Reason::TooManyCells,
        Reason::TooFewCells,
        Reason::CellIndicesNotAscending,
        Reason::WrongInputLength,
        Reason::WrongProofLength,
        Reason::LeafIndexOutOfRange,
        Reason::RootMismatch,
        Reason::PathMismatch,
        Reason::EmptyValue,
        Reason::MalformedBlock,
        Reason::MalformedTransaction,
        Reason::UnsupportedTxType,
        Reason::MalformedAuthorization,
        Reason::MalformedReceipt,
        Reason::BloomMismatch,
        Reason::SanitizeFailure,
        Reason::HighHash,
        Reason::DuplicateTransactions,
        Reason::BadWitnessNonceSize,
        Reason::UnexpectedWitness,
    ];

    /// The reason's stable number, 1 to 255 (its discriminant; new reasons
    /// take the next one). The bindings write it per item, 0 standing for
    /// valid (see [`crate::flat::verdict_code`]).
    pub fn number(&self) -> u8 {
        *self as u8
    }

    /// The reason of a number from [`Reason::number`] (`None` for 0 and
    /// numbers no reason has).
    pub fn from_number(n: u8) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.number() == n)
    }

    /// The stable snake_case code of this reason.
    pub fn code(&self) -> &'static str {
        match self {
            Reason::MalformedKey => "malformed_key",
            Reason::MalformedR => "malformed_r",
            Reason::NonCanonicalS => "non_canonical_s",
            Reason::SmallOrderKey => "small_order_key",
            Reason::SmallOrderR => "small_order_r",
            Reason::IdentityKey => "identity_key",
            Reason::KeyNotInSubgroup => "key_not_in_subgroup",
            Reason::MalformedSignature => "malformed_signature",
            Reason::SignatureNotInSubgroup => "signature_not_in_subgroup",
            Reason::EmptyOrMismatched => "empty_or_mismatched",
            Reason::ROutOfRange => "r_out_of_range",
            Reason::SOutOfRange => "s_out_of_range",
            Reason::HighS => "high_s",
            Reason::BadV => "bad_v",
            Reason::NotOnCurve => "not_on_curve",
            Reason::RecoveryFailed => "recovery_failed",
            Reason::ContextTooLong => "context_too_long",
            Reason::MalformedHint => "malformed_hint",
            Reason::ZOutOfRange => "z_out_of_range",
            Reason::MalformedSeed => "malformed_seed",
            Reason::MalformedRandomness => "malformed_randomness",
            Reason::KeyNotReduced => "key_not_reduced",
            Reason::KeyHashMismatch => "key_hash_mismatch",
            Reason::MalformedCiphertext => "malformed_ciphertext",
            Reason::RandomnessUnavailable => "randomness_unavailable",
            Reason::NonCanonicalElement => "non_canonical_element",
            Reason::MalformedPoint => "malformed_point",
            Reason::PointNotInSubgroup => "point_not_in_subgroup",
            Reason::Equation => "equation",
            Reason::CellIndexOutOfRange => "cell_index_out_of_range",
            Reason::MalformedProof => "malformed_proof",
            Reason::ProofNotInSubgroup => "proof_not_in_subgroup",
            Reason::MalformedCommitment => "malformed_commitment",
            Reason::CommitmentNotInSubgroup => "commitment_not_in_subgroup",
            Reason::TooManyCells => "too_many_cells",
            Reason::TooFewCells => "too_few_cells",
            Reason::CellIndicesNotAscending => "cell_indices_not_ascending",
            Reason::WrongInputLength => "wrong_input_length",
            Reason::WrongProofLength => "wrong_proof_length",
            Reason::LeafIndexOutOfRange => "leaf_index_out_of_range",
            Reason::RootMismatch => "root_mismatch",
            Reason::PathMismatch => "path_mismatch",
            Reason::EmptyValue => "empty_value",
            Reason::MalformedBlock => "malformed_block",
            Reason::MalformedTransaction => "malformed_transaction",
            Reason::UnsupportedTxType => "unsupported_tx_type",
            Reason::MalformedAuthorization => "malformed_authorization",
            Reason::MalformedReceipt => "malformed_receipt",
            Reason::BloomMismatch => "bloom_mismatch",
            Reason::SanitizeFailure => "sanitize_failure",
            Reason::HighHash => "high_hash",
            Reason::DuplicateTransactions => "duplicate_transactions",
            Reason::BadWitnessNonceSize => "bad_witness_nonce_size",
            Reason::UnexpectedWitness => "unexpected_witness",
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
