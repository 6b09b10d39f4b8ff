// Accessors of the work buffers that the lattice kernels (ML-DSA's
// verify.wgsl, ML-KEM's kem.wgsl) share. The including kernel declares
// params (with n and loop_guard), keys and items (read-only words),
// key_work and item_work (read-write words) and status (atomic words,
// word n collecting LOOPS_CUT_FLAG), and defines key_polys() and
// item_polys(): how many polynomials each work buffer holds. Polynomials
// are stored coefficient-major (coefficient j of polynomial p at
// j key_polys() + p), so that neighbouring threads, which work on
// neighbouring polynomials, touch neighbouring words.

fn load_key_poly(p: u32, w: ptr<function, array<u32, 256>>) {
    let stride = key_polys();
    for (var j = 0u; j < 256u; j++) {
        (*w)[j] = key_work[j * stride + p];
    }
}

fn store_key_poly(p: u32, w: ptr<function, array<u32, 256>>) {
    let stride = key_polys();
    for (var j = 0u; j < 256u; j++) {
        key_work[j * stride + p] = (*w)[j];
    }
}

fn load_item_poly(p: u32, w: ptr<function, array<u32, 256>>) {
    let stride = item_polys();
    for (var j = 0u; j < 256u; j++) {
        (*w)[j] = item_work[j * stride + p];
    }
}

fn store_item_poly(p: u32, w: ptr<function, array<u32, 256>>) {
    let stride = item_polys();
    for (var j = 0u; j < 256u; j++) {
        item_work[j * stride + p] = (*w)[j];
    }
}

// `width` (<= 25) bits from bit `bit` of the key words from word `base`.
fn key_bits(base: u32, bit: u32, width: u32) -> u32 {
    let w = base + (bit >> 5u);
    let sh = bit & 31u;
    var v = keys[w] >> sh;
    if sh + width > 32u {
        v |= keys[w + 1u] << (32u - sh);
    }
    return v & ((1u << width) - 1u);
}

// The same over the item words.
fn item_bits(base: u32, bit: u32, width: u32) -> u32 {
    let w = base + (bit >> 5u);
    let sh = bit & 31u;
    var v = items[w] >> sh;
    if sh + width > 32u {
        v |= items[w + 1u] << (32u - sh);
    }
    return v & ((1u << width) - 1u);
}

// Marks the batch failed when this invocation's loops were cut short.
fn guard_loops() -> bool {
    if loops_intact(params.loop_guard) {
        return true;
    }
    atomicOr(&status[params.n], LOOPS_CUT_FLAG);
    return false;
}

// ByteEncode_d of a row into `packed` (8 d words).
fn encode_row(a: ptr<function, array<u32, 256>>, d: u32, packed: ptr<function, array<u32, 96>>) {
    for (var x = 0u; x < 96u; x++) {
        (*packed)[x] = 0u;
    }
    for (var j = 0u; j < 256u; j++) {
        let at = j * d;
        let v = (*a)[j];
        (*packed)[at >> 5u] |= v << (at & 31u);
        if (at & 31u) + d > 32u {
            (*packed)[(at >> 5u) + 1u] |= v >> (32u - (at & 31u));
        }
    }
}
