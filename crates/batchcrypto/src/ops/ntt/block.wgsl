// The NTT kernels' workgroup block (radix2.wgsl and passes.wgsl): 2^bits
// consecutive places of a polynomial's bit-reversed layout (the field
// layer's `block`, BLOCK_BITS at most: 16 KiB of elements) in workgroup
// memory, where the Cooley-Tukey stages whose butterflies stay inside
// such a block (stages 0 .. bits - 1) run without a trip through device
// memory. The kernel supplies bit_reverse, twiddle(j) (w^j, or w^-j for an
// inverse, in the working form) and scale_factor(k); it puts a
// workgroupBarrier after block_load and after each block_stage.

// The part of both kernels' parameters (their `field`) that a field layer
// may read at run time rather than have rendered in: for prime64.wgsl p,
// -p^-1 mod 2^64 and 2^128 mod p, each (low word, high word); zeros for
// the other layers.
struct FieldParams {
    p: vec2<u32>,
    p_inv: vec2<u32>,
    r2: vec2<u32>,
    pad: vec2<u32>,
}

// Loads places at0 .. at0 + 2^bits - 1 of the polynomial of 2^log_n
// elements whose input starts at element `first`: place p holds the
// element of natural index k = bitrev(p), read from input position k (p
// when the input is bit-reversed), taken into the working form and, for
// a forward transform on a coset (flag 8), scaled by scale_factor(k).
// False when an element this thread read was not below the modulus.
fn block_load(first: u32, log_n: u32, at0: u32, bits: u32, flags: u32, lane: u32) -> bool {
    var ok = true;
    for (var q = lane; q < (1u << bits); q += WORKGROUP_SIZE) {
        let p = at0 + q;
        let k = bit_reverse(p, log_n);
        let raw = read_input(first + select(k, p, (flags & 2u) != 0u));
        var x = to_work(raw);
        ok = ok && canonical(raw);
        if (flags & 8u) != 0u {
            x = f_mul(x, scale_factor(k));
        }
        write_block(q, x);
    }
    return ok;
}

// Stage s (< bits) of the transform of 2^log_n elements on the block of
// 2^bits: the block's own butterflies of that stage, each thread taking
// every WORKGROUP_SIZE-th.
fn block_stage(log_n: u32, s: u32, bits: u32, lane: u32) {
    let half = 1u << s;
    for (var t = lane; t < (1u << (bits - 1u)); t += WORKGROUP_SIZE) {
        let j = t & (half - 1u);
        let i0 = ((t >> s) << (s + 1u)) + j;
        let a = read_block(i0);
        let c = f_mul(read_block(i0 + half), twiddle(j << (log_n - 1u - s)));
        write_block(i0, f_add(a, c));
        write_block(i0 + half, f_sub(a, c));
    }
}
