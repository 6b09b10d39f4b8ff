//! The EVM precompiles (`Engine::evm`): go-ethereum's vectors for BN254
//! ECADD, ECMUL and ECPAIRING and for EIP-2537 G1MSM and G2MSM (every
//! `fail-` case with the rule it breaks); BN254 edge cases and hostile
//! encodings against arkworks; MSMs of every size around blst's thresholds
//! against arkworks' BLS12-381 arithmetic (an implementation independent of
//! blst), with infinity terms, zero, repeated and unreduced scalars, and
//! points off the curve or outside the subgroup; pairing checks of 0 to 70
//! pairs that cancel by construction or not (the GPU's final stage reduces
//! more than 32 Miller values in rounds). Every engine, every call, the
//! count included (every precompile on the GPU engine's GPU).

use crate::support::eip2537::{enc_g1, enc_g2, geth_cases, hex_bytes};
use crate::support::{self, engines};
use ark_bls12_381::{Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{BigInteger, PrimeField, Zero};
use batchcrypto::FlatBytes;
use batchcrypto::ops::evm::{CallResult, Precompile, PrecompileError, oracle};
use batchcrypto::registry::{self, WorkloadConfig};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Every engine's answers to `inputs`, each engine having run where it
/// should: every precompile on the GPU engine's GPU (the kernels need
/// SHADER_INT64: without it, the CPU).
fn on_every_engine(precompile: Precompile, inputs: &FlatBytes) -> Vec<(&'static str, Vec<CallResult>)> {
    let outputs = support::on_every_engine(|engine| engine.evm(precompile, inputs).expect("evm"));
    for (name, output) in &outputs {
        assert_eq!(output.len(), inputs.len(), "{name}: one answer per call");
    }
    outputs
}

/// Calls as a batch.
fn batch(calls: &[Vec<u8>]) -> FlatBytes {
    let mut inputs = FlatBytes::new();
    for c in calls {
        assert!(inputs.push(c));
    }
    inputs
}

/// Every engine and the oracle answer `calls` as `want`, call by call.
fn assert_answers(precompile: Precompile, calls: &[Vec<u8>], want: &[CallResult], what: &str) {
    assert_eq!(calls.len(), want.len());
    for (i, (c, w)) in calls.iter().zip(want).enumerate() {
        assert_eq!(&oracle::call(precompile, c), w, "oracle, {what} call {i}");
    }
    for (name, got) in on_every_engine(precompile, &batch(calls)) {
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert_eq!(g, w, "{name}, {what} call {i}");
        }
    }
}

/// The rule a go-ethereum `fail-` case breaks, from its name.
fn failure_of(name: &str) -> PrecompileError {
    let rules = [
        ("empty_input", PrecompileError::InvalidLength),
        ("short_input", PrecompileError::InvalidLength),
        ("large_input", PrecompileError::InvalidLength),
        ("invalid_field_element", PrecompileError::FieldElement),
        ("violate_top_bytes", PrecompileError::TopBytes),
        ("point_not_on_curve", PrecompileError::NotOnCurve),
        ("g1_not_in_correct_subgroup", PrecompileError::G1NotInSubgroup),
        ("g2_not_in_correct_subgroup", PrecompileError::G2NotInSubgroup),
    ];
    rules
        .iter()
        .find(|(suffix, _)| name.ends_with(suffix))
        .map(|(_, e)| *e)
        .unwrap_or_else(|| panic!("no rule for the case {name}"))
}

#[test]
fn geth_vectors() {
    let files: [(Precompile, &[&str], &[&str]); 5] = [
        (Precompile::Bn256Add, &["bn256Add.json"], &[]),
        (Precompile::Bn256Mul, &["bn256ScalarMul.json"], &[]),
        (Precompile::Bn256Pairing, &["bn256Pairing.json"], &[]),
        (
            Precompile::BlsG1Msm,
            &["blsG1MultiExp.json", "blsG1Mul.json"],
            &["fail-blsG1MultiExp.json", "fail-blsG1Mul.json"],
        ),
        (
            Precompile::BlsG2Msm,
            &["blsG2MultiExp.json", "blsG2Mul.json"],
            &["fail-blsG2MultiExp.json", "fail-blsG2Mul.json"],
        ),
    ];
    for (precompile, good, bad) in files {
        let (mut calls, mut want, mut names) = (Vec::new(), Vec::new(), Vec::new());
        for file in good {
            let Some(cases) = geth_cases(file) else { return };
            for case in cases {
                calls.push(hex_bytes(&case["Input"]));
                want.push(Ok(hex_bytes(&case["Expected"])));
                names.push(format!("{file} {}", case["Name"]));
            }
        }
        for file in bad {
            let Some(cases) = geth_cases(file) else { return };
            for case in cases {
                let name = case["Name"].as_str().expect("name").to_string();
                calls.push(hex_bytes(&case["Input"]));
                want.push(Err(failure_of(&name)));
                names.push(format!("{file} {name}"));
            }
        }
        assert!(calls.len() >= 14, "{precompile}: {} cases", calls.len());
        for (i, c) in calls.iter().enumerate() {
            assert_eq!(oracle::call(precompile, c), want[i], "oracle, {}", names[i]);
        }
        for (name, got) in on_every_engine(precompile, &batch(&calls)) {
            for (i, g) in got.iter().enumerate() {
                assert_eq!(g, &want[i], "{name}, {}", names[i]);
            }
        }
    }
}

/// BN254 encodings made with arkworks (x.c1 first in G2, as EIP-197).
mod bn {
    use ark_bn254::{Fq, Fq2, Fr, G1Affine, G2Affine};
    use ark_ec::AffineRepr;
    use ark_ff::{BigInteger, PrimeField};

    pub fn word(x: Fq) -> Vec<u8> {
        x.into_bigint().to_bytes_be()
    }
    pub fn g1(p: G1Affine) -> Vec<u8> {
        p.xy().map_or(vec![0; 64], |(x, y)| [word(x), word(y)].concat())
    }
    pub fn g2(q: G2Affine) -> Vec<u8> {
        q.xy().map_or(vec![0; 128], |(x, y)| {
            [x.c1, x.c0, y.c1, y.c0].into_iter().flat_map(word).collect()
        })
    }
    pub fn scalar(s: Fr) -> Vec<u8> {
        s.into_bigint().to_bytes_be()
    }
    /// A point on the twist outside the prime-order subgroup.
    pub fn g2_outside(seed: u64) -> G2Affine {
        let mut x = Fq2::from(seed);
        loop {
            match G2Affine::get_point_from_x_unchecked(x, false) {
                Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => return q,
                _ => x += Fq2::from(1u64),
            }
        }
    }
}

#[test]
fn bn254_edges_and_hostile_encodings() {
    use ark_bn254::{Fq, Fr as BnFr, G1Affine as P1, G1Projective as J1, G2Projective as J2};
    let mut rng = StdRng::seed_from_u64(196);
    let mut fr = || BnFr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
    let (a, b, k) = (fr(), fr(), fr());
    let p = (J1::generator() * a).into_affine();
    let q = (J1::generator() * b).into_affine();
    let ok = |v: Vec<u8>| -> CallResult { Ok(v) };
    let p_enc = bn::g1(p);
    let modulus = Fq::MODULUS.to_bytes_be();
    let off_curve = [bn::word(p.x), bn::word(p.y + Fq::from(1u64))].concat();
    let x_is_p = [modulus.clone(), bn::word(p.y)].concat();

    // ECADD: sums, doubling, inverses, infinity, short and long inputs.
    let add_cases: Vec<(Vec<u8>, CallResult)> = vec![
        ([bn::g1(p), bn::g1(q)].concat(), ok(bn::g1((p + q).into_affine()))),
        ([bn::g1(p), bn::g1(p)].concat(), ok(bn::g1((p + p).into_affine()))),
        ([bn::g1(p), bn::g1(-p)].concat(), ok(vec![0; 64])),
        ([bn::g1(p), vec![0; 64]].concat(), ok(p_enc.clone())),
        (p_enc.clone(), ok(p_enc.clone())),
        (p_enc[..40].to_vec(), Err(PrecompileError::NotOnCurve)),
        (
            [bn::g1(p), bn::g1(q), vec![7; 9]].concat(),
            ok(bn::g1((p + q).into_affine())),
        ),
        (vec![], ok(vec![0; 64])),
        (
            [off_curve.clone(), bn::g1(q)].concat(),
            Err(PrecompileError::NotOnCurve),
        ),
        ([bn::g1(q), x_is_p.clone()].concat(), Err(PrecompileError::FieldElement)),
        (
            [bn::g1(q), off_curve.clone()].concat(),
            Err(PrecompileError::NotOnCurve),
        ),
    ];
    let (calls, want): (Vec<_>, Vec<_>) = add_cases.into_iter().unzip();
    assert_answers(Precompile::Bn256Add, &calls, &want, "ECADD");

    // ECMUL: edge scalars (0, 1, r, r + 1, 2^256 - 1), infinity, cut input.
    let r = ark_bn254::Fr::MODULUS.to_bytes_be();
    let mut r_plus_1 = r.clone();
    r_plus_1[31] += 1;
    let top = BnFr::from_be_bytes_mod_order(&[0xff; 32]);
    let mul_cases: Vec<(Vec<u8>, CallResult)> = vec![
        ([bn::g1(p), bn::scalar(k)].concat(), ok(bn::g1((p * k).into_affine()))),
        ([bn::g1(p), vec![0; 32]].concat(), ok(vec![0; 64])),
        ([bn::g1(p), bn::scalar(BnFr::from(1u64))].concat(), ok(p_enc.clone())),
        ([bn::g1(p), r.clone()].concat(), ok(vec![0; 64])),
        ([bn::g1(p), r_plus_1].concat(), ok(p_enc.clone())),
        (
            [bn::g1(p), vec![0xff; 32]].concat(),
            ok(bn::g1((p * top).into_affine())),
        ),
        ([vec![0; 64], bn::scalar(k)].concat(), ok(vec![0; 64])),
        // A cut scalar is padded with zeros on the right.
        (
            [bn::g1(p), vec![0, 0, 2]].concat(),
            ok(bn::g1(
                (p * BnFr::from_be_bytes_mod_order(&[[0, 0, 2].as_slice(), &[0; 29]].concat())).into_affine(),
            )),
        ),
        (
            [off_curve.clone(), bn::scalar(k)].concat(),
            Err(PrecompileError::NotOnCurve),
        ),
        (
            [x_is_p.clone(), bn::scalar(k)].concat(),
            Err(PrecompileError::FieldElement),
        ),
    ];
    let (calls, want): (Vec<_>, Vec<_>) = mul_cases.into_iter().unzip();
    assert_answers(Precompile::Bn256Mul, &calls, &want, "ECMUL");

    // ECPAIRING: e(aP, bQ) e(-ab P, Q) = 1; not 1 otherwise; infinity pairs;
    // lengths; points off the curve, outside G2, coordinates at p.
    let (g1, g2) = (J1::generator().into_affine(), J2::generator().into_affine());
    let pair = |p: P1, q: ark_bn254::G2Affine| [bn::g1(p), bn::g2(q)].concat();
    let cancel = [
        pair((g1 * a).into_affine(), (g2 * b).into_affine()),
        pair((g1 * -(a * b)).into_affine(), g2),
    ]
    .concat();
    let no_cancel = [
        pair((g1 * a).into_affine(), (g2 * b).into_affine()),
        pair((g1 * a).into_affine(), g2),
    ]
    .concat();
    let one = ok([vec![0; 31], vec![1]].concat());
    let zero = ok(vec![0; 32]);
    let outside = bn::g2_outside(7);
    let mut g2_x_is_p = pair(g1, g2);
    g2_x_is_p[64..96].copy_from_slice(&modulus);
    let g2_off = [bn::g1(g1), bn::g2(g2)[..127].to_vec(), vec![bn::g2(g2)[127] ^ 1]].concat();
    let pairing_cases: Vec<(Vec<u8>, CallResult)> = vec![
        (cancel.clone(), one.clone()),
        (no_cancel.clone(), zero.clone()),
        (vec![], one.clone()),
        (pair(P1::zero(), g2), one.clone()),
        (pair(g1, ark_bn254::G2Affine::zero()), one.clone()),
        (pair(g1, g2), zero.clone()),
        ([cancel.clone(), pair(P1::zero(), g2)].concat(), one.clone()),
        (cancel[..191].to_vec(), Err(PrecompileError::InvalidLength)),
        ([cancel.clone(), vec![0]].concat(), Err(PrecompileError::InvalidLength)),
        (pair(g1, outside), Err(PrecompileError::G2NotInSubgroup)),
        (pair(P1::zero(), outside), Err(PrecompileError::G2NotInSubgroup)),
        (g2_off, Err(PrecompileError::NotOnCurve)),
        (g2_x_is_p, Err(PrecompileError::FieldElement)),
        (
            [off_curve.clone(), bn::g2(g2)].concat(),
            Err(PrecompileError::NotOnCurve),
        ),
        // The first failure in input order (the GPU checks G2's subgroup,
        // the host the rest).
        (
            [pair(g1, outside), off_curve.clone(), bn::g2(g2)].concat(),
            Err(PrecompileError::G2NotInSubgroup),
        ),
        (
            [off_curve.clone(), bn::g2(g2), pair(g1, outside)].concat(),
            Err(PrecompileError::NotOnCurve),
        ),
        (
            [cancel.clone(), pair(P1::zero(), outside), vec![0; 191]].concat(),
            Err(PrecompileError::InvalidLength),
        ),
        (
            [cancel.clone(), pair(P1::zero(), outside)].concat(),
            Err(PrecompileError::G2NotInSubgroup),
        ),
    ];
    let (calls, want): (Vec<_>, Vec<_>) = pairing_cases.into_iter().unzip();
    assert_answers(Precompile::Bn256Pairing, &calls, &want, "ECPAIRING");
}

/// ECPAIRING calls of many sizes: k random pairs and one more that makes
/// the product one (e(a_i G1, b_i G2) and e(-(sum a_i b_i) G1, G2)), the
/// same with the last pair's G1 point doubled (not one), and infinities
/// mixed in (which add nothing).
#[test]
fn pairing_sizes_against_arkworks() {
    use ark_bn254::{Fr as Fr254, G1Projective as J1, G2Projective as J2};
    let mut rng = StdRng::seed_from_u64(197);
    let fr = |rng: &mut StdRng| Fr254::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
    let (g1, g2) = (J1::generator(), J2::generator());
    let (mut calls, mut want) = (Vec::new(), Vec::new());
    for k in [0usize, 1, 2, 5, 31, 32, 33, 70] {
        let (mut input, mut sum) = (Vec::new(), Fr254::zero());
        for j in 0..k {
            let (a, b) = (fr(&mut rng), fr(&mut rng));
            sum += a * b;
            input.extend(bn::g1((g1 * a).into_affine()));
            input.extend(bn::g2((g2 * b).into_affine()));
            if j % 7 == 3 {
                // A pair with an infinity: one factor of one.
                input.extend(bn::g1(ark_bn254::G1Affine::zero()));
                input.extend(bn::g2((g2 * b).into_affine()));
            }
        }
        input.extend(bn::g1((g1 * -sum).into_affine()));
        input.extend(bn::g2(g2.into_affine()));
        let mut broken = input.clone();
        let last = broken.len() - 192;
        broken[last..last + 64].copy_from_slice(&bn::g1((g1 * (-sum - sum)).into_affine()));
        calls.extend([input, broken]);
        let one = [vec![0; 31], vec![1]].concat();
        // With k = 0 the broken call pairs -2 * 0 G1 = infinity: still one.
        want.extend([Ok(one.clone()), Ok(if k == 0 { one } else { vec![0; 32] })]);
    }
    assert_answers(Precompile::Bn256Pairing, &calls, &want, "ECPAIRING sizes");
}

/// One MSM call of `k` terms over G1 or G2 with its expected answer from
/// arkworks: random points and 256-bit scalars, with infinity terms, zero
/// and repeated terms mixed in.
fn msm_call(g1: bool, k: usize, rng: &mut StdRng) -> (Vec<u8>, Vec<u8>) {
    let fr = |rng: &mut StdRng| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
    let (mut sum1, mut sum2) = (G1Projective::zero(), G2Projective::zero());
    let mut input = Vec::new();
    let (base1, base2) = (
        (G1Projective::generator() * fr(rng)).into_affine(),
        (G2Projective::generator() * fr(rng)).into_affine(),
    );
    for j in 0..k {
        let s: [u8; 32] = match j % 11 {
            3 => [0; 32],
            5 => [0xff; 32],
            _ => rng.random(),
        };
        let scalar = Fr::from_be_bytes_mod_order(&s);
        if g1 {
            let p = match j % 7 {
                2 => G1Affine::zero(),
                4 => base1,
                _ => (G1Projective::generator() * fr(rng)).into_affine(),
            };
            sum1 += p * scalar;
            input.extend(enc_g1(&p));
        } else {
            let q = match j % 7 {
                2 => G2Affine::zero(),
                4 => base2,
                _ => (G2Projective::generator() * fr(rng)).into_affine(),
            };
            sum2 += q * scalar;
            input.extend(enc_g2(&q));
        }
        input.extend(s);
    }
    let out = if g1 {
        enc_g1(&sum1.into_affine())
    } else {
        enc_g2(&sum2.into_affine())
    };
    (input, out)
}

#[test]
fn msm_sizes_against_arkworks() {
    let mut rng = StdRng::seed_from_u64(2537);
    // blst sums fewer than 32 points one by one, more by Pippenger with
    // windows that grow with the count.
    for (precompile, sizes) in [
        (
            Precompile::BlsG1Msm,
            &[1usize, 2, 3, 7, 31, 32, 33, 64, 65, 128, 300][..],
        ),
        (Precompile::BlsG2Msm, &[1, 2, 5, 31, 32, 33, 70][..]),
    ] {
        let g1 = precompile == Precompile::BlsG1Msm;
        let (mut calls, mut want) = (Vec::new(), Vec::new());
        for &k in sizes {
            let (input, out) = msm_call(g1, k, &mut rng);
            calls.push(input);
            want.push(Ok(out));
        }
        if g1 {
            // 1,100 distinct points of one scalar: each window's one bucket
            // holds more than 32^2 terms, which the GPU path's plan of many
            // calls (made on the host) cuts into chunks of ceil(sqrt) terms,
            // as its kernel does.
            let s: [u8; 32] = rng.random();
            let base = (G1Projective::generator() * Fr::from(rng.random::<u64>())).into_affine();
            let (mut p, mut sum, mut input) = (base.into_group(), G1Projective::zero(), Vec::new());
            for _ in 0..1100 {
                input.extend(enc_g1(&p.into_affine()));
                input.extend(s);
                sum += p;
                p += base;
            }
            calls.push(input);
            want.push(Ok(enc_g1(&(sum * Fr::from_be_bytes_mod_order(&s)).into_affine())));
        }
        // Only infinities and zero scalars: the sum is infinity.
        let point_len = if g1 { 128 } else { 256 };
        calls.push([vec![0; point_len], rng.random::<[u8; 32]>().to_vec()].concat());
        want.push(Ok(vec![0; point_len]));
        let (input, _) = msm_call(g1, 2, &mut rng);
        let zeros: Vec<u8> = input
            .chunks(point_len + 32)
            .flat_map(|pair| [&pair[..point_len], &[0; 32][..]].concat())
            .collect();
        calls.push(zeros);
        want.push(Ok(vec![0; point_len]));
        assert_answers(precompile, &calls, &want, "MSM");
    }
}

#[test]
fn msm_hostile_points() {
    use ark_bls12_381::{Fq, Fq2};
    let mut rng = StdRng::seed_from_u64(14);
    // E's point (0, 2) has order 3; a twist point from x alone is almost
    // never in G2.
    let order3 = G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64));
    let mut x = Fq2::from(5u64);
    let outside = loop {
        match G2Affine::get_point_from_x_unchecked(x, true) {
            Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => break q,
            _ => x += Fq2::from(1u64),
        }
    };
    for (precompile, bad_point, subgroup) in [
        (Precompile::BlsG1Msm, enc_g1(&order3), PrecompileError::G1NotInSubgroup),
        (Precompile::BlsG2Msm, enc_g2(&outside), PrecompileError::G2NotInSubgroup),
    ] {
        let g1 = precompile == Precompile::BlsG1Msm;
        let point_len = bad_point.len();
        let pair_len = point_len + 32;
        let (good, _) = msm_call(g1, 40, &mut rng);
        let mut cases: Vec<(Vec<u8>, PrecompileError)> = Vec::new();
        for at in [0usize, 1, 39] {
            let pair = at * pair_len;
            let mut c = good.clone();
            c[pair..pair + point_len].copy_from_slice(&bad_point);
            cases.push((c, subgroup));
            let mut c = good.clone();
            c[pair + 20] ^= 0x40;
            cases.push((c, PrecompileError::NotOnCurve));
            let mut c = good.clone();
            c[pair + 3] = 1;
            cases.push((c, PrecompileError::TopBytes));
            let mut c = good.clone();
            c[pair + 16..pair + 64].fill(0xff);
            cases.push((c, PrecompileError::FieldElement));
        }
        cases.push((good[..good.len() - 1].to_vec(), PrecompileError::InvalidLength));
        cases.push((vec![], PrecompileError::InvalidLength));
        cases.push(([good.clone(), vec![0; 5]].concat(), PrecompileError::InvalidLength));
        let (calls, want): (Vec<_>, Vec<CallResult>) = cases.into_iter().map(|(c, e)| (c, Err(e))).unzip();
        assert_answers(precompile, &calls, &want, "hostile MSM");
    }
}

/// The registry's generated calls (honest and hostile, the self-test's
/// shapes) against the oracle on every engine.
#[test]
fn generated_calls_match_the_oracle() {
    for precompile in Precompile::ALL {
        let spec = registry::spec(batchcrypto::Op::Evm(precompile));
        for (n, share, seed) in [(60, 0.0, 1), (90, 0.4, 2)] {
            let config = WorkloadConfig {
                n,
                invalid_share: share,
                signers: 8,
                seed,
                varied: true,
            };
            let workload = (spec.workload)(&config);
            assert_eq!(workload.len(), n);
            for (name, engine) in engines() {
                if let Err(e) = workload.check(engine) {
                    panic!("{} on {name}, share {share}: {e}", spec.name());
                }
            }
        }
    }
}
