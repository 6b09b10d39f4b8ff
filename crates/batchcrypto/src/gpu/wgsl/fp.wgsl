// A pairing-friendly prime field F_p: elements of FP_LIMBS u32 limbs,
// least significant first, in Montgomery form (R = 2^(32 FP_LIMBS),
// arkworks' own representation); the multiplication is the CIOS product
// generated straight-line by Rust (`mont_mul`, with fp_limbs_add /
// fp_limbs_sub, gpu/shaders/fields.rs). The bottom of the pairing towers
// (fp2.wgsl) and the whole arithmetic of the tower machine
// (tower_vm.wgsl). Composed after the field's constants (FP_LIMBS, FP_P,
// FP_PINV, ...: gpu/curve.rs `tower_field_wgsl`) and the generated code.

alias Fp = array<u32, FP_LIMBS>;

fn fp_zero() -> Fp {
    var z: Fp;
    return z;
}

fn fp_mul(a: Fp, b: Fp) -> Fp {
    return mont_mul(a, b, FP_P, FP_PINV);
}

fn fp_sq(a: Fp) -> Fp {
    return mont_mul(a, a, FP_P, FP_PINV);
}

// (a + b) mod p for a, b < p (p < 2^(32 FP_LIMBS - 1): the sum never
// carries out).
fn fp_add(a: Fp, b: Fp) -> Fp {
    let s = fp_limbs_add(a, b).v;
    let d = fp_limbs_sub(s, FP_P);
    if d.c == 0u {
        return d.v;
    }
    return s;
}

fn fp_sub(a: Fp, b: Fp) -> Fp {
    let d = fp_limbs_sub(a, b);
    if d.c != 0u {
        return fp_limbs_add(d.v, FP_P).v;
    }
    return d.v;
}

fn fp_neg(a: Fp) -> Fp {
    return fp_sub(fp_zero(), a);
}

fn fp_is_zero(a: Fp) -> bool {
    var acc = 0u;
    for (var i = 0u; i < FP_LIMBS; i++) {
        acc |= a[i];
    }
    return acc == 0u;
}

fn fp_eq(a: Fp, b: Fp) -> bool {
    var acc = 0u;
    for (var i = 0u; i < FP_LIMBS; i++) {
        acc |= a[i] ^ b[i];
    }
    return acc == 0u;
}

// Into and out of Montgomery form (canonical values below p).
fn fp_to_mont(a: Fp) -> Fp {
    return fp_mul(a, FP_R2);
}

fn fp_from_mont(a: Fp) -> Fp {
    var one: Fp;
    one[0] = 1u;
    return fp_mul(a, one);
}

// Whether a (Montgomery form) is the larger of a and -a as integers,
// a > (p - 1) / 2: the "sign" of the ZCash encoding's sort flag.
fn fp_is_largest(a: Fp) -> bool {
    return fp_limbs_sub(FP_HALF, fp_from_mont(a)).c == 1u;
}
