// Pippenger's bucket method on the device (issue 18), rendered once per
// group by gpu/shaders.rs `msm` (GPoint, grp_, Field, field_, Limb and
// FIELD_WORDS become the group's: BnProj, bn_, Fq, fq_, U256, 8 for BN254's
// G1 over gpu/wgsl/bn254_g1.wgsl; G1Proj or G2Proj over BLS12-381's curve
// layer with Fp limbs, 12 or 24 words).
//
// The plan (made by plan.wgsl for a sum alone, by the host, ops/msm/gpu.rs,
// for many small sums) cuts every scalar into signed digits of c bits,
// sorts the terms by window and bucket (the digit's magnitude, its sign in
// the term's low bit) and cuts each bucket's run of terms into chunks: the
// table of params.wgsl. Pass `msm_chunks`, a thread per chunk (its bucket
// found by bisecting the table): the chunk's sum (by mixed additions: 11
// multiplications a term instead of 12). Pass `msm_segments`, a thread per
// segment (a run of a window's buckets): by a running sum from the top
// bucket down, S = sum_b B_b and T = sum_b (b - first + 1) B_b, each bucket
// B_b the sum of its chunks. Pass `msm_groups`, a thread per group of
// segments: the same two sums over the group's buckets from its segments'
// (T' = sum_s T_s + G sum_s (s - first) S_s, G = 2^seg_shift buckets per
// segment, by a running sum from the top segment down; S' = sum_s S_s).
// The host weighs the groups and windows: a few hundred additions per
// window. Points arrive in affine coordinates in Montgomery form
// (arkworks' and blst's own limbs); the results leave projective, in
// Montgomery form. Composed after the guard, the group's layer and
// params.wgsl.

const POINT_WORDS: u32 = 3u * FIELD_WORDS;
// A chunk sum and its completion flag.
const CHUNK_STRIDE: u32 = POINT_WORDS + 1u;
// A segment's (or group's) T and S and its completion flag.
const SEGMENT_STRIDE: u32 = 2u * POINT_WORDS + 1u;
const PARTS: u32 = FIELD_WORDS / LIMB_WORDS;

// Per point: x then y, FIELD_WORDS words each.
@group(0) @binding(1) var<storage, read> msm_points: array<u32>;
// The terms in (window, bucket) order: point index << 1 | negated.
@group(0) @binding(2) var<storage, read> msm_terms: array<u32>;
// The plan's table (params.wgsl).
@group(0) @binding(4) var<storage, read> msm_table: array<u32>;
// The groups' results (read back), then the segments' and the chunk sums
// (scratch).
@group(0) @binding(5) var<storage, read_write> msm_out: array<u32>;

fn msm_coordinate(base: u32) -> Field {
    var c: array<Limb, 2>;
    for (var d = 0u; d < PARTS; d++) {
        for (var j = 0u; j < LIMB_WORDS; j++) {
            c[d][j] = msm_points[base + LIMB_WORDS * d + j];
        }
    }
    return field_from_parts(c);
}

// The term's point, negated when its digit was.
fn msm_term(term: u32) -> GPoint {
    let base = (term >> 1u) * 2u * FIELD_WORDS;
    var y = msm_coordinate(base + FIELD_WORDS);
    if (term & 1u) == 1u {
        y = field_neg(y);
    }
    return GPoint(msm_coordinate(base), y, field_one());
}

fn msm_store_field(at: u32, a: Field) {
    let c = field_parts(a);
    for (var d = 0u; d < PARTS; d++) {
        for (var j = 0u; j < LIMB_WORDS; j++) {
            msm_out[at + LIMB_WORDS * d + j] = c[d][j];
        }
    }
}

fn msm_store(at: u32, p: GPoint) {
    msm_store_field(at, p.x);
    msm_store_field(at + FIELD_WORDS, p.y);
    msm_store_field(at + 2u * FIELD_WORDS, p.z);
}

fn msm_load_field(at: u32) -> Field {
    var c: array<Limb, 2>;
    for (var d = 0u; d < PARTS; d++) {
        for (var j = 0u; j < LIMB_WORDS; j++) {
            c[d][j] = msm_out[at + LIMB_WORDS * d + j];
        }
    }
    return field_from_parts(c);
}

fn msm_load(at: u32) -> GPoint {
    return GPoint(msm_load_field(at), msm_load_field(at + FIELD_WORDS), msm_load_field(at + 2u * FIELD_WORDS));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_chunks_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let k = item_index(gid, groups);
    if k >= msm_table[0] {
        return;
    }
    tower_init(params.loop_guard);
    // The chunk's bucket: the last whose chunks start at k or before.
    let chunks_at = TABLE_HEAD + params.entries;
    var low = 0u;
    var high = params.entries;
    while high - low > 1u {
        let mid = (low + high) / 2u;
        if msm_table[chunks_at + mid] <= k {
            low = mid;
        } else {
            high = mid;
        }
    }
    // The bucket's terms start where the previous bucket's end (word 3 of
    // the header, read for the first bucket, is not used).
    let end = msm_table[TABLE_HEAD + low];
    let start = select(0u, msm_table[TABLE_HEAD + low - 1u], low > 0u);
    let per = msm_chunk_terms(end - start);
    let first = start + (k - msm_table[chunks_at + low]) * per;
    let last = min(first + per, end);
    var acc = grp_infinity();
    for (var t = first; t < last; t++) {
        // Terms are affine and never the identity (the host leaves those out).
        acc = grp_add_affine(acc, msm_term(msm_terms[t]));
    }
    let at = params.sums_at + k * CHUNK_STRIDE;
    msm_store(at, acc);
    msm_out[at + POINT_WORDS] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_segments_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let s = item_index(gid, groups);
    if s >= params.segments {
        return;
    }
    tower_init(params.loop_guard);
    let window = s / params.per_window;
    let chunks_at = TABLE_HEAD + params.entries;
    let first = (s % params.per_window) * params.seg_buckets;
    let last = min(first + params.seg_buckets, params.buckets);
    var running = grp_infinity();
    var weighted = grp_infinity();
    // Every chunk read was complete (a missing or cut one reads as not).
    var chunks_done = true;
    for (var b = last; b > first; b--) {
        let bucket = window * params.buckets + b - 1u;
        for (var k = msm_table[chunks_at + bucket]; k < msm_table[chunks_at + bucket + 1u]; k++) {
            let at = params.sums_at + k * CHUNK_STRIDE;
            running = grp_add(running, msm_load(at));
            chunks_done = chunks_done && msm_out[at + POINT_WORDS] == DONE_FLAG;
        }
        weighted = grp_add(weighted, running);
    }
    let at = params.segments_at + s * SEGMENT_STRIDE;
    msm_store(at, weighted);
    msm_store(at + POINT_WORDS, running);
    msm_out[at + 2u * POINT_WORDS] = select(LOOPS_CUT_FLAG, DONE_FLAG, chunks_done && loops_intact(params.loop_guard));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_groups_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let g = item_index(gid, groups);
    if g >= params.groups {
        return;
    }
    tower_init(params.loop_guard);
    let first = (g / params.groups_per_window) * params.per_window + (g % params.groups_per_window) * params.group_segments;
    var weighted = grp_infinity();
    var running = grp_infinity();
    var ramp = grp_infinity();
    var segments_done = true;
    // Every addition of the group at one call site, since llvmpipe inlines
    // each call (with a site each, G2's pipeline took 23 s to create and
    // about 2 minutes to compile on the 2-core VM): per segment, from the
    // last, three steps (weighted, running, and the ramp, where segment
    // first + k - 1 weighs k - 1), then the ramp's seg_shift doublings (the
    // formulas are complete: P + P is 2P), then weighted + ramp. The bound
    // is read at run time, so that the compiler keeps the loop.
    let segment_steps = 3u * params.group_segments;
    let steps = segment_steps + params.seg_shift + 1u;
    for (var s = 0u; s < steps * (params.loop_guard / LOOP_GUARD); s++) {
        // Which sum the step adds to (0 weighted, 1 running, 2 the ramp)
        // and its operands: by default a doubling of the ramp.
        var into = 2u;
        var x = ramp;
        var y = ramp;
        if s < segment_steps {
            let k = params.group_segments - s / 3u;
            let at = params.segments_at + (first + k - 1u) * SEGMENT_STRIDE;
            into = s % 3u;
            if into == 0u {
                x = weighted;
                y = msm_load(at);
                segments_done = segments_done && msm_out[at + 2u * POINT_WORDS] == DONE_FLAG;
            } else if into == 1u {
                x = running;
                y = msm_load(at + POINT_WORDS);
            } else if k == 1u {
                continue;
            } else {
                y = running;
            }
        } else if s + 1u == steps {
            into = 0u;
            x = weighted;
        }
        let z = grp_add(x, y);
        if into == 0u {
            weighted = z;
        } else if into == 1u {
            running = z;
        } else {
            ramp = z;
        }
    }
    let at = g * SEGMENT_STRIDE;
    msm_store(at, weighted);
    msm_store(at + POINT_WORDS, running);
    msm_out[at + 2u * POINT_WORDS] = select(LOOPS_CUT_FLAG, DONE_FLAG, segments_done && loops_intact(params.loop_guard));
}
