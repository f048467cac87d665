//! shogi-cli's library is built with `test = false` (compiling it again as a test harness was
//! the largest single step of CI), so a unit test written under src/ would never run: this
//! fails instead, naming the file. Tests of the CLI go in tests/ (here or in the `tests` crate).

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_unit_tests_under_src() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10, "{files:?}");
    let with_tests: Vec<_> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.contains("#[test]") || text.contains("#[cfg(test)]")
        })
        .collect();
    assert!(
        with_tests.is_empty(),
        "unit tests under src/ never run (the library has test = false): move them to tests/: {with_tests:?}"
    );
}
