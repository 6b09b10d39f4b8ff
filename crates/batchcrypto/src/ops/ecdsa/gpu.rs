//! Host side of the ECDSA kernel (`ecdsa.wgsl`): the curve constants
//! (moduli, Montgomery parameters, exponents) derived once here from the
//! curves' published parameters, items packed as little-endian limbs, one
//! thread per item. The range, v and low-s rules are applied here; the
//! kernel's flags (key or R decoded, equation holds or Q finite) complete
//! the verdicts in the documented order.

use std::sync::{Arc, OnceLock};

use rayon::prelude::*;

use super::{
    K1VerifyItem, P256_N, P256Item, RecoverItem, Recovered, SECP256K1_N, in_range, k1_scalar_checks, recovery_id,
};
use crate::batch::FlatBytes;
use crate::gpu::Gpu;
use crate::gpu::bigint::{self, add_small, from_be, from_hex, mont_form, sub, to_be, wgsl_const};
use crate::gpu::curve::weierstrass_wgsl;
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::shaders::{self, CurveShape};
use crate::ops::hash::gpu::{flat_inputs, pack_flat};
use crate::verdict::{Reason, Verdict};

const MAX_ITEMS: usize = 1 << 18;
pub(crate) const ITEM_WORDS: usize = 41;
/// Output words per item of `ecdsa_recover` (status, x, y, and the
/// address: the last 20 bytes of keccak256(x || y)).
const RECOVER_OUT_WORDS: usize = 22;
/// Output words per item of `ecdsa_verify`: the status word alone.
const VERIFY_OUT_WORDS: usize = 1;

/// A 256-bit integer as eight u32 limbs, least significant first.
type Limbs = bigint::Limbs<8>;

fn hex32(s: &str) -> [u8; 32] {
    let mut b = [0u8; 32];
    b.copy_from_slice(&to_be::<8>(&from_hex::<8>(s)));
    b
}

/// The GLV endomorphism of a curve with a = 0 (phi(x, y) = (beta x, y) =
/// lambda (x, y)) and the constants that split a scalar k into k1 + k2
/// lambda with |k1|, |k2| < 2^128: c1 = round(k g1 / 2^384), c2 =
/// round(k g2 / 2^384), k2 = c1 (-b1) + c2 (-b2), k1 = k - k2 lambda (mod
/// n), big-endian.
struct Endomorphism {
    beta: [u8; 32],
    lambda: [u8; 32],
    g1: [u8; 32],
    g2: [u8; 32],
    minus_b1: [u8; 32],
    minus_b2: [u8; 32],
}

/// secp256k1's endomorphism, with the constants libsecp256k1 uses
/// (`secp256k1_scalar_split_lambda`; Guide to Elliptic Curve Cryptography,
/// section 3.5). Tests check beta and lambda against the oracle.
fn secp256k1_endomorphism() -> Endomorphism {
    Endomorphism {
        beta: hex32("7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee"),
        lambda: hex32("5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72"),
        g1: hex32("3086d221a7d46bcde86c90e49284eb153daa8a1471e8ca7fe893209a45dbb031"),
        g2: hex32("e4437ed6010e88286f547fa90abfe4c4221208ac9df506c61571b4ae8ac47f71"),
        minus_b1: hex32("00000000000000000000000000000000e4437ed6010e88286f547fa90abfe4c3"),
        minus_b2: hex32("fffffffffffffffffffffffffffffffe8a280ac50774346dd765cda83db1562c"),
    }
}

/// A short-Weierstrass curve as the kernel takes it: its published
/// parameters, from which every constant the kernel needs is derived here.
struct CurveParams {
    p: Limbs,
    n: Limbs,
    a: Limbs,
    b: Limbs,
    /// The fixed-base table's points j 2^(8w) G, w = 0..31, j = 1..255 in
    /// that order, uncompressed SEC 1, computed by the oracle crate.
    g_multiples: fn() -> Vec<[u8; 65]>,
    /// Pipeline-cache and table key.
    name: &'static str,
    shape: CurveShape,
    endomorphism: Option<Endomorphism>,
}

/// The curve's constants as WGSL (names and forms in ecdsa.wgsl), composed
/// into its kernel: compile-time constants let the driver fold them into
/// the arithmetic (P-256's modulus has limbs 0 and 1).
fn curve_wgsl(c: &CurveParams) -> String {
    // The item and output layouts the host packs and reads, then the curve.
    let mut src = format!(
        "const ITEM_WORDS: u32 = {ITEM_WORDS}u;\nconst VERIFY_OUT_WORDS: u32 = {VERIFY_OUT_WORDS}u;\nconst RECOVER_OUT_WORDS: u32 = {RECOVER_OUT_WORDS}u;\n"
    ) + &weierstrass_wgsl(&c.p, &c.n, &c.a, &c.b);
    // Endomorphism: beta R mod p, lambda R, -b1 R, -b2 R mod n (Montgomery
    // forms), g1, g2 plain; zeros for a curve without one.
    let zero = [0u32; 8];
    let endo = c.endomorphism.as_ref();
    let field = |f: fn(&Endomorphism) -> &[u8; 32], m: Option<&Limbs>| {
        endo.map_or(zero, |e| {
            let x = from_be::<8>(f(e));
            m.map_or(x, |m| mont_form(&x, m))
        })
    };
    src += &wgsl_const("CURVE_BETA", &field(|e| &e.beta, Some(&c.p)));
    src += &wgsl_const("CURVE_LAMBDA", &field(|e| &e.lambda, Some(&c.n)));
    src += &wgsl_const("CURVE_MINUS_B1", &field(|e| &e.minus_b1, Some(&c.n)));
    src += &wgsl_const("CURVE_MINUS_B2", &field(|e| &e.minus_b2, Some(&c.n)));
    src += &wgsl_const("CURVE_G1", &field(|e| &e.g1, None));
    src += &wgsl_const("CURVE_G2", &field(|e| &e.g2, None));
    src
}

/// The two curves: secp256k1 (index 0), then P-256 (index 1).
fn curves() -> &'static [CurveParams; 2] {
    static CURVES: OnceLock<[CurveParams; 2]> = OnceLock::new();
    CURVES.get_or_init(|| {
        let k1 = CurveParams {
            p: from_be::<8>(&hex32(
                "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
            )),
            n: from_be::<8>(&SECP256K1_N),
            a: [0; 8],
            b: add_small(&[0; 8], 7),
            g_multiples: secp256k1_g_multiples,
            name: "secp256k1",
            shape: CurveShape::AZeroGlv,
            endomorphism: Some(secp256k1_endomorphism()),
        };
        let r1_p = from_be::<8>(&hex32(
            "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        ));
        let r1 = CurveParams {
            p: r1_p,
            n: from_be::<8>(&P256_N),
            a: sub(&r1_p, &add_small(&[0; 8], 3)).0,
            b: from_be::<8>(&hex32(
                "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b",
            )),
            g_multiples: p256_g_multiples,
            name: "p256",
            shape: CurveShape::AMinus3,
            endomorphism: None,
        };
        [k1, r1]
    })
}

/// Windows of the fixed-base table: 32 of 8 bits.
const G_WINDOWS: usize = 32;

/// 2^(8w) as a big-endian scalar (w < 32).
fn pow256(w: usize) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[31 - w] = 1;
    s
}

/// secp256k1's table points with libsecp256k1: each window's base from
/// the secret key 2^(8w), its multiples by repeated addition.
fn secp256k1_g_multiples() -> Vec<[u8; 65]> {
    let mut points = Vec::with_capacity(G_WINDOWS * 255);
    for w in 0..G_WINDOWS {
        let base = secp256k1::PublicKey::from_secret_key(
            &secp256k1::SecretKey::from_secret_bytes(pow256(w)).expect("2^(8w) < n"),
        );
        let mut point = base;
        for j in 1..=255 {
            points.push(point.serialize_uncompressed());
            if j < 255 {
                point = point.combine(&base).expect("j 2^(8w) G is never infinity for j < n");
            }
        }
    }
    points
}

/// P-256's table points with the p256 crate.
fn p256_g_multiples() -> Vec<[u8; 65]> {
    use p256::elliptic_curve::sec1::ToSec1Point;
    let mut points = Vec::with_capacity(G_WINDOWS * 255);
    // 2^(8w) G by doubling.
    let mut base = p256::ProjectivePoint::GENERATOR;
    for w in 0..G_WINDOWS {
        if w > 0 {
            for _ in 0..8 {
                base = base + base;
            }
        }
        let mut point = base;
        for _ in 1..=255 {
            let mut encoded = [0u8; 65];
            encoded.copy_from_slice(point.to_sec1_point(false).as_bytes());
            points.push(encoded);
            point += base;
        }
    }
    points
}

/// The curve's fixed-base table as the kernel reads it (layout in
/// ecdsa.wgsl): 16 words per point, coordinates in Montgomery form, the
/// unused j = 0 entries zero.
fn g_table_words(c: &CurveParams) -> Vec<u32> {
    let multiples = (c.g_multiples)();
    let mut words = vec![0u32; G_WINDOWS * 256 * 16];
    words
        .par_chunks_mut(256 * 16)
        .zip(multiples.par_chunks(255))
        .for_each(|(window, points)| {
            for (j, point) in points.iter().enumerate() {
                let at = (j + 1) * 16;
                let x = from_be::<8>(&point[1..33]);
                let y = from_be::<8>(&point[33..65]);
                window[at..at + 8].copy_from_slice(&mont_form(&x, &c.p));
                window[at + 8..at + 16].copy_from_slice(&mont_form(&y, &c.p));
            }
        });
    words
}

/// The device-resident fixed-base table of `c`, made once per device.
fn g_table(gpu: &Gpu, c: &CurveParams) -> wgpu::Buffer {
    let mut tables = gpu.tables.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(t) = tables.get(c.name) {
        return t.clone();
    }
    let words = g_table_words(c);
    let table = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(c.name),
        size: (words.len() * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    gpu.queue.write_buffer(&table, 0, bytemuck::cast_slice(&words));
    tables.insert(c.name, table.clone());
    table
}

/// One packed item (ITEM_WORDS words): z r s x y kind.
pub(crate) fn pack(
    words: &mut [u32; ITEM_WORDS],
    z: &[u8; 32],
    r: &[u8],
    s: &[u8],
    x: &[u8; 32],
    y: &[u8; 32],
    kind: u32,
) {
    words[..8].copy_from_slice(&from_be::<8>(z));
    words[8..16].copy_from_slice(&from_be::<8>(r));
    words[16..24].copy_from_slice(&from_be::<8>(s));
    words[24..32].copy_from_slice(&from_be::<8>(x));
    words[32..40].copy_from_slice(&from_be::<8>(y));
    words[40] = kind;
}

/// The kernel's entry points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entry {
    /// `ecdsa_verify`: the status word alone.
    Verify,
    /// `ecdsa_recover`: status, x, y, address.
    Recover,
    /// `bip340_verify` (secp256k1 only): the status word alone.
    Bip340,
}

/// The pipeline of `entry` for `curve` (0: secp256k1, 1: P-256): one per
/// (entry point, curve), each holding one scalar multiplication.
fn pipeline(gpu: &Gpu, entry: Entry, curve: u32) -> Result<Arc<wgpu::ComputePipeline>, String> {
    gpu.require_int64("ECDSA")?;
    let (key, name) = match (entry, curve) {
        (Entry::Verify, 0) => ("ecdsa_verify_secp256k1", "ecdsa_verify"),
        (Entry::Verify, _) => ("ecdsa_verify_p256", "ecdsa_verify"),
        (Entry::Recover, 0) => ("ecdsa_recover_secp256k1", "ecdsa_recover"),
        (Entry::Recover, _) => ("ecdsa_recover_p256", "ecdsa_recover"),
        (Entry::Bip340, _) => ("bip340_secp256k1", "bip340_verify"),
    };
    gpu.pipeline(key, name, || kernel_source(curve))
}

/// The constants of `curve` (0: secp256k1, 1: P-256) as WGSL, for kernels
/// that use its field (the field-multiplication bench).
pub(crate) fn curve_constants_wgsl(curve: u32) -> String {
    curve_wgsl(&curves()[curve.min(1) as usize])
}

/// The kernel of `curve` (0: secp256k1, 1: P-256), both entry points.
pub(crate) fn kernel_source(curve: u32) -> String {
    let c = &curves()[curve.min(1) as usize];
    shaders::ecdsa(c.shape, &curve_wgsl(c))
}

/// Items of one entry point and curve for the driver: `fill` packs an
/// item's words (on all cores), `finish` turns an item and its output
/// words (status first) into its answer.
pub(crate) struct EcdsaKernel<'a, T, F, G> {
    pipeline: Arc<wgpu::ComputePipeline>,
    table: wgpu::Buffer,
    entry: Entry,
    curve: u32,
    items: &'a [T],
    fill: F,
    finish: G,
    /// BIP-340's messages, uploaded flat beside the items (bindings 4, 5).
    msgs: Option<&'a FlatBytes>,
}

impl<'a, T, R, F, G> EcdsaKernel<'a, T, F, G>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &T) -> [u32; ITEM_WORDS] + Sync,
    G: Fn(usize, &T, &[u32]) -> R + Sync,
{
    pub(crate) fn new(gpu: &Gpu, entry: Entry, curve: u32, items: &'a [T], fill: F, finish: G) -> Result<Self, String> {
        Ok(EcdsaKernel {
            pipeline: pipeline(gpu, entry, curve)?,
            table: g_table(gpu, &curves()[curve.min(1) as usize]),
            entry,
            curve,
            items,
            fill,
            finish,
            msgs: None,
        })
    }

    /// The same kernel with each item's message uploaded too.
    pub(crate) fn with_msgs(self, msgs: &'a FlatBytes) -> Self {
        EcdsaKernel {
            msgs: Some(msgs),
            ..self
        }
    }

    /// Output words per item.
    fn out_words(&self) -> usize {
        match self.entry {
            Entry::Verify | Entry::Bip340 => VERIFY_OUT_WORDS,
            Entry::Recover => RECOVER_OUT_WORDS,
        }
    }
}

impl<T, R, F, G> Kernel for EcdsaKernel<'_, T, F, G>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &T) -> [u32; ITEM_WORDS] + Sync,
    G: Fn(usize, &T, &[u32]) -> R + Sync,
{
    type Out = R;

    fn name(&self) -> &'static str {
        "ecdsa"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.items.len()
    }

    fn max_units(&self) -> usize {
        MAX_ITEMS
    }

    fn end(&self, gpu: &Gpu, start: usize, max: usize) -> Result<usize, String> {
        match self.msgs {
            Some(msgs) => gpu.sub_batch_end(msgs, start, max),
            None => Ok((start + max).min(self.items.len())),
        }
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let mut inputs = vec![Input::uniform(16), Input::storage((end - start) * ITEM_WORDS * 4)];
        if let Some(msgs) = self.msgs {
            inputs.extend(flat_inputs(msgs, start, end));
        }
        inputs
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let mut dst = dst.into_iter();
        let (Some(params), Some(items)) = (dst.next(), dst.next()) else {
            unreachable!("two inputs or more, as declared");
        };
        if let (Some(msgs), Some(bytes), Some(offsets)) = (self.msgs, dst.next(), dst.next()) {
            pack_flat(msgs, start, end, bytes, offsets);
        }
        let entry = match self.entry {
            Entry::Verify => 0,
            Entry::Recover => 1,
            Entry::Bip340 => 2,
        };
        driver::params(params, [(end - start) as u32, entry, self.curve, shaders::LOOP_GUARD]);
        driver::par_fill(items, &self.items[start..end], |i, item| {
            let mut bytes = [0u8; ITEM_WORDS * 4];
            for (d, w) in bytes.chunks_exact_mut(4).zip((self.fill)(start + i, item)) {
                d.copy_from_slice(&w.to_le_bytes());
            }
            bytes
        });
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * self.out_words() * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        // Bindings 0-1 the items, 2 the fixed-base table, 3 the output, 4-5
        // the messages (BIP-340).
        let (items, msgs) = inputs.split_at(2);
        driver::one_pass(
            gpu,
            &self.pipeline,
            "ecdsa",
            items.iter().chain([&self.table, out]).chain(msgs),
            end - start,
        )
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], answers: &mut Vec<R>) -> Result<(), String> {
        let per_item = self.out_words() * 4;
        let decoded: Vec<Result<R, String>> = out
            .par_chunks_exact(per_item)
            .zip(self.items[start..end].par_iter())
            .enumerate()
            .map(|(i, (bytes, item))| {
                let words: Vec<u32> = bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                crate::gpu::check_done(words[0], start + i, "a result")?;
                Ok((self.finish)(start + i, item, &words))
            })
            .collect();
        for answer in decoded {
            answers.push(answer?);
        }
        Ok(())
    }
}

/// A secp256k1 key for the kernel: its form (the item's kind word), x, y.
type KernelKey = (u32, [u8; 32], [u8; 32]);

/// The key form of a secp256k1 key for the kernel, with its x and y; `None`
/// when libsecp256k1's parser rejects the prefix or length outright.
fn k1_key(pk: &[u8]) -> Option<KernelKey> {
    let mut x = [0u8; 32];
    let mut y = [0u8; 32];
    match (pk.len(), pk[0]) {
        (33, 2 | 3) => {
            x.copy_from_slice(&pk[1..]);
            Some((u32::from(pk[0]) - 1, x, y))
        }
        (65, 4 | 6 | 7) => {
            x.copy_from_slice(&pk[1..33]);
            y.copy_from_slice(&pk[33..]);
            Some((if pk[0] == 4 { 0 } else { u32::from(pk[0]) - 3 }, x, y))
        }
        _ => None,
    }
}

/// The `secp256k1_verify` kernel over `items`: the same verdicts and
/// reasons as the CPU path. `keys` holds each item's key form.
fn secp256k1_kernel<'a>(
    gpu: &Gpu,
    items: &'a [K1VerifyItem],
    keys: &'a [Option<KernelKey>],
    low_s: bool,
) -> Result<impl Kernel<Out = Verdict> + 'a, String> {
    EcdsaKernel::new(
        gpu,
        Entry::Verify,
        0,
        items,
        move |i, item: &K1VerifyItem| {
            let (kind, x, y) = keys[i].unwrap_or((0, [0; 32], [0; 32]));
            let mut w = [0u32; ITEM_WORDS];
            pack(&mut w, &item.hash, &item.sig[..32], &item.sig[32..], &x, &y, kind);
            w
        },
        move |i, item: &K1VerifyItem, out: &[u32]| {
            let verdict = (|| {
                if keys[i].is_none() || out[0] & 1 == 0 {
                    return Err(Reason::MalformedKey);
                }
                k1_scalar_checks(&item.sig, low_s)?;
                if out[0] & 2 == 0 {
                    return Err(Reason::Equation);
                }
                Ok(())
            })();
            verdict.map_or_else(Verdict::Invalid, |()| Verdict::Valid)
        },
    )
}

/// Each item's key form for the kernel (`None`: the prefix or length is
/// rejected outright).
pub(crate) fn secp256k1_keys(items: &[K1VerifyItem]) -> Vec<Option<KernelKey>> {
    items.par_iter().map(|i| k1_key(i.pk.as_bytes())).collect()
}

/// The `ecrecover` kernel over `items`: the same results as the CPU path.
fn ecrecover_kernel<'a>(
    gpu: &Gpu,
    items: &'a [RecoverItem],
    low_s: bool,
) -> Result<impl Kernel<Out = Result<Recovered, Reason>> + 'a, String> {
    EcdsaKernel::new(
        gpu,
        Entry::Recover,
        0,
        items,
        |_, item: &RecoverItem| {
            let recid = recovery_id(item.sig[64]).unwrap_or(0);
            let r: [u8; 32] = item.sig[..32].try_into().unwrap_or([0; 32]);
            let mut w = [0u32; ITEM_WORDS];
            pack(
                &mut w,
                &item.hash,
                &r,
                &item.sig[32..64],
                &r,
                &[0; 32],
                u32::from(recid),
            );
            w
        },
        move |_, item: &RecoverItem, w: &[u32]| {
            recovery_id(item.sig[64]).ok_or(Reason::BadV)?;
            k1_scalar_checks(&item.sig, low_s)?;
            if w[0] & 3 != 3 {
                return Err(Reason::RecoveryFailed);
            }
            let mut pubkey = [0u8; 64];
            pubkey[..32].copy_from_slice(&to_be::<8>(&w[1..9]));
            pubkey[32..].copy_from_slice(&to_be::<8>(&w[9..17]));
            // The address as five little-endian words.
            let mut address = [0u8; 20];
            for (k, v) in w[17..22].iter().enumerate() {
                address[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
            }
            Ok(Recovered { address, pubkey })
        },
    )
}

/// The `p256_verify` kernel over `items`: the same verdicts and reasons as
/// the CPU path.
fn p256_kernel<'a>(gpu: &Gpu, items: &'a [P256Item]) -> Result<impl Kernel<Out = Verdict> + 'a, String> {
    EcdsaKernel::new(
        gpu,
        Entry::Verify,
        1,
        items,
        |_, item: &P256Item| {
            let mut w = [0u32; ITEM_WORDS];
            pack(&mut w, &item.hash, &item.r, &item.s, &item.x, &item.y, 0);
            w
        },
        |_, item: &P256Item, out: &[u32]| {
            if !in_range(&item.r, &P256_N) {
                return Verdict::Invalid(Reason::ROutOfRange);
            }
            if !in_range(&item.s, &P256_N) {
                return Verdict::Invalid(Reason::SOutOfRange);
            }
            if out[0] & 1 == 0 {
                return Verdict::Invalid(Reason::NotOnCurve);
            }
            if out[0] & 2 == 0 {
                return Verdict::Invalid(Reason::Equation);
            }
            Verdict::Valid
        },
    )
}

/// `secp256k1_verify` on the GPU.
pub(crate) fn secp256k1_verify(gpu: &Gpu, items: &[K1VerifyItem], low_s: bool) -> Streamed<Verdict> {
    let keys = secp256k1_keys(items);
    driver::run(
        gpu,
        &secp256k1_kernel(gpu, items, &keys, low_s).map_err(Failure::at_start)?,
    )
}

/// `ecrecover` on the GPU.
pub(crate) fn ecrecover(gpu: &Gpu, items: &[RecoverItem], low_s: bool) -> Streamed<Result<Recovered, Reason>> {
    driver::run(gpu, &ecrecover_kernel(gpu, items, low_s).map_err(Failure::at_start)?)
}

/// `p256_verify` on the GPU.
pub(crate) fn p256_verify(gpu: &Gpu, items: &[P256Item]) -> Streamed<Verdict> {
    driver::run(gpu, &p256_kernel(gpu, items).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs of `secp256k1_verify` (see
/// [`driver::time`]).
pub(crate) fn secp256k1_kernel_times(gpu: &Gpu, items: &[K1VerifyItem], runs: usize) -> Result<Vec<f64>, String> {
    let keys = secp256k1_keys(items);
    driver::time(gpu, &secp256k1_kernel(gpu, items, &keys, false)?, runs)
}

/// Kernel-only times (seconds) of `runs` runs of `ecrecover`.
pub(crate) fn ecrecover_kernel_times(gpu: &Gpu, items: &[RecoverItem], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &ecrecover_kernel(gpu, items, false)?, runs)
}

/// Kernel-only times (seconds) of `runs` runs of `p256_verify`.
pub(crate) fn p256_kernel_times(gpu: &Gpu, items: &[P256Item], runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &p256_kernel(gpu, items)?, runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::bigint::mul_mod;

    /// The endomorphism constants agree with libsecp256k1's arithmetic:
    /// lambda P = (beta x, y) for G and another point, and lambda^3 = 1 mod n.
    #[test]
    fn secp256k1_endomorphism_matches_the_oracle() {
        let e = secp256k1_endomorphism();
        let p = from_be::<8>(&hex32(
            "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
        ));
        let n = from_be::<8>(&SECP256K1_N);
        let lambda = from_be::<8>(&e.lambda);
        let one = add_small(&[0; 8], 1);
        assert_eq!(mul_mod(&mul_mod(&lambda, &lambda, &n), &lambda, &n), one);
        let tweak = secp256k1::Scalar::from_be_bytes(e.lambda).expect("lambda < n");
        for secret in [
            pow256(0),
            hex32("0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a090807060504030201000"),
        ] {
            let key = secp256k1::SecretKey::from_secret_bytes(secret).expect("key");
            let point = secp256k1::PublicKey::from_secret_key(&key);
            let phi = point.mul_tweak(&tweak).expect("tweak").serialize_uncompressed();
            let xy = point.serialize_uncompressed();
            let x = from_be::<8>(xy[1..33].try_into().expect("32 bytes"));
            assert_eq!(to_be::<8>(&mul_mod(&from_be::<8>(&e.beta), &x, &p)), phi[1..33]);
            assert_eq!(xy[33..65], phi[33..65]);
        }
    }

    /// Spot checks of the fixed-base tables against a scalar multiplication
    /// by each oracle crate: entry (w, j) is j 2^(8w) G.
    #[test]
    fn fixed_base_tables_match_the_oracles() {
        let k1 = secp256k1_g_multiples();
        let r1 = p256_g_multiples();
        assert_eq!((k1.len(), r1.len()), (G_WINDOWS * 255, G_WINDOWS * 255));
        for (w, j) in [(0usize, 1u8), (0, 255), (5, 17), (31, 1), (31, 255)] {
            let mut scalar = [0u8; 32];
            scalar[31 - w] = j;
            let key = secp256k1::SecretKey::from_secret_bytes(scalar).expect("scalar < n");
            let expected = secp256k1::PublicKey::from_secret_key(&key).serialize_uncompressed();
            assert_eq!(k1[w * 255 + usize::from(j) - 1], expected, "secp256k1 w={w} j={j}");
            use p256::elliptic_curve::sec1::ToSec1Point;
            let mut s = p256::Scalar::from(u64::from(j));
            for _ in 0..8 * w {
                s = s + s;
            }
            let point = (p256::ProjectivePoint::GENERATOR * s).to_sec1_point(false);
            assert_eq!(
                r1[w * 255 + usize::from(j) - 1][..],
                point.as_bytes()[..],
                "p256 w={w} j={j}"
            );
        }
    }
}
