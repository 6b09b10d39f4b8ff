// 64-bit lanes (Keccak's, BLAKE2b's words) as u64 (adapters with
// SHADER_INT64).

alias Lane = u64;

fn lane(lo: u32, hi: u32) -> Lane {
    return u64(lo) | (u64(hi) << 32u);
}

fn lane_lo(x: Lane) -> u32 {
    return u32(x & 0xfffffffflu);
}

fn lane_hi(x: Lane) -> u32 {
    return u32(x >> 32u);
}

fn rotl_lane(x: Lane, n: u32) -> Lane {
    if n == 0u {
        return x;
    }
    return (x << n) | (x >> (64u - n));
}

// x + y mod 2^64.
fn add_lane(x: Lane, y: Lane) -> Lane {
    return x + y;
}
