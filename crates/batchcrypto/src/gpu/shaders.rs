//! WGSL composition: the shared libraries under `gpu/wgsl/` and each
//! operation's kernel, concatenated in dependency order, after constants
//! rendered from Rust. One function per kernel returns its full source;
//! the generated code lives by layer in `shaders/hashes.rs` and
//! `shaders/fields.rs`.

mod fields;
mod hashes;

use fields::{ED_D, ED_SQRTM1, RISTRETTO_INVSQRT_A_MINUS_D, fe25519_generated, mont_mul_generated, uint_generated};
pub(crate) use hashes::SHA256_H0;
use hashes::{SHA512_H0, SHA512_K, blake2b_generated, blake3_generated, keccak_generated, sha256_compress_generated};

/// The bound the kernels' `loops_intact` guard expects (see guard.wgsl);
/// hosts pass it in their parameters.
pub(crate) const LOOP_GUARD: u32 = 2;

const GUARD: &str = include_str!("wgsl/guard.wgsl");

/// What every kernel shares with its host, rendered from the host's
/// constants (written once, in Rust), then the completion guard.
pub(crate) fn guard() -> String {
    format!(
        "const DONE_FLAG: u32 = {:#x}u;\nconst LOOPS_CUT_FLAG: u32 = {:#x}u;\nconst WORKGROUP_SIZE: u32 = {}u;\nconst LOOP_GUARD: u32 = {}u;\n{GUARD}",
        crate::gpu::DONE_FLAG,
        crate::gpu::LOOPS_CUT_FLAG,
        crate::gpu::WORKGROUP_SIZE,
        LOOP_GUARD,
    )
}
const KECCAK: &str = include_str!("wgsl/keccak.wgsl");
const KECCAK_LANE64: &str = include_str!("wgsl/keccak_lane64.wgsl");
const KECCAK_LANE32: &str = include_str!("wgsl/keccak_lane32.wgsl");
const SHA256: &str = include_str!("wgsl/sha256.wgsl");
const FLAT_MSGS: &str = include_str!("wgsl/flat_msgs.wgsl");
const SHA256_FLAT: &str = include_str!("wgsl/sha256_flat.wgsl");
const HASH: &str = include_str!("../ops/hash/hash.wgsl");
const HASH_SHA: &str = include_str!("../ops/hash/sha.wgsl");
const HASH_BLAKE: &str = include_str!("../ops/hash/blake.wgsl");
const MERKLE: &str = include_str!("../ops/merkle/merkle.wgsl");
const MERKLE_LEVEL: &str = include_str!("../ops/merkle/level.wgsl");
const MERKLE_PAIR: &str = include_str!("../ops/merkle/pair.wgsl");
const MERKLE_PROOF: &str = include_str!("../ops/merkle/proof.wgsl");
const FE25519: &str = include_str!("wgsl/fe25519.wgsl");
const SHA512: &str = include_str!("wgsl/sha512.wgsl");
const SC25519: &str = include_str!("wgsl/sc25519.wgsl");
const ED25519_POINT: &str = include_str!("wgsl/ed25519_point.wgsl");
const ED25519_DSM: &str = include_str!("wgsl/ed25519_dsm.wgsl");
const ED25519_VERIFY: &str = include_str!("../ops/ed25519/verify.wgsl");
const RISTRETTO: &str = include_str!("wgsl/ristretto.wgsl");
const STROBE: &str = include_str!("wgsl/strobe.wgsl");
const SR25519_VERIFY: &str = include_str!("../ops/sr25519/verify.wgsl");
const U256: &str = include_str!("wgsl/u256.wgsl");
const WEIERSTRASS: &str = include_str!("wgsl/weierstrass.wgsl");
const WEIERSTRASS_A0: &str = include_str!("wgsl/weierstrass_a0.wgsl");
const WEIERSTRASS_AM3: &str = include_str!("wgsl/weierstrass_am3.wgsl");
const DOUBLE_ADD: &str = include_str!("wgsl/double_add.wgsl");
const GLV: &str = include_str!("wgsl/glv.wgsl");
const ECDSA: &str = include_str!("../ops/ecdsa/ecdsa.wgsl");
const SPONGE: &str = include_str!("wgsl/sponge.wgsl");
const NTT: &str = include_str!("wgsl/ntt.wgsl");
const LATTICE_IO: &str = include_str!("wgsl/lattice_io.wgsl");
const MLDSA_VERIFY: &str = include_str!("../ops/mldsa/verify.wgsl");
const MLKEM: &str = include_str!("../ops/mlkem/kem.wgsl");
const SLHDSA_SHAKE: &str = include_str!("../ops/slhdsa/shake.wgsl");
const SLHDSA_SHA2: &str = include_str!("../ops/slhdsa/sha2.wgsl");
const SLHDSA_VERIFY: &str = include_str!("../ops/slhdsa/verify.wgsl");

fn u64_array(name: &str, values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:#018x}lu")).collect();
    format!("const {name} = array<u64, {}>({});\n", values.len(), items.join(", "))
}

pub(crate) fn u32_array(name: &str, values: &[u32]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:#010x}u")).collect();
    format!("const {name} = array<u32, {}>({});\n", values.len(), items.join(", "))
}

/// The hash libraries (Keccak-f[1600] on u64 lanes with `int64`, else on
/// u32 pairs; SHA-256) and the guard, then `kernel`.
fn with_hash_libraries(kernel: &str, int64: bool) -> String {
    let lanes = if int64 { KECCAK_LANE64 } else { KECCAK_LANE32 };
    [
        u32_array("SHA256_H0", &SHA256_H0),
        guard(),
        lanes.to_string(),
        keccak_generated(),
        KECCAK.to_string(),
        SHA256.to_string(),
        sha256_compress_generated(),
        kernel.to_string(),
    ]
    .join("\n")
}

/// The batch hashing kernel (entry point `hash_main`); `int64` picks the
/// Keccak lane type.
pub(crate) fn hash(int64: bool) -> String {
    with_hash_libraries(
        &[&hash_algs(), FLAT_MSGS, SHA256_FLAT, HASH_SHA, HASH].join("\n"),
        int64,
    )
}

/// The batch hashing kernel for the BLAKE family (entry point
/// `hash_main`, the bindings of [`hash`]'s): BLAKE2b-256 on `Lane`s
/// (`int64` picks their type), BLAKE3 on u32 words.
pub(crate) fn hash_blake(int64: bool) -> String {
    let lanes = if int64 { KECCAK_LANE64 } else { KECCAK_LANE32 };
    [
        u32_array("SHA256_H0", &SHA256_H0),
        hash_algs(),
        guard(),
        lanes.to_string(),
        SHA256.to_string(),
        blake2b_generated(),
        blake3_generated(),
        FLAT_MSGS.to_string(),
        HASH_BLAKE.to_string(),
        HASH.to_string(),
    ]
    .join("\n")
}

/// The hashing kernels' algorithm codes (the host's `params.alg`).
fn hash_algs() -> String {
    use crate::ops::hash::Alg;
    Alg::ALL
        .iter()
        .map(|alg| {
            format!(
                "const ALG_{}: u32 = {}u;\n",
                alg.name().replace('-', "_").to_uppercase(),
                *alg as u32
            )
        })
        .collect()
}

/// The Merkle level kernel (entry point `merkle_level`); `int64` picks the
/// Keccak lane type.
pub(crate) fn merkle(int64: bool) -> String {
    with_hash_libraries(&[&merkle_rules(), MERKLE_PAIR, MERKLE_LEVEL, MERKLE].join("\n"), int64)
}

/// The inclusion proofs' kernel under the rules over bytes (entry point
/// `merkle_proof`); `int64` picks the Keccak lane type.
pub(crate) fn merkle_proof(int64: bool) -> String {
    with_hash_libraries(&[&merkle_rules(), MERKLE_PAIR, MERKLE_PROOF].join("\n"), int64)
}

/// The Merkle kernels' rule codes (the hosts' `rule as u32`).
fn merkle_rules() -> String {
    use crate::ops::merkle::Rule;
    Rule::ALL
        .iter()
        .map(|rule| {
            format!(
                "const RULE_{}: u32 = {}u;\n",
                rule.name().replace('-', "_").to_uppercase(),
                *rule as u32
            )
        })
        .collect()
}

/// The shape of a short-Weierstrass curve y^2 = x^3 + a x + b, which picks
/// its point formulas and double scalar multiplication (the rest of the
/// curve is data in a buffer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CurveShape {
    /// a = 0 with the endomorphism (beta x, y) (secp256k1): GLV.
    AZeroGlv,
    /// a = -3 (P-256): double and add over the full scalar u2.
    AMinus3,
}

/// The ECDSA kernel for a curve of `shape` whose constants are the WGSL
/// `curve` (entry points `ecdsa_verify` and `ecdsa_recover`; needs
/// SHADER_INT64).
pub(crate) fn ecdsa(shape: CurveShape, curve: &str) -> String {
    let (formulas, double_mul) = match shape {
        CurveShape::AZeroGlv => (WEIERSTRASS_A0, GLV),
        CurveShape::AMinus3 => (WEIERSTRASS_AM3, DOUBLE_ADD),
    };
    let kernel = [
        curve.to_string(),
        U256.to_string(),
        mont_mul_generated(8, "U256", "u256_sub"),
        WEIERSTRASS.to_string(),
        formulas.to_string(),
        double_mul.to_string(),
        u32_array(
            "BIP340_CHALLENGE_MIDSTATE",
            &crate::ops::bip340::gpu::challenge_midstate(),
        ),
        FLAT_MSGS.to_string(),
        SHA256_FLAT.to_string(),
        ECDSA.to_string(),
    ]
    .join("\n");
    with_hash_libraries(&kernel, true)
}

/// The edwards25519 layers with their constants: the field, scalars mod
/// L, points, the double-scalar multiplication over the device's table of
/// B, and flat messages, after the guard.
fn edwards25519_layers() -> Vec<String> {
    vec![
        u32_array("ED_D_WORDS", &ED_D),
        u32_array("ED_SQRTM1_WORDS", &ED_SQRTM1),
        guard(),
        FE25519.to_string(),
        fe25519_generated(),
        SC25519.to_string(),
        ED25519_POINT.to_string(),
        ED25519_DSM.to_string(),
        FLAT_MSGS.to_string(),
    ]
}

/// The Ed25519 verification kernel (entry points `ed25519_setup` and `ed25519_verify`).
pub(crate) fn ed25519_verify() -> String {
    let mut src = edwards25519_layers();
    src.extend([
        u64_array("SHA512_K", &SHA512_K),
        u64_array("SHA512_H0", &SHA512_H0),
        SHA512.to_string(),
        ED25519_VERIFY.to_string(),
    ]);
    src.join("\n")
}

/// The sr25519 verification kernel (entry point `sr25519_verify`): the
/// edwards25519 layers, Ristretto, Keccak-f[1600] on u64 lanes and the
/// STROBE interpreter with schnorrkel's verification transcript.
pub(crate) fn sr25519_verify() -> String {
    let mut src = edwards25519_layers();
    src.extend([
        u32_array("RISTRETTO_INVSQRT_A_MINUS_D_WORDS", &RISTRETTO_INVSQRT_A_MINUS_D),
        RISTRETTO.to_string(),
        KECCAK_LANE64.to_string(),
        keccak_generated(),
        crate::ops::sr25519::gpu::transcript_program(),
        STROBE.to_string(),
        SR25519_VERIFY.to_string(),
    ]);
    src.join("\n")
}

/// Keccak-f[1600] on u64 lanes and the SHAKE sponge (one sponge per
/// invocation), after the guard.
fn sponge_layers() -> Vec<String> {
    vec![
        guard(),
        KECCAK_LANE64.to_string(),
        keccak_generated(),
        SPONGE.to_string(),
    ]
}

/// The lattice layers for `ntt`'s ring: the NTT's constants and layer,
/// the work buffers' accessors and NO_KEY.
fn lattice_layers(ntt: super::ntt::Ntt) -> Vec<String> {
    vec![
        format!("{}{NTT}", ntt.wgsl_constants()),
        LATTICE_IO.to_string(),
        format!("const NO_KEY: u32 = {:#x}u;\n", super::keys::NO_KEY),
    ]
}

/// The ML-DSA verification kernel (entry points `mldsa_keys`,
/// `mldsa_items`, `mldsa_rows` and `mldsa_final`; needs SHADER_INT64).
pub(crate) fn mldsa_verify() -> String {
    let mut src = sponge_layers();
    src.push(FLAT_MSGS.to_string());
    src.extend(lattice_layers(super::ntt::MLDSA));
    src.push(MLDSA_VERIFY.to_string());
    src.join("\n")
}

/// The SLH-DSA verification kernel of the SHAKE sets (`shake`) or the
/// SHA2 sets (entry points `slhdsa_wide` and `slhdsa_item`; needs
/// SHADER_INT64): the hash libraries, the family's tweakable hashes, the
/// passes.
pub(crate) fn slhdsa_verify(shake: bool) -> String {
    let family = if shake {
        SLHDSA_SHAKE.to_string()
    } else {
        [
            u64_array("SHA512_K", &SHA512_K),
            u64_array("SHA512_H0", &SHA512_H0),
            SHA512.to_string(),
            SLHDSA_SHA2.to_string(),
        ]
        .join("\n")
    };
    with_hash_libraries(&[family.as_str(), SLHDSA_VERIFY].join("\n"), true)
}

/// The ML-KEM kernel (entry points `kem_*`, staged by ops/mlkem/gpu.rs;
/// needs SHADER_INT64).
pub(crate) fn mlkem() -> String {
    let mut src = sponge_layers();
    src.extend(lattice_layers(super::ntt::MLKEM));
    src.push(MLKEM.to_string());
    src.join("\n")
}

const U64: &str = include_str!("wgsl/u64.wgsl");
const GOLDILOCKS: &str = include_str!("wgsl/goldilocks.wgsl");
pub(crate) const NTT_RADIX2: &str = include_str!("../ops/ntt/radix2.wgsl");
pub(crate) const NTT_PASSES: &str = include_str!("../ops/ntt/passes.wgsl");
pub(crate) const NTT_BLOCK: &str = include_str!("../ops/ntt/block.wgsl");
const NTT_FIELD64: &str = include_str!("../ops/ntt/field64.wgsl");
const NTT_GOLDILOCKS: &str = include_str!("../ops/ntt/goldilocks.wgsl");
const NTT_PRIME64: &str = include_str!("../ops/ntt/prime64.wgsl");
const NTT_FIELD256: &str = include_str!("../ops/ntt/field256.wgsl");

/// The NTT `kernel` ([`NTT_RADIX2`], a workgroup per polynomial, or
/// [`NTT_PASSES`], a block's stages then a dispatch per two stages) over Goldilocks (needs
/// SHADER_INT64).
pub(crate) fn ntt_goldilocks(kernel: &str) -> String {
    [guard().as_str(), U64, GOLDILOCKS, NTT_FIELD64, NTT_GOLDILOCKS, kernel].join("\n")
}

/// The NTT `kernel` over any odd 64-bit prime, read from the kernel's
/// parameters (Montgomery form; needs SHADER_INT64).
pub(crate) fn ntt_prime64(kernel: &str) -> String {
    [guard().as_str(), U64, NTT_FIELD64, NTT_PRIME64, kernel].join("\n")
}

/// The NTT `kernel` over the 256-bit prime field of modulus `m` (limbs,
/// least significant first) with `r2` = R^2 mod m and `inv` = -m^-1 mod
/// 2^32 (needs SHADER_INT64 for the 64-bit products).
pub(crate) fn ntt_fr256(m: &[u32; 8], r2: &[u32; 8], inv: u32, kernel: &str) -> String {
    let limbs = |l: &[u32; 8]| l.iter().map(|w| format!("{w:#x}u")).collect::<Vec<_>>().join(", ");
    let constants = format!(
        "const FR_M: U256 = U256({});\nconst FR_R2: U256 = U256({});\nconst FR_INV: u32 = {inv:#x}u;\n",
        limbs(m),
        limbs(r2)
    );
    [
        guard(),
        U256.to_string(),
        mont_mul_generated(8, "U256", "u256_sub"),
        constants,
        NTT_FIELD256.to_string(),
        kernel.to_string(),
    ]
    .join("\n")
}

const BN254_G1: &str = include_str!("wgsl/bn254_g1.wgsl");
const MSM_PIPPENGER: &str = include_str!("../ops/msm/pippenger.wgsl");
const MSM_PARAMS: &str = include_str!("../ops/msm/params.wgsl");
const MSM_PLAN: &str = include_str!("../ops/msm/plan.wgsl");
const EVM_G1: &str = include_str!("../ops/evm/g1.wgsl");
const EVM_MODEXP: &str = include_str!("../ops/evm/modexp.wgsl");
const POSEIDON: &str = include_str!("../ops/poseidon/poseidon.wgsl");
const POSEIDON_HASH: &str = include_str!("../ops/poseidon/hash.wgsl");
const MERKLE_POSEIDON: &str = include_str!("../ops/merkle/poseidon.wgsl");
const MERKLE_PAIR_POSEIDON: &str = include_str!("../ops/merkle/pair_poseidon.wgsl");

/// Poseidon's kernel for width `t` with `partial` partial rounds
/// (`ops/poseidon/hash.wgsl`, entry point `poseidon_main`) over the
/// permutation (needs SHADER_INT64).
pub(crate) fn poseidon(t: usize, partial: usize) -> String {
    [poseidon_permutation(t, partial), POSEIDON_HASH.to_string()].join("\n")
}

/// The lean-imt-poseidon Merkle levels' kernel (`ops/merkle/poseidon.wgsl`,
/// entry point `merkle_poseidon_level`) over the permutation of width 3
/// with `partial` partial rounds (needs SHADER_INT64).
pub(crate) fn merkle_poseidon(partial: usize) -> String {
    [
        poseidon_permutation(3, partial),
        MERKLE_PAIR_POSEIDON.to_string(),
        MERKLE_LEVEL.to_string(),
        MERKLE_POSEIDON.to_string(),
    ]
    .join("\n")
}

/// The inclusion proofs' kernel under lean-imt-poseidon (entry point
/// `merkle_proof`) over the permutation of width 3 with `partial` partial
/// rounds (needs SHADER_INT64).
pub(crate) fn merkle_proof_poseidon(partial: usize) -> String {
    [
        poseidon_permutation(3, partial),
        MERKLE_PAIR_POSEIDON.to_string(),
        MERKLE_PROOF.to_string(),
    ]
    .join("\n")
}

/// Poseidon's permutation for width `t` with `partial` partial rounds
/// (`ops/poseidon/poseidon.wgsl`) over the 256-bit Montgomery layer modulo
/// BN254's r.
fn poseidon_permutation(t: usize, partial: usize) -> String {
    use super::bigint::{from_ark, neg_inv32, wgsl_const};
    use ark_ff::PrimeField;
    let r = from_ark::<8>(ark_bn254::Fr::MODULUS);
    let constants = format!(
        "{}const POS_INV: u32 = {:#x}u;\nconst POS_T: u32 = {t}u;\nconst POS_PARTIAL: u32 = {partial}u;\n",
        wgsl_const("POS_R", &r),
        neg_inv32(r[0])
    );
    [guard(), mont256_layer(&constants), POSEIDON.to_string()].join("\n")
}

/// What the MSM's two modules share (`ops/msm/params.wgsl`) after the
/// host's constants of the plan's table.
fn msm_params() -> String {
    use crate::ops::msm::gpu::{CHUNK_TERMS, TABLE_HEAD};
    format!("const TABLE_HEAD: u32 = {TABLE_HEAD}u;\nconst CHUNK_TERMS: u32 = {CHUNK_TERMS}u;\n{MSM_PARAMS}")
}

/// The MSM's plan made on the device (`ops/msm/plan.wgsl`; entry points
/// `msm_count_main`, `msm_tiles_main`, `msm_offsets_main`, `msm_scan_main`,
/// `msm_place_main`) for the scalar field of modulus `r`.
pub(crate) fn msm_plan(r: &super::bigint::Limbs<8>) -> String {
    [
        guard(),
        msm_params(),
        format!("const TILE_RUN: u32 = {}u;", crate::ops::msm::gpu::TILE_RUN),
        super::bigint::wgsl_const("SCALAR_R", r),
        MSM_PLAN.to_string(),
    ]
    .join("\n")
}

/// EIP-196's ECADD and ECMUL kernel (`ops/evm/g1.wgsl`, entry point
/// `g1_main`) over BN254's G1 layer (needs SHADER_INT64).
pub(crate) fn evm_g1() -> String {
    [guard(), bn254_g1_layer(), EVM_G1.to_string()].join("\n")
}

/// EIP-198's MODEXP kernel (`ops/evm/modexp.wgsl`, entry point
/// `modexp_main`) for moduli of `limbs` 32-bit limbs: `Big` and the CIOS
/// product generated for that width (needs SHADER_INT64).
pub(crate) fn evm_modexp(limbs: usize) -> String {
    [
        guard(),
        format!("const MODEXP_LIMBS: u32 = {limbs}u;\nalias Big = array<u32, {limbs}>;\n"),
        uint_generated(limbs, "big"),
        mont_mul_generated(limbs, "Big", "big_sub"),
        EVM_MODEXP.to_string(),
    ]
    .join("\n")
}

/// BN254's G1 over the 256-bit Montgomery layer (`wgsl/bn254_g1.wgsl`)
/// with its constants (from arkworks' moduli) and the complete a = 0 point
/// formulas rendered for it (`bn_add`, `bn_dbl`; needs SHADER_INT64).
pub(crate) fn bn254_g1_layer() -> String {
    use super::bigint::from_ark;
    use ark_ff::PrimeField;
    let (p, n) = (from_ark(ark_bn254::Fq::MODULUS), from_ark(ark_bn254::Fr::MODULUS));
    let (a, b) = (super::bigint::small::<8>(0), super::bigint::small::<8>(3));
    [
        mont256_layer(&super::curve::weierstrass_wgsl(&p, &n, &a, &b)),
        BN254_G1.to_string(),
        a0_formulas("fq", "BnProj", "bn"),
    ]
    .join("\n")
}

/// The a = 0 point formulas (`wgsl/weierstrass_a0.wgsl`, written for the
/// ECDSA layer's curve parameter `c`) over the field `field` (its
/// `<field>_mul`, `_add`, `_sub`, `_times_b3`) for the point type `point`,
/// as `<prefix>_add`, `<prefix>_add_affine`, `<prefix>_dbl`.
fn a0_formulas(field: &str, point: &str, prefix: &str) -> String {
    WEIERSTRASS_A0
        .replace("fmul(c, c.b3, ", &format!("{field}_times_b3("))
        .replace("fmul(c, ", &format!("{field}_mul("))
        .replace("fadd(c, ", &format!("{field}_add("))
        .replace("fsub(c, ", &format!("{field}_sub("))
        // The formulas' calls of each other and their signatures lose `c`.
        .replace("(c, ", "(")
        .replace("c: Curve, ", "")
        .replace("Proj", point)
        .replace("proj_", &format!("{prefix}_"))
}

/// The MSM kernel for `curve` (ops/msm/pippenger.wgsl rendered over the
/// group's layer; entry points `msm_chunks_main`, `msm_segments_main` and
/// `msm_groups_main`; needs SHADER_INT64).
pub(crate) fn msm(curve: crate::ops::msm::Curve) -> String {
    use crate::ops::msm::Curve;
    let (layer, point, group, ty, field, limb, words) = match curve {
        Curve::Bn254G1 => (bn254_g1_layer(), "BnProj", "bn_", "Fq", "fq_", "U256", 8),
        Curve::Bls12381G1 => (bls_curve_layer(), "G1Proj", "g1_", "Fp", "fp_", "Fp", 12),
        Curve::Bls12381G2 => (bls_curve_layer(), "G2Proj", "g2_", "Fp2", "fp2_", "Fp", 24),
    };
    [
        guard(),
        layer,
        format!(
            "const FIELD_WORDS: u32 = {words}u;\nconst LIMB_WORDS: u32 = {}u;\n",
            if limb == "U256" { 8 } else { 12 }
        ),
        msm_params(),
        MSM_PIPPENGER
            .replace("GPoint", point)
            .replace("grp_", group)
            .replace("Field", ty)
            .replace("field_", field)
            .replace("Limb", limb),
    ]
    .join("\n")
}

const FIELD_BENCH: &str = include_str!("wgsl/field_bench.wgsl");
const FP: &str = include_str!("wgsl/fp.wgsl");
const FP2: &str = include_str!("wgsl/fp2.wgsl");
const FP_POW: &str = include_str!("wgsl/fp_pow.wgsl");
const BLS_CURVE: &str = include_str!("wgsl/bls_curve.wgsl");
const BLS_GROUP: &str = include_str!("wgsl/bls_group.wgsl");
const BLS_HASH: &str = include_str!("../ops/bls/hash.wgsl");

/// BLS's hash to field kernel (`bls_hash`, ops/bls/hash.wgsl; host
/// ops/bls/gpu/signatures.rs) after BLS12-381's field layer, with SHA-256
/// and the hash constant. The signature operations' other stages are
/// tower-machine programs.
pub(crate) fn bls_hash() -> String {
    use crate::ops::bls::gpu::signatures as host;
    let dst = host::dst_prime();
    let bytes: Vec<u32> = dst.iter().map(|&b| u32::from(b)).collect();
    [
        guard(),
        format!("const HASH_OUT: u32 = {}u;\n", host::HASH_OUT),
        fp_layer(Tower::Bls12381),
        u32_array("SHA256_H0", &SHA256_H0),
        SHA256.to_string(),
        sha256_compress_generated(),
        FLAT_MSGS.to_string(),
        u32_array("XMD_DST_PRIME", &bytes),
        format!("const XMD_DST_PRIME_LEN: u32 = {}u;\n", dst.len()),
        super::curve::bls_hash_wgsl(),
        BLS_HASH.to_string(),
    ]
    .join("\n")
}

/// BLS12-381's G1 and G2 (`wgsl/bls_curve.wgsl`) over F_p and F_p2, with
/// each group's layer ([`group_layer`]), for the MSM kernels.
pub(crate) fn bls_curve_layer() -> String {
    [
        fp2_layer(Tower::Bls12381),
        BLS_CURVE.to_string(),
        group_layer("g1", "fp"),
        group_layer("g2", "fp2"),
    ]
    .join("\n")
}

/// A pairing curve's group `g` (g1, g2) over the field `field` (fp, fp2):
/// the complete a = 0 formulas of `wgsl/weierstrass_a0.wgsl` (with the
/// curve's `<field>_times_b3`) and the group-generic `wgsl/bls_group.wgsl`,
/// rendered for it.
fn group_layer(g: &str, field: &str) -> String {
    let (point, ty) = (format!("{}Proj", g.to_uppercase()), format!("F{}", &field[1..]));
    [
        a0_formulas(field, &point, g),
        BLS_GROUP
            .replace("GPoint", &point)
            .replace("grp_", &format!("{g}_"))
            .replace("Field", &ty)
            .replace("field_", &format!("{field}_")),
    ]
    .join("\n")
}

/// A pairing-friendly curve's tower F_p < F_p2 < F_p6 < F_p12, for which
/// the field layers (`wgsl/fp.wgsl`, `wgsl/fp2.wgsl`) and the tower
/// machine (gpu/tower_vm.rs) are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tower {
    /// BLS12-381: p of 381 bits (twelve limbs), xi = 1 + u.
    Bls12381,
    /// BN254 (alt_bn128): p of 254 bits (eight limbs), xi = 9 + u.
    Bn254,
}

impl Tower {
    /// u32 limbs of a base-field element.
    pub(crate) fn limbs(self) -> usize {
        match self {
            Tower::Bls12381 => 12,
            Tower::Bn254 => 8,
        }
    }

    /// Words of an F_p12 value.
    pub(crate) fn fp12_words(self) -> usize {
        12 * self.limbs()
    }
}

/// A tower's F_p and F_p2 (`wgsl/fp2.wgsl`) with their constants and
/// generated arithmetic at its limb count (needs SHADER_INT64).
pub(crate) fn fp2_layer(tower: Tower) -> String {
    [
        fp_layer(tower),
        FP2.to_string(),
        FP_POW.replace("Field", "Fp").replace("field_", "fp_"),
        FP_POW.replace("Field", "Fp2").replace("field_", "fp2_"),
    ]
    .join("\n")
}

/// A tower's F_p (`wgsl/fp.wgsl`) with its constants and generated
/// arithmetic at its limb count (needs SHADER_INT64).
pub(crate) fn fp_layer(tower: Tower) -> String {
    use super::bigint::{from_ark, from_hex};
    let constants = match tower {
        Tower::Bls12381 => super::curve::tower_field_wgsl::<12>(&from_hex(super::curve::BLS12_381_P), 1),
        Tower::Bn254 => {
            use ark_ff::PrimeField;
            super::curve::tower_field_wgsl::<8>(&from_ark(ark_bn254::Fq::MODULUS), 9)
        }
    };
    let n = tower.limbs();
    [
        constants,
        uint_generated(n, "fp_limbs"),
        mont_mul_generated(n, &format!("array<u32, {n}>"), "fp_limbs_sub"),
        FP.to_string(),
    ]
    .join("\n")
}

/// The tower machine's kernel (entry point `tower_vm`) over `tower`'s F_p
/// (gpu/tower_vm.rs).
pub(crate) fn tower_vm(tower: Tower) -> String {
    [guard(), super::tower_vm::wgsl(&fp_layer(tower), tower.limbs())].join("\n")
}

/// The Ed25519 kernels' field layer: arithmetic mod 2^255 - 19.
pub(crate) fn fe25519_layer() -> String {
    [FE25519.to_string(), fe25519_generated()].join("\n")
}

/// A 256-bit Montgomery field layer after the curve's constants `curve`.
pub(crate) fn mont256_layer(curve: &str) -> String {
    [
        curve.to_string(),
        U256.to_string(),
        mont_mul_generated(8, "U256", "u256_sub"),
    ]
    .join("\n")
}

/// The field-multiplication bench (entry point `field_bench`, in `entry`)
/// over a field `layer` (see gpu/field_bench.rs).
pub(crate) fn field_bench(layer: &str, entry: &str) -> String {
    [guard(), FIELD_BENCH.to_string(), layer.to_string(), entry.to_string()].join("\n")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Every kernel the engine compiles: (name, source, entry points, needs
    /// SHADER_INT64).
    fn every_kernel() -> Vec<(String, String, &'static [&'static str], bool)> {
        let mut kernels = Vec::new();
        for int64 in [true, false] {
            kernels.push((format!("hash int64={int64}"), hash(int64), &["hash_main"][..], int64));
            kernels.push((
                format!("hash blake int64={int64}"),
                hash_blake(int64),
                &["hash_main"][..],
                int64,
            ));
            kernels.push((
                format!("merkle int64={int64}"),
                merkle(int64),
                &["merkle_level"][..],
                int64,
            ));
            kernels.push((
                format!("merkle proof int64={int64}"),
                merkle_proof(int64),
                &["merkle_proof"][..],
                int64,
            ));
        }
        for (curve, name) in [(0, "ecdsa secp256k1"), (1, "ecdsa p256")] {
            kernels.push((
                name.to_string(),
                crate::ops::ecdsa::gpu::kernel_source(curve),
                &["ecdsa_verify", "ecdsa_recover", "bip340_verify"][..],
                true,
            ));
        }
        for field in crate::gpu::field_bench::Field::ALL {
            kernels.push((
                field.name().to_string(),
                field.source(),
                &["field_bench"][..],
                field != crate::gpu::field_bench::Field::Imad,
            ));
        }
        kernels.push((
            "ed25519".to_string(),
            ed25519_verify(),
            &["ed25519_setup", "ed25519_verify"][..],
            true,
        ));
        kernels.push(("sr25519".to_string(), sr25519_verify(), &["sr25519_verify"][..], true));
        kernels.push((
            "ml-dsa".to_string(),
            mldsa_verify(),
            &["mldsa_keys", "mldsa_items", "mldsa_rows", "mldsa_final"][..],
            true,
        ));
        kernels.push((
            "ml-kem".to_string(),
            mlkem(),
            &[
                "kem_keygen_seed",
                "kem_expand",
                "kem_keygen_rows",
                "kem_keygen_final",
                "kem_decrypt_u",
                "kem_decrypt",
                "kem_seed",
                "kem_noise",
                "kem_encrypt_rows",
                "kem_final",
            ][..],
            true,
        ));
        for field in crate::ops::ntt::Field::ALL {
            kernels.push((
                format!("ntt {field}"),
                crate::ops::ntt::gpu::kernel_source(field, false),
                &["ntt_main"][..],
                true,
            ));
            kernels.push((
                format!("ntt passes {field}"),
                crate::ops::ntt::gpu::kernel_source(field, true),
                &["ntt_block", "ntt_stage", "ntt_finish"][..],
                true,
            ));
        }
        for tower in [Tower::Bls12381, Tower::Bn254] {
            kernels.push((format!("tower vm {tower:?}"), tower_vm(tower), &["tower_vm"][..], true));
        }
        kernels.push(("evm g1".to_string(), evm_g1(), &["g1_main"][..], true));
        for limbs in crate::ops::evm::gpu::MODEXP_LIMBS {
            kernels.push((
                format!("evm modexp {limbs}"),
                evm_modexp(limbs),
                &["modexp_main"][..],
                true,
            ));
        }
        for curve in crate::ops::msm::Curve::ALL {
            kernels.push((
                format!("msm {curve}"),
                msm(curve),
                &["msm_chunks_main", "msm_segments_main"][..],
                true,
            ));
        }
        kernels.push(("bls hash".to_string(), bls_hash(), &["bls_hash"][..], true));
        for inputs in 1..=crate::ops::poseidon::MAX_INPUTS {
            kernels.push((
                format!("poseidon {inputs} inputs"),
                crate::ops::poseidon::gpu::kernel_source(inputs).expect("parameters for every width"),
                &["poseidon_main"][..],
                true,
            ));
        }
        kernels.push((
            "merkle poseidon".to_string(),
            crate::ops::merkle::gpu::poseidon_source().expect("parameters for two inputs"),
            &["merkle_poseidon_level"][..],
            true,
        ));
        kernels.push((
            "merkle proof poseidon".to_string(),
            crate::ops::merkle::gpu::proof_poseidon_source().expect("parameters for two inputs"),
            &["merkle_proof"][..],
            true,
        ));
        kernels
    }

    /// Portability evidence without a Mac or a Windows machine: every
    /// kernel validates under the capabilities the engine requests and
    /// translates, with naga (the translator wgpu uses on those systems),
    /// to Metal Shading Language and to HLSL, each entry point present.
    /// The versions asked for are the first with 64-bit integers (MSL 2.3+,
    /// shader model 6.0); naga's writers do not check them against the
    /// types used, so a driver's compiler is still the final word.
    #[test]
    fn every_kernel_translates_to_metal_and_hlsl() {
        for (name, src, entries, int64) in every_kernel() {
            assert_translates(&name, &src, entries, int64);
        }
    }

    /// `src` validates under the capabilities the engine requests (64-bit
    /// integers where `int64`) and translates to MSL 2.4 and HLSL SM 6.0
    /// with each of `entries` present (see above).
    pub(crate) fn assert_translates(name: &str, src: &str, entries: &[&str], int64: bool) {
        use naga::back::{hlsl, msl};
        use naga::valid::{Capabilities, ValidationFlags, Validator};
        let module = naga::front::wgsl::parse_str(src).unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(src)));
        let caps = if int64 {
            Capabilities::SHADER_INT64
        } else {
            Capabilities::empty()
        };
        let info = Validator::new(ValidationFlags::all(), caps)
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: validation: {e:?}"));
        for entry in entries {
            assert!(
                module.entry_points.iter().any(|e| e.name == *entry),
                "{name}: no entry point {entry}"
            );
        }
        let options = msl::Options {
            lang_version: (2, 4),
            ..Default::default()
        };
        let (metal, _) = msl::write_string(&module, &info, &options, &msl::PipelineOptions::default())
            .unwrap_or_else(|e| panic!("{name}: to MSL: {e:?}"));
        for entry in entries {
            assert!(metal.contains(entry), "{name}: MSL lacks {entry}");
        }
        let options = hlsl::Options {
            shader_model: hlsl::ShaderModel::V6_0,
            ..Default::default()
        };
        let mut dx = String::new();
        hlsl::Writer::new(&mut dx, &options, &hlsl::PipelineOptions::default())
            .write(&module, &info, None)
            .unwrap_or_else(|e| panic!("{name}: to HLSL: {e:?}"));
        for entry in entries {
            assert!(dx.contains(entry), "{name}: HLSL lacks {entry}");
        }
    }

    /// Parses and validates WGSL with naga, as wgpu does before compiling.
    fn validate(src: &str) {
        use wgpu::naga;
        let module = naga::front::wgsl::parse_str(src).unwrap_or_else(|e| panic!("{}", e.emit_to_string(src)));
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
            .validate(&module)
            .unwrap_or_else(|e| panic!("{e:?}"));
    }

    /// The Montgomery generator at other widths gives valid WGSL (384-bit
    /// fields for BLS12-381 take 12 limbs).
    #[test]
    fn mont_mul_generates_valid_wgsl_at_any_width() {
        for n in [8, 12] {
            let prelude = format!(
                "alias U{n} = array<u32, {n}>;\nstruct Sub{n} {{ v: U{n}, c: u32 }}\nfn sub{n}(a: U{n}, b: U{n}) -> Sub{n} {{ return Sub{n}(a, 0u); }}\n"
            );
            validate(&(prelude + &mont_mul_generated(n, &format!("U{n}"), &format!("sub{n}"))));
        }
    }
}
