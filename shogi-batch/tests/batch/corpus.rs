//! Rows over the shared corpus: plies, start and final position of every file equal
//! REFERENCE_CONSENSUS.tsv (where DISAGREEMENTS.md shows the references wrong, our answer is
//! listed with the reason), and the endings DISAGREEMENTS.md §3 establishes. Skips (passes)
//! when the corpus is absent.

use shogi_batch::{Event, GameRow, Selection, expand, pool, run, select_row, start_text};
use shogi_testkit::corpus;
use std::collections::HashMap;
use std::ops::ControlFlow;

/// Files where the consensus is no answer (every reference rejected them): ours.
/// (path, games, plies of game 1, why)
const OUR_ANSWERS: &[(&str, u32, u32, &str)] = &[
    (
        "ShogiBoardQ/tests/fixtures/test_collection.sfen",
        3,
        0,
        "bare SFEN positions, one record per line",
    ),
    (
        "bioshogi/spec/files/wars_kachi_gote.csa",
        1,
        225,
        "Shogi Wars CSA without a start position: read from 平手 (DISAGREEMENTS.md §2)",
    ),
    (
        "bioshogi/spec/files/wars_setsudan_chudan.csa",
        1,
        124,
        "same",
    ),
];

/// DISAGREEMENTS.md §3: (path, ending, winner, repetition ply).
const ENDINGS: &[(&str, &str, &str, Option<u32>)] = &[
    (
        "shogi-server/test/csa/oute_sennichite.csa",
        "perpetual-check",
        "gote",
        Some(110),
    ),
    (
        "shogi-server/test/csa/oute_sennichite2.csa",
        "perpetual-check",
        "sente",
        Some(135),
    ),
    (
        "shogi-server/test/csa/oute_sennichite3.csa",
        "perpetual-check",
        "gote",
        Some(134),
    ),
    ("shogi-server/test/csa/not_sennichite.csa", "", "none", None),
    (
        "shogi-server/test/csa/jishogi_kachi.csa",
        "declaration",
        "",
        None,
    ),
    (
        "ShogiBoardQ/tests/fixtures/test_kiou_comments.kif",
        "repetition",
        "draw",
        Some(96),
    ),
    (
        "mog-core-scala/jvm/src/test/resources/kif/game/009.kif",
        "repetition",
        "draw",
        Some(85),
    ),
];

#[test]
fn corpus_rows_agree_with_the_references() {
    let Some(consensus) = corpus::consensus("corpus rows test") else {
        return;
    };
    let inputs = expand(&[corpus::ROOT]).unwrap();
    let mut rows: HashMap<String, Vec<GameRow>> = HashMap::new();
    let selection = Selection::new();
    let _ = run(
        &inputs,
        &Default::default(),
        &pool(Some(2)).unwrap(),
        |input, game| select_row(input, &game, &selection),
        |input, e| {
            if let Event::Game(Some(row)) = e {
                let rel = input.shard_name();
                rows.entry(rel).or_default().push(row);
            }
            ControlFlow::Continue(())
        },
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in &consensus {
        let path = row.path.as_str();
        let (init, count, fin) = (&row.initial_sfen, &row.move_count, &row.final_sfen);
        let Some(games) = rows.get(path) else {
            failures.push(format!("{path}: no row"));
            continue;
        };
        let r = &games[0];
        checked += 1;
        if let Some((_, n, plies, _)) = OUR_ANSWERS.iter().find(|a| a.0 == path) {
            if games.len() as u32 != *n || r.plies != *plies || !r.valid {
                failures.push(format!(
                    "{path}: {} games, {} plies, valid {}",
                    games.len(),
                    r.plies,
                    r.valid
                ));
            }
            continue;
        }
        // The key's spelling of a position is the consensus's: no move number.
        let start = r.start_sfen.as_deref().map(start_text).unwrap_or_default();
        let end = r.final_sfen.as_deref().map(start_text).unwrap_or_default();
        if let Some(ply) = row.illegal_ply() {
            // Either refused at that ply, or read as a foul the record declares.
            let refused = !r.valid && r.error_ply == Some(ply);
            let declared = r.valid
                && r.plies == ply
                && r.ending.map(|e| e.name()) == Some("foul")
                && end == *fin;
            if !(refused || declared) {
                failures.push(format!(
                    "{path}: expected illegal at {ply}: valid {}, error_ply {:?}, plies {}, {:?}",
                    r.valid, r.error_ply, r.plies, r.first_error
                ));
            }
            continue;
        }
        let mut bad = Vec::new();
        if !r.valid {
            bad.push(format!("invalid: {:?}", r.first_error));
        }
        if r.plies.to_string() != *count {
            bad.push(format!("{} plies != {count}", r.plies));
        }
        if start != *init {
            bad.push(format!("start {start} != {init}"));
        }
        if end != *fin {
            bad.push(format!("final {end} != {fin}"));
        }
        if !bad.is_empty() {
            failures.push(format!("{path}: {}", bad.join("; ")));
        }
    }
    for (path, ending, winner, rep) in ENDINGS {
        let r = &rows[*path][0];
        let got = (
            r.ending.map_or("", |e| e.name()),
            r.winner.name(),
            r.repetition_ply,
        );
        let want_winner = if winner.is_empty() { got.1 } else { winner };
        if got != (*ending, want_winner, *rep) {
            failures.push(format!(
                "{path}: ending {got:?}, expected {:?}",
                (ending, winner, rep)
            ));
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(checked > 190, "only {checked} files checked");
    assert!(
        failures.is_empty(),
        "{} corpus files differ",
        failures.len()
    );
}
