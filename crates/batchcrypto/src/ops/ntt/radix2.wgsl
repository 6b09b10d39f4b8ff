// Radix-2 NTT, one workgroup per polynomial, over the field of the layer
// composed before this file (ops/ntt/field64.wgsl: Goldilocks;
// ops/ntt/field256.wgsl: the 256-bit scalar fields) and the block
// functions (ops/ntt/block.wgsl). The polynomial is taken a block at a
// time (2^BLOCK_BITS elements of workgroup memory, or all of it when it
// fits: up to 2^9 elements of a 256-bit field, 2^11 of Goldilocks):
// scattered into the block in bit-reversed order (checked below the
// modulus, taken into the layer's working form, scaled by the coset's
// powers for a forward transform on a coset), its first stages run there
// with a barrier between stages. A polynomial that fits is then finished
// from the block: an inverse transform scaled by n^-1 g^-i, out of the
// working form, each element written to its place in the output order. A
// larger one is written to the output block by block, its later stages
// run in place there (each thread taking every WORKGROUP_SIZE-th
// butterfly, storage barriers between stages), then the scaling and the
// working form's exit, and a bit-reversed output is a final swap of index
// pairs. The host supplies the twiddles w^j (or w^-j), j < n/2, and the
// scale factors, in the working form.
//
// The field layer gives: alias Elem; ELEM_WORDS (u32 words per element);
// f_add, f_sub, f_mul; read_input / read_out / write_out / read_twiddle /
// read_scale (element i of those buffers); canonical (below the modulus),
// to_work and from_work (in and out of the working form); the block and
// read_block / write_block.
//
// Flags of params: 2 input bit-reversed, 4 output bit-reversed, 8 scale the input,
// 16 scale the output.
// Output: every polynomial's n elements, then a status word per polynomial
// (DONE_FLAG, | 1 when an input element was not below the modulus, or
// LOOPS_CUT_FLAG).

struct Params {
    polys: u32,
    log_n: u32,
    flags: u32,
    loop_guard: u32,
    field: FieldParams,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> twiddles: array<u32>;
@group(0) @binding(3) var<storage, read> scale: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

fn bit_reverse(i: u32, bits: u32) -> u32 {
    return reverseBits(i) >> (32u - bits);
}

// The whole tables (block.wgsl's names).
fn twiddle(j: u32) -> Elem {
    return read_twiddle(j);
}

fn scale_factor(k: u32) -> Elem {
    return read_scale(k);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt_main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Uniform per workgroup, so the barriers below stay in uniform control flow.
    let poly = wid.y * groups.x + wid.x;
    if poly >= params.polys {
        return;
    }
    let log_n = params.log_n;
    let flags = params.flags;
    let n = 1u << log_n;
    let base = poly * n;
    // 1 when an element this thread read was not below the modulus.
    var bad = 0u;
    // The polynomial a block at a time (all of it in one when it fits):
    // scattered into the bit-reversed layout, its first stages in
    // workgroup memory.
    let bits = min(log_n, BLOCK_BITS);
    let size = 1u << bits;
    for (var at0 = 0u; at0 < n; at0 += size) {
        workgroupBarrier();
        if !block_load(base, log_n, at0, bits, flags, lane) {
            bad = 1u;
        }
        workgroupBarrier();
        for (var s = 0u; s < bits; s++) {
            block_stage(log_n, s, bits, lane);
            workgroupBarrier();
        }
        if bits == log_n {
            // The whole transform: scaled, out of the working form, each
            // element written to its place in the output order.
            for (var k = lane; k < n; k += WORKGROUP_SIZE) {
                let at = select(k, bit_reverse(k, log_n), (flags & 4u) != 0u);
                var x = read_block(at);
                if (flags & 16u) != 0u {
                    x = f_mul(x, read_scale(at));
                }
                write_out(base + k, from_work(x));
            }
        } else {
            for (var q = lane; q < size; q += WORKGROUP_SIZE) {
                write_out(base + at0 + q, read_block(q));
            }
        }
    }
    if bits < log_n {
        // The later stages in place in the output, as before the finish.
        storageBarrier();
        workgroupBarrier();
        for (var s = bits; s < log_n; s++) {
            let half = 1u << s;
            for (var t = lane; t < n / 2u; t += WORKGROUP_SIZE) {
                let j = t & (half - 1u);
                let i0 = base + ((t >> s) << (s + 1u)) + j;
                let i1 = i0 + half;
                let a = read_out(i0);
                let b = f_mul(read_out(i1), read_twiddle(j << (log_n - 1u - s)));
                write_out(i0, f_add(a, b));
                write_out(i1, f_sub(a, b));
            }
            storageBarrier();
            workgroupBarrier();
        }
        for (var k = lane; k < n; k += WORKGROUP_SIZE) {
            var x = read_out(base + k);
            if (flags & 16u) != 0u {
                x = f_mul(x, read_scale(k));
            }
            write_out(base + k, from_work(x));
        }
        storageBarrier();
        workgroupBarrier();
        if (flags & 4u) != 0u {
            for (var k = lane; k < n; k += WORKGROUP_SIZE) {
                let r = bit_reverse(k, log_n);
                if k < r {
                    let a = read_out(base + k);
                    write_out(base + k, read_out(base + r));
                    write_out(base + r, a);
                }
            }
        }
    }
    // The threads' flags meet in the block, its last use (the block takes
    // all of the workgroup memory WebGPU promises: none is left for
    // atomics), each thread's word 1 (bad) | 2 (its loops cut short).
    workgroupBarrier();
    block[lane] = bad | select(2u, 0u, loops_intact(params.loop_guard));
    storageBarrier();
    workgroupBarrier();
    if lane == 0u {
        var flags = 0u;
        for (var k = 0u; k < WORKGROUP_SIZE; k++) {
            flags |= block[k];
        }
        var status = DONE_FLAG | (flags & 1u);
        // (The guard again: this thread's last loop runs after its first check.)
        if (flags & 2u) != 0u || !loops_intact(params.loop_guard) {
            status = LOOPS_CUT_FLAG;
        }
        out[ELEM_WORDS * params.polys * n + poly] = status;
    }
}
