// The tower machine's interpreter (gpu/tower_vm.rs): `lanes` threads
// per item run bundles start..end of a program of F_p operations over the
// item's registers, which live in the output buffer after the outputs.
// With one lane they are register-major and item-minor (limb j of register
// r of item t at regs_base + (r FP_LIMBS + j) n + t), so that a warp's
// accesses to one limb are one contiguous run; with lanes, whose threads
// read different registers, item-major with a register's limbs together
// (at regs_base + (t regs + r) FP_LIMBS + j): a thread's element is two
// memory sectors instead of one per limb. A bundle is `lanes` slots of two words, lane l
// running slot l: an instruction and, for an F_p2 operation, its second
// word (EXT, naming the second coefficients' registers), read with all
// four operands before either coefficient is written. Every slot of a
// bundle is the same operation or empty (gpu/tower_vm/lanes.rs): the
// switch is uniform across an item's lanes, and a barrier after each
// bundle makes its writes visible to the next (lanes of an item share a
// workgroup: WORKGROUP_SIZE is a multiple of the lanes). One lane is the
// program as written. A program longer than a pass is several dispatches
// of this entry point; the last writes the completion flag (lane 0),
// which any pass whose loops were cut has replaced by LOOPS_CUT_FLAG.
// Composed after the guard, the F_p layer (fp.wgsl) and the machine's
// rendered constants and element accessors (VM_*, vm_read, vm_write,
// vm_const, vm_input).

struct VmParams {
    n: u32,
    loop_guard: u32,
    start: u32,
    end: u32,
    last: u32,
    in_fps: u32,
    out_words: u32,
    regs_base: u32,
    lanes: u32,
    regs: u32,
}

@group(0) @binding(0) var<uniform> params: VmParams;
@group(0) @binding(1) var<storage, read> vm_code: array<u32>;
@group(0) @binding(2) var<storage, read> vm_consts: array<u32>;
@group(0) @binding(3) var<storage, read> vm_in: array<u32>;
// Per thread: its outputs (FP_LIMBS words each) and the completion flag;
// then every thread's registers.
@group(0) @binding(4) var<storage, read_write> vm_out: array<u32>;

// Where register k of item t starts, and the distance between its limbs.
fn vm_reg(t: u32, k: u32) -> vec2<u32> {
    if params.lanes == 1u {
        return vec2<u32>(params.regs_base + k * FP_LIMBS * params.n + t, params.n);
    }
    return vec2<u32>(params.regs_base + (t * params.regs + k) * FP_LIMBS, 1u);
}

fn vm_get(t: u32, k: u32) -> Fp {
    if k >= VM_CONST_BASE {
        return vm_const(k - VM_CONST_BASE);
    }
    let r = vm_reg(t, k);
    return vm_read(r.x, r.y);
}

fn vm_set(t: u32, k: u32, v: Fp) {
    let r = vm_reg(t, k);
    vm_write(r.x, r.y, v);
}

// The operands of an F_p2 operation: its coefficients' registers.
struct Vm2 {
    d0: u32,
    d1: u32,
    a0: Fp,
    a1: Fp,
    b0: Fp,
    b1: Fp,
}

fn vm_get2(t: u32, ins: u32, ext: u32) -> Vm2 {
    let f = vec3<u32>(4u, 13u, 22u);
    let w = (vec3<u32>(ins) >> f) & vec3<u32>(511u);
    let x = (vec3<u32>(ext) >> f) & vec3<u32>(511u);
    return Vm2(w.x, x.x, vm_get(t, w.y), vm_get(t, x.y), vm_get(t, w.z), vm_get(t, x.z));
}

// One slot: instruction `ins` (and `ext`, an F_p2 operation's second
// word) for item t.
fn vm_step(t: u32, ins: u32, ext: u32) {
    let d = (ins >> 4u) & 511u;
    let a = (ins >> 13u) & 511u;
    let b = (ins >> 22u) & 511u;
    switch ins & 15u {
        case VM_COPY: {
            vm_set(t, d, vm_get(t, a));
        }
        case VM_MUL: {
            vm_set(t, d, fp_mul(vm_get(t, a), vm_get(t, b)));
        }
        case VM_ADD: {
            vm_set(t, d, fp_add(vm_get(t, a), vm_get(t, b)));
        }
        case VM_SUB: {
            vm_set(t, d, fp_sub(vm_get(t, a), vm_get(t, b)));
        }
        case VM_EQ: {
            var flag = fp_zero();
            flag[0] = select(0u, 1u, fp_eq(vm_get(t, a), vm_get(t, b)));
            vm_set(t, d, flag);
        }
        case VM_LOAD: {
            vm_set(t, d, vm_input(t, a));
        }
        case VM_OUT: {
            vm_write(t * params.out_words + d * FP_LIMBS, 1u, vm_get(t, a));
        }
        case VM_CMOV: {
            if vm_get(t, b)[0] == 1u {
                vm_set(t, d, vm_get(t, a));
            }
        }
        case VM_BIT: {
            var flag = fp_zero();
            flag[0] = (vm_get(t, a)[b / 32u] >> (b % 32u)) & 1u;
            vm_set(t, d, flag);
        }
        case VM_MUL2: {
            let o = vm_get2(t, ins, ext);
            let v0 = fp_mul(o.a0, o.b0);
            let v1 = fp_mul(o.a1, o.b1);
            let s = fp_mul(fp_add(o.a0, o.a1), fp_add(o.b0, o.b1));
            vm_set(t, o.d0, fp_sub(v0, v1));
            vm_set(t, o.d1, fp_sub(fp_sub(s, v0), v1));
        }
        case VM_SQ2: {
            let o = vm_get2(t, ins, ext);
            let m = fp_mul(o.a0, o.a1);
            vm_set(t, o.d0, fp_mul(fp_add(o.a0, o.a1), fp_sub(o.a0, o.a1)));
            vm_set(t, o.d1, fp_add(m, m));
        }
        case VM_ADD2: {
            let o = vm_get2(t, ins, ext);
            vm_set(t, o.d0, fp_add(o.a0, o.b0));
            vm_set(t, o.d1, fp_add(o.a1, o.b1));
        }
        case VM_SUB2: {
            let o = vm_get2(t, ins, ext);
            vm_set(t, o.d0, fp_sub(o.a0, o.b0));
            vm_set(t, o.d1, fp_sub(o.a1, o.b1));
        }
        case VM_LARGEST: {
            var flag = fp_zero();
            flag[0] = select(0u, 1u, fp_is_largest(vm_get(t, a)));
            vm_set(t, d, flag);
        }
        default: {}
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn tower_vm(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let thread = item_index(gid, groups);
    let t = thread / params.lanes;
    let lane = thread % params.lanes;
    let live = t < params.n;
    let slot = 2u * lane;
    for (var k = params.start; k < params.end; k += 2u * params.lanes) {
        if live {
            vm_step(t, vm_code[k + slot], vm_code[k + slot + 1u]);
        }
        if params.lanes > 1u {
            storageBarrier();
        }
    }
    if !live || lane != 0u {
        return;
    }
    let flag = t * params.out_words + params.out_words - 1u;
    if !loops_intact(params.loop_guard) {
        vm_out[flag] = LOOPS_CUT_FLAG;
    } else if params.last == 1u && vm_out[flag] != LOOPS_CUT_FLAG {
        vm_out[flag] = DONE_FLAG;
    }
}
