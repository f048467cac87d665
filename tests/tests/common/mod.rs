//! Helpers shared by the end-to-end tests: the `shogi` binary, built once per test run.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The workspace root (the folder holding the workspace `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// The `shogi` binary of this workspace, built on first use.
///
/// The test binary lives in `<target>/<profile>/deps/`; `cargo build -p shogi-cli` runs once
/// with the same target folder and profile, so the binary is never stale and `cargo test
/// --workspace` on a fresh clone needs nothing else. `SHOGI_BIN` overrides the path.
pub fn shogi_bin() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        if let Some(p) = std::env::var_os("SHOGI_BIN") {
            return PathBuf::from(p);
        }
        let exe = std::env::current_exe().expect("test binary path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("<target>/<profile>/deps layout");
        let target = profile_dir.parent().expect("target folder");
        let profile = profile_dir
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or("debug");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut cmd = Command::new(cargo);
        cmd.arg("build")
            .arg("--quiet")
            .arg("-p")
            .arg("shogi-cli")
            .arg("--manifest-path")
            .arg(workspace_root().join("Cargo.toml"))
            .arg("--target-dir")
            .arg(target);
        match profile {
            // `cargo test` builds with the test profile into `debug/`.
            "debug" => cmd.args(["--profile", "test"]),
            "release" => cmd.arg("--release"),
            other => cmd.args(["--profile", other]),
        };
        let out = cmd.output().expect("cargo runs");
        assert!(
            out.status.success(),
            "cargo build -p shogi-cli failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let bin = profile_dir.join(format!("shogi{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "{} not built", bin.display());
        bin
    })
}

/// Runs `shogi` with `args` and no standard input.
pub fn shogi(args: &[&str]) -> Output {
    Command::new(shogi_bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("shogi runs")
}

/// Runs `shogi` with `args` and `input` on standard input.
pub fn shogi_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(shogi_bin())
        .args(args)
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

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code (-1 when killed by a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// A fresh empty scratch folder under the target folder.
pub fn scratch(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let base = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir)
        .join("e2e-scratch")
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("scratch folder");
    base
}
