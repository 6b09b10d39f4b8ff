//! The equation that decides a set of cells (the consensus specs'
//! `verify_cell_kzg_proof_batch_impl`, polynomial commitments sampling,
//! EIP-7594), given a weight r_k per cell: the scalars of its two sums,
//! for a device to compute the sums and the pairings.
//!
//! Cell k of index i holds the values of its blob's polynomial on the coset
//! h_i H, H the 64th roots of unity, element j at h_i w^brp6(j) (the
//! extended blob's evaluations are in bit-reversed order: position 64 i + j
//! is w_8192^(128 brp6(j) + brp7(i))), so h_i = w_8192^brp7(i). Its proof
//! pi_k is [q_k(τ)] with q_k = (p - I_k) / (X^64 - h_i^64), I_k the
//! polynomial of degree below 64 through the cell's values. With weights
//! r_k, the cells hold (all but with probability 2^-64 for a set of more
//! than one, the weights fresh 64-bit random numbers) when
//!
//! e(RL, G2) e(LL, -[τ^64]G2) = 1, where
//! LL = sum_k r_k pi_k,
//! RL = sum_C (sum_{k of C} r_k) C - [sum_k r_k I_k(τ)]G1 + sum_k r_k h_k^64 pi_k.
//!
//! The interpolation is summed per column before it is computed, as the
//! specs suggest: per index, the weighted sum of its cells' values, one
//! inverse FFT of 64 points (arkworks' radix-2 domain), its coefficients
//! scaled by h_i^-j; [sum_k r_k I_k(τ)] is then one sum over the 64 points
//! [τ^j]G1 of the setup ([`super::setup`]). With one cell and r = 1 it is
//! c-kzg's check of that cell alone.

use std::collections::HashMap;
use std::sync::OnceLock;

use ark_bls12_381::Fr;
use ark_ff::{FftField, Field, One, PrimeField, Zero};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};

use super::{CELL_ELEMENTS, CELLS_PER_EXT_BLOB, CellItem, POINT_LEN};

/// A point of a set's sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base {
    /// The commitment of the set's cell k (the first of its cells with
    /// that commitment).
    Commitment(usize),
    /// The proof of the set's cell k.
    Proof(usize),
    /// [τ^j]G1 of the setup.
    Setup(usize),
}

/// The two sums of a set's equation, as terms (point, scalar).
#[derive(Debug, Default)]
pub(crate) struct Equation {
    /// RL, paired with G2.
    pub(crate) rl: Vec<(Base, Fr)>,
    /// LL, paired with -[τ^64]G2.
    pub(crate) ll: Vec<(Base, Fr)>,
}

/// A cell index's coset: h^64 and h^-j for j < 64.
struct Coset {
    shift_pow: Fr,
    inverse_powers: Vec<Fr>,
}

/// `x`'s lowest `bits` bits reversed.
fn reverse_bits(x: usize, bits: u32) -> usize {
    x.reverse_bits() >> (usize::BITS - bits)
}

/// Every index's coset.
fn cosets() -> &'static [Coset] {
    static COSETS: OnceLock<Vec<Coset>> = OnceLock::new();
    COSETS.get_or_init(|| {
        let cells = CELLS_PER_EXT_BLOB as usize;
        let w = Fr::get_root_of_unity((cells * CELL_ELEMENTS) as u64).expect("r - 1 is divisible by 2^13");
        (0..cells)
            .map(|i| {
                let h = w.pow([reverse_bits(i, cells.trailing_zeros()) as u64]);
                let h_inv = h.inverse().expect("a root of unity is not zero");
                let inverse_powers = std::iter::successors(Some(Fr::one()), |p| Some(*p * h_inv))
                    .take(CELL_ELEMENTS)
                    .collect();
                Coset {
                    shift_pow: h.pow([CELL_ELEMENTS as u64]),
                    inverse_powers,
                }
            })
            .collect()
    })
}

/// The equation of `set` (cells whose index, points and elements passed
/// their checks: an index of 128 or more would be out of the cosets'
/// bounds) weighed by `weights`, one per cell.
pub(crate) fn equation(set: &[&CellItem], weights: &[Fr]) -> Equation {
    let cosets = cosets();
    let mut eq = Equation::default();
    // Per index, the weighted sum of its cells' values; per commitment,
    // its first cell and the sum of its cells' weights.
    let mut columns: Vec<Option<Vec<Fr>>> = vec![None; cosets.len()];
    let mut commitments: HashMap<&[u8; POINT_LEN], usize> = HashMap::new();
    let mut commitment_terms: Vec<(Base, Fr)> = Vec::new();
    for (k, (cell, &r)) in set.iter().zip(weights).enumerate() {
        let index = cell.index as usize;
        let column = columns[index].get_or_insert_with(|| vec![Fr::zero(); CELL_ELEMENTS]);
        for (sum, element) in column.iter_mut().zip(cell.cell.chunks_exact(32)) {
            let e = Fr::from_be_bytes_mod_order(element);
            *sum += if r.is_one() { e } else { e * r };
        }
        let next = commitment_terms.len();
        let at = *commitments.entry(&cell.commitment).or_insert(next);
        if at == next {
            commitment_terms.push((Base::Commitment(k), Fr::zero()));
        }
        commitment_terms[at].1 += r;
        eq.rl.push((Base::Proof(k), r * cosets[index].shift_pow));
        eq.ll.push((Base::Proof(k), r));
    }
    let domain = Radix2EvaluationDomain::<Fr>::new(CELL_ELEMENTS).expect("a domain of 64 points");
    let mut interpolation = vec![Fr::zero(); CELL_ELEMENTS];
    for (coset, column) in cosets.iter().zip(&columns) {
        let Some(values) = column else { continue };
        // The values in the domain's natural order, then its polynomial
        // q(X) = I(hX); I's coefficient j is q's times h^-j.
        let mut natural = vec![Fr::zero(); CELL_ELEMENTS];
        for (j, v) in values.iter().enumerate() {
            natural[reverse_bits(j, CELL_ELEMENTS.trailing_zeros())] = *v;
        }
        domain.ifft_in_place(&mut natural);
        for ((sum, q), s) in interpolation.iter_mut().zip(&natural).zip(&coset.inverse_powers) {
            *sum += *q * s;
        }
    }
    eq.rl.extend(commitment_terms);
    eq.rl
        .extend(interpolation.into_iter().enumerate().map(|(j, a)| (Base::Setup(j), -a)));
    eq
}

#[cfg(test)]
mod tests {
    use ark_bls12_381::{Bls12_381, G1Affine, G1Projective, G2Affine};
    use ark_ec::pairing::Pairing;
    use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
    use ark_ff::BigInteger;
    use ark_serialize::CanonicalDeserialize;

    use super::super::{sample, setup};
    use super::*;

    fn g1(bytes: &[u8]) -> G1Affine {
        G1Affine::deserialize_compressed(bytes).expect("a point of G1")
    }

    fn g2(bytes: &[u8]) -> G2Affine {
        G2Affine::deserialize_compressed(bytes).expect("a point of G2")
    }

    /// The equation decided by arkworks on the CPU.
    fn holds(set: &[&CellItem], weights: &[Fr]) -> bool {
        let eq = equation(set, weights);
        let setup = setup::g1_monomial();
        let point = |b: &Base| match *b {
            Base::Commitment(k) => g1(&set[k].commitment),
            Base::Proof(k) => g1(&set[k].proof),
            Base::Setup(j) => setup[j],
        };
        let sum = |terms: &[(Base, Fr)]| -> G1Affine {
            let (points, scalars): (Vec<G1Affine>, Vec<Fr>) = terms.iter().map(|(b, s)| (point(b), *s)).unzip();
            G1Projective::msm(&points, &scalars)
                .expect("as many scalars as points")
                .into_affine()
        };
        let tau_pow = g2(&setup::bytes(setup::G2_TAU_POW_CELL));
        let product = Bls12_381::multi_pairing(
            [sum(&eq.rl), sum(&eq.ll)],
            [G2Affine::generator(), (-tau_pow.into_group()).into_affine()],
        );
        product.is_zero()
    }

    /// Each setup point is the next power of τ: e([τ^j]G1, G2) =
    /// e([τ^(j-1)]G1, [τ]G2) from G1's generator, and e(G1, [τ^64]G2) =
    /// e([τ^63]G1, [τ]G2), [τ]G2 being the one the point evaluation uses.
    #[test]
    fn chain_of_powers() {
        let setup = setup::g1_monomial();
        assert_eq!(setup.len(), 4096);
        assert_eq!(setup[0], G1Affine::generator());
        assert!(
            setup
                .iter()
                .all(|p| p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve())
        );
        let tau = g2(&crate::ops::evm::kzg::TAU_G2);
        for j in 1..CELL_ELEMENTS {
            let a = Bls12_381::pairing(setup[j], G2Affine::generator());
            assert_eq!(a, Bls12_381::pairing(setup[j - 1], tau), "[τ^{j}]G1");
        }
        let tau_pow = g2(&setup::bytes(setup::G2_TAU_POW_CELL));
        assert_eq!(
            Bls12_381::pairing(G1Affine::generator(), tau_pow),
            Bls12_381::pairing(setup[63], tau),
            "[τ^64]G2"
        );
        // Every point the next power of τ at once: e(sum ρ_j [τ^(j+1)]G1,
        // G2) = e(sum ρ_j [τ^j]G1, [τ]G2) for weights ρ_j no point was
        // chosen against.
        let weights: Vec<Fr> = (0..setup.len() as u64 - 1)
            .map(|j| Fr::from(j.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1))
            .collect();
        let next = G1Projective::msm(&setup[1..], &weights).expect("as many");
        let this = G1Projective::msm(&setup[..setup.len() - 1], &weights).expect("as many");
        assert_eq!(
            Bls12_381::pairing(next, G2Affine::generator()),
            Bls12_381::pairing(this, tau),
            "[τ^j]G1, j < 4,096"
        );
    }

    /// The domain's generator is the cosets' w^128: both from arkworks'
    /// 2^32nd root, 7^((r - 1) / 2^32) as c-kzg's roots.
    #[test]
    fn domain_is_the_cosets_subgroup() {
        let w = Fr::get_root_of_unity(8192).expect("root");
        let domain = Radix2EvaluationDomain::<Fr>::new(CELL_ELEMENTS).expect("domain");
        assert_eq!(domain.group_gen, w.pow([128]));
        // (r - 1) / 2^13
        let mut e = Fr::MODULUS;
        e.sub_with_borrow(&1u64.into());
        e >>= 13;
        assert_eq!(Fr::from(7u64).pow(e), w, "c-kzg's root");
    }

    /// c-kzg's cells hold alone (weight one) and in sets with random
    /// weights, also across blobs and the zero blob; a changed value, a
    /// swapped index or another blob's proof fails the set it is in.
    #[test]
    fn c_kzg_cells_hold() {
        let cells: Vec<CellItem> = (0..3).flat_map(|b| sample::blob_cells(b, 5)).collect();
        let one = [Fr::one()];
        for k in [0, 1, 77, 127, 128, 200, 383] {
            assert!(holds(&[&cells[k]], &one), "cell {k} alone");
        }
        let weights: Vec<Fr> = (0..cells.len() as u64).map(|k| Fr::from(k * 7919 + 3)).collect();
        let all: Vec<&CellItem> = cells.iter().collect();
        assert!(holds(&all, &weights), "every cell");
        let mut wrong = cells[300].clone();
        wrong.cell[64] ^= 1;
        let mut set = all.clone();
        set[300] = &wrong;
        assert!(!holds(&set, &weights), "a changed value");
        let moved = CellItem {
            index: 5,
            ..cells[4].clone()
        };
        assert!(!holds(&[&moved], &one), "another index");
        let other_proof = CellItem {
            proof: cells[4 + 128].proof,
            ..cells[4].clone()
        };
        assert!(
            !holds(&[&other_proof, &cells[9]], &weights[..2]),
            "another blob's proof"
        );
    }
}
