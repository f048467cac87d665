//! Round trips of the three formats over generated books, a hand-written text book, Apery keys
//! against cshogi's, and the located errors of bad input.

use shogi_book::{
    AperyBook, Book, BookMove, Entry, Location, Lookup, ReadOptions, apery_key, parse_ybb,
    position_key, read_text, write_apery, write_text, write_ybb,
};
use shogi_core::{Move, Position, Variant};
use shogi_testkit::Rng;

/// A book of random walks from the start position: each position visited gets the move
/// played from it (with the next move as ponder) and random numbers.
fn generated(seed: u64, walks: usize) -> Book {
    let mut rng = Rng::new(seed);
    let mut book = Book::new();
    for _ in 0..walks {
        let mut pos = Position::startpos(Variant::Standard);
        let len = 1 + rng.below(30);
        let mut line: Vec<Move> = Vec::new();
        let mut seen = vec![pos.clone()];
        for _ in 0..len {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.below(moves.len())];
            line.push(mv);
            pos.play(mv).unwrap();
            seen.push(pos.clone());
        }
        for (i, &mv) in line.iter().enumerate() {
            let at = &seen[i];
            let mut entry = book
                .get(&position_key(at))
                .cloned()
                .unwrap_or_else(|| Entry {
                    ply: Some(at.move_number()),
                    ..Entry::default()
                });
            if entry.moves.iter().any(|m| m.mv == mv) {
                continue;
            }
            entry.moves.push(BookMove {
                mv,
                ponder: line.get(i + 1).copied(),
                value: rng.below(4001) as i32 - 2000,
                depth: rng.below(60) as i32,
                count: 1 + rng.below(5000) as u64,
            });
            entry.sort_moves();
            book.insert(at, entry);
        }
    }
    book
}

fn text_of(book: &Book) -> Vec<u8> {
    let mut out = Vec::new();
    write_text(book, &mut out).unwrap();
    out
}

#[test]
fn text_round_trip_of_generated_books() {
    for seed in 1..=4 {
        let book = generated(seed, 200);
        assert!(book.len() > 500, "{}", book.len());
        let text = text_of(&book);
        let (back, warnings) = read_text(&text[..], "g.db", ReadOptions::default()).unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(back, book);
        assert_eq!(text_of(&back), text);
    }
}

#[test]
fn ybb_round_trip_keeps_moves_values_depths_and_plies() {
    let book = generated(7, 200);
    for with_depth in [true, false] {
        let mut bytes = Vec::new();
        let losses = write_ybb(&book, with_depth, &mut bytes).unwrap();
        assert!(losses.counts > 0 && losses.ponders > 0);
        let back = parse_ybb(&bytes, "g.ybb").unwrap();
        assert_eq!(back.len(), book.len());
        for (key, entry) in book.iter() {
            let got = back.get(key).unwrap_or_else(|| panic!("{key} missing"));
            assert_eq!(got.ply, entry.ply);
            let mut want = entry.clone();
            want.sort_moves();
            let strip = |m: &BookMove| (m.mv, m.value, if with_depth { m.depth } else { 0 });
            let want: Vec<_> = want.moves.iter().map(strip).collect();
            let got: Vec<_> = got.moves.iter().map(strip).collect();
            assert_eq!(got, want, "{key}");
        }
    }
}

#[test]
fn apery_round_trip_through_the_walk_from_the_start() {
    let book = generated(11, 150);
    let mut bytes = Vec::new();
    let losses = write_apery(&book, &mut bytes).unwrap();
    assert_eq!(bytes.len() % 16, 0);
    let apery = AperyBook::read(&bytes[..], "book.bin").unwrap();
    assert!(apery.records.windows(2).all(|w| w[0].key <= w[1].key));
    let (back, unreached) = apery
        .to_book(&[Position::startpos(Variant::Standard)])
        .unwrap();
    assert_eq!(unreached, 0);
    if losses.key_collisions == 0 {
        assert_eq!(back.len(), book.len());
    }
    for (key, entry) in book.iter() {
        let got = back.get(key).unwrap_or_else(|| panic!("{key} missing"));
        let strip = |m: &BookMove| (m.mv, m.value, m.count);
        let mut want: Vec<_> = entry.moves.iter().map(strip).collect();
        let mut got: Vec<_> = got.moves.iter().map(strip).collect();
        want.sort_by_key(|w| w.0.to_usi());
        got.sort_by_key(|g| g.0.to_usi());
        assert_eq!(got, want, "{key}");
    }
}

#[test]
fn apery_keys_equal_cshogis() {
    let table = include_str!("../data/apery-keys.tsv");
    let mut n = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let (sfen, key) = line.split_once('\t').unwrap();
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(format!("{:016x}", apery_key(&pos)), key, "{sfen}");
        n += 1;
    }
    assert_eq!(n, 300);
    let mut pos = Position::startpos(Variant::Standard);
    pos.play(Move::from_usi("7g7f").unwrap()).unwrap();
    assert_eq!(apery_key(&pos), 0x3E7B1F82567220D5);
}

/// Written by hand to the grammar of BOOK-FACTS §1.1: CRLF, comments, short move lines,
/// `none` ponders, a count-less line.
const HAND_WRITTEN: &str = "#YANEURAOU-DB2016 1.00\r\n\
# made by hand\r\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\r\n\
8c8d 2g2f 12 20\r\n\
3c3d none -5 18 7\r\n\
\r\n\
// the start\r\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\t \r\n\
7g7f None\r\n\
2g2f 8c8d 40 30 3\r\n\
# last words\r\n";

#[test]
fn a_hand_written_text_book_reads_back() {
    let (book, warnings) =
        read_text(HAND_WRITTEN.as_bytes(), "hand.db", ReadOptions::default()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(book.len(), 2);
    assert_eq!(book.header_comments, vec!["# made by hand"]);
    assert_eq!(book.trailing_comments, vec!["# last words"]);
    let start = Position::startpos(Variant::Standard);
    let e = book.probe(&start, Lookup::default()).unwrap();
    assert_eq!(e.comments, vec!["// the start"]);
    let usi: Vec<_> = e
        .moves
        .iter()
        .map(|m| {
            (
                m.mv.to_usi(),
                m.ponder.map(|p| p.to_usi()),
                m.value,
                m.depth,
                m.count,
            )
        })
        .collect();
    assert_eq!(
        usi,
        vec![
            ("7g7f".into(), None, 0, 0, 1),
            ("2g2f".into(), Some("8c8d".into()), 40, 30, 3)
        ]
    );
    let mut after = start.clone();
    after.play(Move::from_usi("7g7f").unwrap()).unwrap();
    let e = book.probe(&after, Lookup::default()).unwrap();
    assert_eq!(
        (e.moves[0].value, e.moves[0].depth, e.moves[0].count),
        (12, 20, 1)
    );
    // Written back: the header, sorted positions, moves by count then value, all five fields.
    let text = String::from_utf8(text_of(&book)).unwrap();
    assert_eq!(
        text,
        "#YANEURAOU-DB2016 1.00\n# made by hand\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n\
3c3d none -5 18 7\n8c8d 2g2f 12 20 1\n// the start\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
2g2f 8c8d 40 30 3\n7g7f none 0 0 1\n# last words\n"
    );
}

#[test]
fn lookup_by_ply_and_flipped() {
    let (book, _) = read_text(HAND_WRITTEN.as_bytes(), "hand.db", ReadOptions::default()).unwrap();
    let mut start = Position::startpos(Variant::Standard);
    start.set_move_number(5);
    assert!(book.probe(&start, Lookup::default()).is_none());
    let ignore = Lookup {
        ignore_ply: true,
        flipped: false,
    };
    assert!(book.probe(&start, ignore).is_some());
    // The flipped twin of the position after 7g7f is the one after 3c3d with sente to
    // move; the book's moves come back rotated.
    let flipped: Position = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 2"
        .parse()
        .unwrap();
    assert!(book.probe(&flipped, Lookup::default()).is_none());
    let e = book
        .probe(
            &flipped,
            Lookup {
                ignore_ply: false,
                flipped: true,
            },
        )
        .unwrap();
    // 8c8d (ponder 2g2f) and 3c3d become 2g2f (ponder 8c8d) and 7g7f.
    let moves: Vec<_> = e
        .moves
        .iter()
        .map(|m| (m.mv.to_usi(), m.ponder.map(|p| p.to_usi())))
        .collect();
    assert_eq!(
        moves,
        vec![("2g2f".into(), Some("8c8d".into())), ("7g7f".into(), None)]
    );
}

fn error_of(text: &str, options: ReadOptions) -> String {
    read_text(text.as_bytes(), "bad.db", options)
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_text_books_give_located_errors() {
    let head = "#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    let o = ReadOptions::default();
    assert_eq!(
        error_of(&format!("{head}7g7f none x\n"), o),
        "bad.db:3:11: value `x` is not an integer"
    );
    assert_eq!(
        error_of(&format!("{head}7g7e none\n"), o),
        "bad.db:3:1: illegal move 7g7e in `sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`: the piece does not move that way"
    );
    assert!(
        error_of(&format!("{head}7g7f 7g7f\n"), o)
            .starts_with("bad.db:3:6: illegal ponder 7g7f after 7g7f")
    );
    assert_eq!(
        error_of(&format!("{head}7g7f\n"), o),
        "bad.db:3:5: expected a ponder move (or `none`) after the move"
    );
    assert!(
        error_of(&format!("{head}7g7f none 1 2 3 4\n"), o)
            .starts_with("bad.db:3:17: unexpected `4`")
    );
    assert!(
        error_of("sfen rbsgk/4p/5/P4/KGSBR b - 1\n", o)
            .starts_with("bad.db:1:6: a Mini Shogi position")
    );
    assert!(error_of("sfen lnsgkgsnl/9 b - 1\n", o).starts_with("bad.db:1:6: bad SFEN"));
}

#[test]
fn an_unsorted_book_is_an_error_naming_the_position_or_sorted_on_request() {
    let text = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n8c8d none\n";
    let e = error_of(text, ReadOptions::default());
    assert!(
        e.starts_with("bad.db:3:6: book not sorted: `sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2` comes after `sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1` (line 1)"),
        "{e}"
    );
    let (book, _) = read_text(text.as_bytes(), "u.db", ReadOptions { sort: true }).unwrap();
    let keys: Vec<_> = book.iter().map(|(k, _)| k.to_string()).collect();
    assert!(keys[0] < keys[1] && keys.len() == 2);
}

#[test]
fn bad_binary_books_give_located_errors() {
    let e = AperyBook::read(&[0u8; 33][..], "book.bin").unwrap_err();
    assert_eq!(
        e.to_string(),
        "book.bin: 33 bytes is not a whole number of 16-byte Apery records (1 bytes left over)"
    );
    // A record whose move is illegal in the start position.
    let start = Position::startpos(Variant::Standard);
    let mut rec = apery_key(&start).to_le_bytes().to_vec();
    rec.extend_from_slice(&(60u16 | 59 << 7).to_le_bytes()); // 7f7g: no piece on 7f
    rec.extend_from_slice(&[1, 0, 0, 0, 0, 0]);
    let apery = AperyBook::read(&rec[..], "book.bin").unwrap();
    assert!(
        apery
            .probe(&start)
            .unwrap_err()
            .contains("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
    );
    // .ybb: a truncated index is located at the count.
    let mut bytes = Vec::new();
    write_ybb(&generated(3, 5), true, &mut bytes).unwrap();
    let e = parse_ybb(&bytes[..100], "t.ybb").unwrap_err();
    assert_eq!(e.location, Location::Byte(16));
    assert!(parse_ybb(b"not a book at all, really", "x.ybb").is_err());
}

#[test]
fn the_on_disk_search_finds_every_position_and_nothing_else() {
    let book = generated(21, 150);
    let path = std::env::temp_dir().join(format!("shogi-book-find-{}.db", std::process::id()));
    std::fs::write(&path, text_of(&book)).unwrap();
    for (key, entry) in book.iter() {
        let found = shogi_book::find_in_text_file(&path, key).unwrap();
        assert_eq!(found.map(|r| r.entry).as_ref(), Some(entry), "{key}");
        // A key just beside it (another side to move) is not there unless the book has it.
        let other = if key.contains(" b ") {
            key.replace(" b ", " w ")
        } else {
            key.replace(" w ", " b ")
        };
        let found = shogi_book::find_in_text_file(&path, &other).unwrap();
        assert_eq!(found.is_some(), book.get(&other).is_some(), "{other}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn the_apery_search_on_disk_equals_the_book_read_whole() {
    let book = generated(23, 150);
    let mut bytes = Vec::new();
    write_apery(&book, &mut bytes).unwrap();
    let apery = AperyBook::read(&bytes[..], "book.bin").unwrap();
    let path = std::env::temp_dir().join(format!("shogi-book-probe-{}.bin", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let mut found = 0;
    for (key, _) in book.iter() {
        let pos = Position::from_sfen(key).unwrap();
        let moves = AperyBook::probe_file(&path, &pos).unwrap();
        assert_eq!(moves, apery.probe(&pos).unwrap(), "{key}");
        found += usize::from(!moves.is_empty());
        // A position the book lacks (the other side to move): nothing, as in memory.
        let mut other = pos.to_setup();
        other.side_to_move = other.side_to_move.opposite();
        if let Ok(other) = Position::from_setup(other, shogi_core::SetupOptions::PERMISSIVE) {
            let moves = AperyBook::probe_file(&path, &other).unwrap();
            assert_eq!(moves, apery.probe(&other).unwrap(), "{key} flipped turn");
        }
    }
    assert_eq!(found, book.len());
    // A truncated file is the error of reading it whole.
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let start = Position::startpos(Variant::Standard);
    let e = AperyBook::probe_file(&path, &start).unwrap_err();
    let whole = AperyBook::read(&bytes[..bytes.len() - 3], &path.display().to_string());
    assert_eq!(e, whole.unwrap_err());
    assert!(e.to_string().contains("13 bytes left over"), "{e}");
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_ybb_streamed_from_disk_is_the_book_parsed_whole() {
    let book = generated(29, 150);
    let mut bytes = Vec::new();
    write_ybb(&book, true, &mut bytes).unwrap();
    let path = std::env::temp_dir().join(format!("shogi-book-stream-{}.ybb", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let name = path.display().to_string();
    let whole = parse_ybb(&bytes, &name).unwrap();
    let stream = shogi_book::YbbStream::open(&path).unwrap();
    assert_eq!(stream.len(), whole.len() as u64);
    let mut streamed = Book::new();
    for item in stream {
        let (key, entry) = item.unwrap();
        streamed.insert_key(key, entry);
    }
    assert_eq!(streamed, whole);
    // Cut inside the moves area: the first position whose moves are cut off is the error,
    // located as reading the whole file locates it.
    let cut = &bytes[..bytes.len() - 5];
    std::fs::write(&path, cut).unwrap();
    let e = shogi_book::YbbStream::open(&path)
        .unwrap()
        .find_map(|r| r.err())
        .unwrap();
    assert_eq!(e, parse_ybb(cut, &name).unwrap_err());
    assert!(e.message.contains("lie outside the file"), "{e}");
    assert!(matches!(e.location, Location::Byte(_)), "{e}");
    std::fs::remove_file(&path).unwrap();
}
