// Messages stored flat (one byte buffer, offsets per item) as kernels
// read them: the including kernel declares `msg_words` (the bytes as
// little-endian u32 words) and this file reads bytes and words from it
// (SHA-256 over them: sha256_flat.wgsl).

// Byte i mod 4 of the little-endian word w (byte i of a word-stored array).
fn word_byte(w: u32, i: u32) -> u32 {
    return (w >> ((i & 3u) * 8u)) & 0xffu;
}

fn msg_byte(b: u32) -> u32 {
    return word_byte(msg_words[b >> 2u], b);
}

// The four message bytes from byte b on, little-endian (b need not be
// aligned: two words and a funnel shift).
fn msg_word_at(b: u32) -> u32 {
    let sh = (b & 3u) * 8u;
    let lo = msg_words[b >> 2u];
    if sh == 0u {
        return lo;
    }
    return (lo >> sh) | (msg_words[(b >> 2u) + 1u] << (32u - sh));
}
