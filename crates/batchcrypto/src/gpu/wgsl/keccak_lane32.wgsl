// 64-bit lanes (Keccak's, BLAKE2b's words) as pairs of u32 (low word, high
// word), for adapters without SHADER_INT64. A 64-bit rotation is two 32-bit
// funnel shifts; an addition carries from the low word.

alias Lane = vec2<u32>;

fn lane(lo: u32, hi: u32) -> Lane {
    return vec2<u32>(lo, hi);
}

fn lane_lo(x: Lane) -> u32 {
    return x.x;
}

fn lane_hi(x: Lane) -> u32 {
    return x.y;
}

fn rotl_lane(x: Lane, n: u32) -> Lane {
    // Rotating by 32 or more swaps the words first.
    var v = x;
    var k = n;
    if k >= 32u {
        v = x.yx;
        k -= 32u;
    }
    if k == 0u {
        return v;
    }
    return vec2<u32>((v.x << k) | (v.y >> (32u - k)), (v.y << k) | (v.x >> (32u - k)));
}

// x + y mod 2^64.
fn add_lane(x: Lane, y: Lane) -> Lane {
    let lo = x.x + y.x;
    return vec2<u32>(lo, x.y + y.y + select(0u, 1u, lo < x.x));
}
