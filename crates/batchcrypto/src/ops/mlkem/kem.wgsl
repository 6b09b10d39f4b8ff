// ML-KEM (FIPS 203) key generation, encapsulation and decapsulation as
// stages, one entry point each, run as passes of one submission (host:
// ops/mlkem/gpu.rs). Composed after the guard, Keccak-f[1600] on u64
// lanes, the sponge, the NTT layer (q = 3329, seven layers) and the work
// buffers' accessors (lattice_io.wgsl).
//
// Each stage has a thread per unit of the parallelism its step has:
//
//   kem_keygen_seed   item            (rho, sigma) = G(d || k)
//   kem_expand        key, poly       A-hat[i][j] = SampleNTT(rho || j || i);
//                                     keygen: s-hat, e-hat from PRF(sigma);
//                                     else t-hat rows of ek with the modulus
//                                     check, h = H(ek); decaps: s-hat rows
//                                     of dk and the hash check
//   kem_keygen_rows   item, row       t-hat_i = sum_j A_ij s_j + e_i, encoded
//   kem_keygen_final  item            H(ek)
//   kem_decrypt_u     item, row       NTT(Decompress(u'_j)) of c
//   kem_decrypt       item            m' = Compress1(v' - NTT^-1(s^T u'))
//   kem_seed          item            (K, r) = G(m || h); decaps: J(z || c)
//   kem_noise         item, poly      y (NTT), e1, e2 from PRF(r)
//   kem_encrypt_rows  item, row       u_i = NTT^-1(sum_j A_ji y_j) + e1_i, and
//                                     v, compressed and encoded: written
//                                     (encaps) or compared with c (decaps)
//   kem_final         item            the status; decaps: K' or J(z || c)
//
// Keygen treats every item as its own key (keys = n). Items the host
// refused carry slot NO_KEY and are skipped. Polynomials in the work
// buffers are stored coefficient-major (coefficient j of polynomial p of
// P at j P + p). Status per item: DONE_FLAG | 0 done, 1 key not reduced,
// 2 key hash mismatch, 3 skipped; word n collects LOOPS_CUT_FLAG.

const MODE_KEYGEN: u32 = 0u;
const MODE_ENCAPS: u32 = 1u;
const MODE_DECAPS: u32 = 2u;

struct Params {
    n: u32,
    keys: u32,
    k: u32,
    eta1: u32,
    du: u32,
    dv: u32,
    mode: u32,
    loop_guard: u32,
    item_words: u32,
    key_words: u32,
    out_words: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
    pad4: u32,
    // The zetas (0..127) and the base-case gammas (128..255), Montgomery form.
    tables: array<vec4<u32>, 64>,
}

@group(0) @binding(0) var<uniform> params: Params;
// Encapsulation keys (encaps) or decapsulation keys (decaps), key_words each.
@group(0) @binding(1) var<storage, read> keys: array<u32>;
// Per item: its key slot (or NO_KEY), then d (keygen), m (encaps) or c (decaps).
@group(0) @binding(2) var<storage, read> items: array<u32>;
// Per key: k^2 + 2k polynomials, then 32 words (rho, sigma, h, flags).
@group(0) @binding(3) var<storage, read_write> key_work: array<u32>;
// Per item: 3k + 1 polynomials, then 40 words (r, m', K', K-bar, flags).
@group(0) @binding(4) var<storage, read_write> item_work: array<u32>;
// Per item: out_words of output (keygen s || t || rho || h, encaps c || K,
// decaps the shared secret).
@group(0) @binding(5) var<storage, read_write> outw: array<u32>;
@group(0) @binding(6) var<storage, read_write> status: array<atomic<u32>>;

fn table(i: u32) -> u32 {
    return params.tables[i >> 2u][i & 3u];
}

fn ntt_zeta(m: u32) -> u32 {
    return table(m);
}

// Key scalars: rho 0..8, sigma 8..16, h 16..24, row i not reduced at
// 24 + i, hash mismatch at 28.
const KS_RHO: u32 = 0u;
const KS_SIGMA: u32 = 8u;
const KS_H: u32 = 16u;
const KS_ROW_BAD: u32 = 24u;
const KS_HASH_BAD: u32 = 28u;
// Item scalars: r 0..8, m' 8..16, K' 16..24, K-bar 24..32, row i of the
// re-encryption differs at 32 + i.
const IS_R: u32 = 0u;
const IS_M: u32 = 8u;
const IS_K: u32 = 16u;
const IS_KBAR: u32 = 24u;
const IS_DIFF: u32 = 32u;

fn key_polys_each() -> u32 {
    return params.k * params.k + 2u * params.k;
}

fn key_poly(key: u32, slot: u32) -> u32 {
    return key * key_polys_each() + slot;
}

// Polynomials in key_work and in item_work: the strides of
// lattice_io.wgsl's coefficient-major layout.
fn key_polys() -> u32 {
    return params.keys * key_polys_each();
}

fn item_polys() -> u32 {
    return params.n * item_polys_each();
}

fn key_scalar(key: u32) -> u32 {
    return 256u * key_polys() + 32u * key;
}

fn item_polys_each() -> u32 {
    return 3u * params.k + 1u;
}

fn item_poly(item: u32, slot: u32) -> u32 {
    return item * item_polys_each() + slot;
}

fn item_scalar(item: u32) -> u32 {
    return 256u * item_polys() + 40u * item;
}

fn item_slot(item: u32) -> u32 {
    return items[item * params.item_words];
}

// Where ek starts among a key's words: at 0 for encaps, after dk_PKE in dk.
fn ek_at(key: u32) -> u32 {
    return key * params.key_words + select(0u, 96u * params.k, params.mode == MODE_DECAPS);
}

// Compress_d and Decompress_d (FIPS 203 section 4.2.1), rounding half up.
fn compress(x: u32, d: u32) -> u32 {
    return (((x << (d + 1u)) + NTT_Q) / (2u * NTT_Q)) & ((1u << d) - 1u);
}

fn decompress(y: u32, d: u32) -> u32 {
    return (y * NTT_Q + (1u << (d - 1u))) >> d;
}

// w += f * g in the NTT domain (MultiplyNTTs, FIPS 203 algorithms 11 and
// 12), every term carrying R^-1.
fn mul_acc(w: ptr<function, array<u32, 256>>, f: ptr<function, array<u32, 256>>, g: ptr<function, array<u32, 256>>) {
    for (var i = 0u; i < 128u; i++) {
        let a0 = (*f)[2u * i];
        let a1 = (*f)[2u * i + 1u];
        let b0 = (*g)[2u * i];
        let b1 = (*g)[2u * i + 1u];
        let c0 = ntt_add(ntt_mont(a0, b0), ntt_mont(ntt_mont(a1, b1), table(128u + i)));
        let c1 = ntt_add(ntt_mont(a0, b1), ntt_mont(a1, b0));
        (*w)[2u * i] = ntt_add((*w)[2u * i], c0);
        (*w)[2u * i + 1u] = ntt_add((*w)[2u * i + 1u], c1);
    }
}

// SamplePolyCBD_eta(PRF_eta(seed, b)) (FIPS 203 algorithms 8 and section
// 4.1), the seed already absorbed.
fn cbd(b: u32, eta: u32, a: ptr<function, array<u32, 256>>) {
    sponge_absorb_byte(b);
    sponge_pad(SHAKE_PAD);
    var acc = 0u;
    var have = 0u;
    let mask = (1u << eta) - 1u;
    for (var i = 0u; i < 256u; i++) {
        while have < 2u * eta {
            acc |= sponge_squeeze_byte() << have;
            have += 8u;
        }
        let x = countOneBits(acc & mask);
        let y = countOneBits((acc >> eta) & mask);
        acc >>= 2u * eta;
        have -= 2u * eta;
        (*a)[i] = ntt_sub(x, y);
    }
}

// SampleNTT(rho || j || i) (FIPS 203 algorithm 7), rho's 8 words given.
fn sample_ntt(rho: array<u32, 8>, j: u32, i: u32, a: ptr<function, array<u32, 256>>) {
    sponge_init(SHAKE128_RATE);
    for (var w = 0u; w < 8u; w++) {
        sponge_absorb_word(rho[w]);
    }
    sponge_absorb_byte(j);
    sponge_absorb_byte(i);
    sponge_pad(SHAKE_PAD);
    var n = 0u;
    while n < 256u {
        let c0 = sponge_squeeze_byte();
        let c1 = sponge_squeeze_byte();
        let c2 = sponge_squeeze_byte();
        let d1 = c0 | ((c1 & 15u) << 8u);
        let d2 = (c1 >> 4u) | (c2 << 4u);
        if d1 < NTT_Q {
            (*a)[n] = d1;
            n++;
        }
        if d2 < NTT_Q && n < 256u {
            (*a)[n] = d2;
            n++;
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_keygen_seed(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n || item_slot(item) == NO_KEY {
        return;
    }
    sponge_init(SHA3_512_RATE);
    for (var w = 0u; w < 8u; w++) {
        sponge_absorb_word(items[item * params.item_words + 1u + w]);
    }
    sponge_absorb_byte(params.k);
    sponge_pad(SHA3_PAD);
    for (var w = 0u; w < 16u; w++) {
        key_work[key_scalar(item) + KS_RHO + w] = sponge_squeeze_word();
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_expand(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let k = params.k;
    let kk = k * k;
    var per = kk + 2u * k;
    if params.mode == MODE_ENCAPS {
        per = kk + k + 1u;
    } else if params.mode == MODE_DECAPS {
        per = kk + 2u * k + 1u;
    }
    if t >= params.keys * per {
        return;
    }
    let key = t / per;
    let p = t % per;
    let keygen = params.mode == MODE_KEYGEN;
    if keygen && item_slot(key) == NO_KEY {
        return;
    }
    var a: array<u32, 256>;
    if p < kk {
        var rho: array<u32, 8>;
        for (var w = 0u; w < 8u; w++) {
            if keygen {
                rho[w] = key_work[key_scalar(key) + KS_RHO + w];
            } else {
                rho[w] = keys[ek_at(key) + 96u * k + w];
            }
        }
        sample_ntt(rho, p % k, p / k, &a);
        store_key_poly(key_poly(key, p), &a);
    } else if p < kk + 2u * k && keygen {
        // s (N = 0..k) and e (N = k..2k) from PRF_eta1(sigma, N), in the NTT domain.
        sponge_init(SHAKE256_RATE);
        for (var w = 0u; w < 8u; w++) {
            sponge_absorb_word(key_work[key_scalar(key) + KS_SIGMA + w]);
        }
        cbd(p - kk, params.eta1, &a);
        ntt_forward(&a);
        store_key_poly(key_poly(key, p), &a);
    } else if p < kk + select(k, 2u * k, params.mode == MODE_DECAPS) {
        // Row i of t-hat (ByteDecode12 of ek, with the modulus check), or
        // decaps' row of s-hat (dk_PKE, reduced mod q).
        let t_row = p < kk + k;
        let i = select(p - kk - k, p - kk, t_row);
        let base = select(key * params.key_words, ek_at(key), t_row);
        var bad = 0u;
        for (var j = 0u; j < 256u; j++) {
            let v = key_bits(base, 3072u * i + 12u * j, 12u);
            bad |= u32(v >= NTT_Q);
            a[j] = select(v, v - NTT_Q, v >= NTT_Q);
        }
        store_key_poly(key_poly(key, p), &a);
        if t_row {
            key_work[key_scalar(key) + KS_ROW_BAD + i] = bad;
        }
    } else {
        // h = H(ek); decaps compares it with the h stored in dk.
        sponge_init(SHA3_256_RATE);
        for (var w = 0u; w < 96u * k + 8u; w++) {
            sponge_absorb_word(keys[ek_at(key) + w]);
        }
        sponge_pad(SHA3_PAD);
        var differs = 0u;
        for (var w = 0u; w < 8u; w++) {
            let h = sponge_squeeze_word();
            key_work[key_scalar(key) + KS_H + w] = h;
            if params.mode == MODE_DECAPS {
                differs |= u32(h != keys[ek_at(key) + 96u * k + 8u + w]);
            }
        }
        key_work[key_scalar(key) + KS_HASH_BAD] = differs;
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_keygen_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let k = params.k;
    if t >= params.n * k {
        return;
    }
    let item = t / k;
    let i = t % k;
    if item_slot(item) == NO_KEY {
        return;
    }
    let kk = k * k;
    var w: array<u32, 256>;
    var f: array<u32, 256>;
    var g: array<u32, 256>;
    for (var j = 0u; j < k; j++) {
        load_key_poly(key_poly(item, i * k + j), &f);
        load_key_poly(key_poly(item, kk + j), &g);
        mul_acc(&w, &f, &g);
    }
    load_key_poly(key_poly(item, kk + k + i), &g);
    for (var j = 0u; j < 256u; j++) {
        w[j] = ntt_add(ntt_mont(w[j], NTT_R2), g[j]);
    }
    var packed: array<u32, 96>;
    let out = item * params.out_words;
    encode_row(&w, 12u, &packed);
    for (var x = 0u; x < 96u; x++) {
        outw[out + 96u * k + 96u * i + x] = packed[x];
    }
    load_key_poly(key_poly(item, kk + i), &f);
    encode_row(&f, 12u, &packed);
    for (var x = 0u; x < 96u; x++) {
        outw[out + 96u * i + x] = packed[x];
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_keygen_final(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    var code = 3u;
    if item_slot(item) != NO_KEY {
        let k = params.k;
        let out = item * params.out_words;
        for (var w = 0u; w < 8u; w++) {
            outw[out + 192u * k + w] = key_work[key_scalar(item) + KS_RHO + w];
        }
        // H(ek), ek = t || rho.
        sponge_init(SHA3_256_RATE);
        for (var w = 0u; w < 96u * k + 8u; w++) {
            sponge_absorb_word(outw[out + 96u * k + w]);
        }
        sponge_pad(SHA3_PAD);
        for (var w = 0u; w < 8u; w++) {
            outw[out + 192u * k + 8u + w] = sponge_squeeze_word();
        }
        code = 0u;
    }
    if guard_loops() {
        atomicStore(&status[item], DONE_FLAG | code);
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_decrypt_u(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let k = params.k;
    if t >= params.n * k {
        return;
    }
    let item = t / k;
    let j = t % k;
    if item_slot(item) == NO_KEY {
        return;
    }
    let c = item * params.item_words + 1u;
    var a: array<u32, 256>;
    for (var x = 0u; x < 256u; x++) {
        a[x] = decompress(item_bits(c, 256u * params.du * j + params.du * x, params.du), params.du);
    }
    ntt_forward(&a);
    store_item_poly(item_poly(item, 2u * k + 1u + j), &a);
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_decrypt(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    let key = item_slot(item);
    if key == NO_KEY {
        return;
    }
    let k = params.k;
    var w: array<u32, 256>;
    var f: array<u32, 256>;
    var g: array<u32, 256>;
    for (var j = 0u; j < k; j++) {
        load_key_poly(key_poly(key, k * k + k + j), &f);
        load_item_poly(item_poly(item, 2u * k + 1u + j), &g);
        mul_acc(&w, &f, &g);
    }
    ntt_inverse(&w);
    // m' = ByteEncode1(Compress1(v' - w)), v' from c2.
    let c = item * params.item_words + 1u;
    let v_at = 256u * params.du * k;
    var m: array<u32, 8>;
    for (var x = 0u; x < 256u; x++) {
        let v = decompress(item_bits(c, v_at + params.dv * x, params.dv), params.dv);
        m[x >> 5u] |= compress(ntt_sub(v, w[x]), 1u) << (x & 31u);
    }
    for (var x = 0u; x < 8u; x++) {
        item_work[item_scalar(item) + IS_M + x] = m[x];
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_seed(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    let key = item_slot(item);
    if key == NO_KEY {
        return;
    }
    let k = params.k;
    let decaps = params.mode == MODE_DECAPS;
    let s = item_scalar(item);
    // (K, r) = G(m || h): encaps m given and h = H(ek); decaps m' and the
    // h stored in dk.
    sponge_init(SHA3_512_RATE);
    for (var w = 0u; w < 8u; w++) {
        if decaps {
            sponge_absorb_word(item_work[s + IS_M + w]);
        } else {
            sponge_absorb_word(items[item * params.item_words + 1u + w]);
        }
    }
    for (var w = 0u; w < 8u; w++) {
        if decaps {
            sponge_absorb_word(keys[ek_at(key) + 96u * k + 8u + w]);
        } else {
            sponge_absorb_word(key_work[key_scalar(key) + KS_H + w]);
        }
    }
    sponge_pad(SHA3_PAD);
    for (var w = 0u; w < 8u; w++) {
        let kw = sponge_squeeze_word();
        if decaps {
            item_work[s + IS_K + w] = kw;
        } else {
            outw[item * params.out_words + params.out_words - 8u + w] = kw;
        }
    }
    for (var w = 0u; w < 8u; w++) {
        item_work[s + IS_R + w] = sponge_squeeze_word();
    }
    if decaps {
        // K-bar = J(z || c).
        sponge_init(SHAKE256_RATE);
        for (var w = 0u; w < 8u; w++) {
            sponge_absorb_word(keys[ek_at(key) + 96u * k + 16u + w]);
        }
        let c_words = 8u * (params.du * k + params.dv);
        for (var w = 0u; w < c_words; w++) {
            sponge_absorb_word(items[item * params.item_words + 1u + w]);
        }
        sponge_pad(SHAKE_PAD);
        for (var w = 0u; w < 8u; w++) {
            item_work[s + IS_KBAR + w] = sponge_squeeze_word();
        }
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_noise(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let per = item_polys_each() - params.k;
    if t >= params.n * per {
        return;
    }
    let item = t / per;
    let p = t % per;
    if item_slot(item) == NO_KEY {
        return;
    }
    // y (N = 0..k, eta1, NTT domain), e1 (N = k..2k) and e2 (N = 2k), eta2 = 2.
    sponge_init(SHAKE256_RATE);
    for (var w = 0u; w < 8u; w++) {
        sponge_absorb_word(item_work[item_scalar(item) + IS_R + w]);
    }
    var a: array<u32, 256>;
    cbd(p, select(2u, params.eta1, p < params.k), &a);
    if p < params.k {
        ntt_forward(&a);
    }
    store_item_poly(item_poly(item, p), &a);
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_encrypt_rows(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let k = params.k;
    if t >= params.n * (k + 1u) {
        return;
    }
    let item = t / (k + 1u);
    let i = t % (k + 1u);
    let key = item_slot(item);
    if key == NO_KEY {
        return;
    }
    let decaps = params.mode == MODE_DECAPS;
    var w: array<u32, 256>;
    var f: array<u32, 256>;
    var g: array<u32, 256>;
    for (var j = 0u; j < k; j++) {
        // u_i takes column i of A (A-hat transposed); v takes t-hat.
        load_key_poly(key_poly(key, select(k * k + j, j * k + i, i < k)), &f);
        load_item_poly(item_poly(item, j), &g);
        mul_acc(&w, &f, &g);
    }
    ntt_inverse(&w);
    var d = params.du;
    if i < k {
        load_item_poly(item_poly(item, k + i), &g);
    } else {
        d = params.dv;
        load_item_poly(item_poly(item, 2u * k), &g);
        // + Decompress1(m): m given (encaps) or m' (decaps).
        for (var x = 0u; x < 256u; x++) {
            var mw: u32;
            if decaps {
                mw = item_work[item_scalar(item) + IS_M + (x >> 5u)];
            } else {
                mw = items[item * params.item_words + 1u + (x >> 5u)];
            }
            g[x] = ntt_add(g[x], ((mw >> (x & 31u)) & 1u) * ((NTT_Q + 1u) / 2u));
        }
    }
    for (var x = 0u; x < 256u; x++) {
        w[x] = compress(ntt_add(w[x], g[x]), d);
    }
    var packed: array<u32, 96>;
    encode_row(&w, d, &packed);
    // Row i's words of c: u rows of 8 du words, then v.
    let at = 8u * params.du * i;
    var differs = 0u;
    for (var x = 0u; x < 8u * d; x++) {
        if decaps {
            differs |= u32(packed[x] != items[item * params.item_words + 1u + at + x]);
        } else {
            outw[item * params.out_words + at + x] = packed[x];
        }
    }
    if decaps {
        item_work[item_scalar(item) + IS_DIFF + i] = differs;
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn kem_final(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    let key = item_slot(item);
    var code = 3u;
    if key != NO_KEY {
        let ks = key_scalar(key);
        var row_bad = 0u;
        for (var i = 0u; i < params.k; i++) {
            row_bad |= key_work[ks + KS_ROW_BAD + i];
        }
        code = select(select(0u, 2u, key_work[ks + KS_HASH_BAD] != 0u), 1u, row_bad != 0u);
        if params.mode == MODE_DECAPS {
            // Implicit rejection: K' when c re-encrypts to itself, else K-bar.
            let s = item_scalar(item);
            var differs = 0u;
            for (var i = 0u; i <= params.k; i++) {
                differs |= item_work[s + IS_DIFF + i];
            }
            let chosen = select(IS_K, IS_KBAR, differs != 0u);
            for (var w = 0u; w < 8u; w++) {
                outw[item * params.out_words + w] = item_work[s + chosen + w];
            }
        }
    }
    if guard_loops() {
        atomicStore(&status[item], DONE_FLAG | code);
    }
}
