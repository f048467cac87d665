//! Prints what the reader makes of every game of every file given (directories are walked,
//! files in sorted order), one JSON line per game: where it is, whether it is valid, the
//! error, every diagnostic, the main line's moves, fouls and ending, and the final
//! position. `scripts/compare-reads.sh` runs it on two commits and compares the output, to
//! show that a change to the reader reads nothing differently but what it means to.
//!
//! ```sh
//! cargo run -p shogi-kif --example dump_reads -- ../shared/corpus shogi-kif/tests/fixtures
//! ```
//!
//! It uses only the public API, so that the same file builds on older commits too.

use serde_json::{Value, json};
use shogi_kif::{Format, ReadOptions, Reader};
use std::path::{Path, PathBuf};

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return;
        };
        let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        children.sort();
        for c in children {
            walk(&c, out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}

/// Files that are not records: the corpus's own tables and notes, snapshots.
fn is_record(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    !matches!(ext, "tsv" | "md" | "snap" | "rs" | "toml" | "new")
}

fn dump(path: &Path, shown: &str) {
    let reader = match Reader::open(path, ReadOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            println!("{}", json!({"path": shown, "reader_error": e}));
            return;
        }
    };
    let format: Format = reader.format();
    for game in reader {
        let record = &game.record;
        let fouls: Vec<Value> = record
            .main_line()
            .enumerate()
            .filter_map(|(i, n)| n.foul.map(|f| json!([i + 1, f.message()])))
            .collect();
        let line = json!({
            "path": shown,
            "format": format.name(),
            "game": game.index,
            "line": game.line,
            "valid": game.is_valid(),
            "error": game.error,
            "diagnostics": game.diagnostics,
            "start": record.start.sfen(),
            "moves": record.usi_moves(),
            "fouls": fouls,
            "ending": record.ending().map(|e| format!("{:?}", e.kind)),
            "final": record.final_position().map(|p| p.to_sfen()),
        });
        println!("{line}");
    }
}

fn main() {
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        walk(Path::new(&arg), &mut files);
    }
    for f in files.iter().filter(|f| is_record(f)) {
        dump(f, &f.to_string_lossy());
    }
}
