// Keccak-256 (pad 0x01), SHA3-256 (pad 0x06) and SHA-256 for hash.wgsl,
// over the keccak and sha256 libraries.

const KECCAK_RATE: u32 = 136u;

fn keccak_item(off: u32, len: u32, pad: u32) -> array<u32, 8> {
    var a = keccak_zero();
    let blocks = len / KECCAK_RATE + 1u;
    for (var blk = 0u; blk < blocks; blk++) {
        var block: array<Lane, 17>;
        for (var lane_i = 0u; lane_i < KECCAK_RATE / 8u; lane_i++) {
            let at = blk * KECCAK_RATE + lane_i * 8u;
            if at + 8u <= len {
                // A whole lane of message bytes.
                block[lane_i] = lane(msg_word_at(off + at), msg_word_at(off + at + 4u));
            } else if at <= len || at + 8u == blocks * KECCAK_RATE {
                // The lane with the message's end, the padding or the final 0x80.
                var w: array<u32, 2>;
                for (var j = 0u; j < 8u; j++) {
                    let pos = at + j;
                    var byte = 0u;
                    if pos < len {
                        byte = msg_byte(off + pos);
                    }
                    if pos == len {
                        byte ^= pad;
                    }
                    if pos == blocks * KECCAK_RATE - 1u {
                        byte ^= 0x80u;
                    }
                    w[j / 4u] |= byte << (8u * (j % 4u));
                }
                block[lane_i] = lane(w[0], w[1]);
            }
        }
        keccak_absorb(&a, &block);
        keccak_f1600(&a);
    }
    return keccak_digest_words(&a);
}

fn sha256_item(off: u32, len: u32) -> array<u32, 8> {
    let state = sha256_flat(SHA256_H0, off, len, 0u);
    // Big-endian state words -> little-endian words of the digest bytes.
    var out: array<u32, 8>;
    for (var i = 0u; i < 8u; i++) {
        out[i] = bswap32(state[i]);
    }
    return out;
}

// The digest of the len bytes at byte off under alg.
fn item_digest(alg: u32, off: u32, len: u32) -> array<u32, 8> {
    if alg == ALG_KECCAK256 {
        return keccak_item(off, len, 0x01u);
    } else if alg == ALG_SHA3_256 {
        return keccak_item(off, len, 0x06u);
    }
    return sha256_item(off, len);
}
