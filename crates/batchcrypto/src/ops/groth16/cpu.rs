//! The CPU path on both curves: every item decoded on all cores with the
//! operation's documented checks ([`super::decode`] on BN254,
//! [`super::bls12_381`]'s on BLS12-381), then the decoded items decided by random
//! linear combinations of their equations with bisection
//! ([`bisect::decide`]: chunks sized by the invalid share seen so far), a
//! single item by `ark-groth16`'s own verifier. Not
//! [`bisect::decide_large_first`]: its first large sets would save about
//! a tenth on honest batches (7.2x the one-thread oracle at 2,048 items
//! against 6.1x on 2 threads) but cost hostile ones a fifth of a single
//! check per item (a quarter hostile: 1.63x against 1.92x, where item by
//! item on both threads is 2x), past the 1.1x of item-by-item cost the
//! strategy promises (figures on BN254).
//!
//! Why a combination's answer is the single verifier's. Item i holds iff
//! D_i = e(A_i, B_i) · e(vk_x_i, -gamma) · e(C_i, -delta) · e(alpha, -beta)
//! is one, vk_x_i = IC_0 + sum_j x_ij IC_j. Every point is in its group of
//! prime order r (checked by the decoding: on BN254 G1's cofactor is 1 and
//! B_i is checked in G2's subgroup; on BLS12-381 A_i, B_i and C_i are
//! checked), so every D_i lies in the order-r subgroup of GT. The
//! combination with coefficients z_i is, by bilinearity,
//!
//! prod e(z_i A_i, B_i) · e(sum z_i vk_x_i, -gamma) · e(sum z_i C_i,
//! -delta) · e((sum z_i) alpha, -beta) = prod D_i^{z_i},
//!
//! one multi-Miller loop of k + 3 pairs and one final exponentiation for k
//! items (sum z_i vk_x_i is one multi-scalar multiplication over the key's
//! IC points with the scalars sum z_i and sum z_i x_ij). If every D_i is
//! one, it is one. If some D_j is not, D_j has order r, and for any other
//! values at most one z_j mod r makes the product one: with z_j drawn
//! uniformly from [0, 2^128) (r > 2^253 on both curves) that happens with probability at
//! most 2^-128. A failing combination is split down to single
//! verification, so every item it holds is decided by a smaller
//! combination or by `ark-groth16`.

use ark_ec::pairing::Pairing;
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::Zero;
use rand::RngExt;

use super::{Decoded, Prepared};
use crate::batch::FlatBytes;
use crate::bisect::{self, Checker, Cost};
use crate::cores;
use crate::verdict::{self, Reason, Verdict};

/// Costs of a combination in single verifications (`ark-groth16`'s: three
/// Miller loops and a final exponentiation, 1.10 ms with four public
/// inputs), medians on one thread of the 2-vCPU EPYC development VM: 1.40
/// at 2 items, 1.95 at 4, 2.85 at 8, 4.11 at 16, 6.88 at 32, 11.0 at 64,
/// 20.2 at 128, 42.0 at 256 (a Miller loop and B's line coefficients per
/// item, the sums' multi-scalar multiplications; the linear model
/// overestimates large sets a little).
pub(crate) const BATCH_COST: Cost = Cost {
    fixed: 1.0,
    per_item: 0.18,
    max_chunk: 128,
    leaf: 2,
};

/// One verdict per item of `items` under `vk`, each decoded by `decode`
/// (every check before the equation; a failure is the item's reason),
/// equal to the operation's oracle's. `cost` is the combination's cost
/// on the curve ([`BATCH_COST`] on BN254).
pub(crate) fn verify<E: Pairing>(
    vk: &Prepared<E>,
    items: &FlatBytes,
    decode: impl Fn(&[u8]) -> Result<Decoded<E>, Reason> + Sync,
    cost: Cost,
) -> Vec<Verdict> {
    let decoded = cores::map_range(0..items.len(), 8, |i| decode(items.get(i)));
    let proofs = Proofs {
        vk,
        items: decoded.iter().filter_map(|d| d.as_ref().ok()).collect(),
    };
    let all: Vec<usize> = (0..proofs.items.len()).collect();
    let holds = bisect::decide(&proofs, &all, cost);
    verdict::decoded_then_decided(&decoded, &holds)
}

/// Decoded items under one key, as [`crate::bisect`] checks them.
struct Proofs<'a, E: Pairing> {
    vk: &'a Prepared<E>,
    items: Vec<&'a Decoded<E>>,
}

impl<E: Pairing> Checker for Proofs<'_, E> {
    /// `ark-groth16`'s verification of the item.
    fn one(&self, i: usize) -> bool {
        self.vk.verify(self.items[i])
    }

    /// The combination of the items' equations with fresh 128-bit
    /// coefficients (see the module's docs).
    fn all(&self, items: &[usize]) -> bool {
        combined(self.vk, items.iter().map(|&i| self.items[i]), || {
            E::ScalarField::from(rand::rng().random::<u128>())
        })
    }
}

/// Whether the combination of `items`' equations with the coefficients
/// `coefficient` draws is one.
fn combined<'a, E: Pairing>(
    vk: &Prepared<E>,
    items: impl ExactSizeIterator<Item = &'a Decoded<E>>,
    mut coefficient: impl FnMut() -> E::ScalarField,
) -> bool {
    let key = &vk.prepared.vk;
    let k = items.len();
    // The IC points' scalars: sum z_i, then sum z_i x_ij per input.
    let mut ic_scalars = vec![E::ScalarField::zero(); key.gamma_abc_g1.len()];
    let (mut cs, mut zs) = (Vec::with_capacity(k), Vec::with_capacity(k));
    let mut g1 = Vec::with_capacity(k + 3);
    let mut g2 = Vec::with_capacity(k + 3);
    for d in items {
        let z = coefficient();
        ic_scalars[0] += z;
        for (s, x) in ic_scalars[1..].iter_mut().zip(&d.inputs) {
            *s += z * x;
        }
        g1.push(d.a * z);
        g2.push(E::G2Prepared::from(d.b));
        cs.push(d.c);
        zs.push(z);
    }
    g1.push(E::G1::msm_unchecked(&key.gamma_abc_g1, &ic_scalars));
    g2.push(vk.prepared.gamma_g2_neg_pc.clone());
    g1.push(E::G1::msm_unchecked(&cs, &zs));
    g2.push(vk.prepared.delta_g2_neg_pc.clone());
    g1.push(key.alpha_g1 * ic_scalars[0]);
    g2.push(vk.neg_beta.clone());
    let g1: Vec<E::G1Affine> = E::G1::normalize_batch(&g1);
    let product = E::multi_miller_loop(g1, g2);
    E::final_exponentiation(product).is_some_and(|p| p.is_zero())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::groth16::{VerifyingKey, decode, sample};
    use ark_bn254::Fr;

    /// The combination itself (the tests elsewhere would pass with a
    /// combination that always fails, single verification deciding every
    /// item): it holds for sets of valid proofs, whatever the
    /// coefficients (zero and one among them), and fails once one proof
    /// of the set is wrong, wherever it is.
    #[test]
    fn the_combination_holds_exactly_for_valid_sets() {
        let made = sample::generate(3, 24, 0.0, 5);
        let vk = VerifyingKey::from_bytes(&made.vk).expect("the sample's key");
        let decoded: Vec<Decoded<_>> = made
            .items
            .iter()
            .map(|it| decode(&vk, &it.bytes).expect("an honest item"))
            .collect();
        let mut n = 0u64;
        let mut draws = || {
            n += 1;
            Fr::from(n % 5)
        };
        assert!(combined(&vk.key, decoded.iter(), &mut draws), "24 valid proofs");
        assert!(combined(&vk.key, decoded[..1].iter(), &mut draws), "one");
        for bad in [0, 11, 23] {
            let mut wrong = decoded.clone();
            wrong[bad].inputs[0] += Fr::from(1u64);
            let proofs = Proofs {
                vk: &vk.key,
                items: wrong.iter().collect(),
            };
            let all: Vec<usize> = (0..wrong.len()).collect();
            assert!(!proofs.all(&all), "a wrong input at {bad}");
            assert!(!proofs.one(bad) && proofs.one((bad + 1) % 24));
        }
    }
}
