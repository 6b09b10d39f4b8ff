// What the MSM's planning passes (plan.wgsl) and sum passes
// (pippenger.wgsl) share: their parameters and the plan's table. Rendered
// after the host's TABLE_HEAD and CHUNK_TERMS (gpu/shaders.rs).
//
// The table (binding 6 while the device plans, binding 4 for the sum
// passes; made by the host for many small sums): word 0 the chunks in all,
// then from TABLE_HEAD one entry per bucket (window-major; each window of
// each sum params.buckets of them, bucket b holding the terms whose digit
// has magnitude b + 1): where the bucket's terms end in msm_terms (they
// start where the previous bucket's end); then one more per bucket and one
// past the last: where its chunks start, a bucket of k terms cut into chunks
// of msm_chunk_terms(k) terms from its start.

struct MsmParams {
    // The terms of the sum the device plans.
    terms: u32,
    segments: u32,
    // Segments per window, and buckets per segment and per window.
    per_window: u32,
    seg_buckets: u32,
    buckets: u32,
    // Where the chunk sums start in msm_out, in words.
    sums_at: u32,
    loop_guard: u32,
    windows: u32,
    // c, the bits of a window.
    window_bits: u32,
    // Buckets in all: the table's entries.
    entries: u32,
    // Groups of segments in all (their results are what the host reads),
    // segments per group and groups per window; where the segments'
    // results start in msm_out, in words; log2 of seg_buckets.
    groups: u32,
    group_segments: u32,
    groups_per_window: u32,
    segments_at: u32,
    seg_shift: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: MsmParams;

// Terms per chunk of a bucket of `count` terms (< 2^31): CHUNK_TERMS, or
// for a fuller bucket ceil(sqrt(count)) (the host's `chunk_terms`, in
// integers: the float root corrected to the integer one).
fn msm_chunk_terms(count: u32) -> u32 {
    var r = u32(sqrt(f32(count)));
    // r <= 46341, so (r + 1)^2 stays under 2^32.
    while r * r > count {
        r--;
    }
    while (r + 1u) * (r + 1u) <= count {
        r++;
    }
    if r * r < count {
        r++;
    }
    return max(CHUNK_TERMS, r);
}
