//! The `batchcrypto` binary against the line-format contract
//! (../shared/CLI-FORMATS.md): one output line per input line, malformed
//! lines reported with their number, exit statuses, and verdicts equal to
//! the oracle's on large hostile files.

mod support;

use std::io::Write;
use std::process::{Output, Stdio};

use support::{bin, has_usable_gpu, run_with_stdin};

use batchcrypto::ops::ed25519::{Policy, oracle, sample};
use batchcrypto::ops::hash;
use batchcrypto::ops::merkle::{self, Rule};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn stdout_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8(out.stdout.clone())
        .expect("utf-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("output line {l:?} is not JSON: {e}")))
        .collect()
}

/// Runs `args` on `input` with `--backend cpu` and with `--backend gpu`:
/// the same exit status and byte-equal output, the GPU run saying it ran
/// there as requested. Returns the CPU run.
fn gpu_prints_what_cpu_prints(args: &[&str], input: &[u8]) -> std::process::Output {
    let run = |backend: &str| run_with_stdin(&[args, &["--backend", backend]].concat(), input);
    let (cpu, gpu) = (run("cpu"), run("gpu"));
    assert_eq!(gpu.status.code(), cpu.status.code(), "{args:?}");
    let stderr = String::from_utf8_lossy(&gpu.stderr);
    assert!(stderr.contains("backend gpu (requested)"), "{args:?}: {stderr}");
    assert_eq!(
        String::from_utf8_lossy(&gpu.stdout),
        String::from_utf8_lossy(&cpu.stdout),
        "{args:?}"
    );
    cpu
}

fn item_line(item: &sample::Item) -> String {
    format!(
        "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\"}}",
        hex::encode(item.pk),
        hex::encode(item.sig),
        hex::encode(&item.msg)
    )
}

/// The "done when" check: a large file of valid, corrupted and hostile items
/// with malformed lines among them gives exactly the oracle's verdicts per
/// policy, error lines with the right numbers, and exit status 2.
/// `BATCHCRYPTO_CLI_ITEMS` sets the size (default 20,000).
#[test]
fn large_hostile_file_matches_oracle_for_both_policies() {
    let count = std::env::var("BATCHCRYPTO_CLI_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20_000);
    let items = sample::generate(&sample::Config {
        count,
        hostile_share: 0.4,
        signers: 64,
        seed: 2026,
        ..Default::default()
    });
    let malformed_every = 997;
    let mut input = String::new();
    let mut expected_lines: Vec<Option<usize>> = Vec::new(); // Some(item index) or None (malformed)
    for (i, item) in items.iter().enumerate() {
        if i % malformed_every == 0 {
            input.push_str("{\"pk\":\"zz\"}\n");
            expected_lines.push(None);
        }
        input.push_str(&item_line(item));
        input.push('\n');
        expected_lines.push(Some(i));
    }
    let dir = std::env::temp_dir().join(format!("batchcrypto-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let path = dir.join("hostile.jsonl");
    std::fs::write(&path, &input).expect("write input");
    for policy in Policy::ALL {
        let out = bin()
            .args([
                "verify",
                "ed25519",
                "--backend",
                "cpu",
                "--policy",
                policy.name(),
                "--input",
            ])
            .arg(&path)
            .output()
            .expect("run");
        assert_eq!(
            out.status.code(),
            Some(2),
            "{policy}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = stdout_lines(&out);
        assert_eq!(
            lines.len(),
            expected_lines.len(),
            "{policy}: one output line per input line"
        );
        let (mut valid, mut invalid) = (0, 0);
        for (n, (line, expected)) in lines.iter().zip(&expected_lines).enumerate() {
            match expected {
                None => {
                    let err = line["error"].as_str().expect("error line");
                    assert!(err.starts_with(&format!("line {}: ", n + 1)), "{err}");
                }
                Some(i) => {
                    let item = &items[*i];
                    let want = oracle::verify(policy, &item.pk, &item.sig, &item.msg);
                    assert_eq!(
                        line["valid"].as_bool(),
                        Some(want),
                        "{policy} line {} ({:?})",
                        n + 1,
                        item.kind
                    );
                    if want {
                        valid += 1;
                        assert_eq!(line.as_object().map(|o| o.len()), Some(1));
                    } else {
                        invalid += 1;
                        assert!(line["reason"].is_string());
                    }
                }
            }
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        let malformed = expected_lines.iter().filter(|e| e.is_none()).count();
        assert!(
            stderr.contains(&format!("{valid} valid, {invalid} invalid, {malformed} malformed")),
            "summary: {stderr}"
        );
        assert!(stderr.contains("backend cpu (requested)"), "summary: {stderr}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn malformed_lines_are_reported_and_processing_continues() {
    let item = &sample::generate(&sample::Config {
        count: 1,
        seed: 5,
        ..Default::default()
    })[0];
    let good = item_line(item);
    let pk = hex::encode(item.pk);
    let sig = hex::encode(item.sig);
    let msg = hex::encode(&item.msg);
    let cases: Vec<(String, Option<&str>)> = vec![
        (good.clone(), None),
        (String::new(), Some("empty line")),
        ("not json".into(), Some("not a JSON object")),
        ("[1,2,3]".into(), Some("not a JSON object")),
        ("{\"pk\":".into(), Some("invalid JSON")),
        (
            format!("{{\"sig\":\"{sig}\",\"msg\":\"{msg}\"}}"),
            Some("missing field \"pk\""),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"msg\":\"{msg}\"}}"),
            Some("missing field \"sig\""),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}\"}}"),
            Some("missing field \"msg\""),
        ),
        (
            format!("{{\"pk\":\"{}\",\"sig\":\"{sig}\",\"msg\":\"\"}}", &pk[2..]),
            Some("expected 32 bytes"),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}00\",\"msg\":\"\"}}"),
            Some("expected 64 bytes"),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}\",\"msg\":\"abc\"}}"),
            Some("odd number of hex digits"),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}\",\"msg\":\"zz\"}}"),
            Some("'z' at character 0 is not a hex digit"),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}\",\"msg\":\"ab cd\"}}"),
            Some("field \"msg\": ' ' at character 2 is not a hex digit"),
        ),
        (
            format!("{{\"pk\":\"{pk}\",\"sig\":\"{sig}\",\"msg\":\"abé0\"}}"),
            Some("'é' at character 2 is not a hex digit"),
        ),
        (
            format!("{{\"pk\":7,\"sig\":\"{sig}\",\"msg\":\"\"}}"),
            Some("field \"pk\" is a number; expected a hex string"),
        ),
        (
            format!("{{\"pk\":null,\"sig\":\"{sig}\",\"msg\":\"\"}}"),
            Some("field \"pk\" is null; expected a hex string"),
        ),
        // Accepted variants: 0x prefix, upper case, extra fields, CRLF.
        (
            format!(
                "{{\"pk\":\"0x{pk}\",\"sig\":\"{}\",\"msg\":\"{msg}\",\"extra\":[1]}}",
                sig.to_uppercase()
            ),
            None,
        ),
        (format!("{good}\r"), None),
    ];
    let mut input: Vec<u8> = Vec::new();
    for (line, _) in &cases {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"\xff\xfe not utf-8\n");
    input.extend_from_slice(good.as_bytes()); // last line without newline
    let out = run_with_stdin(&["verify", "ed25519", "--backend", "cpu"], &input);
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), cases.len() + 2);
    for (n, ((_, want), got)) in cases.iter().zip(&lines).enumerate() {
        match want {
            None => assert_eq!(got, &serde_json::json!({"valid": true}), "line {}", n + 1),
            Some(text) => {
                let err = got["error"].as_str().unwrap_or_else(|| panic!("line {}: {got}", n + 1));
                assert!(err.starts_with(&format!("line {}: ", n + 1)), "{err}");
                assert!(err.contains(text), "line {}: {err:?} lacks {text:?}", n + 1);
            }
        }
    }
    assert!(
        lines[cases.len()]["error"]
            .as_str()
            .is_some_and(|e| e.contains("UTF-8"))
    );
    assert_eq!(lines[cases.len() + 1], serde_json::json!({"valid": true}));
}

#[test]
fn all_well_formed_exits_0_and_writes_output_file() {
    let items = sample::generate(&sample::Config {
        count: 50,
        hostile_share: 0.5,
        seed: 6,
        ..Default::default()
    });
    let input: String = items.iter().map(|i| item_line(i) + "\n").collect();
    let dir = std::env::temp_dir().join(format!("batchcrypto-cli-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let out_path = dir.join("out.jsonl");
    let out = run_with_stdin(
        &[
            "verify",
            "ed25519",
            "--policy",
            "zip215",
            "--output",
            out_path.to_str().expect("path"),
        ],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&out_path).expect("output file");
    assert_eq!(written.lines().count(), 50);
    for (line, item) in written.lines().zip(&items) {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(
            v["valid"].as_bool(),
            Some(oracle::verify_zip215(&item.pk, &item.sig, &item.msg))
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn usage_and_device_errors_exit_3() {
    let out = run_with_stdin(&["verify", "ed25519", "--no-such-flag"], b"");
    assert_eq!(out.status.code(), Some(3));
    let out = run_with_stdin(&["verify", "ed25519", "--policy", "lax"], b"");
    assert_eq!(out.status.code(), Some(3));
    let out = run_with_stdin(&["verify", "ed25519", "--input", "/nonexistent/file.jsonl"], b"");
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.jsonl"));
    // --backend gpu without a usable adapter: exit 3 before any work, naming what was looked for.
    if !has_usable_gpu() {
        let out = run_with_stdin(&["verify", "ed25519", "--backend", "gpu"], b"{}\n");
        assert_eq!(out.status.code(), Some(3));
        assert!(out.stdout.is_empty(), "no output before the device error");
        assert!(String::from_utf8_lossy(&out.stderr).contains("gpu"));
    }
    let help = run_with_stdin(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
}

/// `--backend gpu` prints exactly what `--backend cpu` prints (verdicts and
/// reasons) on a hostile file with malformed lines, for both policies, and
/// the summary says the GPU ran. Skipped (with a notice) without a usable
/// adapter, unless BATCHCRYPTO_REQUIRE_GPU=1.
#[test]
fn gpu_backend_prints_what_cpu_prints() {
    if !has_usable_gpu() {
        let _ = writeln!(std::io::stderr(), "note: no usable GPU adapter; CLI GPU test skipped");
        return;
    }
    let items = sample::generate(&sample::Config {
        count: 3000,
        hostile_share: 0.5,
        signers: 32,
        max_msg_len: 600,
        seed: 77,
    });
    let mut input = String::new();
    for (i, item) in items.iter().enumerate() {
        if i % 500 == 7 {
            input.push_str("{\"pk\":1}\n");
        }
        input.push_str(&item_line(item));
        input.push('\n');
    }
    for policy in Policy::ALL {
        let cpu = gpu_prints_what_cpu_prints(&["verify", "ed25519", "--policy", policy.name()], input.as_bytes());
        assert_eq!(cpu.status.code(), Some(2));
    }
}

/// The Schnorr verbs' "done when": on large hostile files from `sample`
/// with malformed lines mixed in, `--backend gpu` prints exactly what
/// `--backend cpu` prints, and says the GPU ran (sr25519 on the GPU with a
/// signing context; without one on the CPU, as the library's tests run it
/// on the GPU: each process here creates its pipelines anew).
#[test]
fn schnorr_verbs_print_on_the_gpu_what_the_cpu_prints() {
    if !has_usable_gpu() {
        let _ = writeln!(std::io::stderr(), "note: no usable GPU adapter; CLI GPU test skipped");
        return;
    }
    for (op, verb) in [
        ("bip340", vec!["verify", "bip340"]),
        ("sr25519", vec!["verify", "sr25519"]),
        ("sr25519", vec!["verify", "sr25519", "--context", "polkadot"]),
    ] {
        let args = ["sample", op, "--count", "2000", "--seed", "5", "--hostile-share", "0.5"];
        let sample = run_with_stdin(&args, b"");
        assert_eq!(sample.status.code(), Some(0), "{op}");
        let mut input = String::new();
        for (i, line) in String::from_utf8_lossy(&sample.stdout).lines().enumerate() {
            if i % 400 == 3 {
                input.push_str("{\"pk\":\"zz\"}\n");
            }
            input.push_str(line);
            input.push('\n');
        }
        let cpu = if verb.len() == 2 && op == "sr25519" {
            run_with_stdin(&[&verb[..], &["--backend", "cpu"]].concat(), input.as_bytes())
        } else {
            gpu_prints_what_cpu_prints(&verb, input.as_bytes())
        };
        assert_eq!(cpu.status.code(), Some(2), "{verb:?}: malformed lines");
        assert_eq!(stdout_lines(&cpu).len(), 2005, "{verb:?}: one line per input line");
    }
}

#[test]
fn empty_input_gives_empty_output() {
    let out = run_with_stdin(&["verify", "ed25519"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn bundled_example_verifies() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/ed25519.jsonl");
    let text = std::fs::read_to_string(path).expect("examples/ed25519.jsonl");
    for policy in Policy::ALL {
        let out = bin()
            .args(["verify", "ed25519", "--policy", policy.name(), "--input", path])
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0));
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), text.lines().count());
        for (line, input) in lines.iter().zip(text.lines()) {
            let v: serde_json::Value = serde_json::from_str(input).expect("example json");
            let field = |k: &str| hex::decode(v[k].as_str().expect("field")).expect("hex");
            let (pk, sig, msg) = (field("pk"), field("sig"), field("msg"));
            let want = oracle::verify(
                policy,
                &pk.as_slice().try_into().expect("pk"),
                &sig.as_slice().try_into().expect("sig"),
                &msg,
            );
            assert_eq!(line["valid"].as_bool(), Some(want));
        }
    }
}

#[test]
fn sample_is_deterministic_and_bench_writes_json() {
    let a = run_with_stdin(&["sample", "ed25519", "--count", "20", "--seed", "9"], b"");
    let b = run_with_stdin(&["sample", "ed25519", "--count", "20", "--seed", "9"], b"");
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    assert_eq!(String::from_utf8_lossy(&a.stdout).lines().count(), 20);

    let dir = std::env::temp_dir().join(format!("batchcrypto-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let json_path = dir.join("bench.json");
    let out = bin()
        .args([
            "bench",
            "--op",
            "ed25519_verify_strict,ed25519_verify_zip215,keccak256_32",
            "--sizes",
            "1,8",
            "--max-seconds",
            "30",
            "--json",
        ])
        .arg(&json_path)
        .output()
        .expect("bench");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("| ed25519_verify_strict | 8 |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json_path).expect("json")).expect("valid JSON");
    for key in ["cpu", "cores", "adapters", "commit", "date"] {
        assert!(!json["machine"][key].is_null(), "machine.{key}");
    }
    // The host's steal during the run: a share where Linux counts it (and
    // then on the report's header too), null elsewhere.
    let steal = &json["machine"]["host_steal"];
    if std::path::Path::new("/proc/stat").exists() {
        let share = steal.as_f64().expect("host_steal on Linux");
        assert!((0.0..=1.0).contains(&share), "{share}");
        assert!(md.contains("host steal during the run: "), "{md}");
    } else {
        assert!(steal.is_null());
    }
    let rows = json["rows"].as_array().expect("rows");
    let backend = |b: &str| rows.iter().filter(|r| r["backend"] == b).collect::<Vec<_>>();
    assert_eq!(backend("oracle_1t").len(), 3 * 2, "3 ops x 2 sizes");
    assert_eq!(backend("cpu").len(), 3 * 2, "3 ops x 2 sizes");
    // Keccak's other CPU library (keccak-asm) is timed where it builds; the
    // Ed25519 ops name none.
    let alt = backend("alt_1t");
    let asm = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));
    assert_eq!(alt.len(), if asm { 2 } else { 0 }, "keccak256_32 x 2 sizes");
    for row in &alt {
        assert_eq!(
            (row["op"].as_str(), row["library"].as_str()),
            (Some("keccak256_32"), Some("keccak-asm"))
        );
    }
    assert_eq!(rows.len(), 3 * 2 * 2 + alt.len(), "no other rows");
    assert!(md.contains("| keccak256_32 | 8 |"), "{md}");
    for row in rows {
        for key in ["op", "n", "backend", "median_s", "items_per_s", "runs"] {
            assert!(!row[key].is_null(), "row.{key}");
        }
    }
    assert!(json["crossover"]["ed25519_verify_strict"].is_null());
    std::fs::remove_dir_all(&dir).ok();
}

/// `hash <alg>`: one digest line per input line, equal to the oracle crate;
/// malformed lines reported in place; exit 2 when any line was malformed.
#[test]
fn hash_lines_match_oracle() {
    // Every length 0..300, then random lengths up to 2,000 bytes
    // (`BATCHCRYPTO_CLI_ITEMS` lines in all, default 4,000).
    let count = std::env::var("BATCHCRYPTO_CLI_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(4_000usize)
        .max(300);
    let mut rng = StdRng::seed_from_u64(136);
    let datas: Vec<Vec<u8>> = (0..count)
        .map(|n| {
            let len = if n < 300 { n } else { rng.random_range(0..2000) };
            let mut d = vec![0u8; len];
            rng.fill(&mut d[..]);
            d
        })
        .collect();
    for alg in hash::Alg::ALL {
        let mut input = String::new();
        for (i, d) in datas.iter().enumerate() {
            if i == 100 {
                input.push_str("{\"data\":\"abc\"}\n");
            }
            input.push_str(&format!("{{\"data\":\"{}\"}}\n", hex::encode(d)));
        }
        let out = run_with_stdin(&["hash", alg.name(), "--backend", "cpu"], input.as_bytes());
        assert_eq!(out.status.code(), Some(2));
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), datas.len() + 1);
        let mut want = datas.iter();
        for (n, line) in lines.iter().enumerate() {
            if n == 100 {
                assert!(
                    line["error"].as_str().is_some_and(|e| e.starts_with("line 101: ")),
                    "{line}"
                );
                continue;
            }
            let d = want.next().expect("item");
            assert_eq!(
                line["digest"].as_str(),
                Some(hex::encode(hash::oracle::digest(alg, d)).as_str()),
                "{alg} line {}",
                n + 1
            );
        }
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("{count} digests, 1 malformed")), "{stderr}");
        if has_usable_gpu() {
            let gpu = run_with_stdin(&["hash", alg.name(), "--backend", "gpu"], input.as_bytes());
            assert_eq!(gpu.stdout, out.stdout, "{alg}: gpu output differs from cpu");
            let stderr = String::from_utf8_lossy(&gpu.stderr);
            assert!(stderr.contains("backend gpu (requested)"), "{stderr}");
        }
    }
}

/// `hash --raw BYTES`: binary records in, binary digests out, equal to the
/// oracle's, on every backend; a trailing partial record exits 2 after the
/// whole records' digests.
#[test]
fn hash_raw_mode_matches_oracle() {
    let mut rng = StdRng::seed_from_u64(32);
    let mut input = vec![0u8; 64 * 1000 + 17];
    rng.fill(&mut input[..]);
    let gpu = has_usable_gpu();
    for (alg, record) in [
        (hash::Alg::Keccak256, 32usize),
        (hash::Alg::Sha256, 64),
        (hash::Alg::Sha3_256, 1),
        (hash::Alg::Blake2b256, 32),
        (hash::Alg::Blake3, 1100),
    ] {
        let whole = input.len() / record * record;
        let want: Vec<u8> = input[..whole]
            .chunks(record)
            .flat_map(|r| hash::oracle::digest(alg, r))
            .collect();
        let record_arg = record.to_string();
        for backend in ["cpu", "gpu"].into_iter().filter(|b| *b == "cpu" || gpu) {
            let args = ["hash", alg.name(), "--raw", &record_arg, "--backend", backend];
            let out = run_with_stdin(&args, &input[..whole]);
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            assert!(out.stdout == want, "{alg} --raw {record} on {backend}");
            let out = run_with_stdin(&args, &input);
            let partial = input.len() - whole;
            if partial > 0 {
                assert_eq!(out.status.code(), Some(2));
                assert!(
                    String::from_utf8_lossy(&out.stderr).contains(&format!("partial record of {partial} bytes")),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            assert!(
                out.stdout == want,
                "{alg} --raw {record} on {backend} with a partial record"
            );
        }
    }
    let out = run_with_stdin(&["hash", "sha256", "--raw", "0"], b"");
    assert_eq!(out.status.code(), Some(3));
}

/// `ntt`: polynomials in a binary file, transformed equal to the library's
/// oracle on every backend; a round trip (forward with a coset to
/// bit-reversed output, inverse from bit-reversed input) gives the file
/// back; a non-canonical polynomial is named with zeros in its place and a
/// partial one reported (exit 2); bad arguments are usage errors (exit 3).
#[test]
fn ntt_raw_files() {
    use batchcrypto::ops::ntt::{Field, Transform, oracle};
    let mut rng = StdRng::seed_from_u64(18);
    let gpu = has_usable_gpu();
    // Elements below 2^62 are canonical in every field here.
    let element = |rng: &mut StdRng, len: usize| {
        let mut e = vec![0u8; len];
        e[..8].copy_from_slice(&(rng.random::<u64>() >> 2).to_le_bytes());
        e
    };
    // prime64-negacyclic over a 63-bit prime, given in hex.
    let prime = 0x7fff_ffff_d200_0001u64;
    for (field, log_n, modulus) in [
        (Field::Goldilocks, 5u32, &[][..]),
        (Field::Bn254Fr, 3, &[]),
        (Field::Bls12381Fr, 4, &[]),
        (Field::GoldilocksNegacyclic, 4, &[]),
        (Field::Prime64Negacyclic, 5, &["--modulus", "0x7fffffffd2000001"]),
    ] {
        let t = Transform {
            modulus: (!modulus.is_empty()).then_some(prime),
            ..Transform::new(field, log_n)
        };
        let len = field.element_len();
        let size = t.poly_bytes();
        let mut input: Vec<u8> = (0..4 * t.len()).flat_map(|_| element(&mut rng, len)).collect();
        // Polynomial 2 holds an element above every modulus here.
        input[2 * size + len..2 * size + 2 * len].fill(0xff);
        let mut want = Vec::new();
        for (i, p) in input.chunks(size).enumerate() {
            match oracle::transform(&t, p) {
                Ok(out) => want.extend(out),
                Err(_) => {
                    assert_eq!(i, 2);
                    want.extend(vec![0u8; size]);
                }
            }
        }
        let (name, log) = (field.name(), log_n.to_string());
        for backend in ["cpu", "gpu"].into_iter().filter(|b| *b == "cpu" || gpu) {
            let args = [
                &["ntt", "--field", name, "--log-n", &log, "--backend", backend],
                modulus,
            ]
            .concat();
            let out = run_with_stdin(&args, &input);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{stderr}");
            assert!(
                stderr.contains("record 2") && stderr.contains("non_canonical_element"),
                "{stderr}"
            );
            assert!(out.stdout == want, "{name} on {backend}");
            // A partial polynomial after the whole ones.
            let out = run_with_stdin(&args, &[&input[..3 * size], &input[..len]].concat());
            assert_eq!(out.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("partial record of {len} bytes")));
            assert!(out.stdout == want[..3 * size], "{name} on {backend}, partial");
        }
        // Round trip on a coset (the negacyclic transform: without),
        // through bit-reversed order.
        let clean: Vec<u8> = (0..3 * t.len()).flat_map(|_| element(&mut rng, len)).collect();
        let coset = hex::encode(element(&mut rng, len));
        let mut on_coset = [&["ntt", "--field", name, "--log-n", &log], modulus].concat();
        if !field.negacyclic() {
            on_coset.extend(["--coset", &coset]);
        }
        let fwd = run_with_stdin(&[&on_coset[..], &["--output-order", "bit-reversed"]].concat(), &clean);
        assert_eq!(fwd.status.code(), Some(0), "{}", String::from_utf8_lossy(&fwd.stderr));
        assert_eq!(fwd.stdout.len(), clean.len());
        assert!(fwd.stdout != clean);
        let back = ["--inverse", "--input-order", "bit-reversed"];
        let inv = run_with_stdin(&[&on_coset[..], &back].concat(), &fwd.stdout);
        assert_eq!(inv.status.code(), Some(0), "{}", String::from_utf8_lossy(&inv.stderr));
        assert!(inv.stdout == clean, "{name}: round trip");
    }
    for args in [
        &["ntt", "--field", "goldilocks", "--log-n", "25"][..],
        &["ntt", "--field", "goldilocks", "--log-n", "0"],
        &["ntt", "--field", "babybear", "--log-n", "4"],
        &["ntt", "--field", "goldilocks", "--log-n", "4", "--coset", "00"],
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--log-n",
            "4",
            "--coset",
            "0000000000000000",
        ],
        &["ntt", "--field", "goldilocks", "--log-n", "4", "--coset", "zz"],
        &["ntt", "--field", "goldilocks-negacyclic", "--log-n", "3"],
        &["ntt", "--field", "goldilocks", "--log-n", "4", "--modulus", "65537"],
        &["ntt", "--field", "prime64-negacyclic", "--log-n", "4"],
        &[
            "ntt",
            "--field",
            "goldilocks-negacyclic",
            "--log-n",
            "4",
            "--coset",
            "0100000000000000",
        ],
        &[
            "ntt",
            "--field",
            "goldilocks",
            "--log-n",
            "4",
            "--input-order",
            "reversed",
        ],
    ]
    .into_iter()
    .map(<[&str]>::to_vec)
    .chain(
        // prime64-negacyclic's refused moduli: not a prime, p - 1 short
        // of 2n, not a number, past 2^64.
        [
            ("4", "65536"),
            ("16", "65537"),
            ("4", "0xg"),
            ("4", "18446744073709551616"),
        ]
        .map(|(log_n, p)| vec!["ntt", "--field", "prime64-negacyclic", "--log-n", log_n, "--modulus", p]),
    ) {
        let out = run_with_stdin(&args, &[0u8; 128]);
        assert_eq!(
            out.status.code(),
            Some(3),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `msm`: points and scalars in two files, the sum written as the
/// library's oracle computes it, for every curve on the CPU and for BN254
/// on the GPU too (one kernel serves every curve, and the library's tests
/// run each on the GPU; each process here creates its pipelines anew, and
/// BN254's cost least); a bad point gives its reason, no output and exit
/// 2; files that are not a call (counts that differ, both on stdin) are
/// usage errors (exit 3).
#[test]
fn msm_files() {
    use batchcrypto::ops::evm::{Precompile, oracle as evm_oracle};
    use batchcrypto::ops::msm::{Curve, Encoding, oracle};
    let dir = std::env::temp_dir().join(format!("batchcrypto-msm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut rng = StdRng::seed_from_u64(54);
    let gpu = has_usable_gpu();
    let n = 40;
    // BN254: k G by ECMUL from the generator (1, 2); BLS: public keys.
    let mut g = [0u8; 64];
    g[31] = 1;
    g[63] = 2;
    let keys = batchcrypto::ops::bls::sample::secret_keys(n, 5);
    let g2 = batchcrypto::ops::bls::sample::g2_points(n, 6);
    for curve in Curve::ALL {
        let points: Vec<u8> = (0..n)
            .flat_map(|i| match curve {
                Curve::Bn254G1 => {
                    let k: [u8; 32] = rng.random();
                    evm_oracle::call(Precompile::Bn256Mul, &[&g[..], &k].concat()).expect("k G")
                }
                Curve::Bls12381G1 => keys[i].sk_to_pk().serialize().to_vec(),
                Curve::Bls12381G2 => g2[i].to_vec(),
            })
            .collect();
        let scalars: Vec<u8> = (0..n * 32).map(|_| rng.random()).collect();
        let want = oracle::msm(curve, Encoding::Uncompressed, &points, &scalars).expect("valid points");
        let (p, s) = (dir.join("points.bin"), dir.join("scalars.bin"));
        std::fs::write(&p, &points).expect("write");
        std::fs::write(&s, &scalars).expect("write");
        let (p, s) = (p.to_str().expect("path"), s.to_str().expect("path"));
        let on_gpu = gpu && curve == Curve::Bn254G1;
        for backend in ["cpu", "gpu"].into_iter().filter(|b| *b == "cpu" || on_gpu) {
            let args = [
                "msm",
                "--curve",
                curve.name(),
                "--points",
                p,
                "--scalars",
                s,
                "--backend",
                backend,
            ];
            let out = run_with_stdin(&args, b"");
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            assert!(out.stdout == want, "{curve} on {backend}");
        }
        // The points compressed: the sum compressed.
        let compressed: Vec<u8> = points
            .chunks(curve.point_len())
            .flat_map(|p| oracle::recode(curve, Encoding::Uncompressed, Encoding::Compressed, p).expect("valid"))
            .collect();
        let want_compressed =
            oracle::recode(curve, Encoding::Uncompressed, Encoding::Compressed, &want).expect("a sum");
        let c = dir.join("compressed.bin");
        std::fs::write(&c, &compressed).expect("write");
        // (On the CPU: tests/msm.rs sums compressed points on every engine.)
        {
            let backend = "cpu";
            let args = [
                "msm",
                "--curve",
                curve.name(),
                "--encoding",
                "compressed",
                "--points",
                c.to_str().expect("path"),
                "--scalars",
                s,
                "--backend",
                backend,
            ];
            let out = run_with_stdin(&args, b"");
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            assert!(out.stdout == want_compressed, "{curve} compressed on {backend}");
        }
        // Scalars from stdin.
        let out = run_with_stdin(
            &["msm", "--curve", curve.name(), "--points", p, "--scalars", "-"],
            &scalars,
        );
        assert!(out.stdout == want, "{curve}, scalars on stdin");
        let mut bad = points.clone();
        bad[3 * curve.point_len() - 1] ^= 1;
        std::fs::write(dir.join("bad.bin"), &bad).expect("write");
        let bad_path = dir.join("bad.bin");
        let args = [
            "msm",
            "--curve",
            curve.name(),
            "--points",
            bad_path.to_str().expect("path"),
            "--scalars",
            s,
        ];
        let out = run_with_stdin(&args, b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("not_on_curve"));
        let out = run_with_stdin(
            &["msm", "--curve", curve.name(), "--points", p, "--scalars", "-"],
            &scalars[1..],
        );
        assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = run_with_stdin(&["msm", "--curve", "bn254-g1", "--points", "-", "--scalars", "-"], b"");
    assert_eq!(out.status.code(), Some(3));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every proof of a `merkle --proof` line verifies against `root` (as a
/// padded tree's of `depth` siblings when there is one).
fn assert_proofs_verify(
    line: &serde_json::Value,
    rule: Rule,
    leaves: &[[u8; 32]],
    root: &[u8; 32],
    depth: Option<u32>,
) {
    for p in line["proofs"].as_array().expect("proofs") {
        let i = p["index"].as_u64().expect("index") as usize;
        let proof: Vec<[u8; 32]> = p["proof"]
            .as_array()
            .expect("proof")
            .iter()
            .map(|h| {
                hex::decode(h.as_str().expect("hex"))
                    .expect("hex")
                    .try_into()
                    .expect("32")
            })
            .collect();
        let ok = match depth {
            Some(d) => proof.len() == d as usize && merkle::verify_padded_proof(rule, d, &leaves[i], i, &proof, root),
            None => merkle::verify_proof(rule, &leaves[i], i, leaves.len(), &proof, root),
        };
        assert!(ok, "{rule} leaf {i}");
    }
}

/// `merkle`: the root line in the contract's form, equal to the library's
/// reference for both rules on every backend; proofs verify; a malformed
/// line gives error lines, no root and exit 2.
#[test]
fn merkle_root_and_proofs() {
    let mut rng = StdRng::seed_from_u64(20);
    let leaves: Vec<[u8; 32]> = (0..1001).map(|_| rng.random()).collect();
    let mut input = String::new();
    for l in &leaves {
        input.push_str(&format!("{{\"leaf\":\"0x{}\"}}\n", hex::encode(l)));
    }
    let gpu = has_usable_gpu();
    for (hash, rule) in [("keccak256", Rule::SortedKeccak256), ("sha256", Rule::Bitcoin)] {
        let root = merkle::oracle::root(rule, &leaves).expect("root");
        for backend in ["cpu", "gpu"].into_iter().filter(|b| *b == "cpu" || gpu) {
            let out = run_with_stdin(
                &["merkle", "--hash", hash, "--backend", backend, "--proof", "0,1000"],
                input.as_bytes(),
            );
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.starts_with(&format!("{{\"root\":\"{}\",\"leaves\":1001", hex::encode(root))),
                "{text}"
            );
            let line = &stdout_lines(&out)[0];
            assert_proofs_verify(line, rule, &leaves, &root, None);
            assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("backend {backend}")));
        }
        // The contract's plain form: no proofs unless asked.
        let out = run_with_stdin(&["merkle", "--hash", hash], input.as_bytes());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            format!("{{\"root\":\"{}\",\"leaves\":1001}}\n", hex::encode(root))
        );
    }
    let bad = format!("{input}{{\"leaf\":\"00\"}}\n{input}");
    let out = run_with_stdin(&["merkle"], bad.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1);
    assert!(lines[0]["error"].as_str().is_some_and(|e| e.starts_with("line 1002: ")));
    let out = run_with_stdin(&["merkle"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run_with_stdin(&["merkle", "--proof", "1001"], input.as_bytes());
    assert_eq!(out.status.code(), Some(3));
}

/// `merkle --hash poseidon` (lean-imt-poseidon): the root of field-element
/// leaves equal to the library's reference, proofs that verify, the GPU
/// printing what the CPU prints; a leaf not below r is a malformed line
/// named by its number (no root, exit 2), and so is one of any length
/// other than 32 bytes.
#[test]
fn merkle_poseidon_root_and_errors() {
    let mut rng = StdRng::seed_from_u64(4);
    // Random elements below 2^253 < r, r - 1 first and 0 last.
    let mut leaves: Vec<[u8; 32]> = (0..301)
        .map(|_| {
            let mut l: [u8; 32] = rng.random();
            l[0] &= 0x1f;
            l
        })
        .collect();
    leaves[0] = hex::decode("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000")
        .expect("hex")
        .try_into()
        .expect("32");
    leaves[300] = [0; 32];
    let input: String = leaves
        .iter()
        .map(|l| format!("{{\"leaf\":\"{}\"}}\n", hex::encode(l)))
        .collect();
    let rule = Rule::LeanImtPoseidon;
    let root = merkle::oracle::root(rule, &leaves).expect("root");
    let args = ["merkle", "--hash", "poseidon", "--proof", "0,7,300"];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, input.as_bytes())
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let line = &stdout_lines(&out)[0];
    assert_eq!(line["root"], hex::encode(root));
    assert_eq!(line["leaves"], 301);
    assert_eq!(line["proofs"].as_array().map(Vec::len), Some(3));
    assert_proofs_verify(line, rule, &leaves, &root, None);
    // r itself on line 5, 2^256 - 1 on line 9, a short leaf on line 12.
    let mut lines: Vec<String> = input.lines().map(str::to_string).collect();
    lines[4] = "{\"leaf\":\"30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001\"}".into();
    lines[8] = format!("{{\"leaf\":\"{}\"}}", "ff".repeat(32));
    lines[11] = "{\"leaf\":\"00\"}".into();
    let bad = lines.join("\n") + "\n";
    let out = run_with_stdin(&["merkle", "--hash", "poseidon", "--backend", "cpu"], bad.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let errors: Vec<String> = stdout_lines(&out)
        .iter()
        .map(|l| l["error"].as_str().expect("an error line").to_string())
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    for (e, n) in errors.iter().zip([5, 9]) {
        assert!(
            e.starts_with(&format!("line {n}: field \"leaf\" is not below BN254's")),
            "{e}"
        );
    }
    assert!(errors[2].starts_with("line 12: "), "{}", errors[2]);
    // The other rules take those bytes as they are.
    let out = run_with_stdin(
        &["merkle", "--hash", "sha256", "--backend", "cpu"],
        lines[..9].join("\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    let out = run_with_stdin(&["merkle", "--hash", "sha3-256"], input.as_bytes());
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `merkle --depth D [--zero HEX]`: a padded tree's root equal to the
/// library's oracle under each rule, proofs of D siblings that verify, the
/// GPU printing what the CPU prints; no leaves is the empty tree (Light
/// Protocol's empty root at height 26 for Poseidon); more leaves than the
/// depth holds, `--zero` without `--depth` and a depth past 64 are refused.
#[test]
fn merkle_padded_trees() {
    let leaves: Vec<[u8; 32]> = (1u8..=5)
        .map(|k| [[0u8; 31].as_slice(), &[k]].concat().try_into().expect("32"))
        .collect();
    let input: String = leaves
        .iter()
        .map(|l| format!("{{\"leaf\":\"{}\"}}\n", hex::encode(l)))
        .collect();
    let zero = [0xab; 32];
    let gpu = has_usable_gpu();
    for (hash, rule) in [
        ("sha256", Rule::Bitcoin),
        ("keccak256", Rule::SortedKeccak256),
        ("poseidon", Rule::LeanImtPoseidon),
    ] {
        let zero = if rule == Rule::LeanImtPoseidon {
            [0x0b; 32]
        } else {
            zero
        };
        let padding = merkle::Padding { depth: 3, zero };
        let root = merkle::oracle::padded_root(rule, &leaves, &padding).expect("root");
        let zero_hex = hex::encode(zero);
        let args = [
            "merkle", "--hash", hash, "--depth", "3", "--zero", &zero_hex, "--proof", "0,4",
        ];
        let out = if gpu {
            gpu_prints_what_cpu_prints(&args, input.as_bytes())
        } else {
            run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
        };
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let line = &stdout_lines(&out)[0];
        assert_eq!(line["root"], hex::encode(root), "{hash}");
        assert_eq!(line["leaves"], 5);
        assert_eq!(line["proofs"].as_array().map(Vec::len), Some(2));
        assert_proofs_verify(line, rule, &leaves, &root, Some(3));
    }
    let out = run_with_stdin(&["merkle", "--hash", "poseidon", "--depth", "26"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"root\":\"120c58f143d491e95902f7f5277778a2e0ad5168f6add75669932630ce611518\",\"leaves\":0}\n"
    );
    let nine: String = (0..9)
        .map(|_| input.lines().next().expect("a line").to_string() + "\n")
        .collect();
    let out = run_with_stdin(&["merkle", "--depth", "3"], nine.as_bytes());
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("9 leaves do not fit a tree of depth 3"));
    for bad in [
        &["merkle", "--zero", &hex::encode(zero)][..],
        &["merkle", "--depth", "65"],
        &["merkle", "--depth", "0"],
    ] {
        let out = run_with_stdin(bad, input.as_bytes());
        assert_ne!(out.status.code(), Some(0), "{bad:?}");
        assert!(out.stdout.is_empty(), "{bad:?}");
    }
}

/// `calibrate` writes a profile that `devices` shows and `--backend auto`
/// follows, saying so in the summary; a profile whose crossover is 1 sends
/// batches to the GPU, an unreadable one leaves auto on the CPU.
#[test]
fn calibrate_then_auto_follows_the_profile() {
    let dir = std::env::temp_dir().join(format!("batchcrypto-calibrate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let path = dir.join("profile.json");
    let out = bin()
        .args([
            "calibrate",
            "--op",
            "keccak256_32",
            "--sizes",
            "1,16",
            "--max-seconds",
            "5",
        ])
        .env("BATCHCRYPTO_PROFILE", &path)
        .output()
        .expect("calibrate");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut profile: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("profile written")).expect("JSON");
    let entry = &profile["ops"]["keccak256"];
    assert!(entry["points"].as_array().is_some_and(|p| !p.is_empty()), "{profile}");
    let devices = bin()
        .arg("devices")
        .env("BATCHCRYPTO_PROFILE", &path)
        .output()
        .expect("devices");
    let listing = String::from_utf8_lossy(&devices.stdout);
    assert!(listing.contains("keccak256") && listing.contains("auto:"), "{listing}");

    let input = "{\"data\":\"00\"}\n".repeat(40);
    let auto = |profile_path: &std::path::Path| {
        let mut child = bin();
        child.env("BATCHCRYPTO_PROFILE", profile_path);
        let mut child = child
            .args(["hash", "keccak256"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        let out = child.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let summary = auto(&path);
    let gpu_won = !entry["crossover"].is_null();
    if !gpu_won {
        assert!(
            summary.contains("backend cpu (auto: the GPU never beat the CPU on keccak256"),
            "{summary}"
        );
    }
    if has_usable_gpu() && !profile["adapter"].is_null() {
        profile["ops"]["keccak256"]["crossover"] = 1.into();
        std::fs::write(&path, profile.to_string()).expect("write");
        let summary = auto(&path);
        assert!(
            summary.contains("backend gpu (auto: N=40 >= calibrated crossover N*=1)"),
            "{summary}"
        );
    }
    std::fs::write(&path, "not a profile").expect("write");
    let summary = auto(&path);
    assert!(
        summary.contains("backend cpu (auto: calibration profile unusable"),
        "{summary}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `verify bls` (item by item and `--batch`) on a hostile mixed file with
/// malformed lines: the oracle's verdict per line, the same reasons in both
/// modes, exit 2; `verify bls-aggregate` and `verify bls-fast-aggregate` in
/// their JSON forms. (The GPU's answers on hostile aggregates are compared
/// item by item in the library's tests/bls.rs, in one process: each CLI
/// process on lavapipe spends minutes creating the BLS pipelines, so the
/// CLI runs BLS on the GPU only for the golden files.)
#[test]
fn bls_lines_match_oracle() {
    use batchcrypto::ops::bls::{self, sample as bls_sample};
    let items = bls_sample::generate(600, 24, 0.4, 2537);
    let mut input = String::new();
    for (i, it) in items.iter().enumerate() {
        if i % 150 == 3 {
            input.push_str("{\"pk\":\"00\",\"sig\":\"00\",\"msg\":\"\"}\n");
        }
        input.push_str(&format!(
            "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\"}}\n",
            hex::encode(it.pk),
            hex::encode(it.sig),
            hex::encode(&it.msg)
        ));
    }
    let single = run_with_stdin(&["verify", "bls"], input.as_bytes());
    let batch = run_with_stdin(&["verify", "bls", "--batch"], input.as_bytes());
    assert_eq!(single.status.code(), Some(2));
    assert_eq!(single.stdout, batch.stdout, "modes differ");
    let lines = stdout_lines(&single);
    let mut want = items.iter();
    let mut errors = 0;
    for line in &lines {
        if line.get("error").is_some() {
            errors += 1;
            continue;
        }
        let it = want.next().expect("item");
        assert_eq!(
            line["valid"].as_bool(),
            Some(bls::oracle::verify(&it.pk, &it.sig, &it.msg)),
            "{} {line}",
            it.kind
        );
    }
    assert_eq!(errors, 4);
    assert!(want.next().is_none());
    // (`verify bls` with and without `--batch` on the GPU: the golden
    // files' test, on a hostile file with malformed lines.)

    // Aggregates: one valid line per form, then a corrupted one.
    let keys = bls_sample::secret_keys(3, 7);
    let pks: Vec<String> = keys.iter().map(|k| hex::encode(k.sk_to_pk().compress())).collect();
    let msgs = ["aa", "bb", "cc"];
    let sigs: Vec<_> = keys
        .iter()
        .zip(msgs)
        .map(|(k, m)| k.sign(&hex::decode(m).expect("hex"), bls::DST, &[]))
        .collect();
    let refs: Vec<_> = sigs.iter().collect();
    let agg = hex::encode(
        blst::min_pk::AggregateSignature::aggregate(&refs, true)
            .expect("aggregate")
            .to_signature()
            .compress(),
    );
    let line = |m: &[&str]| {
        format!(
            "{{\"pks\":[\"{}\",\"{}\",\"{}\"],\"msgs\":[\"{}\",\"{}\",\"{}\"],\"sig\":\"{agg}\"}}\n",
            pks[0], pks[1], pks[2], m[0], m[1], m[2]
        )
    };
    let input = line(&msgs) + &line(&["aa", "bb", "cd"]) + "{\"pks\":[],\"msgs\":[]}\n";
    let out = run_with_stdin(&["verify", "bls-aggregate"], input.as_bytes());
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(
        text.lines().take(2).collect::<Vec<_>>(),
        ["{\"valid\":true}", "{\"valid\":false,\"reason\":\"equation\"}"],
        "{text}"
    );
    assert!(
        text.lines().nth(2).is_some_and(|l| l.contains("missing field")),
        "{text}"
    );
    let fsigs: Vec<_> = keys.iter().map(|k| k.sign(b"one", bls::DST, &[])).collect();
    let frefs: Vec<_> = fsigs.iter().collect();
    let fagg = hex::encode(
        blst::min_pk::AggregateSignature::aggregate(&frefs, true)
            .expect("aggregate")
            .to_signature()
            .compress(),
    );
    let input = format!(
        "{{\"pks\":[\"{}\",\"{}\",\"{}\"],\"msg\":\"{}\",\"sig\":\"{fagg}\"}}\n{{\"pks\":[\"{}\"],\"msg\":\"{}\",\"sig\":\"{fagg}\"}}\n",
        pks[0],
        pks[1],
        pks[2],
        hex::encode(b"one"),
        pks[0],
        hex::encode(b"one")
    );
    let out = run_with_stdin(&["verify", "bls-fast-aggregate"], input.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"valid\":true}\n{\"valid\":false,\"reason\":\"equation\"}\n"
    );
}

/// `eip2537-pairing` and `evm <precompile>` on go-ethereum's files: each
/// call's output or a reason, line for line; a malformed line gets its error
/// and the others their answers (exit 2). (The GPU's pairing answers to these
/// calls, cut by a byte and with their last pair doubled, are compared in
/// tests/bls.rs.)
#[test]
fn precompile_lines() {
    // The vectors: BATCHCRYPTO_VECTORS, else the repository's testdata/.
    let dir = std::env::var_os("BATCHCRYPTO_VECTORS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata")));
    assert!(dir.is_dir(), "no vectors at {}", dir.display());
    let verbs: [(&[&str], &[&str]); 14] = [
        (&["eip2537-pairing"], &["blsPairing.json", "fail-blsPairing.json"]),
        (&["evm", "bn256-add"], &["bn256Add.json"]),
        (&["evm", "bn256-mul"], &["bn256ScalarMul.json"]),
        (&["evm", "bn256-pairing"], &["bn256Pairing.json"]),
        (
            &["evm", "bls-g1msm"],
            &["blsG1Mul.json", "fail-blsG1Mul.json", "fail-blsG1MultiExp.json"],
        ),
        (
            &["evm", "bls-g2msm"],
            &["blsG2Mul.json", "fail-blsG2Mul.json", "fail-blsG2MultiExp.json"],
        ),
        (&["evm", "bls-g1add"], &["blsG1Add.json", "fail-blsG1Add.json"]),
        (&["evm", "bls-g2add"], &["blsG2Add.json", "fail-blsG2Add.json"]),
        (&["evm", "bls-map-g1"], &["blsMapG1.json", "fail-blsMapG1.json"]),
        (&["evm", "bls-map-g2"], &["blsMapG2.json", "fail-blsMapG2.json"]),
        (&["evm", "point-evaluation"], &["pointEvaluation.json"]),
        (&["evm", "modexp"], &["modexp_eip2565.json"]),
        (&["evm", "ecrecover"], &["ecRecover.json"]),
        (&["evm", "p256verify"], &["p256Verify.json"]),
    ];
    for (args, files) in verbs {
        let mut input = String::new();
        let mut want = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(dir.join("eth-precompiles").join(file)).expect(file);
            let cases: Vec<serde_json::Value> = serde_json::from_str(&text).expect("json");
            for c in cases {
                input.push_str(&format!("{{\"input\":\"{}\"}}\n", c["Input"].as_str().expect("input")));
                want.push(c["Expected"].as_str().map(str::to_string));
            }
        }
        input.push_str("{\"input\":\"0g\"}\n");
        let out = run_with_stdin(args, input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), want.len() + 1, "{args:?}");
        for (line, want) in lines.iter().zip(&want) {
            match want {
                Some(hex) => assert_eq!(line["output"].as_str(), Some(hex.as_str()), "{args:?} {line}"),
                None => assert!(
                    line["output"].is_null() && line["reason"].is_string(),
                    "{args:?} {line}"
                ),
            }
        }
        assert!(lines[want.len()]["error"].is_string(), "{args:?}: the malformed line");
    }
    let out = run_with_stdin(&["evm", "bn256-div"], b"");
    assert_eq!(out.status.code(), Some(3), "an unknown precompile is a usage error");
}

/// The "done when" of ECDSA: large hostile mixed files for `verify
/// secp256k1`, `ecrecover` and `verify p256`, with and without `--low-s`,
/// and the two verifications with `--der` (some encodings spoiled), give
/// the oracle's answer on every line (malformed lines reported, exit 2),
/// and `--backend gpu` prints what `--backend cpu` prints (for each verb,
/// `verify secp256k1` with `--low-s`, `ecrecover` without).
#[test]
fn ecdsa_lines_match_oracle() {
    use batchcrypto::ops::ecdsa::{oracle as ec_oracle, sample as ec_sample};
    let count = std::env::var("BATCHCRYPTO_CLI_ITEMS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6_000usize);
    let gpu = has_usable_gpu();
    // `--backend gpu` once per verb (the library's tests run every rule
    // on the GPU, and each process here creates its pipelines anew).
    let check = |args: &[&str], input: &str, want: &[serde_json::Value], on_gpu: bool| {
        let out = run_with_stdin(args, input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), want.len() + 2, "{args:?}");
        let items: Vec<&serde_json::Value> = lines.iter().filter(|l| l.get("error").is_none()).collect();
        assert_eq!(items.len(), want.len());
        for (i, (got, want)) in items.iter().zip(want).enumerate() {
            assert_eq!(
                &got[if want.is_boolean() { "valid" } else { "address" }],
                want,
                "{args:?} item {i}: {got}"
            );
        }
        if gpu && on_gpu {
            let mut gpu_args = args.to_vec();
            gpu_args.extend(["--backend", "gpu"]);
            let g = run_with_stdin(&gpu_args, input.as_bytes());
            assert_eq!(g.stdout, out.stdout, "{args:?} on gpu");
        }
    };
    // Malformed lines at the start and in the middle.
    let bad = "{\"hash\":\"00\"}\n";
    let k1 = ec_sample::secp256k1_verify(count, 50, 0.4, 11);
    let mut input = bad.to_string();
    for (i, (it, _)) in k1.iter().enumerate() {
        if i == count / 2 {
            input.push_str("not json\n");
        }
        input.push_str(&format!(
            "{{\"hash\":\"{}\",\"sig\":\"{}\",\"pk\":\"{}\"}}\n",
            hex::encode(it.hash),
            hex::encode(it.sig),
            hex::encode(it.pk.as_bytes())
        ));
    }
    for low_s in [false, true] {
        let want: Vec<serde_json::Value> = k1
            .iter()
            .map(|(it, _)| ec_oracle::secp256k1_verify(it, low_s).into())
            .collect();
        let args: &[&str] = if low_s {
            &["verify", "secp256k1", "--low-s"]
        } else {
            &["verify", "secp256k1"]
        };
        check(args, &input, &want, low_s);
    }
    let rec = ec_sample::ecrecover(count, 50, 0.4, 12);
    let mut input = bad.to_string();
    for (i, (it, _)) in rec.iter().enumerate() {
        if i == count / 2 {
            input.push_str("{\"hash\":\"00\",\"sig\":\"00\"}\n");
        }
        input.push_str(&format!(
            "{{\"hash\":\"{}\",\"sig\":\"{}\"}}\n",
            hex::encode(it.hash),
            hex::encode(it.sig)
        ));
    }
    for low_s in [false, true] {
        let want: Vec<serde_json::Value> = rec
            .iter()
            .map(|(it, _)| {
                ec_oracle::ecrecover(it, low_s).map_or(serde_json::Value::Null, |r| {
                    format!("0x{}", hex::encode(r.address)).into()
                })
            })
            .collect();
        let args: &[&str] = if low_s {
            &["ecrecover", "--low-s"]
        } else {
            &["ecrecover"]
        };
        check(args, &input, &want, !low_s);
    }
    let p = ec_sample::p256_verify(count, 50, 0.4, 13);
    let mut input = bad.to_string();
    for (i, (it, _)) in p.iter().enumerate() {
        if i == count / 2 {
            input.push('\n');
        }
        input.push_str(&format!(
            "{{\"hash\":\"{}\",\"r\":\"{}\",\"s\":\"{}\",\"x\":\"{}\",\"y\":\"{}\"}}\n",
            hex::encode(it.hash),
            hex::encode(it.r),
            hex::encode(it.s),
            hex::encode(it.x),
            hex::encode(it.y)
        ));
    }
    let want: Vec<serde_json::Value> = p.iter().map(|(it, _)| ec_oracle::p256_verify(it).into()).collect();
    check(&["verify", "p256"], &input, &want, true);
    // In DER (`--der`), a share of the encodings spoiled: each verdict the
    // DER oracle's (libsecp256k1's, p256's), a signature that is not
    // strict DER an item, not an error line; a bad key or hash still one.
    let k1_der = ec_sample::der(&k1.iter().map(|(it, _)| it.sig).collect::<Vec<_>>(), 0.3, 14);
    let mut input = bad.to_string();
    for (i, ((it, _), (der, _))) in k1.iter().zip(&k1_der).enumerate() {
        if i == count / 2 {
            input.push_str("{\"hash\":\"00\",\"sig\":\"3006020101020101\",\"pk\":\"02\"}\n");
        }
        input.push_str(&format!(
            "{{\"hash\":\"{}\",\"sig\":\"{}\",\"pk\":\"{}\"}}\n",
            hex::encode(it.hash),
            hex::encode(der),
            hex::encode(it.pk.as_bytes())
        ));
    }
    for low_s in [false, true] {
        let want: Vec<serde_json::Value> = k1
            .iter()
            .zip(&k1_der)
            .map(|((it, _), (der, _))| ec_oracle::secp256k1_verify_der(&it.hash, der, &it.pk, low_s).into())
            .collect();
        let args: &[&str] = if low_s {
            &["verify", "secp256k1", "--der", "--low-s"]
        } else {
            &["verify", "secp256k1", "--der"]
        };
        check(args, &input, &want, !low_s);
    }
    let sigs: Vec<[u8; 64]> = p
        .iter()
        .map(|(it, _)| [it.r, it.s].concat().try_into().expect("64 bytes"))
        .collect();
    let p_der = ec_sample::der(&sigs, 0.3, 15);
    let mut input = bad.to_string();
    for (i, ((it, _), (der, _))) in p.iter().zip(&p_der).enumerate() {
        if i == count / 2 {
            input.push_str("{\"hash\":\"00\",\"sig\":\"30\",\"x\":\"00\",\"y\":\"00\"}\n");
        }
        input.push_str(&format!(
            "{{\"hash\":\"{}\",\"sig\":\"{}\",\"x\":\"{}\",\"y\":\"{}\"}}\n",
            hex::encode(it.hash),
            hex::encode(der),
            hex::encode(it.x),
            hex::encode(it.y)
        ));
    }
    let want: Vec<serde_json::Value> = p
        .iter()
        .zip(&p_der)
        .map(|((it, _), (der, _))| ec_oracle::p256_verify_der(&it.hash, der, &it.x, &it.y).into())
        .collect();
    check(&["verify", "p256", "--der"], &input, &want, true);
}

/// `verify kzg-cell` on a hostile sample with malformed lines mixed in:
/// each verdict c-kzg's on the cell alone, each reason the library's
/// checks' ([`kzg::checks`]); a missing, negative, fractional or quoted
/// index, a short cell or point, and text that is not JSON are error lines
/// naming their line (exit 2), an index past 127 an item; `--backend gpu`
/// prints the same (no kernel: the CPU runs it and says so).
#[test]
fn kzg_cell_lines_match_oracle() {
    use batchcrypto::ops::kzg::{self, oracle, sample};
    let items = sample::generate_range(0..300, 0.4, 21);
    let line = |item: &kzg::CellItem, index: &str| {
        format!(
            "{{\"commitment\":\"{}\",\"index\":{index},\"cell\":\"{}\",\"proof\":\"{}\"}}\n",
            hex::encode(item.commitment),
            hex::encode(&item.cell[..]),
            hex::encode(item.proof)
        )
    };
    let first = &items[0].0;
    let malformed = [
        format!(
            "{{\"commitment\":\"{}\",\"cell\":\"{}\",\"proof\":\"{}\"}}\n",
            hex::encode(first.commitment),
            hex::encode(&first.cell[..]),
            hex::encode(first.proof)
        ),
        line(first, "-1"),
        line(first, "1.5"),
        line(first, "\"1\""),
        line(first, "18446744073709551616"),
        line(first, "1").replace(&hex::encode(first.proof), "00"),
        line(first, "1").replace(&hex::encode(&first.cell[..]), &hex::encode([0u8; 2047])),
        "not json\n".to_string(),
    ];
    let mut input = String::new();
    let mut want: Vec<Option<batchcrypto::Verdict>> = Vec::new();
    for (i, (item, _)) in items.iter().enumerate() {
        if i % 40 == 7 {
            input.push_str(&malformed[(i / 40) % malformed.len()]);
            want.push(None);
        }
        input.push_str(&line(item, &item.index.to_string()));
        want.push(Some(oracle::verify_cell(item)));
    }
    // A commitment of x = 0 (a point of order 3), outside G1.
    let mut order_three = first.clone();
    order_three.commitment = [0; 48];
    order_three.commitment[0] = 0x80;
    input.push_str(&line(&order_three, "3"));
    want.push(Some(oracle::verify_cell(&order_three)));
    let out = run_with_stdin(&["verify", "kzg-cell", "--backend", "cpu"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    if has_usable_gpu() {
        let gpu = run_with_stdin(&["verify", "kzg-cell", "--backend", "gpu"], input.as_bytes());
        assert_eq!((gpu.status.code(), &gpu.stdout), (out.status.code(), &out.stdout));
        let stderr = String::from_utf8_lossy(&gpu.stderr);
        assert!(stderr.contains("backend gpu (requested)"), "{stderr}");
    }
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), want.len());
    let mut reasons = std::collections::BTreeSet::new();
    for (n, (got, want)) in lines.iter().zip(&want).enumerate() {
        match want {
            None => assert!(
                got["error"]
                    .as_str()
                    .is_some_and(|e| e.contains(&format!("line {}", n + 1))),
                "line {}: {got}",
                n + 1
            ),
            Some(v) => {
                assert_eq!(got["valid"].as_bool(), Some(v.is_valid()), "line {}: {got}", n + 1);
                assert_eq!(got["reason"].as_str(), v.reason().map(|r| r.code()), "line {}", n + 1);
                if let Some(r) = v.reason() {
                    reasons.insert(r.code());
                }
            }
        }
    }
    // Every kind of failure among the answers.
    let every = [
        "cell_index_out_of_range",
        "malformed_proof",
        "proof_not_in_subgroup",
        "malformed_commitment",
        "commitment_not_in_subgroup",
        "non_canonical_element",
        "equation",
    ];
    assert_eq!(reasons, every.into_iter().collect(), "{reasons:?}");
}

/// The JSON of a blob's or a recovery's cells and proofs as the CLI
/// writes them.
fn extended_json(x: &batchcrypto::ops::kzg::Extended) -> (serde_json::Value, serde_json::Value) {
    let list = |items: Vec<String>| serde_json::Value::from(items);
    (
        list(x.cells.iter().map(hex::encode).collect()),
        list(x.proofs.iter().map(hex::encode).collect()),
    )
}

/// `kzg compute-cells` and `kzg recover-cells` on hostile samples with
/// malformed lines mixed in: each answer c-kzg's (commitment, 128 cells,
/// 128 proofs) or the library's reason; a short or long blob or cell, a
/// missing or mistyped field and text that is not JSON are error lines
/// naming their line (exit 2), counts, order and range of the indices the
/// item's reason; `--backend gpu` prints the same, from the device.
#[test]
fn kzg_compute_and_recover_lines_match_oracle() {
    use batchcrypto::ops::kzg::{oracle, sample};
    let blobs = sample::blobs_range(0..5, 0.4, 23);
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    let malformed = [
        "{\"blob\":\"00\"}".to_string(),
        "{}".to_string(),
        format!("{{\"blob\":\"{}\"}}", "0".repeat(2 * 131_072 + 2)),
        "not json".to_string(),
    ];
    for (i, (blob, _)) in blobs.iter().enumerate() {
        input.push_str(&format!(
            "{}\n{{\"blob\":\"{}\"}}\n",
            malformed[i % 4],
            hex::encode(&blob[..])
        ));
        want.push(None);
        want.push(Some(match oracle::compute_cells(blob) {
            Ok(made) => {
                let (cells, proofs) = extended_json(&made.extended);
                serde_json::json!({"commitment": hex::encode(made.commitment), "cells": cells, "proofs": proofs})
            }
            Err(r) => serde_json::json!({"commitment": null, "reason": r.code()}),
        }));
    }
    let recoveries = sample::recover_range(0..16, 0.5, 23);
    let mut recover_input = String::new();
    let mut recover_want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, (item, _)) in recoveries.iter().enumerate() {
        let cells: Vec<String> = item.cells.iter().map(hex::encode).collect();
        let line = serde_json::json!({"cell_indices": item.indices, "cells": cells}).to_string();
        if i % 4 == 1 {
            let broken = [
                line.replacen(&cells[0], &cells[0][2..], 1),
                serde_json::json!({"cells": cells}).to_string(),
                line.replacen("\"cell_indices\":[", "\"cell_indices\":[-1,", 1),
                serde_json::json!({"cell_indices": item.indices, "cells": 7}).to_string(),
            ];
            recover_input.push_str(&broken[(i / 4) % 4]);
            recover_input.push('\n');
            recover_want.push(None);
        }
        recover_input.push_str(&line);
        recover_input.push('\n');
        recover_want.push(Some(match oracle::recover_cells(item) {
            Ok(x) => {
                let (cells, proofs) = extended_json(&x);
                serde_json::json!({"cells": cells, "proofs": proofs})
            }
            Err(r) => serde_json::json!({"cells": null, "reason": r.code()}),
        }));
    }
    let mut reasons = std::collections::BTreeSet::new();
    for (verb, input, want) in [
        ("compute-cells", &input, &want),
        ("recover-cells", &recover_input, &recover_want),
    ] {
        let out = run_with_stdin(&["kzg", verb, "--backend", "cpu"], input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{verb}");
        if has_usable_gpu() {
            let gpu = run_with_stdin(&["kzg", verb, "--backend", "gpu"], input.as_bytes());
            assert_eq!(
                (gpu.status.code(), &gpu.stdout),
                (out.status.code(), &out.stdout),
                "{verb}"
            );
            let stderr = String::from_utf8_lossy(&gpu.stderr);
            assert!(stderr.contains("backend gpu (requested)"), "{verb}: {stderr}");
        }
        reasons.extend(assert_lines(verb, &stdout_lines(&out), want));
    }
    assert!(
        reasons.contains("non_canonical_element") && reasons.len() >= 4,
        "{reasons:?}"
    );
}

/// `sample <op>` is deterministic and its lines are well-formed input for
/// the op's verb.
#[test]
fn samples_feed_their_verbs() {
    for (op, verb) in [
        ("secp256k1", vec!["verify", "secp256k1"]),
        ("ecrecover", vec!["ecrecover"]),
        ("p256", vec!["verify", "p256"]),
        ("secp256k1 --der", vec!["verify", "secp256k1", "--der"]),
        ("p256 --der", vec!["verify", "p256", "--der"]),
        ("solana-tx", vec!["verify", "solana-tx"]),
        ("solana-tx", vec!["verify", "solana-tx", "--policy", "zip215"]),
        ("bls", vec!["verify", "bls"]),
        ("bip340", vec!["verify", "bip340"]),
        ("sr25519", vec!["verify", "sr25519"]),
        ("kzg-cell", vec!["verify", "kzg-cell"]),
        ("kzg-blob", vec!["kzg", "compute-cells"]),
        ("kzg-recover", vec!["kzg", "recover-cells"]),
        ("ml-dsa-44", vec!["verify", "ml-dsa-44"]),
        ("ml-dsa-65", vec!["verify", "ml-dsa-65"]),
        ("ml-dsa-87", vec!["verify", "ml-dsa-87"]),
        (
            "slh-dsa --set sha2-128f",
            vec!["verify", "slh-dsa", "--set", "sha2-128f"],
        ),
    ] {
        let words: Vec<&str> = op.split(' ').collect();
        let args = [
            &["sample"],
            &words[..],
            &["--count", "30", "--seed", "3", "--hostile-share", "0.5"],
        ]
        .concat();
        let a = run_with_stdin(&args, b"");
        let b = run_with_stdin(&args, b"");
        assert_eq!(a.status.code(), Some(0), "{op}");
        assert_eq!(a.stdout, b.stdout, "{op}: not deterministic");
        let mut cmd = verb.clone();
        cmd.extend(["--backend", "cpu"]);
        let out = run_with_stdin(&cmd, &a.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{op}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout_lines(&out).len(), 30, "{op}");
    }
}

/// ML-DSA's or SLH-DSA's items as `verify` lines (the context left out
/// of every other line whose context is empty), then three malformed
/// lines: a missing signature, a key of odd hex, not JSON.
fn context_lines(items: &[batchcrypto::ops::mldsa::sample::Item]) -> Vec<u8> {
    let mut input = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let ctx = if it.ctx.is_empty() && i % 2 == 0 {
            String::new()
        } else {
            format!(",\"ctx\":\"{}\"", hex::encode(&it.ctx))
        };
        writeln!(
            input,
            "{{\"pk\":\"{}\",\"msg\":\"{}\",\"sig\":\"{}\"{ctx}}}",
            hex::encode(&it.pk),
            hex::encode(&it.msg),
            hex::encode(&it.sig)
        )
        .expect("write");
    }
    input.extend_from_slice(b"{\"pk\":\"00\",\"msg\":\"\"}\n{\"pk\":\"0\",\"msg\":\"\",\"sig\":\"\"}\nnot json\n");
    input
}

/// `verify ml-dsa-*` on a hostile sample with malformed lines mixed in:
/// each verdict the `ml-dsa` crate's, each hostile kind with its reason,
/// wrong lengths as items (not line errors), malformed lines as error
/// lines (exit 2); with `--backend gpu` the same output, the summary
/// saying the GPU ran it (ML-DSA-65 through the binary; the library's
/// tests run every level on the GPU, and each process here creates its
/// pipelines anew).
#[test]
fn mldsa_lines_match_oracle() {
    use batchcrypto::ops::mldsa::{Level, oracle, sample};
    let gpu = has_usable_gpu();
    for level in Level::ALL {
        let items = sample::generate(level, 500, 5, 0.6, 21);
        let input = context_lines(&items);
        let verb = ["verify", level.name()];
        let run = |backend: &str| run_with_stdin(&[&verb[..], &["--backend", backend]].concat(), &input);
        let cpu = run("cpu");
        assert_eq!(cpu.status.code(), Some(2), "{level}: malformed lines exit 2");
        if gpu && level == Level::Mldsa65 {
            let out = run("gpu");
            assert_eq!(out.status.code(), Some(2), "{level}");
            assert_eq!(out.stdout, cpu.stdout, "{level}: gpu prints what cpu prints");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("backend gpu (requested)"), "{level}: {stderr}");
        }
        let lines = stdout_lines(&cpu);
        assert_eq!(lines.len(), items.len() + 3, "{level}");
        for (i, (it, line)) in items.iter().zip(&lines).enumerate() {
            let want = oracle::verify(level, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(line["valid"], want, "{level} line {i} ({}): {line}", it.kind);
            let reason = line["reason"].as_str().unwrap_or("");
            let allowed: &[&str] = match it.kind {
                "valid" => &[""],
                "short_key" => &["malformed_key"],
                "short_signature" => &["malformed_signature"],
                "context_too_long" => &["context_too_long"],
                "malformed_hint" => &["malformed_hint"],
                "z_out_of_range" => &["z_out_of_range"],
                "flipped_sig_bit" => &["malformed_hint", "z_out_of_range", "equation"],
                _ => &["equation"],
            };
            assert!(allowed.contains(&reason), "{level} line {i} ({}): {line}", it.kind);
        }
        for line in &lines[items.len()..] {
            assert!(line["error"].is_string(), "{level}: {line}");
        }
    }
}

/// `verify slh-dsa --set <SET>` on a hostile sample with malformed lines
/// mixed in, in a SHA2 and a SHAKE set: each verdict the `slh-dsa`
/// crate's, each hostile kind with its reason, wrong lengths as items,
/// malformed lines as error lines (exit 2), the set named as FIPS 205
/// writes it too; an unknown set is a usage error naming the sets; with
/// `--backend gpu` the same output, the summary saying the GPU ran it
/// (one set through the binary; the library's tests run all twelve on the
/// GPU).
#[test]
fn slhdsa_lines_match_oracle() {
    use batchcrypto::ops::slhdsa::{Set, oracle, sample};
    let gpu = has_usable_gpu();
    for (set, name) in [(Set::Sha2_128s, "sha2-128s"), (Set::Shake128f, "SLH-DSA-SHAKE-128f")] {
        let items = sample::generate(set, 60, 0.7, 23);
        let input = context_lines(&items);
        let run = |backend: &str| run_with_stdin(&["verify", "slh-dsa", "--set", name, "--backend", backend], &input);
        let cpu = run("cpu");
        assert_eq!(cpu.status.code(), Some(2), "{set}: malformed lines exit 2");
        if gpu && set == Set::Shake128f {
            let out = run("gpu");
            assert_eq!(out.status.code(), Some(2), "{set}");
            assert_eq!(out.stdout, cpu.stdout, "{set}: gpu prints what cpu prints");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("backend gpu (requested)"), "{set}: {stderr}");
        }
        let lines = stdout_lines(&cpu);
        assert_eq!(lines.len(), items.len() + 3, "{set}");
        let mut reasons = std::collections::HashSet::new();
        for (i, (it, line)) in items.iter().zip(&lines).enumerate() {
            let want = oracle::verify(set, &it.pk, &it.msg, &it.sig, &it.ctx);
            assert_eq!(line["valid"], want, "{set} line {i} ({}): {line}", it.kind);
            let reason = line["reason"].as_str().unwrap_or("");
            let expected = match it.kind {
                "valid" => "",
                "short_key" => "malformed_key",
                "short_signature" | "long_signature" => "malformed_signature",
                "context_too_long" => "context_too_long",
                _ => "equation",
            };
            assert_eq!(reason, expected, "{set} line {i} ({}): {line}", it.kind);
            reasons.insert(reason);
        }
        assert_eq!(reasons.len(), 5, "{set}: {reasons:?}");
        for line in &lines[items.len()..] {
            assert!(line["error"].is_string(), "{set}: {line}");
        }
    }
    let out = run_with_stdin(&["verify", "slh-dsa", "--set", "sha2-512s"], b"");
    assert_eq!(out.status.code(), Some(3), "an unknown set is a usage error");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("unknown SLH-DSA set") && stderr.contains("shake-256f"),
        "{stderr}"
    );
}

/// `mlkem keygen|encaps|decaps --set N` on generated hostile items with
/// malformed lines mixed in: the oracle's output per line, byte for byte,
/// each refused item's reason, exit 2; `--backend gpu` prints what `--backend
/// cpu` prints, the summary saying the GPU ran it. Encapsulation without m
/// is random: its ciphertext decapsulates to its secret. (The GPU through
/// the binary with ML-KEM-768's encapsulations and decapsulations, whose
/// lines the CLI reads and prints as it does keygen's; the library's tests
/// run every set and operation on the GPU, and each process here creates
/// its pipelines anew.)
#[test]
fn mlkem_lines_match_oracle() {
    use batchcrypto::ops::mlkem::{Set, oracle, sample};
    let gpu = has_usable_gpu();
    // `--backend cpu`, and `--backend gpu` compared with it line by line
    // except the lines `random` names (encapsulations without m).
    let run = |verb: &str, set: Set, input: &[u8], random: &dyn Fn(usize) -> bool| {
        let bits = set.bits().to_string();
        let args = ["mlkem", verb, "--set", &bits, "--backend", "cpu"];
        let cpu = run_with_stdin(&args, input);
        if gpu && set.bits() == 768 && verb != "keygen" {
            let mut args = args;
            args[5] = "gpu";
            let out = run_with_stdin(&args, input);
            assert_eq!(out.status.code(), cpu.status.code(), "{set} {verb}");
            let (g, c) = (stdout_lines(&out), stdout_lines(&cpu));
            assert_eq!(g.len(), c.len(), "{set} {verb}");
            for (i, (g, c)) in g.iter().zip(&c).enumerate() {
                if !random(i) {
                    assert_eq!(g, c, "{set} {verb} line {i}: gpu prints what cpu prints");
                }
            }
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("backend gpu (requested)"), "{set} {verb}: {stderr}");
        }
        cpu
    };
    let malformed = "not json\n{\"d\":\"00\"}\n{\"ek\":\"0\",\"dk\":\"zz\",\"ct\":\"\",\"z\":\"00\"}\n";
    for set in Set::ALL {
        // Key generation: wrong-length seeds are malformed lines here.
        let seeds = sample::keygen(0..300, 0.3, 31);
        let mut input = String::new();
        for (it, _) in &seeds {
            input += &format!(
                "{{\"d\":\"{}\",\"z\":\"{}\"}}\n",
                hex::encode(&it.d),
                hex::encode(&it.z)
            );
        }
        input += malformed;
        let out = run("keygen", set, input.as_bytes(), &|_| false);
        assert_eq!(out.status.code(), Some(2), "{set} keygen");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), seeds.len() + 3, "{set} keygen");
        for ((it, kind), line) in seeds.iter().zip(&lines) {
            match oracle::keygen(set, &it.d, &it.z) {
                Some(pair) => {
                    assert_eq!(
                        line["ek"].as_str(),
                        Some(hex::encode(&pair.ek).as_str()),
                        "{set} {kind}"
                    );
                    assert_eq!(
                        line["dk"].as_str(),
                        Some(hex::encode(&pair.dk).as_str()),
                        "{set} {kind}"
                    );
                }
                None => assert!(line["error"].is_string(), "{set} {kind}: {line}"),
            }
        }

        // Encapsulation: every hostile kind; some lines without m.
        let pool = sample::key_pool(set, 3, 32);
        let items = sample::encaps(set, &pool, 0..400, 0.5, 33);
        let mut input = String::new();
        for (i, (it, _)) in items.iter().enumerate() {
            let m = match (&it.m, i % 7) {
                (_, 0) => String::new(),
                (Some(m), _) => format!(",\"m\":\"{}\"", hex::encode(m)),
                (None, _) => String::new(),
            };
            input += &format!("{{\"ek\":\"{}\"{m}}}\n", hex::encode(&it.ek));
        }
        input += malformed;
        let out = run("encaps", set, input.as_bytes(), &|i| i % 7 == 0);
        assert_eq!(out.status.code(), Some(2), "{set} encaps");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), items.len() + 3, "{set} encaps");
        for (i, ((it, kind), line)) in items.iter().zip(&lines).enumerate() {
            let m = it.m.as_deref().unwrap_or_default();
            let reason = line["reason"].as_str().unwrap_or("");
            match *kind {
                "short_m" if i % 7 != 0 => assert!(line["error"].is_string(), "{set} {kind}: {line}"),
                "short_key" | "long_key" => assert_eq!(reason, "malformed_key", "{set} {kind}: {line}"),
                "key_not_reduced" => assert_eq!(reason, "key_not_reduced", "{set} {kind}: {line}"),
                _ if i % 7 == 0 => {
                    // Random m: the secret decapsulates from the ciphertext.
                    let pair = pool.iter().find(|p| p.ek == it.ek).expect("a pool key");
                    let ct = hex::decode(line["ct"].as_str().expect("ct")).expect("hex");
                    let ss = hex::decode(line["ss"].as_str().expect("ss")).expect("hex");
                    assert_eq!(
                        oracle::decaps(set, &pair.dk, &ct).map(|s| s.to_vec()),
                        Some(ss),
                        "{set} line {i}"
                    );
                }
                _ => {
                    let e = oracle::encaps(set, &it.ek, m).expect("the oracle encapsulates");
                    assert_eq!(line["ct"].as_str(), Some(hex::encode(&e.ct).as_str()), "{set} {kind}");
                    assert_eq!(line["ss"].as_str(), Some(hex::encode(e.ss).as_str()), "{set} {kind}");
                }
            }
        }

        // Decapsulation: every hostile kind, implicit rejection included.
        let items = sample::decaps(set, &pool, 0..400, 0.6, 34);
        let mut input = String::new();
        for (it, _) in &items {
            input += &format!(
                "{{\"dk\":\"{}\",\"ct\":\"{}\"}}\n",
                hex::encode(&it.dk),
                hex::encode(&it.ct)
            );
        }
        input += malformed;
        let out = run("decaps", set, input.as_bytes(), &|_| false);
        assert_eq!(out.status.code(), Some(2), "{set} decaps");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), items.len() + 3, "{set} decaps");
        for ((it, kind), line) in items.iter().zip(&lines) {
            match oracle::decaps(set, &it.dk, &it.ct) {
                Some(ss) => assert_eq!(line["ss"].as_str(), Some(hex::encode(ss).as_str()), "{set} {kind}"),
                None => {
                    let want = match *kind {
                        "short_ct" | "long_ct" => "malformed_ciphertext",
                        "short_key" => "malformed_key",
                        other => other,
                    };
                    assert!(line["ss"].is_null(), "{set} {kind}: {line}");
                    assert_eq!(line["reason"].as_str(), Some(want), "{set} {kind}: {line}");
                }
            }
        }
        for line in &lines[items.len()..] {
            assert!(line["error"].is_string(), "{set}: {line}");
        }
    }
}

/// `selftest` checks every declared operation (BLS and the precompiles
/// included) on the CPU, and those `--op` names on each adapter too, and
/// says PASS per target.
#[test]
fn selftest_covers_every_operation_and_each_adapter() {
    let selftest = |args: &[&str]| {
        let out = run_with_stdin(&[&["selftest", "--count", "24"], args].concat(), b"");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), text, err)
    };
    // Every operation of the registry on the CPU, through the binary.
    let (code, text, err) = selftest(&["--backend", "cpu"]);
    assert_eq!(code, Some(0), "{text}{err}");
    let ops = batchcrypto::registry::OPS.len();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("PASS cpu: "), "{text}");
    assert!(text.contains(&format!(": {ops} operations (")), "{text}");
    for spec in &batchcrypto::registry::OPS {
        assert!(text.contains(spec.name()), "{text} lacks {}", spec.name());
    }
    // `auto`: the CPU and each adapter, here on three operations (every
    // operation's kernels are compared with the oracles on the GPU, on the
    // same workloads, by the library's tests/all/gpu_driver.rs; this
    // process would create every pipeline once more, minutes on lavapipe).
    if has_usable_gpu() {
        let picked = ["ed25519_verify_strict", "keccak256", "merkle_keccak256"];
        let (code, text, err) = selftest(&["--backend", "auto", "--op", &picked.join(",")]);
        assert_eq!(code, Some(0), "{text}{err}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(
            lines[0].starts_with("PASS cpu: ") && lines[1].starts_with("PASS gpu "),
            "{text}"
        );
        for line in lines {
            assert!(
                line.contains(&format!(": 3 operations ({})", picked.join(", "))),
                "{line}"
            );
        }
    }
    // An operation it does not know is a usage error naming it.
    let (code, text, err) = selftest(&["--backend", "cpu", "--op", "keccak256,nope"]);
    assert_eq!(code, Some(3), "{text}{err}");
    assert!(text.is_empty() && err.contains("unknown op \"nope\""), "{text}{err}");
}

/// Every verb prints exactly the committed output on the golden corpora
/// (testdata/cli-golden: inputs from `sample` with malformed lines mixed
/// in, outputs made by the binary before the op registry), on the CPU: a
/// refactoring that changes one byte of any answer fails here. The GPU
/// prints what the CPU prints: each verb's tests above compare the two
/// line by line (a GPU run per case here would be one more process
/// compiling the kernels, minutes on lavapipe); the GPU's BLS answers are
/// compared item by item with blst's in the library's tests/all/bls.rs.
#[test]
fn cli_output_matches_the_golden_files() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden"));
    let cases = std::fs::read_to_string(dir.join("cases.txt")).expect("cases.txt");
    let mut checked = 0;
    for line in cases.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut words = line.split_whitespace();
        let (Some(name), Some(input)) = (words.next(), words.next()) else {
            panic!("bad case line {line:?}")
        };
        let args: Vec<&str> = words.collect();
        let want = std::fs::read(dir.join(format!("{name}.out"))).expect("golden output");
        let status: i32 = std::fs::read_to_string(dir.join(format!("{name}.status")))
            .expect("golden status")
            .trim()
            .parse()
            .expect("a status");
        let path = dir.join(input);
        let mut full = args.clone();
        full.extend(["--backend", "cpu", "--input", path.to_str().expect("path")]);
        // In the corpus's folder, as scripts/cli-golden.sh runs them (a
        // case's files, e.g. a Groth16 key, are named from there).
        let out = bin().args(&full).current_dir(&dir).output().expect("run");
        assert_eq!(out.status.code(), Some(status), "{name}");
        assert!(out.stdout == want, "{name}: output differs from {name}.out");
        checked += 1;
    }
    assert!(checked >= 14, "{checked} cases");
}

/// `poseidon`: sample items of every width, honest and hostile, with
/// malformed lines among them (a short element, a missing or mistyped
/// field, bad hex, not JSON) give the oracle's hash or reason per line,
/// errors naming their line (exit 2); `--backend gpu` prints the same,
/// from the device.
#[test]
fn poseidon_lines_match_oracle() {
    use batchcrypto::ops::poseidon::{ELEMENT_LEN, MAX_INPUTS, oracle, sample};
    let items = sample::items(120, 31, 0.4, |i| 1 + i % MAX_INPUTS);
    let malformed = [
        "{\"inputs\":[\"00\"]}",
        "{}",
        "{\"inputs\":\"00\"}",
        "{\"inputs\":[\"0g00000000000000000000000000000000000000000000000000000000000000\"]}",
        "not json",
    ];
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, (item, _)) in items.iter().enumerate() {
        if i % 9 == 4 {
            input.push_str(malformed[(i / 9) % malformed.len()]);
            input.push('\n');
            want.push(None);
        }
        let elements: Vec<String> = item.chunks(ELEMENT_LEN).map(hex::encode).collect();
        input.push_str(&serde_json::json!({ "inputs": elements }).to_string());
        input.push('\n');
        // A short last element is a malformed line, not an item.
        want.push((item.len() % ELEMENT_LEN == 0).then(|| match oracle::hash(item) {
            Ok(h) => serde_json::json!({ "hash": hex::encode(h) }),
            Err(r) => serde_json::json!({ "hash": null, "reason": r.code() }),
        }));
    }
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&["poseidon"], input.as_bytes())
    } else {
        run_with_stdin(&["poseidon", "--backend", "cpu"], input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("poseidon", &stdout_lines(&out), &want);
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        ["non_canonical_element", "wrong_input_length"]
    );
}

/// `trie-root`: sample lists of every shape, honest and hostile, with
/// malformed lines among them (values not a list, a value not hex, no
/// values field, not JSON) give the oracle's root or reason per line,
/// errors naming their line (exit 2); `--backend gpu` prints the same,
/// from the device.
#[test]
fn trie_root_lines_match_oracle() {
    use batchcrypto::ops::ordered_trie::{oracle, sample, values};
    let items = sample::lists(150, 17, 0.3, true);
    let malformed = ["{\"values\":\"01\"}", "{\"values\":[\"0g\"]}", "{}", "not json"];
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, (item, _)) in items.iter().enumerate() {
        malformed_among(i, &malformed, &mut input, &mut want);
        // An item whose layout does not read has no line form: skipped.
        let Ok(values) = values(item) else { continue };
        let values: Vec<String> = values.iter().map(hex::encode).collect();
        input.push_str(&serde_json::json!({ "values": values }).to_string());
        input.push('\n');
        want.push(Some(match oracle::root(item) {
            Ok(root) => serde_json::json!({ "root": hex::encode(root) }),
            Err(r) => serde_json::json!({ "root": null, "reason": r.code() }),
        }));
    }
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&["trie-root"], input.as_bytes())
    } else {
        run_with_stdin(&["trie-root", "--backend", "cpu"], input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("trie-root", &stdout_lines(&out), &want);
    assert_eq!(reasons.into_iter().collect::<Vec<_>>(), ["empty_value"]);
}

/// `tx-sender`: sample transactions of every type, honest and hostile,
/// with malformed lines among them (no tx field, bad hex, odd digits, not
/// JSON) give the oracle's sender or reason per line, errors naming their
/// line (exit 2); `--backend gpu` prints the same, from the device.
#[test]
fn tx_sender_lines_match_oracle() {
    use batchcrypto::ops::tx_sender::{oracle, sample};
    let items = sample::transactions(160, 4, 23, 0.4, true);
    let malformed = ["{}", "{\"tx\":\"0g\"}", "{\"tx\":\"abc\"}", "not json"];
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, (tx, _)) in items.iter().enumerate() {
        malformed_among(i, &malformed, &mut input, &mut want);
        // Half the lines with 0x, as RPC answers give them.
        let prefix = if i % 2 == 0 { "0x" } else { "" };
        input.push_str(&serde_json::json!({ "tx": format!("{prefix}{}", hex::encode(tx)) }).to_string());
        input.push('\n');
        want.push(Some(match oracle::sender(tx) {
            Ok(sender) => serde_json::json!({ "sender": format!("0x{}", hex::encode(sender)) }),
            Err(r) => serde_json::json!({ "sender": null, "reason": r.code() }),
        }));
    }
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&["tx-sender"], input.as_bytes())
    } else {
        run_with_stdin(&["tx-sender", "--backend", "cpu"], input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("tx-sender", &stdout_lines(&out), &want);
    assert_eq!(
        reasons.into_iter().collect::<Vec<_>>(),
        [
            "high_s",
            "malformed_transaction",
            "r_out_of_range",
            "recovery_failed",
            "s_out_of_range",
            "unsupported_tx_type"
        ]
    );
}

/// `verify solana-tx`: sample transactions of every version and shape,
/// honest and hostile, with malformed lines among them (no tx field, bad
/// hex, odd digits, not JSON) give the oracle's verdict per line under
/// each policy, errors naming their line (exit 2); `--backend gpu`
/// prints the same, from the device.
#[test]
fn solana_tx_lines_match_oracle() {
    use batchcrypto::ops::ed25519::Policy;
    use batchcrypto::ops::solana_tx::{oracle, sample};
    let items = sample::transactions(150, 4, 29, 0.5, true);
    let malformed = ["{}", "{\"tx\":\"0g\"}", "{\"tx\":\"abc\"}", "not json"];
    for policy in [Policy::Strict, Policy::Zip215] {
        let mut input = String::new();
        let mut want: Vec<Option<serde_json::Value>> = Vec::new();
        for (i, (tx, _)) in items.iter().enumerate() {
            malformed_among(i, &malformed, &mut input, &mut want);
            let prefix = if i % 2 == 0 { "0x" } else { "" };
            input.push_str(&serde_json::json!({ "tx": format!("{prefix}{}", hex::encode(tx)) }).to_string());
            input.push('\n');
            want.push(Some(match oracle::verify(tx, policy) {
                batchcrypto::Verdict::Valid => serde_json::json!({ "valid": true }),
                batchcrypto::Verdict::Invalid(r) => serde_json::json!({ "valid": false, "reason": r.code() }),
            }));
        }
        let args = ["verify", "solana-tx", "--policy", policy.name()];
        let out = if has_usable_gpu() {
            gpu_prints_what_cpu_prints(&args, input.as_bytes())
        } else {
            run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
        };
        assert_eq!(out.status.code(), Some(2));
        let reasons = assert_lines("verify solana-tx", &stdout_lines(&out), &want);
        let mut expected = vec![
            "equation",
            "malformed_key",
            "malformed_transaction",
            "non_canonical_s",
            "sanitize_failure",
        ];
        if policy == Policy::Strict {
            expected.push("small_order_key");
        }
        let mut got: Vec<&str> = reasons.iter().map(String::as_str).collect();
        got.retain(|r| *r != "malformed_r");
        assert_eq!(got, expected, "{policy}");
    }
}

/// `verify block`: the golden blocks (mainnet 15,571,241 whole, a testnet
/// block without its transactions, the mainnet block changed and cut,
/// small Shanghai-shaped blocks whole and with another withdrawals root or
/// an ommer not under ommersHash) each name the first field that does not
/// match, or none, beside the block's number and hash; `--backend gpu`
/// prints the same, from the device.
#[test]
fn verify_block_lines_name_the_field_that_fails() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden"));
    let input = std::fs::read(dir.join("block.jsonl")).expect("block.jsonl");
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&["verify", "block"], &input)
    } else {
        run_with_stdin(&["verify", "block", "--backend", "cpu"], &input)
    };
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    let mainnet = "1850b014065b23d804ecf71a8a4691d076ca87c2e6fb8fe81ee20a4d8e884c24";
    assert_eq!(
        lines[0],
        serde_json::json!({"valid": true, "number": 15_571_241, "hash": mainnet})
    );
    let fields: Vec<&str> = lines.iter().filter_map(|l| l["field"].as_str()).collect();
    assert_eq!(
        fields,
        ["transactionsRoot", "transactionsRoot", "withdrawalsRoot", "ommersHash"]
    );
    let reasons: Vec<&str> = lines.iter().filter_map(|l| l["reason"].as_str()).collect();
    assert_eq!(reasons.iter().filter(|r| **r == "malformed_block").count(), 2);
    assert_eq!(lines.iter().filter(|l| l["valid"] == true).count(), 2);
    assert_eq!(lines.iter().filter(|l| l.get("error").is_some()).count(), 2);
}

/// `verify bitcoin-block`: the golden blocks (testnet3 924,634 and
/// mainnet 0000000000013b8a whole; 13b8a changed, with its last
/// transaction repeated, its header changed, cut, lengthened; regtest
/// blocks that `bitcoin-block.py` built with hashlib: whole, with the
/// commitment changed, a two-item coinbase witness, a witness without a
/// commitment, a target above the limit) give the known hashes and each
/// check's reason, under mainnet's parameters (where the regtest blocks'
/// work is too little) and regtest's; `--backend gpu` prints the same,
/// from the device.
#[test]
fn verify_bitcoin_block_lines_name_the_check_that_fails() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden"));
    let input = std::fs::read(dir.join("bitcoin-block.jsonl")).expect("bitcoin-block.jsonl");
    for (network, tail) in [
        ("main", ["high_hash"; 5]),
        (
            "regtest",
            [
                "valid",
                "root_mismatch witnessCommitment",
                "bad_witness_nonce_size",
                "unexpected_witness",
                "high_hash",
            ],
        ),
    ] {
        let args = ["verify", "bitcoin-block", "--network", network];
        let out = if has_usable_gpu() {
            gpu_prints_what_cpu_prints(&args, &input)
        } else {
            run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), &input)
        };
        assert_eq!(out.status.code(), Some(2), "{network}");
        let lines = stdout_lines(&out);
        assert_eq!(lines.len(), 15, "{network}");
        assert_eq!(
            lines[0],
            serde_json::json!({"valid": true, "hash": "000000000000045e0b1660b6445b5e5c5ab63c9a4f956be7e1e69be04fa4497b", "height": 924_634})
        );
        let b13 = "0000000000013b8ab2cd513b0261a14096412195a72a0c4827d229dcc7e0f7af";
        assert_eq!(
            lines[1],
            serde_json::json!({"valid": true, "hash": b13, "height": null})
        );
        let said = |l: &serde_json::Value| match (l["valid"].as_bool(), l["reason"].as_str(), l["field"].as_str()) {
            (Some(true), _, _) => "valid".to_string(),
            (_, Some(r), Some(f)) => format!("{r} {f}"),
            (_, Some(r), None) => r.to_string(),
            _ => "error".to_string(),
        };
        let got: Vec<String> = lines.iter().map(said).collect();
        let mut want = vec![
            "valid",
            "valid",
            "root_mismatch merkleRoot",
            "high_hash",
            "malformed_block",
            "malformed_block",
            "duplicate_transactions",
        ];
        want.extend(tail);
        want.extend(["malformed_block", "error", "error"]);
        assert_eq!(got, want, "{network}");
        assert_eq!(
            lines[6]["hash"], b13,
            "the repeated transaction leaves the header as it was"
        );
        assert!(lines[7..12].iter().all(|l| l["height"] == 500), "{network}");
    }
}

/// `eip7702-authority`: the golden authorizations (eth-account's, with
/// their authorities; the first changed: high s, r zero, y parity 2;
/// malformed lines) give the known authorities and the reasons, errors
/// naming their lines (exit 2); `--backend gpu` prints the same, from the
/// device.
#[test]
fn eip7702_authority_lines_name_their_signers() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"));
    let input = std::fs::read(dir.join("cli-golden/eip7702-authority.jsonl")).expect("corpus");
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&["eip7702-authority"], &input)
    } else {
        run_with_stdin(&["eip7702-authority", "--backend", "cpu"], &input)
    };
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    let known: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("eth-txs/authorizations.json")).expect("authorizations.json"),
    )
    .expect("json");
    for (i, c) in known.as_array().expect("a list").iter().enumerate() {
        assert_eq!(
            lines[i],
            serde_json::json!({ "authority": c["authority"] }),
            "line {}",
            i + 1
        );
    }
    let reasons: Vec<&str> = lines[9..12]
        .iter()
        .map(|l| l["reason"].as_str().expect("reason"))
        .collect();
    assert_eq!(reasons, ["high_s", "r_out_of_range", "bad_v"]);
    assert!(lines[12..].iter().all(|l| l.get("error").is_some()));
    assert_eq!(lines.len(), 15);
}

/// `verify block --senders`: the golden blocks again; mainnet 15,571,241's
/// line lists its 58 transactions' senders as its node recovered them
/// (`testdata/eth-txs`), the small block whose body holds to its header
/// but whose transaction is no signed one names that transaction
/// (`recovery_failed`, transaction 0), the others answer as without the
/// switch; `--backend gpu` prints the same, from the device.
#[test]
fn verify_block_senders_recover_every_transaction() {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata"));
    let input = std::fs::read(dir.join("cli-golden/block.jsonl")).expect("block.jsonl");
    let args = ["verify", "block", "--senders"];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, &input)
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), &input)
    };
    assert_eq!(out.status.code(), Some(2));
    let lines = stdout_lines(&out);
    let known: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("eth-txs/txs.json")).expect("txs.json")).expect("json");
    let mainnet: Vec<&str> = known.as_array().expect("a list")[..58]
        .iter()
        .map(|c| c["sender"].as_str().expect("sender"))
        .collect();
    let senders: Vec<&str> = lines[0]["senders"]
        .as_array()
        .expect("senders")
        .iter()
        .map(|s| s.as_str().expect("hex"))
        .collect();
    assert_eq!(senders, mainnet);
    assert_eq!(lines[4]["reason"], "recovery_failed", "{}", lines[4]);
    assert_eq!(lines[4]["transaction"], 0, "{}", lines[4]);
    // Without the switch: the same lines but for the senders.
    let plain = stdout_lines(&run_with_stdin(&["verify", "block", "--backend", "cpu"], &input));
    for (i, (with, without)) in lines.iter().zip(&plain).enumerate() {
        let mut with = with.clone();
        if let Some(o) = with.as_object_mut() {
            o.remove("senders");
        }
        if i != 4 {
            assert_eq!(&with, without, "line {}", i + 1);
        }
    }
    assert_eq!(lines.len(), plain.len());
}

/// Before item `i`, one in eleven (the sixth of each eleven), the next of
/// `malformed` as a line, its answer an error line (`None`).
fn malformed_among(i: usize, malformed: &[&str], input: &mut String, want: &mut Vec<Option<serde_json::Value>>) {
    if i % 11 == 5 {
        input.push_str(malformed[(i / 11) % malformed.len()]);
        input.push('\n');
        want.push(None);
    }
}

/// Output lines against what each should be (`None`: an error naming its
/// own line; else exactly that object), one per input line; the reasons
/// of the refused items.
fn assert_lines(
    what: &str,
    lines: &[serde_json::Value],
    want: &[Option<serde_json::Value>],
) -> std::collections::BTreeSet<String> {
    assert_eq!(lines.len(), want.len(), "{what}: one line per input line");
    let mut reasons = std::collections::BTreeSet::new();
    for (n, (got, want)) in lines.iter().zip(want).enumerate() {
        match want {
            None => assert!(
                got["error"]
                    .as_str()
                    .is_some_and(|e| e.contains(&format!("line {}", n + 1))),
                "{what}, line {}: {got}",
                n + 1
            ),
            Some(w) => {
                assert!(got == w, "{what}, line {}: {got} differs from {w}", n + 1);
                if let Some(r) = w["reason"].as_str() {
                    reasons.insert(r.to_string());
                }
            }
        }
    }
    reasons
}

/// `verify groth16-bls12-381`: generated proofs honest and hostile, with
/// malformed lines among them (a snarkjs object without pi_b among
/// those), give the oracle's verdict per line (exit 2 for the malformed);
/// `--backend gpu` prints the same, from the device. The key answers the
/// same from a hex file of its compressed form, from bellman's raw
/// uncompressed bytes and inline; a key that cannot be read is a usage
/// error saying why.
#[test]
fn groth16_bls12_381_lines_match_oracle() {
    use batchcrypto::ops::groth16::bls12_381::{PROOF_LEN, VerifyingKey, oracle, sample};
    let trapdoor = sample::Trapdoor::new(4, 23);
    let (key, bellman) = (trapdoor.key(), trapdoor.bellman_key());
    let vk = VerifyingKey::from_bytes(&key).expect("the sample's key");
    let items = trapdoor.items(0..70, 0.5);
    let tmp = |name: &str| std::env::temp_dir().join(format!("batchcrypto-g16bls-{}-{name}", std::process::id()));
    let (hex_file, raw_file) = (tmp("vk.hex"), tmp("vk.bin"));
    std::fs::write(&hex_file, hex::encode(&key)).expect("write the key");
    std::fs::write(&raw_file, &bellman).expect("write the key");
    let malformed = [
        "{\"proof\":\"00\",\"public\":[]}",
        "{\"public\":[\"1\"]}",
        "{\"proof\":{\"pi_a\":[\"1\",\"2\",\"1\"]},\"public\":[]}",
        "{\"proof\":\"zz\",\"public\":[]}",
        "not json",
    ];
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        malformed_among(i, &malformed, &mut input, &mut want);
        let (proof, inputs) = item.bytes.split_at(PROOF_LEN);
        // Little-endian bytes, big-endian numbers.
        let public: Vec<String> = inputs
            .chunks(32)
            .map(|x| format!("0x{}", hex::encode(x.iter().rev().copied().collect::<Vec<u8>>())))
            .collect();
        input.push_str(&serde_json::json!({ "proof": hex::encode(proof), "public": public }).to_string());
        input.push('\n');
        want.push(Some(if oracle::verify(&vk, &item.bytes) {
            serde_json::json!({ "valid": true })
        } else {
            let reason = match item.kind {
                "input_not_below_r" => "non_canonical_element",
                "a_not_on_curve"
                | "b_coordinate_not_below_p"
                | "a_at_infinity"
                | "b_at_infinity"
                | "a_flag_uncompressed" => "malformed_proof",
                "a_not_in_subgroup" | "b_not_in_subgroup" => "proof_not_in_subgroup",
                "one_input_short" => "wrong_input_length",
                _ => "equation",
            };
            serde_json::json!({ "valid": false, "reason": reason })
        }));
    }
    let args = ["verify", "groth16-bls12-381", "--vk", hex_file.to_str().expect("path")];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, input.as_bytes())
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("groth16-bls12-381", &stdout_lines(&out), &want);
    assert_eq!(reasons.len(), 5, "{reasons:?}");
    let hex_key = hex::encode(&bellman);
    for key_args in [
        vec!["--vk", raw_file.to_str().expect("path")],
        vec!["--vk-hex", hex_key.as_str()],
    ] {
        let same = run_with_stdin(
            &[&["verify", "groth16-bls12-381"][..], &key_args, &["--backend", "cpu"]].concat(),
            input.as_bytes(),
        );
        assert_eq!(same.stdout, out.stdout, "{:?}", key_args[0]);
    }
    std::fs::remove_file(&hex_file).ok();
    std::fs::remove_file(&raw_file).ok();

    // snarkjs's files for this curve: the key's JSON and a proof line made
    // of proof.json and public.json as they are; 34 for 33 fails.
    let dir = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/groth16/snarkjs-bls12381"
    ));
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(f)).expect(f)).expect(f)
    };
    let line =
        |public: serde_json::Value| serde_json::json!({ "proof": read("proof.json"), "public": public }).to_string();
    let key = dir.join("verification_key.json");
    let out = run_with_stdin(
        &[
            "verify",
            "groth16-bls12-381",
            "--vk",
            key.to_str().expect("path"),
            "--backend",
            "cpu",
        ],
        format!("{}\n{}\n", line(read("public.json")), line(serde_json::json!(["34"]))).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"valid\":true}\n{\"valid\":false,\"reason\":\"equation\"}\n"
    );

    // Keys that cannot be used: usage errors (exit 3) that say why (a
    // BN254 key names the verb that takes it).
    let bn254_key = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/groth16/zkchess/verification_key.json"
    )
    .to_string();
    for (args, says) in [
        (vec!["--vk", "/nonexistent/vk.bin"], "/nonexistent/vk.bin"),
        (
            vec!["--vk", bn254_key.as_str()],
            "(groth16_verify_bn254, `verify groth16`, takes it)",
        ),
        (vec!["--vk-hex", "80ff"], "compressed (arkworks, Sui)"),
        (vec!["--vk-hex", "xyz"], "not hex"),
        (vec![], "--vk"),
    ] {
        let out = run_with_stdin(&[&["verify", "groth16-bls12-381"][..], &args].concat(), b"");
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `verify groth16`: generated proofs honest and hostile, as hex and as
/// snarkjs's objects, with malformed lines among them, give the oracle's
/// verdict per line (exit 2 for the malformed); `--backend gpu` prints
/// the same, from the device. snarkjs's own files verify through `--vk
/// verification_key.json`, and a key that cannot be read is a usage
/// error naming the file.
#[test]
fn groth16_lines_match_oracle() {
    use batchcrypto::ops::groth16::{PROOF_LEN, VerifyingKey, oracle, sample, snarkjs};
    let made = sample::generate(5, 90, 0.4, 17);
    let vk = VerifyingKey::from_bytes(&made.vk).expect("the sample's key");
    let key_file = std::env::temp_dir().join(format!("batchcrypto-groth16-{}.hex", std::process::id()));
    std::fs::write(&key_file, hex::encode(&made.vk)).expect("write the key");
    let malformed = [
        "{\"proof\":\"00\",\"public\":[]}",
        "{\"public\":[\"1\"]}",
        "{\"proof\":{\"pi_a\":[\"1\",\"2\",\"1\"]},\"public\":[]}",
        "{\"proof\":\"zz\",\"public\":[]}",
        "not json",
    ];
    let mut input = String::new();
    let mut want: Vec<Option<serde_json::Value>> = Vec::new();
    for (i, item) in made.items.iter().enumerate() {
        malformed_among(i, &malformed, &mut input, &mut want);
        let (proof, inputs) = item.bytes.split_at(PROOF_LEN);
        let public: Vec<String> = inputs.chunks(32).map(|x| format!("0x{}", hex::encode(x))).collect();
        input.push_str(&serde_json::json!({ "proof": hex::encode(proof), "public": public }).to_string());
        input.push('\n');
        want.push(Some(if oracle::verify(&vk, &item.bytes) {
            serde_json::json!({ "valid": true })
        } else {
            let reason = match item.kind {
                "input_not_below_r" => "non_canonical_element",
                "a_off_curve" | "b_coordinate_not_below_p" => "malformed_proof",
                "b_not_in_subgroup" => "proof_not_in_subgroup",
                "one_input_short" => "wrong_input_length",
                _ => "equation",
            };
            serde_json::json!({ "valid": false, "reason": reason })
        }));
    }
    let args = ["verify", "groth16", "--vk", key_file.to_str().expect("path")];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, input.as_bytes())
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("groth16", &stdout_lines(&out), &want);
    assert_eq!(reasons.len(), 5, "{reasons:?}");
    // The same key given inline (the service's form) answers the same.
    let inline = run_with_stdin(
        &[
            "verify",
            "groth16",
            "--vk-hex",
            &hex::encode(&made.vk),
            "--backend",
            "cpu",
        ],
        input.as_bytes(),
    );
    assert_eq!(inline.stdout, out.stdout);
    std::fs::remove_file(&key_file).ok();

    // snarkjs's files: the key's JSON and a proof line made of proof.json
    // and public.json as they are.
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/groth16/zkchess"));
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(f)).expect(f)).expect(f)
    };
    let line = serde_json::json!({ "proof": read("proof.json"), "public": read("public.json") }).to_string();
    let key = dir.join("verification_key.json");
    let out = run_with_stdin(
        &[
            "verify",
            "groth16",
            "--vk",
            key.to_str().expect("path"),
            "--backend",
            "cpu",
        ],
        format!("{line}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "{\"valid\":true}\n");
    assert!(snarkjs::verifying_key(&std::fs::read_to_string(&key).expect("key")).is_ok());

    // Keys that cannot be used: usage errors (exit 3) that say why.
    for (args, says) in [
        (vec!["--vk", "/nonexistent/vk.json"], "/nonexistent/vk.json"),
        (vec!["--vk-hex", "00ff"], "at least 512 bytes"),
        (vec!["--vk-hex", "xyz"], "not hex"),
        (vec![], "--vk"),
    ] {
        let out = run_with_stdin(&[&["verify", "groth16"][..], &args].concat(), b"");
        assert_eq!(out.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `verify merkle-proof`: generated proofs of every rule, plain and of a
/// padded tree under `--depth`, honest and hostile, with malformed lines
/// among them (a ragged sibling of the sample's, no proof, a short root,
/// no index where one is needed), give the oracle's verdict per line (exit
/// 2 for the malformed); `--backend gpu` prints the same, from the device.
/// The proofs `merkle --proof` prints verify with their `path` as the index.
#[test]
fn merkle_proof_lines_match_oracle() {
    use batchcrypto::ops::merkle::{oracle, proof, sample};
    for rule in Rule::ALL {
        for depth in [None, Some(9u32)] {
            let items = sample::proofs(rule, 90, 41, 0.4, depth);
            let malformed = [
                "{\"root\":\"00\",\"leaf\":\"00\",\"index\":0,\"proof\":[]}",
                "{\"root\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"leaf\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"index\":0}",
                "{\"root\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"leaf\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"index\":-1,\"proof\":[]}",
                "not json",
            ];
            let (mut input, mut want) = (String::new(), Vec::new());
            for (i, (item, _)) in items.iter().enumerate() {
                malformed_among(i, &malformed, &mut input, &mut want);
                let ragged = item.len() < proof::HEAD_LEN || !(item.len() - proof::HEAD_LEN).is_multiple_of(32);
                if ragged {
                    // As `sample merkle-proof` writes it: a short node.
                    let (head, tail) = item.split_at(item.len().min(64));
                    let line = serde_json::json!({
                        "root": hex::encode(&head[..32]),
                        "leaf": hex::encode(&head[32..]),
                        "index": 0,
                        "proof": [hex::encode(tail)],
                    });
                    input.push_str(&format!("{line}\n"));
                    want.push(None);
                    continue;
                }
                let siblings: Vec<String> = item[proof::HEAD_LEN..].chunks(32).map(hex::encode).collect();
                let index = u64::from_be_bytes(item[64..72].try_into().expect("8 bytes"));
                let line = serde_json::json!({
                    "root": hex::encode(&item[..32]),
                    "leaf": hex::encode(&item[32..64]),
                    "index": index,
                    "proof": siblings,
                });
                input.push_str(&format!("{line}\n"));
                want.push(Some(match oracle::verify_proof(rule, depth, item).reason() {
                    None => serde_json::json!({ "valid": true }),
                    Some(r) => serde_json::json!({ "valid": false, "reason": r.code() }),
                }));
            }
            let mut args = vec![
                "verify".to_string(),
                "merkle-proof".into(),
                "--rule".into(),
                rule.name().into(),
            ];
            if let Some(d) = depth {
                args.extend(["--depth".into(), d.to_string()]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let out = if has_usable_gpu() {
                gpu_prints_what_cpu_prints(&args, input.as_bytes())
            } else {
                run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
            };
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let reasons = assert_lines(&format!("{args:?}"), &stdout_lines(&out), &want);
            assert!(reasons.contains("root_mismatch") && reasons.contains("leaf_index_out_of_range"));
            assert_eq!(reasons.contains("wrong_proof_length"), depth.is_some(), "{args:?}");
        }
    }
    // merkle --proof's proofs, their path as the index.
    let leaves: String = (1..=37).map(|i| format!("{{\"leaf\":\"{i:064x}\"}}\n")).collect();
    for rule in Rule::ALL {
        let out = run_with_stdin(
            &["merkle", "--rule", rule.name(), "--proof", "0,5,36", "--backend", "cpu"],
            leaves.as_bytes(),
        );
        let tree = &stdout_lines(&out)[0];
        let mut input = String::new();
        for p in tree["proofs"].as_array().expect("proofs") {
            let line =
                serde_json::json!({"root": tree["root"], "leaf": p["leaf"], "index": p["path"], "proof": p["proof"]});
            input.push_str(&format!("{line}\n"));
        }
        let out = run_with_stdin(
            &["verify", "merkle-proof", "--rule", rule.name(), "--backend", "cpu"],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{rule}");
        assert_eq!(
            stdout_lines(&out),
            vec![serde_json::json!({"valid": true}); 3],
            "{rule}"
        );
    }
}

/// `verify mpt-proof`: generated trie proofs (present and absent keys,
/// three shapes of tries, hostile of every kind) with malformed lines
/// among them (the sample's ragged items, no proof, a short root, a node
/// not hex) give the oracle's verdict per line (exit 2 for the
/// malformed); a key over 32 bytes is the item's `wrong_input_length`;
/// `--secure` hashes the keys first; `--backend gpu` prints the same, from
/// the device.
#[test]
fn mpt_proof_lines_match_oracle() {
    use batchcrypto::ops::mpt::{self, oracle, sample};
    let items = sample::proofs(160, 43, 0.4, true);
    let malformed = [
        "{\"root\":\"00\",\"key\":\"00\",\"proof\":[]}",
        "{\"root\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"key\":\"00\"}",
        "{\"root\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"key\":\"00\",\"proof\":[\"zz\"]}",
        "not json",
    ];
    let (mut input, mut want) = (String::new(), Vec::new());
    for (i, (item, _)) in items.iter().enumerate() {
        malformed_among(i, &malformed, &mut input, &mut want);
        let Ok(p) = mpt::read(item) else {
            // As `sample mpt-proof` writes a ragged item: a long root.
            input.push_str(&format!("{}\n", serde_json::json!({ "root": hex::encode(item) })));
            want.push(None);
            continue;
        };
        let mut line = serde_json::json!({
            "root": hex::encode(p.root),
            "key": hex::encode(p.key),
            "proof": p.nodes.iter().map(hex::encode).collect::<Vec<_>>(),
        });
        match (p.value, i % 3) {
            (Some(v), _) => line["value"] = hex::encode(v).into(),
            // A proof of absence: the value left out or null.
            (None, 0) => line["value"] = serde_json::Value::Null,
            (None, _) => {}
        }
        input.push_str(&format!("{line}\n"));
        want.push(Some(match oracle::verify(item).reason() {
            None => serde_json::json!({ "valid": true }),
            Some(r) => serde_json::json!({ "valid": false, "reason": r.code() }),
        }));
    }
    // A key over 32 bytes: the item's reason.
    input.push_str(&format!(
        "{}\n",
        serde_json::json!({"root": hex::encode([0u8; 32]), "key": hex::encode([1u8; 33]), "proof": []})
    ));
    want.push(Some(
        serde_json::json!({"valid": false, "reason": "wrong_input_length"}),
    ));
    let args = ["verify", "mpt-proof"];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, input.as_bytes())
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let reasons = assert_lines("verify mpt-proof", &stdout_lines(&out), &want);
    for r in [
        "path_mismatch",
        "root_mismatch",
        "malformed_proof",
        "wrong_input_length",
    ] {
        assert!(reasons.contains(r), "{r}");
    }
    // --secure: a 33-byte key hashed is a key of 32; the empty trie holds
    // no key, and the root of a trie of one account is reached by the
    // account's address.
    let address = [0x5a; 20];
    let hashed = batchcrypto::ops::hash::oracle::digest(batchcrypto::ops::hash::Alg::Keccak256, &address);
    let (root, proofs) = sample::prove(&[(hashed.to_vec(), b"account".to_vec())], &[hashed.to_vec()]).expect("a trie");
    let nodes: Vec<String> = proofs[0].iter().map(hex::encode).collect();
    let lines = [
        serde_json::json!({"root": hex::encode(mpt::EMPTY_ROOT), "key": hex::encode([1u8; 33]), "proof": []}),
        serde_json::json!({"root": hex::encode(root), "key": hex::encode(address), "value": hex::encode(b"account"), "proof": nodes}),
        serde_json::json!({"root": hex::encode(root), "key": hex::encode(hashed), "value": hex::encode(b"account"), "proof": nodes}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let out = run_with_stdin(
        &["verify", "mpt-proof", "--secure", "--backend", "cpu"],
        input.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout_lines(&out),
        vec![
            serde_json::json!({"valid": true}),
            serde_json::json!({"valid": true}),
            serde_json::json!({"valid": false, "reason": "path_mismatch"}),
        ]
    );
}

/// `verify eth-proof`: eth_getProof answers made from tries alloy-trie
/// builds (a state trie of 40 accounts, one with a storage trie of 12
/// slots): the whole answer valid (a present slot, a slot holding 0,
/// absent), an absent account stated as geth states it (zero hashes, a
/// slot's empty proof) and as reth does (the empty hashes), a changed balance failing its
/// `accountProof`, a changed slot value its `storageProof[i]`; malformed
/// lines (no state root, a nonce over 64 bits, a slot over 32 bytes) are
/// error lines, exit 2; `--backend gpu` prints the same, from the device.
#[test]
fn eth_proof_lines_check_whole_answers() {
    use batchcrypto::ops::hash::{Alg, oracle::digest};
    use batchcrypto::ops::mpt::{EMPTY_ROOT, eth, sample};
    let word = |n: u64| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&n.to_be_bytes());
        w
    };
    let quantity = |w: &[u8; 32]| {
        let h = hex::encode(w);
        format!(
            "0x{}",
            h.trim_start_matches('0').to_string() + if w == &[0; 32] { "0" } else { "" }
        )
    };
    // The storage trie: slots 0..12 holding 1000 * (slot + 1) (slot 12 empty).
    let slots: Vec<(Vec<u8>, Vec<u8>)> = (0..12u64)
        .map(|s| {
            let item = eth::storage_item(&[0; 32], &word(s), &word(1000 * (s + 1)), &[]).expect("fits");
            let p = batchcrypto::ops::mpt::read(&item).expect("reads");
            (p.key.to_vec(), p.value.expect("held").to_vec())
        })
        .collect();
    let asked = [3u64, 12];
    let keys: Vec<Vec<u8>> = asked
        .iter()
        .map(|&s| digest(Alg::Keccak256, &word(s)).to_vec())
        .collect();
    let (storage_root, storage_proofs) = sample::prove(&slots, &keys).expect("a trie");
    let account = eth::Account {
        nonce: 7,
        balance: word(5_000_000_000),
        storage_root,
        code_hash: [0x33; 32],
    };
    let address = [0xab; 20];
    let absent = [0xcd; 20];
    let mut state: Vec<(Vec<u8>, Vec<u8>)> = (0..39u8)
        .map(|i| {
            let a = eth::Account {
                nonce: u64::from(i),
                ..account
            };
            (digest(Alg::Keccak256, &[i; 20]).to_vec(), a.rlp())
        })
        .collect();
    state.push((digest(Alg::Keccak256, &address).to_vec(), account.rlp()));
    let state_keys = [
        digest(Alg::Keccak256, &address).to_vec(),
        digest(Alg::Keccak256, &absent).to_vec(),
    ];
    let (state_root, account_proofs) = sample::prove(&state, &state_keys).expect("a trie");
    let nodes = |p: &[Vec<u8>]| p.iter().map(|n| format!("0x{}", hex::encode(n))).collect::<Vec<_>>();
    let answer = |balance: u64, slot3: u64| {
        serde_json::json!({
            "stateRoot": format!("0x{}", hex::encode(state_root)),
            "address": format!("0x{}", hex::encode(address)),
            "nonce": "0x7",
            "balance": quantity(&word(balance)),
            "codeHash": format!("0x{}", hex::encode(account.code_hash)),
            "storageHash": format!("0x{}", hex::encode(storage_root)),
            "accountProof": nodes(&account_proofs[0]),
            "storageProof": [
                {"key": format!("0x{}", hex::encode(word(3))), "value": quantity(&word(slot3)), "proof": nodes(&storage_proofs[0])},
                {"key": "0xc", "value": "0x0", "proof": nodes(&storage_proofs[1])},
            ],
        })
    };
    let empty = |code: [u8; 32], storage: [u8; 32]| {
        serde_json::json!({
            "stateRoot": format!("0x{}", hex::encode(state_root)),
            "address": format!("0x{}", hex::encode(absent)),
            "nonce": "0x0",
            "balance": "0x0",
            "codeHash": format!("0x{}", hex::encode(code)),
            "storageHash": format!("0x{}", hex::encode(storage)),
            "accountProof": nodes(&account_proofs[1]),
            // As geth answers a slot of an account it does not have.
            "storageProof": [{"key": "0x0", "value": "0x0", "proof": []}],
        })
    };
    let mut no_root = answer(5_000_000_000, 4000);
    no_root.as_object_mut().expect("an object").remove("stateRoot");
    let mut big_nonce = answer(5_000_000_000, 4000);
    big_nonce["nonce"] = "0x10000000000000000".into();
    let mut long_slot = answer(5_000_000_000, 4000);
    long_slot["storageProof"][0]["key"] = format!("0x{}", "11".repeat(33)).into();
    let lines = [
        (answer(5_000_000_000, 4000), Some(serde_json::json!({"valid": true}))),
        (empty([0; 32], [0; 32]), Some(serde_json::json!({"valid": true}))),
        (
            empty(eth::KECCAK_EMPTY, EMPTY_ROOT),
            Some(serde_json::json!({"valid": true})),
        ),
        (
            answer(5_000_000_001, 4000),
            Some(serde_json::json!({"valid": false, "reason": "path_mismatch", "proof": "accountProof"})),
        ),
        (
            answer(5_000_000_000, 4001),
            Some(serde_json::json!({"valid": false, "reason": "path_mismatch", "proof": "storageProof[0]"})),
        ),
        (no_root, None),
        (big_nonce, None),
        (long_slot, None),
    ];
    let input: String = lines.iter().map(|(l, _)| format!("{l}\n")).collect();
    let want: Vec<Option<serde_json::Value>> = lines.iter().map(|(_, w)| w.clone()).collect();
    let args = ["verify", "eth-proof"];
    let out = if has_usable_gpu() {
        gpu_prints_what_cpu_prints(&args, input.as_bytes())
    } else {
        run_with_stdin(&[&args[..], &["--backend", "cpu"]].concat(), input.as_bytes())
    };
    assert_eq!(out.status.code(), Some(2));
    let got = stdout_lines(&out);
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        match w {
            Some(w) => assert_eq!(g, w, "line {}", i + 1),
            None => assert!(g.get("error").is_some(), "line {}: {g}", i + 1),
        }
    }
}

/// `verify mpt-proof` with `"index"` for the key: proofs of items 0, 1,
/// 127, 128 and 299 of a receipts-shaped trie of 300 entries (keys
/// `RLP(i)`) verify by their indices; item 5, embedded in a branch of item
/// 1's proof, verifies by those nodes with its value and fails with
/// another; a line with both a key and an index is malformed.
#[test]
fn mpt_proof_lines_take_an_index_for_the_key() {
    use batchcrypto::ops::mpt::{eth, sample};
    let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..300u64)
        .map(|i| (eth::index_key(i), format!("receipt {i}").into_bytes()))
        .collect();
    let asked = [0u64, 1, 127, 128, 299];
    let keys: Vec<Vec<u8>> = asked.iter().map(|&i| eth::index_key(i)).collect();
    let (root, proofs) = sample::prove(&entries, &keys).expect("a trie");
    let line = |index: u64, value: &[u8], nodes: &[Vec<u8>]| {
        serde_json::json!({"root": hex::encode(root), "index": index, "value": hex::encode(value),
            "proof": nodes.iter().map(hex::encode).collect::<Vec<_>>()})
    };
    let mut input = String::new();
    let mut want = Vec::new();
    for (&i, nodes) in asked.iter().zip(&proofs) {
        input.push_str(&format!("{}\n", line(i, format!("receipt {i}").as_bytes(), nodes)));
        want.push(serde_json::json!({"valid": true}));
    }
    // Item 5's leaf is embedded in the branch item 1's proof ends on: the
    // same nodes prove it, and refuse another value there.
    input.push_str(&format!("{}\n", line(5, b"receipt 5", &proofs[1])));
    want.push(serde_json::json!({"valid": true}));
    input.push_str(&format!("{}\n", line(5, b"receipt 6", &proofs[1])));
    want.push(serde_json::json!({"valid": false, "reason": "path_mismatch"}));
    let mut both = line(1, b"receipt 1", &proofs[1]);
    both["key"] = "01".into();
    input.push_str(&format!("{both}\n"));
    let out = run_with_stdin(&["verify", "mpt-proof", "--backend", "cpu"], input.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let got = stdout_lines(&out);
    assert_eq!(got[..want.len()], want[..]);
    assert!(
        got[want.len()]["error"]
            .as_str()
            .is_some_and(|e| e.contains("give one, not both")),
        "{got:?}"
    );
}
