//! The binary books written in bounded memory (sorted runs on disk, merged) are byte for byte
//! the books written with everything in memory, and leave no temporary file behind.

use shogi_book::{
    AperyBook, AperyWriter, Book, BookFormat, BookMove, BookWriter, Entry, WriteOptions, YbbWriter,
    parse_ybb, position_key, write_apery, write_book, write_ybb,
};
use shogi_core::{Move, Position, Variant};
use shogi_testkit::Rng;
use std::path::PathBuf;

/// A book of random walks from the start position, with random values, depths and counts.
fn generated(seed: u64, walks: usize) -> Book {
    let mut rng = Rng::new(seed);
    let mut book = Book::new();
    for _ in 0..walks {
        let mut pos = Position::startpos(Variant::Standard);
        for _ in 0..1 + rng.below(24) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv: Move = moves.as_slice()[rng.below(moves.len())];
            let key = position_key(&pos);
            let mut entry = book.get(&key).cloned().unwrap_or_else(|| Entry {
                ply: Some(pos.move_number()),
                ..Entry::default()
            });
            if entry.moves.iter().all(|m| m.mv != mv) {
                entry.moves.push(BookMove {
                    value: rng.below(4001) as i32 - 2000,
                    depth: rng.below(60) as i32,
                    // Equal counts, so that the order of equal keys and counts matters.
                    count: 1 + rng.below(3) as u64,
                    ..BookMove::new(mv)
                });
                entry.sort_moves();
                book.insert_key(key, entry);
            }
            pos.play(mv).unwrap();
        }
    }
    book
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shogi-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bounded_binary_books_equal_the_books_written_in_memory() {
    let dir = scratch("bounded");
    let book = generated(5, 300);
    assert!(book.len() > 2000, "{}", book.len());
    for with_depth in [true, false] {
        let mut whole = Vec::new();
        write_ybb(&book, with_depth, &mut whole).unwrap();
        assert_eq!(parse_ybb(&whole, "w.ybb").unwrap().len(), book.len());
        // A few kilobytes: dozens of runs, and the moves area on disk too.
        let mut w = YbbWriter::new(with_depth, 4 << 10, &dir);
        let mut all: Vec<_> = book.iter().collect();
        all.reverse();
        for (key, entry) in all {
            w.push(key, entry).unwrap();
        }
        assert!(w.runs() > 10, "{}", w.runs());
        let mut bounded = Vec::new();
        w.finish(&mut bounded).unwrap();
        assert!(bounded == whole, "ybb (depth {with_depth}) differs");
    }
    let mut whole = Vec::new();
    let losses = write_apery(&book, &mut whole).unwrap();
    let records = AperyBook::read(&whole[..], "w.bin").unwrap().records;
    assert!(
        records
            .windows(2)
            .all(|w| w[0].key < w[1].key || (w[0].key == w[1].key && w[0].count >= w[1].count))
    );
    let mut w = AperyWriter::new(4 << 10, &dir);
    for (key, entry) in book.iter() {
        w.push(key, entry).unwrap();
    }
    assert!(w.runs() > 10, "{}", w.runs());
    let mut bounded = Vec::new();
    assert_eq!(w.finish(&mut bounded).unwrap(), losses);
    assert!(bounded == whole, "book.bin differs");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_book_writer_writes_each_format_as_the_whole_book_does() {
    let dir = scratch("writer");
    let mut book = generated(9, 120);
    book.header_comments.push("# made by a test".into());
    for (format, name) in [
        (BookFormat::Db, "b.db"),
        (BookFormat::Ybb, "b.ybb"),
        (BookFormat::Apery, "b.bin"),
    ] {
        let (whole, bounded) = (dir.join(format!("whole-{name}")), dir.join(name));
        let notes = write_book(&whole, format, &book, &WriteOptions::default()).unwrap();
        let options = WriteOptions {
            memory: 2 << 10,
            ..WriteOptions::default()
        };
        let mut w = BookWriter::create(&bounded, format, &book.header_comments, &options).unwrap();
        for (key, entry) in book.iter() {
            w.push(key, entry).unwrap();
        }
        assert_eq!(w.written().0 as usize, book.len());
        let same_notes: Vec<String> = notes.iter().map(|n| n.replace("whole-", "")).collect();
        assert_eq!(
            w.finish(&book.trailing_comments).unwrap(),
            same_notes,
            "{name}"
        );
        assert!(
            std::fs::read(&whole).unwrap() == std::fs::read(&bounded).unwrap(),
            "{name}"
        );
        // Dropped unfinished, a writer leaves the existing file as it was.
        let mut w = BookWriter::create(&bounded, format, &[], &options).unwrap();
        w.push(book.iter().next().unwrap().0, book.iter().next().unwrap().1)
            .unwrap();
        drop(w);
        assert!(std::fs::read(&whole).unwrap() == std::fs::read(&bounded).unwrap());
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A book whose lines transpose and come back (each move among the first four legal ones in
/// USI order), with some positions also written flipped: a graph with cycles and twins.
fn tangled(seed: u64, walks: usize) -> Book {
    let mut rng = Rng::new(seed);
    let mut book = Book::new();
    for _ in 0..walks {
        let mut pos = Position::startpos(Variant::Standard);
        for _ in 0..1 + rng.below(16) {
            let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            moves.sort_by_key(|m| m.to_usi());
            let mv = moves[rng.below(moves.len().min(4))];
            let (at, listed) = match rng.below(8) {
                0 => (shogi_book::flip_position(&pos), shogi_book::flip_move(mv)),
                _ => (pos.clone(), mv),
            };
            let key = position_key(&at);
            let mut entry = book.get(&key).cloned().unwrap_or_else(|| Entry {
                ply: Some(at.move_number()),
                ..Entry::default()
            });
            if entry.moves.iter().all(|m| m.mv != listed) {
                entry.moves.push(BookMove {
                    value: rng.below(801) as i32 - 400,
                    ..BookMove::new(listed)
                });
                book.insert_key(key, entry);
            }
            pos.play(mv).unwrap();
        }
    }
    book
}

#[test]
fn backup_from_disk_equals_backup_in_memory() {
    let dir = scratch("backup");
    let mut book = tangled(11, 400);
    book.header_comments.push("# kept".into());
    let (want, report) = shogi_book::backup(&book);
    assert!(
        report.nodes > 300 && report.converged_moves > 0,
        "{report:?}"
    );
    assert!(
        report.sweeps > 0 && report.acyclic < report.nodes,
        "{report:?}"
    );
    let input = dir.join("in.db");
    write_book(&input, BookFormat::Db, &book, &WriteOptions::default()).unwrap();
    let roots = [Position::startpos(Variant::Standard)];
    for ext in ["db", "ybb"] {
        let out = dir.join(format!("out.{ext}"));
        let options = WriteOptions::default();
        let (got, notes) = shogi_book::backup_file(&input, None, &roots, &out, &options).unwrap();
        assert_eq!(got, report);
        let expected = dir.join(format!("want.{ext}"));
        let whole = write_book(&expected, BookFormat::of_output(&out), &want, &options).unwrap();
        assert_eq!(
            notes,
            whole
                .iter()
                .map(|n| n.replace("want.", "out."))
                .collect::<Vec<_>>()
        );
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&expected).unwrap(),
            "{ext}"
        );
    }
    // A .ybb input (no comments) is written as a sorted text book on disk first (in runs),
    // then backed up as one, to the same.
    let ybb_input = dir.join("in.ybb");
    write_book(&ybb_input, BookFormat::Ybb, &book, &WriteOptions::default()).unwrap();
    let out = dir.join("from-ybb.db");
    let options = WriteOptions {
        memory: 16 << 10,
        temp_dir: Some(dir.clone()),
        ..WriteOptions::default()
    };
    let (got, _) = shogi_book::backup_file(&ybb_input, None, &roots, &out, &options).unwrap();
    assert_eq!(got, report);
    let want = std::fs::read_to_string(dir.join("want.db")).unwrap();
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        want.replace("# kept\n", "")
    );
    // An unsorted text book is sorted on disk once first (in runs), to the same.
    let mut unsorted = format!("{}\n# kept\n", shogi_book::HEADER).into_bytes();
    let records: Vec<_> = book.iter().collect();
    for (key, entry) in records.into_iter().rev() {
        shogi_book::write_record(&mut unsorted, key, entry).unwrap();
    }
    let input = dir.join("shuffled.db");
    std::fs::write(&input, unsorted).unwrap();
    let out = dir.join("sorted-out.db");
    let plain = shogi_book::backup_file(&input, None, &roots, &out, &WriteOptions::default());
    assert!(plain.unwrap_err().message.contains("order"));
    assert!(!out.exists());
    let sort = shogi_book::SortOptions {
        memory: 64 << 10,
        temp_dir: Some(dir.clone()),
        ..shogi_book::SortOptions::default()
    };
    let (got, _) =
        shogi_book::backup_file(&input, Some(&sort), &roots, &out, &WriteOptions::default())
            .unwrap();
    assert_eq!(got, report);
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(dir.join("want.db")).unwrap()
    );
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp") || n.contains("sorted") && n != "sorted-out.db")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_apery_walk_on_disk_equals_the_book_read_whole() {
    let dir = scratch("apery-walk");
    let book = generated(7, 400);
    let path = dir.join("book.bin");
    write_book(&path, BookFormat::Apery, &book, &WriteOptions::default()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    // Pages of 256 records: a key's records may start on one page and end on the next.
    assert!(bytes.len() > 16 * 256 * 4, "{}", bytes.len());
    let apery = AperyBook::read(&bytes[..], "book.bin").unwrap();
    let roots = [Position::startpos(Variant::Standard)];
    let (whole, unreached) = apery.to_book(&roots).unwrap();
    let mut walk = shogi_book::AperyWalk::open(&path, &roots).unwrap();
    let mut walked = Book::new();
    for item in walk.by_ref() {
        let (key, entry) = item.unwrap();
        assert!(walked.get(&key).is_none(), "{key} twice");
        walked.insert_key(key, entry);
    }
    assert_eq!(walked, whole);
    assert_eq!(walk.unreached().unwrap(), unreached as u64);
    // From a root inside the book, records before it are not reached.
    let mut inner = roots[0].clone();
    inner
        .play(whole.get(&position_key(&inner)).unwrap().moves[0].mv)
        .unwrap();
    let (from_inner, unreached) = apery.to_book(std::slice::from_ref(&inner)).unwrap();
    let mut walk = shogi_book::AperyWalk::open(&path, std::slice::from_ref(&inner)).unwrap();
    let walked: Vec<_> = walk.by_ref().map(Result::unwrap).collect();
    assert_eq!(walked.len(), from_inner.len());
    assert!(unreached > 0);
    assert_eq!(walk.unreached().unwrap(), unreached as u64);
    // A truncated file and keys out of order: the errors of reading it whole.
    let bad = dir.join("bad.bin");
    for damaged in [
        bytes[..bytes.len() - 5].to_vec(),
        [&bytes[16..32], &bytes[..16], &bytes[32..]].concat(),
    ] {
        std::fs::write(&bad, &damaged).unwrap();
        let want = AperyBook::read(&damaged[..], &bad.display().to_string()).unwrap_err();
        let got = shogi_book::AperyWalk::open(&bad, &roots).unwrap_err();
        assert_eq!(got.to_string(), want.to_string());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_in_any_order_are_written_as_in_key_order() {
    let dir = scratch("unordered");
    let book = generated(9, 300);
    let ybb = dir.join("in.ybb");
    write_book(&ybb, BookFormat::Ybb, &book, &WriteOptions::default()).unwrap();
    // What the .ybb holds (no counts, no ponders), read whole.
    let (book, _) = shogi_book::read_book(&ybb, BookFormat::Ybb, false, &[]).unwrap();
    let small = WriteOptions {
        memory: 16 << 10,
        temp_dir: Some(dir.clone()),
        ..WriteOptions::default()
    };
    for ext in ["db", "ybb", "bin"] {
        let out = dir.join(format!("out.{ext}"));
        let format = BookFormat::of_output(&out);
        let written = shogi_book::write_unordered(&out, format, &[], &small, |push| {
            // The index's order (PackedSfen), not the keys'.
            for item in shogi_book::YbbStream::open(&ybb)? {
                let (key, entry) = item?;
                push(&key, &entry)?;
            }
            Ok(())
        })
        .unwrap();
        assert!(ext != "db" || written.sort.runs > 2, "{:?}", written.sort);
        let want = dir.join(format!("want.{ext}"));
        let notes = write_book(&want, format, &book, &WriteOptions::default()).unwrap();
        assert_eq!(written.positions, book.len() as u64);
        let same_notes: Vec<_> = notes.iter().map(|n| n.replace("want.", "out.")).collect();
        assert_eq!(written.notes, same_notes, "{ext}");
        let same = std::fs::read(&out).unwrap() == std::fs::read(&want).unwrap();
        assert!(same, "{ext}");
    }
    let left = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(left, 7, "only the books are left");
    std::fs::remove_dir_all(&dir).unwrap();
}
