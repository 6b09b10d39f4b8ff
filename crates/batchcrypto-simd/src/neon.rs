//! The NEON level (AArch64): two Keccak-f\[1600\] states in the two 64-bit
//! lanes of 25 `uint64x2_t` registers, and four SHA-256 messages in the
//! 32-bit lanes of `uint32x4_t` registers, the rounds from `level_fns!`
//! (`rounds.rs`) and `sha256_fns!` (`sha256.rs`). Rotations are a shift
//! and a shift-right-and-insert (`vsri`), χ and Ch use bit-clear (`vbic`)
//! and bit-select (`vbsl`). Every function here is
//! `#[target_feature(enable = "neon")]`: the intrinsics are safe inside
//! them, and none takes a pointer (words go in by `vcreate`/`vcombine`,
//! out by `vgetq_lane`). The caller in `lib.rs` checks the feature.
//!
//! Tested under QEMU's user-mode AArch64 emulation (README); no ARM machine
//! here to time it on, so the library's route choice, which times every
//! level against `keccak-asm` and `sha2` per process, decides whether it
//! is used.

use core::arch::aarch64::{
    uint32x4_t, uint64x2_t, vaddq_u32, vandq_u32, vbicq_u64, vbslq_u32, vcombine_u32, vcombine_u64, vcreate_u32,
    vcreate_u64, vdupq_n_u32, vdupq_n_u64, veorq_u32, veorq_u64, vgetq_lane_u32, vgetq_lane_u64, vorrq_u32,
    vshlq_n_u32, vshlq_n_u64, vshrq_n_u32, vsriq_n_u32, vsriq_n_u64,
};

/// Two lanes as one register (lane `l` in element `l`).
#[target_feature(enable = "neon")]
fn gather(w: [u64; LANES]) -> uint64x2_t {
    vcombine_u64(vcreate_u64(w[0]), vcreate_u64(w[1]))
}

/// The register's two lanes.
#[target_feature(enable = "neon")]
fn scatter(v: uint64x2_t) -> [u64; LANES] {
    [vgetq_lane_u64::<0>(v), vgetq_lane_u64::<1>(v)]
}

#[target_feature(enable = "neon")]
#[inline]
fn xor(a: uint64x2_t, b: uint64x2_t) -> uint64x2_t {
    veorq_u64(a, b)
}

#[target_feature(enable = "neon")]
#[inline]
fn xor5(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t, d: uint64x2_t, e: uint64x2_t) -> uint64x2_t {
    xor(xor(xor(a, b), xor(c, d)), e)
}

/// `a ^ (!b & c)` (`vbic(x, y)` is `x & !y`).
#[target_feature(enable = "neon")]
#[inline]
fn chi(a: uint64x2_t, b: uint64x2_t, c: uint64x2_t) -> uint64x2_t {
    xor(a, vbicq_u64(c, b))
}

/// Each lane rotated left by `L` bits (`R` = 64 - `L`): the lane shifted
/// left, and its top `L` bits shifted right into the low end (`vsri` by
/// 64 inserts nothing, so `L` = 0 leaves the lane as it is).
#[target_feature(enable = "neon")]
#[inline]
fn rol<const L: i32, const R: i32>(v: uint64x2_t) -> uint64x2_t {
    vsriq_n_u64::<R>(vshlq_n_u64::<L>(v), v)
}

#[target_feature(enable = "neon")]
#[inline]
fn splat(w: u64) -> uint64x2_t {
    vdupq_n_u64(w)
}

#[target_feature(enable = "neon")]
#[inline]
fn zero() -> uint64x2_t {
    vdupq_n_u64(0)
}

level_fns!("neon", uint64x2_t, 2);

// SHA-256 in four 32-bit lanes.

/// Four words as one register (message `l` in element `l`).
#[target_feature(enable = "neon")]
fn gather32(w: [u32; LANES32]) -> uint32x4_t {
    let pair = |lo: u32, hi: u32| vcreate_u32(u64::from(lo) | (u64::from(hi) << 32));
    vcombine_u32(pair(w[0], w[1]), pair(w[2], w[3]))
}

/// Word `i` of the four rows into register `i`.
#[target_feature(enable = "neon")]
fn transpose32(rows: &[[u32; 16]; LANES32]) -> [uint32x4_t; 16] {
    core::array::from_fn(|i| gather32(rows.map(|row| row[i])))
}

/// The register's four words.
#[target_feature(enable = "neon")]
fn scatter32(v: uint32x4_t) -> [u32; LANES32] {
    [
        vgetq_lane_u32::<0>(v),
        vgetq_lane_u32::<1>(v),
        vgetq_lane_u32::<2>(v),
        vgetq_lane_u32::<3>(v),
    ]
}

#[target_feature(enable = "neon")]
#[inline]
fn add32(a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
    vaddq_u32(a, b)
}

/// Each 32-bit lane rotated right by `N` (`M` = 32 - `N`): shifted left
/// by `M`, and shifted right by `N` into the low end.
#[target_feature(enable = "neon")]
#[inline]
fn ror32<const N: i32, const M: i32>(v: uint32x4_t) -> uint32x4_t {
    vsriq_n_u32::<N>(vshlq_n_u32::<M>(v), v)
}

#[target_feature(enable = "neon")]
#[inline]
fn shr32<const N: i32>(v: uint32x4_t) -> uint32x4_t {
    vshrq_n_u32::<N>(v)
}

#[target_feature(enable = "neon")]
#[inline]
fn xor3(a: uint32x4_t, b: uint32x4_t, c: uint32x4_t) -> uint32x4_t {
    veorq_u32(veorq_u32(a, b), c)
}

/// `(e & f) ^ (!e & g)`: `f` where `e` has a one, else `g`.
#[target_feature(enable = "neon")]
#[inline]
fn ch(e: uint32x4_t, f: uint32x4_t, g: uint32x4_t) -> uint32x4_t {
    vbslq_u32(e, f, g)
}

/// `(a & b) | (c & (a | b))`: the majority.
#[target_feature(enable = "neon")]
#[inline]
fn maj(a: uint32x4_t, b: uint32x4_t, c: uint32x4_t) -> uint32x4_t {
    vorrq_u32(vandq_u32(a, b), vandq_u32(c, vorrq_u32(a, b)))
}

#[target_feature(enable = "neon")]
#[inline]
fn splat32(w: u32) -> uint32x4_t {
    vdupq_n_u32(w)
}

sha256_fns!("neon", uint32x4_t, 4);
