//! The GPU seam: what the engine asks of a GPU (`GpuRuntime`: one method
//! per operation with a kernel, kernel timings, fault injection), the
//! adapters found, and the one runtime implemented so far, wgpu (Vulkan,
//! Metal, DX12; `device`), behind the default cargo feature `wgpu`.
//! A CUDA runtime (cudarc + NVRTC) would be one more implementation of the
//! trait with one host file per operation; the engine and the dispatcher
//! do not change. Built without a runtime, asking for the GPU is a clear
//! error ("not compiled in"), never a link failure or a panic.
//!
//! On wgpu: one device per [`Engine`](crate::Engine), compute pipelines
//! compiled once (lazily, on first use) and cached, every batch streamed
//! through one driver (`driver`) with bounded waits and error scopes.
//! Kernels are WGSL composed from the shared libraries in `gpu/wgsl/` plus
//! each operation's own kernel file, by plain concatenation of
//! `include_str!` parts with constants rendered from Rust (`shaders`);
//! nothing is read from disk at run time.
//!
//! The Ed25519 and ECDSA kernels need `SHADER_INT64` (64-bit products and
//! SHA-512 lanes); on an adapter without it (or an engine built with
//! `shader_int64(false)`) those operations run on the CPU and say why,
//! while the hashing and Merkle kernels run Keccak on pairs of u32 words.
//! Any device error, lost device or timeout is returned as an error so that
//! the engine computes what is missing on the CPU; a kernel result is only
//! accepted when every item carries the kernel's completion flag.

#[cfg(feature = "wgpu")]
pub(crate) mod bigint;
#[cfg(feature = "wgpu")]
pub(crate) mod curve;
#[cfg(feature = "wgpu")]
pub(crate) mod device;
#[cfg(feature = "wgpu")]
pub(crate) mod driver;
#[cfg(feature = "wgpu")]
pub(crate) mod field_bench;
#[cfg(feature = "wgpu")]
pub(crate) mod fp12_program;
#[cfg(feature = "wgpu")]
pub(crate) mod keys;
#[cfg(feature = "wgpu")]
pub(crate) mod merlin;
#[cfg(feature = "wgpu")]
pub(crate) mod ntt;
#[cfg(feature = "wgpu")]
pub(crate) mod pairing_vm;
#[cfg(all(test, feature = "wgpu"))]
pub(crate) mod probe;
#[cfg(feature = "wgpu")]
pub(crate) mod shaders;
#[cfg(feature = "wgpu")]
pub(crate) mod tower_vm;

#[cfg(feature = "wgpu")]
pub(crate) use device::{DONE_FLAG, Gpu, LOOPS_CUT_FLAG, LoopsCut, WORKGROUP_SIZE, check_done};

use crate::batch::FlatBytes;
use crate::engine::KernelWork;
use crate::ops::ecdsa::{K1VerifyItem, P256Item, RecoverItem, Recovered};
use crate::ops::evm::{self, PrecompileError};
use crate::ops::ntt::{PolyResult, Transform};
use crate::ops::{bip340, bls, ed25519, hash, kzg, merkle, mldsa, mlkem, msm, poseidon, slhdsa, sr25519};
use crate::verdict::{Reason, Verdict};

/// One adapter as `devices` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterSummary {
    /// The adapter's name (e.g. "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)").
    pub name: String,
    /// Vulkan, Metal, Dx12, ...
    pub backend: String,
    /// Discrete, integrated, virtual, CPU (software) or other.
    pub device_type: String,
    /// Driver name and version.
    pub driver: String,
    /// Whether the adapter offers `SHADER_INT64` (the Ed25519 kernel needs it).
    pub int64: bool,
    /// A software rasteriser (llvmpipe/lavapipe, WARP): for tests, not speed.
    pub software: bool,
}

impl AdapterSummary {
    /// "name (type, backend, driver)".
    pub fn describe(&self) -> String {
        format!(
            "{} ({}, {}, {})",
            self.name, self.device_type, self.backend, self.driver
        )
    }

    fn rank(&self) -> u8 {
        match self.device_type.as_str() {
            "discretegpu" => 0,
            "integratedgpu" => 1,
            "virtualgpu" => 2,
            "software" => 4,
            _ => 3,
        }
    }
}
/// Every adapter this build's GPU runtime finds, usable or not (none
/// without one).
pub fn adapters() -> Vec<AdapterSummary> {
    #[cfg(feature = "wgpu")]
    return device::adapters();
    #[cfg(not(feature = "wgpu"))]
    Vec::new()
}

/// Why there is no GPU in a build without a GPU runtime.
#[cfg(not(feature = "wgpu"))]
pub(crate) const NOT_COMPILED_IN: &str =
    "no GPU runtime compiled in (batchcrypto was built without its `wgpu` cargo feature)";

/// Why [`adapters`] found none.
pub(crate) fn no_adapter_reason() -> &'static str {
    #[cfg(feature = "wgpu")]
    return "wgpu found no Vulkan, Metal or DX12 adapter";
    #[cfg(not(feature = "wgpu"))]
    NOT_COMPILED_IN
}

/// Opens the best adapter of this build's runtime (see [`preferred`]), or
/// says why not.
pub(crate) fn open(wanted: Option<&str>, use_int64: bool) -> Result<Box<dyn GpuRuntime>, String> {
    #[cfg(feature = "wgpu")]
    return Ok(Box::new(Gpu::open(wanted, use_int64)?));
    #[cfg(not(feature = "wgpu"))]
    {
        let _ = (wanted, use_int64);
        Err(NOT_COMPILED_IN.to_string())
    }
}

/// The adapter asked for: `wanted`, else the `BATCHCRYPTO_ADAPTER` variable.
pub(crate) fn wanted_adapter(wanted: Option<&str>) -> Option<String> {
    wanted
        .map(str::to_string)
        .or_else(|| std::env::var("BATCHCRYPTO_ADAPTER").ok().filter(|w| !w.is_empty()))
}

/// Which of `adapters` a GPU engine opens: the best kind (discrete before
/// integrated before virtual before software, `SHADER_INT64` first within a
/// kind) among those whose name contains `wanted` (any case).
pub(crate) fn preferred(adapters: &[AdapterSummary], wanted: Option<&str>) -> Option<usize> {
    (0..adapters.len())
        .filter(|&i| wanted.is_none_or(|w| adapters[i].name.to_lowercase().contains(&w.to_lowercase())))
        .min_by_key(|&i| (adapters[i].rank(), !adapters[i].int64, i))
}
/// GPU work that stopped part way: the answers of units `0..done.len()`
/// (every sub-batch decoded and checked before the failure) and why.
#[derive(Debug)]
pub(crate) struct Failure<T> {
    pub(crate) done: Vec<T>,
    pub(crate) reason: String,
}

/// Every unit's answer, or those before a failure and why.
pub(crate) type Streamed<T> = Result<Vec<T>, Failure<T>>;

impl<T> Failure<T> {
    /// A failure before any answer.
    #[cfg(feature = "wgpu")]
    pub(crate) fn at_start(reason: String) -> Failure<T> {
        Failure {
            done: Vec::new(),
            reason,
        }
    }

    /// A failure of a path that fills its answers out of item order (runs
    /// per width): the answers known so far in item order, those before
    /// the first item still without one.
    #[cfg(feature = "wgpu")]
    pub(crate) fn after(answers: &[Option<T>], reason: String) -> Failure<T>
    where
        T: Clone,
    {
        Failure {
            done: answers.iter().map_while(Clone::clone).collect(),
            reason,
        }
    }
}

/// Units answered through another operation's GPU path: `read` holds each
/// unit's work for `run`, or its answer already known; `run` answers the
/// works in order; `answer` turns a work's answer into its unit's. When
/// `run` stops early, the units answered before the first one still
/// waiting are kept (none when `run` answered none), and why it stopped.
pub(crate) fn through<W, A, T>(
    read: Vec<Result<W, T>>,
    run: impl FnOnce(&[W]) -> Streamed<A>,
    answer: impl Fn(A) -> T,
) -> Streamed<T> {
    let mut known = Vec::with_capacity(read.len());
    let mut works = Vec::new();
    for r in read {
        match r {
            Ok(w) => {
                works.push(w);
                known.push(None);
            }
            Err(t) => known.push(Some(t)),
        }
    }
    let (answers, failed) = match run(&works) {
        Ok(answers) => (answers, None),
        // Nothing ran on the device: the host's answers are not the GPU's.
        Err(Failure { done, reason }) if done.is_empty() => {
            return Err(Failure {
                done: Vec::new(),
                reason,
            });
        }
        Err(Failure { done, reason }) => (done, Some(reason)),
    };
    let mut answers = answers.into_iter();
    let mut done = Vec::with_capacity(known.len());
    for k in known {
        match k.map_or_else(|| answers.next().map(&answer), Some) {
            Some(t) => done.push(t),
            None => {
                let reason = failed.unwrap_or_else(|| "a unit came back without its answer".into());
                return Err(Failure { done, reason });
            }
        }
    }
    match failed {
        None => Ok(done),
        Some(reason) => Err(Failure { done, reason }),
    }
}

/// A stage of a GPU runtime at which tests make a sub-batch fail
/// ([`crate::Engine::inject_gpu_fault_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultStage {
    /// Packing the sub-batch on the host fails.
    Pack,
    /// Uploading it fails.
    Upload,
    /// The kernel never runs (the output stays cleared: decoding must notice).
    Kernel,
    /// Reading the results back fails.
    Readback,
}

/// Operations per second of one field layer (or of the adapter's u32
/// multiply-add), from [`crate::Engine::gpu_field_rates`].
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRate {
    /// `fe25519_mul`, `secp256k1_mont_mul`, `p256_mont_mul` or `u32_mul_add`.
    pub name: &'static str,
    /// Operations per second (medians of GPU-timed runs).
    pub per_second: f64,
}

/// What the engine asks of a GPU runtime: one method per operation with a
/// kernel (each answers as the operation's oracle, or fails with the
/// answers it had), kernel timings, and the test hooks. Implemented by
/// [`Gpu`] (wgpu).
pub(crate) trait GpuRuntime: Send + Sync + std::fmt::Debug {
    /// "name (type, backend, driver)", with what the device lacks.
    fn describe(&self) -> String;
    /// The adapter's name.
    fn adapter_name(&self) -> String;
    /// Whether kernels are timed with GPU timestamps.
    fn timestamps(&self) -> bool;
    /// Whether the adapter is a software rasteriser (no clocks to ramp).
    fn software(&self) -> bool;
    /// Ed25519 verification under `policy`.
    fn ed25519_verify(&self, batch: &ed25519::Batch, policy: ed25519::Policy) -> Streamed<Verdict>;
    /// Digests under `alg`.
    fn hash(&self, alg: hash::Alg, msgs: &FlatBytes) -> Streamed<hash::Digest>;
    /// secp256k1 ECDSA verification.
    fn secp256k1_verify(&self, items: &[K1VerifyItem], low_s: bool) -> Streamed<Verdict>;
    /// Ethereum's ecrecover.
    fn ecrecover(&self, items: &[RecoverItem], low_s: bool) -> Streamed<Result<Recovered, Reason>>;
    /// P-256 verification (RIP-7212).
    fn p256_verify(&self, items: &[P256Item]) -> Streamed<Verdict>;
    /// BIP-340 Schnorr verification.
    fn bip340_verify(&self, batch: &bip340::Batch) -> Streamed<Verdict>;
    /// EIP-7594 cell proof verification.
    fn kzg_cell_verify(&self, items: &[kzg::CellItem]) -> Streamed<Verdict>;
    /// A blob's commitment, cells and cell proofs (EIP-7594).
    fn kzg_compute_cells(&self, blobs: &[&[u8; kzg::BLOB_LEN]]) -> Streamed<Result<kzg::BlobCells, Reason>>;
    /// An extended blob's cells and cell proofs from half of its cells (EIP-7594).
    fn kzg_recover_cells(&self, items: &[kzg::RecoverItem]) -> Streamed<Result<kzg::Extended, Reason>>;
    /// Poseidon hashes over BN254's scalar field.
    fn poseidon_bn254(&self, items: &FlatBytes) -> Streamed<poseidon::HashResult>;
    /// sr25519 verification under the signing context `ctx`.
    fn sr25519_verify(&self, batch: &sr25519::Batch, ctx: &[u8]) -> Streamed<Verdict>;
    /// ML-DSA verification at `level`.
    fn mldsa_verify(&self, level: mldsa::Level, batch: &mldsa::Batch) -> Streamed<Verdict>;
    /// SLH-DSA verification in `set`.
    fn slhdsa_verify(&self, set: slhdsa::Set, batch: &slhdsa::Batch) -> Streamed<Verdict>;
    /// ML-KEM key generation in `set`.
    fn mlkem_keygen(&self, set: mlkem::Set, items: &[mlkem::KeygenItem]) -> Streamed<Result<mlkem::KeyPair, Reason>>;
    /// ML-KEM encapsulation in `set`.
    fn mlkem_encaps(
        &self,
        set: mlkem::Set,
        items: &[mlkem::EncapsItem],
    ) -> Streamed<Result<mlkem::Encapsulated, Reason>>;
    /// ML-KEM decapsulation in `set`.
    fn mlkem_decaps(
        &self,
        set: mlkem::Set,
        items: &[mlkem::DecapsItem],
    ) -> Streamed<Result<mlkem::SharedSecret, Reason>>;
    /// NTTs of whole polynomials (Goldilocks; other fields fail).
    fn ntt(&self, transform: &Transform, polys: &[u8]) -> Streamed<PolyResult>;
    /// BLS signature verification in `mode` (same verdicts).
    fn bls_verify(&self, batch: &bls::Batch, mode: bls::Mode) -> Streamed<Verdict>;
    /// BLS aggregate verification.
    fn bls_aggregate_verify(&self, items: &[bls::AggregateItem]) -> Streamed<Verdict>;
    /// BLS fast aggregate verification.
    fn bls_fast_aggregate_verify(&self, items: &[bls::FastAggregateItem]) -> Streamed<Verdict>;
    /// EIP-2537 pairing checks.
    fn eip2537_pairing(&self, inputs: &FlatBytes) -> Streamed<Result<bool, PrecompileError>>;
    /// A multi-scalar multiplication (one sum, or the first bad point's
    /// reason).
    fn msm(
        &self,
        curve: msm::Curve,
        encoding: msm::Encoding,
        points: &[u8],
        scalars: &[u8],
    ) -> Result<msm::MsmResult, String>;
    /// A multi-scalar multiplication over bases kept on the device
    /// (uploaded on the first call).
    fn msm_with(&self, bases: &msm::Bases, scalars: &[u8]) -> Result<Vec<u8>, String>;
    /// EVM precompile calls (ECADD, ECMUL, ECPAIRING, the EIP-2537 MSMs,
    /// the point evaluation, MODEXP, and the others on other operations'
    /// kernels; Groth16 runs through ECPAIRING's).
    fn evm(&self, precompile: evm::Precompile, inputs: &FlatBytes) -> Streamed<evm::CallResult>;
    /// A Merkle root (at least two leaves; with `zeros`, a padded tree's
    /// of at least one, `zeros` its empty subtrees' roots by height).
    fn merkle_root(
        &self,
        rule: merkle::Rule,
        leaves: &[hash::Digest],
        zeros: Option<&[hash::Digest]>,
    ) -> Result<hash::Digest, String>;
    /// Merkle inclusion proofs under `rule` (`depth`: the siblings each
    /// must have).
    fn merkle_proofs(&self, rule: merkle::Rule, depth: Option<u32>, items: &FlatBytes) -> Streamed<Verdict>;
    /// Kernel-only seconds of `runs` runs over `work`.
    fn kernel_times(&self, work: KernelWork<'_>, runs: usize) -> Result<Vec<f64>, String>;
    /// The field-multiplication microbenchmark (see `gpu/field_bench.rs`).
    fn field_rates(&self, threads: usize, iterations: u32, runs: usize) -> Result<Vec<FieldRate>, String>;
    /// Marks the device failed: every later call fails.
    fn set_fault(&self, reason: &str);
    /// Makes the calling thread's next call fail once at `stage` of
    /// sub-batch `sub_batch`.
    fn inject(&self, stage: FaultStage, sub_batch: usize);
    /// Caps the units per sub-batch of the calling thread's calls (`None`:
    /// each kernel's own).
    fn set_sub_batch_cap(&self, cap: Option<usize>);
    /// Sets how long after a kernel's compile started its calls wait for
    /// it before their batches take the CPU path (`None`: as long as it
    /// takes).
    fn set_compile_wait(&self, wait: Option<std::time::Duration>);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `through` keeps the host's answers in place and maps the others in
    /// order; a run stopped part way keeps the units before the first
    /// still waiting, and one that answered nothing keeps nothing.
    #[test]
    fn through_keeps_places_and_prefixes() {
        let read = || vec![Ok(1), Err(-1), Ok(2), Err(-2), Ok(3)];
        let doubled = |ws: &[i32]| -> Streamed<i32> { Ok(ws.iter().map(|w| 2 * w).collect()) };
        assert_eq!(through(read(), doubled, |a| a).ok(), Some(vec![2, -1, 4, -2, 6]));
        let part = |_: &[i32]| -> Streamed<i32> {
            Err(Failure {
                done: vec![10],
                reason: "stopped".into(),
            })
        };
        let got = through(read(), part, |a| a).err().map(|f| (f.done, f.reason));
        assert_eq!(got, Some((vec![10, -1], "stopped".to_string())));
        let none = |_: &[i32]| -> Streamed<i32> {
            Err(Failure {
                done: Vec::new(),
                reason: "no device".into(),
            })
        };
        let got = through(read(), none, |a| a).err().map(|f| f.done);
        assert_eq!(got, Some(Vec::new()));
        // Every unit answered on the host: nothing waits on the run.
        let all_known: Vec<Result<i32, i32>> = vec![Err(-1), Err(-2)];
        assert_eq!(through(all_known, doubled, |a| a).ok(), Some(vec![-1, -2]));
    }
}
