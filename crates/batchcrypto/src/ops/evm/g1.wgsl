// EIP-196's ECADD and ECMUL on the device (issue 18): a thread per call,
// over BN254's G1 layer (gpu/wgsl/bn254_g1.wgsl, the complete a = 0
// formulas, so infinity, P = Q and P = -Q need no special case). The host
// (ops/evm/gpu.rs) has decoded and checked every call's points and kept
// the calls that fail for itself; here P + Q, or [s] P by double and add
// over all 256 bits of s from the top (s any 256-bit value: on a group of
// prime order, [s] P = [s mod r] P). Composed after the guard and the
// layer.

struct G1Params {
    n: u32,
    // 0: ECADD, 1: ECMUL.
    mul: u32,
    loop_guard: u32,
    pad: u32,
}

// Per call: flags (1: P is infinity, 2: Q is infinity, 4: a failed call,
// skipped), then P's x and y, then Q's x and y (ECADD) or s's eight
// little-endian words (ECMUL); coordinates in Montgomery form.
const G1_IN_WORDS: u32 = 33u;
// Per call: X, Y, Z (Montgomery form), then the completion flag.
const G1_OUT_WORDS: u32 = 25u;

@group(0) @binding(0) var<uniform> params: G1Params;
@group(0) @binding(1) var<storage, read> g1_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> g1_out: array<u32>;

fn g1_word8(at: u32) -> U256 {
    return U256(g1_in[at], g1_in[at + 1u], g1_in[at + 2u], g1_in[at + 3u], g1_in[at + 4u], g1_in[at + 5u],
        g1_in[at + 6u], g1_in[at + 7u]);
}

fn g1_affine(at: u32, infinity: bool) -> BnProj {
    if infinity {
        return bn_infinity();
    }
    return BnProj(g1_word8(at), g1_word8(at + 8u), fq_one());
}

fn g1_store(at: u32, a: U256) {
    for (var j = 0u; j < 8u; j++) {
        g1_out[at + j] = a[j];
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn g1_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let base = i * G1_IN_WORDS;
    let flags = g1_in[base];
    let out = i * G1_OUT_WORDS;
    if (flags & 4u) != 0u {
        g1_out[out + G1_OUT_WORDS - 1u] = DONE_FLAG;
        return;
    }
    let p = g1_affine(base + 1u, (flags & 1u) != 0u);
    var r: BnProj;
    if params.mul == 0u {
        r = bn_add(p, g1_affine(base + 17u, (flags & 2u) != 0u));
    } else {
        var s = g1_word8(base + 17u);
        r = bn_infinity();
        for (var k = 0u; k < 256u; k++) {
            r = bn_dbl(r);
            if u256_bit(&s, 255u - k) == 1u {
                r = bn_add(r, p);
            }
        }
    }
    g1_store(out, r.x);
    g1_store(out + 8u, r.y);
    g1_store(out + 16u, r.z);
    g1_out[out + G1_OUT_WORDS - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
