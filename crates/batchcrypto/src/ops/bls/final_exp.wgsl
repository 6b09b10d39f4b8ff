// The pairing checks on the device, stage 2 (issue 15; rendered for
// BLS12-381 and, by ops/evm, for BN254's EIP-197 check): one thread per
// range of Miller values (at most FINAL_MAX_RANGE, so that no invocation
// nears llvmpipe's loop limit) multiplies them and, in the last round
// (mode FINAL_CHECK), raises the product to the final exponentiation and
// compares it with one. Calls with more pairs are reduced over several
// rounds by the host (ops/bls/gpu.rs `final_check`). The final
// exponentiation is the tower's F_p12 program (FINAL_EXP,
// gpu/fp12_program.rs) whose work does not depend on the input: about
// 20,000 loop iterations, under llvmpipe's limit with the products before
// it. Composed after the guard and the curve's pairing layer.

struct FinalParams {
    n: u32,
    loop_guard: u32,
    mode: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: FinalParams;
// Per thread: the first and one past the last value of its range.
@group(0) @binding(1) var<storage, read> ranges: array<u32>;
// F_p12 values, 12 FP_LIMBS words each (Montgomery form, coefficient
// order c0.c0.c0, c0.c0.c1, c0.c1.c0, ...).
@group(0) @binding(2) var<storage, read> values: array<u32>;
// Per thread: whether the result is one (mode FINAL_CHECK), the product
// or the result (12 FP_LIMBS words), the completion flag.
@group(0) @binding(3) var<storage, read_write> final_out: array<u32>;

fn value_at(k: u32) -> Fp12 {
    var c: array<Fp, 12>;
    for (var m = 0u; m < 12u; m++) {
        for (var j = 0u; j < FP_LIMBS; j++) {
            c[m][j] = values[(12u * k + m) * FP_LIMBS + j];
        }
    }
    return Fp12(
        Fp6(Fp2(c[0], c[1]), Fp2(c[2], c[3]), Fp2(c[4], c[5])),
        Fp6(Fp2(c[6], c[7]), Fp2(c[8], c[9]), Fp2(c[10], c[11])),
    );
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn final_exp(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    tower_init(params.loop_guard);
    let start = ranges[2u * i];
    let count = min(ranges[2u * i + 1u] - start, FINAL_MAX_RANGE);
    // Lanes with fewer values idle through the products; the
    // exponentiation, the same work for every input, runs in step.
    var acc = fp12_one();
    for (var k = 0u; k < count; k++) {
        acc = fp12_mul(acc, value_at(start + k));
    }
    var regs: array<Fp12, FP12_REGS>;
    regs[0] = acc;
    if params.mode == FINAL_CHECK {
        var program = FINAL_EXP;
        fp12_run(&regs, &program, 0u, FP12_PROGRAM_LEN);
    }
    let out = i * FINAL_OUT;
    let r = regs[0];
    final_out[out] = select(0u, 1u, fp12_eq(r, fp12_one()));
    let c = array<Fp2, 6>(r.c0.c0, r.c0.c1, r.c0.c2, r.c1.c0, r.c1.c1, r.c1.c2);
    for (var k = 0u; k < 6u; k++) {
        for (var j = 0u; j < FP_LIMBS; j++) {
            final_out[out + 1u + 2u * FP_LIMBS * k + j] = c[k].c0[j];
            final_out[out + 1u + FP_LIMBS * (2u * k + 1u) + j] = c[k].c1[j];
        }
    }
    final_out[out + FINAL_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
