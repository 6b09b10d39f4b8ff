// SLH-DSA verification (FIPS 205 algorithm 20, slh_verify_internal, from
// the digest on) in passes of two entry points (host: ops/slhdsa/gpu.rs),
// each item's progress counted in its working memory:
//
//   slhdsa_wide  a thread per (item, unit), units = max(k, len): at count
//                0 the FORS trees (algorithm 17, fors_pkFromSig: a tree's
//                leaf F(sk), then its a-node authentication path with H,
//                the root kept in the item's scratch), at count c >= 1 the
//                WOTS+ chains of layer c - 1 (algorithm 8, wots_pkFromSig:
//                the node below in base 16 with its checksum; at most 15 F
//                per chain), each chain's end kept in the scratch.
//   slhdsa_item  a thread per item: at count 0 PK_FORS = T_k(roots), at
//                count c >= 1 layer c - 1's T_len of the chain ends and its
//                XMSS tree's h'-node path (algorithm 11), the node kept;
//                then the count goes up. At the top layer (algorithm 12,
//                ht_verify) the node is compared with PK.root.
//
// The passes alternate, wide then item, d + 1 times. The host computed
// H_msg and split it into the FORS indices, idx_tree and idx_leaf; items
// it found malformed carry a skip word. Status per item: DONE_FLAG | 0
// valid, 2 equation, 3 skipped, written by the last pass; word n collects
// LOOPS_CUT_FLAG from every pass. Composed after the guard and one
// family's tweakable hashes (shake.wgsl or sha2.wgsl: th_setup, th_begin,
// th_word, th_end).

struct Params {
    // Items in the sub-batch.
    n: u32,
    // Words of a hash value: n / 4.
    nw: u32,
    k: u32,
    a: u32,
    d: u32,
    hp: u32,
    // WOTS+ chains: 2 n + 3.
    len: u32,
    // Threads per item of slhdsa_wide: max(k, len).
    units: u32,
    item_words: u32,
    state_words: u32,
    // SHA2 sets of categories 3 and 5: H and T_l are SHA-512's.
    wide: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
    pad3: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Per item: skip word, idx_tree (low, high), idx_leaf, the k FORS
// indices, PK.seed, PK.root, then the signature after R (little-endian
// words).
@group(0) @binding(1) var<storage, read> items: array<u32>;
// Per item (zeroed before the run): the count of item passes done, the
// node (8 words), then the FORS roots or the chain ends (n bytes each).
@group(0) @binding(2) var<storage, read_write> work: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;

// Address types (FIPS 205 section 4.2).
const WOTS_HASH: u32 = 0u;
const WOTS_PK: u32 = 1u;
const TREE: u32 = 2u;
const FORS_TREE: u32 = 3u;
const FORS_ROOTS: u32 = 4u;

// Which tweakable hash a th_begin starts.
const TH_F: u32 = 0u;
const TH_H: u32 = 1u;
const TH_T: u32 = 2u;

const NODE: u32 = 1u;
const SCRATCH: u32 = 9u;

var<private> pk_seed: array<u32, 8>;

fn guard_loops() -> bool {
    if loops_intact(params.loop_guard) {
        return true;
    }
    atomicOr(&status[params.n], LOOPS_CUT_FLAG);
    return false;
}

// n bytes at items[at].
fn load_value(at: u32) -> array<u32, 8> {
    var x: array<u32, 8>;
    for (var i = 0u; i < params.nw; i++) {
        x[i] = items[at + i];
    }
    return x;
}

// F(PK.seed, ADRS, x).
fn hash_f(adrs: array<u32, 8>, x: array<u32, 8>) -> array<u32, 8> {
    th_begin(adrs, TH_F);
    for (var i = 0u; i < params.nw; i++) {
        th_word(x[i]);
    }
    return th_end();
}

// One step up an authentication path: H(node || sibling) when bit `bit`
// of the leaf index is 0, else H(sibling || node); the sibling at
// items[at].
fn hash_h(adrs: array<u32, 8>, node: array<u32, 8>, at: u32, right: bool) -> array<u32, 8> {
    th_begin(adrs, TH_H);
    if right {
        for (var i = 0u; i < params.nw; i++) {
            th_word(items[at + i]);
        }
    }
    for (var i = 0u; i < params.nw; i++) {
        th_word(node[i]);
    }
    if !right {
        for (var i = 0u; i < params.nw; i++) {
            th_word(items[at + i]);
        }
    }
    return th_end();
}

// T_l of `count` values of n bytes in the item's scratch.
fn hash_t(adrs: array<u32, 8>, base: u32, count: u32) -> array<u32, 8> {
    th_begin(adrs, TH_T);
    for (var i = 0u; i < count * params.nw; i++) {
        th_word(work[base + SCRATCH + i]);
    }
    return th_end();
}

fn store_value(at: u32, x: array<u32, 8>) {
    for (var i = 0u; i < params.nw; i++) {
        work[at + i] = x[i];
    }
}

fn load_node(base: u32) -> array<u32, 8> {
    var x: array<u32, 8>;
    for (var i = 0u; i < params.nw; i++) {
        x[i] = work[base + NODE + i];
    }
    return x;
}

// idx_tree >> s, as (high, low) words (0 from s = 64 on).
fn tree_shifted(lo: u32, hi: u32, s: u32) -> vec2<u32> {
    let t = (u64(hi) << 32u) | u64(lo);
    if s >= 64u {
        return vec2<u32>(0u, 0u);
    }
    let v = t >> s;
    return vec2<u32>(u32(v >> 32u), u32(v & 0xfffffffflu));
}

// FORS tree t of the item at `ib`: its root into the scratch.
fn fors_tree(ib: u32, base: u32, t: u32) {
    let nw = params.nw;
    let tree = vec2<u32>(items[ib + 2u], items[ib + 1u]);
    let leaf = items[ib + 3u];
    let idx = items[ib + 4u + t];
    let at = ib + 4u + params.k + 2u * nw + t * (params.a + 1u) * nw;
    var index = (t << params.a) + idx;
    var adrs = array<u32, 8>(0u, 0u, tree.x, tree.y, FORS_TREE, leaf, 0u, index);
    var node = hash_f(adrs, load_value(at));
    for (var j = 0u; j < params.a; j++) {
        adrs[6] = j + 1u;
        index = index >> 1u;
        adrs[7] = index;
        node = hash_h(adrs, node, at + (j + 1u) * nw, ((idx >> j) & 1u) == 1u);
    }
    store_value(base + SCRATCH + t * nw, node);
}

// Digit i of the WOTS+ message (the node's 2n base-16 digits, most
// significant first in each byte, then the three of the checksum).
fn wots_digit(node: array<u32, 8>, i: u32) -> u32 {
    let two_n = 8u * params.nw;
    if i < two_n {
        return wots_digit_of(node, i);
    }
    var csum = 0u;
    for (var j = 0u; j < two_n; j++) {
        csum += 15u - wots_digit_of(node, j);
    }
    // toByte(csum << 4, 2) in base 16: csum's three digits.
    return (csum >> (4u * (two_n + 2u - i))) & 15u;
}

// A message digit (i < 2n) alone.
fn wots_digit_of(node: array<u32, 8>, i: u32) -> u32 {
    let byte = (node[i >> 3u] >> (((i >> 1u) & 3u) * 8u)) & 0xffu;
    return select(byte >> 4u, byte & 15u, (i & 1u) == 1u);
}

// idx_tree and idx_leaf of `layer` as (tree high, tree low, leaf).
fn layer_address(ib: u32, layer: u32) -> vec3<u32> {
    let lo = items[ib + 1u];
    let hi = items[ib + 2u];
    let tree = tree_shifted(lo, hi, layer * params.hp);
    var leaf = items[ib + 3u];
    if layer > 0u {
        leaf = tree_shifted(lo, hi, (layer - 1u) * params.hp).y & ((1u << params.hp) - 1u);
    }
    return vec3<u32>(tree, leaf);
}

// The item's signature of `layer` (its WOTS+ signature, then its path).
fn xmss_at(ib: u32, layer: u32) -> u32 {
    let nw = params.nw;
    return ib + 4u + params.k + 2u * nw + (params.k * (params.a + 1u) + layer * (params.len + params.hp)) * nw;
}

// WOTS+ chain i of `layer`: its end into the scratch.
fn chain(ib: u32, base: u32, layer: u32, i: u32) {
    let nw = params.nw;
    let at = layer_address(ib, layer);
    let xmss = xmss_at(ib, layer);
    var adrs = array<u32, 8>(layer, 0u, at.x, at.y, WOTS_HASH, at.z, i, 0u);
    var x = load_value(xmss + i * nw);
    for (var j = wots_digit(load_node(base), i); j < 15u; j++) {
        adrs[7] = j;
        x = hash_f(adrs, x);
    }
    store_value(base + SCRATCH + i * nw, x);
}

// Layer `layer`'s public key from the chain ends, then up its XMSS tree:
// the node kept. Returns whether it is PK.root (meaningful at the top).
fn layer_top(ib: u32, base: u32, layer: u32) -> bool {
    let nw = params.nw;
    let at = layer_address(ib, layer);
    let xmss = xmss_at(ib, layer);
    let pk_adrs = array<u32, 8>(layer, 0u, at.x, at.y, WOTS_PK, at.z, 0u, 0u);
    var top = hash_t(pk_adrs, base, params.len);
    var adrs = array<u32, 8>(layer, 0u, at.x, at.y, TREE, 0u, 0u, at.z);
    var index = at.z;
    for (var j = 0u; j < params.hp; j++) {
        adrs[6] = j + 1u;
        index = index >> 1u;
        adrs[7] = index;
        top = hash_h(adrs, top, xmss + (params.len + j) * nw, ((at.z >> j) & 1u) == 1u);
    }
    store_value(base + NODE, top);
    var same = true;
    for (var w = 0u; w < nw; w++) {
        same = same && top[w] == items[ib + 4u + params.k + nw + w];
    }
    return same;
}

fn load_seed(ib: u32) {
    for (var i = 0u; i < params.nw; i++) {
        pk_seed[i] = items[ib + 4u + params.k + i];
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn slhdsa_wide(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let t = item_index(gid, groups);
    let item = t / params.units;
    let unit = t % params.units;
    if item >= params.n {
        return;
    }
    let ib = item * params.item_words;
    let base = item * params.state_words;
    let count = work[base];
    if items[ib] == 0u && unit < select(params.len, params.k, count == 0u) {
        load_seed(ib);
        if count == 0u {
            th_setup(true);
            fors_tree(ib, base, unit);
        } else {
            th_setup(false);
            chain(ib, base, count - 1u, unit);
        }
    }
    _ = guard_loops();
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn slhdsa_item(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let item = item_index(gid, groups);
    if item >= params.n {
        return;
    }
    let ib = item * params.item_words;
    let base = item * params.state_words;
    let count = work[base];
    work[base] = count + 1u;
    var code = 3u;
    if items[ib] == 0u {
        load_seed(ib);
        th_setup(true);
        if count == 0u {
            let leaf = items[ib + 3u];
            let adrs = array<u32, 8>(0u, 0u, items[ib + 2u], items[ib + 1u], FORS_ROOTS, leaf, 0u, 0u);
            store_value(base + NODE, hash_t(adrs, base, params.k));
        } else {
            code = select(2u, 0u, layer_top(ib, base, count - 1u));
        }
    }
    if guard_loops() && count == params.d {
        atomicStore(&status[item], DONE_FLAG | code);
    }
}
