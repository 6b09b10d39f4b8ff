// SHA3-256, SHA3-512, SHAKE128 and SHAKE256 (FIPS 202 section 6) as one
// byte-oriented sponge over Keccak-f[1600], for kernels that absorb and
// squeeze streams of bytes (ML-DSA's and ML-KEM's H, G, J, PRF and XOFs). One sponge per
// invocation at a time, in private variables; every permutation goes
// through the one call in sponge_op, so a kernel inlines Keccak-f once.
// Composed after the lane type and keccak_f1600 (gpu/shaders.rs).
//
// Absorbing and squeezing are lazy: a full block is permuted by the next
// operation, and sponge_pad leaves the position at the rate, so the first
// squeeze permutes. Word operations (4 bytes, little-endian) need the
// position at a multiple of 4, which holds while a caller moves in words
// from a block's start (both rates are multiples of 8).

// Rates in bytes, and the domain bits with the first padding bit.
const SHAKE128_RATE: u32 = 168u;
const SHAKE256_RATE: u32 = 136u;
const SHA3_256_RATE: u32 = 136u;
const SHA3_512_RATE: u32 = 72u;
const SHAKE_PAD: u32 = 0x1fu;
const SHA3_PAD: u32 = 0x06u;

var<private> sponge_state: array<Lane, 25>;
var<private> sponge_pos: u32;
var<private> sponge_rate: u32;

// A fresh sponge of `rate` bytes.
fn sponge_init(rate: u32) {
    for (var i = 0u; i < 25u; i++) {
        sponge_state[i] = lane(0u, 0u);
    }
    sponge_pos = 0u;
    sponge_rate = rate;
}

// XORs `x` (already shifted into place) into the lane half of byte `pos`.
fn sponge_xor(pos: u32, x: u32) {
    if (pos & 4u) == 0u {
        sponge_state[pos >> 3u] ^= lane(x, 0u);
    } else {
        sponge_state[pos >> 3u] ^= lane(0u, x);
    }
}

// Absorbs (absorb) or squeezes one byte, or one word (word), of `v`;
// returns what was squeezed.
fn sponge_op(absorb: bool, word: bool, v: u32) -> u32 {
    if sponge_pos == sponge_rate {
        var a = sponge_state;
        keccak_f1600(&a);
        sponge_state = a;
        sponge_pos = 0u;
    }
    let pos = sponge_pos;
    let sh = (pos & 3u) * 8u;
    sponge_pos += select(1u, 4u, word);
    if absorb {
        sponge_xor(pos, select((v & 0xffu) << sh, v, word));
        return 0u;
    }
    let l = sponge_state[pos >> 3u];
    let w = select(lane_lo(l), lane_hi(l), (pos & 4u) != 0u);
    return select((w >> sh) & 0xffu, w, word);
}

fn sponge_absorb_byte(b: u32) {
    _ = sponge_op(true, false, b);
}

fn sponge_absorb_word(w: u32) {
    _ = sponge_op(true, true, w);
}

fn sponge_squeeze_byte() -> u32 {
    return sponge_op(false, false, 0u);
}

fn sponge_squeeze_word() -> u32 {
    return sponge_op(false, true, 0u);
}

// Ends absorbing: the domain bits and pad10*1 (FIPS 202 section 6 and
// algorithm 9; `pad` is SHAKE_PAD or SHA3_PAD), the block permuted by the
// first squeeze.
fn sponge_pad(pad: u32) {
    if sponge_pos == sponge_rate {
        // The message ended on a block boundary: pad a block of its own.
        sponge_absorb_byte(0u);
        sponge_pos = 0u;
    }
    sponge_xor(sponge_pos, pad << ((sponge_pos & 3u) * 8u));
    sponge_xor(sponge_rate - 1u, 0x80u << 24u);
    sponge_pos = sponge_rate;
}
