//! How fast are whole Bitcoin blocks checked against their headers
//! (`Engine::verify_bitcoin_blocks`) beside rust-bitcoin doing the same
//! checks? One process, the sides alternating, median of `RUNS` runs after
//! a warm-up, the answers compared:
//! - the engine (its CPU backend on `THREADS` threads, and its GPU backend
//!   where an adapter opens) on the blocks' bytes: reading, txids, wtxids,
//!   trees, proof of work, commitment;
//! - rust-bitcoin on the same bytes, the blocks spread over the same
//!   number of rayon threads: `consensus::deserialize`, `block_hash`,
//!   `Header::target` met, `check_merkle_root`, `check_witness_commitment`
//!   (no mutation check: rust-bitcoin has none).
//!
//! The blocks: `testdata/bitcoin-blocks`'s mainnet block 702,861 (2,500
//! transactions, 1.38 MB) `COPIES` times.
//!
//! ```sh
//! cargo run --release --example bitcoin_blocks -p batchcrypto [-- THREADS RUNS COPIES]
//! ```

use std::time::Instant;

use batchcrypto::ops::merkle::block::Network;
use batchcrypto::{BackendChoice, Engine, FlatBytes};
use bitcoin::Block;
use bitcoin::consensus::deserialize;
use bitcoin::hashes::Hash;
use rayon::prelude::*;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), String> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().map_err(|e| format!("{a}: {e}")))
        .collect::<Result<_, _>>()?;
    let threads = args
        .first()
        .copied()
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runs = args.get(1).copied().unwrap_or(7);
    let copies = args.get(2).copied().unwrap_or(16);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/bitcoin-blocks/mainnet_block_000000000000000000000c835b2adcaedc20fdf6ee440009c249452c726dafae.raw"
    );
    let block = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let mut blocks = FlatBytes::new();
    for _ in 0..copies {
        if !blocks.push(&block) {
            return Err("too many copies".into());
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    let rust_bitcoin = || -> Vec<([u8; 32], bool)> {
        pool.install(|| {
            (0..blocks.len())
                .into_par_iter()
                .map(|i| {
                    let b: Block = deserialize(blocks.get(i)).expect("reads");
                    let hash = b.block_hash();
                    let ok = b.header.target().is_met_by(hash) && b.check_merkle_root() && b.check_witness_commitment();
                    (hash.to_byte_array(), ok)
                })
                .collect()
        })
    };
    let mut engines = vec![(
        format!("engine cpu ({threads} threads)"),
        Engine::builder()
            .backend(BackendChoice::Cpu)
            .threads(threads)
            .build()
            .map_err(|e| e.to_string())?,
    )];
    if let Ok(gpu) = Engine::builder().backend(BackendChoice::Gpu).build() {
        engines.push((format!("engine gpu ({})", gpu.gpu_adapter().unwrap_or_default()), gpu));
    }
    let want = rust_bitcoin();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); engines.len() + 1];
    for run in 0..=runs {
        let start = Instant::now();
        let got = rust_bitcoin();
        let t = start.elapsed().as_secs_f64();
        assert_eq!(got, want);
        if run > 0 {
            times[0].push(t);
        }
        for (k, (name, engine)) in engines.iter().enumerate() {
            let start = Instant::now();
            let out = engine
                .verify_bitcoin_blocks(&blocks, Network::Main)
                .map_err(|e| e.to_string())?;
            let t = start.elapsed().as_secs_f64();
            let got: Vec<([u8; 32], bool)> = out
                .output
                .iter()
                .map(|r| r.map(|c| (c.hash, c.failure.is_none())).expect("reads"))
                .collect();
            assert_eq!(got, want, "{name}");
            if run > 0 {
                times[k + 1].push(t);
            }
        }
    }
    let bytes = (copies * block.len()) as f64;
    let base = median(times[0].clone());
    println!(
        "{copies} blocks of {} bytes (2,500 transactions), median of {runs} runs after a warm-up",
        block.len()
    );
    println!("| side | ms | blocks/s | MB/s | vs rust-bitcoin |");
    println!("|---|---|---|---|---|");
    let names = std::iter::once(format!("rust-bitcoin 0.32 ({threads} rayon threads)"))
        .chain(engines.iter().map(|e| e.0.clone()));
    for (name, t) in names.zip(times) {
        let m = median(t);
        println!(
            "| {name} | {:.1} | {:.1} | {:.1} | {:.2}x |",
            m * 1e3,
            copies as f64 / m,
            bytes / m / 1e6,
            base / m
        );
    }
    Ok(())
}
