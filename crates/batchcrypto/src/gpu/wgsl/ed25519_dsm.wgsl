// [s]B - [k]A on edwards25519 (the Ed25519 and sr25519 kernels): B's
// multiples 1B .. 8B come from the device table `base_table` that the
// including kernel binds (30 i32 per point: y+x, y-x, 2dxy with Z = 1,
// computed once per device by the Ed25519 kernel's ed25519_setup).
// Composed after fe25519, sc25519 and ed25519_point.

// jB as a cached point with Z = 1.
fn base_multiple(j: u32) -> Cached {
    var c: Cached;
    c.z = FE_ONE;
    for (var i = 0u; i < 10u; i++) {
        c.ypx[i] = base_table[j * 30u + i];
        c.ymx[i] = base_table[j * 30u + 10u + i];
        c.t2d[i] = base_table[j * 30u + 20u + i];
    }
    return c;
}

// [s]B - [k]A by signed radix-16 digits: per digit position four doublings
// and up to two additions, all through one step of the loop below (one
// doubling, one addition and one conversion in the shader).
fn double_scalar_mul(k: Scalar, a: P3, s: Scalar) -> P3 {
    let d2 = ed_d2();
    var table: array<Cached, 8>; // 1A .. 8A
    table[0] = p3_to_cached(a, d2);
    var acc = a;
    for (var i = 1u; i < 8u; i++) {
        acc = p1p1_to_p3(p3_add(acc, table[0], false));
        table[i] = p3_to_cached(acc, d2);
    }
    let ek = sc_digits(k);
    let es = sc_digits(s);
    var r = p3_identity();
    for (var i = 63i; i >= 0i; i--) {
        for (var step = 0u; step < 6u; step++) {
            var p1: P1P1;
            if step < 4u {
                if i == 63i {
                    continue; // doubling the identity
                }
                p1 = p3_dbl(r);
            } else {
                var digit: i32;
                var q: Cached;
                var sub: bool;
                if step == 4u {
                    // -[k]A: a positive digit subtracts.
                    digit = ek[i];
                    if digit == 0i {
                        continue;
                    }
                    q = table[u32(abs(digit)) - 1u];
                    sub = digit > 0i;
                } else {
                    digit = es[i];
                    if digit == 0i {
                        continue;
                    }
                    q = base_multiple(u32(abs(digit)) - 1u);
                    sub = digit < 0i;
                }
                p1 = p3_add(r, q, sub);
            }
            r = p1p1_to_p3(p1);
        }
    }
    return r;
}
