// Points of edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2) in the coordinate
// systems of ref10: extended (X:Y:Z:T), "completed" (P1P1) and cached
// (Y+X, Y-X, Z, 2dT), with the extended twisted Edwards formulas of Hisil,
// Wong, Carter and Dawson (2008). Drivers inline every call, so callers run
// these in loops rather than at many call sites. ED_D_WORDS and ED_SQRTM1_WORDS (RFC 8032's d and
// sqrt(-1)) are rendered from Rust in front of this file.

struct P3 {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

struct P1P1 {
    x: Fe,
    y: Fe,
    z: Fe,
    t: Fe,
}

struct Cached {
    ypx: Fe,
    ymx: Fe,
    z: Fe,
    t2d: Fe,
}

fn ed_d() -> Fe {
    return fe_from_words(ED_D_WORDS);
}

fn ed_d2() -> Fe {
    let d = ed_d();
    return fe_add(d, d);
}

fn p3_identity() -> P3 {
    return P3(FE_ZERO, FE_ONE, FE_ONE, FE_ZERO);
}

fn p1p1_to_p3(p: P1P1) -> P3 {
    return P3(fe_mul(p.x, p.t), fe_mul(p.y, p.z), fe_mul(p.z, p.t), fe_mul(p.x, p.y));
}

fn p3_to_cached(p: P3, d2: Fe) -> Cached {
    return Cached(fe_add(p.y, p.x), fe_sub(p.y, p.x), p.z, fe_mul(p.t, d2));
}

// 2P (a = -1 doubling, "dbl-2008-hwcd"); uses X, Y, Z only.
fn p3_dbl(p: P3) -> P1P1 {
    let xx = fe_sq(p.x);
    let yy = fe_sq(p.y);
    let zz = fe_sq(p.z);
    let zz2 = fe_add(zz, zz);
    let xy2 = fe_sq(fe_add(p.x, p.y));
    let y3 = fe_add(yy, xx);
    let z3 = fe_sub(yy, xx);
    return P1P1(fe_sub(xy2, y3), y3, z3, fe_sub(zz2, z3));
}

// P + Q, or P - Q when `sub` ("add-2008-hwcd-3" with Q cached).
fn p3_add(p: P3, q: Cached, sub: bool) -> P1P1 {
    let ypx = fe_add(p.y, p.x);
    let ymx = fe_sub(p.y, p.x);
    let a = fe_mul(ypx, fe_select(q.ypx, q.ymx, sub));
    let b = fe_mul(ymx, fe_select(q.ymx, q.ypx, sub));
    let c = fe_mul(q.t2d, p.t);
    let zz = fe_mul(p.z, q.z);
    let d = fe_add(zz, zz);
    let dpc = fe_add(d, c);
    let dmc = fe_sub(d, c);
    return P1P1(fe_sub(a, b), fe_add(a, b), fe_select(dpc, dmc, sub), fe_select(dmc, dpc, sub));
}

// Whether [8]P is the identity (P has order 1, 2, 4 or 8).
fn p3_mul8_is_identity(p: P3) -> bool {
    var r = p;
    for (var i = 0u; i < 3u; i++) {
        r = p1p1_to_p3(p3_dbl(r));
    }
    return fe_is_zero(r.x) && fe_eq(r.y, r.z);
}

// sqrt(u / v) as curve25519-dalek's sqrt_ratio_i computes it (the
// Ristretto paper's SQRT_RATIO_M1): r = u v^3 (u v^7)^((p-5)/8), times
// sqrt(-1) when v r^2 is -u or -u sqrt(-1), made non-negative; `square` is
// whether u / v was a square (v r^2 = u or -u). u = 0 gives (true, 0);
// v = 0 with u != 0 gives (false, 0).
struct SqrtRatio {
    square: bool,
    r: Fe,
}

fn fe_sqrt_ratio_m1(u: Fe, v: Fe) -> SqrtRatio {
    let v3 = fe_mul(fe_sq(v), v);
    let v7 = fe_mul(fe_sq(v3), v);
    var r = fe_mul(fe_mul(u, v3), fe_pow22523(fe_mul(u, v7)));
    let check = fe_mul(v, fe_sq(r));
    let sqrtm1 = fe_from_words(ED_SQRTM1_WORDS);
    let correct = fe_eq(check, u);
    let flipped = fe_eq(check, fe_neg(u));
    let flipped_i = fe_eq(check, fe_mul(fe_neg(u), sqrtm1));
    if flipped || flipped_i {
        r = fe_mul(r, sqrtm1);
    }
    return SqrtRatio(correct || flipped, fe_abs(r));
}

// Decoded point, or ok = false when the encoding has no point (x^2 not a
// square). As curve25519-dalek: the sign bit is applied even to x = 0, and
// y >= p is reduced (non-canonical encodings decode).
struct Decoded {
    ok: bool,
    p: P3,
}

fn p3_decode(s: array<u32, 8>) -> Decoded {
    let y = fe_from_words(s);
    let yy = fe_sq(y);
    // x = sqrt((y^2 - 1) / (d y^2 + 1)), non-negative, then the sign bit.
    let root = fe_sqrt_ratio_m1(fe_sub(yy, FE_ONE), fe_add(fe_mul(yy, ed_d()), FE_ONE));
    let x = fe_select(root.r, fe_neg(root.r), (s[7] >> 31u) == 1u);
    return Decoded(root.square, P3(x, y, FE_ONE, fe_mul(x, y)));
}

// The 32-byte encoding (as eight little-endian words) of a point.
fn p3_encode(p: P3) -> array<u32, 8> {
    let zi = fe_invert(p.z);
    let x = fe_mul(p.x, zi);
    let y = fe_mul(p.y, zi);
    var w = fe_to_words(y);
    if fe_is_negative(x) {
        w[7] |= 0x80000000u;
    }
    return w;
}
