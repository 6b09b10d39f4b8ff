// SHA-512 (FIPS 180-4) on u64 lanes (needs SHADER_INT64). The caller
// supplies the message one big-endian 64-bit word at a time through
// `sha512_word(ctx, block, w)`, so the input can be assembled from several
// buffers (e.g. R || A || M for Ed25519) without copying. SHA512_K and
// SHA512_H0 are rendered from Rust in front of this file.

fn rotr64(x: u64, n: u32) -> u64 {
    return (x >> n) | (x << (64u - n));
}

// Compresses one 128-byte block `m` into `state`.
fn sha512_compress(state: ptr<function, array<u64, 8>>, m: array<u64, 16>) {
    var w = m;
    var a = (*state)[0];
    var b = (*state)[1];
    var c = (*state)[2];
    var d = (*state)[3];
    var e = (*state)[4];
    var f = (*state)[5];
    var g = (*state)[6];
    var h = (*state)[7];
    for (var t = 0u; t < 80u; t++) {
        var wt: u64;
        if t < 16u {
            wt = w[t];
        } else {
            let w15 = w[(t + 1u) & 15u];
            let w2 = w[(t + 14u) & 15u];
            let s0 = rotr64(w15, 1u) ^ rotr64(w15, 8u) ^ (w15 >> 7u);
            let s1 = rotr64(w2, 19u) ^ rotr64(w2, 61u) ^ (w2 >> 6u);
            wt = w[t & 15u] + s0 + w[(t + 9u) & 15u] + s1;
            w[t & 15u] = wt;
        }
        let s1e = rotr64(e, 14u) ^ rotr64(e, 18u) ^ rotr64(e, 41u);
        let ch = (e & f) ^ (~e & g);
        let t1 = h + s1e + ch + SHA512_K[t] + wt;
        let s0a = rotr64(a, 28u) ^ rotr64(a, 34u) ^ rotr64(a, 39u);
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

// Number of 128-byte blocks for a message of `len` bytes (padding: 0x80,
// zeros, 128-bit big-endian bit length).
fn sha512_blocks(len: u32) -> u32 {
    return (len + 17u + 127u) / 128u;
}

// Byte `pos` of the padded message whose first `len` bytes are `data_byte`
// (already fetched by the caller) -- returns the padding/length byte when
// pos >= len.
fn sha512_pad_byte(pos: u32, len: u32, blocks: u32) -> u32 {
    if pos == len {
        return 0x80u;
    }
    let end = blocks * 128u;
    if pos >= end - 8u {
        let bitlen = u64(len) * 8lu;
        let shift = (end - 1u - pos) * 8u;
        return u32((bitlen >> shift) & 0xfflu);
    }
    return 0u;
}

// The digest (H0..H7, big-endian) as a little-endian 512-bit number: eight
// u64 lanes, least significant first (each word byte-swapped).
fn sha512_digest_le(state: array<u64, 8>) -> array<u64, 8> {
    var out: array<u64, 8>;
    for (var j = 0u; j < 8u; j++) {
        var v = 0lu;
        for (var k = 0u; k < 8u; k++) {
            v |= ((state[j] >> (8u * k)) & 0xfflu) << (56u - 8u * k);
        }
        out[j] = v;
    }
    return out;
}
