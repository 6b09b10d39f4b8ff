//! Generated field arithmetic: Montgomery multiplication over any limb
//! count (short-Weierstrass curves), and edwards25519's radix-2^25.5 field
//! with its constants.

/// edwards25519's d = -121665/121666 mod p (RFC 8032 section 5.1), as
/// little-endian 32-bit words of its canonical encoding.
pub(super) const ED_D: [u32; 8] = [
    0x135978a3, 0x75eb4dca, 0x4141d8ab, 0x00700a4d, 0x7779e898, 0x8cc74079, 0x2b6ffe73, 0x52036cee,
];

/// sqrt(-1) = 2^((p-1)/4) mod p (RFC 8032 section 5.1.3), little-endian words.
pub(super) const ED_SQRTM1: [u32; 8] = [
    0x4a0ea0b0, 0xc4ee1b27, 0xad2fe478, 0x2f431806, 0x3dfbd7a7, 0x2b4d0099, 0x4fc1df0b, 0x2b832480,
];

/// Ristretto255's 1/sqrt(a - d) with a = -1 (curve25519-dalek's
/// INVSQRT_A_MINUS_D), little-endian words; checked against d below.
pub(super) const RISTRETTO_INVSQRT_A_MINUS_D: [u32; 8] = [
    0x805d40ea, 0x99c8fdaa, 0x5a4172be, 0x9d2f1617, 0xfe01d840, 0x16c27b91, 0xcfaffca2, 0x786c8905,
];

/// Montgomery multiplication (CIOS over `n` u32 limbs, 64-bit products)
/// as straight-line code: `fn mont_mul(a, b, m: ty, inv: u32) -> ty`
/// computing a b R^-1 mod m for a, b < m, R = 2^(32 n), inv = -m^-1 mod
/// 2^32 (`bigint::neg_inv32`). `ty` is the WGSL type of `n` limbs with a
/// constructor taking them in order, `sub` its subtraction returning
/// `.v` (difference) and `.c` (borrow). The ECDSA kernels use n = 8
/// (`U256`, `u256_sub`); 384-bit fields take n = 12.
pub(super) fn mont_mul_generated(n: usize, ty: &str, sub: &str) -> String {
    let mut src = format!(
        "fn mont_mul(a: {ty}, b: {ty}, m: {ty}, inv: u32) -> {ty} {{\n    var t: array<u32, {}>;\n    var s: u64;\n    var c: u64;\n",
        n + 2
    );
    for i in 0..n {
        for j in 0..n {
            let carry = if j == 0 { "" } else { " + c" };
            src += &format!(
                "    s = u64(t[{j}]) + u64(a[{j}]) * u64(b[{i}]){carry};\n    t[{j}] = u32(s);\n    c = s >> 32u;\n"
            );
        }
        src += &format!(
            "    s = u64(t[{n}]) + c;\n    t[{n}] = u32(s);\n    t[{}] = u32(s >> 32u);\n",
            n + 1
        );
        src += &format!("    let q{i} = t[0] * inv;\n");
        src += &format!("    s = u64(t[0]) + u64(q{i}) * u64(m[0]);\n    c = s >> 32u;\n");
        for j in 1..n {
            src += &format!(
                "    s = u64(t[{j}]) + u64(q{i}) * u64(m[{j}]) + c;\n    t[{}] = u32(s);\n    c = s >> 32u;\n",
                j - 1
            );
        }
        src += &format!(
            "    s = u64(t[{n}]) + c;\n    t[{}] = u32(s);\n    t[{n}] = t[{}] + u32(s >> 32u);\n",
            n - 1,
            n + 1
        );
    }
    let limbs: Vec<String> = (0..n).map(|k| format!("t[{k}]")).collect();
    src += &format!("    let r = {ty}({});\n", limbs.join(", "));
    src += &format!(
        "    let d = {sub}(r, m);\n    if t[{n}] != 0u || d.c == 0u {{\n        return d.v;\n    }}\n    return r;\n}}\n"
    );
    src
}

/// Addition and subtraction of `n`-limb integers (u32 limbs, least
/// significant first) as straight-line code: `{name}_add(a, b)` and
/// `{name}_sub(a, b)` return a `Carry{bits}` (`.v` the result mod
/// 2^(32 n), `.c` the carry out or the borrow), for the pairing towers'
/// fields (`fp_limbs`: BLS12-381 n = 12, BN254 n = 8).
pub(super) fn uint_generated(n: usize, name: &str) -> String {
    let bits = 32 * n;
    let ty = format!("array<u32, {n}>");
    let mut src = format!("struct Carry{bits} {{\n    v: {ty},\n    c: u32,\n}}\n\n");
    src += &format!("fn {name}_add(a: {ty}, b: {ty}) -> Carry{bits} {{\n    var r: Carry{bits};\n    var s = 0lu;\n");
    for k in 0..n {
        src += &format!("    s = u64(a[{k}]) + u64(b[{k}]) + (s >> 32u);\n    r.v[{k}] = u32(s);\n");
    }
    src += "    r.c = u32(s >> 32u);\n    return r;\n}\n\n";
    // Each limb borrows 2^32 and pays it back from the next: s >> 32 is 1
    // when no borrow was needed.
    src += &format!(
        "fn {name}_sub(a: {ty}, b: {ty}) -> Carry{bits} {{\n    var r: Carry{bits};\n    let top = 0x100000000lu;\n    var s = top;\n"
    );
    for k in 0..n {
        src += &format!("    s = (u64(a[{k}]) | top) - u64(b[{k}]) - (1lu - (s >> 32u));\n    r.v[{k}] = u32(s);\n");
    }
    src += "    r.c = 1u - u32(s >> 32u);\n    return r;\n}\n";
    src
}

/// Bits of limb `i` in radix 2^25.5.
fn limb_bits(i: usize) -> u32 {
    if i.is_multiple_of(2) { 26 } else { 25 }
}

/// The ref10 carry chain over i64 locals `h0..h9` (rounded carries, the
/// carry out of limb 9 folded into limb 0 times 19), then the ten limbs as
/// an `Fe`.
fn fe_carry_chain() -> String {
    let mut out = String::new();
    for i in 0..9 {
        let w = limb_bits(i);
        out += &format!(
            "    let c{i} = (h{i} + {}li) >> {w}u;\n    h{} += c{i};\n    h{i} -= c{i} << {w}u;\n",
            1u64 << (w - 1),
            i + 1
        );
    }
    out += "    let c9 = (h9 + 16777216li) >> 25u;\n    h0 += c9 * 19li;\n    h9 -= c9 << 25u;\n";
    out += "    let c10 = (h0 + 33554432li) >> 26u;\n    h1 += c10;\n    h0 -= c10 << 26u;\n";
    let limbs: Vec<String> = (0..10).map(|i| format!("i32(h{i})")).collect();
    out += &format!("    return Fe({});\n", limbs.join(", "));
    out
}

/// Straight-line field multiplication, squaring and carry (see fe25519.wgsl).
/// Limb j of f times limb k of g lands in limb (j + k) mod 10, times 19
/// past 2^255, times 2 when both limbs are 25-bit ones (odd j and k).
pub(super) fn fe25519_generated() -> String {
    let mut src = String::from("fn fe_mul(f: Fe, g: Fe) -> Fe {\n");
    for j in 0..10 {
        src += &format!("    let f{j} = i64(f[{j}]);\n    let g{j} = i64(g[{j}]);\n");
    }
    for j in (1..10).step_by(2) {
        src += &format!("    let f{j}_2 = 2li * f{j};\n");
    }
    for k in 1..10 {
        src += &format!("    let g{k}_19 = 19li * g{k};\n");
    }
    for i in 0..10 {
        let terms: Vec<String> = (0..10)
            .map(|j| {
                let k = (i + 10 - j) % 10;
                let f = if j % 2 == 1 && k % 2 == 1 {
                    format!("f{j}_2")
                } else {
                    format!("f{j}")
                };
                let g = if j > i { format!("g{k}_19") } else { format!("g{k}") };
                format!("{f} * {g}")
            })
            .collect();
        src += &format!("    var h{i} = {};\n", terms.join(" + "));
    }
    src += &fe_carry_chain();
    src += "}\n\n";

    // Squaring: each unordered pair once, doubled when j != k.
    src += "fn fe_sq(f: Fe) -> Fe {\n";
    for j in 0..10 {
        src += &format!("    let f{j} = i64(f[{j}]);\n");
    }
    for i in 0..10 {
        let mut terms = Vec::new();
        for j in 0..10 {
            let k = (i + 10 - j) % 10;
            if k < j {
                continue;
            }
            let mut factor: i64 = if j == k { 1 } else { 2 };
            if j % 2 == 1 && k % 2 == 1 {
                factor *= 2;
            }
            if j + k >= 10 {
                factor *= 19;
            }
            terms.push(format!("f{j} * f{k} * {factor}li"));
        }
        src += &format!("    var h{i} = {};\n", terms.join(" + "));
    }
    src += &fe_carry_chain();
    src += "}\n\n";

    src += "fn fe_carry(f: Fe) -> Fe {\n";
    for i in 0..10 {
        src += &format!("    var h{i} = i64(f[{i}]);\n");
    }
    src += &fe_carry_chain();
    src += "}\n";
    src
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::bigint::{self, mul_mod, sub};

    const P: [u32; 8] = [
        0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff,
    ];

    /// The written constants are what their definitions say: d = -121665 /
    /// 121666, sqrt(-1)^2 = -1, and (1/sqrt(a - d))^2 (a - d) = 1 with a = -1.
    #[test]
    fn edwards25519_constants_satisfy_their_definitions() {
        let minus = |x: &[u32; 8]| sub(&P, x).0;
        let one = bigint::small::<8>(1);
        assert_eq!(
            mul_mod(&ED_D, &bigint::small(121666), &P),
            minus(&bigint::small(121665))
        );
        assert_eq!(mul_mod(&ED_SQRTM1, &ED_SQRTM1, &P), minus(&one));
        let a_minus_d = minus(&bigint::add_mod(&one, &ED_D, &P));
        let c = RISTRETTO_INVSQRT_A_MINUS_D;
        assert_eq!(mul_mod(&mul_mod(&c, &c, &P), &a_minus_d, &P), one);
    }
}
