//! Training entries from records: engine evaluations in comments, results judged by the
//! rules, which games and positions give entries.

use shogi_core::{Color, Move, Score};
use shogi_kif::EndingKind;
use shogi_train::{GameResult, Skip, TrainingOptions, entries, game_result, hcpe_eval, psv_score};

/// The evaluations of a game's three positions (before moves 1, 2 and 3) when each of the
/// first two moves holds `comments[i]` (whole lines as the file has them, `""` for none).
fn evals(format: &str, comments: [&str; 2]) -> Vec<Option<Score>> {
    let c = |i: usize| match comments[i] {
        "" => String::new(),
        line => format!("{line}\n"),
    };
    let text = match format {
        "csa" => format!(
            "V2\nPI\n+\n+7776FU\n{}-3334FU\n{}+2726FU\n%TORYO\n",
            c(0),
            c(1)
        ),
        _ => format!(
            "手数----指手--\n   1 ７六歩(77)\n{}   2 ３四歩(33)\n{}   3 ２六歩(27)\n   4 投了\n",
            c(0),
            c(1)
        ),
    };
    let record = shogi_kif::read_str(&text, shogi_kif::ReadOptions::default()).expect("readable");
    let all = entries(&record, &TrainingOptions::default()).expect("selected");
    all.iter().map(|e| e.eval).collect()
}

/// The evaluation a single comment line on move 1 gives, whichever position it values
/// (before move 1 for an engine's own line, after it for an analysis).
fn one(format: &str, line: &str) -> Option<Score> {
    let e = evals(format, [line, ""]);
    assert!(e[2].is_none(), "{line}: nothing reaches the third position");
    e[0].or(e[1])
}

fn kif(line: &str) -> Option<Score> {
    one("kif", line)
}

fn csa(line: &str) -> Option<Score> {
    one("csa", line)
}

#[test]
fn floodgate_scores() {
    // Lines from the shared corpus's Floodgate records.
    assert_eq!(csa("'** 47 -3334FU +2726FU -8485FU"), Some(Score::Cp(47)));
    assert_eq!(csa("'** 0"), Some(Score::Cp(0)));
    assert_eq!(csa("'** -865423 +2726FU"), Some(Score::Cp(-865423)));
    assert_eq!(csa("'** 100000 +0054KA"), Some(Score::Cp(100000)));
    // A V3 comment and the header-like comments are not scores.
    assert_eq!(csa("'*30手目から"), None);
    assert_eq!(csa("'** 読み筋と評価値"), None);
    assert_eq!(csa("'summary:toryo:a win:b lose"), None);
    assert_eq!(csa("'** 12abc"), None);
}

#[test]
fn shogihome_comments() {
    // tsshogi's sample04 (ShogiHome): `**評価値=159` in KIF.
    assert_eq!(kif("**評価値=159"), Some(Score::Cp(159)));
    assert_eq!(kif("**評価値=-1184"), Some(Score::Cp(-1184)));
    assert_eq!(kif("*#評価値=+2000"), Some(Score::Cp(2000)));
    assert_eq!(csa("'*#評価値=-500"), Some(Score::Cp(-500)));
    assert_eq!(kif("**詰み=先手勝ち:7手"), Some(Score::Mate { plies: 7 }));
    assert_eq!(
        kif("*#詰み=後手勝ち"),
        Some(Score::MateUnknown { winning: false })
    );
    assert_eq!(kif("**読み筋=△６二銀▲７八玉"), None);
    assert_eq!(kif("**深さ=15"), None);
    assert_eq!(kif("*互角"), None);
}

#[test]
fn shogigui_and_piyo_comments() {
    // kif-parser's ShogiGUI record.
    assert_eq!(
        kif("**対局 深さ 2 ノード数 1123 評価値 100 読み筋 △３四歩(33) "),
        Some(Score::Cp(100))
    );
    assert_eq!(
        kif("**解析 0 ○ 候補1 時間 00:01.0 深さ 17/29 ノード数 123 評価値 -85 読み筋 △３四歩"),
        Some(Score::Cp(-85))
    );
    // The short form engines' own KIF writers use for ShogiGUI (sente's view too).
    assert_eq!(kif("**対局 評価値 -5000"), Some(Score::Cp(-5000)));
    // tsshogi's ぴよ将棋 record.
    assert_eq!(kif("*#指し手[2912]▲７六歩  △３四歩"), Some(Score::Cp(2912)));
    // Recommended moves and the summary lines carry no score of the move played.
    assert_eq!(kif("*#推奨手[2508]▲２六歩  △８四歩"), None);
    assert_eq!(kif("*#先手 悪手:0回  疑問手:2回"), None);
    // A human comment mentioning an evaluation is not an engine's.
    assert_eq!(kif("*評価値 300くらい"), None);
}

#[test]
fn which_position_a_comment_values() {
    // The playing engine's line on move 1 is its search before it: the start position's.
    assert_eq!(
        evals("kif", ["**評価値=40", "**評価値=-30"]),
        [Some(Score::Cp(40)), Some(Score::Cp(-30)), None]
    );
    assert_eq!(
        evals("csa", ["'** 35 -3334FU", "'** -20"]),
        [Some(Score::Cp(35)), Some(Score::Cp(-20)), None]
    );
    // An analysis of move 1 values the position after it (ShogiHome's `#` block, ShogiGUI's
    // 解析, ぴよ将棋's 指し手).
    assert_eq!(
        evals("kif", ["*#評価値=55", "*#評価値=70"]),
        [None, Some(Score::Cp(55)), Some(Score::Cp(70))]
    );
    assert_eq!(
        evals("kif", ["**解析 0 ○ 候補1 評価値 -85 読み筋 △３四歩", ""]),
        [None, Some(Score::Cp(-85)), None]
    );
    // Both value the second position: the analysis wins.
    assert_eq!(
        evals("kif", ["*#評価値=55", "**評価値=12"]),
        [None, Some(Score::Cp(55)), None]
    );
}

#[test]
fn formats_conventions() {
    let cp = Score::Cp(-40000);
    assert_eq!(hcpe_eval(cp, Color::Black), -32767);
    assert_eq!(hcpe_eval(cp, Color::White), 32767);
    assert_eq!(psv_score(cp, Color::Black), -32000);
    assert_eq!(psv_score(Score::Cp(123), Color::White), -123);
    // Gote mates in 5 (sente's view).
    let mate = Score::Mate { plies: -5 };
    assert_eq!(hcpe_eval(mate, Color::White), 32767);
    assert_eq!(hcpe_eval(mate, Color::Black), -32767);
    assert_eq!(psv_score(mate, Color::White), 31995);
    assert_eq!(psv_score(mate, Color::Black), -31995);
    let unknown = Score::MateUnknown { winning: true };
    assert_eq!(psv_score(unknown, Color::Black), 32000);
    assert_eq!(psv_score(unknown, Color::White), -32000);
    // Sente has mated: the mated side's view is a loss at distance 0.
    assert_eq!(psv_score(Score::MateGiven, Color::White), -32000);
}

fn result_of(text: &str) -> Option<GameResult> {
    game_result(&shogi_kif::read_str(text, shogi_kif::ReadOptions::default()).expect("readable"))
}

#[test]
fn results() {
    let two = "V2\nPI\n+\n+7776FU\n-3334FU\n";
    assert_eq!(
        result_of(&format!("{two}%TORYO\n")),
        Some(GameResult::WhiteWin)
    );
    assert_eq!(
        result_of("V2\nPI\n+\n+7776FU\n%TORYO\n"),
        Some(GameResult::BlackWin)
    );
    assert_eq!(
        result_of(&format!("{two}%TIME_UP\n")),
        Some(GameResult::WhiteWin)
    );
    assert_eq!(
        result_of(&format!("{two}%SENNICHITE\n")),
        Some(GameResult::Draw)
    );
    assert_eq!(
        result_of(&format!("{two}%JISHOGI\n")),
        Some(GameResult::Draw)
    );
    assert_eq!(result_of(&format!("{two}%CHUDAN\n")), None);
    assert_eq!(result_of(two), None);
    // A declaration that does not meet the rule loses.
    assert_eq!(
        result_of(&format!("{two}%KACHI\n")),
        Some(GameResult::WhiteWin)
    );
}

#[test]
fn perpetual_check_loses() {
    // Sente gives check with every move of the cycle: perpetual check, sente loses.
    let text = "position sfen 4k4/9/9/9/9/9/9/9/4K3R b G 1 moves 1i1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a 5a5b 1a1b 5b5a 1b1a";
    let mut record =
        shogi_kif::read_str(text, shogi_kif::ReadOptions::default()).expect("readable");
    record.moves.ending = Some(shogi_kif::Ending::new(EndingKind::Repetition));
    let checks = game_result(&record);
    assert_eq!(checks, Some(GameResult::WhiteWin));
}

#[test]
fn entries_of_a_floodgate_game() {
    let csa = "V2\nN+a\nN-b\nPI\n+\n+7776FU\n'** 35 -3334FU\n-3334FU\n'** -20\n+2726FU\n%TORYO\n";
    let record = shogi_kif::read_str(csa, shogi_kif::ReadOptions::default()).expect("readable");
    let all = entries(&record, &TrainingOptions::default()).expect("selected");
    let usi: Vec<String> = all.iter().map(|e| e.mv.to_usi()).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "2g2f"]);
    assert_eq!(all.iter().map(|e| e.ply).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(all[2].eval, None);
    assert_eq!(all[2].hcpe_eval(), 0);
    assert!(all.iter().all(|e| e.result == GameResult::BlackWin));
    assert_eq!(
        all[1].text_line(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\t3c3d\t2\t-1\t20"
    );
    let later = TrainingOptions {
        skip_first: 2,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&record, &later).expect("selected").len(), 1);
    let no_draws = TrainingOptions {
        skip_draws: true,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&record, &no_draws).map(|e| e.len()), Ok(3));
}

#[test]
fn games_left_out() {
    let read =
        |t: &str| shogi_kif::read_str(t, shogi_kif::ReadOptions::default()).expect("readable");
    let draw = read("V2\nPI\n+\n+7776FU\n%SENNICHITE\n");
    let opts = TrainingOptions {
        skip_draws: true,
        ..TrainingOptions::default()
    };
    assert_eq!(entries(&draw, &opts), Err(Skip::Draw));
    let open = read("V2\nPI\n+\n+7776FU\n");
    assert_eq!(
        entries(&open, &TrainingOptions::default()),
        Err(Skip::NoResult)
    );
    let keep = TrainingOptions {
        keep_unfinished: true,
        ..TrainingOptions::default()
    };
    assert_eq!(
        entries(&open, &keep).map(|e| e[0].result),
        Ok(GameResult::Draw)
    );
    let mini = read("position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n");
    let mut mini = mini;
    mini.moves.ending = Some(shogi_kif::Ending::new(EndingKind::Resign));
    assert!(matches!(
        entries(&mini, &TrainingOptions::default()),
        Err(Skip::NotEncodable(_))
    ));
    // A record built in code with an illegal move gives nothing.
    let mut bad = read("V2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
    bad.moves.moves[1].mv = Move::from_usi("7g7f").expect("usi");
    assert_eq!(
        entries(&bad, &TrainingOptions::default()),
        Err(Skip::IllegalMove { ply: 2 })
    );
}
