// The MSM's bucket plan made on the device (issue 18) for a sum alone,
// which is what the host makes for many small sums (ops/msm/gpu.rs
// `Plan::many`): the same table, so that the sum passes (pippenger.wgsl)
// read either. Rendered by gpu/shaders.rs `msm_plan` after the guard and
// params.wgsl, with the scalar field's modulus SCALAR_R (8 words, least
// significant first) and the host's TILE_RUN.
//
// Passes, a submission:
// 1. `msm_count`, a thread per term: the scalar reduced mod r (written back
//    for pass 5), cut into signed digits of c bits; each non-zero digit
//    adds one to its bucket's count (atomically).
// 2. `msm_tiles`, a workgroup per tile of TILE_RUN * WORKGROUP_SIZE
//    buckets: the tile's terms and chunks (a bucket of k terms is cut into
//    chunks of at most msm_chunk_terms(k) terms, params.wgsl).
// 3. `msm_offsets`, one workgroup: each tile's offsets (exclusive prefix
//    sums of pass 2's totals) and the chunks in all.
// 4. `msm_scan`, a workgroup per tile: each bucket's count replaced by
//    where its terms start, and where its chunks start.
// 5. `msm_place`, a thread per term: each non-zero digit's term placed at
//    its bucket's next place (atomically: the order of a bucket's terms is
//    the device's, which the sum does not see), leaving each bucket's entry
//    at its end.
// Every loop here runs at most a few hundred times (windows, TILE_RUN,
// tiles per thread), far under the loop limit the guard watches for.

@group(0) @binding(2) var<storage, read_write> msm_terms: array<u32>;
// Per term: the scalar's 8 words, least significant first.
@group(0) @binding(3) var<storage, read_write> msm_scalars: array<u32>;
@group(0) @binding(6) var<storage, read_write> msm_table: array<atomic<u32>>;

const TILE_ENTRIES: u32 = TILE_RUN * WORKGROUP_SIZE;

var<workgroup> msm_tile: array<vec2<u32>, WORKGROUP_SIZE>;

// A bucket's terms and chunks.
fn msm_bucket_size(count: u32) -> vec2<u32> {
    let per = msm_chunk_terms(count);
    return vec2<u32>(count, (count + per - 1u) / per);
}

// Window w's signed digit of s, in [-(2^(c-1) - 1), 2^(c-1)], taking
// window w - 1's carry and leaving this one's: the c bits from bit w c
// (zeros past bit 255) plus the carry, less 2^c (carrying one) when above
// 2^(c-1).
fn msm_digit(s: ptr<function, array<u32, 8>>, w: u32, carry: ptr<function, u32>) -> i32 {
    let c = params.window_bits;
    let at = w * c;
    let word = at / 32u;
    let shift = at % 32u;
    var bits = 0u;
    if word < 8u {
        bits = (*s)[word] >> shift;
    }
    // shift > 32 - c >= 16 here, so the shift below is under 32.
    if shift + c > 32u && word + 1u < 8u {
        bits |= (*s)[word + 1u] << (32u - shift);
    }
    let raw = (bits & ((1u << c) - 1u)) + *carry;
    if raw > (1u << (c - 1u)) {
        *carry = 1u;
        return i32(raw) - i32(1u << c);
    }
    *carry = 0u;
    return i32(raw);
}

// The table entry of window w's bucket for digit d (not zero).
fn msm_entry(w: u32, d: i32) -> u32 {
    return TABLE_HEAD + w * params.buckets + u32(abs(d)) - 1u;
}

// Term i's scalar.
fn msm_scalar(i: u32) -> array<u32, 8> {
    var s: array<u32, 8>;
    for (var j = 0u; j < 8u; j++) {
        s[j] = msm_scalars[8u * i + j];
    }
    return s;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_count_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.terms {
        return;
    }
    var s = msm_scalar(i);
    // s < 2^256 < 6 r on both curves: r subtracted while s >= r.
    for (var k = 0u; k < 6u; k++) {
        var below = false;
        for (var j = 8u; j > 0u; j--) {
            if s[j - 1u] != SCALAR_R[j - 1u] {
                below = s[j - 1u] < SCALAR_R[j - 1u];
                break;
            }
        }
        if below {
            break;
        }
        var borrow = 0u;
        for (var j = 0u; j < 8u; j++) {
            let d = s[j] - SCALAR_R[j];
            let out = d - borrow;
            borrow = select(0u, 1u, s[j] < SCALAR_R[j] || d < borrow);
            s[j] = out;
        }
    }
    for (var j = 0u; j < 8u; j++) {
        msm_scalars[8u * i + j] = s[j];
    }
    var carry = 0u;
    for (var w = 0u; w < params.windows; w++) {
        let d = msm_digit(&s, w, &carry);
        if d != 0 {
            atomicAdd(&msm_table[msm_entry(w, d)], 1u);
        }
    }
}

// The workgroup's values in msm_tile replaced by their exclusive prefix
// sums; their total returned. Every thread calls it.
fn msm_tile_prefix(li: u32) -> vec2<u32> {
    workgroupBarrier();
    if li == 0u {
        var run = vec2<u32>(0u);
        for (var k = 0u; k < WORKGROUP_SIZE; k++) {
            let v = msm_tile[k];
            msm_tile[k] = run;
            run += v;
        }
        msm_tile[0] = run;
        // Thread 0's own offset is zero: kept apart below.
    }
    workgroupBarrier();
    return msm_tile[0];
}

// Thread li's TILE_RUN buckets from `first`: their terms and chunks
// summed, the workgroup's sums turned into offsets (msm_tile_prefix); the
// tile's total returned. Every thread calls it.
fn msm_tile_sizes(first: u32, li: u32) -> vec2<u32> {
    var sum = vec2<u32>(0u);
    for (var j = 0u; j < TILE_RUN; j++) {
        if first + j < params.entries {
            sum += msm_bucket_size(atomicLoad(&msm_table[TABLE_HEAD + first + j]));
        }
    }
    msm_tile[li] = sum;
    return msm_tile_prefix(li);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_tiles_main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let tile = wid.y * groups.x + wid.x;
    let total = msm_tile_sizes(tile * TILE_ENTRIES + li * TILE_RUN, li);
    if li == 0u && tile * TILE_ENTRIES < params.entries {
        let at = msm_tiles_at() + 2u * tile;
        atomicStore(&msm_table[at], total.x);
        atomicStore(&msm_table[at + 1u], total.y);
    }
}

// Where the tiles' totals (then offsets) sit in the table.
fn msm_tiles_at() -> u32 {
    return TABLE_HEAD + 2u * params.entries + 1u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_offsets_main(@builtin(local_invocation_index) li: u32) {
    let tiles = (params.entries + TILE_ENTRIES - 1u) / TILE_ENTRIES;
    let per = (tiles + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
    let tiles_at = msm_tiles_at();
    var sum = vec2<u32>(0u);
    for (var j = 0u; j < per; j++) {
        let t = li * per + j;
        if t < tiles {
            sum += vec2<u32>(atomicLoad(&msm_table[tiles_at + 2u * t]), atomicLoad(&msm_table[tiles_at + 2u * t + 1u]));
        }
    }
    msm_tile[li] = sum;
    let total = msm_tile_prefix(li);
    var run = select(msm_tile[li], vec2<u32>(0u), li == 0u);
    for (var j = 0u; j < per; j++) {
        let t = li * per + j;
        if t < tiles {
            let at = tiles_at + 2u * t;
            let v = vec2<u32>(atomicLoad(&msm_table[at]), atomicLoad(&msm_table[at + 1u]));
            atomicStore(&msm_table[at], run.x);
            atomicStore(&msm_table[at + 1u], run.y);
            run += v;
        }
    }
    if li == 0u {
        // The chunks in all, in the header and after the last bucket.
        atomicStore(&msm_table[0], total.y);
        atomicStore(&msm_table[TABLE_HEAD + 2u * params.entries], total.y);
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_scan_main(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) li: u32,
) {
    let tile = wid.y * groups.x + wid.x;
    let first = tile * TILE_ENTRIES + li * TILE_RUN;
    msm_tile_sizes(first, li);
    if tile * TILE_ENTRIES >= params.entries {
        return;
    }
    let at = msm_tiles_at() + 2u * tile;
    var run = vec2<u32>(atomicLoad(&msm_table[at]), atomicLoad(&msm_table[at + 1u]));
    run += select(msm_tile[li], vec2<u32>(0u), li == 0u);
    for (var j = 0u; j < TILE_RUN; j++) {
        let e = first + j;
        if e < params.entries {
            let size = msm_bucket_size(atomicLoad(&msm_table[TABLE_HEAD + e]));
            atomicStore(&msm_table[TABLE_HEAD + e], run.x);
            atomicStore(&msm_table[TABLE_HEAD + params.entries + e], run.y);
            run += size;
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn msm_place_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.terms {
        return;
    }
    var s = msm_scalar(i);
    var carry = 0u;
    for (var w = 0u; w < params.windows; w++) {
        let d = msm_digit(&s, w, &carry);
        if d != 0 {
            let at = atomicAdd(&msm_table[msm_entry(w, d)], 1u);
            msm_terms[at] = i << 1u | select(0u, 1u, d < 0);
        }
    }
}
