//! Helpers for tests in any package of the workspace: the scripted fake engine and the rule
//! for real engines that may be missing.
//!
//! The fake engine is the `fake-usi` binary of this package (its options: `fake-usi --help`,
//! and the module docs of `src/bin/fake-usi.rs`). [`fake_engine_path`] finds it:
//!
//! 1. the path in the environment variable `SHOGI_FAKE_USI`, when set;
//! 2. `fake-usi` in the running test binary's profile folder (`target/debug/fake-usi` when the
//!    test binary is `target/debug/deps/…`), where `cargo test --workspace` builds it, then in
//!    `$CARGO_TARGET_DIR/debug/` and this workspace's `target/debug/`;
//! 3. otherwise it builds it once with `cargo build -p shogi-usi --bin fake-usi` into
//!    `<target>/fake-usi/` (a separate target folder, so it never waits on the lock of the
//!    `cargo test` that runs us) and returns `<target>/fake-usi/debug/fake-usi`.
//!
//! So it works after `cargo test --workspace` from a clean clone and when one package is
//! tested alone.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn exe_name(stem: &str) -> String {
    format!("{stem}{}", std::env::consts::EXE_SUFFIX)
}

/// Target folders to look in, best first: the running test binary's (`target` for
/// `target/debug/deps/test-…`, with its profile), `CARGO_TARGET_DIR`, and this workspace's
/// `target/`.
fn target_dirs() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    if let Ok(exe) = std::env::current_exe() {
        if let Some(dir) = exe.parent() {
            if dir.file_name().is_some_and(|n| n == "deps") {
                if let Some(profile) = dir.parent() {
                    if let (Some(t), Some(p)) = (profile.parent(), profile.file_name()) {
                        out.push((t.to_path_buf(), p.to_string_lossy().into_owned()));
                    }
                }
            }
        }
    }
    if let Some(t) = std::env::var_os("CARGO_TARGET_DIR") {
        out.push((PathBuf::from(t), "debug".into()));
    }
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target");
    out.push((workspace, "debug".into()));
    out
}

/// The path of the fake engine binary, building it when needed (see the module docs).
///
/// # Panics
/// When it cannot be found or built (a test helper: the test then fails with the reason).
pub fn fake_engine_path() -> PathBuf {
    static PATH: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match PATH.get_or_init(find_or_build) {
        Ok(p) => p.clone(),
        Err(e) => panic!("fake-usi engine: {e}"),
    }
}

fn find_or_build() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("SHOGI_FAKE_USI") {
        return Ok(PathBuf::from(p));
    }
    let name = exe_name("fake-usi");
    let dirs = target_dirs();
    for (target, profile) in &dirs {
        let p = target.join(profile).join(&name);
        if p.is_file() {
            return Ok(p);
        }
    }
    let (target, _) = dirs.first().ok_or("no target folder")?;
    let own_target = target.join("fake-usi");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--quiet",
            "-p",
            "shogi-usi",
            "--bin",
            "fake-usi",
            "--manifest-path",
        ])
        .arg(&manifest)
        .env("CARGO_TARGET_DIR", &own_target)
        .status()
        .map_err(|e| format!("cannot run cargo to build it: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build of fake-usi failed ({status})"));
    }
    let built = own_target.join("debug").join(&name);
    if built.is_file() {
        Ok(built)
    } else {
        Err(format!("built, but {} is missing", built.display()))
    }
}

/// A real engine for a test: `Some(path)` when `path` exists; when it does not, panics if the
/// environment variable `CI` is set (CI must run every engine test) and otherwise prints a
/// note and returns `None` (the test skips).
///
/// # Panics
/// When the engine is missing and `CI` is set.
pub fn real_engine(path: &str) -> Option<PathBuf> {
    let p = PathBuf::from(path);
    if p.is_file() {
        return Some(p);
    }
    if std::env::var_os("CI").is_some_and(|v| !v.is_empty()) {
        panic!("engine {path} is missing and CI is set: install it (scripts/install-engines.sh)");
    }
    eprintln!(
        "note: engine {path} is missing: test skipped (scripts/install-engines.sh installs it)"
    );
    None
}

/// fairy-stockfish from Debian's package, or `None` (see [`real_engine`]).
pub fn fairy_stockfish() -> Option<PathBuf> {
    real_engine("/usr/games/fairy-stockfish")
}

/// gpsusi from Debian's gpsshogi package, or `None` (see [`real_engine`]).
pub fn gpsusi() -> Option<PathBuf> {
    real_engine("/usr/games/gpsusi")
}
