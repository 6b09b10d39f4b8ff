// base^exp in Field (rendered for F_p and F_p2 by gpu/shaders.rs
// `fp2_layer`: Field and field_ become Fp and fp_, or Fp2 and fp2_), exp an
// integer of FP_LIMBS words, with fixed 4-bit windows: table[j] = base^j
// (14 multiplications), then per window from the top four squarings and
// one multiplication (by one where the window is zero), all through one
// multiplication site: for 384 bits 384 + 96 + 14 multiplications.
// Composed with fp2.wgsl.
fn field_pow(base: Field, exp: Fp) -> Field {
    var table: array<Field, 16>;
    table[0] = field_one();
    table[1] = base;
    for (var j = 2u; j < 16u * tower_one; j++) {
        table[j] = field_mul(table[j - 1u], base);
    }
    var r = field_one();
    for (var k = 0u; k < 40u * FP_LIMBS * tower_one; k++) {
        let w = k / 5u;
        var other = r;
        if k % 5u == 4u {
            other = table[(exp[FP_LIMBS - 1u - w / 8u] >> (28u - 4u * (w % 8u))) & 15u];
        }
        r = field_mul(r, other);
    }
    return r;
}
