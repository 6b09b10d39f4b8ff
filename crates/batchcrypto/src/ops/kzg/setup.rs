//! The points of the Ethereum KZG ceremony's trusted setup that the GPU
//! paths need and c-kzg keeps to itself (its settings do not expose them):
//! [τ^j]G1 for j < FIELD_ELEMENTS_PER_BLOB (the G1 points in monomial
//! form: checking cells takes the first 64, computing commitments and
//! cell proofs all 4,096) and [τ^64]G2, compressed as ZCash writes them.
//! Copied from c-kzg-4844 2.1.8's `trusted_setup.txt` (its lines 4164 to
//! 8259 as `g1_monomial.txt`, and line 4163; SHA-256
//! d39b9f2d047cc9dca2de58f264b6a09448ccd34db967881a6713eacacf0f26b7), the
//! file every client loads; the tests prove each the right power of τ by
//! pairings from G1's generator and [τ]G2 (`chain_of_powers`: the first
//! 64 one by one, all 4,096 by one random combination).

/// [τ^j]G1, j < FIELD_ELEMENTS_PER_BLOB (4,096), compressed, in hex, one
/// point per line in order.
const G1_MONOMIAL: &str = include_str!("g1_monomial.txt");

/// [τ^j]G1, j < 4,096, compressed (hex), in order.
pub(crate) fn g1_monomial_hex() -> impl Iterator<Item = &'static str> {
    G1_MONOMIAL.lines()
}

/// [τ^j]G1, j < 4,096, decompressed once on the host's cores (the
/// ceremony's points, read without the subgroup check: the tests prove
/// them the powers of τ).
pub(crate) fn g1_monomial() -> &'static [ark_bls12_381::G1Affine] {
    use ark_serialize::CanonicalDeserialize;
    use rayon::prelude::*;
    static POINTS: std::sync::OnceLock<Vec<ark_bls12_381::G1Affine>> = std::sync::OnceLock::new();
    POINTS.get_or_init(|| {
        let hex: Vec<&str> = g1_monomial_hex().collect();
        hex.par_iter()
            .map(|h| {
                ark_bls12_381::G1Affine::deserialize_compressed_unchecked(&bytes(h)[..]).expect("a point of the setup")
            })
            .collect()
    })
}

/// [τ^j]G1, j < 4,096, as blst holds them (the sums' points on the GPU),
/// decompressed once on the host's cores.
#[cfg(feature = "wgpu")]
pub(crate) fn g1_monomial_blst() -> &'static [blst::blst_p1_affine] {
    use rayon::prelude::*;
    static POINTS: std::sync::OnceLock<Vec<blst::blst_p1_affine>> = std::sync::OnceLock::new();
    POINTS.get_or_init(|| {
        let hex: Vec<&str> = g1_monomial_hex().collect();
        hex.par_iter()
            .map(|h| {
                blst::min_pk::PublicKey::uncompress(&bytes(h))
                    .expect("a point of the setup")
                    .into()
            })
            .collect()
    })
}

/// [τ^64]G2, compressed (hex).
pub(crate) const G2_TAU_POW_CELL: &str = "92dcc5a1c8c3e1b28b1524e3dd6dbecd63017c9201da9dbe077f1b82adc08c50169f56fc7b5a3b28ec6b89254de3e2fd\
     12838a761053437883c3e01ba616670cea843754548ef84bcc397de2369adcca2ab54cd73c55dc68d87aec3fc2fe4f10";

/// A point's bytes from its hex.
pub(crate) fn bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("the setup's hex"))
        .collect()
}
