//! The binary against a hostile user or operator (issue 12): the input is
//! never overwritten, an earlier output file survives a failed run, long
//! lines are refused with bounded memory, signals leave whole lines and a
//! summary, numeric arguments have limits, a closed pipe is a quiet exit,
//! and the small warts (BOM, hex messages, null fields, sample kinds).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use batchcrypto::ops::{ecdsa, ed25519};
use support::{bin, run_with_stdin, spawn_piped};

mod support;

/// A fresh directory for one test, removed when the test ends, passed or
/// failed.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("batchcrypto-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    Scratch(dir)
}

/// `count` Ed25519 lines (some hostile) for `verify ed25519`.
fn ed_lines(count: usize, seed: u64) -> String {
    ed25519::sample::generate(&ed25519::sample::Config {
        count,
        hostile_share: 0.3,
        seed,
        ..Default::default()
    })
    .iter()
    .map(|i| {
        format!(
            "{{\"pk\":\"{}\",\"sig\":\"{}\",\"msg\":\"{}\"}}\n",
            hex::encode(i.pk),
            hex::encode(i.sig),
            hex::encode(&i.msg)
        )
    })
    .collect()
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn output_that_is_the_input_is_refused_and_the_input_kept() {
    let dir = scratch("same-file");
    let input = dir.join("in.jsonl");
    let text = ed_lines(20, 1);
    std::fs::write(&input, &text).expect("write input");
    let link = dir.join("hard.jsonl");
    std::fs::hard_link(&input, &link).expect("hard link");
    let mut targets = vec![input.clone(), link];
    #[cfg(unix)]
    {
        let sym = dir.join("sym.jsonl");
        std::os::unix::fs::symlink(&input, &sym).expect("symlink");
        targets.push(sym);
    }
    for out in &targets {
        let o = run_with_stdin(
            &[
                "verify",
                "ed25519",
                "--backend",
                "cpu",
                "--input",
                input.to_str().expect("path"),
                "--output",
                out.to_str().expect("path"),
            ],
            b"",
        );
        assert_eq!(o.status.code(), Some(3), "{}", out.display());
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("is the input file"), "{err}");
        assert_eq!(std::fs::read_to_string(&input).expect("input"), text);
    }
    // stdout redirected into the input file.
    #[cfg(unix)]
    {
        let append = std::fs::OpenOptions::new().append(true).open(&input).expect("open");
        let o = bin()
            .args([
                "hash",
                "sha256",
                "--backend",
                "cpu",
                "--input",
                input.to_str().expect("path"),
            ])
            .stdout(append)
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(3));
        assert_eq!(std::fs::read_to_string(&input).expect("input"), text);
    }
}

#[test]
fn output_file_is_replaced_only_by_a_complete_run() {
    let dir = scratch("atomic");
    let out = dir.join("out.json");
    std::fs::write(&out, "precious\n").expect("write");
    let leaves: String = (0..5u8)
        .map(|i| format!("{{\"leaf\":\"{}\"}}\n", hex::encode([i; 32])))
        .collect();
    // A failed run (proof index out of range) leaves the old file.
    let o = run_with_stdin(
        &[
            "merkle",
            "--backend",
            "cpu",
            "--proof",
            "99",
            "--output",
            out.to_str().expect("path"),
        ],
        leaves.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).expect("out"), "precious\n");
    assert_eq!(files_in(&dir), ["out.json"], "no temporary file left");
    // A complete run replaces it.
    let o = run_with_stdin(
        &["merkle", "--backend", "cpu", "--output", out.to_str().expect("path")],
        leaves.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(std::fs::read_to_string(&out).expect("out").starts_with("{\"root\":"));
    assert_eq!(files_in(&dir), ["out.json"]);
    // Special files are written in place.
    let o = run_with_stdin(&["hash", "keccak256", "--output", "/dev/null"], b"{\"data\":\"\"}\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn lines_over_the_cap_get_an_error_line_and_the_run_goes_on() {
    let good = ed_lines(3, 2);
    let long = format!("{{\"pk\":\"{}\"}}\n", "ab".repeat(5000));
    let input = format!("{good}{long}{good}");
    let o = run_with_stdin(
        &["verify", "ed25519", "--backend", "cpu", "--max-line-bytes", "1000"],
        input.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7);
    assert!(
        lines[3].starts_with("{\"error\":\"line 4: line of 10009 bytes is longer than --max-line-bytes 1000"),
        "{}",
        lines[3]
    );
    for (i, l) in lines.iter().enumerate().filter(|(i, _)| *i != 3) {
        assert!(l.starts_with("{\"valid\":"), "line {}: {l}", i + 1);
    }
    // The limit itself has limits.
    for bad in ["0", "99999999999999"] {
        let o = run_with_stdin(&["hash", "sha256", "--max-line-bytes", bad], b"");
        assert_eq!(o.status.code(), Some(3), "--max-line-bytes {bad}");
    }
}

/// Peak resident memory of a running process, in bytes (Linux).
#[cfg(target_os = "linux")]
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A 256 MB line is skipped without being held: the process's peak memory
/// stays far below the line's size.
#[cfg(target_os = "linux")]
#[test]
fn a_huge_line_does_not_take_memory() {
    let mut child = bin()
        .args(["hash", "sha256", "--backend", "cpu", "--max-line-bytes", "1048576"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let pid = child.id();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        stdin.write_all(b"{\"data\":\"")?;
        let block = vec![b'a'; 1 << 20];
        for _ in 0..256 {
            stdin.write_all(&block)?;
        }
        stdin.write_all(b"\"}\n{\"data\":\"00\"}\n")
    });
    let mut peak = 0;
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).map(|_| s)
    });
    while child.try_wait().expect("wait").is_none() {
        peak = peak.max(peak_rss(pid).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(5));
    }
    writer.join().expect("writer").expect("write");
    let out = reader.join().expect("reader").expect("read");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].contains("longer than --max-line-bytes 1048576"),
        "{}",
        lines[0]
    );
    assert!(lines[1].starts_with("{\"digest\":"));
    assert!(
        peak < 96 << 20,
        "peak RSS {} MB while skipping a 256 MB line",
        peak >> 20
    );
}

/// Starts a verify run fed from a pipe that stays open, waits until it has
/// answered at least one chunk, sends `signal` with kill(1), and returns it.
#[cfg(unix)]
fn interrupted(signal: &str, output: Option<&Path>) -> (Output, usize) {
    let mut args = vec!["verify", "ed25519", "--backend", "cpu"];
    let out_arg;
    if let Some(p) = output {
        out_arg = p.to_str().expect("path").to_string();
        args.extend(["--output", &out_arg]);
    }
    let mut child: Child = spawn_piped(&args);
    let mut stdin = child.stdin.take().expect("stdin");
    // One full chunk (65,536 lines, which the engine then answers) and a
    // few lines more; stdin is kept open so the run cannot end by itself.
    let lines = ed_lines(512, 3);
    let fed = 65_536 / 512 + 1;
    let writer = std::thread::spawn(move || {
        for _ in 0..fed {
            if stdin.write_all(lines.as_bytes()).is_err() {
                return;
            }
        }
        std::thread::sleep(Duration::from_secs(600));
        drop(stdin);
    });
    std::mem::forget(writer);
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    match output {
        // Stdout: wait for the first answers.
        None => {
            stdout.read_line(&mut first).expect("first line");
        }
        Some(_) => std::thread::sleep(Duration::from_secs(8)),
    }
    let kill = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    let started = Instant::now();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).expect("rest");
    let mut stderr = Vec::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_end(&mut stderr)
        .expect("stderr");
    let status = child.wait().expect("wait");
    assert!(started.elapsed() < Duration::from_secs(60), "stopped late");
    let mut stdout_all = first.into_bytes();
    stdout_all.extend(rest);
    (
        Output {
            status,
            stdout: stdout_all,
            stderr,
        },
        fed * 512,
    )
}

#[cfg(unix)]
fn assert_whole_json_lines(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).expect("utf-8");
    assert!(text.is_empty() || text.ends_with('\n'), "torn last line");
    for l in text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
        assert!(v.get("valid").is_some(), "{l}");
    }
    text.lines().count()
}

#[cfg(unix)]
#[test]
fn signals_leave_whole_lines_a_summary_and_the_status() {
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        let (o, fed) = interrupted(signal, None);
        assert_eq!(o.status.code(), Some(status), "{}", String::from_utf8_lossy(&o.stderr));
        let answered = assert_whole_json_lines(&o.stdout);
        assert!(answered >= 1 && answered <= fed, "{answered}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!(
                "interrupted by SIG{signal}: the first {answered} lines were answered"
            )),
            "{err}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_interrupted_run_keeps_the_old_output_and_the_partial_answers() {
    let dir = scratch("signal-file");
    let out = dir.join("out.jsonl");
    std::fs::write(&out, "old\n").expect("write");
    let (o, _) = interrupted("INT", Some(&out));
    assert_eq!(o.status.code(), Some(130), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).expect("out"), "old\n");
    let partial = std::fs::read(dir.join("out.jsonl.partial")).expect("partial answers kept");
    assert_whole_json_lines(&partial);
    assert!(String::from_utf8_lossy(&o.stderr).contains("out.jsonl.partial"));
}

#[test]
fn numeric_arguments_have_limits() {
    let cases: [&[&str]; 11] = [
        &["verify", "ed25519", "--threads", "100000"],
        &["verify", "ed25519", "--threads", "0"],
        &["hash", "sha256", "--threads", "17000"],
        &["sample", "ed25519", "--count", "99999999999"],
        &["selftest", "--count", "0"],
        &["selftest", "--count", "99999999999"],
        &["bench", "--sizes", "0"],
        &["bench", "--sizes", "99999999999"],
        &["bench", "--max-seconds", "0"],
        &["sample", "bls", "--signers", "0"],
        &["calibrate", "--sizes", "0"],
    ];
    for args in cases {
        let started = Instant::now();
        let o = run_with_stdin(args, b"");
        assert_eq!(o.status.code(), Some(3), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("allowed range") || err.contains("not a whole number"),
            "{args:?}: {err}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{args:?} took {:?}",
            started.elapsed()
        );
    }
    // The largest thread count is accepted and quick.
    let o = run_with_stdin(
        &["hash", "sha256", "--backend", "cpu", "--threads", "1024"],
        b"{\"data\":\"00\"}\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A reader that goes away early is not an error: no message, status 0.
#[test]
fn a_closed_pipe_is_a_quiet_exit() {
    let runs: [(&[&str], Vec<u8>); 3] = [
        (&["sample", "ed25519", "--count", "200000"], Vec::new()),
        (
            &["verify", "ed25519", "--backend", "cpu"],
            ed_lines(3000, 4).repeat(30).into_bytes(),
        ),
        (&["devices"], Vec::new()),
    ];
    for (args, input) in runs {
        let mut child = spawn_piped(args);
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut first = String::new();
        stdout.read_line(&mut first).expect("first line");
        drop(stdout);
        let o = child.wait_with_output().expect("wait");
        let _ = writer.join();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            !err.contains("Broken pipe") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn byte_order_mark_on_line_1_is_accepted() {
    let lines = ed_lines(2, 5);
    let mut input = b"\xef\xbb\xbf".to_vec();
    input.extend_from_slice(lines.as_bytes());
    let with_bom = run_with_stdin(&["verify", "ed25519", "--backend", "cpu"], &input);
    let without = run_with_stdin(&["verify", "ed25519", "--backend", "cpu"], lines.as_bytes());
    assert_eq!(with_bom.status.code(), without.status.code());
    assert_eq!(with_bom.stdout, without.stdout);
    assert!(!String::from_utf8_lossy(&with_bom.stdout).contains("error"));
}

/// `sample` streams; what it writes is the library's generator item for
/// item, across its steps, and every op spells its kinds in snake_case.
#[test]
fn sample_streams_the_generators_items() {
    let o = run_with_stdin(&["sample", "secp256k1", "--count", "20000", "--seed", "9"], b"");
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).expect("utf-8");
    let items = ecdsa::sample::secp256k1_verify(20_000, 256, 0.2, 9);
    assert_eq!(text.lines().count(), items.len());
    for (line, (item, kind)) in text.lines().zip(&items) {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(v["sig"], hex::encode(item.sig));
        assert_eq!(v["kind"], *kind);
    }
    let o = run_with_stdin(&["sample", "ed25519", "--count", "400", "--hostile-share", "1"], b"");
    let text = String::from_utf8(o.stdout).expect("utf-8");
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("json");
        let kind = v["kind"].as_str().expect("kind");
        assert!(kind.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{kind}");
    }
}

#[test]
fn devices_follows_batchcrypto_adapter() {
    let o = bin()
        .arg("devices")
        .env("BATCHCRYPTO_ADAPTER", "no-such-adapter-xyz")
        .output()
        .expect("devices");
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("BATCHCRYPTO_ADAPTER=\"no-such-adapter-xyz\" matches no adapter"),
        "{text}"
    );
}

#[test]
fn profiles_with_impossible_values_are_ignored_with_the_reason() {
    let dir = scratch("profile");
    let path = dir.join("profile.json");
    for share in ["7", "-3"] {
        let profile = format!(
            "{{\"version\":{},\"created\":\"\",\"commit\":\"\",\"cpu\":\"\",\"threads\":1,\"adapter\":\"x\",\"adapter_name\":\"x\",\"ops\":{{\"keccak256\":{{\"crossover\":1,\"points\":[],\"split\":{{\"n\":1,\"cpu_share\":{share},\"speedup\":2.0}}}}}}}}",
            batchcrypto::profile::VERSION
        );
        std::fs::write(&path, profile).expect("write");
        let o = bin()
            .arg("devices")
            .env("BATCHCRYPTO_PROFILE", &path)
            .output()
            .expect("devices");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("outside 0 to 1"), "cpu_share {share}: {text}");
    }
}

/// Every golden corpus's lines (testdata/cli-golden, the JSON Lines verbs)
/// edited at random, bytes at a time (flipped, removed, inserted from JSON
/// punctuation, digits, hex and bytes that are not UTF-8, runs copied,
/// lines cut short), through each verb on the CPU: the contract of
/// ../shared/CLI-FORMATS.md holds for every line (one output line per
/// input line, a JSON object, a malformed one's error naming its own line;
/// exit status 0 or 2) and nothing panics. The library's own inputs are
/// fuzzed under fuzz/ (a panic there would also show here as a lost line).
#[test]
fn randomly_edited_lines_get_one_answer_each() {
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    const INSERTED: &[u8] = b"{}[]\":,\\ -+.eE0123456789abcdefABCDEFxnul\t\x00\x7f\xc3\x28\xff\xef\xbb\xbf";
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/cli-golden"));
    let cases = std::fs::read_to_string(dir.join("cases.txt")).expect("cases.txt");
    let mut rng = StdRng::seed_from_u64(19);
    let mut checked = 0;
    for case in cases.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let mut words = case.split_whitespace();
        let (Some(name), Some(input)) = (words.next(), words.next()) else {
            panic!("bad case line {case:?}")
        };
        // A Merkle tree answers its leaves as a whole, not line by line.
        if name.starts_with("merkle") {
            continue;
        }
        let text = std::fs::read(dir.join(input)).expect("golden input");
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()).take(200) {
            lines.push(line.to_vec());
            for _ in 0..5 {
                let mut m = line.to_vec();
                for _ in 0..rng.random_range(1..=3) {
                    let at = rng.random_range(0..=m.len());
                    match rng.random_range(0..5) {
                        0 if at < m.len() => m[at] ^= 1 << rng.random_range(0..8),
                        1 if at < m.len() => {
                            m.remove(at);
                        }
                        2 => m.insert(at, INSERTED[rng.random_range(0..INSERTED.len())]),
                        3 if !m.is_empty() => {
                            let from = rng.random_range(0..m.len());
                            let run: Vec<u8> = m[from..m.len().min(from + rng.random_range(1..=40))].to_vec();
                            let at = at.min(m.len());
                            m.splice(at..at, run);
                        }
                        _ => m.truncate(at),
                    }
                }
                // A line break would make two lines of one.
                m.retain(|&b| b != b'\n' && b != b'\r');
                lines.push(m);
            }
        }
        let stdin: Vec<u8> = lines.iter().flat_map(|l| l.iter().copied().chain([b'\n'])).collect();
        // A case's files (a Groth16 key) are named from the corpus's folder.
        let in_dir: Vec<String> = words
            .map(|w| {
                let path = dir.join(w);
                if path.is_file() {
                    path.to_string_lossy().into_owned()
                } else {
                    w.to_string()
                }
            })
            .collect();
        let mut args: Vec<&str> = in_dir.iter().map(String::as_str).collect();
        args.extend(["--backend", "cpu"]);
        let out = run_with_stdin(&args, &stdin);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        assert!(
            matches!(out.status.code(), Some(0 | 2)),
            "{name}: {:?} {stderr}",
            out.status
        );
        let stdout = String::from_utf8(out.stdout).expect("utf-8 output");
        assert_eq!(
            stdout.lines().count(),
            lines.len(),
            "{name}: one output line per input line"
        );
        for (k, line) in stdout.lines().enumerate() {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name} output line {}: {e}: {line}", k + 1));
            assert!(v.is_object(), "{name} output line {}: {line}", k + 1);
            if let Some(e) = v.get("error") {
                let e = e.as_str().expect("an error string");
                assert!(
                    e.starts_with(&format!("line {}:", k + 1)),
                    "{name} output line {}: {e}",
                    k + 1
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked} cases");
}
