// Keccak-f[1600] on 25 lanes, lane (x, y) at index x + 5 y, written once
// for either lane type: `Lane` is u64 where the adapter has SHADER_INT64
// (keccak_lane64.wgsl) and vec2<u32> (low, high) where it has not
// (keccak_lane32.wgsl); both support ^, & and ~, and each file gives
// lane(lo, hi), lane_lo, lane_hi and rotl_lane. KECCAK_RC (iota round
// constants, as lanes) and KECCAK_ROT (rho offsets) are computed and
// rendered by Rust (gpu/shaders.rs) in front of this file (FIPS 202
// sections 3.2.2 and 3.2.5).

fn keccak_f1600(a: ptr<function, array<Lane, 25>>) {
    for (var round = 0u; round < 24u; round++) {
        // theta
        var c: array<Lane, 5>;
        for (var x = 0u; x < 5u; x++) {
            c[x] = (*a)[x] ^ (*a)[x + 5u] ^ (*a)[x + 10u] ^ (*a)[x + 15u] ^ (*a)[x + 20u];
        }
        for (var x = 0u; x < 5u; x++) {
            let d = c[(x + 4u) % 5u] ^ rotl_lane(c[(x + 1u) % 5u], 1u);
            for (var y = 0u; y < 25u; y += 5u) {
                (*a)[x + y] ^= d;
            }
        }
        // rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y])
        var b: array<Lane, 25>;
        for (var x = 0u; x < 5u; x++) {
            for (var y = 0u; y < 5u; y++) {
                b[y + 5u * ((2u * x + 3u * y) % 5u)] = rotl_lane((*a)[x + 5u * y], KECCAK_ROT[x + 5u * y]);
            }
        }
        // chi
        for (var y = 0u; y < 25u; y += 5u) {
            for (var x = 0u; x < 5u; x++) {
                (*a)[x + y] = b[x + y] ^ (~b[(x + 1u) % 5u + y] & b[(x + 2u) % 5u + y]);
            }
        }
        // iota
        (*a)[0] ^= KECCAK_RC[round];
    }
}

// A zeroed state.
fn keccak_zero() -> array<Lane, 25> {
    var a: array<Lane, 25>;
    for (var i = 0u; i < 25u; i++) {
        a[i] = lane(0u, 0u);
    }
    return a;
}

// The 32-byte digest in the first four lanes, as eight little-endian words.
fn keccak_digest_words(a: ptr<function, array<Lane, 25>>) -> array<u32, 8> {
    var out: array<u32, 8>;
    for (var i = 0u; i < 4u; i++) {
        out[2u * i] = lane_lo((*a)[i]);
        out[2u * i + 1u] = lane_hi((*a)[i]);
    }
    return out;
}

// keccak256 of 64 bytes given as two halves of eight little-endian words:
// one block (rate 136), pad 0x01 at byte 64 and 0x80 at byte 135.
fn keccak256_64(a: array<u32, 8>, b: array<u32, 8>) -> array<u32, 8> {
    var s = keccak_zero();
    for (var k = 0u; k < 4u; k++) {
        s[k] = lane(a[2u * k], a[2u * k + 1u]);
        s[4u + k] = lane(b[2u * k], b[2u * k + 1u]);
    }
    s[8] = lane(0x01u, 0u);
    s[16] = lane(0u, 0x80000000u);
    keccak_f1600(&s);
    return keccak_digest_words(&s);
}
