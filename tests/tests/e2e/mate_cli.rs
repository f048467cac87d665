//! `shogi mate` and `shogi check --mate`: answers for SFENs and records, a record's stated
//! answer checked, and a resigned game where the loser had a mate.

use crate::common;

use common::{assert_contains, code, scratch, shogi, shogi_stdin, stdout};

#[test]
fn sfens_are_solved_one_line_each() {
    let out = shogi(&[
        "mate",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "8k/9/9/9/9/9/9/9/R8 b - 1",
        "--shortest",
        "--jobs",
        "2",
    ]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0]
            .starts_with("4k4/9/4P4/9/9/9/9/9/4K4 b G 1: mate 1 (minimal, unique): G*5b / ▲５二金"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("8k/9/9/9/9/9/9/9/R8 b - 1: nomate"),
        "{text}"
    );
}

#[test]
fn json_and_csv_rows() {
    let t7 = "3+P+P+P+P+L1/1g7/1n2pppp1/2+Psg+p3/+b+nL4S1/1PP2+P1kL/9/4+PsP2/6G1g b S2rb2nl3p 1519";
    let out = shogi(&["mate", t7, "--depth", "5", "--format", "json"]);
    let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(row["result"], "nomate within 5");
    let out = shogi(&["mate", t7, "--shortest", "--format", "csv"]);
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("path,problem,result,length,minimal,unique,pv_usi,pv_japanese,nodes,time_s,note")
    );
    let row = lines.next().unwrap();
    assert!(
        row.contains(",mate,7,true,true,4f3f 2f1g S*2h 1g1h 2h1i 1h1i G*2i,"),
        "{row}"
    );
}

#[test]
fn a_stated_answer_is_checked() {
    // A CSA problem: sente mates by G*5b; the record's answer is a gold drop that does not mate.
    let board = "P1 *  *  *  *  -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  +FU *  *  *  * \n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  +OU *  *  *  * \nP+00KI\n+\n";
    let good = format!("V2.2\n{board}+0052KI\n%TSUMI\n");
    let bad = format!("V2.2\n{board}+0042KI\n");
    let dir = scratch("mate-answers");
    std::fs::write(dir.join("good.csa"), good).unwrap();
    std::fs::write(dir.join("bad.csa"), &bad).unwrap();
    let out = shogi(&["mate", dir.to_str().unwrap(), "--shortest"]);
    let text = stdout(&out);
    assert_eq!(code(&out), 1, "{text}");
    assert!(
        text.contains("bad.csa:1: mate 1 (minimal, unique): G*5b"),
        "{text}"
    );
    assert!(
        text.contains("stated answer (1 plies) does not mate"),
        "{text}"
    );
    assert!(
        text.contains("good.csa:1: mate 1") && text.contains("stated answer mates (1 plies)"),
        "{text}"
    );
    // The same from stdin.
    let out = shogi_stdin(&["mate", "-"], &bad);
    assert_contains(&stdout(&out), "<stdin>:1: mate 1");
}

#[test]
fn bad_problems_are_errors_not_panics() {
    // No gote king.
    let out = shogi(&["mate", "9/9/9/9/9/9/9/9/4K4 b G 1"]);
    assert_eq!(code(&out), 1);
    assert_contains(&stdout(&out), ": error [");
    // Not an SFEN, not a file.
    let out = shogi(&["mate", "no-such-thing"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn check_mate_flags_a_resignation_with_a_mate_on_the_board() {
    // Sente, to move, resigns while G*5b mates.
    let csa = "V2.2\nP1 *  *  *  *  -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  +FU *  *  *  * \n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  +OU *  *  *  * \nP+00KI\n+\n%TORYO\n";
    let dir = scratch("check-mate");
    let path = dir.join("resigned.csa");
    std::fs::write(&path, csa).unwrap();
    let out = shogi(&["check", "--mate", path.to_str().unwrap()]);
    let all = format!("{}{}", stdout(&out), common::stderr(&out));
    assert!(
        all.contains("warning: the loser had a forced mate in 1 at ply 0 (move 1): G*5b"),
        "{all}"
    );
    // Without --mate: no such warning.
    let out = shogi(&["check", path.to_str().unwrap()]);
    assert!(!format!("{}{}", stdout(&out), common::stderr(&out)).contains("forced mate"));
}

#[test]
fn a_composed_answer_ending_before_futile_drops_agrees() {
    // 小林正美 (近代将棋 1967-02), まで49手詰: its answer stops at 83飛成, where the defender
    // has only drops on 82 left, each taken by the horse or the dragon with mate (futile).
    let Some(corpus) = common::shared_corpus() else {
        return;
    };
    let f = corpus
        .join("kifu-for-js/packages/json-kifu-format/test/files/ki2/kobayashi_kinsho196702.ki2");
    let out = shogi(&[
        "mate",
        f.to_str().unwrap(),
        "--shortest",
        "--format",
        "json",
    ]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}");
    let row: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(row["length"], 49, "{text}");
    assert_eq!(row["minimal"], true, "{text}");
    assert_eq!(
        row["note"], "stated answer mates (49 plies, futile interpositions not counted)",
        "{text}"
    );
}
