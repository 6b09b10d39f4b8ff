//! Deterministic Groth16 keys and proofs for tests, `bench`, `selftest`
//! and `sample`, made without a circuit: the key's trapdoor (alpha =
//! \[a\]G1, beta = \[b\]G2, gamma = \[g\]G2, delta = \[d\]G2, IC_j = \[u_j\]G1 for
//! random a, b, g, d, u_j) gives, for any public inputs x, a proof A =
//! \[rho\]G1, B = \[sigma\]G2, C = \[c\]G1 with c = (rho sigma - a b - g (u_0 +
//! sum x_j u_j)) / d, which satisfies the verification equation exactly
//! as a prover's does (it is Groth16's zero-knowledge simulator). Valid
//! items include rho = 0 or sigma = 0 (A or B at infinity) and inputs 0
//! and r - 1; hostile ones, at the requested share: a wrong input, A and
//! C swapped, C negated, an input not below r (r + x: reduced it would
//! verify), A off its curve, a coordinate of B not below p, B on the twist
//! outside the subgroup, A at infinity, and an item one input short. Each
//! item depends only on the seed and its index.

use ark_bn254::{Bn254, Fq, Fq2, Fr, G2Affine};
use ark_ec::pairing::Pairing;
use ark_ec::{CurveGroup, PrimeGroup};
use std::ops::Range;

use ark_ff::{BigInteger, PrimeField, Zero};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{G1_LEN, G2_LEN, PROOF_LEN, WORD};
use crate::ops::evm::bn254;
use crate::ops::{item_rng, poseidon, random_field};

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 9] = [
    "wrong_input",
    "swapped_a_c",
    "negated_c",
    "input_not_below_r",
    "a_off_curve",
    "b_coordinate_not_below_p",
    "b_not_in_subgroup",
    "a_at_infinity",
    "one_input_short",
];

/// A generated key and its items.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The verifying key's encoding ([`super::VerifyingKey::from_bytes`]).
    pub vk: Vec<u8>,
    /// The items.
    pub items: Vec<Item>,
}

/// One generated item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The proof and its public inputs.
    pub bytes: Vec<u8>,
    /// "valid" (or a valid edge: "a_infinity_valid", "b_infinity_valid")
    /// or the hostile kind.
    pub kind: &'static str,
}

/// A key with `inputs` public inputs (at least one) and `count` items,
/// about `hostile_share` of them hostile.
pub fn generate(inputs: usize, count: usize, hostile_share: f64, seed: u64) -> Sample {
    let trapdoor = Trapdoor::new(inputs, seed);
    Sample {
        vk: trapdoor.key(),
        items: trapdoor.items(0..count, hostile_share),
    }
}

/// The key's secrets: the sample's key and its proofs follow from them
/// and the seed.
#[derive(Debug, Clone)]
pub struct Trapdoor {
    secrets: Secrets<Fr>,
    seed: u64,
}

impl Trapdoor {
    /// The trapdoor of a key with `inputs` public inputs (at least one)
    /// made from `seed`.
    pub fn new(inputs: usize, seed: u64) -> Trapdoor {
        let mut krng = StdRng::seed_from_u64(seed ^ 0x6701_6000);
        Trapdoor {
            secrets: Secrets::new(inputs, &mut krng),
            seed,
        }
    }

    /// The verifying key's encoding.
    pub fn key(&self) -> Vec<u8> {
        let key = self.secrets.key::<Bn254>();
        let mut vk = bn254::encode_g1(key.alpha_g1);
        for q in [key.beta_g2, key.gamma_g2, key.delta_g2] {
            vk.extend(bn254::encode_g2(q));
        }
        for p in key.gamma_abc_g1 {
            vk.extend(bn254::encode_g1(p));
        }
        vk
    }

    /// Items `range` (each depends only on the seed and its index).
    pub fn items(&self, range: Range<usize>, hostile_share: f64) -> Vec<Item> {
        range.into_par_iter().map(|i| self.item(i, hostile_share)).collect()
    }

    /// Item `i`.
    fn item(&self, i: usize, hostile_share: f64) -> Item {
        let mut rng = item_rng(self.seed ^ 0x6701_6001, i);
        let x = self.secrets.inputs(&mut rng);
        let (mut rho, mut sigma): (Fr, Fr) = (random_field(&mut rng), random_field(&mut rng));
        let hostile = (rng.random::<f64>() < hostile_share).then(|| HOSTILE[rng.random_range(0..HOSTILE.len())]);
        let mut kind = "valid";
        match (hostile, rng.random_range(0..16)) {
            (None, 0) => (rho, kind) = (Fr::zero(), "a_infinity_valid"),
            (None, 1) => (sigma, kind) = (Fr::zero(), "b_infinity_valid"),
            _ => {}
        }
        let (a, b, c) = self.secrets.prove::<Bn254>(&x, rho, sigma);
        let mut bytes = bn254::encode_g1(a);
        bytes.extend(bn254::encode_g2(b));
        bytes.extend(bn254::encode_g1(c));
        for xj in &x {
            bytes.extend(poseidon::hash_bytes(xj));
        }
        if let Some(hostile) = hostile {
            kind = hostile;
            corrupt(&mut bytes, kind, &mut rng);
        }
        Item { bytes, kind }
    }
}

/// A key's secrets on either curve: alpha = \[a\]G1, beta = \[b\]G2,
/// gamma = \[g\]G2, delta = \[d\]G2, IC_j = \[u_j\]G1.
#[derive(Debug, Clone)]
pub(crate) struct Secrets<F> {
    a: F,
    b: F,
    g: F,
    d: F,
    u: Vec<F>,
}

impl<F: PrimeField> Secrets<F> {
    /// Secrets for `inputs` public inputs (at least one) drawn from `rng`.
    pub(crate) fn new(inputs: usize, rng: &mut StdRng) -> Secrets<F> {
        let mut f = || -> F { random_field(rng) };
        let (a, b, g, d) = (f(), f(), f(), f());
        let u = (0..=inputs.max(1)).map(|_| f()).collect();
        Secrets { a, b, g, d, u }
    }

    /// The verifying key.
    pub(crate) fn key<E: Pairing<ScalarField = F>>(&self) -> ark_groth16::VerifyingKey<E> {
        let (g1, g2) = (E::G1::generator(), E::G2::generator());
        ark_groth16::VerifyingKey {
            alpha_g1: (g1 * self.a).into_affine(),
            beta_g2: (g2 * self.b).into_affine(),
            gamma_g2: (g2 * self.g).into_affine(),
            delta_g2: (g2 * self.d).into_affine(),
            gamma_abc_g1: self.u.iter().map(|uj| (g1 * uj).into_affine()).collect(),
        }
    }

    /// An item's public inputs drawn from `rng`, 0 and r - 1 among them.
    pub(crate) fn inputs(&self, rng: &mut StdRng) -> Vec<F> {
        (1..self.u.len())
            .map(|_| match rng.random_range(0..8) {
                0 => F::zero(),
                1 => -F::one(),
                _ => random_field(rng),
            })
            .collect()
    }

    /// beta and delta in G1 (bellman's verifying keys hold them).
    pub(crate) fn g1_extras<E: Pairing<ScalarField = F>>(&self) -> [E::G1Affine; 2] {
        let g1 = E::G1::generator();
        [(g1 * self.b).into_affine(), (g1 * self.d).into_affine()]
    }

    /// The simulated proof of inputs `x` with A = \[rho\]G1 and B =
    /// \[sigma\]G2.
    pub(crate) fn prove<E: Pairing<ScalarField = F>>(
        &self,
        x: &[F],
        rho: F,
        sigma: F,
    ) -> (E::G1Affine, E::G2Affine, E::G1Affine) {
        let (g1, g2) = (E::G1::generator(), E::G2::generator());
        let x_sum = self.u[0] + self.u[1..].iter().zip(x).map(|(uj, xj)| *uj * xj).sum::<F>();
        let c = (rho * sigma - self.a * self.b - self.g * x_sum) * self.d.inverse().unwrap_or_default();
        (
            (g1 * rho).into_affine(),
            (g2 * sigma).into_affine(),
            (g1 * c).into_affine(),
        )
    }
}

/// A big-endian value as a 32-byte word.
fn word(be: Vec<u8>) -> [u8; WORD] {
    let mut w = [0u8; WORD];
    w[WORD - be.len()..].copy_from_slice(&be);
    w
}

/// The 32-byte big-endian sum of `w` and `m` (both below 2^255).
fn add_words(w: &[u8], m: &[u8; WORD]) -> [u8; WORD] {
    let mut out = [0u8; WORD];
    let mut carry = 0u16;
    for k in (0..WORD).rev() {
        let s = u16::from(w[k]) + u16::from(m[k]) + carry;
        out[k] = s as u8;
        carry = s >> 8;
    }
    out
}

/// A modulus as a 32-byte big-endian word.
fn modulus<F: PrimeField>() -> [u8; WORD] {
    word(F::MODULUS.to_bytes_be())
}

/// A point of the twist outside G2's subgroup (the twist's order is r
/// times a cofactor, so almost every point is one).
fn twist_point_outside(rng: &mut StdRng) -> G2Affine {
    loop {
        let x = Fq2::new(random_field(rng), random_field(rng));
        if let Some(q) = G2Affine::get_point_from_x_unchecked(x, rng.random())
            && !q.is_in_correct_subgroup_assuming_on_curve()
        {
            return q;
        }
    }
}

/// Makes a valid item `bytes` hostile of `kind`.
fn corrupt(bytes: &mut Vec<u8>, kind: &str, rng: &mut StdRng) {
    let (a, c) = (0..G1_LEN, G1_LEN + G2_LEN..PROOF_LEN);
    match kind {
        "wrong_input" => {
            let at = PROOF_LEN + WORD * rng.random_range(0..(bytes.len() - PROOF_LEN) / WORD);
            let x = Fr::from_be_bytes_mod_order(&bytes[at..at + WORD]) + Fr::from(1u64);
            bytes[at..at + WORD].copy_from_slice(&poseidon::hash_bytes(&x));
        }
        "swapped_a_c" => {
            let a_bytes = bytes[a.clone()].to_vec();
            bytes.copy_within(c.clone(), 0);
            bytes[c].copy_from_slice(&a_bytes);
        }
        "negated_c" => {
            let p = bn254::g1(&bytes[c.clone()]).unwrap_or_default();
            bytes[c].copy_from_slice(&bn254::encode_g1(-p));
        }
        "input_not_below_r" => {
            let at = PROOF_LEN;
            let sum = add_words(&bytes[at..at + WORD], &modulus::<Fr>());
            bytes[at..at + WORD].copy_from_slice(&sum);
        }
        "a_off_curve" => {
            // (x, y + 1) is on the curve only if (y + 1)^2 = y^2: 2y + 1 = 0.
            let y = Fq::from_be_bytes_mod_order(&bytes[WORD..G1_LEN]) + Fq::from(1u64);
            bytes[WORD..G1_LEN].copy_from_slice(&word(y.into_bigint().to_bytes_be()));
            if bytes[..WORD].iter().all(|&b| b == 0) {
                // A was infinity: (0, 1) is off the curve too.
                bytes[G1_LEN - 1] = 1;
            }
        }
        "b_coordinate_not_below_p" => {
            let at = G1_LEN + WORD * rng.random_range(0..4);
            let sum = add_words(&bytes[at..at + WORD], &modulus::<Fq>());
            bytes[at..at + WORD].copy_from_slice(&sum);
        }
        "b_not_in_subgroup" => {
            let q = twist_point_outside(rng);
            bytes[G1_LEN..G1_LEN + G2_LEN].copy_from_slice(&bn254::encode_g2(q));
        }
        "a_at_infinity" => bytes[a].fill(0),
        _ => bytes.truncate(bytes.len() - WORD),
    }
}

/// Whether `kind` names a valid item.
pub fn is_valid_kind(kind: &str) -> bool {
    matches!(kind, "valid" | "a_infinity_valid" | "b_infinity_valid")
}

/// The items as a batch.
pub fn batch(items: &[Item]) -> crate::batch::FlatBytes {
    let mut flat = crate::batch::FlatBytes::with_capacity(items.len(), items.iter().map(|i| i.bytes.len()).sum());
    for it in items {
        // Samples stay far below the 4 GiB batch limit.
        let _fits = flat.push(&it.bytes);
    }
    flat
}
