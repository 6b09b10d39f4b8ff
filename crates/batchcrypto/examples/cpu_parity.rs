//! Is the CPU path of the NTT and the MSM at parity with arkworks
//! multi-threaded (issue 18)? Times the engine's CPU backend against
//! arkworks' own parallel code on the same number of threads, in one
//! process, the two sides alternating, median of `RUNS` runs after a
//! warm-up, the answers compared:
//! - NTT over BN254's scalar field, forward, natural orders: `Engine::ntt`
//!   on the polynomials' bytes against `ark-poly`'s radix-2 domain
//!   (`fft_in_place`, parallel) on elements already decoded, for one
//!   polynomial of 2^20, 64 of 2^14 and 1,024 of 2^10 elements (the
//!   engine's time includes reading and writing the bytes and its fresh
//!   buffers' page faults, arkworks' only the transforms);
//! - MSM on BN254's G1: `Engine::msm_with` over bases checked once, on the
//!   scalars' bytes, against arkworks' `VariableBaseMSM::msm_bigint`
//!   (parallel over its windows) on affine bases and reduced scalars, at
//!   2^16, 2^18 and 2^20 terms (1,024 distinct points repeated).
//!
//! BLS12-381's MSM is blst's own multi-threaded Pippenger call on the CPU
//! path, so it is not timed here.
//!
//! ```sh
//! cargo run --release --example cpu_parity -p batchcrypto [-- THREADS RUNS]
//! ```

use std::time::Instant;

use ark_bn254::{Fr, G1Affine, G1Projective};
use ark_ec::{CurveGroup, PrimeGroup, VariableBaseMSM};
use ark_ff::{BigInteger, PrimeField};
use ark_poly::{EvaluationDomain, Radix2EvaluationDomain};
use batchcrypto::ops::msm::{Curve, Encoding};
use batchcrypto::ops::ntt::{Field, Transform};
use batchcrypto::{BackendChoice, Engine};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// One side's answer and the milliseconds of the part it times.
type Run<'a> = Box<dyn Fn() -> Result<(Vec<u8>, f64), String> + 'a>;

/// Milliseconds since `start`.
fn ms(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// Median milliseconds of `runs` runs of each side after one warm-up, the
/// sides alternating; their answers must agree.
fn side_by_side(runs: usize, engine: Run<'_>, arkworks: Run<'_>) -> Result<(f64, f64), String> {
    let mut times = [Vec::new(), Vec::new()];
    for run in 0..=runs {
        let mut answers = Vec::new();
        for (side, f) in [&engine, &arkworks].into_iter().enumerate() {
            let (answer, time) = f()?;
            answers.push(answer);
            if run > 0 {
                times[side].push(time);
            }
        }
        if answers[0] != answers[1] {
            return Err("the engine and arkworks disagree".into());
        }
    }
    let [mut e, mut a] = times;
    e.sort_by(f64::total_cmp);
    a.sort_by(f64::total_cmp);
    Ok((e[e.len() / 2], a[a.len() / 2]))
}

fn le(x: Fr) -> Vec<u8> {
    x.into_bigint().to_bytes_le()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse()).collect::<Result<_, _>>()?;
    let threads = args.first().copied().unwrap_or(2);
    let runs = args.get(1).copied().unwrap_or(7);
    let engine = Engine::builder().backend(BackendChoice::Cpu).threads(threads).build()?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let mut rng = StdRng::seed_from_u64(18);
    println!("{threads} threads, medians of {runs} runs; engine / arkworks: their times' ratio (> 1: arkworks slower)");

    for (log_n, count) in [(20u32, 1usize), (14, 64), (10, 1024)] {
        let n = 1usize << log_n;
        let elements: Vec<Fr> = (0..n * count)
            .map(|_| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>()))
            .collect();
        let bytes: Vec<u8> = elements.iter().flat_map(|&x| le(x)).collect();
        let t = Transform::new(Field::Bn254Fr, log_n);
        let domain = Radix2EvaluationDomain::<Fr>::new(n).ok_or("no domain")?;
        let (e, a) = side_by_side(
            runs,
            // The engine's whole call, bytes in and out.
            Box::new(|| {
                let start = Instant::now();
                let out = engine.ntt(&t, &bytes).map_err(|e| e.to_string())?.output;
                let time = ms(start);
                let polys = out
                    .into_iter()
                    .map(|r| r.map_err(|r| r.to_string()))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((polys.concat(), time))
            }),
            // The transforms alone, on elements already decoded.
            Box::new(|| {
                let mut polys: Vec<Vec<Fr>> = elements.chunks(n).map(<[Fr]>::to_vec).collect();
                let start = Instant::now();
                pool.install(|| polys.iter_mut().for_each(|p| domain.fft_in_place(p)));
                let time = ms(start);
                Ok((polys.iter().flatten().flat_map(|&x| le(x)).collect(), time))
            }),
        )?;
        println!(
            "ntt bn254-fr 2^{log_n} x {count}: engine {e:.1} ms, ark-poly {a:.1} ms, {:.2}x",
            a / e
        );
    }

    let g = G1Projective::generator();
    let distinct: Vec<G1Affine> =
        G1Projective::normalize_batch(&(0..1024).map(|_| g * Fr::from(rng.random::<u64>())).collect::<Vec<_>>());
    for log_n in [16u32, 18, 20] {
        let n = 1usize << log_n;
        let bases: Vec<G1Affine> = distinct.iter().cycle().take(n).copied().collect();
        let bigints: Vec<_> = (0..n)
            .map(|_| Fr::from_le_bytes_mod_order(&rng.random::<[u8; 32]>()).into_bigint())
            .collect();
        let scalars: Vec<u8> = bigints.iter().flat_map(|b| b.to_bytes_le()).collect();
        let encode = |p: G1Affine| [p.x.into_bigint().to_bytes_be(), p.y.into_bigint().to_bytes_be()].concat();
        let points: Vec<u8> = bases.iter().flat_map(|&p| encode(p)).collect();
        let checked = engine.msm_bases(Curve::Bn254G1, Encoding::Uncompressed, &points)?;
        let (e, a) = side_by_side(
            if log_n >= 20 { runs.min(5) } else { runs },
            Box::new(|| {
                let start = Instant::now();
                let sum = engine.msm_with(&checked, &scalars).map_err(|e| e.to_string())?.output;
                Ok((sum, ms(start)))
            }),
            Box::new(|| {
                let start = Instant::now();
                let sum = pool.install(|| G1Projective::msm_bigint(&bases, &bigints));
                let time = ms(start);
                Ok((encode(sum.into_affine()), time))
            }),
        )?;
        println!(
            "msm bn254-g1 2^{log_n}: engine {e:.1} ms, arkworks {a:.1} ms, {:.2}x",
            a / e
        );
    }
    Ok(())
}
