//! `losses` tells the truth: what it names is missing once the written text is read back,
//! and what it does not name comes back (over every corpus record and every format).

use shogi_kif::{EndingKind, Format, Line, Loss, Record, losses, write};
use std::path::Path;

/// The records of every corpus file we read (none when the corpus is absent).
fn corpus() -> Vec<(String, Record)> {
    let Some(files) = shogi_testkit::corpus::files("losses test") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (path, bytes) in files {
        let hint = Format::from_path(Path::new(&path));
        let Ok(records) =
            shogi_kif::Reader::new(&bytes[..], shogi_kif::ReadOptions::with_hint(hint))
        else {
            continue;
        };
        for (i, rec) in records
            .flat_map(shogi_kif::ReadRecord::into_result)
            .enumerate()
        {
            out.push((format!("{path}#{}", i + 1), rec));
        }
    }
    out
}

/// What the loss categories count, for one record.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    variations: usize,
    comments: usize,
    times: usize,
    bookmarks: usize,
}

fn count_line(c: &mut Counts, line: &Line) {
    for n in &line.moves {
        c.variations += n.variations.len();
        c.comments += n.comments.len();
        c.bookmarks += n.bookmarks.len();
        c.times += usize::from(n.time.is_some_and(|t| t.spent_ms.is_some()));
        n.variations.iter().for_each(|v| count_line(c, v));
    }
    if let Some(e) = &line.ending {
        c.variations += e.variations.len();
        c.comments += e.comments.len();
        c.bookmarks += e.bookmarks.len();
        c.times += usize::from(e.time.is_some_and(|t| t.spent_ms.is_some()));
        e.variations.iter().for_each(|v| count_line(c, v));
    }
}

fn counts(r: &Record) -> Counts {
    let mut c = Counts {
        variations: 0,
        comments: r.start_comments.len(),
        times: 0,
        bookmarks: r.start_bookmarks.len(),
    };
    count_line(&mut c, &r.moves);
    c
}

fn legal_moves(r: &Record) -> Vec<String> {
    r.main_line()
        .take_while(|n| n.foul.is_none())
        .map(|n| n.mv.to_usi())
        .collect()
}

/// Check one record written as one format against what `losses` said; give the problems.
fn check(rec: &Record, format: Format) -> Vec<String> {
    let said = losses(rec, format);
    let text = write(rec, format);
    let back = match shogi_kif::read_str(&text, shogi_kif::ReadOptions::with_format(format)) {
        Ok(b) => b,
        // A foul move the format cannot declare is written as a move no reader takes.
        Err(_) if said.contains(&Loss::FoulMove) => return Vec::new(),
        Err(e) => return vec![format!("does not read back: {}", e.render())],
    };
    let mut problems = Vec::new();
    let mut expect = |what: &str, lost: bool, before: usize, after: usize| {
        // Something lost is gone; something kept is all there (a record without any of it
        // has nothing to lose).
        let ok = if lost { after == 0 } else { after == before };
        if !ok {
            problems.push(format!(
                "{what}: {before} before, {after} after; losses {said:?}"
            ));
        }
    };
    let (a, b) = (counts(rec), counts(&back));
    let has = |f: fn(&Loss) -> bool| said.iter().any(f);
    let one_line = matches!(format, Format::Usi | Format::Sfen);
    expect(
        "variations",
        has(Loss::is_variations),
        a.variations,
        b.variations,
    );
    // A format that cannot hold variations loses their notes with them: compare the main
    // line's then.
    let (a, b) = if has(Loss::is_variations) {
        let (mut x, mut y) = (rec.clone(), back.clone());
        x.drop_variations();
        y.drop_variations();
        (counts(&x), counts(&y))
    } else {
        (a, b)
    };
    expect(
        "comments",
        has(|l| matches!(l, Loss::Comments(_))),
        a.comments,
        b.comments,
    );
    expect(
        "times",
        has(|l| matches!(l, Loss::Times(_))),
        a.times,
        b.times,
    );
    expect(
        "bookmarks",
        has(|l| matches!(l, Loss::Bookmarks(_))),
        a.bookmarks,
        b.bookmarks,
    );
    if one_line {
        expect(
            "header",
            has(|l| matches!(l, Loss::Header(_))),
            rec.header.entries.len(),
            back.header.entries.len(),
        );
    }
    // The main line is always there, up to an illegal move a format cannot hold.
    let fouled = rec.main_line().any(|n| n.foul.is_some());
    let moves = |r: &Record| r.main_line().map(|n| n.mv.to_usi()).collect::<Vec<_>>();
    if has(|l| *l == Loss::FoulMove) {
        if moves(&back) != legal_moves(rec) || !fouled {
            problems.push("the illegal move was not the only move left out".into());
        }
    } else if moves(&back) != moves(rec) {
        problems.push(format!(
            "main line differs: {:?} became {:?}",
            moves(rec),
            moves(&back)
        ));
    }
    let ending = |r: &Record| r.ending().map(|e| e.kind.clone());
    let ending_lost = has(|l| matches!(l, Loss::Ending(_) | Loss::SealedMove | Loss::FoulMove));
    if !ending_lost && ending(&back) != ending(rec) {
        problems.push(format!(
            "ending {:?} became {:?} without a loss named",
            ending(rec),
            ending(&back)
        ));
    }
    if has(|l| matches!(l, Loss::Ending(_) | Loss::SealedMove)) && ending(&back) == ending(rec) {
        problems.push(format!(
            "the ending {:?} was named lost but came back",
            ending(rec)
        ));
    }
    problems
}

#[test]
fn losses_name_what_the_corpus_loses_in_each_format() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (path, rec) in corpus() {
        for format in Format::ALL {
            checked += 1;
            for p in check(&rec, format) {
                failures.push(format!("{path} as {}: {p}", format.name()));
            }
        }
    }
    println!("{checked} conversions checked");
    for f in failures.iter().take(20) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} problems", failures.len());
}

/// A KIF game with a bit of everything: header, start comment, times, a comment, a bookmark,
/// a variation, a commented resignation.
const RICH: &str = "先手：a\n後手：b\n*start\n手数----指手---------消費時間--\n\
   1 ７六歩(77)   ( 0:01/00:00:01)\n&基本図\n\
   2 ３四歩(33)   ( 0:02/00:00:02)+\n*a comment\n\
   3 投了         ( 0:03/00:00:04)\n*resigned\n\n\
変化：2手\n   2 ８四歩(83)   ( 0:05/00:00:05)\n";

#[test]
fn losses_of_a_rich_record_in_each_format() {
    let r = shogi_kif::read_str(RICH, Default::default()).expect("a valid KIF");
    let mut s = String::new();
    for f in Format::ALL {
        let l: Vec<String> = losses(&r, f).iter().map(ToString::to_string).collect();
        s.push_str(&format!("{}: {}\n", f.name(), l.join(", ")));
        assert!(check(&r, f).is_empty(), "{f:?}: {:?}", check(&r, f));
    }
    assert_eq!(
        s,
        "kif: \n\
         ki2: 4 times\n\
         csa: 1 variation, 1 bookmark\n\
         usi: 1 variation, 3 comments, 3 times, 1 bookmark, 2 header entries\n\
         sfen: 1 variation, 3 comments, 3 times, 1 bookmark, 2 header entries\n\
         jkf: 1 bookmark\n"
    );
}

#[test]
fn losses_of_endings() {
    let game = |word: &str| {
        let kif = format!("手数----指手--\n   1 ７六歩(77)\n   2 {word}\n");
        shogi_kif::read_str(&kif, Default::default()).expect("a valid KIF")
    };
    let sealed = game("封じ手");
    assert_eq!(losses(&sealed, Format::Csa), [Loss::SealedMove]);
    assert_eq!(
        losses(&sealed, Format::Usi),
        [Loss::Ending(EndingKind::SealedMove)]
    );
    assert_eq!(losses(&sealed, Format::Ki2), []);
    let by_default = game("不戦敗");
    assert_eq!(
        losses(&by_default, Format::Csa),
        [Loss::Ending(EndingKind::LossByDefault)]
    );
    for word in ["投了", "入玉勝ち"] {
        assert_eq!(losses(&game(word), Format::Usi), [], "{word}");
    }
    assert_eq!(losses(&game("詰み"), Format::Csa), []);
    assert_eq!(
        losses(&game("詰み"), Format::Sfen),
        [Loss::Ending(EndingKind::Mate)]
    );
}

#[test]
fn drop_variations_keeps_the_main_line() {
    let mut r = shogi_kif::read_str(RICH, Default::default()).expect("a valid KIF");
    let main = r.usi_moves();
    assert_eq!(r.drop_variations(), 1);
    assert_eq!(r.usi_moves(), main);
    assert_eq!(losses(&r, Format::Csa), [Loss::Bookmarks(1)]);
    assert_eq!(r.drop_variations(), 0);
}
