//! Helpers shared by the end-to-end tests: the `shogi` command run in-process through
//! [`shogi_cli::run`], with in-memory standard streams.

#![allow(dead_code)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The workspace root (the folder holding the workspace `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// What a run of `shogi` gave.
pub struct Output {
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
    /// The exit code.
    pub code: i32,
}

/// Every run happens in the workspace root, so paths in messages are short and stable. The
/// working directory belongs to the whole test process: it is set once, before the first run,
/// and every test of this binary runs from there (other paths are absolute).
fn enter_root() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| std::env::set_current_dir(workspace_root()).expect("workspace root"));
}

/// Runs `shogi` with `args` and `input` on standard input.
pub fn shogi_stdin(args: &[&str], input: &str) -> Output {
    enter_root();
    let argv = std::iter::once(OsString::from("shogi")).chain(args.iter().map(OsString::from));
    let mut stdin = input.as_bytes();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = shogi_cli::run(argv, &mut stdin, &mut stdout, &mut stderr);
    Output {
        stdout,
        stderr,
        code,
    }
}

/// Runs `shogi` with `args` and an empty standard input.
pub fn shogi(args: &[&str]) -> Output {
    shogi_stdin(args, "")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code, stdout and stderr of `shogi args`, for comparing all three at once.
pub fn run_all(args: &[&str]) -> (i32, String, String) {
    let out = shogi(args);
    (code(&out), stdout(&out), stderr(&out))
}

/// `shogi base…` with each of `extras` added (`None`: nothing added) gives `want` (exit code,
/// stdout, stderr) every time.
pub fn assert_runs_alike(base: &[&str], extras: &[Option<&str>], want: (i32, &str, &str)) {
    for extra in extras {
        let args: Vec<&str> = base.iter().copied().chain(*extra).collect();
        let (code, out, err) = run_all(&args);
        assert_eq!((code, out.as_str(), err.as_str()), want, "{args:?}");
    }
}

/// The exit code.
pub fn code(o: &Output) -> i32 {
    o.code
}

/// A fresh empty scratch folder under the target folder, named after `name`, the calling
/// module's file and the process: the end-to-end tests share one process, so two modules may
/// both ask for, say, "out" at the same time.
#[track_caller]
pub fn scratch(name: &str) -> PathBuf {
    let module = Path::new(std::panic::Location::caller().file())
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let exe = std::env::current_exe().expect("test binary path");
    let base = exe
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir)
        .join("e2e-scratch")
        .join(format!("{module}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).expect("scratch folder");
    base
}

/// Runs `shogi` with `args` (empty standard input) and `options`.
pub fn shogi_with(args: &[&str], options: &shogi_cli::Options) -> Output {
    enter_root();
    let argv = std::iter::once(OsString::from("shogi")).chain(args.iter().map(OsString::from));
    let mut stdin: &[u8] = b"";
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = shogi_cli::run_with(argv, &mut stdin, &mut stdout, &mut stderr, options);
    Output {
        stdout,
        stderr,
        code,
    }
}

/// Runs `shogi args` and asserts that it exits 0 (showing stderr when it does not).
#[track_caller]
pub fn shogi_ok(args: &[&str]) -> Output {
    let out = shogi(args);
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    out
}

/// Asserts that `text` contains `part`, showing `text` when it does not.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "no {part:?} in:\n{text}");
}

/// Asserts that `text` starts with `prefix`, showing `text` when it does not.
#[track_caller]
pub fn assert_starts_with(text: &str, prefix: &str) {
    assert!(
        text.starts_with(prefix),
        "not starting with {prefix:?}:\n{text}"
    );
}

/// `../shared/corpus` beside the workspace, or `None` with a printed note: the tests that
/// read the shared corpus skip when it is absent.
pub fn shared_corpus() -> Option<PathBuf> {
    let corpus = workspace_root().join("../shared/corpus");
    if corpus.is_dir() {
        Some(corpus)
    } else {
        eprintln!("note: ../shared/corpus not found; skipped");
        None
    }
}
