//! examples/c/verify.c, compiled with the system C compiler against the
//! committed header and this crate's shared library, answers the CLI's
//! golden inputs (testdata/cli-golden) exactly as the CLI does: the golden
//! `.out` files are the CLI's output, pinned by the CLI's own tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directory holding the shared library cargo built for this test:
/// the test binary's own (`target/<profile>/deps`, where `cargo test`
/// leaves it) or the one above (where `cargo build` copies it).
fn library_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    let name = format!(
        "{}batchcrypto_ffi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    exe.ancestors()
        .skip(1)
        .take(2)
        .find(|dir| dir.join(&name).exists())
        .unwrap_or_else(|| panic!("{name} was not built next to {}", exe.display()))
        .to_path_buf()
}

/// Compiles the example once per test run.
fn example() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            // In the target folder's scratch space, not the system's
            // temporary folder (where each run left a copy).
            let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("c-example");
            std::fs::create_dir_all(&out).expect("a temporary directory");
            let exe = out.join("verify");
            let lib = library_dir();
            let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
            let status = Command::new(&cc)
                .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-I"])
                .arg(repo().join("crates/batchcrypto-ffi/include"))
                .arg(repo().join("examples/c/verify.c"))
                .arg("-o")
                .arg(&exe)
                .arg("-L")
                .arg(&lib)
                .arg("-lbatchcrypto_ffi")
                .arg(format!("-Wl,-rpath,{}", lib.display()))
                .status()
                .unwrap_or_else(|e| panic!("the C compiler {cc:?} cannot run: {e}"));
            assert!(status.success(), "{cc} failed to build examples/c/verify.c");
            exe
        })
        .clone()
}

fn run(args: &[&str], input: &str) -> String {
    let mut child = Command::new(example())
        .args(args)
        // No calibration profile (a file that does not exist): the CPU.
        .env(
            "BATCHCRYPTO_PROFILE",
            std::env::temp_dir().join("batchcrypto-test-no-profile.json"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the example");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write the items");
    let out = child.wait_with_output().expect("the example's output");
    assert!(
        out.status.success(),
        "verify {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("text")
}

fn golden(name: &str) -> Vec<String> {
    let path = repo().join("testdata/cli-golden").join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

/// The hex of `field` when it has `len` bytes (any length for `None`).
fn field(v: &Value, name: &str, len: Option<usize>) -> Option<String> {
    let hex = v.get(name)?.as_str()?.trim_start_matches("0x").to_ascii_lowercase();
    let bytes = hex::decode(&hex).ok()?;
    if len.is_some_and(|l| l != bytes.len()) {
        return None;
    }
    Some(if hex.is_empty() { "-".to_string() } else { hex })
}

/// The well-formed golden items (the example takes hex, not JSON) and the
/// CLI's answers for them in the example's words.
fn cases(
    input: &str,
    output: &str,
    fields: &[(&str, Option<usize>)],
    answer: impl Fn(&Value) -> String,
) -> (String, Vec<String>) {
    let (mut items, mut want) = (String::new(), Vec::new());
    for (line, out) in golden(input).iter().zip(golden(output)) {
        let (Ok(v), Ok(o)) = (serde_json::from_str::<Value>(line), serde_json::from_str::<Value>(&out)) else {
            continue;
        };
        if o.get("error").is_some() {
            continue;
        }
        let hex: Option<Vec<String>> = fields.iter().map(|(f, len)| field(&v, f, *len)).collect();
        let hex = hex.expect("a line the CLI answered has well-formed fields");
        items.push_str(&hex.join(" "));
        items.push('\n');
        want.push(answer(&o));
    }
    (items, want)
}

fn verdict(o: &Value) -> String {
    match o["valid"].as_bool() {
        Some(true) => "valid".to_string(),
        _ => format!("invalid {}", o["reason"].as_str().expect("a reason")),
    }
}

fn assert_answers(got: &str, want: &[String], what: &str) {
    let got: Vec<&str> = got.lines().collect();
    assert_eq!(got.len(), want.len(), "{what}: answer count");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(g, w, "{what}: item {i}");
    }
}

#[test]
fn ed25519_answers_as_the_cli() {
    for policy in ["strict", "zip215"] {
        let (items, want) = cases(
            "ed25519.jsonl",
            &format!("ed25519-{policy}.out"),
            &[("pk", Some(32)), ("sig", Some(64)), ("msg", None)],
            verdict,
        );
        assert!(want.iter().any(|w| w == "valid") && want.iter().any(|w| w != "valid"));
        assert_answers(&run(&["ed25519", policy], &items), &want, policy);
    }
}

#[test]
fn keccak256_answers_as_the_cli() {
    let (items, want) = cases("hash.jsonl", "keccak256.out", &[("data", None)], |o| {
        o["digest"].as_str().expect("a digest").to_string()
    });
    assert!(want.len() > 3);
    assert_answers(&run(&["hash", "keccak256"], &items), &want, "keccak256");
}

#[test]
fn ecrecover_answers_as_the_cli() {
    let (items, want) = cases(
        "ecrecover.jsonl",
        "ecrecover.out",
        &[("hash", Some(32)), ("sig", Some(65))],
        |o| match o["address"].as_str() {
            Some(a) => a.to_string(),
            None => format!("invalid {}", o["reason"].as_str().expect("a reason")),
        },
    );
    assert!(want.iter().any(|w| w.starts_with("0x")) && want.iter().any(|w| w.starts_with("invalid")));
    assert_answers(&run(&["ecrecover"], &items), &want, "ecrecover");
}
