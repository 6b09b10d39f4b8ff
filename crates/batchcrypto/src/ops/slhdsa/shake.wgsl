// SLH-DSA's tweakable hashes F, H and T_l in the SHAKE sets (FIPS 205
// section 11.1): SHAKE256(PK.seed || ADRS || M, 8n), absorbed a word at a
// time (every part is a whole number of 8-byte lanes) and squeezed once
// (n <= 32 bytes, under the rate). Composed after Keccak-f[1600] on u64
// lanes and keccak.wgsl; the kernel (verify.wgsl) calls th_begin, th_word
// per data word and th_end. One hash per invocation at a time, in private
// variables.

// Words of the rate (136 bytes).
const TH_RATE_WORDS: u32 = 34u;

var<private> th_s: array<Lane, 25>;
var<private> th_pos: u32;

// Absorbs one word (4 bytes, little-endian) of the input.
fn th_word(w: u32) {
    let i = th_pos >> 1u;
    if (th_pos & 1u) == 0u {
        th_s[i] ^= lane(w, 0u);
    } else {
        th_s[i] ^= lane(0u, w);
    }
    th_pos += 1u;
    if th_pos == TH_RATE_WORDS {
        var a = th_s;
        keccak_f1600(&a);
        th_s = a;
        th_pos = 0u;
    }
}

// Starts a hash under `adrs` (eight big-endian words): PK.seed, then ADRS.
// `kind` (TH_F, TH_H, TH_T) matters only in the SHA2 sets.
fn th_begin(adrs: array<u32, 8>, kind: u32) {
    th_s = keccak_zero();
    th_pos = 0u;
    for (var i = 0u; i < params.nw; i++) {
        th_word(pk_seed[i]);
    }
    for (var i = 0u; i < 8u; i++) {
        th_word(bswap32(adrs[i]));
    }
}

// Pads (SHAKE's domain bits and pad10*1), permutes, and returns the first
// n bytes as little-endian words (the rest zero).
fn th_end() -> array<u32, 8> {
    let i = th_pos >> 1u;
    if (th_pos & 1u) == 0u {
        th_s[i] ^= lane(0x1fu, 0u);
    } else {
        th_s[i] ^= lane(0u, 0x1fu);
    }
    th_s[16] ^= lane(0u, 0x80000000u);
    var a = th_s;
    keccak_f1600(&a);
    var out: array<u32, 8>;
    for (var j = 0u; j < params.nw; j++) {
        let l = a[j >> 1u];
        out[j] = select(lane_lo(l), lane_hi(l), (j & 1u) == 1u);
    }
    return out;
}

// Nothing to precompute per item: PK.seed is absorbed with each hash.
fn th_setup(with_wide: bool) {}
