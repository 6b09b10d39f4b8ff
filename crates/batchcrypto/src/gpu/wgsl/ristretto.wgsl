// Ristretto255 (RFC 9496 section 4.3; Hamburg's Decaf with the Ristretto
// changes) over edwards25519 points in extended coordinates: the decoding
// and encoding of curve25519-dalek's ristretto.rs, step for step, so that
// a point decodes exactly when dalek's decompress succeeds and encodes to
// the bytes of dalek's compress. A Ristretto point is any representative
// of its coset; the group law is edwards25519's (ed25519_point.wgsl).
// RISTRETTO_INVSQRT_A_MINUS_D_WORDS (1/sqrt(a - d), a = -1) is rendered
// from Rust in front of this file. Composed after fe25519 and
// ed25519_point (fe_sqrt_ratio_m1, Decoded).

// The point of a 32-byte encoding (eight little-endian words); ok = false
// unless s is canonical (< p, top bit clear), non-negative, and names a
// point (RFC 9496 section 4.3.1).
fn ristretto_decode(w: array<u32, 8>) -> Decoded {
    let s = fe_from_words(w);
    let canonical = fe_to_words(s);
    var ok = (w[0] & 1u) == 0u;
    for (var i = 0u; i < 8u; i++) {
        ok = ok && canonical[i] == w[i];
    }
    let ss = fe_sq(s);
    let u1 = fe_sub(FE_ONE, ss);
    let u2 = fe_add(FE_ONE, ss);
    let u2_sqr = fe_sq(u2);
    // v = -(d u1^2) - u2^2
    let v = fe_sub(fe_neg(fe_mul(ed_d(), fe_sq(u1))), u2_sqr);
    let inv = fe_sqrt_ratio_m1(FE_ONE, fe_mul(v, u2_sqr));
    let den_x = fe_mul(inv.r, u2);
    let den_y = fe_mul(inv.r, fe_mul(den_x, v));
    let x = fe_abs(fe_mul(fe_add(s, s), den_x));
    let y = fe_mul(u1, den_y);
    let t = fe_mul(x, y);
    ok = ok && inv.square && !fe_is_negative(t) && !fe_is_zero(y);
    return Decoded(ok, P3(x, y, FE_ONE, t));
}

// The canonical 32-byte encoding of a point (RFC 9496 section 4.3.2), as
// eight little-endian words.
fn ristretto_encode(p: P3) -> array<u32, 8> {
    let u1 = fe_mul(fe_add(p.z, p.y), fe_sub(p.z, p.y));
    let u2 = fe_mul(p.x, p.y);
    let inv = fe_sqrt_ratio_m1(FE_ONE, fe_mul(u1, fe_sq(u2))).r;
    let den1 = fe_mul(inv, u1);
    let den2 = fe_mul(inv, u2);
    let z_inv = fe_mul(den1, fe_mul(den2, p.t));
    let rotate = fe_is_negative(fe_mul(p.t, z_inv));
    let sqrtm1 = fe_from_words(ED_SQRTM1_WORDS);
    var x = p.x;
    var y = p.y;
    var den_inv = den2;
    if rotate {
        x = fe_mul(p.y, sqrtm1);
        y = fe_mul(p.x, sqrtm1);
        den_inv = fe_mul(den1, fe_from_words(RISTRETTO_INVSQRT_A_MINUS_D_WORDS));
    }
    if fe_is_negative(fe_mul(x, z_inv)) {
        y = fe_neg(y);
    }
    return fe_to_words(fe_abs(fe_mul(den_inv, fe_sub(p.z, y))));
}
