// The quadratic extension F_p2 = F_p[u] / (u^2 + 1) of a pairing-friendly
// prime field (p = 3 mod 4; F_p itself in fp.wgsl), the bottom of the
// pairing towers (BLS12-381, issue 15: p of 381 bits in FP_LIMBS = 12 u32
// limbs; BN254, issue 18: 254 bits in 8), with F_p's inversion, square
// roots and signs. 32-bit limbs because WGSL has no 64-bit multiply-high;
// the measured alternatives are in issue 15's note. The constants FP_ONE,
// FP_R2, FP_P_MINUS_2, FP_SQRT_EXP, FP_SQRT2_EXP, FP_HALF, FP_TWO_INV and
// the sextic non-residue's multiplier `fp_times_xi0` are rendered from
// Rust (gpu/curve.rs `tower_field_wgsl`). Composed after fp.wgsl and the
// guard (LOOP_GUARD). Needs SHADER_INT64.

// 1, in a form the compiler cannot see. The tower's product loops run to
// k * tower_one so that drivers keep them as loops, one multiplication in
// the code, instead of unrolling them: unrolled, F_p12 multiplication alone
// is over a hundred inlined 384-bit multiplications, and llvmpipe took
// minutes to compile a kernel using it. Kernels call tower_init with their
// loop-guard parameter before any tower arithmetic (a wrong one also fails
// the guard, so the item is flagged, never wrong).
var<private> tower_one: u32;

fn tower_init(loop_guard: u32) {
    tower_one = loop_guard / LOOP_GUARD;
}

struct Fp2 {
    c0: Fp,
    c1: Fp,
}

// 1/a by Fermat (0 for 0).
fn fp_inv(a: Fp) -> Fp {
    return fp_pow(a, FP_P_MINUS_2);
}

struct FpSqrt {
    ok: bool,
    r: Fp,
}

// A square root a^((p+1)/4) (p = 3 mod 4); ok when a is a square.
fn fp_sqrt(a: Fp) -> FpSqrt {
    let r = fp_pow(a, FP_SQRT_EXP);
    return FpSqrt(fp_eq(fp_sq(r), a), r);
}

fn fp_one() -> Fp {
    return FP_ONE;
}

fn fp2_one() -> Fp2 {
    return Fp2(FP_ONE, fp_zero());
}

fn fp2_zero() -> Fp2 {
    return Fp2(fp_zero(), fp_zero());
}

fn fp2_add(a: Fp2, b: Fp2) -> Fp2 {
    return Fp2(fp_add(a.c0, b.c0), fp_add(a.c1, b.c1));
}

fn fp2_sub(a: Fp2, b: Fp2) -> Fp2 {
    return Fp2(fp_sub(a.c0, b.c0), fp_sub(a.c1, b.c1));
}

fn fp2_neg(a: Fp2) -> Fp2 {
    return Fp2(fp_neg(a.c0), fp_neg(a.c1));
}

fn fp2_conj(a: Fp2) -> Fp2 {
    return Fp2(a.c0, fp_neg(a.c1));
}

fn fp2_is_zero(a: Fp2) -> bool {
    return fp_is_zero(a.c0) && fp_is_zero(a.c1);
}

fn fp2_eq(a: Fp2, b: Fp2) -> bool {
    return fp_eq(a.c0, b.c0) && fp_eq(a.c1, b.c1);
}

// (a0 + a1 u)(b0 + b1 u) with u^2 = -1, by Karatsuba: three
// multiplications, made in a loop so that the shader holds one (drivers
// inline every call site, and the tower above multiplies them).
fn fp2_mul(a: Fp2, b: Fp2) -> Fp2 {
    let l = array<Fp, 3>(a.c0, a.c1, fp_add(a.c0, a.c1));
    let r = array<Fp, 3>(b.c0, b.c1, fp_add(b.c0, b.c1));
    var v: array<Fp, 3>;
    for (var k = 0u; k < 3u * tower_one; k++) {
        v[k] = fp_mul(l[k], r[k]);
    }
    return Fp2(fp_sub(v[0], v[1]), fp_sub(fp_sub(v[2], v[0]), v[1]));
}

// (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two multiplications.
fn fp2_sq(a: Fp2) -> Fp2 {
    let l = array<Fp, 2>(fp_add(a.c0, a.c1), a.c0);
    let r = array<Fp, 2>(fp_sub(a.c0, a.c1), a.c1);
    var v: array<Fp, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp_mul(l[k], r[k]);
    }
    return Fp2(v[0], fp_add(v[1], v[1]));
}

// a s for a in F_p2 and s in F_p.
fn fp2_mul_fp(a: Fp2, s: Fp) -> Fp2 {
    return Fp2(fp_mul(a.c0, s), fp_mul(a.c1, s));
}

// Times the non-residue xi = x0 + u of the sextic extension (x0 = 1 for
// BLS12-381, 9 for BN254; fp_times_xi0 multiplies by x0 with additions).
fn fp2_mul_by_xi(a: Fp2) -> Fp2 {
    return Fp2(fp_sub(fp_times_xi0(a.c0), a.c1), fp_add(fp_times_xi0(a.c1), a.c0));
}

// The sign of an F_p2 element as blst and the ZCash encoding take it:
// that of c1, or of c0 when c1 is zero.
fn fp2_is_largest(a: Fp2) -> bool {
    if fp_is_zero(a.c1) {
        return fp_is_largest(a.c0);
    }
    return fp_is_largest(a.c1);
}

struct Fp2Sqrt {
    ok: bool,
    r: Fp2,
}

// A square root of a in F_p2 for p = 3 mod 4: Adj and Rodriguez-Henriquez,
// "Square root computation over even extension fields" (eprint 2012/685),
// Algorithm 9: a1 = a^((p-3)/4), alpha = a1^2 a; -1 -> u a1 a, else
// (1 + alpha)^((p-1)/2) a1 a. Both powers from one site, in a loop; ok
// when a is a square.
fn fp2_sqrt(a: Fp2) -> Fp2Sqrt {
    var base = a;
    var exp = FP_SQRT2_EXP;
    var x0: Fp2;
    var x: Fp2;
    for (var k = 0u; k < 2u * tower_one; k++) {
        let r = fp2_pow(base, exp);
        if k == 0u {
            x0 = fp2_mul(r, a);
            let alpha = fp2_mul(r, x0);
            // u x0 when alpha = -1 (then the loop's second power is unused).
            x = Fp2(fp_neg(x0.c1), x0.c0);
            base = fp2_add(fp2_one(), alpha);
            exp = FP_HALF;
        } else if !fp2_is_zero(base) {
            x = fp2_mul(r, x0);
        }
    }
    return Fp2Sqrt(fp2_eq(fp2_sq(x), a), x);
}

// 1/a = conj(a) / (a0^2 + a1^2) (0 for 0); the products in loops.
fn fp2_inv(a: Fp2) -> Fp2 {
    let x = array<Fp, 2>(a.c0, a.c1);
    var v: array<Fp, 2>;
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp_mul(x[k], x[k]);
    }
    let t = fp_inv(fp_add(v[0], v[1]));
    for (var k = 0u; k < 2u * tower_one; k++) {
        v[k] = fp_mul(x[k], t);
    }
    return Fp2(v[0], fp_neg(v[1]));
}

// An element's F_p coordinates (F_p's padded with zero) and back, for code
// rendered for both fields.
fn fp_parts(a: Fp) -> array<Fp, 2> {
    return array<Fp, 2>(a, fp_zero());
}

fn fp_from_parts(c: array<Fp, 2>) -> Fp {
    return c[0];
}

fn fp2_parts(a: Fp2) -> array<Fp, 2> {
    return array<Fp, 2>(a.c0, a.c1);
}

fn fp2_from_parts(c: array<Fp, 2>) -> Fp2 {
    return Fp2(c[0], c[1]);
}
