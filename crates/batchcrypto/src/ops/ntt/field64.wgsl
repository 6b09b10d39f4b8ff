// The NTT's 64-bit elements (Goldilocks, goldilocks.wgsl; any 64-bit
// prime, prime64.wgsl, which give the arithmetic): an element is a u64
// (two u32 words, low first) in the buffers and the block.

alias Elem = u64;
const ELEM_WORDS: u32 = 2u;

fn read_input(i: u32) -> Elem {
    return u64(input[2u * i]) | (u64(input[2u * i + 1u]) << 32u);
}

fn read_out(i: u32) -> Elem {
    return u64(out[2u * i]) | (u64(out[2u * i + 1u]) << 32u);
}

fn write_out(i: u32, x: Elem) {
    out[2u * i] = u32(x & 0xfffffffflu);
    out[2u * i + 1u] = u32(x >> 32u);
}

fn read_twiddle(i: u32) -> Elem {
    return u64(twiddles[2u * i]) | (u64(twiddles[2u * i + 1u]) << 32u);
}

fn read_scale(i: u32) -> Elem {
    return u64(scale[2u * i]) | (u64(scale[2u * i + 1u]) << 32u);
}

// The passes' workgroup block (passes.wgsl, ntt_block; BLOCK_WORDS is
// rendered by the host): element i's low word at i, its high word
// BLOCK_ELEMS further, so that neighbouring threads touch neighbouring
// words.
const BLOCK_ELEMS: u32 = BLOCK_WORDS / ELEM_WORDS;
var<workgroup> block: array<u32, BLOCK_WORDS>;

fn read_block(i: u32) -> Elem {
    return u64(block[i]) | (u64(block[BLOCK_ELEMS + i]) << 32u);
}

fn write_block(i: u32, x: Elem) {
    block[i] = u32(x & 0xfffffffflu);
    block[BLOCK_ELEMS + i] = u32(x >> 32u);
}
