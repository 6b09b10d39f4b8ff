// ML-DSA verification (FIPS 204 algorithm 8, pure ML-DSA) in four
// stages, one entry point each, run as passes of one submission (host:
// ops/mldsa/gpu.rs). Composed after the guard, Keccak-f[1600] on u64
// lanes, the sponge, flat_msgs and the NTT layer (q = 8380417).
//
//   mldsa_keys   a thread per (distinct key, polynomial): each entry of
//                A-hat = ExpandA(rho) (RejNTTPoly over SHAKE128), each row
//                of NTT(t1 2^d), and one thread for tr = H(pk, 64).
//   mldsa_items  a thread per (item, polynomial): NTT(z_j) with the
//                ||z||_inf check, NTT(c) with c = SampleInBall(c~), and
//                mu = H(tr || M', 64), M' = 0 || |ctx| || ctx || M packed
//                by the host.
//   mldsa_rows   a thread per (item, row i): w'_i = NTT^-1(sum_j A_ij z_j
//                - c t1_i), UseHint with the row's hints, w1Encode.
//   mldsa_final  a thread per item: c~ =? H(mu || w1Encode(w1'), lambda/4).
//
// The host has already checked the lengths, the context and the hint
// encoding; items that failed carry key slot NO_KEY and are skipped.
// Polynomials in the work buffers are stored coefficient-major (coefficient
// j of polynomial p of P at j P + p) so that neighbouring threads touch
// neighbouring words. Status per item: DONE_FLAG | 0 valid, 1 z out of
// range, 2 equation, 3 skipped; word n collects LOOPS_CUT_FLAG from every
// stage.

// NTT_Q (q), NO_KEY and the guard's constants come from the host; the
// work buffers' accessors are gpu/wgsl/lattice_io.wgsl's.
const D: u32 = 13u;

struct Params {
    n: u32,
    keys: u32,
    k: u32,
    l: u32,
    tau: u32,
    omega: u32,
    gamma1_bits: u32,
    gamma2: u32,
    beta: u32,
    c_bytes: u32,
    w1_bits: u32,
    loop_guard: u32,
    item_words: u32,
    pk_words: u32,
    pad0: u32,
    pad1: u32,
    zetas: array<vec4<u32>, 64>,
}

@group(0) @binding(0) var<uniform> params: Params;
// Distinct public keys, pk_words each.
@group(0) @binding(1) var<storage, read> keys: array<u32>;
// Per item: its key slot (or NO_KEY), then the signature's words.
@group(0) @binding(2) var<storage, read> items: array<u32>;
// M' of each item, flat (flat_msgs.wgsl reads msg_words).
@group(0) @binding(3) var<storage, read> msg_words: array<u32>;
@group(0) @binding(4) var<storage, read> msg_offsets: array<u32>;
// Per key: its k l + k polynomials, then tr.
@group(0) @binding(5) var<storage, read_write> key_work: array<u32>;
// Per item: l + 1 polynomials, then mu, w1Encode(w1'), z flags.
@group(0) @binding(6) var<storage, read_write> item_work: array<u32>;
@group(0) @binding(7) var<storage, read_write> status: array<atomic<u32>>;

fn ntt_zeta(m: u32) -> u32 {
    return params.zetas[m >> 2u][m & 3u];
}

// Polynomials in key_work (every key's) and in item_work (every item's):
// the strides of lattice_io.wgsl's coefficient-major layout.
fn key_polys() -> u32 {
    return params.keys * (params.k * params.l + params.k);
}

fn item_polys() -> u32 {
    return params.n * (params.l + 1u);
}

fn mu_at(item: u32) -> u32 {
    return 256u * item_polys() + 16u * item;
}

fn w1_at(item: u32) -> u32 {
    return 256u * item_polys() + 16u * params.n + 256u * item;
}

fn zflags_at(item: u32) -> u32 {
    return 256u * item_polys() + 272u * params.n + 8u * item;
}

fn tr_at(key: u32) -> u32 {
    return 256u * key_polys() + 16u * key;
}

fn item_byte(base: u32, b: u32) -> u32 {
    return word_byte(items[base + (b >> 2u)], b);
}

// A-hat[r][s] = RejNTTPoly(rho || s || r) (FIPS 204 algorithms 30 and 32).
fn expand_a(key: u32, r: u32, s: u32, a: ptr<function, array<u32, 256>>) {
    sponge_init(SHAKE128_RATE);
    for (var i = 0u; i < 8u; i++) {
        sponge_absorb_word(keys[key * params.pk_words + i]);
    }
    sponge_absorb_byte(s);
    sponge_absorb_byte(r);
    sponge_pad(SHAKE_PAD);
    var j = 0u;
    while j < 256u {
        let b0 = sponge_squeeze_byte();
        let b1 = sponge_squeeze_byte();
        let b2 = sponge_squeeze_byte();
        let c = b0 | (b1 << 8u) | ((b2 & 0x7fu) << 16u);
        if c < NTT_Q {
            (*a)[j] = c;
            j++;
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mldsa_keys(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let kl = params.k * params.l;
    let per = kl + params.k + 1u;
    if t >= params.keys * per {
        return;
    }
    let key = t / per;
    let p = t % per;
    let base = key * params.pk_words;
    var a: array<u32, 256>;
    if p < kl {
        expand_a(key, p / params.l, p % params.l, &a);
        store_key_poly(key * (kl + params.k) + p, &a);
    } else if p < kl + params.k {
        // Row r of t1 (SimpleBitUnpack, 10 bits each, after rho), times 2^d.
        let r = p - kl;
        for (var j = 0u; j < 256u; j++) {
            let t1 = key_bits(base, 256u + (320u * r) * 8u + 10u * j, 10u) << D;
            a[j] = select(t1, t1 - NTT_Q, t1 >= NTT_Q);
        }
        ntt_forward(&a);
        store_key_poly(key * (kl + params.k) + p, &a);
    } else {
        // tr = H(pk, 64).
        sponge_init(SHAKE256_RATE);
        for (var i = 0u; i < params.pk_words; i++) {
            sponge_absorb_word(keys[base + i]);
        }
        sponge_pad(SHAKE_PAD);
        for (var i = 0u; i < 16u; i++) {
            key_work[tr_at(key) + i] = sponge_squeeze_word();
        }
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mldsa_items(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let per = params.l + 2u;
    if t >= params.n * per {
        return;
    }
    let item = t / per;
    let p = t % per;
    let ib = item * params.item_words;
    let key = items[ib];
    if key == NO_KEY {
        return;
    }
    let sig = ib + 1u;
    var a: array<u32, 256>;
    if p < params.l {
        // z_p: BitUnpack(gamma1 - 1, gamma1), stored as gamma1 - z.
        let bits = params.gamma1_bits;
        let gamma1 = 1u << (bits - 1u);
        let first_bit = params.c_bytes * 8u + 256u * bits * p;
        var bad = 0u;
        for (var j = 0u; j < 256u; j++) {
            let stored = item_bits(sig, first_bit + bits * j, bits);
            if stored <= gamma1 {
                let z = gamma1 - stored;
                bad |= u32(z >= gamma1 - params.beta);
                a[j] = z;
            } else {
                let z = stored - gamma1;
                bad |= u32(z >= gamma1 - params.beta);
                a[j] = NTT_Q - z;
            }
        }
        ntt_forward(&a);
        store_item_poly(item * (params.l + 1u) + p, &a);
        item_work[zflags_at(item) + p] = bad;
    } else if p == params.l {
        // c = SampleInBall(c~) (FIPS 204 algorithm 29).
        sponge_init(SHAKE256_RATE);
        for (var i = 0u; i < params.c_bytes / 4u; i++) {
            sponge_absorb_word(items[sig + i]);
        }
        sponge_pad(SHAKE_PAD);
        let signs_lo = sponge_squeeze_word();
        let signs_hi = sponge_squeeze_word();
        for (var i = 256u - params.tau; i < 256u; i++) {
            var j = sponge_squeeze_byte();
            while j > i {
                j = sponge_squeeze_byte();
            }
            a[i] = a[j];
            let bit = i + params.tau - 256u;
            let sign = (select(signs_lo, signs_hi, bit >= 32u) >> (bit & 31u)) & 1u;
            a[j] = select(1u, NTT_Q - 1u, sign == 1u);
        }
        ntt_forward(&a);
        store_item_poly(item * (params.l + 1u) + p, &a);
    } else {
        // mu = H(tr || M', 64).
        sponge_init(SHAKE256_RATE);
        for (var i = 0u; i < 16u; i++) {
            sponge_absorb_word(key_work[tr_at(key) + i]);
        }
        let off = msg_offsets[item];
        let len = msg_offsets[item + 1u] - off;
        var i = 0u;
        for (; i + 4u <= len; i += 4u) {
            sponge_absorb_word(msg_word_at(off + i));
        }
        for (; i < len; i++) {
            sponge_absorb_byte(msg_byte(off + i));
        }
        sponge_pad(SHAKE_PAD);
        for (var w = 0u; w < 16u; w++) {
            item_work[mu_at(item) + w] = sponge_squeeze_word();
        }
    }
    _ = guard_loops();
}

// UseHint(h, r) (FIPS 204 algorithms 36 and 40) for r in [0, q).
fn use_hint(hint: bool, r: u32) -> u32 {
    let g2 = 2u * params.gamma2;
    var r0 = i32(r % g2);
    if r0 > i32(params.gamma2) {
        r0 -= i32(g2);
    }
    var r1 = 0u;
    if i32(r) - r0 == i32(NTT_Q - 1u) {
        r0 -= 1;
    } else {
        r1 = u32(i32(r) - r0) / g2;
    }
    if !hint {
        return r1;
    }
    let m = (NTT_Q - 1u) / g2;
    if r0 > 0 {
        return select(r1 + 1u, 0u, r1 + 1u == m);
    }
    return select(r1 - 1u, m - 1u, r1 == 0u);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mldsa_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    if t >= params.n * params.k {
        return;
    }
    let item = t / params.k;
    let r = t % params.k;
    let ib = item * params.item_words;
    let key = items[ib];
    if key == NO_KEY {
        return;
    }
    let sig = ib + 1u;
    let kl = params.k * params.l;
    let key_poly0 = key * (kl + params.k);
    let item_poly0 = item * (params.l + 1u);
    var w: array<u32, 256>;
    var a: array<u32, 256>;
    var b: array<u32, 256>;
    for (var s = 0u; s < params.l; s++) {
        load_key_poly(key_poly0 + r * params.l + s, &a);
        load_item_poly(item_poly0 + s, &b);
        for (var j = 0u; j < 256u; j++) {
            w[j] = ntt_add(w[j], ntt_mont(a[j], b[j]));
        }
    }
    load_key_poly(key_poly0 + kl + r, &a);
    load_item_poly(item_poly0 + params.l, &b);
    for (var j = 0u; j < 256u; j++) {
        w[j] = ntt_sub(w[j], ntt_mont(a[j], b[j]));
    }
    ntt_inverse(&w);

    // The row's hints: indices h[start..end) of the hint section, with
    // end = h[omega + r] and start the previous row's end.
    let h = params.c_bytes + params.l * 32u * params.gamma1_bits;
    let end = item_byte(sig, h + params.omega + r);
    var start = 0u;
    if r > 0u {
        start = item_byte(sig, h + params.omega + r - 1u);
    }
    var mask: array<u32, 8>;
    for (var x = start; x < end; x++) {
        let at = item_byte(sig, h + x);
        mask[at >> 5u] |= 1u << (at & 31u);
    }

    // w1Encode of the row: SimpleBitPack, w1_bits each, little-endian.
    for (var j = 0u; j < 256u; j++) {
        w[j] = use_hint(((mask[j >> 5u] >> (j & 31u)) & 1u) == 1u, w[j]);
    }
    var packed: array<u32, 96>;
    encode_row(&w, params.w1_bits, &packed);
    let row_words = 8u * params.w1_bits;
    for (var x = 0u; x < row_words; x++) {
        item_work[w1_at(item) + r * row_words + x] = packed[x];
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn mldsa_final(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    let ib = item * params.item_words;
    var code = 3u;
    if items[ib] != NO_KEY {
        let sig = ib + 1u;
        sponge_init(SHAKE256_RATE);
        for (var i = 0u; i < 16u; i++) {
            sponge_absorb_word(item_work[mu_at(item) + i]);
        }
        let words = params.k * 8u * params.w1_bits;
        for (var i = 0u; i < words; i++) {
            sponge_absorb_word(item_work[w1_at(item) + i]);
        }
        sponge_pad(SHAKE_PAD);
        var same = true;
        for (var i = 0u; i < params.c_bytes / 4u; i++) {
            same = same && sponge_squeeze_word() == items[sig + i];
        }
        var z_bad = 0u;
        for (var p = 0u; p < params.l; p++) {
            z_bad |= item_work[zflags_at(item) + p];
        }
        code = select(select(2u, 0u, same), 1u, z_bad != 0u);
    }
    if guard_loops() {
        atomicStore(&status[item], DONE_FLAG | code);
    }
}
