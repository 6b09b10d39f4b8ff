// Radix-2 NTT over a 64-bit field (Goldilocks, gpu/wgsl/goldilocks.wgsl),
// one workgroup per polynomial: the polynomial is scattered into the output
// buffer in bit-reversed order (scaled by the coset's powers for a forward
// transform on a coset), then log n Cooley-Tukey stages run in place, each
// thread taking every WORKGROUP_SIZE-th butterfly, with a barrier between
// stages; an inverse transform scales by n^-1 g^-i; a bit-reversed output is
// a final swap of index pairs. The host supplies the twiddles w^j (or w^-j),
// j < n/2, and the scale factors.
//
// params: x = polynomials, y = log n, z = flags, w = LOOP_GUARD.
// Flags: 2 input bit-reversed, 4 output bit-reversed, 8 scale the input,
// 16 scale the output.
// Output: every polynomial's n elements, then a status word per polynomial
// (DONE_FLAG, | 1 when an input element was not below p, or LOOPS_CUT_FLAG).

@group(0) @binding(0) var<uniform> params: vec4<u32>;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read> twiddles: array<u32>;
@group(0) @binding(3) var<storage, read> scale: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;

var<workgroup> bad: atomic<u32>;
var<workgroup> cut: atomic<u32>;

fn load(src: u32) -> u64 {
    return u64(input[2u * src]) | (u64(input[2u * src + 1u]) << 32u);
}

fn elem(i: u32) -> u64 {
    return u64(out[2u * i]) | (u64(out[2u * i + 1u]) << 32u);
}

fn set_elem(i: u32, x: u64) {
    out[2u * i] = u32(x & 0xfffffffflu);
    out[2u * i + 1u] = u32(x >> 32u);
}

fn table(i: u32) -> u64 {
    return u64(twiddles[2u * i]) | (u64(twiddles[2u * i + 1u]) << 32u);
}

fn factor(i: u32) -> u64 {
    return u64(scale[2u * i]) | (u64(scale[2u * i + 1u]) << 32u);
}

fn bit_reverse(i: u32, bits: u32) -> u32 {
    return reverseBits(i) >> (32u - bits);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn ntt64_main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // Uniform per workgroup, so the barriers below stay in uniform control flow.
    let poly = wid.y * groups.x + wid.x;
    if poly >= params.x {
        return;
    }
    let log_n = params.y;
    let flags = params.z;
    let n = 1u << log_n;
    let base = poly * n;
    if lane == 0u {
        atomicStore(&bad, 0u);
        atomicStore(&cut, 0u);
    }
    workgroupBarrier();
    // Scatter: natural index k of input position i; DIT wants k at bitrev(k).
    for (var i = lane; i < n; i += WORKGROUP_SIZE) {
        var x = load(base + i);
        if x >= GL_P {
            atomicOr(&bad, 1u);
            x = 0lu;
        }
        var k = i;
        if (flags & 2u) != 0u {
            k = bit_reverse(i, log_n);
        }
        if (flags & 8u) != 0u {
            x = gl_mul(x, factor(k));
        }
        set_elem(base + bit_reverse(k, log_n), x);
    }
    storageBarrier();
    workgroupBarrier();
    for (var s = 0u; s < log_n; s++) {
        let half = 1u << s;
        for (var t = lane; t < n / 2u; t += WORKGROUP_SIZE) {
            let j = t & (half - 1u);
            let i0 = base + ((t >> s) << (s + 1u)) + j;
            let i1 = i0 + half;
            let w = table(j << (log_n - 1u - s));
            let a = elem(i0);
            let b = gl_mul(elem(i1), w);
            set_elem(i0, gl_add(a, b));
            set_elem(i1, gl_sub(a, b));
        }
        storageBarrier();
        workgroupBarrier();
    }
    if (flags & 16u) != 0u {
        for (var k = lane; k < n; k += WORKGROUP_SIZE) {
            set_elem(base + k, gl_mul(elem(base + k), factor(k)));
        }
        storageBarrier();
        workgroupBarrier();
    }
    if (flags & 4u) != 0u {
        for (var k = lane; k < n; k += WORKGROUP_SIZE) {
            let r = bit_reverse(k, log_n);
            if k < r {
                let a = elem(base + k);
                set_elem(base + k, elem(base + r));
                set_elem(base + r, a);
            }
        }
    }
    if !loops_intact(params.w) {
        atomicOr(&cut, 1u);
    }
    storageBarrier();
    workgroupBarrier();
    if lane == 0u {
        var status = DONE_FLAG | atomicLoad(&bad);
        if atomicLoad(&cut) != 0u {
            status = LOOPS_CUT_FLAG;
        }
        out[2u * params.x * n + poly] = status;
    }
}
