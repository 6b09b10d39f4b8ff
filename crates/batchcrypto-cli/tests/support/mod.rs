//! What the CLI test binaries share: the binary and a run with a given stdin.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The binary, with no calibration profile (a user's own would change
/// what `--backend auto` picks).
pub fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_batchcrypto"));
    cmd.env(
        "BATCHCRYPTO_PROFILE",
        std::env::temp_dir().join("batchcrypto-no-such-profile.json"),
    );
    cmd
}

/// The binary started with `args` and all three streams piped.
pub fn spawn_piped(args: &[&str]) -> Child {
    bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn batchcrypto")
}

/// Runs the binary with `args`, `stdin` written to it from another thread.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn_piped(args);
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // The binary may stop reading early (an error before any input): a
    // failed write is its answer, not the test's.
    let writer = std::thread::spawn(move || input.write_all(&data));
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join().expect("writer");
    out
}

/// Whether `batchcrypto devices` lists a usable GPU adapter; with
/// `BATCHCRYPTO_REQUIRE_GPU=1` (CI) a missing one fails the test instead.
pub fn has_usable_gpu() -> bool {
    let devices = bin().arg("devices").output().expect("devices");
    let found = String::from_utf8_lossy(&devices.stdout)
        .lines()
        .any(|l| l.starts_with("gpu") && l.contains(" usable "));
    if !found {
        assert_ne!(
            std::env::var("BATCHCRYPTO_REQUIRE_GPU").as_deref(),
            Ok("1"),
            "no usable GPU"
        );
    }
    found
}
