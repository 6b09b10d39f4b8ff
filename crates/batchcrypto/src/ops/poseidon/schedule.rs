//! The rounds of one width rewritten for the GPU kernel with fewer
//! multiplications, the same permutation (the Poseidon paper's
//! Appendix B, as circomlib's `poseidon_opt` and neptune run it), derived
//! here from `light-poseidon`'s constants and matrix in exact arithmetic:
//!
//! 1. A partial round's S-box touches the first element only, so its
//!    constants for the others pass through it unchanged and then through
//!    the matrix: M (0, c_1, ..., c_{t-1}) is added to the next round's
//!    constants instead, round after round, so that every partial round
//!    adds one constant and the first full round after them the rest.
//! 2. A partial round's matrix N factors as N = S D with D = diag(1, N')
//!    (N' its lower right (t-1)x(t-1) block) and S sparse:
//!    ((n_00, v N'^-1), (w, I)) for the first row's tail v and the first
//!    column's w. D leaves the first element alone, so it passes back
//!    through the previous partial round's constant and S-box, into that
//!    round's matrix: D M, which factors the same way, and so on to the
//!    last full round before them, whose matrix becomes D M. A partial
//!    round then costs 2t - 1 multiplications instead of t^2 (N' is
//!    invertible: every square submatrix of an MDS matrix is).
//!
//! [`permute`] runs the schedule on the host; the unit test holds it to
//! `light-poseidon` in every width.

use ark_bn254::Fr;
use ark_ff::{Field, Zero};
use light_poseidon::PoseidonParameters;

/// Full rounds before the partial ones (and after them).
pub(crate) const HALF_FULL: usize = 4;

/// One width's rounds in the kernel's form (see the module's docs).
pub(crate) struct Schedule {
    /// The width t.
    pub(crate) t: usize,
    /// Partial rounds.
    pub(crate) partial: usize,
    /// The full rounds' constants, t each: the four before the partial
    /// rounds, then the four after (the first of them with the partial
    /// rounds' folded in).
    pub(crate) full_constants: Vec<Fr>,
    /// One constant per partial round.
    pub(crate) partial_constants: Vec<Fr>,
    /// The full rounds' matrix, row by row.
    pub(crate) mds: Vec<Fr>,
    /// The last full round before the partial ones: its matrix times the
    /// first partial round's D, row by row.
    pub(crate) pre: Vec<Fr>,
    /// Per partial round its sparse matrix: n_00, then the first row's
    /// t - 1 others, then the first column's t - 1 others.
    pub(crate) sparse: Vec<Fr>,
}

/// A t x t matrix, row by row.
type Matrix = Vec<Vec<Fr>>;

fn mul_vec(m: &Matrix, v: &[Fr]) -> Vec<Fr> {
    m.iter()
        .map(|row| row.iter().zip(v).map(|(a, b)| *a * b).sum())
        .collect()
}

fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    let n = b.len();
    a.iter()
        .map(|row| {
            (0..n)
                .map(|j| row.iter().zip(b).map(|(x, r)| *x * r[j]).sum())
                .collect()
        })
        .collect()
}

/// The inverse of a square matrix by Gauss-Jordan elimination, or `None`
/// when it is singular.
fn inverse(m: &Matrix) -> Option<Matrix> {
    let n = m.len();
    let mut a: Matrix = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { Fr::from(1u64) } else { Fr::zero() }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).find(|&r| !a[r][col].is_zero())?;
        a.swap(col, pivot);
        let inv = a[col][col].inverse()?;
        for x in a[col].iter_mut() {
            *x *= inv;
        }
        for r in 0..n {
            if r != col && !a[r][col].is_zero() {
                let f = a[r][col];
                let pivot_row = a[col].clone();
                for (x, p) in a[r].iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

/// The schedule of `p`'s width, or why there is none (a singular block,
/// which an MDS matrix does not have).
pub(crate) fn schedule(p: &PoseidonParameters<Fr>) -> Result<Schedule, String> {
    let (t, partial) = (p.width, p.partial_rounds);
    let rounds = p.full_rounds + partial;
    if p.full_rounds != 2 * HALF_FULL || p.ark.len() != rounds * t || p.mds.len() != t || t < 2 {
        return Err(format!("unexpected Poseidon parameters for width {t}"));
    }
    let m: Matrix = p.mds.clone();
    let mut c: Vec<Vec<Fr>> = p.ark.chunks_exact(t).map(<[Fr]>::to_vec).collect();
    // 1. Each partial round's constants but the first to the next round.
    for r in HALF_FULL..HALF_FULL + partial {
        let mut tail = c[r].clone();
        tail[0] = Fr::zero();
        for x in c[r].iter_mut().skip(1) {
            *x = Fr::zero();
        }
        let moved = mul_vec(&m, &tail);
        for (x, y) in c[r + 1].iter_mut().zip(moved) {
            *x += y;
        }
    }
    // 2. From the last partial round back: N = S D, D into the round before.
    let mut sparse_rev = Vec::with_capacity(partial);
    let mut n = m.clone();
    for _ in 0..partial {
        let block: Matrix = n[1..].iter().map(|row| row[1..].to_vec()).collect();
        let inv = inverse(&block).ok_or_else(|| format!("a singular block in width {t}"))?;
        let v = &n[0][1..];
        let v_hat: Vec<Fr> = (0..t - 1).map(|k| (0..t - 1).map(|j| v[j] * inv[j][k]).sum()).collect();
        let mut s = vec![n[0][0]];
        s.extend(v_hat);
        s.extend(n[1..].iter().map(|row| row[0]));
        sparse_rev.push(s);
        // D = diag(1, block) times the round before's matrix.
        let mut d: Matrix = vec![vec![Fr::zero(); t]; t];
        d[0][0] = Fr::from(1u64);
        for i in 1..t {
            d[i][1..].copy_from_slice(&block[i - 1]);
        }
        n = mul(&d, &m);
    }
    let flat = |m: &Matrix| m.iter().flatten().copied().collect::<Vec<Fr>>();
    let full_constants = c[..HALF_FULL]
        .iter()
        .chain(&c[HALF_FULL + partial..])
        .flatten()
        .copied()
        .collect();
    Ok(Schedule {
        t,
        partial,
        full_constants,
        partial_constants: (HALF_FULL..HALF_FULL + partial).map(|r| c[r][0]).collect(),
        mds: flat(&m),
        pre: if partial == 0 { flat(&m) } else { flat(&n) },
        sparse: sparse_rev.into_iter().rev().flatten().collect(),
    })
}

/// The schedule run on `state` (t elements), as the kernel runs it.
#[cfg(test)]
pub(crate) fn permute(s: &Schedule, state: &mut [Fr]) {
    let t = s.t;
    let sbox = |x: Fr| x.square().square() * x;
    let full = |state: &mut [Fr], r: usize, matrix: &[Fr]| {
        for (j, x) in state.iter_mut().enumerate() {
            *x = sbox(*x + s.full_constants[r * t + j]);
        }
        let next: Vec<Fr> = matrix
            .chunks_exact(t)
            .map(|row| row.iter().zip(state.iter()).map(|(a, b)| *a * b).sum())
            .collect();
        state.copy_from_slice(&next);
    };
    for r in 0..HALF_FULL {
        full(state, r, if r == HALF_FULL - 1 { &s.pre } else { &s.mds });
    }
    for (k, sp) in s.sparse.chunks_exact(2 * t - 1).enumerate() {
        state[0] = sbox(state[0] + s.partial_constants[k]);
        let first = sp[0] * state[0] + sp[1..t].iter().zip(&state[1..]).map(|(a, b)| *a * b).sum::<Fr>();
        for j in 1..t {
            state[j] += sp[t - 1 + j] * state[0];
        }
        state[0] = first;
    }
    for r in HALF_FULL..2 * HALF_FULL {
        full(state, r, &s.mds);
    }
}

#[cfg(test)]
mod tests {
    use ark_ff::PrimeField;
    use light_poseidon::parameters::bn254_x5;
    use light_poseidon::{Poseidon, PoseidonHasher};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::ops::poseidon::MAX_INPUTS;

    /// In every width the schedule hashes as `light-poseidon` does, on
    /// random inputs, zeros and r - 1; and its partial rounds are sparse.
    #[test]
    fn the_schedule_is_the_permutation() {
        let mut rng = StdRng::seed_from_u64(458);
        for n in 1..=MAX_INPUTS {
            let p = bn254_x5::get_poseidon_parameters::<Fr>(n as u8 + 1).expect("parameters");
            let s = schedule(&p).expect("a schedule");
            assert_eq!(s.sparse.len(), s.partial * (2 * s.t - 1));
            assert_eq!(s.full_constants.len(), 2 * HALF_FULL * s.t);
            let mut hasher = Poseidon::<Fr>::new_circom(n).expect("a hasher");
            for k in 0..6 {
                let inputs: Vec<Fr> = (0..n)
                    .map(|_| match k {
                        0 => Fr::zero(),
                        1 => -Fr::from(1u64),
                        _ => Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>()),
                    })
                    .collect();
                let mut state = vec![Fr::zero()];
                state.extend(&inputs);
                permute(&s, &mut state);
                assert_eq!(state[0], hasher.hash(&inputs).expect("a hash"), "{n} inputs, case {k}");
            }
        }
    }

    #[test]
    fn singular_matrices_have_no_inverse() {
        let one = Fr::from(1u64);
        assert!(inverse(&vec![vec![one, one], vec![one, one]]).is_none());
        let m = vec![vec![Fr::from(2u64), one], vec![Fr::from(7u64), Fr::from(5u64)]];
        let inv = inverse(&m).expect("invertible");
        assert_eq!(mul(&m, &inv), vec![vec![one, Fr::zero()], vec![Fr::zero(), one]]);
    }
}
