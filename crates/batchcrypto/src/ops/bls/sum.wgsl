// Sums of scaled points on the device (issue 15), rendered once per group
// by gpu/shaders.rs (GPoint, grp_, Field and field_ become G1Proj, g1_, Fp,
// fp_ or G2Proj, g2_, Fp2, fp2_; FIELD_WORDS 12 or 24): one thread per
// range of points returns sum [s_k] P_k in affine coordinates, or that it
// is the point at infinity. Batch verification scales keys (G1) and
// signatures (G2) by its random 64-bit scalars in ranges of one and then
// sums them with s = 1, which costs no doubling; fast aggregation sums
// keys as blst's AggregatePublicKey::aggregate does (keys that cancel give
// infinity, which blst's verification refuses). Points come decompressed
// and checked (the points programs). The host caps the points per range below the
// loop guard (ops/bls/gpu/signatures.rs). Composed after the guard and the
// curve layer.

struct SumParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: SumParams;
// Per thread: the first and one past the last of its points.
@group(0) @binding(1) var<storage, read> sum_ranges: array<u32>;
// Per point: x, y (canonical; F_p2 coordinates c0 then c1, twelve
// little-endian words each), then the scalar's low and high words.
@group(0) @binding(2) var<storage, read> sum_points: array<u32>;
// Per thread: whether the sum is finite, x, y (canonical), the completion
// flag.
@group(0) @binding(3) var<storage, read_write> sum_out: array<u32>;

fn sum_coordinate(base: u32) -> Field {
    var c: array<Fp, 2>;
    for (var d = 0u; d < FIELD_WORDS / 12u; d++) {
        var v: Fp;
        for (var j = 0u; j < 12u; j++) {
            v[j] = sum_points[base + 12u * d + j];
        }
        c[d] = fp_to_mont(v);
    }
    return field_from_parts(c);
}

fn sum_store(base: u32, a: Field) {
    let c = field_parts(a);
    for (var d = 0u; d < FIELD_WORDS / 12u; d++) {
        let canonical = fp_from_mont(c[d]);
        for (var j = 0u; j < 12u; j++) {
            sum_out[base + 12u * d + j] = canonical[j];
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_sum(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let stride = 2u * FIELD_WORDS + 2u;
    var acc = grp_infinity();
    for (var k = sum_ranges[2u * i]; k < sum_ranges[2u * i + 1u]; k++) {
        let base = stride * k;
        let p = GPoint(sum_coordinate(base), sum_coordinate(base + FIELD_WORDS), field_one());
        acc = grp_add(acc, grp_mul_u64(p, sum_points[base + stride - 2u], sum_points[base + stride - 1u]));
    }
    let zi = field_inv(acc.z);
    let out = i * stride;
    sum_out[out] = select(1u, 0u, grp_is_infinity(acc));
    sum_store(out + 1u, field_mul(acc.x, zi));
    sum_store(out + 1u + FIELD_WORDS, field_mul(acc.y, zi));
    sum_out[out + stride - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
