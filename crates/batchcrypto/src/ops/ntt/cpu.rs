//! The CPU path: every polynomial of the batch in parallel on the engine's
//! pool (whose FFT also splits one large polynomial over the pool;
//! `tfhe-ntt` runs one on one core). The negacyclic transforms are the
//! oracle's code; the cyclic ones run the oracle's `ark-poly` domain on
//! the canonical integers taken as arkworks' Montgomery representations
//! ([`Montgomery`]): no conversion in or out.

use ark_ff::fields::{Fp, MontBackend, MontConfig};
use ark_ff::{BigInt, FftField, PrimeField};

use super::fields::Goldilocks;
use super::{Field, PolyResult, Transform, oracle};
use crate::cores;

/// Every polynomial of `polys` (a whole number of them, checked by
/// `Transform::polys_in`), in order.
pub(crate) fn run(t: &Transform, polys: &[u8]) -> Vec<PolyResult> {
    fn each<F: Montgomery>(t: &Transform, polys: &[u8]) -> Vec<PolyResult> {
        cores::map_chunks_exact(polys, t.poly_bytes(), |poly| montgomery::<F>(t, poly))
    }
    match t.field {
        Field::Bn254Fr => each::<ark_bn254::Fr>(t, polys),
        Field::Bls12381Fr => each::<ark_bls12_381::Fr>(t, polys),
        Field::Goldilocks => each::<Goldilocks>(t, polys),
        Field::GoldilocksNegacyclic | Field::Prime64Negacyclic => {
            // One plan for the batch.
            let plan = oracle::tfhe_plan(t);
            cores::map_chunks_exact(polys, t.poly_bytes(), |poly| oracle::negacyclic_with(&plan, t, poly))
        }
    }
}

/// An arkworks Montgomery field element read from and written to its
/// internal representation x R mod p directly.
trait Montgomery: FftField + PrimeField {
    /// The element whose representation is `repr` (below p: checked).
    fn from_repr(repr: &[u8]) -> Option<Self>;
    /// Its representation's bytes.
    fn repr_into(&self, out: &mut [u8]);
}

impl<T: MontConfig<N>, const N: usize> Montgomery for Fp<MontBackend<T, N>, N> {
    fn from_repr(repr: &[u8]) -> Option<Self> {
        let mut x = BigInt::<N>::zero();
        (oracle::read_limbs(&mut x.0, repr) && x < T::MODULUS).then(|| Fp::new_unchecked(x))
    }

    fn repr_into(&self, out: &mut [u8]) {
        oracle::write_limbs(&self.0.0, out);
    }
}

/// The cyclic transform `t` of one polynomial: each canonical integer a
/// taken as the representation of a R^-1, the transform (linear, its
/// twiddles and shift proper elements) maps those to y R^-1 where y is
/// the transform of a, whose representation is y's canonical integer.
/// Byte for byte the oracle's answer without two Montgomery conversions
/// per element.
fn montgomery<F: Montgomery>(t: &Transform, poly: &[u8]) -> PolyResult {
    let len = t.field.element_len();
    let mut v = oracle::decode_all(poly, len, F::from_repr)?;
    oracle::transform_elements(t, &mut v);
    Ok(oracle::encode_all(&v, len, F::repr_into))
}
