// Scalars modulo the group order L = 2^252 + 27742317777372353535851937790883648493,
// in 21-bit signed limbs with i64 arithmetic, after ref10's sc_reduce
// (2^252 = -27742317777372353535851937790883648493 mod L, whose 21-bit
// signed digits are the six constants below).

const SC_C = array<i64, 6>(666643li, 470296li, 654183li, -997805li, 136657li, -683901li);
// L in 21-bit limbs (little-endian); bit 252 is limb 12.
const SC_L = array<i64, 13>(
    1430509li, 1626855li, 1442968li, 997804li, 1960495li, 683900li,
    0li, 0li, 0li, 0li, 0li, 0li, 1li,
);

alias Scalar = array<i64, 13>;

// Floor carries limbs 0..top-1 into the next limb, leaving each in [0, 2^21).
fn sc_carry(s: ptr<function, array<i64, 24>>, top: u32) {
    for (var i = 0u; i < top; i++) {
        let c = (*s)[i] >> 21u;
        (*s)[i + 1u] += c;
        (*s)[i] -= c << 21u;
    }
}

// value - L if that is >= 0, else value (13 limbs of 21 bits, floor carried).
fn sc_sub_l_if_ge(v: Scalar) -> Scalar {
    var d: Scalar;
    var borrow = 0li;
    for (var i = 0u; i < 13u; i++) {
        var x = v[i] - SC_L[i] - borrow;
        borrow = select(0li, 1li, x < 0li);
        x += borrow << 21u;
        d[i] = x;
    }
    if borrow == 0li {
        return d;
    }
    return v;
}

// Reduces a 512-bit little-endian number given as 24 limbs (21 bits each,
// the top one up to 29 bits) modulo L. Returns the canonical residue
// (< L) as 13 limbs of 21 bits.
fn sc_reduce(limbs: array<i64, 24>) -> Scalar {
    var s = limbs;
    // Fold limb t (weight 2^(21 t) = 2^252 * 2^(21 (t - 12))) onto limbs
    // t-12 .. t-7, then floor-carry everything below t-1 into limb t-1.
    for (var t = 23u; t >= 12u; t--) {
        let v = s[t];
        s[t] = 0li;
        for (var j = 0u; j < 6u; j++) {
            s[t - 12u + j] += v * SC_C[j];
        }
        if t == 12u {
            break;
        }
        sc_carry(&s, t - 1u);
    }
    // Limbs 0..11 now sum to a value in (-2^160, 2^253); carry it into
    // limb 12, which ends up -1, 0 or 1.
    sc_carry(&s, 12u);
    var out: Scalar;
    for (var i = 0u; i < 13u; i++) {
        out[i] = s[i];
    }
    if out[12] < 0li {
        // Add L once: the value becomes non-negative.
        var carry = 0li;
        for (var i = 0u; i < 13u; i++) {
            let x = out[i] + SC_L[i] + carry;
            carry = x >> 21u;
            out[i] = x - (carry << 21u);
        }
        out[12] += carry << 21u;
    }
    out = sc_sub_l_if_ge(out);
    out = sc_sub_l_if_ge(out);
    return out;
}

// A 512-bit little-endian number (eight u64 lanes, least significant
// first) reduced modulo L: curve25519-dalek's from_bytes_mod_order_wide.
fn sc_from_wide(lanes: array<u64, 8>) -> Scalar {
    var limbs: array<i64, 24>;
    for (var t = 0u; t < 24u; t++) {
        let bit = t * 21u;
        let lane = bit >> 6u;
        let shift = bit & 63u;
        var v = lanes[lane] >> shift;
        if shift > 43u && lane < 7u {
            v |= lanes[lane + 1u] << (64u - shift);
        }
        // Limb 23 takes the top 29 bits (483..511).
        let width = select(21u, 29u, t == 23u);
        limbs[t] = i64(v & ((1lu << width) - 1lu));
    }
    return sc_reduce(limbs);
}

// Signed radix-16 digits (64 of them, each in [-8, 8]) of a scalar given as
// 13 limbs of 21 bits (value < 2^253).
fn sc_digits(s: Scalar) -> array<i32, 64> {
    var e: array<i32, 64>;
    for (var i = 0u; i < 64u; i++) {
        let bit = i * 4u;
        let limb = bit / 21u;
        let shift = bit % 21u;
        var v = s[limb] >> shift;
        if shift > 17u && limb < 12u {
            v |= s[limb + 1u] << (21u - shift);
        }
        e[i] = i32(v & 15li);
    }
    var carry = 0i;
    for (var i = 0u; i < 63u; i++) {
        e[i] += carry;
        carry = (e[i] + 8i) >> 4u;
        e[i] -= carry << 4u;
    }
    e[63] += carry;
    return e;
}

// 21-bit limbs of a 256-bit little-endian number given as eight words
// (limb 12 holds bits 252..255).
fn sc_from_words(w: array<u32, 8>) -> Scalar {
    var out: Scalar;
    for (var i = 0u; i < 13u; i++) {
        let bit = i * 21u;
        let word = bit >> 5u;
        let shift = bit & 31u;
        var v = u64(w[word]) >> shift;
        if word < 7u {
            v |= u64(w[word + 1u]) << (32u - shift);
        }
        out[i] = i64(v & 0x1ffffflu);
    }
    return out;
}

// True when the little-endian words hold a value < L (S canonical).
fn sc_is_canonical(w: array<u32, 8>) -> bool {
    // L as little-endian words.
    let l = array<u32, 8>(0x5cf5d3edu, 0x5812631au, 0xa2f79cd6u, 0x14def9deu, 0u, 0u, 0u, 0x10000000u);
    for (var i = 7i; i >= 0i; i--) {
        if w[i] < l[i] {
            return true;
        }
        if w[i] > l[i] {
            return false;
        }
    }
    return false;
}
