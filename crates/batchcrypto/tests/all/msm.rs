//! Multi-scalar multiplication (`Engine::msm`) on BN254 G1 and BLS12-381
//! G1 and G2, against sums computed here with arkworks: term by term for
//! BN254 (not arkworks' MSM, which the library uses) and with arkworks'
//! own MSM for BLS12-381 (the library uses blst). Sizes around every
//! threshold of the two paths (blst's one-by-one/Pippenger switch at 32,
//! its growing windows, the CPU path's chunks of 1,024), identities, zero,
//! repeated, unreduced and opposite terms; hostile points (bad encodings,
//! off the curve, outside the subgroup) at the first, a middle and the
//! last term; calls that are not calls. Every engine; engines without a
//! kernel say they ran on the CPU.

use crate::support::{self, engines, expected_backend};
use ark_ec::short_weierstrass::{Affine as SwAffine, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, One, PrimeField, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
use batchcrypto::ops::msm::{Curve, Encoding, MsmResult, SCALAR_LEN, oracle};
use batchcrypto::registry::{self, WorkloadConfig};
use batchcrypto::{Error, Reason};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The points and sums of most tests.
const UNC: Encoding = Encoding::Uncompressed;

/// Every engine's answer, each engine having run where it should: the GPU
/// engine on the GPU (the kernel needs SHADER_INT64: the engine opened
/// without it runs on the CPU).
fn on_every_engine(curve: Curve, enc: Encoding, points: &[u8], scalars: &[u8]) -> Vec<(&'static str, MsmResult)> {
    support::on_every_engine(|engine| engine.msm(curve, enc, points, scalars).expect("msm"))
}

fn assert_answer(curve: Curve, enc: Encoding, points: &[u8], scalars: &[u8], want: &MsmResult, what: &str) {
    assert_eq!(
        &oracle::msm(curve, enc, points, scalars),
        want,
        "oracle, {curve} {enc} {what}"
    );
    for (name, got) in on_every_engine(curve, enc, points, scalars) {
        assert_eq!(&got, want, "{name}, {curve} {enc} {what}");
    }
}

fn be<F: PrimeField>(x: F) -> Vec<u8> {
    x.into_bigint().to_bytes_be()
}

/// BN254 G1 as the library encodes it (x ‖ y big-endian, (0, 0) identity).
fn enc_bn(p: &ark_bn254::G1Affine) -> Vec<u8> {
    p.xy().map_or(vec![0; 64], |(x, y)| [be(x), be(y)].concat())
}

/// BLS12-381 G1 in blst's uncompressed form (0x40 and zeros: identity).
fn enc_g1(p: &ark_bls12_381::G1Affine) -> Vec<u8> {
    p.xy()
        .map_or_else(|| [vec![0x40], vec![0; 95]].concat(), |(x, y)| [be(x), be(y)].concat())
}

/// BLS12-381 G2 in blst's uncompressed form (x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0).
fn enc_g2(q: &ark_bls12_381::G2Affine) -> Vec<u8> {
    q.xy().map_or_else(
        || [vec![0x40], vec![0; 191]].concat(),
        |(x, y)| [be(x.c1), be(x.c0), be(y.c1), be(y.c0)].concat(),
    )
}

/// arkworks' compressed encoding: its own for BN254, ZCash's for
/// BLS12-381 (written by arkworks, not blst: an independent writer).
fn comp<T: CanonicalSerialize>(p: &T) -> Vec<u8> {
    let mut out = Vec::new();
    p.serialize_compressed(&mut out).expect("serializes");
    out
}

/// One call in both encodings and its expected sum (arkworks).
struct Call {
    points: Vec<u8>,
    compressed: Vec<u8>,
    scalars: Vec<u8>,
    sum: Vec<u8>,
    sum_compressed: Vec<u8>,
}

/// Random terms with edges mixed in, and the expected sum: points,
/// scalars, sum.
fn call(curve: Curve, n: usize, rng: &mut StdRng) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let c = terms(curve, n, rng);
    (c.points, c.scalars, c.sum)
}

/// [`call`] in both encodings.
fn terms(curve: Curve, n: usize, rng: &mut StdRng) -> Call {
    let scalars: Vec<[u8; 32]> = (0..n)
        .map(|i| match i % 17 {
            3 => [0; 32],
            6 => [0xff; 32],
            9 if i > 0 => [7; 32],
            _ => rng.random(),
        })
        .collect();
    let flat_scalars: Vec<u8> = scalars.iter().flatten().copied().collect();
    macro_rules! terms {
        ($g:ty, $fr:ty, $enc:ident, $sum:expr) => {{
            let fr = |rng: &mut StdRng| <$fr>::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
            let base = (<$g>::generator() * fr(rng)).into_affine();
            let pts: Vec<_> = (0..n)
                .map(|i| match i % 11 {
                    2 => <$g as CurveGroup>::Affine::zero(),
                    // The same point again, and its opposite.
                    4 => base,
                    8 => -base,
                    _ => (<$g>::generator() * fr(rng)).into_affine(),
                })
                .collect();
            let ss: Vec<$fr> = scalars.iter().map(|s| <$fr>::from_le_bytes_mod_order(s)).collect();
            let total = $sum(&pts, &ss).into_affine();
            Call {
                points: pts.iter().flat_map($enc).collect(),
                compressed: pts.iter().flat_map(comp).collect(),
                scalars: flat_scalars,
                sum: $enc(&total),
                sum_compressed: comp(&total),
            }
        }};
    }
    match curve {
        Curve::Bn254G1 => terms!(
            ark_bn254::G1Projective,
            ark_bn254::Fr,
            enc_bn,
            |p: &[ark_bn254::G1Affine], s: &[ark_bn254::Fr]| p
                .iter()
                .zip(s)
                .map(|(p, s)| *p * s)
                .sum::<ark_bn254::G1Projective>()
        ),
        Curve::Bls12381G1 => terms!(
            ark_bls12_381::G1Projective,
            ark_bls12_381::Fr,
            enc_g1,
            |p: &[ark_bls12_381::G1Affine], s: &[ark_bls12_381::Fr]| ark_bls12_381::G1Projective::msm(p, s)
                .expect("same lengths")
        ),
        Curve::Bls12381G2 => terms!(
            ark_bls12_381::G2Projective,
            ark_bls12_381::Fr,
            enc_g2,
            |p: &[ark_bls12_381::G2Affine], s: &[ark_bls12_381::Fr]| ark_bls12_381::G2Projective::msm(p, s)
                .expect("same lengths")
        ),
    }
}

#[test]
fn sums_at_every_threshold() {
    let mut rng = StdRng::seed_from_u64(18);
    for (curve, sizes) in [
        (
            Curve::Bn254G1,
            &[0usize, 1, 2, 3, 31, 32, 33, 100, 1023, 1024, 1025, 2049, 6000][..],
        ),
        (Curve::Bls12381G1, &[0, 1, 2, 31, 32, 33, 64, 65, 300, 1025, 6000][..]),
        (Curve::Bls12381G2, &[0, 1, 2, 31, 32, 33, 200, 1100][..]),
    ] {
        for &n in sizes {
            let (points, scalars, want) = call(curve, n, &mut rng);
            assert_answer(curve, UNC, &points, &scalars, &Ok(want), &format!("{n} terms"));
        }
        // All scalars zero, and only identities: the identity.
        let (points, _, _) = call(curve, 40, &mut rng);
        let identity = oracle::msm(curve, UNC, &[], &[]).expect("empty sum");
        assert_answer(
            curve,
            UNC,
            &points,
            &[0; 40 * SCALAR_LEN],
            &Ok(identity.clone()),
            "zero scalars",
        );
        let ids = identity.repeat(5);
        assert_answer(curve, UNC, &ids, &[9; 5 * SCALAR_LEN], &Ok(identity), "identities");
    }
}

/// Terms that fill buckets unevenly: every scalar equal (one bucket per
/// window holds every term: the GPU path's chunks of a full bucket, and
/// on BN254 one full enough for larger chunks), the
/// digits at their extremes (r - 1, 2^255 - 1 unreduced, powers of two
/// at and around window edges), every point equal.
#[test]
fn uneven_buckets() {
    let mut rng = StdRng::seed_from_u64(19);
    let mut extremes: Vec<[u8; 32]> = vec![[0xff; 32], [0x80; 32], [0x7f; 32]];
    for bit in [0usize, 1, 7, 8, 15, 16, 63, 64, 127, 128, 200, 253, 254, 255] {
        let mut s = [0u8; 32];
        s[bit / 8] |= 1 << (bit % 8);
        extremes.push(s);
        // 2^bit - 1: every digit below it at its largest.
        let mut m = [0u8; 32];
        for b in 0..bit {
            m[b / 8] |= 1 << (b % 8);
        }
        extremes.push(m);
    }
    for curve in Curve::ALL {
        // On BN254 also a bucket of more than 32^2 terms (1,363 after the
        // identities are left out), which the GPU path cuts into chunks of
        // ceil(sqrt) terms instead of 32.
        let sizes: &[usize] = match curve {
            Curve::Bn254G1 => &[1, 33, 700, 1500],
            _ => &[1, 33, 700],
        };
        for &n in sizes {
            let (points, _, _) = call(curve, n, &mut rng);
            // Every scalar the same: the sum is s times the sum of the points.
            let same: [u8; 32] = rng.random();
            let scalars = same.repeat(n);
            let mut one = [0u8; 32];
            one[0] = 1;
            let ones = one.repeat(n);
            let sum_of_points = oracle::msm(curve, UNC, &points, &ones).expect("sum");
            let want = oracle::msm(curve, UNC, &sum_of_points, &same).expect("scaled");
            assert_answer(curve, UNC, &points, &scalars, &Ok(want), &format!("{n} equal scalars"));
        }
        // The extremes, each term's point equal.
        let (one_point, _, _) = call(curve, 1, &mut rng);
        let n = extremes.len();
        let points = one_point.repeat(n);
        let scalars: Vec<u8> = extremes.iter().flatten().copied().collect();
        let want = oracle::msm(curve, UNC, &points, &scalars);
        assert_answer(curve, UNC, &points, &scalars, &want, "extreme digits");
    }
}

/// A sum of 44,000 terms, all but every 40th scalar zero: on the GPU the
/// plan's scan has 80 tiles of buckets (13-bit windows), more than its
/// offsets pass has threads (64), which the other sizes do not reach; the
/// non-zero digits fall in every tile, while the chunk sums stay few.
#[test]
fn a_plan_of_more_tiles_than_threads() {
    let mut rng = StdRng::seed_from_u64(21);
    let n = 44_000;
    let g = ark_bn254::G1Projective::generator();
    let mut p = g * ark_bn254::Fr::from(rng.random::<u64>());
    let points: Vec<ark_bn254::G1Projective> = (0..n)
        .map(|_| {
            p += g;
            p
        })
        .collect();
    let points: Vec<u8> = CurveGroup::normalize_batch(&points).iter().flat_map(enc_bn).collect();
    let scalars: Vec<u8> = (0..n)
        .flat_map(|i| if i % 40 == 7 { rng.random::<[u8; 32]>() } else { [0; 32] })
        .collect();
    let want = oracle::msm(Curve::Bn254G1, UNC, &points, &scalars);
    assert!(want.is_ok());
    assert_answer(Curve::Bn254G1, UNC, &points, &scalars, &want, "44,000 terms, most zero");
}

/// Bases checked once and summed with many scalar vectors: equal to the
/// one-call MSM on every engine (the GPU engine keeps them on the device
/// after the first sum); bad bases and wrong scalar counts refused.
#[test]
fn bases_kept_for_many_sums() {
    let mut rng = StdRng::seed_from_u64(20);
    for curve in Curve::ALL {
        let n = 150;
        let (points, _, _) = call(curve, n, &mut rng);
        for (name, engine) in engines() {
            let bases = engine.msm_bases(curve, UNC, &points).expect("good bases");
            assert_eq!((bases.len(), bases.curve()), (n, curve));
            for round in 0..3 {
                let (_, scalars, _) = call(curve, n, &mut rng);
                let want = oracle::msm(curve, UNC, &points, &scalars).expect("sum");
                let out = engine.msm_with(&bases, &scalars).expect("msm_with");
                assert_eq!(out.output, want, "{name}, {curve} round {round}");
                assert_eq!(
                    out.selection.backend.name(),
                    expected_backend(name, true),
                    "{name}: {}",
                    out.selection
                );
            }
            if name == "gpu" {
                assert!(format!("{bases:?}").contains("on_device: true"), "{bases:?}");
            }
            match engine.msm_with(&bases, &[0; 31]) {
                Err(Error::InvalidInput { reason, .. }) => assert!(reason.contains("150 bases"), "{reason}"),
                other => panic!("{name}: {other:?}"),
            }
            let mut bad = points.clone();
            let len = curve.point_len();
            bad[17 * len + len - 1] ^= 1;
            match engine.msm_bases(curve, UNC, &bad) {
                Err(Error::InvalidInput { reason, .. }) => {
                    assert_eq!(reason, "point 17: not_on_curve", "{name}")
                }
                other => panic!("{name}: {other:?}"),
            }
            assert!(matches!(
                engine.msm_bases(curve, UNC, &points[1..]),
                Err(Error::InvalidInput { .. })
            ));
        }
    }
    // Bases on one engine's device, summed by another GPU engine: its own
    // device cannot read them, so that engine sums on the CPU, and says so.
    if let Some(gpu) = crate::support::gpu_engine() {
        let curve = Curve::Bn254G1;
        let (points, scalars, want) = call(curve, 40, &mut rng);
        let bases = gpu.msm_bases(curve, UNC, &points).expect("bases");
        gpu.msm_with(&bases, &scalars).expect("first sum");
        let other = batchcrypto::Engine::builder()
            .backend(batchcrypto::BackendChoice::Gpu)
            .build()
            .expect("a second GPU engine");
        let out = other.msm_with(&bases, &scalars).expect("msm_with");
        assert_eq!(out.output, want);
        assert!(
            out.selection.why.contains("another engine's device"),
            "{}",
            out.selection
        );
    }
}

/// Writes a hostile point over an encoded one.
type Spoiler = Box<dyn Fn(&mut [u8])>;

#[test]
fn hostile_points_give_the_first_reason() {
    use ark_bls12_381::{Fq, Fq2, G1Affine, G2Affine};
    let mut rng = StdRng::seed_from_u64(1);
    // On E but outside G1: the order-3 point (0, 2) and one from x alone;
    // on E' but outside G2: one from x alone.
    let order3 = enc_g1(&G1Affine::new_unchecked(Fq::from(0u64), Fq::from(2u64)));
    let mut x = Fq::from(3u64);
    let g1_outside = loop {
        match G1Affine::get_point_from_x_unchecked(x, true) {
            Some(p) if !p.is_in_correct_subgroup_assuming_on_curve() => break enc_g1(&p),
            _ => x += Fq::from(1u64),
        }
    };
    let mut x2 = Fq2::from(3u64);
    let g2_outside = loop {
        match G2Affine::get_point_from_x_unchecked(x2, true) {
            Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => break enc_g2(&q),
            _ => x2 += Fq2::from(1u64),
        }
    };
    for curve in Curve::ALL {
        let len = curve.point_len();
        let (points, scalars, _) = call(curve, 40, &mut rng);
        // Spoilers: (what to write at the point, the reason).
        let mut spoil: Vec<(Spoiler, Reason)> =
            vec![(Box::new(move |p: &mut [u8]| p[len - 1] ^= 1), Reason::NotOnCurve)];
        match curve {
            Curve::Bn254G1 => {
                let m = be(ark_bn254::Fq::from(0u64) - ark_bn254::Fq::from(1u64));
                spoil.push((
                    Box::new(move |p: &mut [u8]| {
                        // x = p (the modulus): p - 1 plus one in the last byte.
                        p[..32].copy_from_slice(&m);
                        p[31] = p[31].wrapping_add(1);
                    }),
                    Reason::MalformedPoint,
                ));
            }
            Curve::Bls12381G1 => {
                let (o, g) = (order3.clone(), g1_outside.clone());
                spoil.push((
                    Box::new(move |p: &mut [u8]| p.copy_from_slice(&o)),
                    Reason::PointNotInSubgroup,
                ));
                spoil.push((
                    Box::new(move |p: &mut [u8]| p.copy_from_slice(&g)),
                    Reason::PointNotInSubgroup,
                ));
                spoil.push((Box::new(|p: &mut [u8]| p[0] |= 0x80), Reason::MalformedPoint));
                spoil.push((Box::new(|p: &mut [u8]| p[..48].fill(0xff)), Reason::MalformedPoint));
            }
            Curve::Bls12381G2 => {
                let g = g2_outside.clone();
                spoil.push((
                    Box::new(move |p: &mut [u8]| p.copy_from_slice(&g)),
                    Reason::PointNotInSubgroup,
                ));
                spoil.push((Box::new(|p: &mut [u8]| p[0] |= 0x80), Reason::MalformedPoint));
            }
        }
        // The identity flag with other bits set is no encoding.
        if curve != Curve::Bn254G1 {
            spoil.push((
                Box::new(|p: &mut [u8]| {
                    p.fill(0);
                    p[0] = 0x40;
                    p[7] = 1;
                }),
                Reason::MalformedPoint,
            ));
        }
        for (write, reason) in &spoil {
            for at in [0usize, 17, 39] {
                let mut bad = points.clone();
                write(&mut bad[at * len..(at + 1) * len]);
                assert_answer(
                    curve,
                    UNC,
                    &bad,
                    &scalars,
                    &Err(*reason),
                    &format!("{reason:?} at {at}"),
                );
            }
        }
        // Two bad points: the first one's reason.
        let (first, second) = (&spoil[spoil.len() - 1], &spoil[0]);
        let mut bad = points.clone();
        first.0(&mut bad[5 * len..6 * len]);
        second.0(&mut bad[30 * len..31 * len]);
        assert_answer(curve, UNC, &bad, &scalars, &Err(first.1), "two bad points");
    }
}

/// Compressed points (arkworks' form for BN254, ZCash's for BLS12-381,
/// both written here by arkworks): the same sums, compressed, on every
/// engine, in one call and from bases; `oracle::recode` between the two.
#[test]
fn compressed_points_give_the_same_sums() {
    let mut rng = StdRng::seed_from_u64(21);
    let enc = Encoding::Compressed;
    for curve in Curve::ALL {
        for n in [0usize, 1, 2, 40, 300] {
            let c = terms(curve, n, &mut rng);
            assert_eq!(c.compressed.len(), n * curve.encoded_len(enc));
            let want = Ok(c.sum_compressed);
            assert_answer(curve, enc, &c.compressed, &c.scalars, &want, &format!("{n} terms"));
        }
        let c = terms(curve, 60, &mut rng);
        // recode: point by point between the encodings, both ways.
        let (u, k) = (curve.point_len(), curve.encoded_len(enc));
        for (p, q) in c.points.chunks(u).zip(c.compressed.chunks(k)) {
            assert_eq!(oracle::recode(curve, UNC, enc, p).as_deref(), Ok(q), "{curve}");
            assert_eq!(oracle::recode(curve, enc, UNC, q).as_deref(), Ok(p), "{curve}");
        }
        assert_eq!(oracle::recode(curve, enc, UNC, &c.points), Err(Reason::MalformedPoint));
        for (name, engine) in engines() {
            let bases = engine.msm_bases(curve, enc, &c.compressed).expect("bases");
            assert_eq!((bases.len(), bases.encoding()), (60, enc));
            let out = engine.msm_with(&bases, &c.scalars).expect("msm_with");
            assert_eq!(out.output, c.sum_compressed, "{name}, {curve} bases");
        }
    }
}

/// A point of the curve outside its prime-order subgroup, and an x that no
/// point has (written with y = 0), both compressed by arkworks.
fn outside_and_no_y<P: SWCurveConfig>() -> (Vec<u8>, Vec<u8>) {
    let one = P::BaseField::one();
    let mut x = one;
    while SwAffine::<P>::get_point_from_x_unchecked(x, true).is_some() {
        x += one;
    }
    let no_y = comp(&SwAffine::<P>::new_unchecked(x, P::BaseField::zero()));
    loop {
        x += one;
        if let Some(p) = SwAffine::<P>::get_point_from_x_unchecked(x, true)
            && !p.is_in_correct_subgroup_assuming_on_curve()
        {
            return (comp(&p), no_y);
        }
    }
}

/// Hostile compressed points. BN254: any 32 bytes, each pair of flags,
/// read as arkworks reads them (x below p with the identity flag is the
/// identity, as arkworks has it), refused as `malformed_point` (both
/// flags, x not below p) or `not_on_curve` (no y has x). BLS12-381: blst's
/// rules (the compression flag, identity only with zeros and no sort
/// flag, x below p, some y, the subgroup).
#[test]
fn hostile_compressed_points() {
    let mut rng = StdRng::seed_from_u64(22);
    let enc = Encoding::Compressed;
    let one = {
        let mut s = [0u8; 32];
        s[0] = 1;
        s
    };
    // BN254: one-term calls (the sum is the point itself).
    let modulus = ark_bn254::Fq::MODULUS;
    for flags in 0..4u8 {
        for i in 0..6 {
            let mut bytes: [u8; 32] = rng.random();
            if i == 0 {
                bytes = [0; 32];
                bytes[0] = 5;
            }
            bytes[31] = (bytes[31] & 0x3f) | (flags << 6);
            // x: the bytes without the flags, little-endian.
            let mut x = ark_ff::BigInt::<4>::zero();
            for (i, b) in bytes.iter().enumerate() {
                let b = if i == 31 { b & 0x3f } else { *b };
                x.0[i / 8] |= u64::from(b) << (8 * (i % 8));
            }
            let below_p = x < modulus;
            let want = match ark_bn254::G1Affine::deserialize_compressed(&bytes[..]) {
                Ok(p) => Ok(comp(&p)),
                Err(_) if flags == 0b11 || !below_p => Err(Reason::MalformedPoint),
                Err(_) => Err(Reason::NotOnCurve),
            };
            if flags == 0b01 && below_p {
                assert_eq!(want, Ok(comp(&ark_bn254::G1Affine::zero())), "arkworks' identity");
            }
            assert_answer(
                Curve::Bn254G1,
                enc,
                &bytes,
                &one,
                &want,
                &format!("flags {flags:02b}, {bytes:02x?}"),
            );
        }
    }
    // BLS12-381: spoilers over a valid compressed point of a 20-term call.
    let (g1_outside, g1_no_y) = outside_and_no_y::<ark_bls12_381::g1::Config>();
    let (g2_outside, g2_no_y) = outside_and_no_y::<ark_bls12_381::g2::Config>();
    for (curve, outside, no_y) in [
        (Curve::Bls12381G1, g1_outside, g1_no_y),
        (Curve::Bls12381G2, g2_outside, g2_no_y),
    ] {
        let len = curve.encoded_len(enc);
        let c = terms(curve, 20, &mut rng);
        let spoil: Vec<(Spoiler, Reason)> = vec![
            (Box::new(|p: &mut [u8]| p[0] &= 0x7f), Reason::MalformedPoint),
            (
                Box::new(move |p: &mut [u8]| p.copy_from_slice(&outside)),
                Reason::PointNotInSubgroup,
            ),
            (
                Box::new(move |p: &mut [u8]| p.copy_from_slice(&no_y)),
                Reason::NotOnCurve,
            ),
            (
                Box::new(|p: &mut [u8]| {
                    p.fill(0xff);
                    p[0] = 0x9f;
                }),
                Reason::MalformedPoint,
            ),
            (
                Box::new(|p: &mut [u8]| {
                    p.fill(0);
                    p[0] = 0xe0;
                }),
                Reason::MalformedPoint,
            ),
            (
                Box::new(move |p: &mut [u8]| {
                    p.fill(0);
                    p[0] = 0xc0;
                    p[len - 1] = 1;
                }),
                Reason::MalformedPoint,
            ),
        ];
        for (write, reason) in &spoil {
            let mut bad = c.compressed.clone();
            write(&mut bad[7 * len..8 * len]);
            assert_answer(curve, enc, &bad, &c.scalars, &Err(*reason), &format!("{reason:?}"));
        }
        // The identity written compressed: no term.
        let mut with_id = c.compressed.clone();
        with_id[3 * len..4 * len].fill(0);
        with_id[3 * len] = 0xc0;
        let mut no_term = c.scalars.clone();
        no_term[3 * SCALAR_LEN..4 * SCALAR_LEN].fill(0);
        let want = oracle::msm(curve, enc, &c.compressed, &no_term);
        assert_answer(curve, enc, &with_id, &c.scalars, &want, "identity");
    }
}

#[test]
fn calls_that_are_not_calls_are_refused() {
    for (name, engine) in engines() {
        for curve in Curve::ALL {
            for enc in Encoding::ALL {
                let len = curve.encoded_len(enc);
                for (points, scalars) in [(len + 1, 32), (2 * len, 32), (len, 31), (0, 32), (len, 0)] {
                    match engine.msm(curve, enc, &vec![0; points], &vec![0; scalars]) {
                        Err(Error::InvalidInput { reason, .. }) => assert!(!reason.is_empty()),
                        other => panic!("{name} {curve} {enc} {points}/{scalars}: {other:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn generated_sums_match_the_oracle() {
    for curve in Curve::ALL {
        let spec = registry::spec(batchcrypto::Op::Msm(curve));
        for (n, varied) in [(1, true), (300, true), (2000, false)] {
            let config = WorkloadConfig {
                n,
                invalid_share: 0.0,
                signers: 1,
                seed: n as u64,
                varied,
            };
            let workload = (spec.workload)(&config);
            for (name, engine) in engines() {
                if let Err(e) = workload.check(engine) {
                    panic!("{} on {name}: {e}", spec.name());
                }
            }
        }
    }
}
