//! `ReadOptions::moves` off: every game reads to the same verdict (error, diagnostics, main
//! line facts) as with the moves kept, and its record differs only by the main line's moves.

use shogi_kif::{Format, ReadOptions, ReadRecord, Reader};
use std::path::{Path, PathBuf};

/// Every file under `dir`, sorted.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn games(bytes: &[u8], hint: Option<Format>, moves: bool) -> Vec<ReadRecord> {
    let opts = ReadOptions {
        moves,
        ..ReadOptions::with_hint(hint)
    };
    match Reader::from_vec(bytes.to_vec(), opts) {
        Ok(reader) => reader.collect(),
        Err(_) => Vec::new(),
    }
}

/// Reads `bytes` both ways and compares game by game; returns how many games had their
/// main line's moves left out.
#[track_caller]
fn same_verdict(name: &str, bytes: &[u8], hint: Option<Format>) -> usize {
    let kept = games(bytes, hint, true);
    let left = games(bytes, hint, false);
    assert_eq!(kept.len(), left.len(), "{name}: number of games");
    let mut without = 0;
    for (k, l) in kept.iter().zip(&left) {
        let at = format!("{name} game {}", k.index);
        assert_eq!((k.index, k.line), (l.index, l.line), "{at}");
        assert_eq!(k.error, l.error, "{at}: error");
        assert_eq!(k.diagnostics, l.diagnostics, "{at}: diagnostics");
        assert_eq!(k.main, l.main, "{at}: main line");
        assert_eq!(k.is_valid(), l.is_valid(), "{at}");
        let (kr, lr) = (&k.record, &l.record);
        assert_eq!(kr.header, lr.header, "{at}: header");
        assert_eq!(kr.start, lr.start, "{at}: start");
        assert_eq!(kr.start_comments, lr.start_comments, "{at}");
        assert_eq!(kr.start_bookmarks, lr.start_bookmarks, "{at}");
        assert_eq!(
            kr.diagnostics, lr.diagnostics,
            "{at}: the record's diagnostics"
        );
        if lr.moves == kr.moves {
            continue;
        }
        // Only a game replayed for validation leaves its moves out: its main line has
        // none, and its ending is the same.
        assert!(
            k.main.is_some() || k.error.is_some(),
            "{at}: {:?}",
            l.record
        );
        assert!(lr.moves.moves.is_empty(), "{at}: moves kept");
        assert_eq!(kr.moves.ending, lr.moves.ending, "{at}: ending");
        without += 1;
    }
    without
}

#[test]
fn every_fixture_and_sample_reads_to_the_same_verdict_without_its_moves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["tests/fixtures", "../tests/fixtures", "../samples"] {
        files_under(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} files", files.len());
    let mut without = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        without += same_verdict(&path.display().to_string(), &bytes, Format::from_path(path));
    }
    assert!(without > 40, "only {without} games left their moves out");
}

#[test]
fn the_shared_corpus_reads_to_the_same_verdict_without_its_moves() {
    let Some(files) = shogi_testkit::corpus::files("moves_off corpus") else {
        return;
    };
    for (path, bytes) in files {
        same_verdict(&path, &bytes, Format::from_path(Path::new(&path)));
    }
}

#[test]
fn hand_written_games_read_to_the_same_verdict_without_their_moves() {
    // Repetitions (a draw, perpetual check, play past it), declared fouls with and without a
    // closing line that leaves the foul out of its count, an illegal move, variations and
    // comments, a misnamed piece, a contradicted ending, moves the reader cannot read.
    let cycle = "   {a} ２八飛(29)\n   {b} ８二飛(81)\n   {c} ２九飛(28)\n   {d} ８一飛(82)\n";
    let mut repetition = String::new();
    for k in 0..4 {
        let n = 4 * k + 1;
        repetition.push_str(
            &cycle
                .replace("{a}", &n.to_string())
                .replace("{b}", &(n + 1).to_string())
                .replace("{c}", &(n + 2).to_string())
                .replace("{d}", &(n + 3).to_string()),
        );
    }
    let texts = [
        format!("{repetition}  17 千日手\n"),
        format!("{repetition}  17 投了\n"),
        format!("{repetition}  17 ７六歩(77)\n  18 詰み\n"),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ３五歩(34)\n   5 ７四歩(75)\n   6 ３六歩(35)\n   7 ７三歩成(74)\n   8 ３七歩成(36)\n   9 ７二と(73)\n  10 ３八と(37)\n  11 ７一と(72)\n  12 ３九と(38)\n  13 ７七歩打\n*二歩\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ３五歩(34)\n   5 ７四歩(75)\n   6 ３六歩(35)\n   7 ７三歩成(74)\n   8 ３七歩成(36)\n   9 ７二と(73)\n  10 ３八と(37)\n  11 ７一と(72)\n  12 ３九と(38)\n  13 ７七歩打\nまで12手で後手の勝ち\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７七歩打\n   4 反則負け\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(88)\n".to_string(),
        "   1 ７六歩(77)\n*a comment\n&mark\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で先手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n\n変化：3手\n   3 ９九角(88)\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 ４二飛(82)\n   5 ２一と(22)\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 詰み\n".to_string(),
        "   1 ７六歩(77)\n   2 ３四歩(33)\nまで3手で後手の勝ち\n".to_string(),
        "1. ７六歩 2. ３四歩\n".to_string(),
        "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n".to_string(),
        "▲７六歩 △３四歩 ▲２二角成 △同銀\nまで4手で先手の勝ち\n".to_string(),
        "+7776FU\n-3334FU\n%TORYO\n".to_string(),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\nposition startpos moves 7g7f 7g7f\n".to_string(),
    ];
    let mut without = 0;
    for t in &texts {
        without += same_verdict(t, t.as_bytes(), None);
    }
    assert!(without >= 10, "only {without} games left their moves out");
}
