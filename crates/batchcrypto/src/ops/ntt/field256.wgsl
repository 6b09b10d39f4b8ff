// The NTT's field layer for a 256-bit prime field (the scalar fields of
// BN254 and BLS12-381) over gpu/wgsl/u256.wgsl and the generated Montgomery
// multiplication (R = 2^256): an element is eight u32 limbs, least
// significant first, worked on in Montgomery form. FR_M, FR_R2 (R^2 mod m)
// and FR_INV (-m^-1 mod 2^32) are rendered before this file from the host's
// constants (ops/ntt/gpu.rs).

alias Elem = U256;
const ELEM_WORDS: u32 = 8u;

fn f_add(a: Elem, b: Elem) -> Elem {
    return mont_add(a, b, FR_M);
}

fn f_sub(a: Elem, b: Elem) -> Elem {
    return mont_sub(a, b, FR_M);
}

fn f_mul(a: Elem, b: Elem) -> Elem {
    return mont_mul(a, b, FR_M, FR_INV);
}

fn read_input(i: u32) -> Elem {
    let w = 8u * i;
    return U256(input[w], input[w + 1u], input[w + 2u], input[w + 3u], input[w + 4u], input[w + 5u],
        input[w + 6u], input[w + 7u]);
}

fn read_out(i: u32) -> Elem {
    let w = 8u * i;
    return U256(out[w], out[w + 1u], out[w + 2u], out[w + 3u], out[w + 4u], out[w + 5u], out[w + 6u],
        out[w + 7u]);
}

fn write_out(i: u32, x: Elem) {
    let w = 8u * i;
    out[w] = x[0];
    out[w + 1u] = x[1];
    out[w + 2u] = x[2];
    out[w + 3u] = x[3];
    out[w + 4u] = x[4];
    out[w + 5u] = x[5];
    out[w + 6u] = x[6];
    out[w + 7u] = x[7];
}

fn read_twiddle(i: u32) -> Elem {
    let w = 8u * i;
    return U256(twiddles[w], twiddles[w + 1u], twiddles[w + 2u], twiddles[w + 3u], twiddles[w + 4u],
        twiddles[w + 5u], twiddles[w + 6u], twiddles[w + 7u]);
}

fn read_scale(i: u32) -> Elem {
    let w = 8u * i;
    return U256(scale[w], scale[w + 1u], scale[w + 2u], scale[w + 3u], scale[w + 4u], scale[w + 5u],
        scale[w + 6u], scale[w + 7u]);
}

fn canonical(x: Elem) -> bool {
    return u256_lt(x, FR_M);
}

// x R mod m (a non-canonical input becomes 0: its polynomial is refused).
fn to_work(x: Elem) -> Elem {
    if !u256_lt(x, FR_M) {
        return U256(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    }
    return mont_mul(x, FR_R2, FR_M, FR_INV);
}

// x R^-1 mod m: the canonical value.
fn from_work(x: Elem) -> Elem {
    return mont_mul(x, U256(1u, 0u, 0u, 0u, 0u, 0u, 0u, 0u), FR_M, FR_INV);
}

// The passes' workgroup block (passes.wgsl, ntt_block; BLOCK_WORDS is
// rendered by the host): limb k of element i at k BLOCK_ELEMS + i, so
// that neighbouring threads touch neighbouring words.
const BLOCK_ELEMS: u32 = BLOCK_WORDS / ELEM_WORDS;
var<workgroup> block: array<u32, BLOCK_WORDS>;

fn read_block(i: u32) -> Elem {
    return U256(block[i], block[BLOCK_ELEMS + i], block[2u * BLOCK_ELEMS + i], block[3u * BLOCK_ELEMS + i],
        block[4u * BLOCK_ELEMS + i], block[5u * BLOCK_ELEMS + i], block[6u * BLOCK_ELEMS + i],
        block[7u * BLOCK_ELEMS + i]);
}

fn write_block(i: u32, x: Elem) {
    block[i] = x[0];
    block[BLOCK_ELEMS + i] = x[1];
    block[2u * BLOCK_ELEMS + i] = x[2];
    block[3u * BLOCK_ELEMS + i] = x[3];
    block[4u * BLOCK_ELEMS + i] = x[4];
    block[5u * BLOCK_ELEMS + i] = x[5];
    block[6u * BLOCK_ELEMS + i] = x[6];
    block[7u * BLOCK_ELEMS + i] = x[7];
}
