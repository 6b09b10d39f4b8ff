// EIP-198's MODEXP on the device: a thread per call, base^exp mod m for
// an odd modulus m of MODEXP_LIMBS 32-bit limbs (the host keeps every
// other call: ops/evm/gpu/modexp.rs). The host has reduced the base and
// put it in Montgomery form (base R mod m, R = 2^(32 MODEXP_LIMBS)) and
// computed inv = -m^-1 mod 2^32; here left-to-right square and multiply
// over the exponent's bits, from its top bit (the host sends exponents
// that are not zero, with their exact bit count), then one Montgomery
// multiplication by 1 to leave Montgomery form. The multiplication is
// the generated CIOS product (`mont_mul`, any m below 2^(32
// MODEXP_LIMBS), its top bit set or not). At most 8,192 iterations per
// thread (EIP-7823's 1,024-byte exponents), under llvmpipe's loop limit.
// Composed after the guard, MODEXP_LIMBS, `Big` and the generated code
// (gpu/shaders.rs `evm_modexp`).

struct ModexpParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

// Per call: m, inv, base R mod m, the exponent's first word in
// `modexp_exps`, its bit count.
const MODEXP_IN_WORDS: u32 = 2u * MODEXP_LIMBS + 3u;
// Per call: the result (canonical), then the completion flag.
const MODEXP_OUT_WORDS: u32 = MODEXP_LIMBS + 1u;

@group(0) @binding(0) var<uniform> params: ModexpParams;
@group(0) @binding(1) var<storage, read> modexp_in: array<u32>;
// Exponents, little-endian words, each call's from its first word.
@group(0) @binding(2) var<storage, read> modexp_exps: array<u32>;
@group(0) @binding(3) var<storage, read_write> modexp_out: array<u32>;

fn modexp_load(at: u32) -> Big {
    var r: Big;
    for (var j = 0u; j < MODEXP_LIMBS; j++) {
        r[j] = modexp_in[at + j];
    }
    return r;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn modexp_main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    let at = i * MODEXP_IN_WORDS;
    let out = i * MODEXP_OUT_WORDS;
    let m = modexp_load(at);
    let inv = modexp_in[at + MODEXP_LIMBS];
    let base = modexp_load(at + MODEXP_LIMBS + 1u);
    let first = modexp_in[at + 2u * MODEXP_LIMBS + 1u];
    let bits = modexp_in[at + 2u * MODEXP_LIMBS + 2u];
    // The top bit is 1: start from the base, then the bits below it.
    var acc = base;
    for (var k = bits - 1u; k > 0u; k--) {
        let b = k - 1u;
        acc = mont_mul(acc, acc, m, inv);
        if ((modexp_exps[first + b / 32u] >> (b % 32u)) & 1u) == 1u {
            acc = mont_mul(acc, base, m, inv);
        }
    }
    var one: Big;
    one[0] = 1u;
    let r = mont_mul(acc, one, m, inv);
    for (var j = 0u; j < MODEXP_LIMBS; j++) {
        modexp_out[out + j] = r[j];
    }
    modexp_out[out + MODEXP_LIMBS] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
