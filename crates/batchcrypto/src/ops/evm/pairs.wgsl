// EIP-197's pairing check on the device, stage 1 (issue 18): one thread
// per (G1, G2) pair checks that G2's point is in the subgroup and computes
// the pair's Miller loop when both points are finite and it is
// (gpu/wgsl/bn254_pairing.wgsl). The host (ops/evm/gpu.rs) has decoded
// every point with the CPU path's other checks (coordinates below p, on
// their curves) and sends the pairs with a finite G2 point; it reports
// each call's first failure in the precompile's order. Stage 2 is the
// BLS12-381 check's kernel rendered for BN254's tower
// (ops/bls/final_exp.wgsl). Composed after the guard and BN254's pairing
// layer.

struct PairParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: PairParams;
// Per pair: P.x, P.y, Q.x.c0, Q.x.c1, Q.y.c0, Q.y.c1, FP_LIMBS
// little-endian words each, in Montgomery form (arkworks' own limbs; P
// zeros when it is infinity), then the flags (PAIR_G2: check Q;
// PAIR_MILLER: P is finite too, compute the loop if Q is in G2).
@group(0) @binding(1) var<storage, read> pairs: array<u32>;
// Per pair: the status (STATUS_NOT_IN_SUBGROUP or 0), the Miller value (12
// FP_LIMBS words, Montgomery form, in final_exp.wgsl's order; one when
// not computed), the completion flag.
@group(0) @binding(2) var<storage, read_write> pair_out: array<u32>;

fn pair_fp(base: u32) -> Fp {
    var v: Fp;
    for (var j = 0u; j < FP_LIMBS; j++) {
        v[j] = pairs[base + j];
    }
    return v;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn bn254_pairs(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let base = i * (6u * FP_LIMBS + 1u);
    let flags = pairs[base + 6u * FP_LIMBS];
    let c = array<Fp, 6>(
        pair_fp(base),
        pair_fp(base + FP_LIMBS),
        pair_fp(base + 2u * FP_LIMBS),
        pair_fp(base + 3u * FP_LIMBS),
        pair_fp(base + 4u * FP_LIMBS),
        pair_fp(base + 5u * FP_LIMBS),
    );
    let qx = Fp2(c[2], c[3]);
    let qy = Fp2(c[4], c[5]);
    var status = 0u;
    if (flags & PAIR_G2) != 0u && !g2_in_subgroup(G2Proj(qx, qy, fp2_one())) {
        status = STATUS_NOT_IN_SUBGROUP;
    }
    var f = fp12_one();
    if (flags & PAIR_MILLER) != 0u && status == 0u {
        f = miller_loop(c[0], c[1], qx, qy);
    }
    let out = i * (12u * FP_LIMBS + 2u);
    pair_out[out] = status;
    let v = array<Fp2, 6>(f.c0.c0, f.c0.c1, f.c0.c2, f.c1.c0, f.c1.c1, f.c1.c2);
    for (var k = 0u; k < 6u; k++) {
        for (var j = 0u; j < FP_LIMBS; j++) {
            pair_out[out + 1u + 2u * FP_LIMBS * k + j] = v[k].c0[j];
            pair_out[out + 1u + FP_LIMBS * (2u * k + 1u) + j] = v[k].c1[j];
        }
    }
    pair_out[out + 12u * FP_LIMBS + 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
