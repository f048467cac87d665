//! `shogi convert --to hcpe|psv|positions` end to end: the binary entries decoded with
//! shogi-train's own decoders and checked against a replay of each game's main line (taken from
//! `shogi convert --to usi`, so the reference does not share the training code), on the
//! samples, the fixtures and, when present, every record of ../shared/corpus.

use crate::common;

use common::{
    assert_contains, code, scratch, shared_corpus, shogi, shogi_ok, shogi_with, stderr, stdout,
};
use shogi_core::{Move, Position, Variant, parse_usi_position};
use shogi_train::{GameResult, Hcpe, PackedSfenValue, PositionFormat};
use std::path::{Path, PathBuf};

/// The main lines of every readable record of `path`, from `--to usi`.
fn usi_games(path: &str) -> Vec<Option<(Position, Vec<Move>)>> {
    let out = shogi(&["convert", path, "--to", "usi", "--lossy"]);
    stdout(&out)
        .lines()
        .map(|l| {
            parse_usi_position(l, Variant::Standard)
                .ok()
                .map(|u| (u.start, u.moves))
        })
        .collect()
}

/// The SFEN without its move number (hcp does not hold it).
fn board(pos: &Position) -> String {
    let sfen = pos.to_sfen();
    sfen.rsplit_once(' ')
        .map_or(sfen.clone(), |(b, _)| b.to_string())
}

/// What the entries of one file held, game by game.
#[derive(Debug, Default)]
struct Checked {
    games: usize,
    entries: usize,
    results: Vec<GameResult>,
}

/// Converts `path` (every game kept, finished or not) to hcpe, psv and positions, decodes the
/// entries and checks each against the replay: position, move, ply, and one result per game,
/// the same in the three outputs.
fn check(path: &str) -> Checked {
    let run = |to: &str| {
        let out = shogi(&["convert", path, "--to", to, "--keep-unfinished"]);
        assert!(code(&out) <= 1, "{path}: {}", stderr(&out));
        out.stdout
    };
    let (hcpe, psv, text) = (run("hcpe"), run("psv"), run("positions"));
    let text = String::from_utf8(text).expect("UTF-8");
    assert_eq!(hcpe.len() % Hcpe::SIZE, 0, "{path}");
    assert_eq!(psv.len() % PackedSfenValue::SIZE, 0, "{path}");
    let (h, p) = (
        hcpe.chunks_exact(Hcpe::SIZE).collect::<Vec<_>>(),
        psv.chunks_exact(PackedSfenValue::SIZE).collect::<Vec<_>>(),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(h.len(), p.len(), "{path}");
    assert_eq!(h.len(), lines.len(), "{path}");
    let mut done = Checked::default();
    let mut i = 0;
    for game in usi_games(path) {
        let Some((start, moves)) = game else { continue };
        if moves.is_empty() || PositionFormat::Hcp.encode_to_array(&start).is_err() {
            continue;
        }
        done.games += 1;
        let mut pos = start;
        let mut result = None;
        for m in moves {
            assert!(i < h.len(), "{path}: fewer entries than positions");
            let he = Hcpe::from_bytes(h[i].try_into().expect("38 bytes")).expect("hcpe entry");
            let pe =
                PackedSfenValue::from_bytes(p[i].try_into().expect("40 bytes")).expect("psv entry");
            let hp = he.position().expect("hcp decodes");
            let pp = pe.position().expect("psfen decodes");
            assert_eq!(board(&hp), board(&pos), "{path}: entry {i}");
            assert_eq!(
                pp.to_sfen(),
                pos.to_sfen(),
                "{path}: entry {i} (with gamePly)"
            );
            assert_eq!(
                he.best_move(&hp).expect("legal"),
                Some(m),
                "{path}: entry {i}"
            );
            assert_eq!(
                pe.best_move(&pp).expect("legal"),
                Some(m),
                "{path}: entry {i}"
            );
            assert_eq!(
                u32::from(pe.game_ply),
                pos.move_number(),
                "{path}: entry {i}"
            );
            assert_eq!(pe.absolute_result(), he.game_result, "{path}: entry {i}");
            assert_eq!(h[i][37], 0, "hcpe padding");
            assert_eq!(p[i][39], 0, "psv padding");
            let r = *result.get_or_insert(he.game_result);
            assert_eq!(he.game_result, r, "{path}: one result per game");
            // The text line: SFEN, move, ply, result and score as psv has them.
            let fields: Vec<&str> = lines[i].split('\t').collect();
            assert_eq!(fields.len(), 5, "{}", lines[i]);
            assert_eq!(fields[0], pos.to_sfen());
            assert_eq!(fields[1], m.to_usi());
            assert_eq!(fields[2], pe.game_ply.to_string());
            assert_eq!(fields[3], pe.game_result.to_byte().to_string());
            assert_eq!(fields[4], pe.score.to_string());
            // Both scores come from one evaluation: equal below psv's cap.
            if he.eval.unsigned_abs() < 32000 {
                assert_eq!(he.eval, pe.score, "{path}: entry {i}");
            }
            pos.play(m).expect("legal move");
            i += 1;
        }
        done.results.extend(result);
    }
    assert_eq!(i, h.len(), "{path}: more entries than positions");
    done.entries = i;
    done
}

#[test]
fn samples_decode_to_their_replayed_positions() {
    for f in ["game.kif", "game.ki2", "game.csa", "game.jkf", "game.usi"] {
        let c = check(&format!("samples/{f}"));
        assert_eq!(c.games, 1, "{f}");
        assert_eq!(c.entries, 30, "{f}");
    }
    // The KIF, KI2, CSA and JKF samples end with sente's resignation; USI has no result.
    assert_eq!(check("samples/game.kif").results, [GameResult::WhiteWin]);
    assert_eq!(check("samples/game.usi").results, [GameResult::Draw]);
    // Mini Shogi cannot be encoded: no entries.
    assert_eq!(check("samples/mini.kif").entries, 0);
}

#[test]
fn fixtures_decode_to_their_replayed_positions() {
    let c = check("tests/fixtures/records");
    assert!(c.games >= 3, "{c:?}");
    let f = check("tests/fixtures/training/floodgate.csa");
    assert_eq!((f.games, f.entries), (1, 13));
    assert_eq!(f.results, [GameResult::BlackWin]);
}

/// Every record of the shared corpus that the reader accepts (when ../shared is there).
#[test]
fn corpus_decodes_to_its_replayed_positions() {
    let Some(corpus) = shared_corpus() else {
        return;
    };
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![corpus];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("corpus folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| !matches!(x, "md" | "tsv"))
            {
                files.push(p);
            }
        }
    }
    files.sort();
    let (mut games, mut entries) = (0, 0);
    for f in &files {
        let c = check(&f.to_string_lossy());
        games += c.games;
        entries += c.entries;
    }
    eprintln!("corpus: {games} games, {entries} entries checked");
    assert!(
        games > 100 && entries > 10_000,
        "{games} games, {entries} entries"
    );
}

#[test]
fn positions_of_the_sample_game() {
    let out = shogi_ok(&["convert", "samples/game.kif", "--to", "positions"]);
    assert_eq!(stderr(&out), "wrote 30 positions entries from 1 game(s)\n");
    insta::assert_snapshot!("positions_sample_game", stdout(&out));
}

#[test]
fn floodgate_scores_turn_to_the_side_to_move() {
    let out = shogi_ok(&[
        "convert",
        "tests/fixtures/training/floodgate.csa",
        "--to",
        "positions",
    ]);
    let evals: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.rsplit('\t').next().unwrap_or("").to_string())
        .collect();
    // Sente's view in the record ('** 52, -40, 61, none, 70, -75, ...), the mover's here.
    // The -100000 on move 12 (gote's P*2c: gote's engine sees a mate for gote, from sente's
    // view) is +100000 for gote to move, capped at psv's 32000; so is 32768 on move 13.
    assert_eq!(
        evals,
        [
            "52", "40", "61", "0", "70", "75", "88", "90", "130", "150", "170", "32000", "32000"
        ]
    );
    let hcpe = shogi(&[
        "convert",
        "tests/fixtures/training/floodgate.csa",
        "--to",
        "hcpe",
    ]);
    let last = &hcpe.stdout[12 * Hcpe::SIZE..];
    let e = Hcpe::from_bytes(last.try_into().expect("38 bytes")).expect("entry");
    // 32768 from sente's view, sente to move: hcpe's cap is 32767.
    assert_eq!(e.eval, 32767);
    assert_eq!(e.game_result, GameResult::BlackWin);
}

#[test]
fn filters_leave_games_out_and_say_how_many() {
    let fg = "tests/fixtures/training/floodgate.csa";
    let count = |args: &[&str]| {
        let mut a = vec!["convert", fg, "samples/game.usi", "--to", "positions"];
        a.extend_from_slice(args);
        let out = shogi(&a);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        (stdout(&out).lines().count(), stderr(&out))
    };
    let (n, err) = count(&[]);
    assert_eq!(n, 13);
    assert_eq!(
        err,
        "wrote 13 positions entries from 1 game(s); games left out: 1 without a result\n"
    );
    assert_eq!(count(&["--keep-unfinished"]).0, 43);
    assert_eq!(count(&["--skip-first", "10"]).0, 3);
    assert_eq!(count(&["--keep-unfinished", "--skip-draws"]).0, 13);
    // Ratings 3612 and 3488 in the Floodgate game; the USI game has none.
    assert_eq!(count(&["--min-rating", "3488"]).0, 13);
    let (n, err) = count(&["--min-rating", "3500"]);
    assert_eq!(n, 0);
    assert!(err.contains("2 below --min-rating or unrated"), "{err}");
}

#[test]
fn declarations_and_draws() {
    let dir = scratch("training-endings");
    let kachi = dir.join("kachi.csa");
    // A declaration that does not meet the 27-point rule: the declarer (sente) loses.
    std::fs::write(&kachi, "V2\nPI\n+\n+7776FU\n-3334FU\n%KACHI\n").expect("write");
    let draw = dir.join("draw.csa");
    std::fs::write(&draw, "V2\nPI\n+\n+7776FU\n-3334FU\n%JISHOGI\n").expect("write");
    let out = shogi(&["convert", &s(&kachi), &s(&draw), "--to", "positions"]);
    let text = stdout(&out);
    let results: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').nth(3).unwrap_or(""))
        .collect();
    assert_eq!(results, ["-1", "1", "0", "0"], "{text}");
    let out = shogi(&[
        "convert",
        &s(&kachi),
        &s(&draw),
        "--to",
        "positions",
        "--skip-draws",
        "--skip-declarations",
    ]);
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        "wrote 0 positions entries from 0 game(s); games left out: 1 draws, 1 declarations\n"
    );
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

#[test]
fn binary_goes_to_a_file_a_folder_or_a_pipe_never_a_terminal() {
    let terminal = shogi_cli::Options {
        stdout_terminal: true,
        ..shogi_cli::Options::default()
    };
    let out = shogi_with(&["convert", "samples/game.kif", "--to", "hcpe"], &terminal);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    assert_contains(&stderr(&out), "not written to a terminal");
    // Text is fine on a terminal.
    let out = shogi_with(
        &["convert", "samples/game.kif", "--to", "positions"],
        &terminal,
    );
    assert_eq!(code(&out), 0);

    let dir = scratch("training-out");
    let file = dir.join("all.psv");
    let psv = |extra: &[&str]| {
        let inputs = ["samples/game.kif", "samples/game.csa"];
        shogi(&[&["convert"][..], &inputs, &["--to", "psv"], extra].concat())
    };
    let piped = psv(&[]);
    let out = psv(&["--output", &s(&file)]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(std::fs::read(&file).expect("written"), piped.stdout);
    assert_eq!(piped.stdout.len(), 60 * PackedSfenValue::SIZE);

    let folder = dir.join("per-input");
    shogi_ok(&[
        "convert",
        "samples",
        "--to",
        "hcpe",
        "--out-dir",
        &s(&folder),
        "--jobs",
        "2",
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .expect("folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // Five samples share the stem `game`, so each keeps its whole name; the Mini Shogi
    // sample and the USI line (no result) give no file.
    assert_eq!(
        names,
        [
            "game.csa.hcpe",
            "game.jkf.hcpe",
            "game.ki2.hcpe",
            "game.kif.hcpe"
        ]
    );
    let out = shogi(&[
        "convert",
        "samples/game.kif",
        "--to",
        "hcpe",
        "--out-dir",
        &s(&folder),
        "--output",
        &s(&file),
    ]);
    assert_eq!(code(&out), 2);
    // The training flags belong to the training targets.
    let out = shogi(&[
        "convert",
        "samples/game.kif",
        "--to",
        "sfen",
        "--skip-draws",
    ]);
    assert_eq!(code(&out), 2);
}
