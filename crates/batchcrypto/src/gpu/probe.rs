//! Test harness for the arithmetic layers: a WGSL function `probe_item(i)`
//! run once per item on the device through the driver, reading `IN` words
//! per item from `probe_in` and writing `OUT` words to `probe_out`, so that
//! each layer's functions can be compared with an independent
//! implementation on the host (BLS12-381's tower against arkworks).

use std::sync::Arc;

use super::driver::{self, Dst, Input, Kernel};
use super::{Gpu, shaders};

/// The bindings and entry point around a layer and its `probe_item`.
const ENTRY: &str = "
struct ProbeParams {
    n: u32,
    loop_guard: u32,
    pad0: u32,
    pad1: u32,
}

@group(0) @binding(0) var<uniform> params: ProbeParams;
@group(0) @binding(1) var<storage, read> probe_in: array<u32>;
@group(0) @binding(2) var<storage, read_write> probe_out: array<u32>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn probe(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = item_index(gid, groups);
    if i >= params.n {
        return;
    }
    probe_item(i);
    probe_out[(i + 1u) * PROBE_OUT - 1u] = select(LOOPS_CUT_FLAG, DONE_FLAG, loops_intact(params.loop_guard));
}
";

/// Items of `in_words` words each through `probe_item`: `out_words` words
/// per item back (the last word of each item's output slot is the
/// completion flag, written by the harness).
struct Probe<'a> {
    pipeline: Arc<wgpu::ComputePipeline>,
    input: &'a [u32],
    in_words: usize,
    out_words: usize,
}

impl Kernel for Probe<'_> {
    type Out = Vec<u32>;

    fn name(&self) -> &'static str {
        "probe"
    }

    fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.pipeline
    }

    fn units(&self) -> usize {
        self.input.len() / self.in_words
    }

    fn max_units(&self) -> usize {
        self.units().max(1)
    }

    fn inputs(&self, start: usize, end: usize) -> Vec<Input> {
        vec![Input::uniform(16), Input::storage((end - start) * self.in_words * 4)]
    }

    fn pack(&self, start: usize, end: usize, dst: Vec<Dst<'_>>) {
        let [params, input] = driver::inputs(dst);
        driver::params(params, [(end - start) as u32, shaders::LOOP_GUARD, 0, 0]);
        input.write_iter(
            self.input[start * self.in_words..end * self.in_words]
                .iter()
                .flat_map(|w| w.to_le_bytes()),
        );
    }

    fn out_bytes(&self, start: usize, end: usize) -> u64 {
        ((end - start) * (self.out_words + 1) * 4) as u64
    }

    fn decode(&self, start: usize, _end: usize, out: &[u8], answers: &mut Vec<Vec<u32>>) -> Result<(), String> {
        driver::decode_words(out, self.out_words + 1, start, "a probe", answers)
    }
}

/// Runs `probe_item` of `layer` (which defines it after the layer's own
/// code) over `input`, `in_words` words per item, returning `out_words`
/// words per item. `key` names the pipeline in the device's cache.
pub(crate) fn run(
    gpu: &Gpu,
    key: &'static str,
    layer: &str,
    input: &[u32],
    in_words: usize,
    out_words: usize,
) -> Result<Vec<Vec<u32>>, String> {
    let source = source(layer, in_words, out_words);
    let probe = Probe {
        pipeline: gpu.pipeline(key, "probe", || source)?,
        input,
        in_words,
        out_words,
    };
    driver::run(gpu, &probe).map_err(|f| f.reason)
}

/// The probe kernel's source around `layer` (entry point `probe`).
fn source(layer: &str, in_words: usize, out_words: usize) -> String {
    [
        shaders::guard(),
        format!(
            "const PROBE_IN: u32 = {in_words}u;\nconst PROBE_OUT: u32 = {}u;\n",
            out_words + 1
        ),
        ENTRY.to_string(),
        layer.to_string(),
    ]
    .join("\n")
}

/// The GPU for the layer tests, or `None` (a skip) unless
/// BATCHCRYPTO_REQUIRE_GPU=1 demands one.
pub(crate) fn test_gpu() -> Option<Gpu> {
    match Gpu::open(None, true) {
        Ok(gpu) => Some(gpu),
        Err(e) => {
            assert!(
                std::env::var("BATCHCRYPTO_REQUIRE_GPU").as_deref() != Ok("1"),
                "BATCHCRYPTO_REQUIRE_GPU=1 but no GPU: {e}"
            );
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use ark_bls12_381::{Fq, Fq2};
    use ark_ff::{BigInteger, Field, PrimeField};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// F_p value k of item i, canonical in, in Montgomery form: the reader
    /// of every probe below (composed before it).
    const FP_IO: &str = "
fn probe_fp(i: u32, k: u32) -> Fp {
    var v: Fp;
    for (var j = 0u; j < 12u; j++) {
        v[j] = probe_in[i * PROBE_IN + k * 12u + j];
    }
    return fp_to_mont(v);
}
";

    /// probe_item for fp2.wgsl at BLS12-381's p: four canonical F_p values a, b, c, d in
    /// (twelve words each), x = a + b u and y = c + d u; out, canonical:
    /// a b, a + b, a - b, a^2, -a, 1/a, a square root of a (0 if none), x y,
    /// x^2, 1/x, (1 + u) x, then whether a is a square.
    const FP381_PROBE: &str = "
fn probe_item(i: u32) {
    tower_init(params.loop_guard);
    let a = probe_fp(i, 0u);
    let b = probe_fp(i, 1u);
    let x = Fp2(a, b);
    let y = Fp2(probe_fp(i, 2u), probe_fp(i, 3u));
    let root = fp_sqrt(a);
    var outs = array<Fp, 15>(
        fp_mul(a, b), fp_add(a, b), fp_sub(a, b), fp_sq(a), fp_neg(a), fp_inv(a),
        root.r,
        fp_zero(), fp_zero(), fp_zero(), fp_zero(), fp_zero(), fp_zero(), fp_zero(), fp_zero(),
    );
    if !root.ok {
        outs[6] = fp_zero();
    }
    var pairs = array<Fp2, 4>(fp2_mul(x, y), fp2_sq(x), fp2_inv(x), fp2_mul_by_xi(x));
    for (var k = 0u; k < 4u; k++) {
        outs[7u + 2u * k] = pairs[k].c0;
        outs[8u + 2u * k] = pairs[k].c1;
    }
    for (var k = 0u; k < 15u; k++) {
        let c = fp_from_mont(outs[k]);
        for (var j = 0u; j < 12u; j++) {
            probe_out[i * PROBE_OUT + k * 12u + j] = c[j];
        }
    }
    probe_out[i * PROBE_OUT + 180u] = select(0u, 1u, root.ok);
}
";

    fn words(x: Fq) -> Vec<u32> {
        x.into_bigint()
            .to_bytes_le()
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    fn fq(words: &[u32]) -> Fq {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        Fq::from_le_bytes_mod_order(&bytes)
    }

    /// F_p and F_p2 on the device equal arkworks' on random values and on
    /// values at the edges (0, 1, p - 1, p - 2, (p - 1) / 2, 2^380, squares
    /// and non-squares), after a round trip through Montgomery form.
    #[test]
    fn fp381_layer_matches_arkworks() {
        let Some(gpu) = test_gpu() else { return };
        let mut rng = StdRng::seed_from_u64(381);
        let minus = |k: u64| -Fq::from(k);
        let edges = [
            Fq::from(0u64),
            Fq::from(1u64),
            minus(1),
            minus(2),
            minus(1) / Fq::from(2u64),
            Fq::from(2u64).pow([380u64]),
            Fq::from(4u64),
            minus(1),
        ];
        let mut values: Vec<[Fq; 4]> = Vec::new();
        for (k, e) in edges.iter().enumerate() {
            for f in [
                edges[(k + 1) % edges.len()],
                edges[(k + 3) % edges.len()],
                Fq::from(0u64),
            ] {
                values.push([*e, f, edges[(k + 5) % edges.len()], f]);
            }
        }
        for _ in 0..200 {
            values.push(std::array::from_fn(|_| {
                let bytes: [u8; 64] = rng.random();
                Fq::from_le_bytes_mod_order(&bytes)
            }));
        }
        let input: Vec<u32> = values.iter().flat_map(|v| v.iter().flat_map(|x| words(*x))).collect();
        let layer = [
            shaders::fp2_layer(shaders::Tower::Bls12381),
            FP_IO.to_string(),
            FP381_PROBE.to_string(),
        ]
        .join("\n");
        let out = run(&gpu, "probe_fp381", &layer, &input, 48, 181).expect("probe");
        assert_eq!(out.len(), values.len());
        for (n, ([a, b, c, d], got)) in values.iter().zip(&out).enumerate() {
            let slot = |k: usize| fq(&got[12 * k..12 * k + 12]);
            let (x, y) = (Fq2::new(*a, *b), Fq2::new(*c, *d));
            let inv2 = x.inverse().unwrap_or_default();
            let want = [*a * b, *a + b, *a - b, a.square(), -*a, a.inverse().unwrap_or_default()];
            for (k, w) in want.iter().enumerate() {
                assert_eq!(slot(k), *w, "item {n} slot {k}");
            }
            let root = slot(6);
            match a.sqrt() {
                Some(r) => {
                    assert_eq!(got[180], 1, "item {n}: a square");
                    assert!(root == r || root == -r, "item {n}: sqrt");
                }
                None => assert_eq!((got[180], root), (0, Fq::from(0u64)), "item {n}: no sqrt"),
            }
            let xi = Fq2::new(Fq::from(1u64), Fq::from(1u64));
            for (k, w) in [x * y, x.square(), inv2, xi * x].iter().enumerate() {
                assert_eq!(Fq2::new(slot(7 + 2 * k), slot(8 + 2 * k)), *w, "item {n} fp2 op {k}");
            }
        }
    }

    /// The field probe translates to Metal and HLSL as the kernels do
    /// (`every_kernel_translates_to_metal_and_hlsl`): 384-bit code is
    /// portable beyond Vulkan.
    #[test]
    fn tower_probes_translate_to_metal_and_hlsl() {
        let fp = [
            shaders::fp2_layer(shaders::Tower::Bls12381),
            FP_IO.to_string(),
            FP381_PROBE.to_string(),
        ]
        .join("\n");
        shaders::tests::assert_translates("fp381", &source(&fp, 48, 181), &["probe"], true);
    }
}
