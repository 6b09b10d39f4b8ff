//! NTTs (arkworks' radix-2 domains over BN254's and BLS12-381's scalar
//! fields and Goldilocks, `tfhe-ntt`'s negacyclic transforms over
//! Goldilocks and any 64-bit prime) and multi-scalar multiplications
//! (arkworks for BN254 G1, blst for BLS12-381 G1 and G2, points in either
//! encoding, with resident bases too) against the oracles.

use std::sync::OnceLock;

use arbitrary::Unstructured;
use batchcrypto::Engine;
use batchcrypto::ops::{msm, ntt};

use super::{Fields, answers, engine, same};

/// The largest polynomial (2^10) and the most polynomials per call.
const MAX_LOG_N: u32 = 10;
const POLYS: usize = 3;
/// Distinct points per curve, and the most terms of a sum.
const POINTS: usize = 6;
const TERMS: usize = 12;

/// Primes for the negacyclic transform over a caller's prime: 65537
/// (= 1 mod 2^16), the project's 62-bit prime, Goldilocks, one above 2^63
/// and Goldilocks (1 mod 2^25, the library's tests use it too), and
/// whatever the input says (mostly refused).
const PRIMES: [u64; 4] = [
    65_537,
    ntt::fields::PRIME62,
    ntt::fields::GOLDILOCKS_P,
    0xffff_ffff_8a00_0001,
];

/// One fuzz input on the fuzzers' CPU engine.
pub fn run(data: &[u8]) {
    check(engine(), data);
}

/// One fuzz input on `e`: an NTT or an MSM.
pub fn check(e: &Engine, data: &[u8]) {
    let mut u = Unstructured::new(data);
    if u.arbitrary().unwrap_or(false) {
        ntt_case(e, &mut u);
    } else {
        msm_case(e, &mut u);
    }
}

fn ntt_case(e: &Engine, u: &mut Unstructured<'_>) {
    let Ok(field) = u.choose(&ntt::Field::ALL).copied() else {
        return;
    };
    let mut t = ntt::Transform::new(field, u.int_in_range(0..=MAX_LOG_N).unwrap_or(1));
    if u.arbitrary().unwrap_or(false) {
        t.direction = ntt::Direction::Inverse;
    }
    for order in [&mut t.input_order, &mut t.output_order] {
        if u.arbitrary().unwrap_or(false) {
            *order = ntt::Order::BitReversed;
        }
    }
    let element = field.element_len();
    if u.ratio(1, 3).unwrap_or(false) {
        t.coset = Some(element_bytes(u, element));
    }
    if field == ntt::Field::Prime64Negacyclic || u.ratio(1, 16).unwrap_or(false) {
        t.modulus = Some(match u.choose(&PRIMES) {
            Ok(&p) if u.ratio(7, 8).unwrap_or(true) => p,
            _ => u.arbitrary().unwrap_or(0),
        });
    }
    let polys_n = u.int_in_range(0..=POLYS).unwrap_or(0);
    let poly_bytes = element << t.log_n.min(MAX_LOG_N);
    let polys: Vec<u8> = (0..polys_n * (poly_bytes / element))
        .flat_map(|_| element_bytes(u, element))
        .collect();
    match e.ntt(&t, &polys) {
        Ok(got) => {
            let got = answers(e, Ok(got));
            let want: Vec<ntt::PolyResult> = polys
                .chunks_exact(t.poly_bytes())
                .map(|p| ntt::oracle::transform(&t, p))
                .collect();
            same(&format!("ntt {t:?}"), &got, &want);
        }
        // Only a transform the field does not have is refused as a whole.
        Err(e) => assert!(t.polys_in(polys.len()).is_err(), "ntt {t:?} refused: {e}"),
    }
}

/// One element: the input's bytes, mostly with the top bits cleared so
/// that scalar-field elements are below the modulus more often than not.
fn element_bytes(u: &mut Unstructured<'_>, len: usize) -> Vec<u8> {
    let mut e = vec![0u8; len];
    let _partial = u.fill_buffer(&mut e);
    if len == 32 && u.ratio(3, 4).unwrap_or(true) {
        e[31] &= 0x0f;
    }
    e
}

fn msm_case(e: &Engine, u: &mut Unstructured<'_>) {
    let (Ok(&curve), Ok(&encoding)) = (u.choose(&msm::Curve::ALL), u.choose(&msm::Encoding::ALL)) else {
        return;
    };
    let pool = points(curve, encoding);
    let terms = u.int_in_range(0..=TERMS).unwrap_or(0);
    let picked: Vec<Vec<Vec<u8>>> = (0..terms)
        .map(|_| vec![pool[u.choose_index(pool.len()).unwrap_or(0)].clone()])
        .collect();
    // Points edited at their width: off the curve, outside the subgroup,
    // flags and infinity encodings.
    let picked = Fields {
        items: picked,
        fixed: &[true],
    }
    .edited(u, TERMS)
    .items;
    let points: Vec<u8> = picked.iter().flat_map(|p| p[0].iter().copied()).collect();
    let scalars: Vec<u8> = (0..picked.len()).flat_map(|_| element_bytes(u, 32)).collect();
    let want = msm::oracle::msm(curve, encoding, &points, &scalars);
    let got = answers(e, e.msm(curve, encoding, &points, &scalars));
    let what = format!("msm {curve} {encoding} of {} terms", picked.len());
    assert_eq!(got, want, "{what}");
    // Resident bases: the same sum, or the first bad point refused.
    match e.msm_bases(curve, encoding, &points) {
        Ok(bases) => {
            let again = answers(e, e.msm_with(&bases, &scalars));
            assert_eq!(Some(&again), want.as_ref().ok(), "{what} over resident bases");
        }
        Err(e) => assert!(want.is_err(), "{what}: bases refused ({e}) but the oracle summed them"),
    }
}

/// Valid points of `curve` in `encoding` and its identity, made once per
/// process (the library's samples, `msm::sample`).
fn points(curve: msm::Curve, encoding: msm::Encoding) -> Vec<Vec<u8>> {
    static CACHE: OnceLock<Vec<Vec<Vec<Vec<u8>>>>> = OnceLock::new();
    let all = CACHE.get_or_init(|| {
        msm::Curve::ALL
            .iter()
            .map(|&c| msm::Encoding::ALL.iter().map(|&e| generate(c, e)).collect())
            .collect()
    });
    let c = msm::Curve::ALL.iter().position(|&c| c == curve).unwrap_or(0);
    let e = msm::Encoding::ALL.iter().position(|&e| e == encoding).unwrap_or(0);
    all[c][e].clone()
}

fn generate(curve: msm::Curve, encoding: msm::Encoding) -> Vec<Vec<u8>> {
    msm::sample::points(curve, POINTS, 7)
        .into_iter()
        .chain([msm::sample::identity(curve)])
        .filter_map(|p| msm::oracle::recode(curve, msm::Encoding::Uncompressed, encoding, &p).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_holds_its_points_and_the_identity() {
        for curve in msm::Curve::ALL {
            for encoding in msm::Encoding::ALL {
                let pool = points(curve, encoding);
                assert_eq!(pool.len(), POINTS + 1, "{curve} {encoding}");
                assert!(pool.iter().all(|p| p.len() == curve.encoded_len(encoding)));
            }
        }
    }
}
