//! The field-multiplication microbenchmark: how many multiplications per
//! second the Ed25519 (fe25519), secp256k1 and P-256 (Montgomery, eight
//! u32 limbs) kernels' field layers and the tower machine's (BLS12-381's
//! F_p, twelve limbs) reach on this adapter, beside its u32
//! multiply-add rate, so that a slow kernel can be traced to WGSL's missing
//! multiply-high and carry (the layer is the limit) or to the code around
//! it. Each thread runs a dependent chain of multiplications (many threads
//! hide the latency); times are GPU timestamps where the adapter has them
//! (see [`driver::time`]). Every thread's result is checked by the tests
//! against host arithmetic, so the compiler cannot have skipped the work.

use std::sync::Arc;

use super::driver::{self, Dst, Input, Kernel};
use super::{FieldRate, Gpu, shaders};
use crate::ops::ecdsa::gpu::curve_constants_wgsl;

/// The multiplications measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    /// GF(2^255 - 19) as the Ed25519 kernel multiplies (`fe_mul`).
    Fe25519,
    /// secp256k1's base field, Montgomery form (`mont_mul`).
    Secp256k1,
    /// P-256's base field, Montgomery form (`mont_mul`).
    P256,
    /// BLS12-381's base field as the tower machine multiplies (`fp_mul`).
    Bls12381,
    /// Four chains of u32 `x = x * m + e`: the adapter's integer peak.
    Imad,
}

impl Field {
    pub(crate) const ALL: [Field; 5] = [
        Field::Imad,
        Field::Fe25519,
        Field::Secp256k1,
        Field::P256,
        Field::Bls12381,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Field::Fe25519 => "fe25519_mul",
            Field::Secp256k1 => "secp256k1_mont_mul",
            Field::P256 => "p256_mont_mul",
            Field::Bls12381 => "bls12_381_fp_mul",
            Field::Imad => "u32_mul_add",
        }
    }

    /// Operations per thread per iteration.
    fn per_iteration(self) -> u32 {
        if self == Field::Imad { 4 } else { 1 }
    }

    /// The kernel's source: the guard, the bench's bindings, the field
    /// layer and its entry point.
    pub(crate) fn source(self) -> String {
        let (layer, entry) = match self {
            Field::Fe25519 => (shaders::fe25519_layer(), FE25519_ENTRY),
            Field::Secp256k1 => (shaders::mont256_layer(&curve_constants_wgsl(0)), MONT_ENTRY),
            Field::P256 => (shaders::mont256_layer(&curve_constants_wgsl(1)), MONT_ENTRY),
            Field::Bls12381 => (shaders::fp_layer(shaders::Tower::Bls12381), FP_ENTRY),
            Field::Imad => (String::new(), IMAD_ENTRY),
        };
        shaders::field_bench(&layer, entry)
    }
}

const FE25519_ENTRY: &str = "
@compute @workgroup_size(WORKGROUP_SIZE)
fn field_bench(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= bench.n {
        return;
    }
    var v = fe_from_words(bench_seed(i, 0u));
    let w = fe_from_words(bench_seed(i, 12u));
    for (var k = 0u; k < bench.iterations; k++) {
        v = fe_mul(v, w);
    }
    bench_store(i, fe_to_words(v));
}
";

const MONT_ENTRY: &str = "
@compute @workgroup_size(WORKGROUP_SIZE)
fn field_bench(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= bench.n {
        return;
    }
    var v = mont_mul(bench_seed(i, 0u), CURVE_P_R2, CURVE_P, CURVE_PINV);
    let w = mont_mul(bench_seed(i, 12u), CURVE_P_R2, CURVE_P, CURVE_PINV);
    for (var k = 0u; k < bench.iterations; k++) {
        v = mont_mul(v, w, CURVE_P, CURVE_PINV);
    }
    var one: U256;
    one[0] = 1u;
    bench_store(i, mont_mul(v, one, CURVE_P, CURVE_PINV));
}
";

const FP_ENTRY: &str = "
@compute @workgroup_size(WORKGROUP_SIZE)
fn field_bench(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= bench.n {
        return;
    }
    var v = fp_to_mont(bench_seed12(i, 0u));
    let w = fp_to_mont(bench_seed12(i, 12u));
    for (var k = 0u; k < bench.iterations; k++) {
        v = fp_mul(v, w);
    }
    bench_store12(i, fp_from_mont(v));
}
";

const IMAD_ENTRY: &str = "
@compute @workgroup_size(WORKGROUP_SIZE)
fn field_bench(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= bench.n {
        return;
    }
    let s = bench_seed(i, 0u);
    var a = s[0];
    var b = s[1];
    var c = s[2];
    var d = s[3];
    let m = s[4] | 1u;
    let e = s[5];
    for (var k = 0u; k < bench.iterations; k++) {
        a = a * m + e;
        b = b * m + e;
        c = c * m + e;
        d = d * m + e;
    }
    var out: array<u32, 8>;
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = d;
    bench_store(i, out);
}
";

/// Words of a value (the widest field's limbs).
const WORDS: usize = 12;

/// Threads with their seeds (x then w, [`WORDS`] little-endian words each).
struct Chains {
    pipeline: Arc<wgpu::ComputePipeline>,
    seeds: Vec<[u32; 2 * WORDS]>,
    iterations: u32,
}

impl Kernel for Chains {
    type Out = [u32; WORDS];

    fn name(&self) -> &'static str {
        "field_bench"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.seeds.len()
    }

    fn max_units(&self) -> usize {
        self.seeds.len().max(1)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![Input::uniform(16), Input::storage((end - start) * 8 * WORDS)]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, seeds] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, self.iterations, shaders::LOOP_GUARD, 0]);
        seeds.write_iter(self.seeds[start..end].iter().flatten().flat_map(|w| w.to_le_bytes()));
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * 4 * (WORDS + 1)) as u64
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<[u32; WORDS]>) -> Result<(), String> {
        for (i, thread) in out.chunks_exact(4 * (WORDS + 1)).enumerate() {
            let word =
                |k: usize| u32::from_le_bytes([thread[4 * k], thread[4 * k + 1], thread[4 * k + 2], thread[4 * k + 3]]);
            super::check_done(word(WORDS), start + i, "a result")?;
            answers.push(std::array::from_fn(word));
        }
        Ok(())
    }
}

/// The chains of `field` over `seeds`.
fn chains(gpu: &Gpu, field: Field, seeds: Vec<[u32; 2 * WORDS]>, iterations: u32) -> Result<Chains, String> {
    if field != Field::Imad {
        gpu.require_int64("field-multiplication")?;
    }
    let key = match field {
        Field::Fe25519 => "field_bench_fe25519",
        Field::Secp256k1 => "field_bench_secp256k1",
        Field::P256 => "field_bench_p256",
        Field::Bls12381 => "field_bench_bls12_381",
        Field::Imad => "field_bench_imad",
    };
    Ok(Chains {
        pipeline: gpu.pipeline(key, "field_bench", || field.source())?,
        seeds,
        iterations,
    })
}

/// Seeds below every modulus measured (the top four bits of both values'
/// eighth and twelfth words cleared), from a counter.
fn seeds(threads: usize) -> Vec<[u32; 2 * WORDS]> {
    (0..threads)
        .map(|t| {
            let mut s: [u32; 2 * WORDS] = std::array::from_fn(|k| {
                (t as u32)
                    .wrapping_mul(0x9e37_79b9)
                    .wrapping_add(k as u32)
                    .rotate_left(k as u32 * 3)
                    ^ 0x5bd1_e995
            });
            for k in [7, 11, WORDS + 7, WORDS + 11] {
                s[k] &= 0x0fff_ffff;
            }
            s
        })
        .collect()
}

/// Multiplications per second of each field layer, and the u32
/// multiply-add rate: `threads` threads, `iterations` each, median of
/// `runs` runs after one warm-up.
pub(crate) fn rates(gpu: &Gpu, threads: usize, iterations: u32, runs: usize) -> Result<Vec<FieldRate>, String> {
    let per_thread = seeds(threads);
    Field::ALL
        .iter()
        .filter(|f| gpu.int64 || **f == Field::Imad)
        .map(|&field| {
            let kernel = chains(gpu, field, per_thread.clone(), iterations)?;
            let mut times = driver::time(gpu, &kernel, runs.max(1) + 1)?;
            times.remove(0);
            times.sort_by(f64::total_cmp);
            let median = times[times.len() / 2];
            let ops = threads as f64 * f64::from(iterations) * f64::from(field.per_iteration());
            Ok(FieldRate {
                name: field.name(),
                per_second: ops / median.max(1e-12),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::bigint::{Limbs, from_hex, mul_mod};
    use crate::gpu::curve::BLS12_381_P;

    /// x w^k mod p over `N` limbs, in `WORDS` words.
    fn chain<const N: usize>(seed: &[u32; 2 * WORDS], p: &Limbs<N>, k: u32) -> [u32; WORDS] {
        let x: Limbs<N> = seed[..N].try_into().expect("N words");
        let w: Limbs<N> = seed[WORDS..WORDS + N].try_into().expect("N words");
        let one: Limbs<N> = std::array::from_fn(|i| u32::from(i == 0));
        let v = (0..k).fold(mul_mod(&x, &one, p), |v, _| mul_mod(&v, &w, p));
        std::array::from_fn(|i| v.get(i).copied().unwrap_or(0))
    }

    fn modulus(field: Field) -> Limbs<8> {
        from_hex::<8>(match field {
            Field::Fe25519 => "7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
            Field::Secp256k1 => "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f",
            _ => "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff",
        })
    }

    /// Every thread's chain equals x w^k mod p (or the u32 chains) computed
    /// on the host, so the bench measures real multiplications.
    #[test]
    fn chains_match_host_arithmetic() {
        let Ok(gpu) = Gpu::open(None, true) else {
            assert!(
                std::env::var("BATCHCRYPTO_REQUIRE_GPU").as_deref() != Ok("1"),
                "BATCHCRYPTO_REQUIRE_GPU=1 but no GPU"
            );
            return;
        };
        let iterations = 5u32;
        let per_thread = seeds(70);
        for field in Field::ALL {
            let kernel = chains(&gpu, field, per_thread.clone(), iterations).expect("pipeline");
            let got = driver::run(&gpu, &kernel).unwrap_or_else(|f| panic!("{field:?}: {}", f.reason));
            assert_eq!(got.len(), per_thread.len(), "{field:?}");
            for (t, (seed, got)) in per_thread.iter().zip(&got).enumerate() {
                let want: [u32; WORDS] = match field {
                    Field::Imad => {
                        let m = seed[4] | 1;
                        let mut w = [0u32; WORDS];
                        for (k, w) in w.iter_mut().take(4).enumerate() {
                            *w = (0..iterations).fold(seed[k], |v, _| v.wrapping_mul(m).wrapping_add(seed[5]));
                        }
                        w
                    }
                    Field::Bls12381 => chain::<12>(seed, &from_hex(BLS12_381_P), iterations),
                    _ => chain::<8>(seed, &modulus(field), iterations),
                };
                assert_eq!(*got, want, "{field:?} thread {t}");
            }
        }
        let rates = rates(&gpu, 64, 8, 1).expect("rates");
        assert_eq!(rates.len(), Field::ALL.len());
        assert!(rates.iter().all(|r| r.per_second > 0.0), "{rates:?}");
    }
}
