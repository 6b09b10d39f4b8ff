// SHA-256 compression (FIPS 180-4 section 6.2) on u32 words. SHA256_K and
// SHA256_H0 are rendered from Rust in front of this file.

// A big-endian SHA-256 word <-> the little-endian word of the same 4 bytes.
fn bswap32(s: u32) -> u32 {
    return (s >> 24u) | ((s >> 8u) & 0xff00u) | ((s << 8u) & 0xff0000u) | (s << 24u);
}

fn rotr32(x: u32, n: u32) -> u32 {
    return (x >> n) | (x << (32u - n));
}

fn sha256_compress(state: ptr<function, array<u32, 8>>, m: array<u32, 16>) {
    var w = m;
    var a = (*state)[0];
    var b = (*state)[1];
    var c = (*state)[2];
    var d = (*state)[3];
    var e = (*state)[4];
    var f = (*state)[5];
    var g = (*state)[6];
    var h = (*state)[7];
    for (var t = 0u; t < 64u; t++) {
        var wt: u32;
        if t < 16u {
            wt = w[t];
        } else {
            let w15 = w[(t + 1u) & 15u];
            let w2 = w[(t + 14u) & 15u];
            let s0 = rotr32(w15, 7u) ^ rotr32(w15, 18u) ^ (w15 >> 3u);
            let s1 = rotr32(w2, 17u) ^ rotr32(w2, 19u) ^ (w2 >> 10u);
            wt = w[t & 15u] + s0 + w[(t + 9u) & 15u] + s1;
            w[t & 15u] = wt;
        }
        let s1e = rotr32(e, 6u) ^ rotr32(e, 11u) ^ rotr32(e, 25u);
        let ch = (e & f) ^ (~e & g);
        let t1 = h + s1e + ch + SHA256_K[t] + wt;
        let s0a = rotr32(a, 2u) ^ rotr32(a, 13u) ^ rotr32(a, 22u);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        let t2 = s0a + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    (*state)[0] += a;
    (*state)[1] += b;
    (*state)[2] += c;
    (*state)[3] += d;
    (*state)[4] += e;
    (*state)[5] += f;
    (*state)[6] += g;
    (*state)[7] += h;
}
