// The NTT's arithmetic over any odd prime p < 2^64 (prime64-negacyclic's,
// the caller's) on the 64-bit elements of field64.wgsl, worked on in
// Montgomery form (x 2^64 mod p) with the 128-bit products of
// gpu/wgsl/u64.wgsl. The prime is not rendered in: it comes with the
// kernel's parameters (params.field, a FieldParams of block.wgsl: p,
// -p^-1 mod 2^64 and 2^128 mod p from ops/ntt/gpu.rs), so that one
// pipeline serves every prime. p may exceed 2^63 (sums then pass 2^64).

fn p64_word(v: vec2<u32>) -> u64 {
    return u64(v.x) | (u64(v.y) << 32u);
}

fn p64_p() -> u64 {
    return p64_word(params.field.p);
}

// a + b mod p: the sum wraps past 2^64 exactly when it is below a.
fn f_add(a: Elem, b: Elem) -> Elem {
    let s = a + b;
    if s < a || s >= p64_p() {
        return s - p64_p();
    }
    return s;
}

fn f_sub(a: Elem, b: Elem) -> Elem {
    if a >= b {
        return a - b;
    }
    return a + (p64_p() - b);
}

// a b 2^-64 mod p (Montgomery's reduction of the 128-bit product t): m =
// t.lo (-p^-1) mod 2^64 makes t + m p a multiple of 2^64 (its low words
// sum to 0, or to 2^64 when t.lo is not 0), and (t + m p) / 2^64 < 2p.
fn f_mul(a: Elem, b: Elem) -> Elem {
    let p = p64_p();
    let t = u64_mul_wide(a, b);
    let u = u64_mul_wide(t.lo * p64_word(params.field.p_inv), p);
    let s = t.hi + u.hi + select(0lu, 1lu, t.lo != 0lu);
    // The sum wrapped past 2^64 exactly when it is below t.hi (u.hi + 1 <= p).
    if s < t.hi || s >= p {
        return s - p;
    }
    return s;
}

fn canonical(x: Elem) -> bool {
    return x < p64_p();
}

// x 2^64 mod p (a non-canonical input becomes 0: its polynomial is refused).
fn to_work(x: Elem) -> Elem {
    if x >= p64_p() {
        return 0lu;
    }
    return f_mul(x, p64_word(params.field.r2));
}

// x 2^-64 mod p: the canonical value.
fn from_work(x: Elem) -> Elem {
    return f_mul(x, 1lu);
}
