//! The EVM precompiles (`Engine::evm`): go-ethereum's vectors for BN254
//! ECADD, ECMUL and ECPAIRING and for EIP-2537 G1MSM, G2MSM, G1ADD, G2ADD,
//! MAP_FP_TO_G1 and MAP_FP2_TO_G2 (every `fail-` case with the rule it
//! breaks) and EIP-4844's point evaluation; the maps and additions
//! against blst's hash-to-curve and points of order 3; point evaluations
//! of proofs c-kzg makes from random blobs, and each kind of hostile one;
//! BN254 edge cases and hostile
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
/// should: every precompile with a kernel on the GPU engine's GPU (the
/// kernels need SHADER_INT64: without it, the CPU), the others (EIP-2537's
/// additions and maps) on the CPU.
fn on_every_engine(precompile: Precompile, inputs: &FlatBytes) -> Vec<(&'static str, Vec<CallResult>)> {
    let outputs = support::on_every_engine_of(batchcrypto::Op::Evm(precompile), |engine| {
        engine.evm(precompile, inputs).expect("evm")
    });
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
        ("long_input", PrecompileError::InvalidLength),
        ("invalid_field_element", PrecompileError::FieldElement),
        ("invalid_fq_element", PrecompileError::FieldElement),
        ("violate_top_bytes", PrecompileError::TopBytes),
        ("top_bytes", PrecompileError::TopBytes),
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
    let files: [(Precompile, &[&str], &[&str]); 13] = [
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
        (Precompile::BlsG1Add, &["blsG1Add.json"], &["fail-blsG1Add.json"]),
        (Precompile::BlsG2Add, &["blsG2Add.json"], &["fail-blsG2Add.json"]),
        (Precompile::BlsMapG1, &["blsMapG1.json"], &["fail-blsMapG1.json"]),
        (Precompile::BlsMapG2, &["blsMapG2.json"], &["fail-blsMapG2.json"]),
        (Precompile::PointEvaluation, &["pointEvaluation.json"], &[]),
        // Berlin's gas in one file, Byzantium's in the other; the outputs
        // are the same rule's.
        (Precompile::ModExp, &["modexp.json", "modexp_eip2565.json"], &[]),
        // Failures return nothing: an empty Expected.
        (Precompile::Ecrecover, &["ecRecover.json"], &[]),
        (Precompile::P256Verify, &["p256Verify.json"], &[]),
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
        // go-ethereum has one point evaluation case; the KZG test below
        // makes more.
        let least = match precompile {
            Precompile::PointEvaluation => 1,
            Precompile::Ecrecover => 5,
            _ => 14,
        };
        assert!(calls.len() >= least, "{precompile}: {} cases", calls.len());
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

/// RFC 9380's `hash_to_field` for BLS12-381 (expand_message_xmd over
/// SHA-256, L = 64): `count` elements of `m` base-field coordinates each,
/// as EIP-2537's 64-byte encodings.
fn hash_to_field(msg: &[u8], dst: &[u8], count: usize, m: usize) -> Vec<Vec<u8>> {
    use sha2::{Digest, Sha256};
    const L: usize = 64;
    let len = count * m * L;
    let dst_prime = [dst, &[dst.len() as u8]].concat();
    let b0 = Sha256::new()
        .chain_update([0u8; 64])
        .chain_update(msg)
        .chain_update((len as u16).to_be_bytes())
        .chain_update([0u8])
        .chain_update(&dst_prime)
        .finalize();
    let mut uniform: Vec<u8> = Vec::with_capacity(len);
    let mut b = Sha256::new()
        .chain_update(b0)
        .chain_update([1u8])
        .chain_update(&dst_prime)
        .finalize();
    uniform.extend_from_slice(&b);
    for i in 2..=len.div_ceil(32) {
        let xored: Vec<u8> = b0.iter().zip(b.iter()).map(|(a, c)| a ^ c).collect();
        b = Sha256::new()
            .chain_update(xored)
            .chain_update([i as u8])
            .chain_update(&dst_prime)
            .finalize();
        uniform.extend_from_slice(&b);
    }
    uniform
        .chunks_exact(m * L)
        .map(|element| {
            element
                .chunks_exact(L)
                .flat_map(|c| {
                    let x = ark_bls12_381::Fq::from_be_bytes_mod_order(c);
                    [vec![0; 16], x.into_bigint().to_bytes_be()].concat()
                })
                .collect()
        })
        .collect()
}

/// MAP_FP_TO_G1, MAP_FP2_TO_G2 and the additions against blst's
/// hash-to-curve, an implementation independent of arkworks': RFC 9380's
/// hash_to_curve(msg) is clear_cofactor(map(u0) + map(u1)), and clearing
/// the cofactor is a multiplication, so it equals G1ADD(MAP(u0), MAP(u1))
/// (blst: a signature with the secret key 1 is the message's hash).
/// Then additions of points outside G1 whose sums are known: E's points
/// (0, ±2) have order 3.
#[test]
fn maps_and_additions_against_blst_hash_to_curve() {
    use batchcrypto::ops::bls::eip2537;
    let mut one = [0u8; 32];
    one[31] = 1;
    let mut rng = StdRng::seed_from_u64(15);
    let msgs: Vec<Vec<u8>> = (0..24)
        .map(|i| (0..rng.random_range(0..=200 * (i % 3))).map(|_| rng.random()).collect())
        .collect();
    for g1 in [true, false] {
        let (dst, m): (&[u8], usize) = if g1 {
            (b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_", 1)
        } else {
            (b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_", 2)
        };
        let (map, add) = if g1 {
            (Precompile::BlsMapG1, Precompile::BlsG1Add)
        } else {
            (Precompile::BlsMapG2, Precompile::BlsG2Add)
        };
        let us: Vec<Vec<u8>> = msgs.iter().flat_map(|msg| hash_to_field(msg, dst, 2, m)).collect();
        let want: Vec<Vec<u8>> = msgs
            .iter()
            .map(|msg| {
                if g1 {
                    let sk = blst::min_sig::SecretKey::from_bytes(&one).expect("1 is a secret key");
                    eip2537::encode_g1(&sk.sign(msg, dst, &[]).serialize()).to_vec()
                } else {
                    let sk = blst::min_pk::SecretKey::from_bytes(&one).expect("1 is a secret key");
                    eip2537::encode_g2(&sk.sign(msg, dst, &[]).serialize()).to_vec()
                }
            })
            .collect();
        for (name, mapped) in on_every_engine(map, &batch(&us)) {
            let mapped: Vec<Vec<u8>> = mapped
                .into_iter()
                .map(|r| r.unwrap_or_else(|e| panic!("{name}: {map} failed: {e}")))
                .collect();
            let sums: Vec<Vec<u8>> = mapped.chunks_exact(2).map(|pair| pair.concat()).collect();
            let calls: Vec<CallResult> = want.iter().cloned().map(Ok).collect();
            assert_answers(add, &sums, &calls, &format!("{name}'s maps added"));
        }
    }
    // (0, 2) + (0, 2) = (0, -2); (0, 2) + (0, -2) = infinity; P + O = P.
    use ark_bls12_381::Fq;
    let (plus, minus) = (
        G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64)),
        G1Affine::new_unchecked(Fq::from(0u64), -Fq::from(2u64)),
    );
    let calls = vec![
        [enc_g1(&plus), enc_g1(&plus)].concat(),
        [enc_g1(&plus), enc_g1(&minus)].concat(),
        [enc_g1(&minus), vec![0; 128]].concat(),
    ];
    let want = vec![Ok(enc_g1(&minus)), Ok(vec![0; 128]), Ok(enc_g1(&minus))];
    assert_answers(Precompile::BlsG1Add, &calls, &want, "order 3");
}

/// EIP-4844's point evaluation on proofs of random blobs (c-kzg's
/// `blob_to_kzg_commitment` and `compute_kzg_proof`, at random points and
/// at the blob's own evaluation points), and each kind of hostile input
/// with its reason. (That the registry's honest calls, made without a
/// blob, hold is a unit test of ops/evm/workload.rs.)
#[test]
fn point_evaluation_of_blob_proofs() {
    use c_kzg::{BYTES_PER_BLOB, Blob, Bytes32};
    use sha2::Digest;
    let settings = c_kzg::ethereum_kzg_settings(0);
    let mut rng = StdRng::seed_from_u64(16);
    let mut calls = Vec::new();
    for b in 0..2 {
        let mut bytes = vec![0u8; BYTES_PER_BLOB];
        for element in bytes.chunks_exact_mut(32) {
            element[1..].copy_from_slice(&rng.random::<[u8; 31]>());
        }
        if b == 1 {
            bytes.fill(0);
        }
        let blob = Blob::from_bytes(&bytes).expect("every element below r");
        let commitment = settings.blob_to_kzg_commitment(&blob).expect("a commitment");
        let mut hash: [u8; 32] = sha2::Sha256::digest(commitment.as_slice()).into();
        hash[0] = 1;
        // Random points, and the domain's first point (z = 1, where y is
        // the blob's first element itself).
        let mut one = [0u8; 32];
        one[31] = 1;
        let random: Vec<u8> = [0].into_iter().chain(rng.random::<[u8; 31]>()).collect();
        for z in [random, one.to_vec()] {
            let z = Bytes32::from_bytes(&z).expect("32 bytes");
            let (proof, y) = settings.compute_kzg_proof(&blob, &z).expect("a proof");
            calls.push([&hash[..], &z[..], &y[..], commitment.as_slice(), proof.as_slice()].concat());
        }
    }
    // FIELD_ELEMENTS_PER_BLOB (4096) and BLS_MODULUS, as EIP-4844 writes them.
    let output = hex::decode(
        "0000000000000000000000000000000000000000000000000000000000001000\
         73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
    )
    .expect("hex");
    let mut want: Vec<CallResult> = vec![Ok(output); calls.len()];
    let good = calls[0].clone();
    let mut hostile = |change: &dyn Fn(&mut Vec<u8>), e: PrecompileError| {
        let mut c = good.clone();
        change(&mut c);
        calls.push(c);
        want.push(Err(e));
    };
    hostile(&|c| c[7] ^= 1, PrecompileError::VersionedHash);
    hostile(&|c| c[95] ^= 1, PrecompileError::ProofRejected);
    hostile(&|c| c.truncate(191), PrecompileError::InvalidLength);
    hostile(&|c| c.push(0), PrecompileError::InvalidLength);
    hostile(&|c| c[32..64].fill(0xff), PrecompileError::ScalarField);
    hostile(&|c| c[64..96].fill(0xff), PrecompileError::ScalarField);
    hostile(&|c| c[144] &= 0x7f, PrecompileError::PointEncoding);
    // The proof's x set to 0 with the compression flag: (0, ±2), E's
    // points of order 3, outside G1.
    hostile(
        &|c| {
            c[144..192].fill(0);
            c[144] = 0x80;
        },
        PrecompileError::G1NotInSubgroup,
    );
    // x = 3: 3^3 + 4 = 31 is not a square mod p, so no point has it.
    hostile(
        &|c| {
            c[144..192].fill(0);
            c[144] = 0x80;
            c[191] = 3;
        },
        PrecompileError::NotOnCurve,
    );
    // The commitment changed (its hash made again): the commitment's own
    // failure comes first, before the proof's.
    hostile(
        &|c| {
            c[96..144].fill(0);
            c[96] = 0x80;
            c[143] = 3;
            c[144] &= 0x7f;
            let mut hash: [u8; 32] = sha2::Sha256::digest(&c[96..144]).into();
            hash[0] = 1;
            c[..32].copy_from_slice(&hash);
        },
        PrecompileError::NotOnCurve,
    );
    assert_answers(Precompile::PointEvaluation, &calls, &want, "point evaluation");
}

/// The point evaluation's points read as blst reads them, on every engine
/// (the GPU decompresses and checks them on the device): calls built from
/// one proof c-kzg makes, the commitment or the proof replaced (the
/// versioned hash made again for a new commitment, so that the call
/// reaches the point checks) by infinity with and without stray bits,
/// points without the compression flag, x = 0 (order 3) with either sort
/// flag, x at or above p, x of no point, points of the curve outside G1,
/// other points of G1 (the proof then rejected), their negations (the
/// sort flag flipped); z and y at 0 and r - 1 with the points at infinity.
/// Each call's answer is c-kzg's, with the reason of its first check.
#[test]
fn point_evaluation_points_as_blst_reads_them() {
    use ark_bls12_381::Fq;
    use ark_serialize::CanonicalSerialize;
    use c_kzg::{BYTES_PER_BLOB, Blob, Bytes32};
    use sha2::Digest;
    let settings = c_kzg::ethereum_kzg_settings(0);
    let mut rng = StdRng::seed_from_u64(4844);
    let mut bytes = vec![0u8; BYTES_PER_BLOB];
    for element in bytes.chunks_exact_mut(32) {
        element[1..].copy_from_slice(&rng.random::<[u8; 31]>());
    }
    let blob = Blob::from_bytes(&bytes).expect("every element below r");
    let commitment = settings.blob_to_kzg_commitment(&blob).expect("a commitment");
    let z: Vec<u8> = [0].into_iter().chain(rng.random::<[u8; 31]>()).collect();
    let (proof, y) = settings
        .compute_kzg_proof(&blob, &Bytes32::from_bytes(&z).expect("32 bytes"))
        .expect("a proof");
    let call = |c: &[u8], z: &[u8], y: &[u8], p: &[u8]| -> Vec<u8> {
        let mut hash: [u8; 32] = sha2::Sha256::digest(c).into();
        hash[0] = 1;
        [&hash[..], z, y, c, p].concat()
    };
    let compressed = |p: G1Affine| {
        let mut out = Vec::with_capacity(48);
        p.serialize_compressed(&mut out).expect("48 bytes");
        out
    };
    let (c0, p0) = (commitment.as_slice().to_vec(), proof.as_slice().to_vec());
    let mut points: Vec<Vec<u8>> = Vec::new();
    let mut infinity = vec![0u8; 48];
    infinity[0] = 0xc0;
    points.push(infinity.clone());
    for (at, bits) in [(0, 0x20), (0, 0x01), (47, 0x01), (20, 0x80)] {
        let mut p = infinity.clone();
        p[at] |= bits;
        points.push(p);
    }
    for top in [0x80u8, 0xa0, 0x00, 0x20] {
        let mut p = vec![0u8; 48];
        p[0] = top;
        points.push(p);
    }
    // x = p and x = 2^381 - 1 (not below p), x = 3 (no point).
    let modulus = Fq::MODULUS.to_bytes_be();
    let mut at_p = modulus.clone();
    at_p[0] |= 0x80;
    points.push(at_p);
    points.push([vec![0x9f], vec![0xff; 47]].concat());
    let mut three = vec![0u8; 48];
    three[0] = 0x80;
    three[47] = 3;
    points.push(three);
    // Points of the curve outside G1, points of G1, and the proof's and
    // commitment's own negations.
    let mut outside = 0;
    while outside < 6 {
        let x = Fq::from_be_bytes_mod_order(&rng.random::<[u8; 48]>());
        if let Some(p) = G1Affine::get_point_from_x_unchecked(x, rng.random()) {
            assert!(!p.is_in_correct_subgroup_assuming_on_curve());
            points.push(compressed(p));
            outside += 1;
        }
    }
    for _ in 0..4 {
        points.push(compressed(
            (G1Projective::generator() * Fr::from(rng.random::<u64>())).into_affine(),
        ));
    }
    for own in [&c0, &p0] {
        let mut p = own.clone();
        p[0] ^= 0x20;
        points.push(p);
        let mut flipped = own.clone();
        flipped[47] ^= 0x40;
        points.push(flipped);
    }
    let mut calls = vec![call(&c0, &z, y.as_slice(), &p0)];
    for p in &points {
        calls.push(call(p, &z, y.as_slice(), &p0));
        calls.push(call(&c0, &z, y.as_slice(), p));
        calls.push(call(p, &z, y.as_slice(), p));
    }
    // Scalars at the edges with both points at infinity: the zero
    // polynomial holds for y = 0 at any z, and for nothing else.
    let mut r_minus_one = Fr::MODULUS.to_bytes_be();
    r_minus_one[31] -= 1;
    for (z, y) in [
        (vec![0u8; 32], vec![0u8; 32]),
        (r_minus_one.clone(), vec![0u8; 32]),
        (vec![0u8; 32], r_minus_one.clone()),
        (r_minus_one.clone(), r_minus_one.clone()),
    ] {
        calls.push(call(&infinity, &z, &y, &infinity));
    }
    let want: Vec<CallResult> = calls
        .iter()
        .map(|c| oracle::call(Precompile::PointEvaluation, c))
        .collect();
    assert_eq!(want[0], Ok(want[0].clone().expect("the honest call holds")));
    for e in [
        PrecompileError::PointEncoding,
        PrecompileError::NotOnCurve,
        PrecompileError::G1NotInSubgroup,
        PrecompileError::ProofRejected,
    ] {
        assert!(want.contains(&Err(e)), "{e:?} among the answers");
    }
    assert!(
        want[1..].iter().filter(|w| w.is_ok()).count() >= 2,
        "the zero polynomial's calls"
    );
    assert_answers(Precompile::PointEvaluation, &calls, &want, "points as blst reads them");
    // Batches in which no call reaches the device's stages.
    let mut bad_hash = calls[0].clone();
    bad_hash[3] ^= 1;
    let short = calls[0][..100].to_vec();
    let failed = [Err(PrecompileError::VersionedHash), Err(PrecompileError::InvalidLength)];
    assert_answers(
        Precompile::PointEvaluation,
        &[bad_hash, short],
        &failed,
        "no call reaches the device",
    );
    assert_answers(Precompile::PointEvaluation, &[], &[], "no calls");
}
