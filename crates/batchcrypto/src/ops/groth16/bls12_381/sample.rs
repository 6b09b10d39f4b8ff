//! Deterministic keys and proofs over BLS12-381 for tests, `bench`,
//! `selftest` and `sample`, made from a key's trapdoor as BN254's are
//! ([`crate::ops::groth16::sample`]: Groth16's simulator). Valid items
//! have inputs 0 and r - 1 among others; hostile ones, at the requested
//! share: a wrong input, A and C swapped, C negated, an input not below r
//! (r + x: reduced it would verify), A's x with no point on the curve, a
//! coordinate of B not below p, A or B on its curve outside the order-r
//! subgroup, A or B at infinity (made with a zero exponent, so that the
//! equation holds: bellman refuses them, arkworks would not), A's
//! compression flag cleared, and an item one input short. Each item
//! depends only on the seed and its index.

use std::ops::Range;

use ark_bls12_381::{Bls12_381, Fq, Fq2, Fr, G1Affine, G2Affine};
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::{BigInteger, PrimeField, Zero};
use ark_serialize::CanonicalSerialize;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{G1_LEN, G2_LEN, PROOF_LEN, SCALAR_LEN, compress, scalar_bytes};
use crate::ops::groth16::sample::{Item, Sample, Secrets};
use crate::ops::{item_rng, random_field};

/// The hostile kinds, in the order they are drawn.
pub const HOSTILE: [&str; 12] = [
    "wrong_input",
    "swapped_a_c",
    "negated_c",
    "input_not_below_r",
    "a_not_on_curve",
    "b_coordinate_not_below_p",
    "a_not_in_subgroup",
    "b_not_in_subgroup",
    "a_at_infinity",
    "b_at_infinity",
    "a_flag_uncompressed",
    "one_input_short",
];

/// A key with `inputs` public inputs (at least one) in the compressed
/// form and `count` items, about `hostile_share` of them hostile.
pub fn generate(inputs: usize, count: usize, hostile_share: f64, seed: u64) -> Sample {
    let trapdoor = Trapdoor::new(inputs, seed);
    Sample {
        vk: trapdoor.key(),
        items: trapdoor.items(0..count, hostile_share),
    }
}

/// Whether `kind` names a valid item.
pub fn is_valid_kind(kind: &str) -> bool {
    kind == "valid"
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
        let mut krng = StdRng::seed_from_u64(seed ^ 0x6701_6002);
        Trapdoor {
            secrets: Secrets::new(inputs, &mut krng),
            seed,
        }
    }

    /// The verifying key in the compressed form (arkworks', Sui's).
    pub fn key(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a vector does not fail.
        let _written = self.secrets.key::<Bls12_381>().serialize_compressed(&mut out);
        out
    }

    /// The same key in bellman's uncompressed form.
    pub fn bellman_key(&self) -> Vec<u8> {
        let key = self.secrets.key::<Bls12_381>();
        let [beta_g1, delta_g1] = self.secrets.g1_extras::<Bls12_381>();
        let mut out = Vec::new();
        // Writing to a vector does not fail.
        let _written = (key.alpha_g1, beta_g1, key.beta_g2).serialize_uncompressed(&mut out);
        let _written = (key.gamma_g2, delta_g1, key.delta_g2).serialize_uncompressed(&mut out);
        let count = u32::try_from(key.gamma_abc_g1.len()).unwrap_or(u32::MAX);
        out.extend(count.to_be_bytes());
        for p in &key.gamma_abc_g1 {
            let _written = p.serialize_uncompressed(&mut out);
        }
        out
    }

    /// Items `range` (each depends only on the seed and its index).
    pub fn items(&self, range: Range<usize>, hostile_share: f64) -> Vec<Item> {
        range.into_par_iter().map(|i| self.item(i, hostile_share)).collect()
    }

    /// Item `i`.
    fn item(&self, i: usize, hostile_share: f64) -> Item {
        let mut rng = item_rng(self.seed ^ 0x6701_6003, i);
        let x = self.secrets.inputs(&mut rng);
        let (mut rho, mut sigma): (Fr, Fr) = (random_field(&mut rng), random_field(&mut rng));
        let hostile = (rng.random::<f64>() < hostile_share).then(|| HOSTILE[rng.random_range(0..HOSTILE.len())]);
        match hostile {
            Some("a_at_infinity") => rho = Fr::zero(),
            Some("b_at_infinity") => sigma = Fr::zero(),
            _ => {}
        }
        let (a, b, c) = self.secrets.prove::<Bls12_381>(&x, rho, sigma);
        let mut bytes = [compress(&a), compress(&b), compress(&c)].concat();
        for xj in &x {
            bytes.extend(scalar_bytes(xj));
        }
        if let Some(kind) = hostile {
            corrupt(&mut bytes, kind, &mut rng);
        }
        Item {
            bytes,
            kind: hostile.unwrap_or("valid"),
        }
    }
}

/// A field element's 48 big-endian bytes.
fn fq_bytes(x: &Fq) -> Vec<u8> {
    x.into_bigint().to_bytes_be()
}

/// A point on the curve of `P` outside its order-r subgroup (the curve's
/// order is r times a cofactor, so almost every point is one).
fn point_outside<P: SWCurveConfig>(rng: &mut StdRng, base: impl Fn(&mut StdRng) -> P::BaseField) -> Affine<P> {
    loop {
        if let Some(q) = Affine::<P>::get_point_from_x_unchecked(base(rng), rng.random())
            && !q.is_in_correct_subgroup_assuming_on_curve()
        {
            return q;
        }
    }
}

/// Makes a valid item `bytes` hostile of `kind` (the infinities are made
/// before: nothing to change).
fn corrupt(bytes: &mut Vec<u8>, kind: &str, rng: &mut StdRng) {
    let (a, b, c) = (0..G1_LEN, G1_LEN..G1_LEN + G2_LEN, G1_LEN + G2_LEN..PROOF_LEN);
    match kind {
        "wrong_input" => {
            let at = PROOF_LEN + SCALAR_LEN * rng.random_range(0..(bytes.len() - PROOF_LEN) / SCALAR_LEN);
            let x = Fr::from_le_bytes_mod_order(&bytes[at..at + SCALAR_LEN]) + Fr::from(1u64);
            bytes[at..at + SCALAR_LEN].copy_from_slice(&scalar_bytes(&x));
        }
        "swapped_a_c" => {
            let a_bytes = bytes[a.clone()].to_vec();
            bytes.copy_within(c.clone(), 0);
            bytes[c].copy_from_slice(&a_bytes);
        }
        "negated_c" => {
            // The larger-y flag of a point not at infinity.
            bytes[c.start] ^= 0x20;
        }
        "input_not_below_r" => {
            let at = PROOF_LEN;
            let mut carry = 0u16;
            let r = Fr::MODULUS.to_bytes_le();
            for (k, byte) in bytes[at..at + SCALAR_LEN].iter_mut().enumerate() {
                let s = u16::from(*byte) + u16::from(r[k]) + carry;
                *byte = s as u8;
                carry = s >> 8;
            }
        }
        "a_not_on_curve" => loop {
            let x: Fq = random_field(rng);
            if G1Affine::get_point_from_x_unchecked(x, false).is_none() {
                bytes[a.clone()].copy_from_slice(&fq_bytes(&x));
                bytes[0] |= 0x80;
                break;
            }
        },
        "b_coordinate_not_below_p" => {
            // x.c1 (after the flags) or x.c0 set to p.
            let at = b.start + G1_LEN * rng.random_range(0..2);
            let flags = bytes[at] & 0xe0;
            bytes[at..at + G1_LEN].copy_from_slice(&Fq::MODULUS.to_bytes_be());
            bytes[at] |= flags;
        }
        "a_not_in_subgroup" => {
            let p = point_outside::<ark_bls12_381::g1::Config>(rng, random_field);
            bytes[a].copy_from_slice(&compress(&p));
        }
        "b_not_in_subgroup" => {
            let q: G2Affine =
                point_outside::<ark_bls12_381::g2::Config>(rng, |r| Fq2::new(random_field(r), random_field(r)));
            bytes[b].copy_from_slice(&compress(&q));
        }
        "a_at_infinity" | "b_at_infinity" => {}
        "a_flag_uncompressed" => bytes[0] &= !0x80,
        _ => bytes.truncate(bytes.len() - SCALAR_LEN),
    }
}
