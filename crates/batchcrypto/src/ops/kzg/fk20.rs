//! A blob's commitment and 128 cell proofs as sums of fixed points, for a
//! device to add up: FK20 (Feist and Khovratovich, "Fast amortized KZG
//! proofs", eprint 2023/033) exactly as c-kzg-4844 computes the proofs
//! (`compute_fk20_cell_proofs`, `init_fk20_multi_settings`), its field
//! transforms on the host, its group transforms folded into the sums.
//!
//! The blob's polynomial p has the 4,096 coefficients of the inverse FFT of
//! the blob's values in bit-reversed order ([`monomial`]). For each offset
//! i < 64, the circulant vector c_i (128 scalars: p_{4095-i} at 0, and
//! p_{4095-i-64j} at 128 - j for j = 1 to 62, zeros elsewhere) and its FFT
//! w_i; the setup gives the columns X_j,i, the FFT of 128 points
//! ([τ^{4031-i-64k}]G1 for k < 63, then the identity) made once
//! ([`columns`]). Then, ω a primitive 128th root of unity:
//!
//! - stage A: u_j = sum_{i<64} (w_i[j] / 128) X_j,i, 128 sums of 64 terms;
//! - stage B: c-kzg takes the inverse FFT of u (unscaled: the 1/128 is in
//!   stage A's scalars), zeroes its upper half and takes the FFT, which is
//!   one linear map: out_k = sum_j g_{(k-j) mod 128} u_j with g_d =
//!   sum_{m<64} ω^{dm} (64 for d = 0, 0 for other even d, 2 / (1 - ω^d)
//!   for odd d: 65 terms a sum, [`circulant_weights`]);
//! - the proof of cell x is out_{brp7(x)}.
//!
//! The commitment is [p(τ)]G1 = sum_j p_j [τ^j]G1 over the setup's 4,096
//! points in monomial form (c-kzg sums the Lagrange form: the same point).

use std::sync::OnceLock;

use ark_bls12_381::{Fr, G1Affine, G1Projective};
use ark_ec::CurveGroup;
use ark_ff::{BigInteger, FftField, Field, PrimeField, Zero};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use rayon::prelude::*;

use super::setup;
use super::{BLOB_LEN, CELL_ELEMENTS, CELL_LEN, CELLS_PER_EXT_BLOB, RecoverItem, below_r};

/// FIELD_ELEMENTS_PER_BLOB.
pub(crate) const BLOB_ELEMENTS: usize = BLOB_LEN / 32;
/// The circulant's size, 2 x CELLS_PER_BLOB: the stage A and B sums of a
/// blob (and the extended blob's cells, CELLS_PER_EXT_BLOB).
pub(crate) const CIRCULANT: usize = 2 * (BLOB_ELEMENTS / CELL_ELEMENTS);

const _: () = assert!(CIRCULANT == CELLS_PER_EXT_BLOB as usize);

/// `x`'s lowest `bits` bits reversed.
fn reverse_bits(x: usize, bits: u32) -> usize {
    x.reverse_bits() >> (usize::BITS - bits)
}

/// The radix-2 domain of `n` points (its generator the scalar field's
/// 2-adic root of unity's power, as c-kzg's roots: `7^((r - 1) / n)`).
fn domain(n: usize) -> Radix2EvaluationDomain<Fr> {
    Radix2EvaluationDomain::new(n).expect("r - 1 is divisible by 2^32")
}

/// The coefficients of a blob's polynomial (`poly_lagrange_to_monomial`
/// of `blob_to_polynomial`), or `None` for a blob with an element not
/// below r.
pub(crate) fn monomial(blob: &[u8; BLOB_LEN]) -> Option<Vec<Fr>> {
    let bits = BLOB_ELEMENTS.trailing_zeros();
    let elements: Vec<&[u8]> = blob.chunks_exact(32).collect();
    if !elements.iter().all(|e| below_r(e)) {
        return None;
    }
    let values: Vec<Fr> = (0..BLOB_ELEMENTS)
        .map(|k| Fr::from_be_bytes_mod_order(elements[reverse_bits(k, bits)]))
        .collect();
    Some(domain(BLOB_ELEMENTS).ifft(&values))
}

/// Stage A's scalars of a polynomial: row j holds the 64 scalars of u_j,
/// w_i[j] / 128 for offsets i < 64.
pub(crate) fn stage_a_scalars(poly: &[Fr]) -> Vec<[Fr; CELL_ELEMENTS]> {
    let d = BLOB_ELEMENTS - 1;
    let rows = CIRCULANT / 2;
    let fft = domain(CIRCULANT);
    let scale = Fr::from(CIRCULANT as u64).inverse().expect("128 is not zero");
    let mut out = vec![[Fr::zero(); CELL_ELEMENTS]; CIRCULANT];
    for i in 0..CELL_ELEMENTS {
        let mut c = vec![Fr::zero(); CIRCULANT];
        c[0] = poly[d - i];
        for j in 1..rows - 1 {
            c[CIRCULANT - j] = poly[d - i - j * CELL_ELEMENTS];
        }
        for (row, w) in out.iter_mut().zip(fft.fft(&c)) {
            row[i] = w * scale;
        }
    }
    out
}

/// The setup's columns X_j,i (row j, offset i), made on the host's cores
/// on first use (64 FFTs of 128 points of G1).
pub(crate) fn columns() -> &'static [Vec<G1Affine>] {
    static COLUMNS: OnceLock<Vec<Vec<G1Affine>>> = OnceLock::new();
    COLUMNS.get_or_init(|| {
        let s = setup::g1_monomial();
        let rows = CIRCULANT / 2;
        let fft = domain(CIRCULANT);
        let by_offset: Vec<Vec<G1Affine>> = (0..CELL_ELEMENTS)
            .into_par_iter()
            .map(|i| {
                let start = BLOB_ELEMENTS - CELL_ELEMENTS - 1 - i;
                let mut x = vec![G1Projective::zero(); CIRCULANT];
                for (k, p) in x.iter_mut().enumerate().take(rows - 1) {
                    *p = s[start - k * CELL_ELEMENTS].into();
                }
                G1Projective::normalize_batch(&fft.fft(&x))
            })
            .collect();
        (0..CIRCULANT)
            .map(|j| by_offset.iter().map(|points| points[j]).collect())
            .collect()
    })
}

/// Stage B's weights g_d, d < 128.
pub(crate) fn circulant_weights() -> &'static [Fr] {
    static WEIGHTS: OnceLock<Vec<Fr>> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        let w = Fr::get_root_of_unity(CIRCULANT as u64).expect("r - 1 is divisible by 2^32");
        (0..CIRCULANT)
            .map(|d| {
                let step = w.pow([d as u64]);
                std::iter::successors(Some(Fr::ONE), |p| Some(*p * step))
                    .take(CIRCULANT / 2)
                    .sum()
            })
            .collect()
    })
}

/// Where the proof of each cell index is among stage B's sums: out_{brp7(x)}.
pub(crate) fn proof_position(cell: usize) -> usize {
    reverse_bits(cell, CIRCULANT.trailing_zeros())
}

/// The multiplicative generator of the scalar field, the shift of
/// c-kzg's recovery coset (`RECOVERY_SHIFT_FACTOR`, the specs'
/// `PRIMITIVE_ROOT_OF_UNITY`).
const RECOVERY_SHIFT: u64 = 7;

/// `coeffs[i]` times `shift^i`.
fn shifted(coeffs: &mut [Fr], shift: Fr) {
    let mut power = Fr::ONE;
    for c in coeffs.iter_mut() {
        *c *= power;
        power *= shift;
    }
}

/// The 8,192 coefficients c-kzg's `recover_cells` finds for a recovery
/// that passed its checks (`super::recover_checks`): the specs'
/// `recover_polynomialcoeff`, step by step as c-kzg takes them (E the
/// given evaluations with zeros for the missing cells, Z the polynomial
/// vanishing on the missing cells' cosets; (E Z) / Z over the coset 7H,
/// back to coefficients). Every step is exact field arithmetic, so the
/// coefficients are c-kzg's whatever the cells, consistent or not. With
/// every cell given they are the inverse FFT of the cells (c-kzg copies
/// them and transforms them back for the proofs).
pub(crate) fn recover(item: &RecoverItem) -> Vec<Fr> {
    let n = BLOB_ELEMENTS * 2;
    let cells = CIRCULANT;
    let bits = n.trailing_zeros();
    let mut rbo = vec![Fr::zero(); n];
    for (&index, cell) in item.indices.iter().zip(&item.cells) {
        for (j, e) in cell.chunks_exact(32).enumerate() {
            rbo[index as usize * CELL_ELEMENTS + j] = Fr::from_be_bytes_mod_order(e);
        }
    }
    let evals: Vec<Fr> = (0..n).map(|k| rbo[reverse_bits(k, bits)]).collect();
    let fft = domain(n);
    let missing: Vec<usize> = (0..cells)
        .filter(|i| !item.indices.contains(&(*i as u64)))
        .map(|i| reverse_bits(i, cells.trailing_zeros()))
        .collect();
    if missing.is_empty() {
        return fft.ifft(&evals);
    }
    // Z(x) = prod (x^64 - w_128^m) over the missing cells m.
    let w = Fr::get_root_of_unity(cells as u64).expect("r - 1 is divisible by 2^32");
    let mut short = vec![Fr::ONE];
    for &m in &missing {
        let root = w.pow([m as u64]);
        let mut next = vec![Fr::zero(); short.len() + 1];
        for (k, c) in short.iter().enumerate() {
            next[k + 1] += c;
            next[k] -= *c * root;
        }
        short = next;
    }
    let mut z = vec![Fr::zero(); n];
    for (k, c) in short.into_iter().enumerate() {
        z[k * CELL_ELEMENTS] = c;
    }
    let z_evals = fft.fft(&z);
    let times_zero: Vec<Fr> = evals.iter().zip(&z_evals).map(|(e, z)| *e * z).collect();
    let mut ez = fft.ifft(&times_zero);
    let shift = Fr::from(RECOVERY_SHIFT);
    shifted(&mut ez, shift);
    shifted(&mut z, shift);
    let (ez, mut z) = (fft.fft(&ez), fft.fft(&z));
    // Z has no root on the coset 7H: every value has an inverse.
    ark_ff::batch_inversion(&mut z);
    let quotient: Vec<Fr> = ez.iter().zip(&z).map(|(a, b)| *a * b).collect();
    let mut coeffs = fft.ifft(&quotient);
    shifted(&mut coeffs, shift.inverse().expect("7 is not zero"));
    coeffs
}

/// The 128 cells of 8,192 coefficients: their FFT in bit-reversed order,
/// 32 bytes big-endian an element (c-kzg's recovered cells).
pub(crate) fn cells_of(coeffs: &[Fr]) -> Vec<[u8; CELL_LEN]> {
    let bits = coeffs.len().trailing_zeros();
    let evals = domain(coeffs.len()).fft(coeffs);
    (0..CIRCULANT)
        .map(|i| {
            let mut cell = [0u8; CELL_LEN];
            for (j, e) in cell.chunks_exact_mut(32).enumerate() {
                let k = reverse_bits(i * CELL_ELEMENTS + j, bits);
                e.copy_from_slice(&evals[k].into_bigint().to_bytes_be());
            }
            cell
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use ark_ec::VariableBaseMSM;
    use ark_serialize::CanonicalSerialize;

    use super::*;
    use crate::ops::kzg::{sample, settings};

    fn compressed(p: G1Projective) -> [u8; 48] {
        let mut out = [0u8; 48];
        p.into_affine().serialize_compressed(&mut out[..]).expect("48 bytes");
        out
    }

    /// The proofs of a polynomial's first 4,096 coefficients by the stages
    /// on the host (arkworks' sums), cell by cell.
    fn host_proofs(poly: &[Fr]) -> Vec<[u8; 48]> {
        let weights = circulant_weights();
        let scalars = stage_a_scalars(poly);
        let u: Vec<G1Projective> = (0..CIRCULANT)
            .map(|j| G1Projective::msm(&columns()[j], &scalars[j]).expect("64 terms"))
            .collect();
        let u = G1Projective::normalize_batch(&u);
        let out: Vec<G1Projective> = (0..CIRCULANT)
            .map(|k| {
                let g: Vec<Fr> = (0..CIRCULANT)
                    .map(|j| weights[(k + CIRCULANT - j) % CIRCULANT])
                    .collect();
                G1Projective::msm(&u, &g).expect("128 terms")
            })
            .collect();
        (0..CIRCULANT).map(|x| compressed(out[proof_position(x)])).collect()
    }

    /// The stages on the host (arkworks' sums) give c-kzg's commitment and
    /// proofs, byte for byte, for a random blob, the zero blob and a blob
    /// of r - 1.
    #[test]
    fn stages_are_c_kzg_s_proofs() {
        let weights = circulant_weights();
        assert_eq!(weights[0], Fr::from(64u64));
        assert!((2..CIRCULANT).step_by(2).all(|d| weights[d].is_zero()));
        let blobs = sample::blobs_range(0..3, 0.0, 60);
        for (b, (blob, _)) in blobs.iter().enumerate() {
            let poly = monomial(blob).expect("canonical");
            let commitment = G1Projective::msm(setup::g1_monomial(), &poly).expect("4,096 terms");
            let proofs_here = host_proofs(&poly);
            let c_blob = c_kzg::Blob::new(**blob);
            let want_commitment = settings().blob_to_kzg_commitment(&c_blob).expect("commitment");
            assert_eq!(
                compressed(commitment),
                want_commitment.to_bytes().into_inner(),
                "blob {b}"
            );
            let (_, proofs) = settings().compute_cells_and_kzg_proofs(&c_blob).expect("proofs");
            for (x, proof) in proofs.iter().enumerate() {
                assert_eq!(proofs_here[x], proof.to_bytes().into_inner(), "blob {b}, cell {x}");
            }
        }
    }

    /// Recovery on the host gives c-kzg's recovered cells and proofs, byte
    /// for byte: honest recoveries of 64 to 128 cells, and cells of
    /// another blob mixed in (inconsistent, recovered all the same).
    #[test]
    fn recovery_is_c_kzg_s() {
        let made = sample::recover_range(0..16, 0.0, 61);
        let mut items: Vec<RecoverItem> = made.into_iter().map(|(item, _)| item).collect();
        let other = sample::blob_cells(9, 61);
        let mut rng = crate::ops::item_rng(61, 0);
        for item in items.iter_mut().skip(10) {
            sample::spoil_recovery(item, &other, "other_blob", &mut rng);
        }
        for (k, item) in items.iter().enumerate() {
            assert_eq!(crate::ops::kzg::recover_checks(item), Ok(()));
            let cells: Vec<c_kzg::Cell> = item.cells.iter().map(|c| c_kzg::Cell::new(*c)).collect();
            let (want_cells, want_proofs) = settings()
                .recover_cells_and_kzg_proofs(&item.indices, &cells)
                .expect("recovered");
            let coeffs = recover(item);
            let got = cells_of(&coeffs);
            for (x, cell) in want_cells.iter().enumerate() {
                assert!(
                    got[x] == cell.to_bytes(),
                    "item {k} ({} cells), cell {x}",
                    item.cells.len()
                );
            }
            let proofs = host_proofs(&coeffs[..BLOB_ELEMENTS]);
            for (x, proof) in want_proofs.iter().enumerate() {
                assert_eq!(proofs[x], proof.to_bytes().into_inner(), "item {k}, proof {x}");
            }
        }
    }
}
