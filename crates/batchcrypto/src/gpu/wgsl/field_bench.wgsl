// Field multiplication microbenchmark (gpu/field_bench.rs): each thread
// multiplies its x by its w, `iterations` times in a dependent chain (many
// threads hide the latency), with the multiplication of one of the
// kernels: fe25519 (Ed25519, radix 2^25.5 with i64 products), Montgomery
// over eight u32 limbs (secp256k1 and P-256, u64 products), over twelve
// (BLS12-381's F_p, the tower machine's), or, for the adapter's peak,
// four chains of u32 multiply-adds. Output per thread: 12 result words
// (an 8-word result then zeros), then DONE_FLAG (or LOOPS_CUT_FLAG).
// Composed after the guard and the field layer of the entry point used.

struct BenchParams {
    n: u32,
    iterations: u32,
    loop_guard: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> bench: BenchParams;
// Per thread: x (12 words) then w (12 words), little-endian limbs; the
// 8-limb fields read the first 8 of each.
@group(0) @binding(1) var<storage, read> seeds: array<u32>;
@group(0) @binding(2) var<storage, read_write> results: array<u32>;

fn bench_seed(i: u32, at: u32) -> array<u32, 8> {
    var v: array<u32, 8>;
    for (var k = 0u; k < 8u; k++) {
        v[k] = seeds[i * 24u + at + k];
    }
    return v;
}

fn bench_seed12(i: u32, at: u32) -> array<u32, 12> {
    var v: array<u32, 12>;
    for (var k = 0u; k < 12u; k++) {
        v[k] = seeds[i * 24u + at + k];
    }
    return v;
}

fn bench_store12(i: u32, v: array<u32, 12>) {
    for (var k = 0u; k < 12u; k++) {
        results[i * 13u + k] = v[k];
    }
    results[i * 13u + 12u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(bench.loop_guard));
}

fn bench_store(i: u32, v: array<u32, 8>) {
    var w: array<u32, 12>;
    for (var k = 0u; k < 8u; k++) {
        w[k] = v[k];
    }
    bench_store12(i, w);
}
