// Radix-2 NTT of large polynomials, a few dispatches per transform, over
// the field of the layer composed before this file (as radix2.wgsl, whose
// one workgroup per polynomial would leave a large transform to a single
// workgroup: here a polynomial of any size up to 2^24 fills the device).
//
// ntt_block (a workgroup per block of 2^block_bits consecutive places of
// the bit-reversed layout, as many elements as BLOCK_WORDS words of
// workgroup memory hold: 512 of the 256-bit fields, 2,048 of Goldilocks):
// each element is read from its input place, checked below the modulus,
// taken into the working form and scaled by the coset's power for a
// forward transform on a coset, then stages 0 .. block_bits - 1, whose
// butterflies stay inside a block, run in workgroup memory between
// barriers, and the block is written out once. ntt_stage, for the later
// stages s = block_bits .. log n - 1 two at a time (a thread per four
// elements, radix 4) and one alone when their number is odd (a thread per
// butterfly): Cooley-Tukey in place in the output. ntt_finish (a thread
// per element, or per pair of bit-reversed places): the inverse's n^-1
// g^-i, out of the working form, and a bit-reversed output swapped into
// place. So the elements make (log n - block_bits) / 2 + 2 trips (rounded
// up) through device memory, not log n + 2.
//
// The tables are two-level to stay small at 2^24: the twiddle w^j is
// twiddles[hi + (j >> lo_bits)] * twiddles[j & (2^lo_bits - 1)], the scale
// factor c x^i likewise from `scale` (the host folds c into the high part).
//
// Every pass proves it ran: the block pass sets a per-polynomial progress
// word to block_bits + 1, a stage pass moves it from s + 1 to s + 1 plus
// its stages (its thread 0 does), and the finish writes the status word
// (DONE_FLAG, | 1 when an input element was not below the modulus) only
// when it reads log n + 1; the output buffer is cleared before every run,
// so a pass that did not run leaves no status. Output: every polynomial,
// a status word per polynomial, then the progress words (scratch, not
// read back).

struct PassParams {
    polys: u32,
    log_n: u32,
    // As radix2.wgsl: 2 input bit-reversed, 4 output bit-reversed, 8
    // scale the input, 16 scale the output.
    flags: u32,
    stage: u32,
    twiddle_lo_bits: u32,
    twiddle_hi: u32,
    scale_lo_bits: u32,
    scale_hi: u32,
    loop_guard: u32,
    // log2 of ntt_block's block (at most log n).
    block_bits: u32,
    // ntt_stage's stages: 1 (stage) or 2 (stage and stage + 1).
    stages: u32,
    pad2: u32,
    field: FieldParams,
}

@group(0) @binding(0) var<uniform> params: PassParams;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> twiddles: array<u32>;
@group(0) @binding(3) var<storage, read> scale: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

fn bit_reverse(i: u32, bits: u32) -> u32 {
    return reverseBits(i) >> (32u - bits);
}

fn twiddle(j: u32) -> Elem {
    let lo = read_twiddle(j & ((1u << params.twiddle_lo_bits) - 1u));
    return f_mul(read_twiddle(params.twiddle_hi + (j >> params.twiddle_lo_bits)), lo);
}

fn scale_factor(i: u32) -> Elem {
    let lo = read_scale(i & ((1u << params.scale_lo_bits) - 1u));
    return f_mul(read_scale(params.scale_hi + (i >> params.scale_lo_bits)), lo);
}

fn status_at(poly: u32) -> u32 {
    return ELEM_WORDS * (params.polys << params.log_n) + poly;
}

fn progress_at(poly: u32) -> u32 {
    return status_at(params.polys) + poly;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt_block(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Uniform per workgroup, so the barriers below stay in uniform control flow.
    let blocks_bits = params.log_n - params.block_bits;
    let b = wid.y * groups.x + wid.x;
    if b >= params.polys << blocks_bits {
        return;
    }
    let size = 1u << params.block_bits;
    let poly = b >> blocks_bits;
    // The block's first place in the output and in its polynomial.
    let first = b << params.block_bits;
    let at0 = first & ((1u << params.log_n) - 1u);
    if !block_load(poly << params.log_n, params.log_n, at0, params.block_bits, params.flags, lane) {
        // Every writer writes the same value.
        out[status_at(poly)] = 1u;
    }
    workgroupBarrier();
    // Stages 0 .. block_bits - 1: ntt_stage's butterflies, the block's own.
    for (var s = 0u; s < params.block_bits; s++) {
        block_stage(params.log_n, s, params.block_bits, lane);
        workgroupBarrier();
    }
    for (var q = lane; q < size; q += WORKGROUP_SIZE) {
        write_out(first + q, read_block(q));
    }
    // Every invocation runs the same loops (the block and its halves are
    // multiples of WORKGROUP_SIZE), so a loop limit would cut this one's.
    if at0 == 0u && lane == 0u && loops_intact(params.loop_guard) {
        out[progress_at(poly)] = params.block_bits + 1u;
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt_stage(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    // A thread per 2^stages elements i0 + {0, h, .., (2^stages - 1) h},
    // i0 = j + a multiple of 2^stages h, j < h.
    let t = item_index(gid, groups);
    let s = params.stage;
    let log_half = params.log_n - 1u;
    let log_threads = params.log_n - params.stages;
    if t >= params.polys << log_threads {
        return;
    }
    let poly = t >> log_threads;
    let b = t & ((1u << log_threads) - 1u);
    let h = 1u << s;
    let j = b & (h - 1u);
    let i0 = (poly << params.log_n) + ((b >> s) << (s + params.stages)) + j;
    let w = twiddle(j << (log_half - s));
    if params.stages == 1u {
        // Stage s: the butterfly (0, h).
        let a = read_out(i0);
        let c = f_mul(read_out(i0 + h), w);
        write_out(i0, f_add(a, c));
        write_out(i0 + h, f_sub(a, c));
    } else {
        // Stages s and s + 1 (radix 4): stage s's butterflies (0, h) and
        // (2h, 3h), both of twiddle index j, then stage s + 1's (0, 2h)
        // and (h, 3h), of twiddle indices j and j + h.
        let x0 = read_out(i0);
        let x1 = f_mul(read_out(i0 + h), w);
        let x2 = read_out(i0 + 2u * h);
        let x3 = f_mul(read_out(i0 + 3u * h), w);
        let a0 = f_add(x0, x1);
        let a1 = f_sub(x0, x1);
        let c2 = f_mul(f_add(x2, x3), twiddle(j << (log_half - s - 1u)));
        let c3 = f_mul(f_sub(x2, x3), twiddle((j + h) << (log_half - s - 1u)));
        write_out(i0, f_add(a0, c2));
        write_out(i0 + h, f_add(a1, c3));
        write_out(i0 + 2u * h, f_sub(a0, c2));
        write_out(i0 + 3u * h, f_sub(a1, c3));
    }
    if b == 0u && out[progress_at(poly)] == s + 1u {
        out[progress_at(poly)] = s + 1u + params.stages;
    }
}

fn finished(k: u32, x: Elem) -> Elem {
    if (params.flags & 16u) != 0u {
        return from_work(f_mul(x, scale_factor(k)));
    }
    return from_work(x);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt_finish(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.polys << params.log_n {
        return;
    }
    let poly = i >> params.log_n;
    let k = i & ((1u << params.log_n) - 1u);
    let base = poly << params.log_n;
    if (params.flags & 4u) == 0u {
        write_out(i, finished(k, read_out(i)));
    } else {
        // The pair (k, r) is this thread's when k <= r.
        let r = bit_reverse(k, params.log_n);
        if k <= r {
            let xk = finished(k, read_out(base + k));
            let xr = finished(r, read_out(base + r));
            write_out(base + k, xr);
            write_out(base + r, xk);
        }
    }
    if k == 0u {
        var status = LOOPS_CUT_FLAG;
        if loops_intact(params.loop_guard) {
            // Unset (0) when a pass did not run: no completion flag.
            status = select(0u, DONE_FLAG | out[status_at(poly)], out[progress_at(poly)] == params.log_n + 1u);
        }
        out[status_at(poly)] = status;
    }
}
