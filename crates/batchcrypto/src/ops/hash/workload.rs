//! The hashes' declarations in the registry ([`crate::registry`]): random
//! messages (the bench's: one fixed length; the self-test's: every length
//! from 0 to 300, past the rate blocks, then random ones up to 1,000) with
//! the `sha3`/`sha2` digests.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

use super::{Alg, Digest, cpu, oracle};
use crate::batch::FlatBytes;
use crate::engine::{Engine, KernelWork};
use crate::ops::Op;
use crate::registry::{Cases, OpSpec, Workload, WorkloadConfig};

/// `keccak256` (bench rows `keccak256_32`).
pub const KECCAK256: OpSpec = spec(Alg::Keccak256, 32);
/// `sha3_256` (bench rows `sha3_256_32`).
pub const SHA3_256: OpSpec = spec(Alg::Sha3_256, 32);
/// `sha256` (bench rows `sha256_64`).
pub const SHA256: OpSpec = spec(Alg::Sha256, 64);
/// `blake2b_256` (bench rows `blake2b_256_32`: a 32-byte key or hash, as
/// Substrate hashes account ids and storage keys).
pub const BLAKE2B_256: OpSpec = spec(Alg::Blake2b256, 32);
/// `blake3` (bench rows `blake3_64`: two 32-byte nodes).
pub const BLAKE3: OpSpec = spec(Alg::Blake3, 64);

const fn spec(alg: Alg, bench_len: usize) -> OpSpec {
    OpSpec {
        op: Op::Hash(alg),
        item: "message of any length",
        gpu_kernel: true,
        splittable: true,
        bench_msg_len: Some(bench_len),
        workload: match alg {
            Alg::Keccak256 => |c| workload(c, Alg::Keccak256, 32),
            Alg::Sha3_256 => |c| workload(c, Alg::Sha3_256, 32),
            Alg::Sha256 => |c| workload(c, Alg::Sha256, 64),
            Alg::Blake2b256 => |c| workload(c, Alg::Blake2b256, 32),
            Alg::Blake3 => |c| workload(c, Alg::Blake3, 64),
        },
    }
}

fn workload(c: &WorkloadConfig, alg: Alg, bench_len: usize) -> Box<dyn Workload> {
    let mut rng = StdRng::seed_from_u64(c.seed);
    let lens: Vec<usize> = if c.varied {
        (0..c.n)
            .map(|i| if i <= 300 { i } else { rng.random_range(0..1000) })
            .collect()
    } else {
        vec![bench_len; c.n]
    };
    let mut msgs = FlatBytes::with_capacity(c.n, lens.iter().sum());
    let mut buf = Vec::new();
    for len in lens {
        buf.resize(len, 0);
        rng.fill(&mut buf[..]);
        // Workloads stay far below the 4 GiB batch limit.
        let _fits = msgs.push(&buf);
    }
    let expected = (0..msgs.len())
        .into_par_iter()
        .map(|i| oracle::digest(alg, msgs.get(i)))
        .collect();
    Box::new(Cases {
        len: msgs.len(),
        input: (alg, msgs),
        expected,
        oracle: |(alg, m): &(Alg, FlatBytes)| {
            for i in 0..m.len() {
                std::hint::black_box(oracle::digest(*alg, m.get(i)));
            }
        },
        engine: |e: &Engine, (alg, m): &(Alg, FlatBytes)| e.hash(*alg, m),
        same: |d: &Digest, w: &Digest| d == w,
        kernel: Some(|e: &Engine, (alg, m): &(Alg, FlatBytes), runs| {
            e.gpu_kernel_times(KernelWork::Hash(*alg, m), runs)
        }),
        trivial: false,
        alternative: (cpu::ASM && matches!(alg, Alg::Keccak256 | Alg::Sha3_256)).then_some((
            "keccak-asm",
            (|(alg, m): &(Alg, FlatBytes)| cpu::asm_each(*alg, m)) as fn(&(Alg, FlatBytes)),
        )),
    })
}
