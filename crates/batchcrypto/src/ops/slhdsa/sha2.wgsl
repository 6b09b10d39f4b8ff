// SLH-DSA's tweakable hashes F, H and T_l in the SHA2 sets (FIPS 205
// section 11.2): Trunc_n(SHA-256(PK.seed || toByte(0, 64 - n) || ADRSc ||
// M)), with SHA-512 and a 128-byte first block for H and T_l in security
// categories 3 and 5 (n > 16). The first block depends only on PK.seed:
// th_setup compresses it once per item (the midstates). ADRSc, the
// 22-byte compressed address, leaves the data two bytes past a word
// boundary, so the data's words are fed through a 16-bit carry. Composed
// after sha256.wgsl, sha256_compress and sha512.wgsl; the kernel
// (verify.wgsl) calls th_begin, th_word per data word and th_end. One hash
// per invocation at a time, in private variables.

var<private> th_mid256: array<u32, 8>;
var<private> th_mid512: array<u64, 8>;
var<private> th_st256: array<u32, 8>;
var<private> th_st512: array<u64, 8>;
// The block being filled, big-endian words (SHA-512: pairs of them).
var<private> th_blk: array<u32, 32>;
var<private> th_pos: u32;
// Whether this hash is SHA-512's.
var<private> th_wide: bool;
// The two bytes carried to the next word.
var<private> th_carry: u32;
// Bytes hashed, the first block included.
var<private> th_len: u32;

// The midstates of PK.seed's first blocks (SHA-512's only where used
// and `with_wide`: F, all a WOTS+ chain hashes, is always SHA-256's).
fn th_setup(with_wide: bool) {
    var m: array<u32, 16>;
    for (var i = 0u; i < params.nw; i++) {
        m[i] = bswap32(pk_seed[i]);
    }
    var st: array<u32, 8> = SHA256_H0;
    sha256_compress(&st, m);
    th_mid256 = st;
    if params.wide != 0u && with_wide {
        var m64: array<u64, 16>;
        for (var i = 0u; i < params.nw / 2u; i++) {
            m64[i] = (u64(bswap32(pk_seed[2u * i])) << 32u) | u64(bswap32(pk_seed[2u * i + 1u]));
        }
        var st512: array<u64, 8> = SHA512_H0;
        sha512_compress(&st512, m64);
        th_mid512 = st512;
    }
}

fn th_compress() {
    if th_wide {
        var m: array<u64, 16>;
        for (var i = 0u; i < 16u; i++) {
            m[i] = (u64(th_blk[2u * i]) << 32u) | u64(th_blk[2u * i + 1u]);
        }
        var st = th_st512;
        sha512_compress(&st, m);
        th_st512 = st;
    } else {
        var m: array<u32, 16>;
        for (var i = 0u; i < 16u; i++) {
            m[i] = th_blk[i];
        }
        var st = th_st256;
        sha256_compress(&st, m);
        th_st256 = st;
    }
    th_pos = 0u;
}

// Appends one big-endian word to the block.
fn th_push(w: u32) {
    th_blk[th_pos] = w;
    th_pos += 1u;
    if th_pos == select(16u, 32u, th_wide) {
        th_compress();
    }
}

// Starts a hash under `adrs` (eight big-endian words): the midstate, then
// ADRSc = ADRS[3] || ADRS[8:16] || ADRS[19] || ADRS[20:32].
fn th_begin(adrs: array<u32, 8>, kind: u32) {
    th_wide = params.wide != 0u && kind != TH_F;
    th_pos = 0u;
    if th_wide {
        th_st512 = th_mid512;
        th_len = 128u + 22u;
    } else {
        th_st256 = th_mid256;
        th_len = 64u + 22u;
    }
    let layer = adrs[0] & 0xffu;
    let t2 = adrs[2];
    let t3 = adrs[3];
    let ty = adrs[4] & 0xffu;
    th_push((layer << 24u) | (t2 >> 8u));
    th_push((t2 << 24u) | (t3 >> 8u));
    th_push((t3 << 24u) | (ty << 16u) | (adrs[5] >> 16u));
    th_push((adrs[5] << 16u) | (adrs[6] >> 16u));
    th_push((adrs[6] << 16u) | (adrs[7] >> 16u));
    th_carry = adrs[7] & 0xffffu;
}

// Absorbs one word (4 bytes, little-endian) of the data.
fn th_word(w: u32) {
    let be = bswap32(w);
    th_push((th_carry << 16u) | (be >> 16u));
    th_carry = be & 0xffffu;
    th_len += 4u;
}

// The carried bytes, the padding and the bit length; returns the first n
// bytes of the digest as little-endian words (the rest zero).
fn th_end() -> array<u32, 8> {
    th_push((th_carry << 16u) | 0x8000u);
    // The bit length takes the block's last two (SHA-256) or four words.
    let words = select(16u, 32u, th_wide);
    if th_pos > words - select(2u, 4u, th_wide) {
        for (var i = th_pos; i < words; i++) {
            th_blk[i] = 0u;
        }
        th_compress();
    }
    for (var i = th_pos; i < words - 1u; i++) {
        th_blk[i] = 0u;
    }
    th_blk[words - 1u] = th_len * 8u;
    th_compress();
    var out: array<u32, 8>;
    if th_wide {
        for (var j = 0u; j < params.nw / 2u; j++) {
            out[2u * j] = bswap32(u32(th_st512[j] >> 32u));
            out[2u * j + 1u] = bswap32(u32(th_st512[j] & 0xfffffffflu));
        }
    } else {
        for (var j = 0u; j < params.nw; j++) {
            out[j] = bswap32(th_st256[j]);
        }
    }
    return out;
}
