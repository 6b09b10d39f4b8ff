// Public keys and signatures on the device (issue 15), one thread per
// compressed point: decompression (the ZCash encoding blst reads: y from
// x^3 + b, its sign from the encoding's sort flag) and the subgroup check
// (Scott's, as blst makes it). The host has read the flags, found the
// points at infinity and checked x < p (ops/bls/gpu/signatures.rs); it
// maps the status to the CPU path's reasons. Composed after the guard and
// the curve layer.

struct PointParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: PointParams;
// Per point: x (G1: twelve little-endian words, then twelve zeros; G2:
// x.c0, then x.c1), canonical, then the flags (POINT_G2, POINT_LARGEST).
@group(0) @binding(1) var<storage, read> points: array<u32>;
// Per point: the status (0, STATUS_NOT_ON_CURVE or STATUS_NOT_IN_SUBGROUP),
// x and y as above, the completion flag.
@group(0) @binding(2) var<storage, read_write> point_out: array<u32>;

fn point_fp(base: u32) -> Fp {
    var v: Fp;
    for (var j = 0u; j < 12u; j++) {
        v[j] = points[base + j];
    }
    return fp_to_mont(v);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_points(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let base = i * POINT_IN;
    let flags = points[base + POINT_IN - 1u];
    let largest = (flags & POINT_LARGEST) != 0u;
    var status = 0u;
    var w: array<Fp, 4>;
    if (flags & POINT_G2) != 0u {
        let q = g2_decompress(Fp2(point_fp(base), point_fp(base + 12u)), largest);
        if !q.ok {
            status = STATUS_NOT_ON_CURVE;
        } else if !g2_in_subgroup(G2Proj(q.x, q.y, fp2_one())) {
            status = STATUS_NOT_IN_SUBGROUP;
        }
        w = array<Fp, 4>(q.x.c0, q.x.c1, q.y.c0, q.y.c1);
    } else {
        let p = g1_decompress(point_fp(base), largest);
        if !p.ok {
            status = STATUS_NOT_ON_CURVE;
        } else if !g1_in_subgroup(G1Proj(p.x, p.y, fp_one())) {
            status = STATUS_NOT_IN_SUBGROUP;
        }
        w = array<Fp, 4>(p.x, fp_zero(), p.y, fp_zero());
    }
    let out = i * POINT_OUT;
    point_out[out] = status;
    for (var k = 0u; k < 4u; k++) {
        let canonical = fp_from_mont(w[k]);
        for (var j = 0u; j < 12u; j++) {
            point_out[out + 1u + 12u * k + j] = canonical[j];
        }
    }
    point_out[out + POINT_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
