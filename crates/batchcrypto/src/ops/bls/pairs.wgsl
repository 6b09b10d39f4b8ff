// EIP-2537's pairing check on the device, stage 1 (issue 15): one thread
// per (G1, G2) pair checks both points (on the curve, in the subgroup) and
// computes the pair's Miller loop when both are finite and valid. The host
// has already checked the encodings (top bytes, values below p) and found
// the points at infinity; it combines the flags in the precompile's order
// (ops/bls/gpu.rs) and multiplies each call's Miller values in stage 2
// (final_exp.wgsl). Composed after the guard and the pairing layer.

struct PairParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: PairParams;
// Per pair: P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0, Q.y.c1 (twelve little-endian
// words each, canonical), then the flags (PAIR_G1, PAIR_G2: the point is
// finite and to be checked; PAIR_MILLER: both are, compute the loop).
@group(0) @binding(1) var<storage, read> pairs: array<u32>;
// Per pair: the status (STATUS_* of G1, then of G2 shifted by 2), the
// Miller value (144 words, Montgomery form), the completion flag.
@group(0) @binding(2) var<storage, read_write> pair_out: array<u32>;

fn pair_fp(base: u32) -> Fp {
    var v: Fp;
    for (var j = 0u; j < 12u; j++) {
        v[j] = pairs[base + j];
    }
    return fp_to_mont(v);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bls_pairs(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let base = i * PAIR_IN;
    let flags = pairs[base + PAIR_IN - 1u];
    let x1 = pair_fp(base);
    let y1 = pair_fp(base + 12u);
    let x2 = Fp2(pair_fp(base + 24u), pair_fp(base + 36u));
    let y2 = Fp2(pair_fp(base + 48u), pair_fp(base + 60u));
    var status = 0u;
    if (flags & PAIR_G1) != 0u {
        if !g1_on_curve(x1, y1) {
            status = STATUS_NOT_ON_CURVE;
        } else if !g1_in_subgroup(G1Proj(x1, y1, fp_one())) {
            status = STATUS_NOT_IN_SUBGROUP;
        }
    }
    if (flags & PAIR_G2) != 0u {
        if !g2_on_curve(x2, y2) {
            status |= STATUS_NOT_ON_CURVE << 2u;
        } else if !g2_in_subgroup(G2Proj(x2, y2, fp2_one())) {
            status |= STATUS_NOT_IN_SUBGROUP << 2u;
        }
    }
    var f = fp12_one();
    if (flags & PAIR_MILLER) != 0u && status == 0u {
        f = miller_loop(x1, y1, x2, y2);
    }
    let out = i * PAIR_OUT;
    pair_out[out] = status;
    let c = array<Fp2, 6>(f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2);
    for (var k = 0u; k < 6u; k++) {
        for (var j = 0u; j < 12u; j++) {
            pair_out[out + 1u + 24u * k + j] = c[k].c0[j];
            pair_out[out + 13u + 24u * k + j] = c[k].c1[j];
        }
    }
    pair_out[out + PAIR_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
