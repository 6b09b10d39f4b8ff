//! WGSL composition: the shared libraries under `gpu/wgsl/` and each
//! operation's kernel, concatenated in dependency order, after constants
//! rendered from Rust. One function per kernel returns its full source.

/// SHA-512 round constants (FIPS 180-4 section 4.2.3).
const SHA512_K: [u64; 80] = [
    0x428a2f98d728ae22,
    0x7137449123ef65cd,
    0xb5c0fbcfec4d3b2f,
    0xe9b5dba58189dbbc,
    0x3956c25bf348b538,
    0x59f111f1b605d019,
    0x923f82a4af194f9b,
    0xab1c5ed5da6d8118,
    0xd807aa98a3030242,
    0x12835b0145706fbe,
    0x243185be4ee4b28c,
    0x550c7dc3d5ffb4e2,
    0x72be5d74f27b896f,
    0x80deb1fe3b1696b1,
    0x9bdc06a725c71235,
    0xc19bf174cf692694,
    0xe49b69c19ef14ad2,
    0xefbe4786384f25e3,
    0x0fc19dc68b8cd5b5,
    0x240ca1cc77ac9c65,
    0x2de92c6f592b0275,
    0x4a7484aa6ea6e483,
    0x5cb0a9dcbd41fbd4,
    0x76f988da831153b5,
    0x983e5152ee66dfab,
    0xa831c66d2db43210,
    0xb00327c898fb213f,
    0xbf597fc7beef0ee4,
    0xc6e00bf33da88fc2,
    0xd5a79147930aa725,
    0x06ca6351e003826f,
    0x142929670a0e6e70,
    0x27b70a8546d22ffc,
    0x2e1b21385c26c926,
    0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df,
    0x650a73548baf63de,
    0x766a0abb3c77b2a8,
    0x81c2c92e47edaee6,
    0x92722c851482353b,
    0xa2bfe8a14cf10364,
    0xa81a664bbc423001,
    0xc24b8b70d0f89791,
    0xc76c51a30654be30,
    0xd192e819d6ef5218,
    0xd69906245565a910,
    0xf40e35855771202a,
    0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8,
    0x1e376c085141ab53,
    0x2748774cdf8eeb99,
    0x34b0bcb5e19b48a8,
    0x391c0cb3c5c95a63,
    0x4ed8aa4ae3418acb,
    0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc,
    0x78a5636f43172f60,
    0x84c87814a1f0ab72,
    0x8cc702081a6439ec,
    0x90befffa23631e28,
    0xa4506cebde82bde9,
    0xbef9a3f7b2c67915,
    0xc67178f2e372532b,
    0xca273eceea26619c,
    0xd186b8c721c0c207,
    0xeada7dd6cde0eb1e,
    0xf57d4f7fee6ed178,
    0x06f067aa72176fba,
    0x0a637dc5a2c898a6,
    0x113f9804bef90dae,
    0x1b710b35131c471b,
    0x28db77f523047d84,
    0x32caab7b40c72493,
    0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c,
    0x4cc5d4becb3e42b6,
    0x597f299cfc657e2a,
    0x5fcb6fab3ad6faec,
    0x6c44198c4a475817,
];

/// SHA-512 initial hash value (FIPS 180-4 section 5.3.5).
const SHA512_H0: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// edwards25519's d = -121665/121666 mod p (RFC 8032 section 5.1), as
/// little-endian 32-bit words of its canonical encoding.
const ED_D: [u32; 8] = [
    0x135978a3, 0x75eb4dca, 0x4141d8ab, 0x00700a4d, 0x7779e898, 0x8cc74079, 0x2b6ffe73, 0x52036cee,
];

/// sqrt(-1) = 2^((p-1)/4) mod p (RFC 8032 section 5.1.3), little-endian words.
const ED_SQRTM1: [u32; 8] = [
    0x4a0ea0b0, 0xc4ee1b27, 0xad2fe478, 0x2f431806, 0x3dfbd7a7, 0x2b4d0099, 0x4fc1df0b, 0x2b832480,
];

/// SHA-256 round constants (FIPS 180-4 section 4.2.2).
const SHA256_K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// SHA-256 initial hash value (FIPS 180-4 section 5.3.3).
const SHA256_H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// The bound the kernels' `loops_intact` guard expects (see guard.wgsl);
/// hosts pass it in their parameters.
pub(crate) const LOOP_GUARD: u32 = 2;

/// Keccak-f[1600] iota constants, computed by FIPS 202 Algorithms 5 and 6
/// (the rc LFSR, bit j of round i's constant at position 2^j - 1).
fn keccak_round_constants() -> [u64; 24] {
    let rc_bit = |t: usize| -> u64 {
        let mut r: u32 = 1;
        for _ in 0..t % 255 {
            r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff;
        }
        u64::from(r & 1)
    };
    std::array::from_fn(|round| (0..7).fold(0u64, |rc, j| rc | rc_bit(j + 7 * round) << ((1 << j) - 1)))
}

/// Keccak-f[1600] rho offsets by lane index x + 5 y (FIPS 202 Algorithm 2).
fn keccak_rotations() -> [u32; 25] {
    let mut rot = [0u32; 25];
    let (mut x, mut y) = (1usize, 0usize);
    for t in 0..24u32 {
        rot[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
        (x, y) = (y, (2 * x + 3 * y) % 5);
    }
    rot
}

/// Keccak-f[1600] as straight-line WGSL over 25 lane variables (FIPS 202
/// section 3.3, the step mappings theta, rho, pi, chi, iota): all 24 rounds
/// written out with constant lane indices, rotation amounts and round
/// constants. Loops over lane arrays with computed indices (the textbook
/// form) make GPU compilers keep the state in memory, and naga copies a
/// constant array into a variable for every computed index into it. Also
/// `keccak_absorb`, which XORs a rate block of 17 lanes into the state.
fn keccak_generated() -> String {
    let rot = keccak_rotations();
    let a = |i: usize| format!("a{i}");
    let mut src = String::from("fn keccak_f1600(state: ptr<function, array<Lane, 25>>) {\n");
    for i in 0..25 {
        src += &format!("    var {} = (*state)[{i}];\n", a(i));
    }
    for rc in keccak_round_constants() {
        src += "    {\n";
        for x in 0..5 {
            src += &format!(
                "        let c{x} = {} ^ {} ^ {} ^ {} ^ {};\n",
                a(x),
                a(x + 5),
                a(x + 10),
                a(x + 15),
                a(x + 20)
            );
        }
        for x in 0..5 {
            src += &format!(
                "        let d{x} = c{} ^ rotl_lane(c{}, 1u);\n",
                (x + 4) % 5,
                (x + 1) % 5
            );
        }
        // rho and pi: B[y, 2x + 3y] = rot(A[x, y] ^ D[x], r[x, y]).
        for x in 0..5 {
            for y in 0..5 {
                let from = x + 5 * y;
                let to = y + 5 * ((2 * x + 3 * y) % 5);
                src += &format!("        let b{to} = rotl_lane({} ^ d{x}, {}u);\n", a(from), rot[from]);
            }
        }
        // chi, then iota on lane 0.
        for y in (0..25).step_by(5) {
            for x in 0..5 {
                src += &format!(
                    "        {} = b{} ^ (~b{} & b{});\n",
                    a(x + y),
                    x + y,
                    (x + 1) % 5 + y,
                    (x + 2) % 5 + y
                );
            }
        }
        src += &format!(
            "        a0 ^= lane({:#010x}u, {:#010x}u);\n    }}\n",
            rc as u32,
            (rc >> 32) as u32
        );
    }
    for i in 0..25 {
        src += &format!("    (*state)[{i}] = {};\n", a(i));
    }
    src += "}\n\nfn keccak_absorb(state: ptr<function, array<Lane, 25>>, block: ptr<function, array<Lane, 17>>) {\n";
    for i in 0..17 {
        src += &format!("    (*state)[{i}] ^= (*block)[{i}];\n");
    }
    src + "}\n"
}

/// The SHA-256 compression function (FIPS 180-4 section 6.2.2) as
/// straight-line WGSL: 64 rounds written out with the message schedule in
/// 16 rolling variables and the round constants as literals (see
/// `keccak_generated` for why).
fn sha256_compress_generated() -> String {
    let mut src = String::from("fn sha256_compress(state: ptr<function, array<u32, 8>>, m: array<u32, 16>) {\n");
    for t in 0..16 {
        src += &format!("    var w{t} = m[{t}];\n");
    }
    let v = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (i, name) in v.iter().enumerate() {
        src += &format!("    var {name} = (*state)[{i}];\n");
    }
    for (t, k) in SHA256_K.iter().enumerate() {
        src += "    {\n";
        let w = t % 16;
        if t >= 16 {
            let (w15, w2, w7) = ((t + 1) % 16, (t + 14) % 16, (t + 9) % 16);
            src += &format!(
                "        w{w} += (rotr32(w{w15}, 7u) ^ rotr32(w{w15}, 18u) ^ (w{w15} >> 3u)) + w{w7} \
                 + (rotr32(w{w2}, 17u) ^ rotr32(w{w2}, 19u) ^ (w{w2} >> 10u));\n"
            );
        }
        src += &format!(
            "        let t1 = h + (rotr32(e, 6u) ^ rotr32(e, 11u) ^ rotr32(e, 25u)) + ((e & f) ^ (~e & g)) \
             + {k:#010x}u + w{w};\n"
        );
        src += "        let t2 = (rotr32(a, 2u) ^ rotr32(a, 13u) ^ rotr32(a, 22u)) + ((a & b) ^ (a & c) ^ (b & c));\n";
        src += "        h = g;\n        g = f;\n        f = e;\n        e = d + t1;\n";
        src += "        d = c;\n        c = b;\n        b = a;\n        a = t1 + t2;\n    }\n";
    }
    for (i, name) in v.iter().enumerate() {
        src += &format!("    (*state)[{i}] += {name};\n");
    }
    src + "}\n"
}

const GUARD: &str = include_str!("wgsl/guard.wgsl");

/// What every kernel shares with its host, rendered from the host's
/// constants (written once, in Rust), then the completion guard.
fn guard() -> String {
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
const HASH: &str = include_str!("../ops/hash/hash.wgsl");
const MERKLE: &str = include_str!("../ops/merkle/merkle.wgsl");
const FE25519: &str = include_str!("wgsl/fe25519.wgsl");
const SHA512: &str = include_str!("wgsl/sha512.wgsl");
const SC25519: &str = include_str!("wgsl/sc25519.wgsl");
const ED25519_POINT: &str = include_str!("wgsl/ed25519_point.wgsl");
const ED25519_VERIFY: &str = include_str!("../ops/ed25519/verify.wgsl");
const U256: &str = include_str!("wgsl/u256.wgsl");
const WEIERSTRASS: &str = include_str!("wgsl/weierstrass.wgsl");
const WEIERSTRASS_A0: &str = include_str!("wgsl/weierstrass_a0.wgsl");
const WEIERSTRASS_AM3: &str = include_str!("wgsl/weierstrass_am3.wgsl");
const DOUBLE_ADD: &str = include_str!("wgsl/double_add.wgsl");
const GLV: &str = include_str!("wgsl/glv.wgsl");
const ECDSA: &str = include_str!("../ops/ecdsa/ecdsa.wgsl");

/// Montgomery multiplication (CIOS over `n` u32 limbs, 64-bit products)
/// as straight-line code: `fn mont_mul(a, b, m: ty, inv: u32) -> ty`
/// computing a b R^-1 mod m for a, b < m, R = 2^(32 n), inv = -m^-1 mod
/// 2^32 (`bigint::neg_inv32`). `ty` is the WGSL type of `n` limbs with a
/// constructor taking them in order, `sub` its subtraction returning
/// `.v` (difference) and `.c` (borrow). The ECDSA kernels use n = 8
/// (`U256`, `u256_sub`); 384-bit fields take n = 12.
fn mont_mul_generated(n: usize, ty: &str, sub: &str) -> String {
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
fn fe25519_generated() -> String {
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

fn u64_array(name: &str, values: &[u64]) -> String {
    let items: Vec<String> = values.iter().map(|v| format!("{v:#018x}lu")).collect();
    format!("const {name} = array<u64, {}>({});\n", values.len(), items.join(", "))
}

fn u32_array(name: &str, values: &[u32]) -> String {
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
    with_hash_libraries(HASH, int64)
}

/// The Merkle level kernel (entry point `merkle_level`); `int64` picks the
/// Keccak lane type.
pub(crate) fn merkle(int64: bool) -> String {
    with_hash_libraries(MERKLE, int64)
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
        ECDSA.to_string(),
    ]
    .join("\n");
    with_hash_libraries(&kernel, true)
}

/// The Ed25519 verification kernel (entry points `ed25519_setup` and `ed25519_verify`).
pub(crate) fn ed25519_verify() -> String {
    [
        u64_array("SHA512_K", &SHA512_K),
        u64_array("SHA512_H0", &SHA512_H0),
        u32_array("ED_D_WORDS", &ED_D),
        u32_array("ED_SQRTM1_WORDS", &ED_SQRTM1),
        guard(),
        FE25519.to_string(),
        fe25519_generated(),
        SHA512.to_string(),
        SC25519.to_string(),
        ED25519_POINT.to_string(),
        ED25519_VERIFY.to_string(),
    ]
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn keccak_constants_match_fips_202() {
        let rc = keccak_round_constants();
        assert_eq!(rc[0], 0x0000000000000001);
        assert_eq!(rc[1], 0x0000000000008082);
        assert_eq!(rc[2], 0x800000000000808a);
        assert_eq!(rc[23], 0x8000000080008008);
        let rot = keccak_rotations();
        // r[x, y] for (1,0), (0,1), (2,0), (4,4) and (0,0).
        assert_eq!((rot[1], rot[5], rot[2], rot[24], rot[0]), (1, 36, 62, 14, 0));
    }
}
