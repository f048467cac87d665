//! The real `shogi` binary: exit codes, streams, and a batch that survives an internal failure.
//! (Everything else is tested in-process through `shogi_cli::run`, in the `tests` crate.)

use std::io::Write;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_shogi");

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/records")
}

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("SHOGI_TEST_PANIC_ON")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("shogi runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    child.wait_with_output().expect("shogi ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn perft_prints_nodes_and_exits_zero() {
    let out = run(&["perft", "startpos", "--depth", "2"], "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "nodes 900\n");
    assert!(text(&out.stderr).starts_with("time "));
}

#[test]
fn check_reads_stdin_and_exits_one_on_an_invalid_record() {
    let kif = std::fs::read_to_string(fixtures().join("nifu.kif")).unwrap();
    let out = run(&["check", "-"], &kif);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("<stdin>:11:"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn usage_errors_are_one_line_with_exit_two_and_help_exits_zero() {
    let out = run(&["perft", "--depth", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    let out = run(&["--help"], "");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("Usage: shogi"),
        "{}",
        text(&out.stdout)
    );
}

/// With debug assertions, `SHOGI_TEST_PANIC_ON=NAME` makes the binary panic on the input whose
/// name ends with NAME: the batch goes on, the panic is reported in the record's place, the
/// default panic message stays off both streams, and the exit code is 1.
#[test]
fn a_panic_on_one_input_does_not_stop_the_batch() {
    if !cfg!(debug_assertions) {
        return;
    }
    let dir = fixtures();
    let out = Command::new(BIN)
        .args(["check", dir.to_str().unwrap(), "--jobs", "2"])
        .env("SHOGI_TEST_PANIC_ON", "good.kif")
        .stdin(Stdio::null())
        .output()
        .expect("shogi runs");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let good = dir.join("good.kif");
    assert!(
        stdout.contains(&format!(
            "{}:1:1: error: internal error while reading this record (please report)",
            good.display()
        )),
        "{stdout}"
    );
    // The other files are still reported.
    assert!(stdout.contains("nifu.kif:11:"), "{stdout}");
    assert!(stdout.contains("ambiguous.ki2:"), "{stdout}");
    assert!(!stderr.contains("panicked at"), "{stderr}");
    assert!(
        stderr.contains("checked 7 record(s) in 5 file(s): 3 valid, 4 invalid"),
        "{stderr}"
    );
}
