// SHA-256 over flat messages (flat_msgs.wgsl), after a prefix already
// compressed into the state (BIP-340's tagged hashes) or from SHA256_H0.
// Composed with sha256 (sha256_compress) and flat_msgs.

// SHA-256 of `before` bytes already compressed into `state` (a multiple of
// 64; 0 for a plain hash from SHA256_H0) followed by the `len` message
// bytes at byte `off`: the final state, big-endian words.
fn sha256_flat(state0: array<u32, 8>, off: u32, len: u32, before: u32) -> array<u32, 8> {
    var state = state0;
    let blocks = (len + 8u) / 64u + 1u;
    // The 64-bit bit length of everything hashed, as two words.
    let total = before + len;
    let bitlen = array<u32, 2>(total << 3u, total >> 29u);
    for (var blk = 0u; blk < blocks; blk++) {
        var m: array<u32, 16>;
        for (var w = 0u; w < 16u; w++) {
            var word = 0u;
            for (var j = 0u; j < 4u; j++) {
                let pos = blk * 64u + w * 4u + j;
                var byte = 0u;
                if pos < len {
                    byte = msg_byte(off + pos);
                } else if pos == len {
                    byte = 0x80u;
                } else if pos >= blocks * 64u - 8u {
                    let k = blocks * 64u - 1u - pos;
                    byte = (bitlen[k / 4u] >> ((k % 4u) * 8u)) & 0xffu;
                }
                word = (word << 8u) | byte;
            }
            m[w] = word;
        }
        sha256_compress(&state, m);
    }
    return state;
}
