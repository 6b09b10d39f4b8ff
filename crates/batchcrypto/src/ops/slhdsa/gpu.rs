//! Host side of SLH-DSA verification on the GPU (`verify.wgsl` over
//! `shake.wgsl` or `sha2.wgsl`) for the driver.
//!
//! The host makes the length and context checks ([`super::decode_reason`])
//! and, on all cores, computes each item's digest H_msg(R, PK.seed,
//! PK.root, M') with M' = 0 || |ctx| || ctx || M (one hash of the message,
//! against the thousands of hashes the device makes) and splits it into
//! the FORS indices, idx_tree and idx_leaf (FIPS 205 algorithms 4 and 20);
//! it uploads those, the key and the signature after R. The device runs
//! the FORS trees, then the d layers of the hypertree, in passes of two
//! entry points (see verify.wgsl): a thread per (item, FORS tree) or
//! (item, WOTS+ chain), then a thread per item for what joins them (T_k;
//! a layer's T_len and XMSS path), so that a sub-batch of a few thousand
//! items fills a large GPU and no invocation nears llvmpipe's loop limit.
//! One status word per item comes back, and one word where any pass
//! reports loops cut short.

use std::sync::Arc;

use rayon::prelude::*;
use sha2::{Digest, Sha256, Sha512};
use shake::{ExtendableOutput, Shake256, Update, XofReader};

use super::{Batch, Params, Set, decode_reason};
use crate::gpu::driver::{self, Dst, Failure, Input, Kernel, Streamed};
use crate::gpu::{Gpu, shaders};
use crate::verdict::{Reason, Verdict};

/// Most items per sub-batch.
const MAX_ITEMS: usize = 16_384;

/// Most bytes of the items' uploads per sub-batch, under every adapter's
/// storage binding limit (an SLH-DSA-SHA2-256f signature is 49,856 bytes:
/// 1,346 items).
const ITEM_BYTES: u64 = 64 << 20;

/// The entry points: a thread per (item, tree or chain), a thread per item.
const ENTRIES: [&str; 2] = ["slhdsa_wide", "slhdsa_item"];

/// Verifies every item of `batch` in `set` on the GPU: the CPU path's
/// verdicts.
pub(crate) fn verify(gpu: &Gpu, set: Set, batch: &Batch) -> Streamed<Verdict> {
    driver::run(gpu, &SlhdsaKernel::new(gpu, set, batch).map_err(Failure::at_start)?)
}

/// Kernel-only times (seconds) of `runs` runs over `batch` (see
/// [`driver::time`]).
pub(crate) fn kernel_times(gpu: &Gpu, set: Set, batch: &Batch, runs: usize) -> Result<Vec<f64>, String> {
    driver::time(gpu, &SlhdsaKernel::new(gpu, set, batch)?, runs)
}

/// H_msg(R, PK.seed, PK.root, M) of FIPS 205 (sections 11.1 and 11.2) with
/// M given in `parts`, `m` bytes: SHAKE256 in the SHAKE sets, else
/// MGF1 over SHA-256 (category 1) or SHA-512 of R || PK.seed || the hash
/// of R || PK.seed || PK.root || M.
fn h_msg(p: &Params, r: &[u8], pk: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let mut out = vec![0u8; p.m];
    if p.shake {
        let mut x = Shake256::default();
        for part in [r, pk].iter().chain(parts) {
            x.update(part);
        }
        x.finalize_xof().read(&mut out);
        return out;
    }
    let seed = &pk[..p.n];
    if p.n == 16 {
        mgf1::<Sha256>(r, seed, pk, parts, &mut out);
    } else {
        mgf1::<Sha512>(r, seed, pk, parts, &mut out);
    }
    out
}

/// MGF1-H(R || PK.seed || H(R || PK.seed || PK.root || M)) into `out`.
fn mgf1<H: Digest>(r: &[u8], seed: &[u8], pk: &[u8], parts: &[&[u8]], out: &mut [u8]) {
    let mut inner = H::new();
    Digest::update(&mut inner, r);
    Digest::update(&mut inner, pk);
    for part in parts {
        Digest::update(&mut inner, part);
    }
    let inner = inner.finalize();
    let size = <H as Digest>::output_size();
    for (counter, chunk) in out.chunks_mut(size).enumerate() {
        let mut h = H::new();
        Digest::update(&mut h, r);
        Digest::update(&mut h, seed);
        Digest::update(&mut h, &inner);
        Digest::update(&mut h, (counter as u32).to_be_bytes());
        chunk.copy_from_slice(&h.finalize()[..chunk.len()]);
    }
}

/// The digest's parts (FIPS 205 algorithm 20, lines 7-12): the k FORS
/// indices (base_2b of its first ceil(k a / 8) bytes, a bits each,
/// most significant first), idx_tree (h - h' bits) and idx_leaf (h' bits).
fn split_digest(p: &Params, digest: &[u8]) -> (Vec<u32>, u64, u32) {
    let md_len = (p.k * p.a).div_ceil(8);
    let tree_len = (p.h - p.hp).div_ceil(8);
    let leaf_len = p.hp.div_ceil(8);
    let mut indices = Vec::with_capacity(p.k);
    let (mut total, mut bits, mut at) = (0u64, 0usize, 0usize);
    for _ in 0..p.k {
        while bits < p.a {
            total = (total << 8) | u64::from(digest[at]);
            at += 1;
            bits += 8;
        }
        bits -= p.a;
        indices.push(((total >> bits) & ((1 << p.a) - 1)) as u32);
    }
    let int = |bytes: &[u8]| bytes.iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
    let tree = int(&digest[md_len..md_len + tree_len]) & ((1u128 << (p.h - p.hp)) - 1);
    let leaf = int(&digest[md_len + tree_len..md_len + tree_len + leaf_len]) & ((1 << p.hp) - 1);
    (indices, tree as u64, leaf as u32)
}

/// An item's words as the kernel reads them: the skip word, idx_tree,
/// idx_leaf, the FORS indices, the key and the signature after R; for an
/// item the host found malformed, the skip word and zeros.
fn item_words(p: &Params, pk: &[u8], sig: &[u8], parts: &[&[u8]], skip: bool, out: &mut [u8]) {
    out.fill(0);
    if skip {
        out[..4].copy_from_slice(&1u32.to_le_bytes());
        return;
    }
    let digest = h_msg(p, &sig[..p.n], pk, parts);
    let (indices, tree, leaf) = split_digest(p, &digest);
    let words = [tree as u32, (tree >> 32) as u32, leaf]
        .into_iter()
        .chain(indices)
        .flat_map(u32::to_le_bytes);
    let head = 4 * (3 + p.k);
    for (dst, b) in out[4..4 + head].iter_mut().zip(words) {
        *dst = b;
    }
    let rest = &mut out[4 + head..];
    rest[..pk.len()].copy_from_slice(pk);
    rest[pk.len()..pk.len() + sig.len() - p.n].copy_from_slice(&sig[p.n..]);
}

/// Threads per item of the wide passes: one per FORS tree or WOTS+ chain.
fn units(p: &Params) -> usize {
    p.k.max(p.len())
}

/// Bytes of one item's upload.
fn item_bytes(p: &Params) -> usize {
    4 * (4 + p.k) + p.pk_len() + p.sig_len() - p.n
}

/// Words of one item's working state: the count of item passes, the
/// node, the scratch.
fn state_words(p: &Params) -> usize {
    9 + units(p) * p.n / 4
}

struct SlhdsaKernel<'a> {
    set: Set,
    batch: &'a Batch,
    /// Messages M' given as they are (`slh_verify_internal`, for NIST's
    /// vectors) in place of the batch's messages and contexts.
    internal: Option<&'a [Vec<u8>]>,
    /// The wide and the per-item entry points' pipelines.
    pipelines: [Arc<wgpu::ComputePipeline>; 2],
    /// Per item: the reason the host found, if any.
    early: Vec<Option<Reason>>,
}

impl<'a> SlhdsaKernel<'a> {
    fn new(gpu: &Gpu, set: Set, batch: &'a Batch) -> Result<SlhdsaKernel<'a>, String> {
        gpu.require_int64("SLH-DSA")?;
        let shake = set.params().shake;
        let keys = if shake {
            ["slhdsa_shake_wide", "slhdsa_shake_item"]
        } else {
            ["slhdsa_sha2_wide", "slhdsa_sha2_item"]
        };
        let pipeline = |k: usize| gpu.pipeline(keys[k], ENTRIES[k], || shaders::slhdsa_verify(shake));
        let pipelines = [pipeline(0)?, pipeline(1)?];
        let early: Vec<Option<Reason>> = (0..batch.len())
            .into_par_iter()
            .map(|i| decode_reason(set, batch.pk(i), batch.sig(i), batch.ctx(i)))
            .collect();
        Ok(SlhdsaKernel {
            set,
            batch,
            internal: None,
            pipelines,
            early,
        })
    }
}

impl Kernel for SlhdsaKernel<'_> {
    type Out = Verdict;

    fn name(&self) -> &'static str {
        "slhdsa_verify"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipelines[0]
    }

    fn pass_pipeline(&self, pass: usize) -> &wgpu::ComputePipeline {
        &self.pipelines[pass % 2]
    }

    fn pass_name(&self, pass: usize) -> &'static str {
        ENTRIES[pass % 2]
    }

    fn units(&self) -> usize {
        self.batch.len()
    }

    fn max_units(&self) -> usize {
        let per = item_bytes(&self.set.params()) as u64;
        MAX_ITEMS.min((ITEM_BYTES / per) as usize).max(1)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        let p = self.set.params();
        let n = end - start;
        vec![
            Input::uniform(4 * 16),
            Input::storage(n * item_bytes(&p)),
            Input::cleared((n * state_words(&p) * 4) as u64),
        ]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, items, _] = driver::inputs(dst);
        let p = self.set.params();
        let per = item_bytes(&p);
        let mut bytes = vec![0u8; (end - start) * per];
        bytes.par_chunks_exact_mut(per).enumerate().for_each(|(k, out)| {
            let i = start + k;
            let (ctx, msg) = (self.batch.ctx(i), self.batch.msg(i));
            let skip = self.early[i].is_some();
            // M' = 0 || |ctx| || ctx || M as parts (|ctx| fits a byte
            // unless the host skips the item).
            let head = [0, ctx.len() as u8];
            let parts: [&[u8]; 3] = match self.internal {
                Some(mprimes) => [&mprimes[i], &[], &[]],
                None => [&head, ctx, msg],
            };
            item_words(&p, self.batch.pk(i), self.batch.sig(i), &parts, skip, out);
        });
        driver::copy(items, &bytes);
        let scalars = [
            (end - start) as u32,
            (p.n / 4) as u32,
            p.k as u32,
            p.a as u32,
            p.d as u32,
            p.hp as u32,
            p.len() as u32,
            units(&p) as u32,
            (per / 4) as u32,
            state_words(&p) as u32,
            u32::from(!p.shake && p.n > 16),
            shaders::LOOP_GUARD,
            0,
            0,
            0,
            0,
        ];
        params.write_iter(scalars.into_iter().flat_map(u32::to_le_bytes));
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start + 1) * 4) as u64
    }

    fn bind(
        &self,
        gpu: &Gpu,
        inputs: &[wgpu::Buffer],
        out: &wgpu::Buffer,
        start: usize,
        end: usize,
    ) -> Vec<(wgpu::BindGroup, u32)> {
        let p = self.set.params();
        let n = end - start;
        let groups = self.pipelines.each_ref().map(|pipeline| {
            gpu.bind(
                pipeline,
                "slhdsa_verify",
                &[(0, &inputs[0]), (1, &inputs[1]), (2, &inputs[2]), (3, out)],
            )
        });
        // Wide, then per item: the FORS trees and T_k, then each layer's
        // chains and its top.
        let threads = [n * units(&p), n];
        (0..2 * (p.d + 1))
            .map(|pass| (groups[pass % 2].clone(), threads[pass % 2] as u32))
            .collect()
    }

    fn decode(&self, start: usize, end: usize, out: &[u8], verdicts: &mut Vec<Verdict>) -> Result<(), String> {
        let statuses = driver::item_statuses(out, start, end, "a verdict")?;
        for (i, &status) in (start..end).zip(&statuses) {
            let verdict = match (self.early[i], status & 0xff) {
                (Some(reason), 3) => Verdict::Invalid(reason),
                (None, 0) => Verdict::Valid,
                (None, 2) => Verdict::Invalid(Reason::Equation),
                _ => return Err(format!("item {i} came back with status {status:#x}")),
            };
            verdicts.push(verdict);
        }
        Ok(())
    }
}

/// `slh_verify_internal` of each item's M' in `mprimes` (the batch's
/// messages and contexts unused) on the GPU.
#[cfg(test)]
pub(crate) fn verify_internal(gpu: &Gpu, set: Set, batch: &Batch, mprimes: &[Vec<u8>]) -> Streamed<Verdict> {
    let mut kernel = SlhdsaKernel::new(gpu, set, batch).map_err(Failure::at_start)?;
    kernel.internal = Some(mprimes);
    driver::run(gpu, &kernel)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::probe::test_gpu;
    use crate::ops::slhdsa::oracle;

    /// NIST's ACVP SLH-DSA signature verification vectors (45 cases, nine
    /// for each of SHA2-192s, SHA2-256f, SHAKE-128f, SHAKE-192s and
    /// SHAKE-256f: valid, message altered, R, SIG_FORS and SIG_HT modified,
    /// signatures too short and too long) on the device, through the
    /// internal interface they test; each answer also the oracle's.
    #[test]
    fn nist_vectors_on_the_device() {
        let Some(gpu) = test_gpu() else { return };
        let dir = std::env::var_os("BATCHCRYPTO_VECTORS")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata").into());
        let path = dir.join("nist-acvp-slhdsa/SLH-DSA-sigVer-FIPS205.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var("BATCHCRYPTO_REQUIRE_VECTORS").as_deref() != Ok("1"),
                "{} is missing",
                path.display()
            );
            return;
        };
        let file: serde_json::Value = serde_json::from_str(&text).expect("json");
        let hex = |v: &serde_json::Value| hex::decode(v.as_str().expect("hex")).expect("hex");
        let (mut cases, mut wrong) = (0, Vec::new());
        for group in file["testGroups"].as_array().expect("groups") {
            let name = group["parameterSet"].as_str().expect("set");
            let set = Set::from_name(name).unwrap_or_else(|| panic!("{name}"));
            let mut batch = Batch::new();
            let (mut mprimes, mut want) = (Vec::new(), Vec::new());
            for t in group["tests"].as_array().expect("tests") {
                let (pk, msg, sig) = (hex(&t["pk"]), hex(&t["message"]), hex(&t["signature"]));
                let passed = t["testPassed"].as_bool().expect("testPassed");
                assert_eq!(
                    oracle::verify_internal(set, &pk, &msg, &sig),
                    passed,
                    "{name} {}",
                    t["tcId"]
                );
                batch.push(&pk, &[], &sig, &[]).expect("push");
                mprimes.push(msg);
                want.push(passed);
            }
            let got = verify_internal(&gpu, set, &batch, &mprimes).unwrap_or_else(|f| panic!("{name}: {f:?}"));
            assert_eq!(got.len(), want.len(), "{name}");
            for (i, (v, w)) in got.iter().zip(&want).enumerate() {
                if v.is_valid() != *w {
                    wrong.push(format!("{name} case {i}: {v:?}"));
                }
            }
            cases += want.len();
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert_eq!(cases, 45);
    }

    /// base_2b and the index bytes as FIPS 205 reads them, on a digest
    /// of known bits.
    #[test]
    fn digests_split_as_algorithm_20_reads_them() {
        let p = Set::Shake128s.params();
        // a = 12: the first index is the first 12 bits, the second the next 12.
        let mut digest = vec![0u8; p.m];
        digest[0] = 0xab;
        digest[1] = 0xcd;
        digest[2] = 0xef;
        // idx_tree: 7 bytes, 54 bits kept; idx_leaf: 2 bytes, 9 bits kept.
        let md = (p.k * p.a).div_ceil(8);
        digest[md..md + 7].copy_from_slice(&[0xff, 0, 0, 0, 0, 0, 0x01]);
        digest[md + 7..md + 9].copy_from_slice(&[0xff, 0xfe]);
        let (indices, tree, leaf) = split_digest(&p, &digest);
        assert_eq!(indices.len(), 14);
        assert_eq!((indices[0], indices[1], indices[2]), (0xabc, 0xdef, 0));
        assert_eq!(tree, (0x3f << 48) | 1);
        assert_eq!(leaf, 0x1fe);
    }
}
