//! The one reader's `ReadRecord`: its place in the input, what was read before an error, the
//! diagnostics, and the conveniences built on it.

use shogi_kif::{ErrorKind, Format, ReadOptions, ReadRecord, Reader, Severity};

const TWO_CSA: &str =
    "'first\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\nPI\n+\n+2726FU\n-3344FU\n+2625FU\n";

/// The first game `Reader` gives for `text`.
fn first_game(text: &str) -> ReadRecord {
    Reader::new(text.as_bytes(), ReadOptions::default())
        .expect("a reader")
        .next()
        .expect("a game")
}

#[test]
fn games_carry_their_index_line_and_what_was_read_before_an_error() {
    let games: Vec<_> = Reader::new(TWO_CSA.as_bytes(), ReadOptions::default())
        .unwrap()
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!((games[0].index, games[0].line), (1, 1));
    assert!(games[0].is_valid());
    assert_eq!(games[0].record.usi_moves(), ["7g7f", "3c3d"]);
    let bad = &games[1];
    assert_eq!((bad.index, bad.line), (2, 8));
    assert!(!bad.is_valid());
    let e = bad.error.as_ref().unwrap();
    assert_eq!((e.location.line, e.ply), (11, Some(2)));
    // The moves before the failing one are kept, so plies of invalid games can be counted.
    assert_eq!(bad.record.usi_moves(), ["2g2f"]);
    assert!(bad.clone().into_result().is_err());
}

#[test]
fn validation_comes_with_the_game_and_can_be_turned_off() {
    let kif = "   1 ７六歩(77)\n   2 詰み\n";
    let game = first_game(kif);
    assert!(game.error.is_none());
    assert_eq!(game.diagnostics, shogi_kif::validate(&game.record));
    assert!(
        game.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Warning)
    );
    let opts = ReadOptions {
        validate: false,
        ..ReadOptions::default()
    };
    let plain = Reader::new(kif.as_bytes(), opts).unwrap().next().unwrap();
    assert!(plain.diagnostics.is_empty());
    assert_eq!(plain.record, game.record);
}

#[test]
fn reader_errors_before_any_game() {
    let empty = Reader::new(&b"  \n\n"[..], ReadOptions::default())
        .err()
        .unwrap();
    assert_eq!(empty.kind, ErrorKind::Truncated);
    let unknown = Reader::new(&b"hello\nworld\n"[..], ReadOptions::default())
        .err()
        .unwrap();
    assert_eq!(unknown.kind, ErrorKind::UnknownFormat);
    let missing = Reader::open("/nonexistent/a1.kif", ReadOptions::default())
        .err()
        .unwrap();
    assert_eq!(missing.kind, ErrorKind::Io);
}

#[test]
fn read_path_takes_the_hint_from_the_extension() {
    let path = format!("{}/tests/fixtures/multi.csa", env!("CARGO_MANIFEST_DIR"));
    let reader = Reader::open(&path, ReadOptions::default()).unwrap();
    assert_eq!(reader.format(), Format::Csa);
    let n = reader.count();
    assert!(n > 1, "{n}");
    let first = shogi_kif::read_path(&path, ReadOptions::default()).unwrap();
    assert!(
        first
            .diagnostics
            .iter()
            .any(|d| d.message.contains("only the first"))
    );
}

#[test]
fn chunks_split_no_game() {
    // Games straddle 64-byte chunks: each still reads whole.
    let text = format!("{TWO_CSA}/\n").repeat(3000);
    let whole: Vec<_> = Reader::new(text.as_bytes(), ReadOptions::default())
        .unwrap()
        .collect();
    let opts = ReadOptions {
        chunk_size: 64,
        ..ReadOptions::default()
    };
    let chunked: Vec<_> = Reader::new(text.as_bytes(), opts).unwrap().collect();
    assert_eq!(whole.len(), 6000);
    assert_eq!(whole, chunked);
}

#[test]
fn a_syntax_error_keeps_what_came_before_it() {
    let kif = "先手：羽生\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７X歩(77)\n   4 ８四歩(83)\n";
    let game = first_game(kif);
    let e = game.error.as_ref().unwrap();
    assert_eq!((e.kind, e.location.line), (ErrorKind::Syntax, 4));
    assert_eq!(game.record.header.black(), Some("羽生"));
    assert_eq!(game.record.usi_moves(), ["7g7f", "3c3d"]);
    let e2 = shogi_kif::read_str(kif, ReadOptions::default()).unwrap_err();
    assert_eq!(&e2, e);
}
