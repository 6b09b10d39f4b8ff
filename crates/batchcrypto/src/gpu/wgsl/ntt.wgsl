// Arithmetic mod a small prime q < 2^23 and the number-theoretic
// transform over Z_q[X]/(X^256 + 1) shared by ML-DSA (q = 8380417, eight
// layers down to single coefficients, FIPS 204 algorithms 41 and 42) and
// ML-KEM (q = 3329, seven layers down to pairs, FIPS 203 algorithms 9
// and 10): the same Cooley-Tukey and Gentleman-Sande loops, stopping at
// NTT_MIN_LEN. Needs SHADER_INT64.
//
// Before this file the host renders (gpu/shaders.rs `ntt_layer`) NTT_Q,
// NTT_QINV_NEG (-q^-1 mod 2^32), NTT_MIN_LEN and NTT_INV_F, and the kernel
// defines ntt_zeta(m): zeta^BitRev(m) R mod q with R = 2^32, the
// Montgomery form of the standards' zetas table, so that a butterfly's
// Montgomery product is the plain product.
//
// Values are canonical (in [0, q)) between operations.

// a b R^-1 mod q, for a < q and any b < 2^32 (so that a b < q 2^32).
fn ntt_mont(a: u32, b: u32) -> u32 {
    let x = u64(a) * u64(b);
    let m = u32(x & 0xfffffffflu) * NTT_QINV_NEG;
    let r = u32((x + u64(m) * u64(NTT_Q)) >> 32u);
    return select(r, r - NTT_Q, r >= NTT_Q);
}

fn ntt_add(a: u32, b: u32) -> u32 {
    let r = a + b;
    return select(r, r - NTT_Q, r >= NTT_Q);
}

fn ntt_sub(a: u32, b: u32) -> u32 {
    return ntt_add(a, NTT_Q - b);
}

// The forward transform in place (zetas from index 1 up).
fn ntt_forward(w: ptr<function, array<u32, 256>>) {
    var m = 0u;
    for (var len = 128u; len >= NTT_MIN_LEN; len >>= 1u) {
        for (var start = 0u; start < 256u; start += 2u * len) {
            m += 1u;
            let z = ntt_zeta(m);
            for (var j = start; j < start + len; j++) {
                let t = ntt_mont(z, (*w)[j + len]);
                (*w)[j + len] = ntt_sub((*w)[j], t);
                (*w)[j] = ntt_add((*w)[j], t);
            }
        }
    }
}

// The inverse transform in place, including its final scaling by
// NTT_INV_F in Montgomery form: the host picks NTT_INV_F so that inputs
// carrying a factor R^-1 (sums of ntt_mont products) come out plain.
fn ntt_inverse(w: ptr<function, array<u32, 256>>) {
    var m = 256u / NTT_MIN_LEN;
    for (var len = NTT_MIN_LEN; len <= 128u; len <<= 1u) {
        for (var start = 0u; start < 256u; start += 2u * len) {
            m -= 1u;
            let z = ntt_zeta(m);
            for (var j = start; j < start + len; j++) {
                let t = (*w)[j];
                (*w)[j] = ntt_add(t, (*w)[j + len]);
                (*w)[j + len] = ntt_mont(z, ntt_sub((*w)[j + len], t));
            }
        }
    }
    for (var j = 0u; j < 256u; j++) {
        (*w)[j] = ntt_mont((*w)[j], NTT_INV_F);
    }
}
