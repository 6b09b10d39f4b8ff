// Key aggregation on the device (issue 15): one thread per
// fast-aggregate item sums its public keys (already decompressed and
// checked by bls_points) with the complete formulas, as blst's
// AggregatePublicKey::aggregate does, and returns the sum in affine
// coordinates, or that it is the point at infinity (keys that cancel, which
// blst's verification then refuses). The host caps the keys per item below
// the loop guard (ops/bls/gpu/signatures.rs). Composed after the guard and
// the curve layer.

struct SumParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: SumParams;
// Per item: the first and one past the last of its keys.
@group(0) @binding(1) var<storage, read> sum_ranges: array<u32>;
// Per key: x, y (twelve little-endian words each, canonical).
@group(0) @binding(2) var<storage, read> sum_keys: array<u32>;
// Per item: whether the sum is finite, x, y (canonical), the completion
// flag.
@group(0) @binding(3) var<storage, read_write> sum_out: array<u32>;

fn sum_fp(base: u32) -> Fp {
    var v: Fp;
    for (var j = 0u; j < 12u; j++) {
        v[j] = sum_keys[base + j];
    }
    return fp_to_mont(v);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_key_sum(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    var acc = g1_infinity();
    for (var k = sum_ranges[2u * i]; k < sum_ranges[2u * i + 1u]; k++) {
        acc = g1_add(acc, G1Proj(sum_fp(24u * k), sum_fp(24u * k + 12u), fp_one()));
    }
    let zi = fp_inv(acc.z);
    let c = array<Fp, 2>(acc.x, acc.y);
    let out = i * SUM_OUT;
    sum_out[out] = select(1u, 0u, g1_is_infinity(acc));
    for (var k = 0u; k < 2u; k++) {
        let canonical = fp_from_mont(fp_mul(c[k], zi));
        for (var j = 0u; j < 12u; j++) {
            sum_out[out + 1u + 12u * k + j] = canonical[j];
        }
    }
    sum_out[out + SUM_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
