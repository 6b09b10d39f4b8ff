//! Number-theoretic transforms over batches of polynomials: the radix-2
//! NTT and its inverse of size n = 2^k (k = 1..=[`MAX_LOG_N`]), over the
//! scalar fields of BN254 and BLS12-381 (zero-knowledge provers) and the
//! 64-bit Goldilocks prime 2^64 - 2^32 + 1 (STARKs, FHE), optionally on a
//! coset, with the input and the output each in natural or bit-reversed
//! order.
//!
//! Layout: a polynomial is n elements back to back, each the field's
//! canonical little-endian encoding ([`Field::element_len`] bytes: 32 for
//! the scalar fields, 8 for Goldilocks); a batch is polynomials back to
//! back. The forward transform maps coefficients a_0..a_{n-1} to the
//! evaluations y_i = sum_j a_j (g w^i)^j, i = 0..n-1, where w is the
//! field's primitive n-th root of unity as arkworks chooses it (the
//! two-adic root of unity, squared down to order n) and g the coset shift
//! (1 without a coset); the inverse maps those evaluations back to the
//! coefficients. Bit-reversed order permutes index i to the reversal of
//! its k bits.
//!
//! The negacyclic transform of fully homomorphic encryption
//! ([`Field::GoldilocksNegacyclic`], the ring Z_p\[X\]/(X^n + 1) over the
//! Goldilocks prime, which TFHE-rs uses for its 64-bit NTT) evaluates at
//! the odd powers of a primitive 2n-th root of unity psi: y_i = sum_j a_j
//! psi^((2i + 1) j), with psi the root Zama's `tfhe-ntt` chooses for n (its
//! own table for this prime: psi is read from the crate, the forward
//! transform of X). Its bit-reversed output is exactly `tfhe-ntt`'s
//! forward buffer, and its inverse (from that buffer, bit-reversed input)
//! is `tfhe-ntt`'s inverse followed by its normalisation (n^-1), so that
//! the inverse undoes the forward transform as for the other fields. Sizes
//! 2^4 to 2^24 (`tfhe-ntt` plans 16 elements and more); no coset.
//! [`Field::Prime64Negacyclic`] is the same transform over any prime p <
//! 2^64 that `tfhe-ntt` plans for n (p = 1 mod 2n), the caller's
//! [`Transform::modulus`]: the residue number systems of FHE schemes (BFV,
//! BGV, CKKS) hold a polynomial modulo several such primes, each
//! transformed on its own; psi is again `tfhe-ntt`'s, and elements are 8
//! bytes below p.
//!
//! Each polynomial gets its transform, or [`Reason::NonCanonicalElement`]
//! when one of its elements is not below the modulus; a batch whose length
//! is not a whole number of polynomials, or a transform the field cannot
//! do (k too large, a zero or non-canonical coset shift), is refused as a
//! whole.
//!
//! Oracle: arkworks' `ark-poly` radix-2 evaluation domains (with
//! `get_coset` for the shift) over `ark-bn254`, `ark-bls12-381` and, for
//! Goldilocks, arkworks' Montgomery field with the prime's parameters
//! ([`fields`]); for the negacyclic transforms `tfhe-ntt`'s
//! `prime64::Plan` itself. The CPU path is the oracle's transforms on all
//! cores: polynomials in parallel, and a large one split inside by
//! `ark-poly`'s parallel FFT, the cyclic fields' bytes taken as arkworks'
//! Montgomery representations (the transform is linear, so no conversion
//! in or out: `cpu.rs`).
//! The GPU path (`gpu.rs` over `field64.wgsl`, `prime64.wgsl` (any 64-bit
//! prime, in Montgomery form, the prime read from the kernel's parameters
//! so that one pipeline serves every prime) or `field256.wgsl`) covers
//! every field at every size (the negacyclic transform is the cyclic one
//! of root psi^2 with the input scaled by psi^j, as a coset), the first
//! stages, whose butterflies stay within blocks of 16 KiB, in workgroup
//! memory (`block.wgsl`): up to 2^12 a workgroup per polynomial
//! (`radix2.wgsl`: all the stages there for a polynomial that fits, the
//! rest in place with barriers between them), from 2^13 a workgroup per
//! block, then a dispatch per two stages with a thread per four elements
//! (`passes.wgsl`, two-level tables so that 2^24 needs no 2^23-entry
//! table), so that one large polynomial fills the device.
//!
//! [`Reason::NonCanonicalElement`]: crate::Reason::NonCanonicalElement

pub(crate) mod cpu;
pub mod fields;
#[cfg(feature = "wgpu")]
pub(crate) mod gpu;
pub mod oracle;
pub(crate) mod workload;

use std::fmt;
use std::str::FromStr;

use crate::verdict::Reason;

/// Largest log2 of a polynomial's size.
pub const MAX_LOG_N: u32 = 24;

/// The field of a transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// BN254's scalar field (2-adicity 28).
    Bn254Fr,
    /// BLS12-381's scalar field (2-adicity 32).
    Bls12381Fr,
    /// The Goldilocks prime 2^64 - 2^32 + 1 (2-adicity 32).
    Goldilocks,
    /// The same prime in the ring Z_p\[X\]/(X^n + 1) of fully homomorphic
    /// encryption: the negacyclic transform exactly as Zama's `tfhe-ntt`
    /// (TFHE-rs's NTT) computes it for this "Solinas" prime, n = 2^4 to
    /// 2^24, no coset (see the module's documentation).
    GoldilocksNegacyclic,
    /// The negacyclic transform over the prime of [`Transform::modulus`]:
    /// any prime p < 2^64 with p = 1 mod 2n (`tfhe-ntt`'s `prime64`),
    /// n = 2^4 to 2^24, no coset.
    Prime64Negacyclic,
}

impl Field {
    /// All of them.
    pub const ALL: [Field; 5] = [
        Field::Bn254Fr,
        Field::Bls12381Fr,
        Field::Goldilocks,
        Field::GoldilocksNegacyclic,
        Field::Prime64Negacyclic,
    ];

    /// The CLI's name: `bn254-fr`, `bls12-381-fr`, `goldilocks`,
    /// `goldilocks-negacyclic`, `prime64-negacyclic`.
    pub fn name(&self) -> &'static str {
        match self {
            Field::Bn254Fr => "bn254-fr",
            Field::Bls12381Fr => "bls12-381-fr",
            Field::Goldilocks => "goldilocks",
            Field::GoldilocksNegacyclic => "goldilocks-negacyclic",
            Field::Prime64Negacyclic => "prime64-negacyclic",
        }
    }

    /// Whether the transform is negacyclic (modulo X^n + 1).
    pub fn negacyclic(&self) -> bool {
        matches!(self, Field::GoldilocksNegacyclic | Field::Prime64Negacyclic)
    }

    /// The smallest log2 of a polynomial's size (`tfhe-ntt` plans 16
    /// elements and more).
    pub fn min_log_n(&self) -> u32 {
        if self.negacyclic() { 4 } else { 1 }
    }

    /// Bytes of one encoded element.
    pub fn element_len(&self) -> usize {
        match self {
            Field::Bn254Fr | Field::Bls12381Fr => 32,
            Field::Goldilocks | Field::GoldilocksNegacyclic | Field::Prime64Negacyclic => 8,
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Field {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Field::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
            format!(
                "unknown field {s:?} (expected bn254-fr, bls12-381-fr, goldilocks, goldilocks-negacyclic or prime64-negacyclic)"
            )
        })
    }
}

/// Forward (coefficients to evaluations) or inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Direction {
    /// Coefficients to evaluations.
    #[default]
    Forward,
    /// Evaluations to coefficients.
    Inverse,
}

/// The order of a polynomial's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Order {
    /// Index i at position i.
    #[default]
    Natural,
    /// Index i at the position of its k bits reversed.
    BitReversed,
}

impl Order {
    /// The CLI's name: `natural` or `bit-reversed`.
    pub fn name(self) -> &'static str {
        match self {
            Order::Natural => "natural",
            Order::BitReversed => "bit-reversed",
        }
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Order {
    type Err = String;
    /// `natural` or `bit-reversed` (the CLI's names).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Order::Natural, Order::BitReversed]
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| format!("{s:?}: expected natural or bit-reversed"))
    }
}

/// One transform, applied to every polynomial of a batch.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Transform {
    /// The field.
    pub field: Field,
    /// log2 of the polynomials' size, [`Field::min_log_n`] to [`MAX_LOG_N`].
    pub log_n: u32,
    /// Forward or inverse.
    pub direction: Direction,
    /// The order of the input polynomials.
    pub input_order: Order,
    /// The order of the output polynomials.
    pub output_order: Order,
    /// The coset shift g, canonical little-endian, nonzero (`None`: g = 1).
    pub coset: Option<Vec<u8>>,
    /// The prime of [`Field::Prime64Negacyclic`] (required there; `None`
    /// for every other field, whose prime is its own).
    pub modulus: Option<u64>,
}

impl Transform {
    /// The forward transform of size 2^`log_n`, natural orders, no coset.
    pub fn new(field: Field, log_n: u32) -> Self {
        Transform {
            field,
            log_n,
            direction: Direction::Forward,
            input_order: Order::Natural,
            output_order: Order::Natural,
            coset: None,
            modulus: None,
        }
    }

    /// The forward negacyclic transform of size 2^`log_n` over the prime
    /// `p` ([`Field::Prime64Negacyclic`]), natural orders.
    pub fn prime64(p: u64, log_n: u32) -> Self {
        Transform {
            modulus: Some(p),
            ..Transform::new(Field::Prime64Negacyclic, log_n)
        }
    }

    /// The prime of a negacyclic transform (`tfhe-ntt`'s modulus): the
    /// Goldilocks prime, or [`Transform::modulus`] (`None` for the cyclic
    /// fields, or when the modulus is missing).
    pub fn negacyclic_prime(&self) -> Option<u64> {
        match self.field {
            Field::GoldilocksNegacyclic => Some(fields::GOLDILOCKS_P),
            Field::Prime64Negacyclic => self.modulus,
            _ => None,
        }
    }

    /// Elements per polynomial (2^log_n; 0 when log_n is out of range).
    pub fn len(&self) -> usize {
        if (self.field.min_log_n()..=MAX_LOG_N).contains(&self.log_n) {
            1 << self.log_n
        } else {
            0
        }
    }

    /// Whether the transform has no elements (log_n out of range).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per polynomial.
    pub fn poly_bytes(&self) -> usize {
        self.len() * self.field.element_len()
    }

    /// How many polynomials `bytes` of input hold, or why the call cannot
    /// be made (log_n out of range, a partial polynomial, a bad coset shift).
    pub fn polys_in(&self, bytes: usize) -> Result<usize, String> {
        if self.is_empty() {
            return Err(format!(
                "log_n {} is outside {}..={MAX_LOG_N} for {}",
                self.log_n,
                self.field.min_log_n(),
                self.field
            ));
        }
        match (self.field, self.modulus) {
            (Field::Prime64Negacyclic, None) => return Err(format!("{} needs a modulus", self.field)),
            (Field::Prime64Negacyclic, Some(p)) if !oracle::plans(p, self.log_n) => {
                return Err(format!(
                    "the modulus {p} is not a prime = 1 mod 2^{} (2n), which the negacyclic transform of 2^{} elements needs",
                    self.log_n + 1,
                    self.log_n
                ));
            }
            (Field::Prime64Negacyclic, Some(_)) | (_, None) => {}
            (_, Some(_)) => {
                return Err(format!(
                    "{} takes no modulus (its prime is its own; prime64-negacyclic takes one)",
                    self.field
                ));
            }
        }
        if self.field.negacyclic() && self.coset.is_some() {
            return Err(format!(
                "{} takes no coset shift (its twist by a 2n-th root of unity is the transform's own)",
                self.field
            ));
        }
        if let Some(g) = &self.coset
            && !oracle::is_valid_shift(self.field, g)
        {
            return Err(format!(
                "the coset shift must be a nonzero canonical {}-byte little-endian element of {}",
                self.field.element_len(),
                self.field
            ));
        }
        if !bytes.is_multiple_of(self.poly_bytes()) {
            return Err(format!(
                "{bytes} bytes are not a whole number of polynomials of {} bytes (2^{} elements of {} bytes)",
                self.poly_bytes(),
                self.log_n,
                self.field.element_len()
            ));
        }
        Ok(bytes / self.poly_bytes())
    }
}

/// One polynomial's transform (encoded like the input), or why not.
pub type PolyResult = Result<Vec<u8>, Reason>;

/// A batch of whole polynomials for one transform (the engine's unit of
/// splitting between CPU and GPU).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Polys<'a> {
    pub(crate) transform: &'a Transform,
    pub(crate) bytes: &'a [u8],
}

impl Polys<'_> {
    /// Polynomials held.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / self.transform.poly_bytes()
    }

    /// Polynomials `range` of them.
    pub(crate) fn slice(&self, range: std::ops::Range<usize>) -> Self {
        let size = self.transform.poly_bytes();
        Polys {
            transform: self.transform,
            bytes: &self.bytes[range.start * size..range.end * size],
        }
    }
}
