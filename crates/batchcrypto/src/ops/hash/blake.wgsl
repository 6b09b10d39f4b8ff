// BLAKE2b-256 (RFC 7693) and BLAKE3 (its specification's hash mode) for
// hash.wgsl, over the generated compressions (blake2b_compress on Lanes,
// blake3_compress on u32 words; gpu/shaders/hashes.rs). A message of
// `len` bytes at byte `off`; digests as 8 little-endian words.

const BLAKE2B_BLOCK: u32 = 128u;
const BLAKE3_BLOCK: u32 = 64u;
const BLAKE3_CHUNK: u32 = 1024u;
// BLAKE3's domain flags (specification table 3).
const BLAKE3_CHUNK_START: u32 = 1u;
const BLAKE3_CHUNK_END: u32 = 2u;
const BLAKE3_PARENT: u32 = 4u;
const BLAKE3_ROOT: u32 = 8u;
// Deepest chaining-value stack: fewer than 2^32 bytes are fewer than 2^22
// chunks.
const BLAKE3_STACK: u32 = 24u;

// The four message bytes from position pos on (little-endian), zeros past
// the message's end at len: both BLAKEs pad their last block with zeros.
fn msg_word_padded(off: u32, pos: u32, len: u32) -> u32 {
    if pos + 4u <= len {
        return msg_word_at(off + pos);
    }
    var w = 0u;
    for (var j = 0u; j < 4u; j++) {
        if pos + j < len {
            w |= msg_byte(off + pos + j) << (8u * j);
        }
    }
    return w;
}

fn blake2b_item(off: u32, len: u32) -> array<u32, 8> {
    var h = blake2b_256_h0();
    // The empty message is one block of zeros.
    let blocks = max(1u, (len + BLAKE2B_BLOCK - 1u) / BLAKE2B_BLOCK);
    for (var blk = 0u; blk < blocks; blk++) {
        var m: array<Lane, 16>;
        for (var k = 0u; k < 16u; k++) {
            let pos = blk * BLAKE2B_BLOCK + k * 8u;
            m[k] = lane(msg_word_padded(off, pos, len), msg_word_padded(off, pos + 4u, len));
        }
        // The counter: bytes compressed so far, this block's included.
        let last = blk + 1u == blocks;
        blake2b_compress(&h, m, select((blk + 1u) * BLAKE2B_BLOCK, len, last), last);
    }
    return array<u32, 8>(
        lane_lo(h[0]), lane_hi(h[0]), lane_lo(h[1]), lane_hi(h[1]),
        lane_lo(h[2]), lane_hi(h[2]), lane_lo(h[3]), lane_hi(h[3]),
    );
}

// What a BLAKE3 node's last compression takes (the specification's
// "output"): compressed without ROOT it is the node's chaining value, with
// ROOT the hash.
struct Blake3Node {
    cv: array<u32, 8>,
    m: array<u32, 16>,
    counter: u32,
    block_len: u32,
    flags: u32,
}

fn blake3_cv(node: Blake3Node) -> array<u32, 8> {
    return blake3_compress(node.cv, node.m, node.counter, node.block_len, node.flags);
}

// Chunk c of the message (1,024 bytes, the last one shorter; the empty
// message's one chunk empty): its blocks but the last compressed.
fn blake3_chunk(off: u32, len: u32, c: u32) -> Blake3Node {
    let start = c * BLAKE3_CHUNK;
    let chunk_len = min(len - start, BLAKE3_CHUNK);
    let blocks = max(1u, (chunk_len + BLAKE3_BLOCK - 1u) / BLAKE3_BLOCK);
    var node: Blake3Node;
    node.cv = SHA256_H0;
    node.counter = c;
    for (var blk = 0u; blk < blocks; blk++) {
        for (var k = 0u; k < 16u; k++) {
            node.m[k] = msg_word_padded(off, start + blk * BLAKE3_BLOCK + k * 4u, len);
        }
        node.block_len = min(chunk_len - blk * BLAKE3_BLOCK, BLAKE3_BLOCK);
        node.flags = select(0u, BLAKE3_CHUNK_START, blk == 0u) | select(0u, BLAKE3_CHUNK_END, blk + 1u == blocks);
        if blk + 1u < blocks {
            node.cv = blake3_cv(node);
        }
    }
    return node;
}

// The parent node of two chaining values.
fn blake3_parent(left: array<u32, 8>, right: array<u32, 8>) -> Blake3Node {
    var node: Blake3Node;
    node.cv = SHA256_H0;
    for (var k = 0u; k < 8u; k++) {
        node.m[k] = left[k];
        node.m[k + 8u] = right[k];
    }
    node.counter = 0u;
    node.block_len = BLAKE3_BLOCK;
    node.flags = BLAKE3_PARENT;
    return node;
}

// The tree as the specification's reference builds it: each chunk but the
// last pushed on a stack of chaining values, merged with the one below as
// long as the count of chunks so far is even; then the last chunk merged
// with the stack from its top, and the last node compressed with ROOT.
fn blake3_item(off: u32, len: u32) -> array<u32, 8> {
    let chunks = max(1u, (len + BLAKE3_CHUNK - 1u) / BLAKE3_CHUNK);
    var stack: array<array<u32, 8>, BLAKE3_STACK>;
    var depth = 0u;
    for (var c = 0u; c + 1u < chunks; c++) {
        var cv = blake3_cv(blake3_chunk(off, len, c));
        var total = c + 1u;
        while (total & 1u) == 0u {
            depth -= 1u;
            cv = blake3_cv(blake3_parent(stack[depth], cv));
            total >>= 1u;
        }
        stack[depth] = cv;
        depth += 1u;
    }
    var node = blake3_chunk(off, len, chunks - 1u);
    while depth > 0u {
        depth -= 1u;
        node = blake3_parent(stack[depth], blake3_cv(node));
    }
    node.flags |= BLAKE3_ROOT;
    // The root's first output block: counter 0 (a lone chunk's is chunk 0).
    return blake3_cv(node);
}

// The digest of the len bytes at byte off under alg.
fn item_digest(alg: u32, off: u32, len: u32) -> array<u32, 8> {
    if alg == ALG_BLAKE2B_256 {
        return blake2b_item(off, len);
    }
    return blake3_item(off, len);
}
