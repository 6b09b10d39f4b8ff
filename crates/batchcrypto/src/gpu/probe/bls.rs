//! Probes of BLS12-381's curve and pairing layers (`wgsl/bls_curve.wgsl`,
//! `wgsl/bls_group.wgsl`, `wgsl/bls_pairing.wgsl`) against arkworks: curve
//! and subgroup membership on points in and out of G1 and G2 (points of
//! small order included), the Miller loop's value and the final
//! exponentiation's, which the device computes as arkworks does, so that
//! every value must be equal, not only the verdicts built on them.

use ark_bls12_381::{Bls12_381, Fq, Fq2, Fq12, Fr, G1Affine, G1Projective, G2Affine, G2Projective};
use ark_ec::pairing::{MillerLoopOutput, Pairing};
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{Field, PrimeField};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::tests::{FP12_IO, fq, fq12, words};
use super::{run, source, test_gpu};
use crate::gpu::{fp12_program, shaders};

/// Membership flags of a G1 point (x, y) and a G2 point (x, y), affine,
/// canonical: on E, in G1, on E', in G2 (the subgroup flags are only
/// meaningful for points on the curve).
const GROUP_PROBE: &str = "
fn probe_item(i: u32) {
    tower_init(params.loop_guard);
    let x1 = probe_fp(i, 0u);
    let y1 = probe_fp(i, 1u);
    let x2 = Fp2(probe_fp(i, 2u), probe_fp(i, 3u));
    let y2 = Fp2(probe_fp(i, 4u), probe_fp(i, 5u));
    let flags = array<bool, 4>(
        g1_on_curve(x1, y1),
        g1_in_subgroup(G1Proj(x1, y1, fp_one())),
        g2_on_curve(x2, y2),
        g2_in_subgroup(G2Proj(x2, y2, fp2_one())),
    );
    for (var k = 0u; k < 4u; k++) {
        probe_out[i * PROBE_OUT + k] = select(0u, 1u, flags[k]);
    }
}
";

/// The Miller loop of P in G1 and Q in G2 (same input layout).
const MILLER_PROBE: &str = "
fn probe_item(i: u32) {
    tower_init(params.loop_guard);
    let q = G2Proj(Fp2(probe_fp(i, 2u), probe_fp(i, 3u)), Fp2(probe_fp(i, 4u), probe_fp(i, 5u)), fp2_one());
    let f = miller_loop(probe_fp(i, 0u), probe_fp(i, 1u), q.x, q.y);
    probe_put6(i, 0u, f.c0);
    probe_put6(i, 1u, f.c1);
}
";

/// The final exponentiation of an F_p12 value (twelve F_p values in).
const FINAL_EXP_PROBE: &str = "
fn probe_item(i: u32) {
    tower_init(params.loop_guard);
    var regs: array<Fp12, 4>;
    regs[0] = Fp12(probe_fp6(i, 0u), probe_fp6(i, 6u));
    var program = BLS_FINAL_EXP;
    fp12_run(&regs, &program, 0u, FP12_PROGRAM_LEN);
    probe_put6(i, 0u, regs[0].c0);
    probe_put6(i, 1u, regs[0].c1);
}
";

fn pairing_layer(probe: &str) -> String {
    let program = fp12_program::final_exponentiation();
    [
        shaders::bls_pairing_layer(&program, "BLS_FINAL_EXP"),
        FP12_IO.to_string(),
        probe.to_string(),
    ]
    .join("\n")
}

fn curve_layer(probe: &str) -> String {
    [shaders::bls_curve_layer(), FP12_IO.to_string(), probe.to_string()].join("\n")
}

fn random_fq(rng: &mut StdRng) -> Fq {
    let bytes: [u8; 64] = rng.random();
    Fq::from_le_bytes_mod_order(&bytes)
}

fn random_fr(rng: &mut StdRng) -> Fr {
    let bytes: [u8; 64] = rng.random();
    Fr::from_le_bytes_mod_order(&bytes)
}

/// A point of E(F_p) with a random x (almost never in G1).
fn g1_on_curve(rng: &mut StdRng) -> G1Affine {
    loop {
        if let Some(p) = G1Affine::get_point_from_x_unchecked(random_fq(rng), rng.random()) {
            return p;
        }
    }
}

/// A point of E'(F_p2) with a random x (almost never in G2).
fn g2_on_curve(rng: &mut StdRng) -> G2Affine {
    loop {
        let x = Fq2::new(random_fq(rng), random_fq(rng));
        if let Some(q) = G2Affine::get_point_from_x_unchecked(x, rng.random()) {
            return q;
        }
    }
}

/// The six canonical coordinates (P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0,
/// Q.y.c1) as probe input.
fn pair_words(p: &G1Affine, q: &G2Affine) -> Vec<u32> {
    [p.x, p.y, q.x.c0, q.x.c1, q.y.c0, q.y.c1]
        .iter()
        .flat_map(|c| words(*c))
        .collect()
}

/// Curve and subgroup membership on the device equal arkworks' for points
/// in G1 and G2, points of E and E' outside them (random ones, the points
/// of order 3 (0, +-2) of E, sums with them), and points on neither curve.
#[test]
fn bls_group_checks_match_arkworks() {
    let Some(gpu) = test_gpu() else { return };
    let mut rng = StdRng::seed_from_u64(20_211_130);
    let two = Fq::from(2u64);
    let order3 = G1Affine::new_unchecked(Fq::from(0u64), two);
    let mut points: Vec<(G1Affine, G2Affine)> = Vec::new();
    for n in 0..24 {
        let s = random_fr(&mut rng);
        let (g1, g2) = (
            (G1Projective::generator() * s).into_affine(),
            (G2Projective::generator() * s).into_affine(),
        );
        let (o1, o2) = (g1_on_curve(&mut rng), g2_on_curve(&mut rng));
        points.push(match n % 6 {
            0 => (g1, g2),
            1 => (o1, o2),
            2 => (order3, g2),
            3 => ((g1 + order3).into_affine(), (g2 + o2).into_affine()),
            4 => (-order3, o2),
            // Off the curves: y moved by one.
            _ => (
                G1Affine::new_unchecked(g1.x, g1.y + Fq::from(1u64)),
                G2Affine::new_unchecked(g2.x, g2.y + Fq2::from(1u64)),
            ),
        });
    }
    let input: Vec<u32> = points.iter().flat_map(|(p, q)| pair_words(p, q)).collect();
    let out = run(&gpu, "probe_bls_group", &curve_layer(GROUP_PROBE), &input, 72, 4).expect("probe");
    assert_eq!(out.len(), points.len());
    for (n, ((p, q), got)) in points.iter().zip(&out).enumerate() {
        let on = (p.is_on_curve(), q.is_on_curve());
        let want = [
            on.0,
            on.0 && p.is_in_correct_subgroup_assuming_on_curve(),
            on.1,
            on.1 && q.is_in_correct_subgroup_assuming_on_curve(),
        ];
        let flags: Vec<bool> = got.iter().map(|&w| w == 1).collect();
        let masked = [flags[0], flags[0] && flags[1], flags[2], flags[2] && flags[3]];
        assert_eq!(masked, want, "item {n}");
    }
    // The edge kinds are present: in and out of each subgroup.
    assert!(out.iter().any(|o| o[..2] == [1, 0]) && out.iter().any(|o| o[..2] == [1, 1]));
    assert!(out.iter().any(|o| o[2..] == [1, 0]) && out.iter().any(|o| o[2..] == [1, 1]));
}

/// The Miller loop and the final exponentiation on the device equal
/// arkworks' values: Miller loops of random pairs and of the generators,
/// final exponentiations of random F_p12 values and of those Miller loops'
/// values (so the pairing itself).
#[test]
fn bls_pairing_matches_arkworks() {
    let Some(gpu) = test_gpu() else { return };
    let mut rng = StdRng::seed_from_u64(2_020_875);
    let mut pairs = vec![(G1Affine::generator(), G2Affine::generator())];
    for _ in 0..7 {
        let (a, b) = (random_fr(&mut rng), random_fr(&mut rng));
        pairs.push((
            (G1Projective::generator() * a).into_affine(),
            (G2Projective::generator() * b).into_affine(),
        ));
    }
    let input: Vec<u32> = pairs.iter().flat_map(|(p, q)| pair_words(p, q)).collect();
    let out = run(&gpu, "probe_bls_miller", &pairing_layer(MILLER_PROBE), &input, 72, 144).expect("probe");
    assert_eq!(out.len(), pairs.len());
    let mut values: Vec<Fq12> = Vec::new();
    for (n, ((p, q), got)) in pairs.iter().zip(&out).enumerate() {
        let coeffs: Vec<Fq> = got.chunks_exact(12).map(fq).collect();
        let want = Bls12_381::multi_miller_loop([*p], [*q]).0;
        assert_eq!(fq12(&coeffs), want, "pair {n}: Miller loop");
        values.push(want);
    }
    for _ in 0..4 {
        let c: Vec<Fq> = (0..12).map(|_| random_fq(&mut rng)).collect();
        values.push(fq12(&c));
    }
    let input: Vec<u32> = values
        .iter()
        .flat_map(|f| {
            let c0 = [f.c0.c0, f.c0.c1, f.c0.c2];
            let c1 = [f.c1.c0, f.c1.c1, f.c1.c2];
            c0.into_iter()
                .chain(c1)
                .flat_map(|x| [x.c0, x.c1])
                .flat_map(words)
                .collect::<Vec<u32>>()
        })
        .collect();
    let out = run(
        &gpu,
        "probe_bls_final_exp",
        &pairing_layer(FINAL_EXP_PROBE),
        &input,
        144,
        144,
    )
    .expect("probe");
    assert_eq!(out.len(), values.len());
    for (n, (f, got)) in values.iter().zip(&out).enumerate() {
        let coeffs: Vec<Fq> = got.chunks_exact(12).map(fq).collect();
        let want = Bls12_381::final_exponentiation(MillerLoopOutput(*f))
            .expect("nonzero")
            .0;
        assert_eq!(fq12(&coeffs), want, "value {n}: final exponentiation");
    }
    // The pairing is not degenerate: e(G1, G2) is not one.
    assert_ne!(Bls12_381::pairing(pairs[0].0, pairs[0].1).0, Fq12::ONE);
}

/// The curve and pairing probes translate to Metal and HLSL.
#[test]
fn bls_probes_translate_to_metal_and_hlsl() {
    for (name, layer, inw, out) in [
        ("bls group", curve_layer(GROUP_PROBE), 72, 4),
        ("bls miller", pairing_layer(MILLER_PROBE), 72, 144),
        ("bls final exp", pairing_layer(FINAL_EXP_PROBE), 144, 144),
    ] {
        shaders::tests::assert_translates(name, &source(&layer, inw, out), &["probe"], true);
    }
}
