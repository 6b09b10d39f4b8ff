//! The EVM precompiles' declarations in the registry
//! ([`crate::registry`]): generated calls, honest and hostile, with the
//! oracle's answers. Honest calls: random multiples of the BN254
//! generators (sums, doublings, inverses, edge scalars; pairing checks of
//! 0–3 pairs that cancel or not), EIP-2537 MSMs over BLS public keys
//! with random, zero and infinity terms, EIP-2537 additions of subgroup
//! points, other points of the curve, points of order 3, infinity, equal
//! and opposite points, and maps of random elements, 0, 1 and -1. Hostile
//! calls: a coordinate at or above p, a point off its curve, nonzero top
//! bytes, a G1 point of order 3 (outside BLS12-381's G1) for the MSMs, a
//! BN254 twist point outside G2, a length the precompile refuses. The
//! bench's calls: ECADD and ECMUL of random points, pairing checks of two
//! pairs, MSMs of 16 (G1) and 8 (G2) pairs, additions of two subgroup
//! points, maps of random elements. MODEXP: honest calls of many shapes
//! ([`modexp_call`]), hostile ones a length above EIP-7823's bound; the
//! bench's calls the commonest on mainnet, an inversion in BN254's base
//! field (32-byte base, exponent p - 2, modulus p). ECRECOVER and
//! P256VERIFY: the `ecrecover` and `p256_verify` samples' signatures in
//! the precompiles' words (v 27 or 28; longer and shorter inputs when
//! varied), their hostile kinds (bad v, scalars out of range, a wrong
//! hash, a key off the curve, other lengths) returning nothing or another
//! address; SHA256, RIPEMD160 and IDENTITY: random bytes (64 in the
//! bench, 0 to 300 varied), no input of theirs fails.

use ark_bn254::{Fq, Fq2, Fr, G1Projective, G2Affine, G2Projective};
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup, PrimeGroup};
use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField};
use rand::RngExt;
use rand::rngs::StdRng;
use rayon::prelude::*;

use super::{CallResult, Precompile, bls12, bn254, kzg, modexp, oracle};
use crate::batch::FlatBytes;
use crate::engine::Engine;
use crate::ops::bls::{eip2537, sample as bls_sample};
use crate::ops::{Op, item_rng};
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

const fn spec(
    precompile: Precompile,
    item: &'static str,
    workload: fn(&WorkloadConfig) -> Box<dyn Workload>,
) -> OpSpec {
    // A kernel for every precompile but EIP-2537's additions and maps
    // (ECADD and ECMUL a thread per call, the pairing check a thread per
    // pair then per call, the MSMs the MSM kernel's sums, the point
    // evaluation the BLS12-381 stages, MODEXP a thread per call with a
    // modulus of up to 512 bits, ECRECOVER, SHA256 and P256VERIFY the
    // kernels of `ecrecover`, the SHA-256 hash and `p256_verify`; none for
    // RIPEMD160 and IDENTITY): calls split where a kernel exists.
    let gpu_kernel = !matches!(
        precompile,
        Precompile::BlsG1Add
            | Precompile::BlsG2Add
            | Precompile::BlsMapG1
            | Precompile::BlsMapG2
            | Precompile::Ripemd160
            | Precompile::Identity
    );
    OpSpec {
        op: Op::Evm(precompile),
        item,
        gpu_kernel,
        splittable: gpu_kernel,
        bench_msg_len: None,
        workload,
    }
}

/// `bn256_add`.
pub const BN256_ADD: OpSpec = spec(Precompile::Bn256Add, "ECADD call (2 G1 points)", |c| {
    calls(c, Precompile::Bn256Add)
});
/// `bn256_mul`.
pub const BN256_MUL: OpSpec = spec(Precompile::Bn256Mul, "ECMUL call (G1 point, scalar)", |c| {
    calls(c, Precompile::Bn256Mul)
});
/// `bn256_pairing` (bench: two pairs per call).
pub const BN256_PAIRING: OpSpec = spec(Precompile::Bn256Pairing, "ECPAIRING call (2 pairs)", |c| {
    calls(c, Precompile::Bn256Pairing)
});
/// `eip2537_g1msm` (bench: 16 pairs per call).
pub const G1MSM: OpSpec = spec(Precompile::BlsG1Msm, "G1MSM call (16 pairs)", |c| {
    calls(c, Precompile::BlsG1Msm)
});
/// `eip2537_g2msm` (bench: 8 pairs per call).
pub const G2MSM: OpSpec = spec(Precompile::BlsG2Msm, "G2MSM call (8 pairs)", |c| {
    calls(c, Precompile::BlsG2Msm)
});

/// `eip2537_g1add`.
pub const G1ADD: OpSpec = spec(Precompile::BlsG1Add, "G1ADD call (2 G1 points)", |c| {
    calls(c, Precompile::BlsG1Add)
});
/// `eip2537_g2add`.
pub const G2ADD: OpSpec = spec(Precompile::BlsG2Add, "G2ADD call (2 G2 points)", |c| {
    calls(c, Precompile::BlsG2Add)
});
/// `eip2537_map_g1`.
pub const MAP_G1: OpSpec = spec(Precompile::BlsMapG1, "MAP_FP_TO_G1 call (1 Fp element)", |c| {
    calls(c, Precompile::BlsMapG1)
});
/// `eip2537_map_g2`.
pub const MAP_G2: OpSpec = spec(Precompile::BlsMapG2, "MAP_FP2_TO_G2 call (1 Fp2 element)", |c| {
    calls(c, Precompile::BlsMapG2)
});

/// `kzg_point_evaluation`.
pub const POINT_EVALUATION: OpSpec = spec(Precompile::PointEvaluation, "point evaluation call (KZG proof)", |c| {
    calls(c, Precompile::PointEvaluation)
});

/// `modexp` (bench: inversions modulo BN254's p).
pub const MODEXP: OpSpec = spec(
    Precompile::ModExp,
    "MODEXP call (32-byte base, exponent, modulus)",
    |c| calls(c, Precompile::ModExp),
);

/// `evm_ecrecover`.
pub const ECRECOVER: OpSpec = spec(Precompile::Ecrecover, "ECRECOVER call (hash, v, r, s)", |c| {
    calls(c, Precompile::Ecrecover)
});
/// `evm_sha256`.
pub const SHA256: OpSpec = spec(Precompile::Sha256, "SHA256 call (64 bytes)", |c| {
    calls(c, Precompile::Sha256)
});
/// `evm_ripemd160`.
pub const RIPEMD160: OpSpec = spec(Precompile::Ripemd160, "RIPEMD160 call (64 bytes)", |c| {
    calls(c, Precompile::Ripemd160)
});
/// `evm_identity`.
pub const IDENTITY: OpSpec = spec(Precompile::Identity, "IDENTITY call (64 bytes)", |c| {
    calls(c, Precompile::Identity)
});
/// `evm_p256verify`.
pub const P256VERIFY: OpSpec = spec(Precompile::P256Verify, "P256VERIFY call (hash, r, s, qx, qy)", |c| {
    calls(c, Precompile::P256Verify)
});

/// An honest ECRECOVER or P256VERIFY call: the sample's valid signature
/// of item `i` in the precompile's words (`varied`: ECRECOVER's input
/// also cut after v or longer than 128 bytes).
fn signed_call(precompile: Precompile, rng: &mut StdRng, i: usize, varied: bool) -> Vec<u8> {
    use crate::ops::ecdsa::sample;
    let seed = rng.random();
    if precompile == Precompile::P256Verify {
        let (item, _) = sample::p256_verify_range(i..i + 1, 4, 0.0, seed)[0];
        return [item.hash, item.r, item.s, item.x, item.y].concat();
    }
    let (item, _) = sample::ecrecover_range(i..i + 1, 4, 0.0, seed)[0];
    let mut v = [0u8; 32];
    v[31] = if item.sig[64] < 27 {
        item.sig[64] + 27
    } else {
        item.sig[64]
    };
    let mut input = [&item.hash[..], &v, &item.sig[..64]].concat();
    match (varied, i % 5) {
        (true, 1) => input.extend_from_slice(&rng.random::<[u8; 9]>()),
        (true, 2) => input.truncate(64),
        _ => {}
    }
    input
}

/// ECRECOVER's and P256VERIFY's hostile kinds (each returns nothing or
/// another signer's address; neither precompile fails).
const SIGNED_HOSTILE: [&str; 6] = ["v", "v_word", "r_zero", "s_not_below_n", "wrong_hash", "length"];

/// A signed call spoiled (ECRECOVER's words: hash, v, r, s; P256VERIFY's:
/// hash, r, s, qx, qy, where "v" puts its key off the curve).
fn spoil_signed(precompile: Precompile, mut input: Vec<u8>, kind: &str, rng: &mut StdRng) -> Vec<u8> {
    let p256 = precompile == Precompile::P256Verify;
    input.resize(input.len().max(128), 0);
    let (r, s) = if p256 { (32, 64) } else { (64, 96) };
    match kind {
        "v" if p256 => input[159] ^= 1,
        "v" => input[63] = [0, 1, 29, 255][rng.random_range(0..4)],
        "v_word" if !p256 => input[32 + rng.random_range(0..31)] = 1,
        "r_zero" => input[r..r + 32].fill(0),
        "s_not_below_n" => input[s..s + 32].fill(0xff),
        "wrong_hash" => input[rng.random_range(0..32)] ^= 1,
        _ => {
            if p256 {
                input.truncate(159);
            } else {
                input.truncate(rng.random_range(0..64));
            }
        }
    }
    input
}

/// An honest MODEXP call. Not `varied`: x^(p-2) mod p for BN254's base
/// field (a field inversion, as verifier contracts call it). `varied`, by
/// `i`: that; random sizes up to 64 bytes with an odd modulus; an even
/// modulus; RSA-2048's shape (exponent 65537, a 256-byte modulus); a
/// modulus with leading zero bytes; exponent 0, base 0, modulus 0 or 1;
/// an input cut short or with bytes past its operands; a 1,024-byte
/// modulus with a short exponent; a 64-byte exponent over a modulus of
/// at most 8 bytes.
pub(crate) fn modexp_call(rng: &mut StdRng, i: usize, varied: bool) -> Vec<u8> {
    let bytes = |rng: &mut StdRng, n: usize| (0..n).map(|_| rng.random::<u8>()).collect::<Vec<u8>>();
    let odd = |mut m: Vec<u8>| {
        if let Some(last) = m.last_mut() {
            *last |= 1;
        }
        m
    };
    let inversion = |rng: &mut StdRng| {
        let exp = (-Fq::from(2u64)).into_bigint().to_bytes_be();
        let base = fq(&bytes(rng, 32)).into_bigint().to_bytes_be();
        modexp::encode(&base, &exp, &Fq::MODULUS.to_bytes_be())
    };
    if !varied {
        return inversion(rng);
    }
    match i % 9 {
        0 => inversion(rng),
        1 => {
            let (b, e, m) = (
                rng.random_range(0..=64),
                rng.random_range(0..=32),
                rng.random_range(1..=64),
            );
            let (base, exp, modulus) = (bytes(rng, b), bytes(rng, e), odd(bytes(rng, m)));
            modexp::encode(&base, &exp, &modulus)
        }
        2 => {
            let m = rng.random_range(1..=48);
            let mut modulus = bytes(rng, m);
            modulus[m - 1] &= 0xfe;
            modexp::encode(&bytes(rng, 32), &bytes(rng, 16), &modulus)
        }
        3 => {
            let mut modulus = odd(bytes(rng, 256));
            modulus[0] |= 0x80;
            modexp::encode(&bytes(rng, 256), &[1, 0, 1], &modulus)
        }
        4 => {
            let modulus = [vec![0; rng.random_range(1..=9)], odd(bytes(rng, 24))].concat();
            modexp::encode(&bytes(rng, 24), &bytes(rng, 24), &modulus)
        }
        5 => {
            let (mut base, mut exp, mut modulus) = (bytes(rng, 20), bytes(rng, 20), odd(bytes(rng, 20)));
            match (i / 9) % 4 {
                0 => exp.fill(0),
                1 => base.fill(0),
                2 => modulus.fill(0),
                _ => {
                    modulus.fill(0);
                    modulus[19] = 1;
                }
            }
            modexp::encode(&base, &exp, &modulus)
        }
        6 => {
            let mut input = modexp::encode(&bytes(rng, 32), &bytes(rng, 8), &odd(bytes(rng, 32)));
            if rng.random() {
                input.truncate(rng.random_range(0..input.len()));
            } else {
                input.extend(bytes(rng, 5));
            }
            input
        }
        7 => {
            let mut modulus = odd(bytes(rng, modexp::MAX_LEN));
            modulus[0] |= 0x80;
            modexp::encode(&bytes(rng, 64), &bytes(rng, 2), &modulus)
        }
        _ => {
            let m = rng.random_range(1..=8);
            modexp::encode(&bytes(rng, 8), &bytes(rng, 64), &odd(bytes(rng, m)))
        }
    }
}

/// A MODEXP call spoiled: one of its lengths just above EIP-7823's bound,
/// or beyond 64 bits.
fn spoil_modexp(mut input: Vec<u8>, kind: &str, rng: &mut StdRng) -> Vec<u8> {
    input.resize(input.len().max(96), 0);
    let word = 32 * rng.random_range(0..3);
    match kind {
        "over_bound" => {
            input[word..word + 32].fill(0);
            input[word + 30..word + 32].copy_from_slice(&(modexp::MAX_LEN as u16 + 1).to_be_bytes());
        }
        _ => input[word + rng.random_range(0..24)] |= 1,
    }
    input
}

/// MODEXP's hostile kinds.
const MODEXP_HOSTILE: [&str; 2] = ["over_bound", "huge_length"];

/// [τ]G1 of the Ethereum KZG ceremony (the second G1 point of the trusted
/// setup in monomial form, compressed; c-kzg-4844's
/// `g1_monomial_bytes.bin`, bytes 48..96).
const TAU_G1: [u8; 48] = [
    0xad, 0x3e, 0xb5, 0x01, 0x21, 0x13, 0x9a, 0xa3, 0x4d, 0xb1, 0xd5, 0x45, 0x09, 0x3a, 0xc9, 0x37, 0x4a, 0xb7, 0xbc,
    0xa2, 0xc0, 0xf3, 0xbf, 0x28, 0xe2, 0x7c, 0x8d, 0xcd, 0x8f, 0xc7, 0xcb, 0x42, 0xd2, 0x59, 0x26, 0xfc, 0x0c, 0x97,
    0xb3, 0x36, 0xe9, 0xf0, 0xfb, 0x35, 0xe5, 0xa0, 0x4c, 0x81,
];

/// An honest point evaluation call, made without a blob: for p(X) = a +
/// bX the commitment is [a]G + [b][τ]G, the quotient (p(X) - p(z)) / (X -
/// z) is the constant b, so the proof is [b]G, and y = a + bz.
/// `varied`: also the zero polynomial (commitment and proof at
/// infinity), constants (the proof at infinity), z = 0 and z = r - 1.
pub(crate) fn kzg_call(rng: &mut StdRng, i: usize, varied: bool) -> Vec<u8> {
    use ark_bls12_381::{Fr, G1Affine, G1Projective};
    use ark_serialize::{CanonicalDeserialize, CanonicalSerialize};
    let fr = |rng: &mut StdRng| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>());
    let (mut a, mut b, mut z) = (fr(rng), fr(rng), fr(rng));
    match (varied, i % 6) {
        (true, 1) => (a, b) = (Fr::ZERO, Fr::ZERO),
        (true, 2) => b = Fr::ZERO,
        (true, 3) => z = Fr::ZERO,
        (true, 4) => z = -Fr::ONE,
        _ => {}
    }
    let tau = G1Affine::deserialize_compressed(&TAU_G1[..]).expect("[τ]G1 is a point of G1");
    let compressed = |p: G1Projective| {
        let mut out = Vec::with_capacity(48);
        p.into_affine()
            .serialize_compressed(&mut out)
            .expect("a point serialises into a Vec");
        out
    };
    let commitment = compressed(G1Projective::generator() * a + tau * b);
    let proof = compressed(G1Projective::generator() * b);
    let y = a + b * z;
    [
        kzg::versioned_hash(&commitment).to_vec(),
        z.into_bigint().to_bytes_be(),
        y.into_bigint().to_bytes_be(),
        commitment,
        proof,
    ]
    .concat()
}

/// The point evaluation's hostile kinds.
const KZG_HOSTILE: [&str; 7] = [
    "hash",
    "y",
    "z_range",
    "proof_encoding",
    "commitment_curve",
    "proof_curve",
    "length",
];

/// A point evaluation call spoiled in the way `kind` names: a versioned
/// hash that is not the commitment's, a wrong y, z = r, a proof without
/// its compression flag, a commitment (with its hash made again) or a
/// proof whose x is changed (then off the curve or outside G1), a byte
/// short.
fn spoil_kzg(mut input: Vec<u8>, kind: &str) -> Vec<u8> {
    match kind {
        "hash" => input[5] ^= 1,
        "y" => input[95] ^= 1,
        "z_range" => input[32..64].copy_from_slice(&kzg::BLS_MODULUS),
        "proof_encoding" => input[144] &= 0x7f,
        "commitment_curve" => {
            input[143] ^= 1;
            let hash = kzg::versioned_hash(&input[96..144]);
            input[..32].copy_from_slice(&hash);
        }
        "proof_curve" => input[191] ^= 1,
        _ => {
            input.pop();
        }
    }
    input
}

/// A BN254 scalar from the generator.
fn fr(rng: &mut StdRng) -> Fr {
    Fr::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())
}

/// A random multiple of BN254's G1 generator, encoded.
fn bn_g1(rng: &mut StdRng) -> Vec<u8> {
    bn254::encode_g1((G1Projective::generator() * fr(rng)).into_affine())
}

/// The hostile kinds, by the precompile's family.
const BN_HOSTILE: [&str; 4] = ["field", "off_curve", "g2_subgroup", "length"];
const MSM_HOSTILE: [&str; 5] = ["field", "off_curve", "top_bytes", "g1_subgroup", "length"];
const ADD_HOSTILE: [&str; 4] = ["field", "off_curve", "top_bytes", "length"];
const MAP_HOSTILE: [&str; 3] = ["field", "top_bytes", "length"];

/// A BLS12-381 base-field element from the generator.
fn bls_fq(rng: &mut StdRng) -> ark_bls12_381::Fq {
    ark_bls12_381::Fq::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())
}

/// A point of BLS12-381's G1 or G2 curve for an addition (`varied`: the
/// self-test's kinds by `kind`: 0 a subgroup point, 1 a point of the
/// curve outside the subgroup, 2 infinity, 3 a point of order 3 on G1's
/// curve, (0, ±2), or another non-subgroup point on G2's).
fn bls_point<C: SWCurveConfig>(
    rng: &mut StdRng,
    kind: usize,
    generator: Affine<C>,
    coordinate: fn(&mut StdRng) -> C::BaseField,
) -> Affine<C> {
    match kind {
        1 | 3 => {
            if kind == 3 && C::COEFF_B == C::BaseField::from(4u64) {
                let two = C::BaseField::from(2u64);
                return Affine::new_unchecked(C::BaseField::ZERO, if rng.random() { two } else { -two });
            }
            loop {
                if let Some(p) = Affine::<C>::get_point_from_x_unchecked(coordinate(rng), rng.random()) {
                    break p;
                }
            }
        }
        2 => Affine::identity(),
        _ => (generator * C::ScalarField::from_le_bytes_mod_order(&rng.random::<[u8; 64]>())).into_affine(),
    }
}

/// An honest call of `precompile` (`varied`: the self-test's shapes).
fn honest(precompile: Precompile, rng: &mut StdRng, i: usize, varied: bool) -> Vec<u8> {
    match precompile {
        Precompile::Bn256Add => {
            let p = bn_g1(rng);
            let q = match (varied, i % 6) {
                (true, 1) => p.clone(),
                (true, 2) => bn254::encode_g1(-ark_bn254::G1Affine::new_unchecked(fq(&p[..32]), fq(&p[32..]))),
                (true, 3) => vec![0; 64],
                _ => bn_g1(rng),
            };
            let mut input = [p, q].concat();
            // Shorter and longer inputs are padded and cut, not refused.
            match (varied, i % 6) {
                (true, 4) => input.truncate(rng.random_range(0..128)),
                (true, 5) => input.extend_from_slice(&rng.random::<[u8; 7]>()),
                _ => {}
            }
            input
        }
        Precompile::Bn256Mul => {
            let mut s: [u8; 32] = rng.random();
            let r = Fr::MODULUS.to_bytes_be();
            match (varied, i % 8) {
                (true, 1) => s = [0; 32],
                (true, 2) => s = bn_word(1),
                (true, 3) => s.copy_from_slice(&r),
                (true, 4) => s = [0xff; 32],
                _ => {}
            }
            let p = if varied && i % 8 == 5 { vec![0; 64] } else { bn_g1(rng) };
            let mut input = [p, s.to_vec()].concat();
            if varied && i % 8 == 6 {
                input.truncate(rng.random_range(0..96));
            }
            input
        }
        Precompile::Bn256Pairing => {
            let k = if varied { i % 4 } else { 2 };
            let mut input = Vec::new();
            let mut sum = Fr::from(0u64);
            for j in 0..k {
                let (a, b) = (fr(rng), fr(rng));
                // The last pair cancels the others in every other call.
                let (a, b) = if j + 1 == k && i.is_multiple_of(2) {
                    (-sum, Fr::from(1u64))
                } else {
                    (a, b)
                };
                sum += a * b;
                input.extend(bn254::encode_g1((G1Projective::generator() * a).into_affine()));
                input.extend(bn254::encode_g2((G2Projective::generator() * b).into_affine()));
            }
            input
        }
        Precompile::BlsG1Add | Precompile::BlsG2Add => {
            // Honest calls add any points of the curve, the subgroup or not.
            let (p_kind, q_kind) = if varied { (i % 4, (i / 4) % 4) } else { (0, 0) };
            let same = varied && i % 9 == 7;
            if precompile == Precompile::BlsG1Add {
                let g = ark_bls12_381::G1Affine::generator();
                let p = bls_point(rng, p_kind, g, bls_fq);
                let q = if same { p } else { bls_point(rng, q_kind, g, bls_fq) };
                let q = if varied && i % 9 == 8 { -p } else { q };
                [bls12::encode_g1(&p), bls12::encode_g1(&q)].concat()
            } else {
                let g = ark_bls12_381::G2Affine::generator();
                let fq2 = |rng: &mut StdRng| ark_bls12_381::Fq2::new(bls_fq(rng), bls_fq(rng));
                let p = bls_point(rng, p_kind, g, fq2);
                let q = if same { p } else { bls_point(rng, q_kind, g, fq2) };
                let q = if varied && i % 9 == 8 { -p } else { q };
                [bls12::encode_g2(&p), bls12::encode_g2(&q)].concat()
            }
        }
        Precompile::PointEvaluation => kzg_call(rng, i, varied),
        Precompile::ModExp => modexp_call(rng, i, varied),
        Precompile::Ecrecover | Precompile::P256Verify => signed_call(precompile, rng, i, varied),
        Precompile::Sha256 | Precompile::Ripemd160 | Precompile::Identity => {
            let len = if varied { rng.random_range(0..=300) } else { 64 };
            (0..len).map(|_| rng.random::<u8>()).collect()
        }
        Precompile::BlsMapG1 | Precompile::BlsMapG2 => {
            let elements = if precompile == Precompile::BlsMapG1 { 1 } else { 2 };
            let mut input = Vec::new();
            for _ in 0..elements {
                let u = match (varied, i % 5) {
                    (true, 1) => ark_bls12_381::Fq::ZERO,
                    (true, 2) => ark_bls12_381::Fq::ONE,
                    (true, 3) => -ark_bls12_381::Fq::ONE,
                    _ => bls_fq(rng),
                };
                input.extend([0; 16]);
                input.extend(u.into_bigint().to_bytes_be());
            }
            input
        }
        Precompile::BlsG1Msm | Precompile::BlsG2Msm => {
            let g1 = precompile == Precompile::BlsG1Msm;
            let k = match (varied, g1) {
                (true, _) => 1 + i % 24,
                (false, true) => 16,
                (false, false) => 8,
            };
            let mut input = Vec::new();
            for j in 0..k {
                let point = match (varied && (i + j) % 9 == 4, g1) {
                    (true, true) => vec![0; 128],
                    (true, false) => vec![0; 256],
                    (false, true) => {
                        let keys = bls_sample::secret_keys(1, rng.random());
                        eip2537::encode_g1(&keys[0].sk_to_pk().serialize()).to_vec()
                    }
                    (false, false) => eip2537::encode_g2(&bls_sample::g2_points(1, rng.random())[0]).to_vec(),
                };
                let scalar = if varied && (i + j) % 7 == 3 {
                    [0; 32]
                } else {
                    rng.random()
                };
                input.extend(point);
                input.extend(scalar);
            }
            input
        }
    }
}

/// A base-field element from its big-endian word (an encoding made here,
/// always below p).
fn fq(word: &[u8]) -> Fq {
    Fq::from_be_bytes_mod_order(word)
}

/// The 32-byte big-endian word of a small value.
fn bn_word(v: u8) -> [u8; 32] {
    let mut w = [0; 32];
    w[31] = v;
    w
}

/// `input` spoiled in the way `kind` names (at its first point).
fn spoil(precompile: Precompile, mut input: Vec<u8>, kind: &str, rng: &mut StdRng) -> Vec<u8> {
    let bn = matches!(
        precompile,
        Precompile::Bn256Add | Precompile::Bn256Mul | Precompile::Bn256Pairing
    );
    // Where the first point's y coordinate ends (a map's input: where its
    // element ends), and its x word's range.
    let (x_word, y_end) = if bn {
        (0..32, 64)
    } else {
        (16..64, 128.min(input.len()))
    };
    if input.len() < y_end.max(x_word.end) {
        return input;
    }
    match kind {
        "field" if bn => input[x_word].copy_from_slice(&Fq::MODULUS.to_bytes_be()),
        "field" => input[x_word].fill(0xff),
        "off_curve" => input[y_end - 1] ^= 1,
        "top_bytes" => input[rng.random_range(0..16)] = 1,
        "g1_subgroup" => {
            // (0, 2) is on y^2 = x^3 + 4, of order 3: outside G1.
            input[..128].fill(0);
            input[127] = 2;
        }
        "g2_subgroup" if precompile == Precompile::Bn256Pairing && input.len() >= 192 => {
            let mut x = Fq2::from(rng.random::<u64>());
            let q = loop {
                match G2Affine::get_point_from_x_unchecked(x, true) {
                    Some(q) if !q.is_in_correct_subgroup_assuming_on_curve() => break q,
                    _ => x += Fq2::from(1u64),
                }
            };
            input[64..192].copy_from_slice(&bn254::encode_g2(q));
        }
        "length" if precompile != Precompile::Bn256Add && precompile != Precompile::Bn256Mul => {
            input.pop();
        }
        _ => input[y_end - 1] ^= 1,
    }
    input
}

fn calls(c: &WorkloadConfig, precompile: Precompile) -> Box<dyn Workload> {
    let distinct = c.distinct(256);
    let made: Vec<Vec<u8>> = (0..distinct)
        .into_par_iter()
        .map(|i| {
            let mut rng = item_rng(c.seed, i);
            let input = honest(precompile, &mut rng, i, c.varied);
            if !rng.random_bool(c.invalid_share.clamp(0.0, 1.0)) {
                return input;
            }
            let kinds: &[&str] = match precompile {
                Precompile::BlsG1Msm | Precompile::BlsG2Msm => &MSM_HOSTILE,
                Precompile::BlsG1Add | Precompile::BlsG2Add => &ADD_HOSTILE,
                Precompile::BlsMapG1 | Precompile::BlsMapG2 => &MAP_HOSTILE,
                Precompile::PointEvaluation => &KZG_HOSTILE,
                Precompile::ModExp => &MODEXP_HOSTILE,
                Precompile::Ecrecover | Precompile::P256Verify => &SIGNED_HOSTILE,
                // Every input is a call of theirs.
                Precompile::Sha256 | Precompile::Ripemd160 | Precompile::Identity => return input,
                _ => &BN_HOSTILE,
            };
            let kind = kinds[rng.random_range(0..kinds.len())];
            match precompile {
                Precompile::PointEvaluation => spoil_kzg(input, kind),
                Precompile::ModExp => spoil_modexp(input, kind, &mut rng),
                Precompile::Ecrecover | Precompile::P256Verify => spoil_signed(precompile, input, kind, &mut rng),
                _ => spoil(precompile, input, kind, &mut rng),
            }
        })
        .collect();
    let mut inputs = FlatBytes::with_capacity(c.n, made.iter().map(Vec::len).sum::<usize>() * c.n / distinct.max(1));
    for input in made.iter().cycle().take(c.n) {
        // Workloads stay far below the 4 GiB batch limit.
        let _fits = inputs.push(input);
    }
    let expected: Vec<CallResult> = (0..inputs.len())
        .into_par_iter()
        .map(|i| oracle::call(precompile, inputs.get(i)))
        .collect();
    Box::new(Cases {
        len: inputs.len(),
        input: (precompile, inputs),
        expected,
        oracle: |(p, inputs): &(Precompile, FlatBytes)| {
            for i in 0..inputs.len() {
                std::hint::black_box(oracle::call(*p, inputs.get(i)).ok());
            }
        },
        engine: |e: &Engine, (p, inputs): &(Precompile, FlatBytes)| e.evm(*p, inputs),
        same: |g: &CallResult, w: &CallResult| g == w,
        kernel: None,
        trivial: false,
        alternative: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The honest point evaluations made from [τ]G1 hold, in every varied
    /// shape: c-kzg accepts each (so the constant is the setup's and the
    /// proofs are right), and spoiling each breaks it.
    #[test]
    fn honest_point_evaluations_hold() {
        for i in 0..12 {
            let mut rng = item_rng(7, i);
            let call = kzg_call(&mut rng, i, true);
            assert_eq!(kzg::point_evaluation(&call), Ok(kzg::output().to_vec()), "call {i}");
            for kind in KZG_HOSTILE {
                assert!(
                    kzg::point_evaluation(&spoil_kzg(call.clone(), kind)).is_err(),
                    "{kind}, call {i}"
                );
            }
        }
    }

    /// The honest ECRECOVER and P256VERIFY calls return an address and the
    /// word 1; every hostile kind returns nothing, but a wrong hash, which
    /// recovers another address or nothing and fails P256VERIFY.
    #[test]
    fn signed_calls_answer_as_made() {
        for precompile in [Precompile::Ecrecover, Precompile::P256Verify] {
            for i in 0..10 {
                let mut rng = item_rng(9, i);
                let call = signed_call(precompile, &mut rng, i, false);
                let good = oracle::call(precompile, &call).expect("never fails");
                assert_eq!(good.len(), 32, "{precompile} call {i}");
                if precompile == Precompile::P256Verify {
                    assert_eq!(good, crate::ops::evm::bool_word(true));
                }
                for kind in SIGNED_HOSTILE {
                    let got = oracle::call(precompile, &spoil_signed(precompile, call.clone(), kind, &mut rng));
                    let got = got.expect("never fails");
                    if kind == "wrong_hash" && precompile == Precompile::Ecrecover {
                        assert_ne!(got, good, "{kind}");
                    } else {
                        assert!(got.is_empty(), "{precompile} {kind} call {i}: {got:?}");
                    }
                }
            }
        }
    }
}
