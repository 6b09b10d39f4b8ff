//! The `auto` dispatcher: it follows the calibration profile it is given
//! (crossover, split) and says why in the selection; without a profile, or
//! with one measured on another adapter, it uses the CPU. A CPU+GPU split
//! returns exactly what the oracle returns. Profiles survive a save/load.

use std::collections::BTreeMap;

use batchcrypto::ops::ed25519::{Policy, oracle, sample};
use batchcrypto::ops::hash::{self, Alg};
use batchcrypto::ops::merkle::Rule;
use batchcrypto::profile::{OpProfile, Point, Profile, Split, VERSION};
use batchcrypto::{Backend, Engine, FlatBytes};

/// The GPU engine of the harness, if this machine has an adapter.
fn op(crossover: Option<usize>, split: Option<Split>) -> OpProfile {
    OpProfile {
        crossover,
        points: vec![Point {
            n: 1024,
            cpu_items_per_s: 1e6,
            gpu_items_per_s: Some(2e6),
        }],
        split,
    }
}

fn profile(adapter: Option<String>, adapter_name: Option<String>) -> Profile {
    let mut ops = BTreeMap::new();
    ops.insert("keccak256".to_string(), op(Some(100), None));
    ops.insert(
        "sha256".to_string(),
        op(
            Some(10),
            Some(Split {
                n: 1000,
                cpu_share: 0.3,
                speedup: 1.5,
            }),
        ),
    );
    ops.insert("ed25519_verify_strict".to_string(), op(None, None));
    Profile {
        version: VERSION,
        created: "2026-11-29T00:00:00Z".to_string(),
        commit: "test".to_string(),
        cpu: "test cpu".to_string(),
        threads: 2,
        adapter,
        adapter_name,
        ops,
    }
}

fn msgs(n: usize) -> FlatBytes {
    let mut m = FlatBytes::new();
    for i in 0..n {
        assert!(m.push(&(i as u32).to_le_bytes().repeat(i % 50)));
    }
    m
}

fn check_digests(alg: Alg, m: &FlatBytes, got: &[hash::Digest]) {
    assert_eq!(got.len(), m.len());
    for (i, d) in got.iter().enumerate() {
        assert_eq!(*d, hash::oracle::digest(alg, m.get(i)), "item {i}");
    }
}

#[test]
fn auto_without_profile_uses_the_cpu_and_says_why() {
    let engine = Engine::builder().without_profile().build().expect("engine");
    let out = engine.hash(Alg::Keccak256, &msgs(10)).expect("hash");
    assert_eq!(out.selection.backend, Backend::Cpu);
    assert!(
        out.selection.why.contains("no calibration profile"),
        "{}",
        out.selection
    );
}

#[test]
fn auto_follows_the_profile() {
    let Some(gpu) = crate::support::gpu_engine() else {
        return;
    };
    let engine = Engine::builder()
        .profile(profile(gpu.gpu_adapter(), gpu.gpu_adapter_name()))
        .build()
        .expect("auto engine");
    assert!(engine.profile().is_some());
    // Below and above keccak256's crossover.
    let small = msgs(50);
    let out = engine.hash(Alg::Keccak256, &small).expect("hash");
    assert_eq!(out.selection.backend, Backend::Cpu, "{}", out.selection);
    assert!(
        out.selection.why.contains("below the calibrated crossover N*=100"),
        "{}",
        out.selection
    );
    check_digests(Alg::Keccak256, &small, &out.output);
    let large = msgs(300);
    let out = engine.hash(Alg::Keccak256, &large).expect("hash");
    assert_eq!(out.selection.backend, Backend::Gpu, "{}", out.selection);
    check_digests(Alg::Keccak256, &large, &out.output);
    // sha256: the GPU above 10, both at once from 1000 (30% on the CPU).
    let out = engine.hash(Alg::Sha256, &large).expect("hash");
    assert_eq!(out.selection.backend, Backend::Gpu, "{}", out.selection);
    let big = msgs(2001);
    let out = engine.hash(Alg::Sha256, &big).expect("hash");
    assert_eq!(out.selection.backend, Backend::Split, "{}", out.selection);
    assert!(
        out.selection.why.contains("600 items on the cpu, 1401 on the gpu"),
        "{}",
        out.selection
    );
    check_digests(Alg::Sha256, &big, &out.output);
    // The GPU never won Ed25519; Merkle roots are not in the profile.
    let items = sample::generate(&sample::Config {
        count: 40,
        ..Default::default()
    });
    let out = engine
        .verify_ed25519(&sample::batch(&items), Policy::Strict)
        .expect("verify");
    assert_eq!(out.selection.backend, Backend::Cpu);
    assert!(out.selection.why.contains("never beat"), "{}", out.selection);
    let leaves = [[1u8; 32], [2u8; 32], [3u8; 32]];
    let out = engine.merkle_root(Rule::Bitcoin, &leaves).expect("root");
    assert!(out.selection.why.contains("not in the profile"), "{}", out.selection);
}

#[test]
fn a_profile_of_another_adapter_is_not_followed() {
    let engine = Engine::builder()
        .profile(profile(
            Some("Imaginary GPU 9000 (discretegpu, Vulkan, 1.0)".to_string()),
            Some("Imaginary GPU 9000".to_string()),
        ))
        .build()
        .expect("auto engine");
    let out = engine.hash(Alg::Keccak256, &msgs(500)).expect("hash");
    assert_eq!(out.selection.backend, Backend::Cpu);
    assert!(
        out.selection.why.contains("the CPU is the default"),
        "{}",
        out.selection
    );
}

/// A forced split of a hostile Ed25519 batch gives the oracle's verdicts,
/// at every share including all-CPU and all-GPU.
#[test]
fn split_batches_match_the_oracle() {
    let Some(gpu) = crate::support::gpu_engine() else {
        return;
    };
    let items = sample::generate(&sample::Config {
        count: 300,
        hostile_share: 0.4,
        seed: 99,
        ..Default::default()
    });
    let batch = sample::batch(&items);
    for share in [0.0, 0.37, 0.5, 1.0] {
        gpu.set_split_share(Some(share));
        let out = gpu.verify_ed25519(&batch, Policy::Zip215);
        gpu.set_split_share(None);
        let out = out.expect("verify");
        assert_eq!(out.selection.backend, Backend::Split, "{}", out.selection);
        let want: Vec<bool> = items
            .iter()
            .map(|it| oracle::verify(Policy::Zip215, &it.pk, &it.sig, &it.msg))
            .collect();
        crate::support::assert_each(&format!("share {share}"), &out.output, &want, |v, w| v.is_valid() == *w);
    }
}

#[test]
fn profiles_round_trip_and_versions_are_checked() {
    let dir = std::env::temp_dir().join(format!("batchcrypto-profile-{}", std::process::id()));
    let path = dir.join("nested").join("profile.json");
    let p = profile(Some("a (b)".to_string()), Some("a".to_string()));
    p.save(&path).expect("save");
    assert_eq!(Profile::load(&path).expect("load"), Some(p.clone()));
    assert_eq!(Profile::load(&dir.join("missing.json")).expect("missing is fine"), None);
    let mut old = p;
    old.version = VERSION + 1;
    old.save(&path).expect("save");
    let err = Profile::load(&path).expect_err("version");
    assert!(err.contains("calibrate"), "{err}");
    std::fs::write(&path, "{not json").expect("write");
    assert!(Profile::load(&path).is_err());
    std::fs::remove_dir_all(&dir).ok();
}

/// A library user calibrates without the CLI: the profile names every op
/// that was asked for (by its name; every op has a GPU kernel), with a
/// point per measured size, and an `Auto` engine takes it.
#[test]
fn library_users_can_calibrate() {
    let cpu = crate::support::cpu_engine(None);
    // A GPU engine of its own: the harness's runs the other tests' long
    // dispatches (BLS12-381 on lavapipe takes seconds each), which this
    // one's short calls would wait behind.
    let gpu = crate::support::gpu_engine().map(|_| {
        Engine::builder()
            .backend(batchcrypto::BackendChoice::Gpu)
            .build()
            .expect("the GPU engine the harness found")
    });
    let gpu = gpu.as_ref();
    let ops = vec![
        batchcrypto::registry::by_name("keccak256_32").expect("declared"),
        batchcrypto::registry::by_name("sha256_64").expect("declared"),
    ];
    let profile = batchcrypto::ladder::calibrate(&batchcrypto::ladder::Calibration {
        ops,
        sizes: vec![16, 64],
        cpu: &cpu,
        gpu,
        // Enough that a loaded machine does not cut the second size (each op
        // gets its share; the first GPU call compiles the pipeline, which
        // took over 5 s on lavapipe beside other tests): a bound, not a
        // duration.
        max_seconds: 600.0,
        created: "2026-11-30T00:00:00Z".to_string(),
        commit: "test".to_string(),
        progress: &|_| {},
    })
    .expect("calibrate");
    assert_eq!(profile.ops.keys().collect::<Vec<_>>(), ["keccak256", "sha256"]);
    let points = &profile.ops["keccak256"].points;
    assert_eq!(points.iter().map(|p| p.n).collect::<Vec<_>>(), [16, 64]);
    assert!(points.iter().all(|p| p.cpu_items_per_s > 0.0));
    assert_eq!(points.iter().all(|p| p.gpu_items_per_s.is_some()), gpu.is_some());
    assert!(profile.describe().contains("keccak256"));
    Engine::builder()
        .profile(profile)
        .build()
        .expect("an auto engine with the profile");
}

/// A profile is a user's file: odd text in it never panics the report.
#[test]
fn describing_a_profile_with_odd_text_does_not_panic() {
    let mut p = profile(Some("é (b)".to_string()), Some("é".to_string()));
    p.commit = "ééééééééééééé".to_string();
    assert!(p.describe().contains("éééééééééé"));
}

/// Built without a GPU runtime (no `wgpu` feature), asking for the GPU is a
/// clear error that says so, `auto` runs on the CPU, and no adapter is listed.
#[cfg(not(feature = "wgpu"))]
#[test]
fn without_a_gpu_runtime_the_gpu_is_not_compiled_in() {
    match Engine::builder().backend(batchcrypto::BackendChoice::Gpu).build() {
        Err(batchcrypto::Error::BackendUnavailable { reason, .. }) => {
            assert!(
                reason.contains("not compiled in") || reason.contains("without its `wgpu`"),
                "{reason}"
            );
        }
        other => panic!("expected BackendUnavailable, got {other:?}"),
    }
    assert!(batchcrypto::gpu::adapters().is_empty());
    let engine = Engine::builder().without_profile().build().expect("auto engine");
    let out = engine.hash(Alg::Keccak256, &msgs(10)).expect("hash");
    assert_eq!(out.selection.backend, Backend::Cpu);
}
