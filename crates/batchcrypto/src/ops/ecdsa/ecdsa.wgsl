// ECDSA on the GPU, one thread per item, the curve a parameter:
// verification (`ecdsa_verify`; secp256k1 and P-256: the key decoded and
// checked on the device, u1 = z/s and u2 = r/s mod n, R = u1 G + u2 Q by
// Shamir's trick, x(R) compared with r without an inversion) and Ethereum's
// ecrecover (`ecdsa_recover`: R lifted from r and the parity,
// Q = (-z/r) G + (s/r) R, made affine, keccak256 of x || y). Two entry
// points, so that each pipeline holds one scalar multiplication. The host has already applied the range, v and
// low-s rules; it combines them with the flags written here.
// Composed after guard, keccak (u64 lanes), sha256, u256, mont_mul and
// weierstrass.
//
// Item (u32 words, limbs least significant first): z[8] r[8] s[8] x[8] y[8]
// kind (verify: 0 x,y given; 1/2 compressed, even/odd y; 3/4 hybrid,
// even/odd y; ecrecover: the recovery id).
// Output: status (DONE_FLAG | bit 0 key or R decoded | bit 1 equation holds
// or Q finite), then for ecrecover x[8] y[8] (limbs) and keccak256(x || y)[8].

const DONE_FLAG: u32 = 0x100u;
const ITEM_WORDS: u32 = 41u;
const OUT_WORDS: u32 = 25u;
const CURVE_WORDS: u32 = 138u;

struct Params {
    n: u32,
    unused: u32,
    curve: u32,
    loop_guard: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> items: array<u32>;
@group(0) @binding(2) var<storage, read> curves: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

fn item_u256(i: u32, at: u32) -> U256 {
    var v: U256;
    for (var k = 0u; k < 8u; k++) {
        v[k] = items[i * ITEM_WORDS + at + k];
    }
    return v;
}

fn curve_u256(at: u32) -> U256 {
    var v: U256;
    for (var k = 0u; k < 8u; k++) {
        v[k] = curves[params.curve * CURVE_WORDS + at + k];
    }
    return v;
}

fn one_plain() -> U256 {
    var v: U256;
    v[0] = 1u;
    return v;
}

// Curve words: p[8] pinv n[8] ninv p_r2[8] n_r2[8] a[8] b[8] gx[8] gy[8]
// p-2[8] n-2[8] (p+1)/4[8], plain integers; then for curves with an
// endomorphism (else zeros) beta[8] (Montgomery mod p), lambda[8]
// minus_b1[8] minus_b2[8] (Montgomery mod n), g1[8] g2[8] (plain).
fn load_curve() -> Curve {
    var c: Curve;
    c.p = curve_u256(0u);
    c.pinv = curves[params.curve * CURVE_WORDS + 8u];
    c.n = curve_u256(9u);
    c.ninv = curves[params.curve * CURVE_WORDS + 17u];
    let p_r2 = curve_u256(18u);
    let n_r2 = curve_u256(26u);
    c.one = mont_mul(one_plain(), p_r2, c.p, c.pinv);
    c.n_one = mont_mul(one_plain(), n_r2, c.n, c.ninv);
    c.a = mont_mul(curve_u256(34u), p_r2, c.p, c.pinv);
    c.b = mont_mul(curve_u256(42u), p_r2, c.p, c.pinv);
    c.b3 = fadd(c, fadd(c, c.b, c.b), c.b);
    c.beta = curve_u256(90u);
    c.lambda = curve_u256(98u);
    c.minus_b1 = curve_u256(106u);
    c.minus_b2 = curve_u256(114u);
    c.g1 = curve_u256(122u);
    c.g2 = curve_u256(130u);
    return c;
}

fn to_p(c: Curve, x: U256) -> U256 {
    return mont_mul(x, curve_u256(18u), c.p, c.pinv);
}

fn from_p(c: Curve, x: U256) -> U256 {
    return mont_mul(x, one_plain(), c.p, c.pinv);
}

fn to_n(c: Curve, x: U256) -> U256 {
    return mont_mul(x, curve_u256(26u), c.n, c.ninv);
}

fn from_n(c: Curve, x: U256) -> U256 {
    return mont_mul(x, one_plain(), c.n, c.ninv);
}

fn generator(c: Curve) -> Proj {
    return Proj(to_p(c, curve_u256(50u)), to_p(c, curve_u256(58u)), c.one);
}

// The square root of a Montgomery-form value whose plain parity is `odd`
// (p = 3 mod 4: a^((p+1)/4)); `ok` when one exists.
struct Root {
    y: U256,
    ok: bool,
}

fn sqrt_with_parity(c: Curve, a: U256, odd: u32) -> Root {
    var y = mont_pow(a, curve_u256(82u), c.one, c.p, c.pinv);
    let ok = u256_eq(fmul(c, y, y), a);
    if (from_p(c, y)[0] & 1u) != odd {
        var zero: U256;
        y = fsub(c, zero, y);
    }
    return Root(y, ok);
}

// 1/v mod n for Montgomery-form v (Fermat).
fn n_inverse(c: Curve, v: U256) -> U256 {
    return mont_pow(v, curve_u256(74u), c.n_one, c.n, c.ninv);
}

fn verify_item(c: Curve, i: u32) -> u32 {
    let kind = items[i * ITEM_WORDS + 40u];
    let x = item_u256(i, 24u);
    var y = item_u256(i, 32u);
    var key_ok = u256_lt(x, c.p);
    let qx = to_p(c, x);
    var qy: U256;
    let rhs = curve_rhs(c, qx);
    if kind == 1u || kind == 2u {
        let root = sqrt_with_parity(c, rhs, kind - 1u);
        key_ok = key_ok && root.ok;
        qy = root.y;
    } else {
        key_ok = key_ok && u256_lt(y, c.p);
        qy = to_p(c, y);
        key_ok = key_ok && u256_eq(fmul(c, qy, qy), rhs);
        if kind >= 3u {
            key_ok = key_ok && (y[0] & 1u) == kind - 3u;
        }
    }
    let z = u256_reduce_once(item_u256(i, 0u), c.n);
    let r = item_u256(i, 8u);
    let w = n_inverse(c, to_n(c, item_u256(i, 16u)));
    let u1 = from_n(c, mont_mul(to_n(c, z), w, c.n, c.ninv));
    let u2 = from_n(c, mont_mul(to_n(c, r), w, c.n, c.ninv));
    let big_r = double_mul(c, u1, generator(c), u2, Proj(qx, qy, c.one));
    // x(R) = X / Z equals r or r + n (when below p), mod p.
    var rr = r;
    let rn = u256_add(r, c.n);
    let zr = fmul(c, big_r.z, to_p(c, r));
    if !u256_eq(big_r.x, zr) && rn.c == 0u && u256_lt(rn.v, c.p) {
        rr = rn.v;
    }
    let eq_ok = !u256_is_zero(big_r.z) && u256_eq(big_r.x, fmul(c, big_r.z, to_p(c, rr)));
    return u32(key_ok) | (u32(eq_ok) << 1u);
}

fn recover_item(c: Curve, i: u32) -> u32 {
    let r = item_u256(i, 8u);
    let recid = items[i * ITEM_WORDS + 40u];
    let rx = to_p(c, r);
    let root = sqrt_with_parity(c, curve_rhs(c, rx), recid & 1u);
    let z = u256_reduce_once(item_u256(i, 0u), c.n);
    var neg_z: U256;
    if !u256_is_zero(z) {
        neg_z = u256_sub(c.n, z).v;
    }
    let rinv = n_inverse(c, to_n(c, r));
    let u1 = from_n(c, mont_mul(to_n(c, neg_z), rinv, c.n, c.ninv));
    let u2 = from_n(c, mont_mul(to_n(c, item_u256(i, 16u)), rinv, c.n, c.ninv));
    let q = double_mul(c, u1, generator(c), u2, Proj(rx, root.y, c.one));
    let q_ok = !u256_is_zero(q.z);
    // Affine: x = X / Z, y = Y / Z (Fermat inverse mod p).
    let zi = mont_pow(q.z, curve_u256(66u), c.one, c.p, c.pinv);
    let x = from_p(c, fmul(c, q.x, zi));
    let y = from_p(c, fmul(c, q.y, zi));
    // keccak256 of the 64 big-endian bytes x || y.
    var xb: array<u32, 8>;
    var yb: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        xb[k] = bswap32(x[7u - k]);
        yb[k] = bswap32(y[7u - k]);
    }
    let digest = keccak256_64(xb, yb);
    for (var k = 0u; k < 8u; k++) {
        out[i * OUT_WORDS + 1u + k] = x[k];
        out[i * OUT_WORDS + 9u + k] = y[k];
        out[i * OUT_WORDS + 17u + k] = digest[k];
    }
    return u32(root.ok) | (u32(q_ok) << 1u);
}

@compute @workgroup_size(64)
fn ecdsa_verify(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 64u + gid.x;
    if i >= params.n {
        return;
    }
    let flags = verify_item(load_curve(), i);
    out[i * OUT_WORDS] = select(LOOPS_CUT_FLAG, DONE_FLAG | flags, loops_intact(params.loop_guard));
}

@compute @workgroup_size(64)
fn ecdsa_recover(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = gid.y * groups.x * 64u + gid.x;
    if i >= params.n {
        return;
    }
    let flags = recover_item(load_curve(), i);
    out[i * OUT_WORDS] = select(LOOPS_CUT_FLAG, DONE_FLAG | flags, loops_intact(params.loop_guard));
}
