//! `build` against brute-force counts, `backup` on small books checked by hand, and the
//! external sort against the in-memory one.

use shogi_book::{
    Book, BuildOptions, Builder, Duplicates, ReadOptions, SortOptions, backup, position_key,
    read_text, sort_books, value_from_results, write_text,
};
use shogi_core::{Color, Move, Position, Variant};
use shogi_testkit::Rng;
use shogi_train::GameResult;
use std::collections::{HashMap, HashSet};

/// Games that share openings: each move picked among the first three legal moves in USI
/// order (so lines transpose and repeat), with random results.
fn games(seed: u64, n: usize) -> Vec<(Vec<Move>, Option<GameResult>)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::startpos(Variant::Standard);
            let mut line = Vec::new();
            for _ in 0..rng.below(20) {
                let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                moves.sort_by_key(|m| m.to_usi());
                let mv = moves[rng.below(moves.len().min(3))];
                pos.play(mv).unwrap();
                line.push(mv);
            }
            let result = [
                Some(GameResult::BlackWin),
                Some(GameResult::WhiteWin),
                Some(GameResult::Draw),
                None,
            ][rng.below(4)];
            (line, result)
        })
        .collect()
}

#[test]
fn build_counts_equal_brute_force_counts() {
    let games = games(5, 400);
    let options = BuildOptions {
        max_ply: 9,
        min_games: 3,
    };
    let mut builder = Builder::new(options);
    let start = Position::startpos(Variant::Standard);
    for (line, result) in &games {
        assert!(builder.add_game(&start, line, *result));
    }
    let book = builder.finish().unwrap();
    // Brute force: per position, the set of games reaching it (at move number <= 9) and, per
    // move, the games playing it with their results.
    type Tally = HashMap<Move, (HashSet<usize>, [u64; 3])>;
    let mut reach: HashMap<String, (u32, HashSet<usize>, Tally)> = HashMap::new();
    for (g, (line, result)) in games.iter().enumerate() {
        let mut pos = start.clone();
        for &mv in line {
            if pos.move_number() > 9 {
                break;
            }
            let e = reach.entry(position_key(&pos)).or_insert((
                u32::MAX,
                HashSet::new(),
                HashMap::new(),
            ));
            e.0 = e.0.min(pos.move_number());
            e.1.insert(g);
            let t = e.2.entry(mv).or_default();
            if t.0.insert(g) {
                let me = pos.side_to_move();
                match result {
                    Some(GameResult::Draw) => t.1[1] += 1,
                    Some(r) => {
                        let won = (*r == GameResult::BlackWin) == (me == Color::Black);
                        t.1[if won { 0 } else { 2 }] += 1;
                    }
                    None => {}
                }
            }
            pos.play(mv).unwrap();
        }
    }
    let expected: Vec<_> = reach.iter().filter(|(_, e)| e.1.len() >= 3).collect();
    assert!(expected.len() > 20, "{}", expected.len());
    assert_eq!(book.len(), expected.len());
    for (key, (ply, _, tally)) in expected {
        let entry = book.get(key).unwrap_or_else(|| panic!("{key} missing"));
        assert_eq!(entry.ply, Some(*ply));
        assert_eq!(entry.moves.len(), tally.len(), "{key}");
        for m in &entry.moves {
            let (g, [w, d, l]) = &tally[&m.mv];
            assert_eq!(m.count, g.len() as u64, "{key} {}", m.mv);
            assert_eq!(m.value, value_from_results(*w, *d, *l));
        }
    }
}

#[test]
fn values_from_results() {
    assert_eq!(value_from_results(0, 0, 0), 0);
    assert_eq!(value_from_results(1, 0, 1), 0);
    assert_eq!(value_from_results(0, 4, 0), 0);
    assert_eq!(value_from_results(3, 0, 1), 416); // p = 4/6: 600 ln 2
    assert_eq!(value_from_results(9, 0, 0), 1382); // p = 10/11: 600 ln 10
    assert_eq!(value_from_results(0, 0, 9), -1382);
}

fn book(text: &str) -> Book {
    read_text(text.as_bytes(), "t.db", ReadOptions { sort: true })
        .unwrap()
        .0
}

fn lines(book: &Book) -> String {
    let mut out = Vec::new();
    write_text(book, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn backup_of_a_tree_takes_the_best_reply() {
    let (out, report) = backup(&book(
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
7g7f none 50 0 1\n2g2f none 0 0 1\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n\
8c8d none 100 7 1\n3c3d none -20 3 1\n",
    ));
    assert_eq!(report.nodes, 2);
    assert_eq!(report.acyclic, 2);
    // White's best after 2g2f is 8c8d (100, depth 0: input depths are ignored), so 2g2f is
    // worth -100 at depth 1 to Black, and 7g7f (50) stays best.
    assert_eq!(
        lines(&out),
        "#YANEURAOU-DB2016 1.00\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n\
8c8d none 100 0 1\n3c3d none -20 0 1\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
7g7f none 50 0 1\n2g2f none -100 1 1\n"
    );
}

#[test]
fn backup_adds_converged_moves() {
    let (out, report) = backup(&book(
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f none -10 0 1\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL w - 2\n8c8d none -30 0 1\n",
    ));
    assert_eq!(report.converged_moves, 1);
    let start = Position::startpos(Variant::Standard);
    let e = out.get(&position_key(&start)).unwrap();
    let got: Vec<_> = e
        .moves
        .iter()
        .map(|m| (m.mv.to_usi(), m.value, m.depth))
        .collect();
    assert_eq!(got, vec![("2g2f".into(), 30, 1), ("7g7f".into(), -10, 0)]);
}

/// Rooks shuffling 2h-3h and 8b-7b: a cycle of four positions, with one way out (7g7f,
/// worth -100 to Black).
const CYCLE: &str = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
2h3h none 0 0 1\n7g7f none -100 0 1\n\
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B4R2/LNSGKGSNL w - 2\n8b7b none 0 0 1\n\
sfen lnsgkgsnl/2r4b1/ppppppppp/9/9/9/PPPPPPPPP/1B4R2/LNSGKGSNL b - 3\n3h2h none 0 0 1\n\
sfen lnsgkgsnl/2r4b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 4\n7b8b none 0 0 1\n";

#[test]
fn backup_scores_a_repetition_as_a_draw() {
    let (out, report) = backup(&book(CYCLE));
    assert_eq!((report.nodes, report.acyclic, report.check_loop), (4, 0, 0));
    let start = Position::startpos(Variant::Standard);
    let e = out.get(&position_key(&start)).unwrap();
    let got: Vec<_> = e
        .moves
        .iter()
        .map(|m| (m.mv.to_usi(), m.value, m.depth))
        .collect();
    assert_eq!(
        got,
        vec![("2h3h".into(), 0, 9999), ("7g7f".into(), -100, 0)]
    );
}

/// A rook checking the king on 1a from 9a, then from 9b on 1b, and back: P0 and P2 (White in
/// check) and P1 and P3 (Black to move) form a perpetual-check loop.
fn perpetual(exit: bool) -> String {
    format!(
        "sfen R7k/9/9/9/9/9/9/9/4K4 w - 1\n1a1b none 0 0 1\n\
sfen R8/8k/9/9/9/9/9/9/4K4 b - 2\n9a9b none 0 0 1\n{}\
sfen 9/R7k/9/9/9/9/9/9/4K4 w - 3\n1b1a none 0 0 1\n\
sfen 8k/R8/9/9/9/9/9/9/4K4 b - 4\n9b9a none 0 0 1\n",
        if exit { "5i5h none 200 0 1\n" } else { "" }
    )
}

fn moves_of(out: &Book, sfen: &str) -> Vec<(String, i32, i32)> {
    let pos: Position = sfen.parse().unwrap();
    let e = out.get(&position_key(&pos)).unwrap();
    e.moves
        .iter()
        .map(|m| (m.mv.to_usi(), m.value, m.depth))
        .collect()
}

#[test]
fn backup_loses_perpetual_check_for_the_checker() {
    let (out, report) = backup(&book(&perpetual(false)));
    assert_eq!(report.check_loop, 4);
    // Black can only go on checking: it loses; the checking move carries the marker depth.
    assert_eq!(
        moves_of(&out, "R8/8k/9/9/9/9/9/9/4K4 b - 2"),
        vec![("9a9b".into(), -32000, 9997)]
    );
    assert_eq!(moves_of(&out, "R7k/9/9/9/9/9/9/9/4K4 w - 1")[0].1, 32000);
}

#[test]
fn backup_lets_the_checker_leave_the_loop() {
    let (out, _) = backup(&book(&perpetual(true)));
    // Leaving (200) beats checking on at the same value; the checking move shows value - 1.
    assert_eq!(
        moves_of(&out, "R8/8k/9/9/9/9/9/9/4K4 b - 2"),
        vec![("5i5h".into(), 200, 0), ("9a9b".into(), 199, 9997)]
    );
    assert_eq!(
        moves_of(&out, "R7k/9/9/9/9/9/9/9/4K4 w - 1"),
        vec![("1a1b".into(), -200, 1)]
    );
}

#[test]
fn external_sort_equals_the_in_memory_sort_and_a_failure_keeps_the_output() {
    let dir = std::env::temp_dir().join(format!("shogi-book-sort-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two books built from different games, written unsorted by hand (reversed).
    let mut parts = Vec::new();
    let mut all = Book::new();
    for seed in [1, 2] {
        let mut b = Builder::new(BuildOptions::default());
        for (line, result) in games(seed, 200) {
            b.add_game(&Position::startpos(Variant::Standard), &line, result);
        }
        let built = b.finish().unwrap();
        let text = lines(&built);
        let mut blocks: Vec<&str> = text.split("sfen ").skip(1).collect();
        blocks.reverse();
        let path = dir.join(format!("part{seed}.db"));
        std::fs::write(
            &path,
            blocks
                .iter()
                .map(|b| format!("sfen {b}"))
                .collect::<String>(),
        )
        .unwrap();
        parts.push(path);
        all.merge(built);
    }
    let out = dir.join("merged.db");
    let options = SortOptions {
        memory: 4096, // a few dozen positions per run
        temp_dir: None,
        duplicates: Duplicates::Merge,
    };
    let report = sort_books(&parts, &out, &options).unwrap();
    assert!(report.runs > 5, "{}", report.runs);
    let merged = std::fs::read_to_string(&out).unwrap();
    assert_eq!(merged, lines(&all));
    // A bad line in the second book: an error naming it, the output untouched, no temporary
    // file left behind.
    std::fs::write(
        &parts[1],
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7e none\n",
    )
    .unwrap();
    let e = sort_books(&parts, &out, &options).unwrap_err();
    assert!(
        e.to_string().contains("part2.db:2:1: illegal move 7g7e"),
        "{e}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), merged);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 3, "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_spilling_build_equals_the_in_memory_build() {
    let dir = std::env::temp_dir().join(format!("shogi-book-spill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = BuildOptions {
        max_ply: 12,
        min_games: 2,
    };
    let start = Position::startpos(Variant::Standard);
    let mut whole = Builder::new(options);
    // A few kilobytes: each run holds a few games, so positions recur across many runs.
    let mut spilling = Builder::spilling(options, 8 << 10, &dir);
    for (line, result) in games(11, 300) {
        whole.add_game(&start, &line, result);
        spilling.add_game(&start, &line, result);
    }
    let runs = spilling.runs();
    assert!(runs > 5, "{runs}");
    let expected = lines(&whole.finish().unwrap());
    assert_eq!(lines(&spilling.finish().unwrap()), expected);
    // The runs are gone.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}
