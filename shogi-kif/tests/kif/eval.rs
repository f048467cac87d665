//! Evaluations read from records: a hand-written ShogiHome-style KIF (in the repo) and the
//! real Floodgate record of the shared corpus (skipped when the corpus is absent).

use shogi_kif::eval::{Score, Source, evaluations};
use shogi_kif::{ReadOptions, read_path, read_str};

/// The shared corpus beside the project (`../shared`), or one level further up for a git
/// worktree kept in a folder of worktrees.
fn corpus() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let near = here.join("../../shared/corpus");
    if near.is_dir() {
        near
    } else {
        here.join("../../../shared/corpus")
    }
}
const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/eval/shogihome.kif"
);

#[test]
fn shogihome_fixture() {
    let rec = read_path(FIXTURE, ReadOptions::default()).unwrap();
    let e = evaluations(&rec);
    let got: Vec<(u32, Source, Option<Score>)> =
        e.iter().map(|e| (e.ply, e.source, e.score)).collect();
    assert_eq!(
        got,
        [
            (1, Source::Research, Some(Score::Cp(35))),
            (2, Source::Player, Some(Score::Cp(210))),
            (3, Source::Research, Some(Score::Cp(-250))),
            (4, Source::Research, Some(Score::Mate { plies: -7 })),
            (
                5,
                Source::Research,
                Some(Score::MateUnknown { winning: true })
            ),
        ]
    );
    assert_eq!(e[0].pv_usi, ["3c3d", "2g2f"]);
    assert_eq!((e[0].depth, e[0].nodes), (Some(12), Some(50000)));
    assert_eq!(e[0].engine.as_deref(), Some("Fairy-Stockfish 11.1 LB 64"));
    // The player's PV starts with its own move: read from the position before it.
    assert_eq!(e[1].pv.as_deref(), Some("△３四歩▲２二角成"));
    assert_eq!(e[1].pv_usi, ["8h2b+"]);
    // A first PV move written 同 goes to the square of the move just played.
    assert_eq!(e[2].pv_usi, ["3a2b"]);
    // Nothing lost: the comment text is as written.
    assert_eq!(rec.moves.moves[0].comments[0], "序盤の定跡");
    assert_eq!(rec.moves.moves[2].comments[0], "【悪手】");
    assert_eq!(rec.moves.moves[2].comments[2], "#評価値=-250.4");
}

#[test]
fn floodgate_record_of_the_corpus() {
    let path = corpus().join("shogi-kifu-converter/data/tests/csa/floodgate.csa");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("note: {} not found; skipped", path.display());
        return;
    };
    let rec = read_str(&text, ReadOptions::default()).unwrap();
    let e = evaluations(&rec);
    let lines = text.lines().filter(|l| l.starts_with("'** ")).count();
    assert_eq!(e.len(), lines);
    assert!(e.iter().all(|e| e.source == Source::Floodgate));
    assert_eq!(e[0].ply, 1);
    assert_eq!(e[0].score, Some(Score::Cp(113)));
    assert_eq!(&e[0].pv_usi[..2], ["3c3d", "2f2e"]);
    // Every PV move legal (the whole PV read) in each comment that has one.
    for ev in &e {
        if let Some(pv) = &ev.pv {
            assert_eq!(
                ev.pv_usi.len(),
                pv.split_whitespace().count(),
                "ply {}",
                ev.ply
            );
        }
    }
    // Sente's view: gote lost (resigned), and its last comments say sente is winning.
    let last_gote = e.iter().rev().find(|e| e.ply % 2 == 0).unwrap();
    assert!(
        matches!(last_gote.score, Some(Score::Cp(v)) if v > 1000),
        "{last_gote:?}"
    );
    // The comment text is kept as written (after `'*`).
    let first = text.lines().find(|l| l.starts_with("'** ")).unwrap();
    assert_eq!(rec.moves.moves[0].comments, [first[2..].to_string()]);
}

fn fixture(name: &str) -> shogi_kif::Record {
    let path = format!("{}/tests/fixtures/eval/{name}", env!("CARGO_MANIFEST_DIR"));
    read_path(&path, ReadOptions::default()).unwrap()
}

#[test]
fn shogigui_fixture() {
    let rec = fixture("shogigui.kif");
    let e = evaluations(&rec);
    let got: Vec<(u32, Source, Option<Score>)> =
        e.iter().map(|e| (e.ply, e.source, e.score)).collect();
    assert_eq!(
        got,
        [
            (1, Source::ShogiGuiGame, Some(Score::Cp(34))),
            // The first candidate, not the second.
            (2, Source::ShogiGuiAnalysis, Some(Score::Cp(-120))),
            (3, Source::ShogiGuiAnalysis, Some(Score::Mate { plies: -5 })),
        ]
    );
    // The game line's PV starts with its own move; source squares are dropped.
    assert_eq!(e[0].pv_usi, ["3c3d", "2g2f"]);
    assert_eq!((e[0].depth, e[0].nodes), (Some(10), Some(49691)));
    assert_eq!(e[1].pv_usi, ["8h2b+", "3a2b"]);
    assert_eq!(e[1].depth, Some(21));
}

#[test]
fn piyo_fixture() {
    let rec = fixture("piyo.kif");
    let e = evaluations(&rec);
    let got: Vec<(u32, Source, Option<Score>)> =
        e.iter().map(|e| (e.ply, e.source, e.score)).collect();
    assert_eq!(
        got,
        [
            (1, Source::Piyo, Some(Score::Cp(58))),
            (2, Source::Piyo, Some(Score::Cp(-15))),
        ]
    );
    // 指し手's line starts with the move played: the rest is the PV.
    assert_eq!(e[0].pv_usi, ["3c3d", "8h2b+"]);
}

#[test]
fn csa_client_fixture() {
    let rec = fixture("csa_client.csa");
    let e = evaluations(&rec);
    let got: Vec<(u32, Source, Option<Score>)> =
        e.iter().map(|e| (e.ply, e.source, e.score)).collect();
    // Each line goes to the move after it (its PV continues from there, not from the move
    // holding it); the last, without a PV, cannot be placed so and loses to the line carried
    // to its move.
    assert_eq!(
        got,
        [
            (1, Source::CsaClient, Some(Score::Cp(40))),
            (2, Source::CsaClient, Some(Score::Cp(-25))),
        ]
    );
    assert_eq!(e[0].pv_usi, ["3c3d", "2g2f"]);
    assert_eq!(e[1].pv_usi, ["2g2f", "8c8d"]);
}
