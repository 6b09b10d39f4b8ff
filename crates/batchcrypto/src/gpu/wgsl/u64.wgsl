// 64-bit words on u64 lanes (SHADER_INT64): the full 128-bit product,
// which WGSL has no instruction for, from four 32 x 32-bit products.

struct U128 {
    lo: u64,
    hi: u64,
}

fn u64_mul_wide(a: u64, b: u64) -> U128 {
    let a0 = a & 0xfffffffflu;
    let a1 = a >> 32u;
    let b0 = b & 0xfffffffflu;
    let b1 = b >> 32u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    // lo = p00 + (p01 + p10) 2^32 (mod 2^64), hi takes the carries.
    let mid = (p00 >> 32u) + (p01 & 0xfffffffflu) + (p10 & 0xfffffffflu);
    let lo = (p00 & 0xfffffffflu) | (mid << 32u);
    let hi = p11 + (p01 >> 32u) + (p10 >> 32u) + (mid >> 32u);
    return U128(lo, hi);
}
