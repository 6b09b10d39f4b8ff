// Radix-2 NTT of large polynomials, one dispatch per stage, over the field
// of the layer composed before this file (as radix2.wgsl, whose one
// workgroup per polynomial would leave a large transform to a single
// workgroup: here every butterfly of a stage is a thread of its own, and
// a polynomial of any size up to 2^24 fills the device).
//
// ntt_scatter (a thread per element): the element is checked below the
// modulus, taken into the working form, scaled by the coset's power for a
// forward transform on a coset, and written to its bit-reversed place.
// ntt_stage (a thread per butterfly), once per stage s = 0 .. log n - 1:
// Cooley-Tukey in place. ntt_finish (a thread per element, or per pair of
// bit-reversed places): the inverse's n^-1 g^-i, out of the working form,
// and a bit-reversed output swapped into place.
//
// The tables are two-level to stay small at 2^24: the twiddle w^j is
// twiddles[hi + (j >> lo_bits)] * twiddles[j & (2^lo_bits - 1)], the scale
// factor c x^i likewise from `scale` (the host folds c into the high part).
//
// Every pass proves it ran: the scatter sets a per-polynomial progress
// word to 1, stage s's butterfly 0 moves it from s + 1 to s + 2, and the
// finish writes the status word (DONE_FLAG, | 1 when an input element was
// not below the modulus) only when it reads log n + 1; the output buffer
// is cleared before every run, so a pass that did not run leaves no
// status. Output: every polynomial, a status word per polynomial, then
// the progress words (scratch, not read back).

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
    pad0: u32,
    pad1: u32,
    pad2: u32,
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
fn ntt_scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.polys << params.log_n {
        return;
    }
    let poly = i >> params.log_n;
    let at = i & ((1u << params.log_n) - 1u);
    let raw = read_input(i);
    var x = to_work(raw);
    if !canonical(raw) {
        // Every writer writes the same value.
        out[status_at(poly)] = 1u;
    }
    var k = at;
    if (params.flags & 2u) != 0u {
        k = bit_reverse(at, params.log_n);
    }
    if (params.flags & 8u) != 0u {
        x = f_mul(x, scale_factor(k));
    }
    write_out((poly << params.log_n) + bit_reverse(k, params.log_n), x);
    if at == 0u {
        out[progress_at(poly)] = 1u;
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt_stage(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let log_half = params.log_n - 1u;
    if t >= params.polys << log_half {
        return;
    }
    let poly = t >> log_half;
    let b = t & ((1u << log_half) - 1u);
    let s = params.stage;
    let half = 1u << s;
    let j = b & (half - 1u);
    let i0 = (poly << params.log_n) + ((b >> s) << (s + 1u)) + j;
    let i1 = i0 + half;
    let a = read_out(i0);
    let c = f_mul(read_out(i1), twiddle(j << (log_half - s)));
    write_out(i0, f_add(a, c));
    write_out(i1, f_sub(a, c));
    if b == 0u && out[progress_at(poly)] == s + 1u {
        out[progress_at(poly)] = s + 2u;
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
