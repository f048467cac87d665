//! What the dialect tests share: reading the fixtures of `tests/fixtures/dialects` (made by
//! `scripts/make-dialect-fixtures.py`) and their warnings.

use shogi_kif::{Format, ReadOptions, ReadRecord, Reader, Severity};

/// The bytes of the dialect fixture `name`.
pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/tests/fixtures/dialects/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The default options, with the format hinted by the extension of `name`.
pub fn hint(name: &str) -> ReadOptions {
    ReadOptions::with_hint(name.rsplit('.').next().and_then(Format::from_extension))
}

/// Every game of `bytes`.
pub fn games(bytes: &[u8], opts: ReadOptions) -> Vec<ReadRecord> {
    Reader::new(bytes, opts)
        .unwrap_or_else(|e| panic!("{}", e.render()))
        .collect()
}

/// The one game of the fixture `name`.
pub fn one(name: &str) -> ReadRecord {
    let mut all = games(&fixture(name), hint(name));
    assert_eq!(all.len(), 1, "{name}");
    all.remove(0)
}

/// The messages of the game's warnings and errors.
pub fn warnings(g: &ReadRecord) -> Vec<&str> {
    g.diagnostics
        .iter()
        .filter(|d| d.severity >= Severity::Warning)
        .map(|d| d.message.as_str())
        .collect()
}
