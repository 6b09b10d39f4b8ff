// The Goldilocks field, p = 2^64 - 2^32 + 1, on u64 lanes (SHADER_INT64).
// Elements are canonical (below p) between calls. 2^64 = 2^32 - 1 (mod p)
// and 2^96 = -1 (mod p) reduce a 128-bit product without division.

const GL_P: u64 = 0xffffffff00000001lu;
// 2^64 mod p.
const GL_EPSILON: u64 = 0xfffffffflu;

fn gl_canonical(a: u64) -> u64 {
    if a >= GL_P {
        return a - GL_P;
    }
    return a;
}

fn gl_add(a: u64, b: u64) -> u64 {
    var s = a + b;
    // A carry out of 64 bits is worth 2^64 = epsilon; a + b < 2p leaves
    // room for it.
    if s < a {
        s += GL_EPSILON;
    }
    return gl_canonical(s);
}

fn gl_sub(a: u64, b: u64) -> u64 {
    if a >= b {
        return a - b;
    }
    return a + (GL_P - b);
}

// The 128-bit product of a and b (gpu/wgsl/u64.wgsl) reduced mod p.
fn gl_mul(a: u64, b: u64) -> u64 {
    let t = u64_mul_wide(a, b);
    // hi = hi_hi 2^32 + hi_lo: lo + hi_lo (2^32 - 1) - hi_hi (mod p).
    let hi_hi = t.hi >> 32u;
    let hi_lo = t.hi & 0xfffffffflu;
    var t0 = t.lo - hi_hi;
    if t.lo < hi_hi {
        t0 -= GL_EPSILON;
    }
    let t1 = hi_lo * GL_EPSILON;
    var r = t0 + t1;
    if r < t0 {
        r += GL_EPSILON;
    }
    return gl_canonical(r);
}
